"""Indexing: ``take``, ``take_along_axis`` and the array object's indexing and conversion methods.

``x[key]`` and ``x[key] = value`` accept the spec's keys: integers (0-d integer arrays count
as integers), slices, ``...``, ``None`` (reading only), tuples of those, a boolean mask as the
sole index, and tuples of integers and integer arrays (2024.12; writing through them is
implementation-defined and scatters as NumPy does); and, where the spec leaves the key to the
library, NumPy's meaning for integer arrays and masks (a mask is its ``nonzero()`` arrays)
beside slices, ``...`` or ``None`` when they and any integers are adjacent, for lists (an
index array) and for other libraries' index arrays (taken as asarray takes them). Other keys
(floats, flat indexing of an n-D array, index arrays apart from each other, whose axes NumPy
moves first) raise IndexError rather than take on NumPy's meaning.
Out-of-bounds integers raise IndexError; slices clip like Python's, which the spec permits.
Results are views wherever the backend makes one, and a view of read-only memory is read-only
(NumPy's views inherit the flag; CuPy has none to inherit).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

import numpy as np

from ._array import _array_read_only, held, inherit_read_only, ndarray, wrap
from ._devices import CPU, CUDA_TYPE
from ._dispatch import axis_checked, check_device, fresh, namespace_for, on, strict_int, type_name
from ._dispatch import wrap_result
from ._dtype_functions import int_bounds, python_scalar
from ._dtypes import INTEGER_KINDS, FROM_NUMPY, PROMOTION, PYTHON_SCALARS, int64
from ._held import held_view
from ._interop import asarray, copied
from ._linalg_functions import matrix_transpose
from ._manipulation import broadcast_of  # (ours: NumPy's stops at 32 dimensions)

__all__ = ["take", "take_along_axis"]

_np_ndarray = np.ndarray
# Python scalar type -> the dtype kinds it may be written into (the spec's scalar promotion).
_SCALAR_INTO = {
    bool: ("bool",),
    int: ("signed integer", "unsigned integer", "real floating", "complex floating"),
    float: ("real floating", "complex floating"),
    complex: ("complex floating",),
}


def take(x: ndarray, indices: ndarray, /, *, axis: int | None = None) -> ndarray:
    """Elements of ``x`` at ``indices`` (a 1-D integer array) along ``axis``."""
    _check_indices("take", x, indices)
    if indices.ndim != 1:
        raise ValueError(f"take needs 1-D indices, not {indices.ndim}-D; use "
                         "take_along_axis or integer-array indexing for more")
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"take on a {x.ndim}-D array needs an axis")
        axis = 0
    if type(axis) is int and x.ndim and not -x.ndim <= axis < x.ndim:  # (before shape[axis])
        raise np.exceptions.AxisError(axis, x.ndim)
    if x.size or not x.ndim or x.shape[axis] == 0:  # (NumPy checks no index that selects
        _check_bounds(indices._compute(), x, axis)  # from no elements: an empty result)
    result: ndarray = wrap_result(
        namespace_for(x._device).take(x._compute(), indices._compute(), axis=axis), x._device)
    return result


@axis_checked
def take_along_axis(x: ndarray, indices: ndarray, /, *, axis: int = -1) -> ndarray:
    """Elements of ``x`` at the 1-D ``indices`` along ``axis`` (indices broadcast with ``x``)."""
    _check_indices("take_along_axis", x, indices)
    if indices.ndim != x.ndim:
        raise ValueError(f"take_along_axis needs indices with x's {x.ndim} dimensions, "
                         f"not {indices.ndim}")
    if x.ndim and -x.ndim <= axis < x.ndim:  # (the other axes broadcast: NumPy's IndexError)
        others = [(n, m) for i, (n, m) in enumerate(zip(x.shape, indices.shape))
                  if i != axis % x.ndim]
        _broadcast_indices(tuple(n for n, _ in others), tuple(m for _, m in others))
    _check_bounds(indices._compute(), x, axis)
    result: ndarray = wrap_result(_take_along(namespace_for(x._device), x._compute(),
                                              indices._compute(), axis), x._device)
    return result


def _take_along(xp: Any, a: Any, i: Any, axis: int) -> Any:
    """take_along_axis, also of 64 dimensions: NumPy takes with one index array per axis, and
    at most 63 of them."""
    if a.ndim < 64:
        return xp.take_along_axis(a, i, axis=axis)
    return along_axis(xp, lambda a, i: xp.take_along_axis(a, i, axis=-1), (a, i), axis)


def along_axis(xp: Any, f: Callable[..., Any], arrays: tuple[Any, ...], axis: int) -> Any:
    """``f(*arrays)`` along ``axis`` of the backend ``arrays`` (``f`` works along their last
    axis), their other axes broadcast and folded into one: for NumPy functions that stop at
    32 or 64 dimensions (sort, take_along_axis, cross)."""
    moved = [xp.moveaxis(a, axis, -1) for a in arrays]
    rest = broadcast_of(*(a.shape[:-1] for a in moved))
    rows = math.prod(rest)  # (not -1: ambiguous when an axis is empty)
    r = f(*(xp.reshape(xp.broadcast_to(a, rest + a.shape[-1:]), (rows, a.shape[-1]))
            for a in moved))
    return xp.moveaxis(xp.reshape(r, rest + r.shape[-1:]), -1, axis)


def _check_indices(name: str, x: object, indices: object) -> None:
    if not isinstance(x, ndarray) or not isinstance(indices, ndarray):
        raise TypeError(f"{name} needs dltensor arrays, not {type(x).__name__} and "
                        f"{type(indices).__name__}")
    check_device(x, indices)
    if indices.dtype.spec_kind not in INTEGER_KINDS:
        raise TypeError(f"{name} needs integer indices, not {indices.dtype.name}")


# --- x[key] -------------------------------------------------------------------------------------

def __getitem__(self: ndarray, key: Any, /) -> ndarray:
    try:
        a = self._array
        if a is None:
            if held(self):  # (a bad key is an IndexError also on held memory)
                result: ndarray = held_view("__getitem__", self, _backend_key(self, key, False))
                return result
            a = self._compute()
        t = type(key)
        # The fast path: one int or slice on a 1-D array, the commonest key by far. (NumPy's: a
        # CuPy view's base is its root, so a view of a broadcast must inherit read-only below.)
        if (t is int or t is slice) and a.ndim == 1 and type(a) is _np_ndarray:
            if t is int:
                try:
                    # key, ... makes NumPy return a 0-d view rather than a NumPy scalar.
                    return wrap(a[key, ...], self._device)
                except (IndexError, OverflowError):  # (NumPy's words for 2**63 miss the point)
                    raise _out_of_bounds(key, a.shape[0]) from None
            try:
                return wrap(a[key], self._device)
            except TypeError:  # a slice of floats or other non-integers
                raise IndexError(f"slice bounds must be integers or None, not {key!r}") from None
        if t is ndarray and a.ndim == 1 and key._device is self._device is CPU:
            # The next commonest: one integer array (or mask) of at least one dimension on a 1-D
            # array, where NumPy's own checks are the spec's (out-of-bounds raises IndexError).
            k = key._array
            if k is not None and k.ndim and (k.dtype.kind in "ib" or k.dtype.kind == "u"
                                             and k.itemsize < 8) and type(k) is type(a):
                return wrap(a[k], self._device)
        dev = self._device
        if dev.device_type != CUDA_TYPE:
            r = a[_backend_key(self, key, False)]
            # (an integer-array or mask key copies: fresh memory; anything else is a view)
            return wrap(r, dev if r.base is not None else fresh(dev))
        with on(dev):  # an integer-array key makes CuPy allocate: on the array's GPU
            k = _backend_key(self, key, False)
            if type(k) is tuple:
                _broadcast_indices(*(i.shape for _, i in _index_arrays(k, a.ndim)))
            return wrap(inherit_read_only(a, a[k]), dev)
    except _ZeroDMask:  # (rare: raised before anything is read or written)
        pass
    y, key = _0d_masks_as_axes(self, key)  # (out of the except: no chained traceback)
    return y[key]


def __setitem__(self: ndarray, key: Any, value: Any, /) -> None:
    try:
        t = self._tensor
        if t is not None and t.read_only:  # (before any compute: held memory says it too)
            raise _read_only(self, "its producer exported it so"
                             if getattr(t, "base", None) is None
                             else "a view of read-only memory, or of a broadcast")
        a = self._array
        if a is None:
            if held(self):  # (a bad key or value is the CPU's error also there: checked first)
                if isinstance(value, ndarray):  # (before a key held_view cannot take, a mask)
                    check_device(self, value)
                target = held_view("__getitem__", self, _backend_key(self, key, True))
                if self.dtype.numpy is not None:
                    _check_held_value(self, target.shape, value)
            a = self._compute()  # (raises for held memory)
        if not a.flags.writeable if type(a) is _np_ndarray else _array_read_only(a):
            raise _read_only(self, "a view of read-only memory, or of a broadcast whose "
                             "elements share memory")
        tk = type(key)
        if not ((tk is int or tk is slice) and a.ndim == 1):
            key = _backend_key(self, key, True)
        elif tk is slice:
            key = _check_slice(key)
        if self._device is CPU:
            v = _value_for(self, a, value)
            try:
                if type(value) is ndarray:
                    _check_fits(a, key, v)
                _check_key_bounds(key, self, v)
                a[key] = v
            except (IndexError, OverflowError):
                if tk is not int or -a.shape[0] <= key < a.shape[0]:
                    raise  # (the value's overflow, 2**1100 into float32: an OverflowError)
                raise _out_of_bounds(key, a.shape[0]) from None  # (NumPy's words for 2**63)
        else:
            with on(self._device):
                v = _value_for(self, a, value)
                if type(v) is float or type(v) is complex:  # (CuPy's fill of 0.0: no -0.0)
                    v = namespace_for(self._device).full((), v, dtype=a.dtype)
                if type(value) is ndarray:
                    _check_fits(a, key, v)
                if tk is int and not -a.shape[0] <= key < a.shape[0]:  # (CuPy would wrap it)
                    raise _out_of_bounds(key, a.shape[0])
                _check_key_bounds(key, self, v)
                a[key] = v
    except _ZeroDMask:
        pass
    else:
        return
    y, key = _0d_masks_as_axes(self, key)
    y[key] = value


class _ZeroDMask(IndexError):
    """A 0-d mask (or a bool) beside other indices in a key: _0d_masks_as_axes rewrites it."""


def _0d_masks_as_axes(x: ndarray, key: tuple[Any, ...]) -> tuple[ndarray, tuple[Any, ...]]:
    """The view of ``x`` and the key that index as ``x[key]`` with 0-d masks beside other
    indices does in NumPy: each mask is a new length-1 axis of ``x`` at its place, indexed by
    ``[0]`` if it is true and ``[]`` if false (an index array beside the others, under the
    same rules)."""
    parts = list(key)
    zero_d = [type(k) is bool or type(k) is np.bool_ or
              isinstance(k, ndarray) and k.ndim == 0 and k.dtype.kind == "b" for k in parts]
    widths = [0 if z or k is None or k is Ellipsis else
              k.ndim if isinstance(k, ndarray) and k.dtype.kind == "b" else 1
              for k, z in zip(parts, zero_d)]
    rest = x.ndim - sum(widths)  # (what an ellipsis spans: the new axes are indexed)
    if rest < 0:
        raise IndexError(f"too many indices: {x.ndim - rest} for a {x.ndim}-D array")
    if rest and not any(k is Ellipsis for k in parts):  # (before the axes are added)
        raise _too_few(x.ndim - rest, x.ndim)
    y, axis = x, 0
    for place, k in enumerate(parts):
        if zero_d[place]:
            if isinstance(k, ndarray):
                check_device(x, k)
            y = y[(slice(None),) * axis + (None, Ellipsis)]  # (a view, also of held memory)
            parts[place] = [0] if k else []  # (a list: checked on the CPU for held memory)
            axis += 1
        else:
            axis += rest if k is Ellipsis else widths[place]
    return y, tuple(parts)


def _check_key_bounds(key: Any, x: ndarray, v: Any) -> None:
    """_check_bounds for each integer index array of a backend key from _backend_key (they
    come with integers only, one index per axis: an array's place is its axis), after the
    checks NumPy makes first: that they broadcast together, and value ``v`` to their shape."""
    if type(key) is not tuple:
        return
    for k in key:  # (most keys hold no array: a loop is the cheapest way to say so)
        if type(k) is not int and type(k) is not slice and k is not Ellipsis:
            break
    else:
        return
    arrays = _index_arrays(key, x.ndim)
    if not arrays:
        return
    _check_broadcasts(getattr(v, "shape", ()), _selection_shape(x.shape, key))
    for axis, k in arrays:
        _check_bounds(k, x, axis)


def _index_arrays(key: tuple[Any, ...], ndim: int) -> list[tuple[int, Any]]:
    """The integer index arrays of at least one axis in a backend key (no mask), with the
    axes they index."""
    return [(axis, k) for _, axis, k in _key_axes(key, ndim) if type(k) is not int and
            type(k) is not slice and k.dtype != bool and k.ndim]


def _key_axes(key: Sequence[Any], ndim: int) -> list[tuple[int, int, Any]]:
    """(place in the key, axis, index) for each index of a key that takes axes (a mask as many
    as it has, every other index one): an ellipsis spans the axes the others leave."""
    # (a mask's kind is "b", ours or a backend's: both have NumPy's kind letters)
    widths = [1 if type(k) is int or type(k) is slice else 0 if k is None or k is Ellipsis
              else k.ndim if k.dtype.kind == "b" else 1 for k in key]
    rest = ndim - sum(widths)
    out, axis = [], 0
    for place, k in enumerate(key):
        if k is Ellipsis:
            axis += rest
        elif k is not None:
            out.append((place, axis, k))
            axis += widths[place]
    return out


def _selection_shape(shape: tuple[int, ...], key: tuple[Any, ...]) -> tuple[int, ...]:
    """The shape of ``a[key]`` for a backend key with integer arrays (adjacent, with any ints:
    see _backend_key), told without gathering: slices' lengths and None's 1 around the
    broadcast shape of the arrays and ints, in their place."""
    rest = len(shape) - sum(k is not None and k is not Ellipsis for k in key)
    dims: list[int] = []
    advanced: list[tuple[int, ...]] = []
    place, axis = None, 0
    for k in key:
        if k is Ellipsis:
            dims.extend(shape[axis:axis + rest])
            axis += rest
        elif k is None:
            dims.append(1)
        elif type(k) is slice:
            dims.append(len(range(*k.indices(shape[axis]))))
            axis += 1
        else:
            place = len(dims) if place is None else place
            advanced.append(() if type(k) is int else k.shape)
            axis += 1
    dims.extend(shape[axis:])  # (no ellipsis: every axis was indexed)
    at = len(dims) if place is None else place
    return (*dims[:at], *_broadcast_indices(*advanced), *dims[at:])


def _broadcast_indices(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape index arrays broadcast to; NumPy's IndexError where they do not (CuPy's is a
    ValueError)."""
    try:
        return broadcast_of(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: the index arrays do not broadcast together: "
                         f"{', '.join(map(str, shapes))}") from None


def _check_fits(a: Any, key: Any, v: Any) -> None:
    """ValueError for a value array of more axes than ``a[key]``, which cannot broadcast to
    its shape, as the spec asks: NumPy and CuPy drop its leading length-1 axes to fit, so
    ``x[0] = ones((1, 1))`` would write (and NumPy's error for a complex element was a
    TypeError, CuPy's a ValueError)."""
    if v.ndim and v.ndim > (n := _written_ndim(a.shape, key)):  # (not a[key]: CuPy's may
        _check_ints(a.shape, key)  # wrap its indices; NumPy's order: an int out of bounds
        raise ValueError(f"a value of shape {v.shape} does not broadcast to the {n}-D "
                         "selection it is written into")


def _check_ints(shape: tuple[int, ...], key: Any) -> None:
    """IndexError for an int of a basic key out of bounds, as NumPy says it before a value's
    shape is checked (with index arrays NumPy checks the value first)."""
    parts = key if type(key) is tuple else (key,)
    if not all(type(k) is int or type(k) is slice or k is Ellipsis or k is None for k in parts):
        return
    for _, axis, k in _key_axes(parts, len(shape)):
        if type(k) is int and axis < len(shape) and not -shape[axis] <= k < shape[axis]:
            raise _out_of_bounds(k, shape[axis])


def _unfit(shape: tuple[int, ...], target: tuple[int, ...]) -> ValueError:
    return ValueError(f"a value of shape {shape} does not broadcast to the shape {target} it "
                      "is written into")


def _check_broadcasts(shape: tuple[int, ...], target: tuple[int, ...]) -> None:
    """ValueError unless a value of ``shape`` broadcasts to ``target`` (no more axes)."""
    if not shape or shape == target:  # (a scalar, or a value of the shape: the common cases)
        return
    try:
        fits = len(shape) <= len(target) and broadcast_of(shape, target) == target
    except ValueError:
        fits = False
    if not fits:
        raise _unfit(shape, target)


def _written_ndim(shape: tuple[int, ...], key: Any) -> int:
    """How many axes ``a[key]`` has, told from a checked backend key without indexing (which
    gathers for index arrays): a mask is the sole index and becomes one axis; integer arrays
    make _selection_shape's; else each integer takes an axis away."""
    parts = key if type(key) is tuple else (key,)
    ndim, ints = len(shape), 0
    for k in parts:
        tk = type(k)
        if tk is int:
            ints += 1
        elif tk is not slice and k is not Ellipsis and k is not None:  # a backend array
            if k.dtype == bool:
                return ndim - int(k.ndim) + 1
            return len(_selection_shape(shape, parts))
    return ndim - ints


def _check_held_value(x: ndarray, shape: tuple[int, ...], value: Any) -> None:
    """The CPU's errors for ``value`` written into held ``x`` where the key's target has
    ``shape``: its dtype, its shape (broadcast as _check_fits asks) and, for a scalar, its
    conversion (2**1100 into float32 overflows) on a NumPy element of x's dtype."""
    probe = np.empty((), x.dtype.numpy)
    v = _value_for(x, probe, value, compute=False)
    if isinstance(v, ndarray):
        _check_broadcasts(v.shape, shape)
    else:
        probe[()] = v


def _read_only(x: ndarray, why: str) -> ValueError:
    if held(x):  # (a copy is a computation: not here)
        return ValueError(f"this array is read-only ({why}); a library that computes on "
                          f"{x._device} memory can copy it (its from_dlpack(x, copy=True))")
    return ValueError(f"this array is read-only ({why}); write into a copy: "
                      "dltensor.asarray(x, copy=True)")


def _value_for(x: ndarray, a: Any, value: Any, compute: bool = True) -> Any:
    """``value`` ready to write into x: spec promotion only (no cross-kind or narrowing casts);
    an array value as its backend array, or (``compute`` False) as itself."""
    tv = type(value)
    rule = _SCALAR_RULE.get((a.dtype, tv))
    if rule is not None:
        if rule is True:
            return value
        if type(rule) is not tuple:  # float: an int into an ml_dtypes float
            return float(value)
        lo, hi = rule  # an int into an integer dtype: it must fit
        if not lo <= value <= hi:
            raise OverflowError(f"{value} is out of bounds for {x.dtype.name}")
        return value
    dt = x.dtype
    if tv in _SCALAR_INTO:
        raise TypeError(f"cannot write a Python {tv.__name__} into an array of dtype {dt.name} "
                        "(the array API defines no such promotion)")
    if isinstance(value, ndarray):
        check_device(x, value)
        vt = value.dtype
        if vt is not dt and PROMOTION.get((dt, vt)) is not dt:
            raise TypeError(f"cannot write a {vt.name} array into a {dt.name} array: "
                            f"{vt.name} does not promote to {dt.name}; cast it with astype")
        return value._compute() if compute else value
    scalar = python_scalar(value)  # (a NumPy scalar: written as the Python one it holds)
    if scalar is not None:
        return _value_for(x, a, scalar, compute)
    raise TypeError(f"can write a Python scalar or a dltensor array, not {type_name(value)}")


_Rule = tuple[int, int] | type[float] | Literal[True]


def _scalar_rules() -> dict[tuple[np.dtype[Any], type], _Rule]:
    """(backend dtype, Python scalar type) -> True, the (min, max) an int must fit in, or
    float: an int written into a floating dtype as a float."""
    rules: dict[tuple[np.dtype[Any], type], _Rule] = {}
    for np_dtype, dt in FROM_NUMPY.items():
        kind = dt.spec_kind or "real floating"  # bfloat16, float8: held floats
        for tv, kinds in _SCALAR_INTO.items():
            if kind in kinds:
                if tv is int and kind in INTEGER_KINDS:
                    rules[np_dtype, tv] = int_bounds(np_dtype)
                else:  # (an int into floats as a float, as NumPy converts it: CuPy packs it
                    # into int64 first, OverflowError past it, and ml_dtypes convert none)
                    rules[np_dtype, tv] = float if tv is int and "floating" in kind else True
    return rules


_SCALAR_RULE = _scalar_rules()


def _out_of_bounds(i: int, size: int) -> IndexError:
    return IndexError(f"index {i} is out of bounds for an axis of size {size}")


def _in_int64(i: int) -> int:
    """An int index NumPy can take (past int64 its C long conversion raises OverflowError)."""
    if not -1 << 63 <= i < 1 << 63:
        raise IndexError(f"index {i} is out of bounds (past the int64 range)")
    return i


def _check_bounds(k: Any, x: ndarray, axis: Any) -> None:
    """Integer index array ``k`` for ``axis`` of ``x``: IndexError for any index outside
    [-n, n), n the axis's size (an axis that is not there is the backend's to report).

    NumPy checks them itself, except uint64 ones past intp, which it casts to intp, wrapping
    2**64 - 1 to -1 (the last element, silently). CuPy checks none: it wraps every index
    (its take computes ``i % n``), so on a GPU all are checked here (two reductions)."""
    if type(k) is _np_ndarray:
        if k.dtype == np.uint64 and k.size and int(k.max()) > np.iinfo(np.intp).max:
            raise IndexError(f"index {int(k.max())} is out of bounds (past the largest intp)")
        return
    try:
        n = x.shape[operator.index(axis)]
    except (TypeError, IndexError):
        return
    if not k.size:
        return
    with on(x._device):  # (the reductions run on the indices' GPU)
        lo, hi = int(k.min()), int(k.max())
    if hi >= n or lo < -n:
        raise _out_of_bounds(hi if hi >= n else lo, n)


def _check_slice(s: slice) -> slice:
    """The slice with Python-int bounds (IndexError for bounds that are not integers), each
    within a C ssize_t: past it, the same slice of any array (CuPy converts the bounds to C
    integers and raised OverflowError; NumPy and Python clip them)."""
    start, stop, step = bounds = s.start, s.stop, s.step
    if ((start is None or type(start) is int) and (stop is None or type(stop) is int)
            and (step is None or type(step) is int)):
        if (start is None or -_BIG <= start <= _BIG) and (stop is None or -_BIG <= stop <= _BIG) \
                and (step is None or -_BIG <= step <= _BIG):
            return s
        return slice(*[None if v is None else max(-_BIG, min(v, _BIG)) for v in bounds])
    try:  # (bools are ints here, as in Python's own slices: x[True:] is x[1:])
        return _check_slice(slice(*[None if v is None else operator.index(v) for v in bounds]))
    except TypeError:
        raise IndexError(f"slice bounds must be integers or None, not {s!r}") from None


_BIG = (1 << 63) - 1


def _foreign_index(k: Any, x: ndarray) -> ndarray:
    """Another library's index array, or a list, as asarray takes it (a list on x's device,
    the CPU for memory held, to check the key: NumPy's index array; empty, of integers as in
    NumPy, not asarray's float64)."""
    try:
        if type(k) is not list:
            return asarray(k)
        device = CPU if held(x) else x._device
        a = asarray(k, device=device)
        return a if a.size or a.dtype.spec_kind != "real floating" else \
            asarray(k, dtype=int64, device=device)
    except (TypeError, ValueError, BufferError) as e:  # (strings, ragged lists, a tensor
        raise IndexError(f"{type_name(k)} makes no index array: {e}") from None  # needing grad)


def _check_held_key(x: ndarray, key: list[Any]) -> None:
    """IndexError for an int or a list's index out of bounds in a key into held memory, as the
    CPU raises it (a list's indices are the CPU's to read; held index arrays are not)."""
    for _, axis, k in _key_axes(key, x.ndim):
        n = x.shape[axis]
        if type(k) is int:
            if not -n <= k < n:
                raise _out_of_bounds(k, n)
        elif k._device is CPU and k.dtype.kind != "b" and k.size:
            a = k._compute()
            lo, hi = int(a.min()), int(a.max())
            if hi >= n or lo < -n:
                raise _out_of_bounds(hi if hi >= n else lo, n)


def _check_mask(m: ndarray, x: ndarray, axis: int) -> None:
    """IndexError unless mask ``m`` beside other indices has the shape of the axes of ``x`` it
    indexes from ``axis``, as NumPy asks (its nonzero() indices are then in bounds)."""
    want = x.shape[axis:axis + m.ndim]
    if m.shape != want:
        raise IndexError(f"a boolean index of shape {m.shape} does not match the axes of "
                         f"shape {want} it indexes")


def _backend_key(x: ndarray, key: Any, setting: bool) -> tuple[Any, ...]:
    """The key as the backend takes it, after checking it is one the spec defines."""
    parts = key if isinstance(key, tuple) else (key,)  # (a namedtuple is a tuple too)
    if len(parts) == 1 and (type(parts[0]) is bool or type(parts[0]) is np.bool_):
        # x[True]: a 0-d mask, as NumPy, PyTorch and CuPy read it (the spec's 0-d boolean array)
        parts = (asarray(bool(parts[0]), device=x.device),)
    out: list[Any] = []
    k: Any  # one index: checked, then turned into what the backend takes
    axes = 0  # indices that consume an axis
    ellipsis = mask = int_array = basic = lists = False
    arrays: list[int] | None = None  # places in out of the array indices
    advanced: list[int] = []  # places of the ints and integer arrays (NumPy's "advanced")
    for k in parts:
        tk = type(k)
        if tk is int:
            _in_int64(k)
            advanced.append(len(out))
            axes += 1
        elif tk is slice:
            k = _check_slice(k)
            axes += 1
            basic = True
        elif k is Ellipsis:
            if ellipsis:
                raise IndexError("an index can hold only one ellipsis (...)")
            ellipsis = basic = True
        elif k is None:
            if setting:
                raise IndexError("None (newaxis) is not a valid index when setting items")
            basic = True
        elif isinstance(k, ndarray) or tk is _np_ndarray or tk is list \
                or hasattr(tk, "__dlpack__"):
            if not isinstance(k, ndarray):
                # Another library's array (NumPy's, PyTorch's...), taken as asarray takes it,
                # as NumPy, PyTorch, CuPy and JAX take each other's; on another device than
                # x, the devices' error (no copy). A list is an index array, as in NumPy.
                k = _foreign_index(k, x)
            if tk is not list:  # (made on x's device; for held memory on the CPU's, below)
                check_device(x, k)
            else:
                lists = True
            kind = k.dtype.spec_kind
            if arrays is None:
                arrays = []
            arrays.append(len(out))  # (read once the key's form is checked, below)
            if kind == "bool":
                if len(parts) != 1 and not k.ndim:
                    raise _ZeroDMask
                mask = True
                axes += k.ndim
                advanced.append(len(out))  # (beside other indices: its nonzero() arrays)
                int_array = int_array or len(parts) != 1
            elif kind in INTEGER_KINDS:
                # A 0-d integer array is an integer (the spec says so), here and beside slices.
                int_array = int_array or k.ndim > 0
                advanced.append(len(out))
                axes += 1
            else:
                raise IndexError(f"index arrays must have an integer or bool dtype, "
                                 f"not {k.dtype.name}")
        else:
            if tk is bool or tk is np.bool_:
                raise _ZeroDMask
            try:
                k = _in_int64(strict_int(k, "an index"))  # NumPy integers and the like
                advanced.append(len(out))
            except TypeError:
                raise IndexError(
                    f"{tk.__name__} is not an array API index: use integers, slices, ..., None, "
                    "a boolean mask, or integer arrays"
                ) from None
            axes += 1
        out.append(k)
    ndim = x.ndim
    if mask and len(parts) == 1:
        if axes > ndim:
            raise IndexError(f"a {axes}-D mask cannot index a {ndim}-D array")
    elif int_array and not basic:
        if axes != ndim:
            raise IndexError(f"integer-array indexing needs one index per axis: {axes} given "
                             f"for a {ndim}-D array")
    elif int_array and advanced[-1] - advanced[0] >= len(advanced):
        # Beside slices, ... or None (which the spec leaves to the library): NumPy's meaning
        # where the integer arrays and ints are adjacent (their broadcast shape takes their
        # place); apart, NumPy moves it first, which PyTorch and CuPy copy and few expect
        raise IndexError("index arrays beside slices, ... or None must be adjacent, with "
                         "any integers among them (x[:, i, j], not x[i, :, j]); the array "
                         "API leaves such keys undefined")
    elif axes > ndim:
        raise IndexError(f"too many indices: {axes} for a {ndim}-D array")
    elif axes < ndim and not ellipsis:
        raise _too_few(axes, ndim)
    # The index arrays, read only now: a badly formed key is an IndexError also where they are
    # held (computing on them raises NoBackendError).
    axis_at = {place: axis for place, axis, _ in _key_axes(out, ndim)} \
        if arrays and (mask or not setting) else {}  # (the axes bounds are checked on)
    beside = mask and len(parts) != 1  # masks beside other indices: their nonzero() arrays
    if beside:  # (their shapes checked before any array is read: held ones too)
        for i in arrays or ():
            if out[i].dtype.spec_kind == "bool":
                _check_mask(out[i], x, axis_at[i])
    if lists and held(x):  # (a list's array is the CPU's, held memory not)
        _check_held_key(x, out)
        x._compute()  # raises what computing on x raises, once the key is known good
    for i in arrays or ():
        k = out[i]
        a = k._compute()
        if k.dtype.spec_kind == "bool":
            if beside:
                with on(x._device):  # (CuPy's nonzero allocates, and syncs for the count)
                    a = tuple(a.nonzero())
            out[i] = a
        elif a.ndim == 0:
            out[i] = _in_int64(int(a))  # a view, as for an int (on a GPU int() syncs: checked)
        else:
            if not setting:  # (__setitem__ checks them after the value, as NumPy does)
                _check_bounds(a, x, axis_at[i])
            out[i] = a
    if beside:  # (the masks' nonzero() arrays in their place)
        out = [j for k in out for j in (k if type(k) is tuple else (k,))]
    if not (ellipsis or mask or int_array):
        # A 0-d view, never a NumPy scalar; only needed there (integer-array and mask
        # results are never scalars, and NumPy indexes them ~1.3x slower with a trailing ...).
        out.append(Ellipsis)
    elif int_array and not basic and len(out) > _MOST_INDEX_ARRAYS:  # (it counts the arrays)
        _one_array_fewer(x, out)
    return tuple(out)


def _too_few(axes: int, ndim: int) -> IndexError:
    return IndexError(f"{axes} {'index' if axes == 1 else 'indices'} given for a {ndim}-D "
                      "array: the array API asks one for every axis, or an ellipsis for the "
                      "rest (x[0, ...] where NumPy takes x[0])")


_MOST_INDEX_ARRAYS = 63  # (NumPy's: "the number of index arrays cannot be above 63")


def _one_array_fewer(x: ndarray, key: list[Any]) -> None:
    """A key of 64 index arrays, one per axis of a 64-D array, as NumPy takes it: one of an
    axis of length 1 (a 64-D array has one, or it would hold 2**64 elements), whose every
    index is 0 or -1, becomes the int 0, another array broadcast to its shape in its stead."""
    arrays = [i for i, k in enumerate(key) if type(k) is not int]  # (0-d ones are ints now)
    axis = next((i for i in arrays if x.shape[i] == 1), None)
    if len(arrays) <= _MOST_INDEX_ARRAYS or axis is None:
        return  # (None: an axis of length 0, nothing to index, NumPy's own error)
    index = key[axis]
    if index.size and bool(((index < -1) | (index > 0)).any()):
        raise IndexError(f"an index is out of bounds for axis {axis} of size 1")
    other = arrays[1] if arrays[0] == axis else arrays[0]
    shape = _broadcast_indices(key[other].shape, index.shape)
    key[other] = namespace_for(x._device).broadcast_to(key[other], shape)
    key[axis] = 0


# --- conversion to Python scalars ------------------------------------------------------------

def _scalar(x: ndarray, name: str) -> Any:
    if x.ndim != 0:
        raise TypeError(f"{name}() needs a 0-d array, not one of shape {x.shape}")
    a = x._compute()
    if x._device.device_type == CUDA_TYPE:
        with on(x._device):  # (the copy to the host runs on CuPy's stream of this GPU)
            return a.get()
    return a


def __bool__(self: ndarray, /) -> bool:
    return bool(_scalar(self, "bool"))


# (each checks the dtype before reading the value: a dtype's error also for held memory)

def __int__(self: ndarray, /) -> int:
    if self.dtype.spec_kind == "complex floating":
        raise TypeError("int() of a complex array is undefined; take real() or abs() first")
    return int(_scalar(self, "int"))


def __float__(self: ndarray, /) -> float:
    if self.dtype.spec_kind == "complex floating":
        raise TypeError("float() of a complex array is undefined; take real() or abs() first")
    return float(_scalar(self, "float"))


def __complex__(self: ndarray, /) -> complex:
    v = complex(_scalar(self, "complex"))
    if v.real != v.real and self.dtype.spec_kind != "complex floating":
        return complex(v.real, v.real)  # the spec: NaN + NaN j for a real NaN (not NaN + 0j)
    return v


def __index__(self: ndarray, /) -> int:
    if self.dtype.spec_kind not in INTEGER_KINDS:
        raise TypeError(f"only integer arrays can be used as an index, not {self.dtype.name}")
    return int(_scalar(self, "operator.index"))


def __format__(self: ndarray, spec: str, /) -> str:
    """``f"{x:.3f}"`` formats a 0-d array as its Python scalar, as NumPy and PyTorch do; an
    empty spec prints the array; other specs on other shapes are a TypeError, as in NumPy."""
    if not spec:
        return str(self)
    if self.ndim != 0:
        raise TypeError(f"format spec {spec!r} needs a 0-d array, not one of shape {self.shape}")
    return format(_scalar(self, "format").item(), spec)


def __iter__(self: ndarray, /) -> Iterator[ndarray]:
    """Iterate over the first axis: 0-d arrays for a 1-D array (views, like ``x[i]``)."""
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    if self._array is None and held(self) and self._tensor.bits % 8 == 0:
        # (views of held memory, as x[i, ...] makes them; packed below a byte: refused now)
        return (self[i, ...] for i in range(self.shape[0]))
    a = self._compute()
    dev = self._device
    return (wrap(inherit_read_only(a, a[i, ...]), dev) for i in range(a.shape[0]))


def __contains__(self: ndarray, value: object, /) -> bool:
    """``value in x``: whether any element equals ``value`` (NumPy's and PyTorch's meaning,
    for any shape; not the spec's, which leaves ``in`` unspecified). A number compares by its
    value whatever the dtype, as in NumPy (``2.0 in`` an integer array, ``True in`` a float
    one, where ``==`` keeps the spec's rules and refuses them); an object holding no number
    (None, a string) is in no array, as ``x == None`` is False."""
    from ._elementwise import _array_like, equal  # (they import this module)
    from ._utility import any
    if isinstance(value, ndarray):
        return bool(any(equal(self, value)))
    scalar = value if type(value) in PYTHON_SCALARS else python_scalar(value)
    if scalar is None:
        if _array_like(value):
            raise TypeError(f"'in' takes a dltensor array or a Python scalar, not "
                            f"{type_name(value)}; convert it with dltensor.asarray()")
        return False
    a = self._compute()
    if type(scalar) is int and not -1 << 63 <= scalar < 1 << 64:
        # (no integer dtype holds it; ml_dtypes' floats take no int past int64)
        try:
            if a.dtype.kind in "biu":
                return False
            scalar = float(scalar)
        except OverflowError:  # (past every float, infinity included)
            return False
    with on(self._device):  # (the backend's ==: a Python scalar weak, compared by value)
        return bool((a == scalar).any())



# --- transposes and copies -------------------------------------------------------------------

def _T(self: ndarray) -> ndarray:
    if self.ndim != 2:
        raise ValueError(f"x.T needs a 2-D array, not {self.ndim}-D; use x.mT for stacks of "
                         "matrices or permute_dims() for other axis orders")
    return matrix_transpose(self)  # (for 2-D, the same view: and of held memory too)


def __copy__(self: ndarray) -> ndarray:
    return copied(self)


def __deepcopy__(self: ndarray, memo: object) -> ndarray:
    return __copy__(self)


for _f in (__getitem__, __setitem__, __bool__, __int__, __float__, __complex__, __index__,
           __format__, __iter__, __contains__, __copy__, __deepcopy__):
    setattr(ndarray, _f.__name__, _f)
setattr(ndarray, "mT", property(matrix_transpose,
                                doc="The last two axes swapped (stacked transposes)."))
setattr(ndarray, "T", property(_T, doc="The transpose of a 2-D array."))
del _f
