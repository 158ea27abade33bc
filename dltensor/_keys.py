"""Index keys: ``x[key]``'s key checked against the spec, or NumPy's meaning where the spec
leaves it to the library, and turned into the key the backend takes (``backend_key``).

The spec's keys: integers (0-d integer arrays count as integers), slices, ``...``, ``None``
(reading only), tuples of those, a boolean mask as the sole index, and tuples of integers and
integer arrays. Where the spec leaves the key to the library, NumPy's meaning: integer arrays
and masks (a mask is its ``nonzero()`` arrays; a 0-d one or a bool a new axis of length 1 or 0)
beside slices, ``...`` or ``None`` when they and any integers are adjacent, lists (an index
array) and other libraries' index arrays (taken as asarray takes them). Other keys (floats,
flat indexing of an n-D array, index arrays apart from each other, whose axes NumPy moves
first) raise IndexError rather than take on NumPy's meaning. Out-of-bounds integers raise
IndexError, on a GPU too (CuPy wraps them); slices clip like Python's, as the spec permits.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._array import held, ndarray
from ._devices import CPU, Device
from ._dispatch import check_device, fresh, namespace_for, on, strict_int, type_name
from ._dtypes import INTEGER_KINDS, int64
from ._interop import asarray
from ._manipulation import broadcast_of  # (ours: NumPy's stops at 32 dimensions)

_np_ndarray = np.ndarray
# NumPy 2.3 and later raise for an index out of bounds where the result is empty (a slice of
# nothing beside it); 2.2 warned and returned the empty result, so its keys are checked here.
NUMPY_CHECKS_ALL = np.lib.NumpyVersion(np.__version__) >= "2.3.0"


def backend_key(x: ndarray, key: Any, setting: bool,
                check_value: Callable[[tuple[int, ...] | None], object] | None = None
                ) -> tuple[Any, ...]:
    """The key as the backend takes it, after checking it is one the spec defines (or one it
    leaves to the library that has NumPy's meaning: see the module's docstring).
    ``check_value``: a write's value check, run where the CPU checks the value (after the key's
    form, before its bounds) for keys into held memory, whose refusal comes from here; given
    the selection's shape where the key tells it without reading held memory."""
    parts = key if isinstance(key, tuple) else (key,)  # (a namedtuple is a tuple too)
    made = None  # x[True]'s mask, made here: on the CPU for held memory, as a list's array is
    if len(parts) == 1 and (type(parts[0]) is bool or type(parts[0]) is np.bool_):
        # x[True]: a 0-d mask, as NumPy, PyTorch and CuPy read it (the spec's 0-d boolean array)
        made = asarray(bool(parts[0]), device=CPU if held(x) else fresh(x._device))
        parts = (made,)
    out: list[Any] = []
    k: Any  # one index: checked, then turned into what the backend takes
    axes = 0  # indices that consume an axis
    ellipsis = mask = int_array = basic = False
    arrays: list[int] | None = None  # places in out of the array indices
    unread = x._array is None  # whether x or an index array may be held (read below)
    advanced: list[int] = []  # places of the ints and integer arrays (NumPy's "advanced")
    for k in parts:
        tk = type(k)
        if tk is int:
            in_int64(k)
            advanced.append(len(out))
            axes += 1
        elif tk is slice:
            k = check_slice(k)
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
            if tk is not list and k is not made and k._device is not x._device:  # (made
                check_device(x, k)  # on x's device; for held memory on the CPU's, below)
            unread = unread or k._array is None
            kind = k.dtype.spec_kind
            if arrays is None:
                arrays = []
            arrays.append(len(out))  # (read once the key's form is checked, below)
            if kind == "bool":
                if len(parts) != 1 and not k.ndim:
                    raise ZeroDMask
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
                raise ZeroDMask
            try:
                k = in_int64(strict_int(k, "an index"))  # NumPy integers and the like
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
    # The axes index arrays' bounds are checked on: where the backend is NumPy 2.3+, which
    # checks them itself, none are needed but a mask's
    exact = type(x._array) is not _np_ndarray or not NUMPY_CHECKS_ALL
    beside = mask and len(parts) != 1  # masks beside other indices: their nonzero() arrays
    axis_at = {place: axis for place, axis, _ in key_axes(out, ndim)} \
        if arrays and (beside or exact and not setting) else {}
    if beside:  # (their shapes checked before any array is read: held ones too)
        for i in arrays or ():
            if out[i].dtype.spec_kind == "bool":
                check_mask(out[i], x, axis_at[i])
    if arrays and unread and (held(x) or any(held(out[i]) for i in arrays)):
        _check_held_key(x, out, len(parts) == 1 and mask, check_value)  # (the CPU's order)
        if held(x) and any(out[i].ndim or out[i].dtype.kind == "b" or held(out[i])
                           for i in arrays):  # (0-d integer ones are ints: a view, below)
            x._compute()  # raises what computing on x raises, once the key is known good
    unchecked: list[tuple[int, Any]] = []  # (axis, index array): bounds checked below
    for i in arrays or ():
        k = out[i]
        a = k._array
        if a is None:
            a = k._compute()
        if mask and k.dtype.spec_kind == "bool":
            if beside and type(a) is _np_ndarray:
                a = a.nonzero()  # (a tuple of NumPy arrays; no GPU to make current)
            elif beside:
                with on(x._device):  # (CuPy's nonzero allocates, and syncs for the count)
                    a = tuple(a.nonzero())
            out[i] = a
        elif a.ndim == 0:
            out[i] = in_int64(int(a))  # a view, as for an int (on a GPU int() syncs: checked)
        else:
            # (__setitem__ checks them after the value, as NumPy does; none NumPy checks)
            if not setting and (exact or type(a) is not _np_ndarray or a.dtype == np.uint64):
                unchecked.append((axis_at.get(i, -1), a))  # (-1: NumPy checks the axis)
            out[i] = a
    if beside:  # (the masks' nonzero() arrays in their place)
        out = [j for k in out for j in (k if type(k) is tuple else (k,))]
    if unchecked:
        check_all_bounds(x, out, unchecked)
    if not (ellipsis or mask or int_array):
        # A 0-d view, never a NumPy scalar; only needed there (integer-array and mask
        # results are never scalars, and NumPy indexes them ~1.3x slower with a trailing ...).
        out.append(Ellipsis)
    elif int_array and not basic and len(out) > _MOST_INDEX_ARRAYS:  # (it counts the arrays)
        _one_array_fewer(x, out)
    return tuple(out)


def basic_key(key: tuple[Any, ...], ndim: int) -> tuple[Any, ...] | None:
    """backend_key's answer for a write's key into ``ndim`` axes of ints and slices, one for
    each axis or an ellipsis for the rest (the commonest: ``x[i, j] = v``, ``x[...] = v``),
    told in one pass without its bookkeeping; None for any other key (backend_key's)."""
    axes, ellipsis = 0, False
    for k in key:
        tk = type(k)
        if tk is int:
            if not -1 << 63 <= k < 1 << 63:
                return None  # (backend_key's IndexError)
            axes += 1
        elif tk is slice:
            if check_slice(k) is not k:  # (check_slice's errors are backend_key's too)
                return None
            axes += 1
        elif k is Ellipsis and not ellipsis:
            ellipsis = True
        else:
            return None
    if axes == ndim:  # (without an ellipsis, one added: a 0-d view, never a NumPy scalar)
        return key if ellipsis else key + (Ellipsis,)
    return key if ellipsis and axes < ndim else None


def numpy_key(key: tuple[Any, ...], ndim: int,
              setting: bool = False) -> tuple[Any, ...] | None:
    """A read's or (``setting``) a write's key into a NumPy array of ``ndim`` axes on the
    CPU, with index arrays in it, as NumPy 2.3+ takes it where backend_key's answer would
    index the same: ints, slices, None (reading only), an ellipsis and our CPU index arrays of
    at least one axis (integers but uint64, which NumPy wraps past intp, or masks; a mask
    beside others is its nonzero() arrays to NumPy too). Where NumPy indexes it, its checks
    (bounds, a mask's shape, too many indices) passed, and backend_key's rest are these;
    NumPy's refusals are for backend_key to say. None for any other key, one of no index
    array, and those backend_key refuses where NumPy takes them (flat indexing, too few
    indices and no ellipsis, index arrays apart)."""
    out = list(key)
    axes = place = 0
    ellipsis = basic = mask = arrays = False
    first = last = -1  # (places of the ints and index arrays, which must be adjacent)
    advanced = 0
    for k in key:
        tk = type(k)
        if tk is ndarray:
            a = k._array
            if type(a) is not _np_ndarray or k._device is not CPU or not a.ndim:
                return None  # (not computed, on another device, or 0-d: an int, a ZeroDMask)
            kind = a.dtype.kind
            if kind == "b":
                axes += a.ndim
                mask = True
            elif kind == "i" or kind == "u" and a.itemsize < 8:
                axes += 1
            else:
                return None
            out[place] = a
            arrays = True
        elif tk is int:
            axes += 1
        elif tk is slice or k is None and not setting:
            axes += tk is slice
            basic = True
            place += 1
            continue
        elif k is Ellipsis and not ellipsis:
            ellipsis = basic = True
            place += 1
            continue
        else:
            return None
        if first < 0:
            first = place
        last = place
        advanced += 1
        place += 1
    if not arrays:
        return None
    if mask and place == 1:
        return tuple(out)
    if axes == ndim or ellipsis and axes < ndim:
        return tuple(out) if not basic or last - first < advanced else None
    return None


def _too_few(axes: int, ndim: int) -> IndexError:
    return IndexError(f"{axes} {'index' if axes == 1 else 'indices'} given for a {ndim}-D "
                      "array: the array API asks one for every axis, or an ellipsis for the "
                      "rest (x[0, ...] where NumPy takes x[0])")


def _foreign_index(k: Any, x: ndarray) -> ndarray:
    """Another library's index array, or a list, as asarray takes it (a list on x's device;
    the CPU's for pinned memory, which NumPy computes on, and for memory held, to check the
    key: NumPy's index array; empty, of integers as in NumPy, not asarray's float64)."""
    try:
        if type(k) is not list:
            return asarray(k)
        device = CPU if held(x) else fresh(x._device)  # (pinned memory's are the CPU's)
        a = asarray(k, device=device)
        return a if a.size or a.dtype.spec_kind != "real floating" else \
            asarray(k, dtype=int64, device=device)
    except (TypeError, ValueError, BufferError) as e:  # (strings, ragged lists, a tensor
        raise IndexError(f"{type_name(k)} makes no index array: {e}") from None  # needing grad)
    except OverflowError:  # (NumPy's IndexError too)
        raise IndexError(f"an index of this {type_name(k)} is past int64: out of bounds of "
                         "any axis") from None


def check_mask(m: Any, x: Any, axis: int) -> None:
    """IndexError unless mask ``m`` beside other indices has the shape of the axes of ``x`` it
    indexes from ``axis``, each length that axis's or 0, as NumPy asks of any mask and the
    conformance suite of a sole one (its nonzero() indices are then in bounds). (Shapes alone
    are read: dltensor arrays or their backend's.)"""
    shape = m.shape
    want = x.shape[axis:axis + len(shape)]
    if shape != want and (len(want) != len(shape) or any(
            n != w and n != 0 for n, w in zip(shape, want))):  # (the same shape, the commonest)
        raise IndexError(f"a boolean index of shape {m.shape} does not match the axes of "
                         f"shape {want} it indexes")


def _check_held_key(x: ndarray, key: list[Any], lone_mask: bool,
                    check_value: Callable[[tuple[int, ...] | None], object] | None) -> None:
    """IndexError for a key with held memory in it (``x``, or an index array) that the CPU
    would refuse from the shapes alone: a lone mask of another shape, index arrays that do not
    broadcast, an index out of bounds (an int's, or an index array's that is not held: a
    list's, the CPU's, a GPU's where x's dtype is held there); a write's value checked first,
    as on the CPU (which meets a lone mask's shape and the arrays' broadcast as it writes),
    its shape against the selection's (where the key tells it: _selected_shape) after them
    and after the ints' bounds, as NumPy orders them (check_ints), before the index arrays'
    bounds."""
    if check_value is not None:
        check_value(None)
    if lone_mask:
        check_mask(key[0], x, 0)
    else:
        broadcast_indices(*(k.shape for k in key if isinstance(k, ndarray)
                            and k.dtype.kind != "b"))
    check_ints(x.shape, tuple(key))
    # The index arrays x's device computes on are read (on a GPU, for a dtype held there: two
    # reductions, a sync, on the way to a refusal); 0-d ones are ints, checked as ints are
    # before the value's shape. (A 0-d mask's axis is none of a 0-d x's.)
    read = [(k, axis) for _, axis, k in key_axes(key, x.ndim) if type(k) is not int and
            type(k) is not slice and k.dtype.kind != "b" and not held(k)]
    for k, axis in read:
        if not k.ndim:
            check_range(k._compute(), x.shape[axis], k._device)
    if check_value is not None:
        check_value(_selected_shape(x, key, lone_mask))
    if not any(k.ndim for k, _ in read) or not math.prod(broadcast_indices(*(
            k.shape if k.dtype.kind != "b" else () if held(k) else (_count(k),)
            for k in key if isinstance(k, ndarray) and k.ndim))):
        return  # (they select no elements: NumPy checks none, as check_all_bounds)
    for k, axis in read:
        if k.ndim:
            check_range(k._compute(), x.shape[axis], k._device)


def _count(m: ndarray) -> int:
    """The true elements of mask ``m`` (on a GPU, counted there: a sync)."""
    with on(m._device):
        return int(m._compute().sum())


def _selected_shape(x: ndarray, key: list[Any], lone_mask: bool) -> tuple[int, ...] | None:
    """The shape ``x[key]`` selects, told from the shapes of its index arrays and the
    elements of its masks (counted on their device); None where a held mask's would."""
    if lone_mask:
        m = key[0]
        return None if held(m) else (_count(m), *x.shape[m.ndim:])
    masks = [isinstance(k, ndarray) and k.dtype.kind == "b" for k in key]
    if any(m and held(k) for m, k in zip(masks, key)):
        return None
    parts: list[Any] = []
    for m, k in zip(masks, key):  # (a mask beside other indices: its nonzero() arrays, one
        parts += [np.broadcast_to(0, (_count(k),))] * k.ndim if m else [k]  # per axis)
    return selection_shape(x.shape, tuple(parts))


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
    shape = broadcast_indices(key[other].shape, index.shape)
    key[other] = namespace_for(x._device).broadcast_to(key[other], shape)
    key[axis] = 0


class ZeroDMask(IndexError):
    """A 0-d mask (or a bool) beside other indices in a key: zero_d_masks_as_axes rewrites it."""


def zero_d_masks_as_axes(x: ndarray, key: tuple[Any, ...]) -> tuple[ndarray, tuple[Any, ...]]:
    """The view of ``x`` and the key that index as ``x[key]`` with 0-d masks beside other
    indices does in NumPy: each mask is a new length-1 axis of ``x`` at its place, indexed by
    ``[0]`` if it is true and ``[]`` if false (an index array beside the others, under the
    same rules)."""
    parts = [_foreign_index(k, x) if type(k) is _np_ndarray or not isinstance(k, ndarray)
             and hasattr(type(k), "__dlpack__") else k for k in key]  # (NumPy's, PyTorch's)
    zero_d = [type(k) is bool or type(k) is np.bool_ or
              isinstance(k, ndarray) and k.ndim == 0 and k.dtype.kind == "b" for k in parts]
    widths = [0 if z or k is None or k is Ellipsis else
              k.ndim if isinstance(k, ndarray) and k.dtype.kind == "b" else
              _list_width(k) if type(k) is list else 1 for k, z in zip(parts, zero_d)]
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


def _list_width(k: list[Any]) -> int:
    """The axes a list in a key takes: a mask's ndim, else 1 (left a list, converted where
    it is indexed by: on the CPU for held memory)."""
    try:
        m = np.asarray(k)
    except (TypeError, ValueError):  # (ragged, or not numbers: refused where it is indexed by)
        return 1
    return m.ndim if m.dtype.kind == "b" else 1


def key_axes(key: Sequence[Any], ndim: int) -> list[tuple[int, int, Any]]:
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


def index_arrays(key: tuple[Any, ...], ndim: int) -> list[tuple[int, Any]]:
    """The integer index arrays of at least one axis in a backend key (no mask), with the
    axes they index."""
    return [(axis, k) for _, axis, k in key_axes(key, ndim) if type(k) is not int and
            type(k) is not slice and k.dtype != bool and k.ndim]


def selection_shape(shape: tuple[int, ...], key: tuple[Any, ...]) -> tuple[int, ...]:
    """The shape of ``a[key]`` for a backend key with integer arrays (adjacent, with any ints:
    see backend_key), told without gathering: slices' lengths and None's 1 around the
    broadcast shape of the arrays and ints, in their place."""
    dims: list[int] = []
    advanced: list[tuple[int, ...]] = []
    place, axis = None, 0
    for k in key:
        if type(k) is slice:
            dims.append(len(range(*k.indices(shape[axis]))))
            axis += 1
        elif k is Ellipsis:  # (the axes the others leave: counted only where there is one)
            rest = len(shape) - sum(i is not None and i is not Ellipsis for i in key)
            dims.extend(shape[axis:axis + rest])
            axis += rest
        elif k is None:
            dims.append(1)
        else:
            if place is None:
                place = len(dims)
            advanced.append(() if type(k) is int else k.shape)
            axis += 1
    dims.extend(shape[axis:])  # (no ellipsis: every axis was indexed)
    at = len(dims) if place is None else place
    return (*dims[:at], *broadcast_indices(*advanced), *dims[at:])


def written_ndim(shape: tuple[int, ...], key: Any) -> int:
    """How many axes ``a[key]`` has, told from a checked backend key without indexing (which
    gathers for index arrays): a mask is the sole index and becomes one axis; integer arrays
    make selection_shape's; else each integer takes an axis away."""
    parts = key if type(key) is tuple else (key,)
    ndim, ints = len(shape), 0
    for k in parts:
        tk = type(k)
        if tk is int:
            ints += 1
        elif tk is not slice and k is not Ellipsis and k is not None:  # a backend array
            if k.dtype == bool:
                return ndim - int(k.ndim) + 1
            return len(selection_shape(shape, parts))
    return ndim - ints


def broadcast_indices(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape index arrays broadcast to; NumPy's IndexError where they do not (CuPy's is a
    ValueError)."""
    try:
        return broadcast_of(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: the index arrays do not broadcast together: "
                         f"{', '.join(map(str, shapes))}") from None


def out_of_bounds(i: int, size: int) -> IndexError:
    return IndexError(f"index {i} is out of bounds for an axis of size {size}")


def in_int64(i: int) -> int:
    """An int index NumPy can take (past int64 its C long conversion raises OverflowError)."""
    if not -1 << 63 <= i < 1 << 63:
        raise IndexError(f"index {i} is out of bounds (past the int64 range)")
    return i


def check_all_bounds(x: ndarray, key: Sequence[Any], arrays: list[tuple[int, Any]]) -> None:
    """check_bounds for each (axis, index array) of backend key ``key`` into ``x``, unless its
    index arrays and ints broadcast to no elements: NumPy then checks none (nothing is read or
    written), and CuPy, which checks none ever, must not raise where NumPy does not."""
    if arrays and (type(arrays[0][1]) is not _np_ndarray or not NUMPY_CHECKS_ALL) and \
            not math.prod(broadcast_indices(
            *(() if type(k) is int else k.shape for k in key
              if type(k) is not slice and k is not None and k is not Ellipsis))):
        return
    for axis, k in arrays:
        check_bounds(k, x, axis)


def check_bounds(k: Any, x: ndarray, axis: Any) -> None:
    """Integer index array ``k`` for ``axis`` of ``x``: IndexError for any index outside
    [-n, n), n the axis's size (an axis that is not there is the backend's to report).

    NumPy checks them itself, except uint64 ones past intp, which it casts to intp, wrapping
    2**64 - 1 to -1 (the last element, silently), and before 2.3 where the result is empty
    (a DeprecationWarning, then an empty result). CuPy checks none: it wraps every index (its
    take computes ``i % n``), so on a GPU all are checked here (two reductions)."""
    if type(k) is _np_ndarray:
        if k.dtype == np.uint64 and k.size and int(k.max()) > np.iinfo(np.intp).max:
            raise IndexError(f"index {int(k.max())} is out of bounds (past the largest intp)")
        if NUMPY_CHECKS_ALL:
            return
    try:
        n = x.shape[operator.index(axis)]
    except (TypeError, IndexError):
        return
    check_range(k, n, x._device)


def check_range(k: Any, n: int, device: Device) -> None:
    """IndexError for any index of backend array ``k`` outside [-n, n) (two reductions, run on
    ``device``, the indices' GPU where they are on one)."""
    if not k.size:
        return
    with on(device):
        lo, hi = int(k.min()), int(k.max())
    if hi >= n or lo < -n:
        raise out_of_bounds(hi if hi >= n else lo, n)


def check_ints(shape: tuple[int, ...], key: Any) -> None:
    """IndexError for an int of a backend key out of bounds, as NumPy says it before a value's
    shape is checked, also beside index arrays (whose own bounds it checks after the value)."""
    parts = key if type(key) is tuple else (key,)
    for _, axis, k in key_axes(parts, len(shape)):
        if type(k) is int and axis < len(shape) and not -shape[axis] <= k < shape[axis]:
            raise out_of_bounds(k, shape[axis])


def check_slice(s: slice) -> slice:
    """The slice with Python-int bounds (TypeError for bounds that are not integers, ValueError
    for a step of 0), each within a C ssize_t: past it, the same slice of any array (CuPy
    converts the bounds to C integers and raised OverflowError; NumPy and Python clip them)."""
    start, stop, step = bounds = s.start, s.stop, s.step
    if ((start is None or type(start) is int) and (stop is None or type(stop) is int)
            and (step is None or type(step) is int)):
        if step == 0:  # (Python's words; first, as NumPy's, before any index array's bounds)
            raise ValueError("slice step cannot be zero")
        if (start is None or -_BIG <= start <= _BIG) and (stop is None or -_BIG <= stop <= _BIG) \
                and (step is None or -_BIG <= step <= _BIG):
            return s
        return slice(*[None if v is None else max(-_BIG, min(v, _BIG)) for v in bounds])
    try:  # (bools are ints here, as in Python's own slices: x[True:] is x[1:])
        return check_slice(slice(*[None if v is None else operator.index(v) for v in bounds]))
    except TypeError:
        raise TypeError(f"slice bounds must be integers or None, not {s!r}") from None


_BIG = (1 << 63) - 1
