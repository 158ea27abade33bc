"""Manipulation functions (array API 2025.12, "Manipulation Functions").

Most are plain delegations to the backend namespace (NumPy's and CuPy's behaviour matches the
spec); concat and stack promote dtypes by the spec's table rather than NumPy's, and
broadcast_shapes accepts the spec's unknown (None) dimensions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Literal, cast, overload

import numpy as np

from ._array import copy_flag, held, inherit_read_only, mark_read_only, ndarray, wrap
from ._creation import empty
from ._devices import CPU, CUDA_TYPE
from ._backends import NoBackendError
from ._dispatch import axis_checked, AxisError, check_axis, check_c_int_axis, check_device
from ._dispatch import cpu_error_first, delegate
from ._dispatch import delegate_first, expect_array, fresh, ints, namespace_for, native, on
from ._dispatch import native_or_cpu_error
from ._dispatch import refuse_axes_of_0d, shape_tuple, shown, strict_int, type_name, within_largest
from ._dispatch import undispatched, within_dimensions, wrap_result
from ._dtypes import FROM_NUMPY, NUMPY_PROMOTION, no_promotion
from ._held import held_view

_np_ndarray = np.ndarray
_np_broadcast_to = np.broadcast_to
_np_roll = undispatched(np.roll)
_np_stack, _np_concatenate = undispatched(np.stack), undispatched(np.concatenate)
_INT = frozenset({int})

__all__ = [
    "broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims", "flip",
    "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack", "tile",
    "unstack",
]


def result_dtype(name: str, arrays: Sequence[Any]) -> Any:
    """The spec's promoted backend dtype of ``arrays``; TypeError where it defines none."""
    dt = arrays[0].dtype
    for a in arrays[1:]:
        if a.dtype != dt:
            r = NUMPY_PROMOTION.get((dt, a.dtype))
            if r is None:
                raise no_promotion(name, *(FROM_NUMPY[b.dtype] for b in arrays))
            dt = r
    return dt


def _joined(name: str, arrays: Sequence[ndarray], axis: int | None) -> ndarray:
    if type(axis) is int and (type(arrays) is tuple or type(arrays) is list) and arrays \
            and type(arrays[0]) is ndarray and type(arrays[0]._array) is _np_ndarray:
        # The common call, NumPy arrays of one dtype and shape (concat: ndim) on an axis they
        # have: NumPy's own join, where each check below passes (~4 us of them)
        first = arrays[0]._array
        dtype, ndim, shape, total = first.dtype, first.ndim, first.shape, 0
        stacks = name == "stack"
        natives = []
        for x in arrays:
            a = x._array if type(x) is ndarray else None
            if type(a) is not _np_ndarray or a.dtype is not dtype or \
                    (a.shape != shape if stacks else a.ndim != ndim):
                break
            natives.append(a)
            total += a.size
        else:
            if (-ndim - 1 <= axis <= ndim < 64 if stacks else ndim and -ndim <= axis < ndim) \
                    and total and total * dtype.itemsize < 1 << 63:  # (see _join_fits)
                # (of one dtype, so no dtype asked: concatenate's keywords and its
                # __array_function__ dispatch cost ~0.5 us)
                return wrap(_np_stack(natives, axis) if stacks else
                            _np_concatenate(natives, axis), CPU)
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(f"{name} takes a list or tuple of arrays, not {type(arrays).__name__}")
    if not arrays:
        raise ValueError(f"{name} needs at least one array")
    for a in arrays:
        if not isinstance(a, ndarray):
            raise TypeError(f"{name} joins dltensor arrays, not {type_name(a)}; convert "
                            "with dltensor.asarray() first")
    if axis is not None:
        axis = strict_int(axis, f"{name}'s axis")  # (NumPy's stack reads True as 1)
        if not -1 << 31 <= axis < 1 << 31:  # (NumPy and CuPy take a C int: OverflowError)
            raise AxisError(f"{name}: axis {axis} is out of bounds")
    # NumPy's checks, in NumPy's order, before the axis's (CuPy: a 0-d array is a TypeError,
    # and stack's axis comes before its shapes)
    if name == "stack":
        shape = arrays[0].shape
        for a in arrays:
            if a.shape != shape:
                raise ValueError("stack: all input arrays must have the same shape")
        within_dimensions("stack", len(shape) + 1)
    elif axis is not None:
        for a in arrays:
            if not a.ndim:
                raise ValueError("concat: zero-dimensional arrays cannot be concatenated")
        check_axis("concat", axis, arrays[0].ndim)  # (NumPy's: before the arrays' ndims)
    dev = check_device(*arrays)
    try:
        natives = [a._array if a._array is not None else a._compute() for a in arrays]
    except NoBackendError as e:  # held memory: the CPU's error first for bad arguments
        raise cpu_error_first(lambda a: _joined(name, a, axis), (arrays,), {}, e) from None
    # NumPy would promote int64 with uint64 to float64, or ints with floats: the spec does not.
    dtype = result_dtype(name, natives)
    _join_fits(name, natives, axis, dtype)
    result: ndarray = wrap_result(getattr(namespace_for(dev), name)(
        natives, axis=axis, dtype=dtype), dev)
    return result


def _join_fits(name: str, natives: list[Any], axis: int | None, dtype: Any) -> None:
    """ValueError for a join past the largest array (broadcasts of 2**62 elements, say): NumPy
    adds the lengths along the axis in C, which wraps, and copied every array into what the
    wrap left (``concat([b] * 4 + [x])`` crashed the process, ``concat([b] * 4)`` never
    returned)."""
    total = 0
    for a in natives:
        total += a.size
    if total and total * dtype.itemsize < 1 << 63:  # (the result's size: no extent is more)
        return
    if axis is None:
        extents = [total]
    elif name == "stack":
        extents = [len(natives), *natives[0].shape]
    elif all(a.ndim == natives[0].ndim for a in natives):  # (else the backend's error)
        extents = list(natives[0].shape)
        extents[axis] = sum(a.shape[axis] for a in natives)
    else:
        return
    within_largest(name, extents, max(np.dtype(dtype).itemsize, 1))


def concat(arrays: tuple[ndarray, ...] | list[ndarray], /, *, axis: int | None = 0) -> ndarray:
    """Join arrays along an existing axis (``axis=None``: flattened first)."""
    return _joined("concat", arrays, axis)


def stack(arrays: tuple[ndarray, ...] | list[ndarray], /, *, axis: int = 0) -> ndarray:
    """Join same-shaped arrays along a new axis."""
    return _joined("stack", arrays, axis)


@overload
def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]: ...
@overload
def broadcast_shapes(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...]: ...


def broadcast_shapes(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """The shape that arrays of ``shapes`` broadcast to.

    Written here because the spec allows unknown dimensions (None), which NumPy refuses: an
    unknown dimension makes the result's unknown, and known ones must still agree.
    """
    shape = _broadcast(tuple(_shape(s) for s in shapes))
    # No array has a shape past the largest (NumPy's broadcast_shapes refuses it, as zeros
    # and broadcast_to do): more than 64 axes, an extent or size past intp; beside an
    # unknown extent, which may be 0, an extent past intp
    if None not in shape:
        sizes = cast(tuple[int, ...], shape)
        past = max(sizes, default=0) >= 1 << 63 or math.prod(sizes) >= 1 << 63
    else:
        past = any(d is not None and d >= 1 << 63 for d in shape)
    if past:
        raise ValueError(f"broadcast_shapes: a result of shape {shape} is past the largest "
                         "array")
    within_dimensions("broadcast_shapes", len(shape))
    return shape


def _shape(s: Any) -> tuple[int | None, ...]:
    """One of broadcast_shapes' shapes: a tuple or list, or an int as NumPy takes one (a set,
    with no order, or a string is no shape)."""
    if type(s) is tuple:  # (the common case, a tuple of sizes: as it is)
        for d in s:
            if type(d) is not int or d < 0:
                break
        else:
            return s
    if isinstance(s, (tuple, list)):
        return tuple(_dimension(d) for d in s)
    if isinstance(s, (int, np.integer)):
        return (_dimension(s),)  # (a bool: _dimension's TypeError)
    if isinstance(s, (str, bytes, set, frozenset, dict)) or not hasattr(s, "__iter__"):
        raise TypeError(f"broadcast_shapes takes shapes (tuples of ints and None), not {shown(s)}")
    return tuple(_dimension(d) for d in s)  # (a range, a 1-D array of sizes)


def broadcast_of(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """broadcast_shapes of arrays' own shapes, unchecked (they are valid): the one shape when
    all are equal, found before any loop (an index assignment asked it twice, ~2.5 us each)."""
    first = shapes[0] if shapes else ()
    for s in shapes:
        if s != first:
            return _broadcast(shapes)  # type: ignore[return-value]  # (no None in them)
    return first


def _broadcast(shapes: tuple[tuple[int | None, ...], ...]) -> tuple[int | None, ...]:
    ndim = max((len(s) for s in shapes), default=0)
    known = [1] * ndim  # the size other than 1 each axis has met, else 1
    unknown = [False] * ndim
    for shape in shapes:
        for i, d in enumerate(shape, ndim - len(shape)):
            if d is None:
                unknown[i] = True
            elif d != 1 and d != known[i]:
                if known[i] != 1:
                    raise ValueError(f"shapes {', '.join(map(str, shapes))} cannot be "
                                     f"broadcast together (dimension {d} against {known[i]})")
                known[i] = d
    return tuple(None if u else k for k, u in zip(known, unknown))


def by_the_first(f: Callable[..., Any], arrays: Sequence[Any], cores: Sequence[int],
                 spread: Callable[[Any, tuple[int, ...]], Any]) -> Any:
    """``f(*arrays)`` for stacks of matrices that hold no elements, computed for the first
    matrix of each stack and spread over the stack (``spread(r, shape)``: one result ``r``
    made a new array of ``shape``). NumPy's matmul and linalg loop in C over every matrix of
    a stack, with nothing to do for each: 2**27 empty matrices took 0.6-10 s, 2**40 would not
    return. ``cores``: each array's trailing axes ``f`` works on, the rest its stack. None
    where the stacks broadcast to fewer than two matrices, or do not (``f``'s to answer)."""
    stacks = [a.shape[:max(a.ndim - c, 0)] for a, c in zip(arrays, cores)]
    try:
        stack = broadcast_of(*stacks)
    except ValueError:
        return None
    if math.prod(stack) < 2:
        return None
    r = f(*(a[(slice(0, 1),) * len(s) + (...,)] for a, s in zip(arrays, stacks)))

    def one(a: Any) -> Any:
        return spread(a, stack + a.shape[len(stack):])
    return tuple(map(one, r)) if isinstance(r, tuple) else one(r)


def broadcast_arrays(*arrays: ndarray) -> tuple[ndarray, ...]:
    """The arrays broadcast against each other, as a tuple of read-only views (as from
    broadcast_to: a broadcast's elements share memory, so a write would land in several)."""
    # Not np.broadcast_arrays: its results are writable (with a FutureWarning), and it stops
    # at 32 dimensions where capabilities() says 64.
    natives = []
    for x in arrays:
        a = x._array if type(x) is ndarray and x._device is CPU else None
        if type(a) is not _np_ndarray:
            break
        natives.append(a)
    else:
        if natives:
            # The common call, NumPy arrays on the CPU: the read-only views of one nditer, as
            # np.broadcast_to makes each (its Python ~2 us an array; 63 calls in all for two).
            # Where they do not broadcast, the checked path below says so in its words.
            try:
                return tuple([wrap(v, CPU) for v in _np_nditer(
                    natives, _BROADCAST_FLAGS, _READ_ONLY, order="C").itviews])
            except ValueError:
                pass
    expect_array("broadcast_arrays", *arrays)
    if len(arrays) > 1:
        check_device(*arrays)
    shape = broadcast_of(*(a.shape for a in arrays))
    return tuple(_broadcast_view(a, shape) for a in arrays)


_np_nditer = np.nditer
# (multi_index: no axes coalesced; order C: none reordered or reversed, as np.broadcast_to asks)
_BROADCAST_FLAGS: list[Literal["multi_index", "refs_ok", "zerosize_ok"]] = [
    "multi_index", "refs_ok", "zerosize_ok"]
_READ_ONLY: Any = ["readonly"]  # (for every operand: NumPy takes one list, its stubs not)


def broadcast_to(x: ndarray, /, shape: tuple[int, ...]) -> ndarray:
    """A read-only view of ``x`` broadcast to ``shape`` (its elements share memory)."""
    a = x._array if type(x) is ndarray else None
    if type(a) is _np_ndarray and type(shape) is tuple and shape and \
            _INT.issuperset(map(type, shape)) and min(shape) > 0 and \
            math.prod(shape) * a.itemsize < 1 << 63:
        pass  # (the common call: positive Python ints, which the checks below pass)
    elif isinstance(x, ndarray) and isinstance(shape, (tuple, list, int, np.integer)):
        # (CuPy checks only that extents match: (-1,) was a view of size -1, and so was
        # np.int64(-1), which skipped these checks)
        shape = tuple(strict_int(d, "broadcast_to's shape")
                      for d in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        if any(d < 0 for d in shape):
            raise ValueError(f"broadcast_to: a shape cannot have a negative extent: {shape}")
        fits("broadcast_to", shape, x)
    elif isinstance(x, ndarray):
        shape = shape_tuple("broadcast_to", shape)  # (an array given as a shape: TypeError)
    return _broadcast_view(x, shape)


def _broadcast_view(x: ndarray, shape: tuple[int, ...]) -> ndarray:
    """broadcast_to with ``shape`` checked (or an array's own)."""
    a = x._array if type(x) is ndarray else None
    # (NumPy's broadcast_to: ~2 us of Python; a view of the same strides where it would make
    # none 0, as it does for length-1 axes)
    if type(a) is np.ndarray and a.shape == shape and 1 not in shape:
        v = a.view()
        v.flags.writeable = False
        return wrap(v, x._device)  # (a view: of pinned memory, pinned)
    if type(a) is _np_ndarray and x._device is CPU:  # (what the delegate ends in, less it)
        return wrap(_np_broadcast_to(a, shape), CPU)
    result: ndarray = _broadcast_to(x, shape)
    if result._array is not None and result._device.device_type == CUDA_TYPE:
        mark_read_only(result._array)  # (NumPy's is read-only already; CuPy's has no flag)
    return result


_broadcast_to = delegate_first("broadcast_to")


def expand_dims(x: ndarray, /, axis: int | tuple[int, ...]) -> ndarray:
    """``x`` with new length-one axes at ``axis`` (positions in the result)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and type(axis) is int and -a.ndim - 1 <= axis <= a.ndim < 64:
        # (the common call: NumPy's expand_dims, a reshape of a, less its Python)
        at = axis % (a.ndim + 1)
        return wrap(a.reshape(a.shape[:at] + (1,) + a.shape[at:]), CPU)
    axis = ints("expand_dims", "axis", axis)
    if type(axis) is tuple:
        # A repeated position is an invalid axis, for which the spec asks IndexError; NumPy
        # raises a plain ValueError. AxisError is both, as for a position out of range.
        m = getattr(x, "ndim", 0) + len(axis)
        seen = {a + m if type(a) is int and a < 0 else a for a in axis}
        if len(seen) < len(axis):
            raise AxisError(f"repeated axis in {axis}")
    result: ndarray = _expand_dims(x, axis=axis)
    return result


_expand_dims = delegate_first("expand_dims")


# The functions of axes below check them as the spec types them (ints); a 0-d array refuses
# any axis (delegate_first).

_ALL, _REVERSE = slice(None), slice(None, None, -1)


def flip(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None) -> ndarray:
    """``x`` with the order of elements reversed along ``axis`` (all axes by default)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and a.ndim:
        # (the common calls: the view NumPy's flip makes, by the same slices, less its Python)
        if axis is None:
            return wrap(a[(_REVERSE,) * a.ndim], CPU)
        if type(axis) is int and -a.ndim <= axis < a.ndim:
            return wrap(a[(_ALL,) * (axis % a.ndim) + (_REVERSE,)], CPU)
    axis = ints("flip", "axis", axis, none=True)
    if type(x) is ndarray and x.ndim == 0 and (axis is None or axis == ()) and not held(x):
        a = native(x)  # (a view, as of any other array: NumPy's flip of a 0-d array gave a
        view: ndarray = wrap_result(inherit_read_only(a, a[...]), x._device)  # scalar, CuPy's
        return view  # a view)
    result: ndarray = _flip(x, axis=axis)
    return result


def moveaxis(x: ndarray, source: int | tuple[int, ...], destination: int | tuple[int, ...],
             /) -> ndarray:
    """``x`` with axes ``source`` moved to positions ``destination``."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and type(source) is int and type(destination) is int and \
            -a.ndim <= source < a.ndim and -a.ndim <= destination < a.ndim:
        # (the common call: NumPy's moveaxis, a transpose of a, less its Python)
        order = list(range(a.ndim))
        order.insert(destination % a.ndim, order.pop(source))
        return wrap(a.transpose(order), CPU)
    result: ndarray = _moveaxis(x, ints("moveaxis", "source", source),
                                ints("moveaxis", "destination", destination))
    return result


def permute_dims(x: ndarray, /, axes: tuple[int, ...]) -> ndarray:
    """``x`` with its axes permuted to ``axes``."""
    if type(x) is ndarray and type(axes) is tuple and x._device is CPU:
        a = x._array
        if type(a) is _np_ndarray and len(axes) == a.ndim:
            n = a.ndim
            for i in axes:
                if type(i) is not int or not -n <= i < n:
                    break
            else:  # (the common call: NumPy's own transpose, where the checks below pass)
                return wrap(a.transpose(axes), CPU)
    axes = ints("permute_dims", "axes", axes, one=False)
    if type(x) is ndarray and len(axes) != x.ndim:  # (CuPy reads () as x.T; NumPy refuses)
        raise ValueError(f"permute_dims: axes {axes} do not name each of the {x.ndim} axes of x "
                         "once")
    if type(x) is ndarray:
        for i in axes:
            check_c_int_axis("permute_dims", i, x.ndim)
    result: ndarray = _permute_dims(x, axes)
    return result


def squeeze(x: ndarray, /, axis: int | tuple[int, ...]) -> ndarray:
    """``x`` without the length-one axes ``axis`` (ValueError for an axis of another length)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and type(axis) is int and -a.ndim <= axis < a.ndim and \
            a.shape[axis] == 1:
        return wrap(a.squeeze(axis), CPU)  # (the common call: NumPy's own, less its dispatch)
    result: ndarray = _squeeze(x, ints("squeeze", "axis", axis))
    return result


_flip, _permute_dims = delegate_first("flip", -1), delegate_first("permute_dims")
_moveaxis, _squeeze = delegate_first("moveaxis"), delegate_first("squeeze", 0)


def repeat(x: ndarray, repeats: int | ndarray, /, *, axis: int | None = None) -> ndarray:
    """Each element of ``x`` repeated ``repeats`` times (flattened when ``axis`` is None)."""
    a = x._array if type(x) is ndarray and type(repeats) is int and x._device is CPU else None
    if type(a) is _np_ndarray and a.size and 0 <= repeats and \
            (axis is None or type(axis) is int and -a.ndim <= axis < a.ndim) and \
            a.size * repeats * a.itemsize < 1 << 63:
        # (the common call: NumPy's own repeat, where the checks below pass)
        return wrap(np.repeat(a, repeats, axis=axis), CPU)
    expect_array("repeat", x)
    if isinstance(repeats, ndarray):
        if repeats.dtype.spec_kind not in ("signed integer", "unsigned integer"):
            raise TypeError(f"repeat needs integer repeats, not {repeats.dtype.name}")
        check_device(x, repeats)  # (before a count is read: from another device, none is)
        if held(x) or held(repeats):  # (the CPU's error first, then the refusal)
            native_or_cpu_error(x if held(x) else repeats, repeat, x, repeats, axis=axis)
        if repeats.size == 1 and repeats.ndim <= 1:
            # One count, for every element: as the int it is (NumPy multiplied it by the
            # length in C: a negative one could wrap to a small positive total, whose array
            # it returned unwritten)
            repeats = int(native(repeats).reshape(()))
        elif repeats.dtype.name == "uint64":
            # NumPy casts repeats to intp only safely, which uint64 is not. A count past 2**63
            # wraps negative here, which NumPy refuses with ValueError.
            with on(repeats._device):  # (CuPy's astype allocates on its current GPU)
                repeats = wrap_result(native(repeats).astype("int64"), repeats._device)
    else:
        repeats = strict_int(repeats, "repeat's repeats (else an integer array)")
    if type(repeats) is int and repeats < 0:  # (repeat(x, 2 - 2**62) gave 8 unwritten floats)
        raise ValueError(f"repeat: repeats must be nonnegative, not {repeats}")
    axis = ints("repeat", "axis", axis, many=False, none=True)
    if x.ndim == 0 and axis is not None:
        refuse_axes_of_0d("repeat", axis)
    if axis is not None:  # (before a count reaches the backend: 2**70 was NumPy's OverflowError)
        check_axis("repeat", axis, x.ndim)
    if type(repeats) is int and repeats > 0:
        if axis is None:
            fits("repeat", (x.size * repeats,), x)
        else:
            fits("repeat", [n * repeats if i == axis % x.ndim else n
                            for i, n in enumerate(x.shape)], x)
    elif isinstance(repeats, ndarray) and repeats.dtype.bits == 64 and repeats.size:
        _total_fits(x, repeats, axis)
    if x.size == 0 and axis is None and type(repeats) is int and not held(x):
        # (no elements, whatever the count: NumPy's and CuPy's C long refused one past it,
        # OverflowError, where one of another axis or a non-empty x is checked by fits)
        return empty((0,), dtype=x.dtype, device=fresh(x._device))
    if x.size == 0 and axis is not None:
        nothing = _nothing_repeated(x, repeats, axis % x.ndim)
        if nothing is not None:
            return nothing
    result: ndarray = _repeat(x, repeats, axis=axis)
    return result


def _nothing_repeated(x: ndarray, repeats: int | ndarray, axis: int) -> ndarray | None:
    """repeat of an ``x`` of no elements along ``axis``: an empty array of the result's
    shape, without NumPy's loop over the elements of the axes up to axis (2**26 of them took
    0.8-5 s, 2**40 would not return). None for counts NumPy is to refuse, and held memory."""
    n = x.shape[axis]
    if held(x):
        return None
    if not isinstance(repeats, ndarray):
        length = n * repeats
    elif repeats.ndim == 1 and repeats.size == n and not held(repeats):
        check_device(x, repeats)
        r = native(repeats)
        with on(repeats._device):
            if n and int(r.min()) < 0:
                return None  # (NumPy's ValueError)
            length = int(r.sum())  # (past int64: refused by _total_fits first)
    else:
        return None
    return empty(x.shape[:axis] + (length,) + x.shape[axis + 1:], dtype=x.dtype,
                 device=fresh(x._device))


def _total_fits(x: ndarray, repeats: ndarray, axis: int | None) -> None:
    """ValueError for 64-bit ``repeats`` adding up past the largest array: NumPy and CuPy add
    them in int64, which wraps, and NumPy then wrote a wrapped total's worth of repetitions
    into an array of what the wrap left (``repeat(x, asarray([2**62] * 4))`` crashed the
    process), where CuPy returned an empty array. Smaller integers cannot add up to a wrap.
    One reduction, and on a GPU one sync more: the total is added exactly only where the
    largest count could wrap it."""
    r = native(repeats)
    n = (x.size if axis is None else x.shape[axis]) if r.size == 1 else r.size
    with on(repeats._device):
        # (NumPy's own reduction on the CPU: its max method's layer is ~1 us more)
        most = int(_maximum_of(r, axis=None) if type(r) is _np_ndarray else r.max())
        if most * n < 1 << 63 or int(r.min()) < 0:  # (a negative count: their ValueError)
            return
        total = sum(r.ravel().tolist()) * (n if r.size == 1 else 1)
    fits("repeat", [total] if axis is None else
         [total if i == axis % x.ndim else d for i, d in enumerate(x.shape)], x)


_repeat = delegate("repeat")
_maximum_of = np.maximum.reduce


def reshape(x: ndarray, /, shape: tuple[int, ...], *, copy: bool | None = None) -> ndarray:
    """``x`` with a new shape; ``copy=False`` raises ValueError where a view is impossible."""
    if shape is None:  # (NumPy keeps the shape; its other checks are the spec's)
        raise TypeError("reshape needs a shape: a tuple of ints")
    if copy is None and type(x) is ndarray and x._device is CPU and type(shape) is tuple:
        a = x._array
        if type(a) is _np_ndarray:  # (NumPy's own reshape, as the namespace's calls it: -0.6 us)
            r = a.reshape(shape)
            if r.shape == shape or min(shape) == -1:  # (an extent inferred: from -1 alone)
                return wrap(r, CPU)
    extents = shape_tuple("reshape", shape)  # (CuPy iterates a 0-d array given as a shape)
    if any(d < -1 for d in extents):  # (NumPy and CuPy read any negative as -1)
        raise ValueError(f"reshape: shape {extents} has a negative extent; -1, once, is the "
                         "one to infer")
    if isinstance(x, ndarray):  # (CuPy's product wraps)
        try:
            fits("reshape", [d for d in extents if d != -1], x)
        except ValueError:
            raise ValueError(f"reshape: shape {extents} is past the largest array") from None
    try:
        result: ndarray = _reshape(x, extents, copy=copy_flag(copy))
    except AttributeError:  # CuPy's shape setter, which array-api-compat uses for copy=False
        raise ValueError(f"reshape: no view of this array has shape {shape}; copy=False "
                         "forbids the copy it needs") from None
    return result


_reshape = delegate_first("reshape")


def roll(x: ndarray, /, shift: int | tuple[int, ...], *,
         axis: int | tuple[int, ...] | None = None) -> ndarray:
    """``x`` with elements shifted along ``axis`` (flattened when None), wrapping around."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and type(shift) is int and -1 << 63 < shift < 1 << 63 and \
            (axis is None or type(axis) is int and -a.ndim <= axis < a.ndim):
        # (the common call: NumPy's own roll, which the delegate ends in, where the checks
        # below pass)
        return wrap(_np_roll(a, shift, axis), CPU)
    shift, axis = ints("roll", "shift", shift), ints("roll", "axis", axis, none=True)
    if type(shift) is tuple and type(axis) is tuple and len(shift) != len(axis):
        # (NumPy broadcasts one against the other: (1,) for two axes shifted both)
        raise ValueError(f"roll needs a shift for each axis: {len(shift)} shifts for "
                         f"{len(axis)} axes")
    if type(shift) is tuple and type(axis) is not tuple:  # (NumPy rolled by their sum)
        raise ValueError(f"roll: a tuple of shifts needs a tuple of as many axes, not {axis}")
    if axis == ():  # no axes, x as it is, a new array (NumPy's roll cannot unpack them)
        shift, axis = 0, None
    elif isinstance(x, ndarray):
        shifts = shift if isinstance(shift, tuple) else \
            (shift,) * (len(axis) if isinstance(axis, tuple) else 1)
        if sum(map(abs, shifts)) >= 1 << 63:  # (else any sum of them is within int64)
            shift = _shifts_within(x, shifts, axis)
    result: ndarray = _roll(x, shift, axis=axis)
    return result


_roll = delegate_first("roll", -1)


def _shifts_within(x: ndarray, shifts: tuple[int, ...],
                   axis: int | tuple[int, ...] | None) -> int | tuple[int, ...]:
    """roll's shifts (one an axis) that could pass int64 as the same shifts modulo their axes'
    lengths: NumPy and CuPy pack the shifts into an array first (numpy.broadcast), float64
    for one in [2**63, 2**64) beside another (roll(x, (2**63 + 1, 1), axis=(0, 1)) shifted
    axis 0 by 2**63), uint64 for it alone, whose negation CuPy slices by (ValueError); and
    CuPy adds the shifts of one axis in int64, which wraps (roll(x, 2**62, axis=(0, 0))
    shifted it by -2**63)."""
    if axis is None:  # (one shift: a tuple needs a tuple of axes)
        return shifts[0] % x.size if x.size else 0
    axes = axis if isinstance(axis, tuple) else (axis,)
    if not all(-x.ndim <= a < x.ndim for a in axes):
        return 0  # (the backend's AxisError, whatever the shift)
    within = tuple(s % (x.shape[a] or 1) for s, a in zip(shifts, axes))
    return within if isinstance(axis, tuple) else within[0]


def tile(x: ndarray, repetitions: tuple[int, ...], /) -> ndarray:
    """``x`` repeated ``repetitions`` times along each axis."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    given: Any = repetitions  # (an int too, as NumPy takes it)
    if type(a) is _np_ndarray and a.size and (type(given) is tuple or type(given) is int):
        total = a.size * a.itemsize
        for r in given if type(given) is tuple else (given,):
            if type(r) is not int or r < 1:
                break
            total *= r
        else:
            if total < 1 << 63:  # (the common call: NumPy's own tile, where the checks below
                try:  # pass)
                    return wrap(np.tile(a, repetitions), CPU)
                except ValueError:  # (past 64 axes, of which NumPy speaks as of ndmin: below)
                    pass
    reps = ints("tile", "repetitions", repetitions)
    each: tuple[int, ...] = (reps,) if type(reps) is int else reps
    if isinstance(x, ndarray) and all(type(r) is int for r in each):
        n = max(len(each), x.ndim)
        within_dimensions("tile", n)
        shape = (1,) * (n - x.ndim) + x.shape
        tiled = tuple(s * r for s, r in zip(shape, (1,) * (n - len(each)) + each))
        fits("tile", tiled, x)
        if 0 in tiled and not held(x) and min(each, default=0) >= 0:
            # (no elements: NumPy repeats axis by axis, the copies made before a 0 empties them)
            return empty(tiled, dtype=x.dtype, device=fresh(x._device))
    result: ndarray = _tile(x, reps)
    return result


_tile = delegate_first("tile")


def fits(name: str, shape: Sequence[int], x: ndarray) -> None:
    """A result of ``shape`` and x's dtype is within the largest array (see within_largest)."""
    within_largest(name, shape, max(x.dtype.bits // 8, 1))


def _dimension(d: Any) -> int | None:
    """A shape's entry: None (unknown), or a non-negative int (a NumPy one made Python's)."""
    if d is None:
        return None
    n = strict_int(d, "a dimension (else None)")
    if n < 0:
        raise ValueError(f"a dimension cannot be negative: {n}")
    return n


@axis_checked
def unstack(x: ndarray, /, *, axis: int = 0) -> tuple[ndarray, ...]:
    """The slices of ``x`` along ``axis``, as a tuple of views."""
    a = x._array if type(x) is ndarray and type(axis) is int and x._device is CPU else None
    if type(a) is _np_ndarray and -a.ndim <= axis < a.ndim:  # (the common call: the checks
        before = (slice(None),) * (axis % a.ndim)  # below pass, and NumPy's views need no
        return tuple([wrap(a[before + (i, ...)], CPU)  # marking, nor a CPU view relabelling)
                      for i in range(a.shape[axis])])
    expect_array("unstack", x)
    axis = ints("unstack", "axis", axis, many=False)
    check_axis("unstack", axis, x.ndim)
    if held(x):
        views: tuple[ndarray, ...] = held_view("unstack", x, axis=axis)
        return views
    dev = x._device
    a = native(x)  # (CuPy's views of a read-only broadcast are marked as NumPy's carry it)
    # (each a view by a key ending in an ellipsis: NumPy's unstack of a 1-D array gave
    # scalars, copies, where CuPy's gave 0-d views)
    before = (slice(None),) * (axis % a.ndim)
    result: tuple[ndarray, ...] = wrap_result(tuple(
        inherit_read_only(a, a[before + (i, ...)]) for i in range(a.shape[axis])), dev)
    return result
