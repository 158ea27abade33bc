"""Indexing: ``take``, ``take_along_axis`` and the array object's indexing and conversion methods.

``x[key]`` and ``x[key] = value`` take the keys _keys.py checks and turns into the backend's
(the spec's, and NumPy's meaning where the spec leaves the key to the library); writing
through integer arrays is implementation-defined and scatters as NumPy does. Values are
checked here: the spec's scalar promotion, a shape that broadcasts to the selection (no more
axes), read-only memory. Results are views wherever the backend makes one, and a view of
read-only memory is read-only (NumPy's views inherit the flag; CuPy has none to inherit).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterator
from typing import Any, Literal

import numpy as np

from ._array import _array_read_only, held, inherit_read_only, ndarray, read_only_error, wrap
from ._backends import backend_for
from ._creation import empty
from ._devices import CPU, CUDA_TYPE, Device
from ._dispatch import array_module, axis_checked, check_device, fresh, namespace_for, on
from ._dispatch import native_or_cpu_error, strict_int, type_name, wrap_result
from ._dtype_functions import int_bounds, python_scalar, scalar_into
from ._dtypes import EXTENSION_FLOATS, INTEGER_KINDS, NUMPY_PROMOTION, PROMOTION, PYTHON_SCALARS
from ._dtypes import derived, numpy_rows
from ._held import held_view
from ._moves import copied
from ._keys import ZeroDMask, backend_key, broadcast_indices, check_all_bounds, check_bounds
from ._keys import NUMPY_CHECKS_ALL, basic_key, check_ints, check_mask, check_range
from ._keys import check_slice, in_int64, index_arrays, numpy_key, out_of_bounds
from ._keys import selection_shape
from ._keys import written_ndim
from ._keys import zero_d_masks_as_axes
from ._linalg_functions import matrix_transpose
from ._manipulation import broadcast_of  # (ours: NumPy's stops at 32 dimensions)

__all__ = ["take", "take_along_axis"]

_np_ndarray = np.ndarray
# NumPy's C function, without the __array_function__ dispatch in front of it (~0.15 us)
_may_share_memory = getattr(np.may_share_memory, "_implementation", np.may_share_memory)
# Python scalar type -> the dtype kinds it may be written into (the spec's scalar promotion).
_SCALAR_INTO = {
    bool: ("bool",),
    int: ("signed integer", "unsigned integer", "real floating", "complex floating"),
    float: ("real floating", "complex floating"),
    complex: ("complex floating",),
}


def take(x: ndarray, indices: ndarray, /, *, axis: int | None = None) -> ndarray:
    """Elements of ``x`` at ``indices`` (a 1-D integer array) along ``axis``."""
    if type(x) is ndarray and type(indices) is ndarray and x._device is CPU and \
            indices._device is CPU:
        # The commonest call: NumPy's own take (its C method, ~3 us less), where the checks
        # below pass: 1-D signed indices into a non-empty x, whose bounds NumPy checks itself
        # (see check_bounds). Where it refuses, the checked path answers in its words.
        a, i = x._array, indices._array
        if type(a) is _np_ndarray and type(i) is _np_ndarray and i.ndim == 1 and \
                i.dtype.kind == "i" and a.size and NUMPY_CHECKS_ALL and \
                (type(axis) is int or axis is None and a.ndim == 1):
            try:
                ax = 0 if axis is None else axis
                return wrap(a.take(i, axis=ax) if a.flags.c_contiguous else
                            _numpy_take(a, i, ax), CPU)
            except (IndexError, ValueError, OverflowError):  # (an axis past a C long)
                pass
    _check_indices("take", x, indices)
    if indices.ndim != 1:
        raise ValueError(f"take needs 1-D indices, not {indices.ndim}-D; use "
                         "take_along_axis or integer-array indexing for more")
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"take on a {x.ndim}-D array needs an axis")
        axis = 0
    elif type(axis) is not int:  # (CuPy's axis is a C int: it took True as axis 1)
        axis = strict_int(axis, "take's axis")
    if type(axis) is int and x.ndim and not -x.ndim <= axis < x.ndim:  # (before shape[axis])
        raise np.exceptions.AxisError(axis, x.ndim)
    # NumPy checks every index once for each element of the axes before axis, and none where
    # there are none (a 0-d x is one element along axis 0, as NumPy's take reads it, where
    # CuPy's wraps every index, i % 1)
    checked = not x.ndim or math.prod(x.shape[:axis]) > 0
    if x.size == 0 and type(axis) is int and not held(x) and not held(indices):
        # Nothing to take: the result's shape, the indices checked as NumPy would, without its
        # loop over the axes before axis (2**26 of them took 0.85 s, 2**40 would not return)
        if checked:
            if x.shape[axis] == 0 and indices.size:
                raise IndexError("cannot take from an empty axis (it has no elements to index)")
            check_range(indices._compute(), x.shape[axis], indices._device)
        return empty(x.shape[:axis] + indices.shape + x.shape[axis:][1:], dtype=x.dtype,
                     device=fresh(x._device))
    if checked:
        check_bounds(indices._compute(), x if x.ndim else x[None], axis)
    a = x._compute()
    result: ndarray = wrap_result(
        _numpy_take(a, indices._compute(), axis) if type(a) is _np_ndarray and a.ndim else
        namespace_for(x._device).take(a, indices._compute(), axis=axis), x._device)
    return result


def _numpy_take(a: Any, i: Any, axis: int) -> Any:
    """NumPy's take of NumPy array ``a`` (1-D or more): a view that is not C-contiguous is
    indexed along ``axis`` instead, which NumPy's take copies whole first (take of one
    element of a broadcast of 2**40 ones wanted 8 TiB)."""
    if a.flags.c_contiguous:
        return a.take(i, axis=axis)
    if not -a.ndim <= axis < a.ndim:  # (take's words)
        raise np.exceptions.AxisError(axis, a.ndim)
    return a[(slice(None),) * (axis % a.ndim) + (i,)]


@axis_checked
def take_along_axis(x: ndarray, indices: ndarray, /, *, axis: int = -1) -> ndarray:
    """Elements of ``x`` at the 1-D ``indices`` along ``axis`` (indices broadcast with ``x``)."""
    if type(x) is ndarray and type(indices) is ndarray and type(axis) is int:
        # The commonest call: NumPy's own, which checks what the checks below do (~4 us of
        # them) for signed indices (uint64 ones past intp it wraps; see check_bounds). Where
        # it refuses (IndexError, AxisError, ValueError), the checked path answers: in its
        # words, or for an index out of bounds NumPy's again (check_bounds leaves those to it)
        a, i = x._array, indices._array
        if type(a) is _np_ndarray and type(i) is _np_ndarray and i.dtype.kind == "i" and \
                NUMPY_CHECKS_ALL and a.size:
            try:
                return wrap(np.take_along_axis(a, i, axis=axis), CPU)
            except (IndexError, ValueError):
                pass
    _check_indices("take_along_axis", x, indices)
    axis = strict_int(axis, "take_along_axis's axis")
    if indices.ndim != x.ndim:
        raise ValueError(f"take_along_axis needs indices with x's {x.ndim} dimensions, "
                         f"not {indices.ndim}")
    if x.ndim and -x.ndim <= axis < x.ndim:  # (the other axes broadcast: NumPy's IndexError)
        others = [(n, m) for i, (n, m) in enumerate(zip(x.shape, indices.shape))
                  if i != axis % x.ndim]
        shape = list(broadcast_indices(tuple(n for n, _ in others), tuple(m for _, m in others)))
        shape.insert(axis % x.ndim, indices.shape[axis])
        if 0 in shape and x.size == 0 and not held(x) and not held(indices):
            # Nothing to take, and nothing NumPy checks (no index is out of bounds then); its
            # loop over the other axes took 0.2 s for 2**27 of them, 2**40 would not return
            return empty(tuple(shape), dtype=x.dtype, device=fresh(x._device))
    for v in (x, indices):  # (held memory: the CPU's error for a bad axis or shape first)
        if held(v):
            native_or_cpu_error(v, take_along_axis, x, indices, axis=axis)
    check_bounds(indices._compute(), x, axis)
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
                result: ndarray = held_view("__getitem__", self, backend_key(self, key, False))
                return result
            a = self._compute()
        t = type(key)
        if type(a) is _np_ndarray:  # (NumPy's: a CuPy view's base is its root, so a view of a
            # broadcast must inherit read-only below; NumPy's views carry the flag themselves)
            if t is tuple:
                # x[i, j], X[:, 0], x[..., None]: ints, slices, None and an ellipsis, an int or
                # a slice for each axis or an ellipsis for the rest, whose meaning in NumPy is
                # the spec's: NumPy indexes (a view; with a slice, None or an ellipsis in the
                # key never a NumPy scalar, so only a key of ints needs one added), and any
                # error is left to the checked path below to say in its words.
                n = 0
                view = ellipsis = False
                for k in key:
                    tk = type(k)
                    if tk is int:
                        n += 1
                    elif tk is slice:
                        n += 1
                        view = True
                    elif k is None:
                        view = True
                    elif k is Ellipsis and not ellipsis:
                        ellipsis = view = True
                    else:
                        if tk is ndarray and self._device is CPU and NUMPY_CHECKS_ALL and \
                                (nk := numpy_key(key, a.ndim)) is not None:
                            # (X[i, j], X[m, :], X[:, i]: NumPy's own, where it indexes as
                            # the checked path would; its refusals the checked path's to say)
                            try:
                                return wrap(a[nk], CPU)
                            except (IndexError, OverflowError, TypeError, ValueError):
                                pass
                        break
                else:
                    if n == a.ndim or ellipsis and n < a.ndim:
                        try:
                            return wrap(a[key] if view else a[key + (Ellipsis,)], self._device)
                        except (IndexError, OverflowError, TypeError, ValueError):
                            pass
            elif t is int or t is slice:
                # One int or slice on a 1-D array, the commonest key by far
                if a.ndim == 1:
                    if t is int:
                        try:
                            # key, ... makes NumPy return a 0-d view rather than a NumPy scalar.
                            return wrap(a[key, ...], self._device)
                        except (IndexError, OverflowError):  # (NumPy's words for 2**63 miss
                            raise out_of_bounds(key, a.shape[0]) from None  # the point)
                    try:
                        return wrap(a[key], self._device)
                    except TypeError:  # a slice of floats or other non-integers (Python's)
                        raise TypeError(f"slice bounds must be integers or None, not {key!r}"
                                        ) from None
            elif t is ndarray:
                k = key._array
                if type(k) is _np_ndarray and key._device is CPU and self._device is CPU:
                    if a.ndim == 1:
                        # x[i] of index array i (the next commonest), where NumPy's checks
                        # are the spec's (_numpy_checks)
                        if _numpy_checks(k, a):
                            try:  # (its refusal the checked path's to say: before NumPy 2.3
                                return wrap(a[k], CPU)  # it checks bounds in its words)
                            except IndexError:
                                pass
                    elif k.dtype.kind == "b" and 0 < k.ndim <= a.ndim:
                        return wrap(a[k], CPU)  # (X[mask]: NumPy's, which checks its shape)
            elif key is Ellipsis or key is None and not a.ndim:  # (x[None] of more axes:
                return wrap(a[key], self._device)  # too few indices, said below; x[...] a view)
        dev = self._device
        if dev.device_type != CUDA_TYPE:
            k = backend_key(self, key, False)
            # (an integer-array or mask key copies into fresh memory, pageable where x is
            # pinned; anything else is a view. A copy's base is not None where NumPy
            # transposed it)
            return wrap(a[k], dev if dev is CPU or not any(type(i) is _np_ndarray for i in k)
                        else fresh(dev))
        with on(dev):  # an integer-array key makes CuPy allocate: on the array's GPU
            k = backend_key(self, key, False)
            if type(k) is tuple:
                broadcast_indices(*(i.shape for _, i in index_arrays(k, a.ndim)))
            return wrap(inherit_read_only(a, backend_for(dev).getitem(a, k)), dev)
    except ZeroDMask:  # (rare: raised before anything is read or written)
        pass
    y, key = zero_d_masks_as_axes(self, key)  # (out of the except: no chained traceback)
    return y[key]


def _numpy_checks(k: Any, a: Any) -> bool:
    """Whether NumPy's own checks of index array ``k`` into 1-D NumPy array ``a`` are the
    spec's (an index out of bounds an IndexError), so ``a[k]`` may be used as it is: integers
    of at least one dimension (not uint64, which NumPy wraps past intp) or a 1-D mask."""
    return k is not None and k.ndim > 0 and (
        k.dtype.kind == "i" or k.dtype.kind == "b" and k.ndim == 1
        or k.dtype.kind == "u" and k.itemsize < 8) and type(k) is type(a)


def __setitem__(self: ndarray, key: Any, value: Any, /) -> None:
    try:
        t = self._tensor
        if t is not None and t.read_only:  # (before any compute: held memory says it too)
            raise read_only_error(self)
        a = self._array
        if a is None:
            if held(self):  # (a bad key or value is the CPU's error also there: checked first)
                if isinstance(value, ndarray):  # (before a key held_view cannot take, a mask)
                    check_device(self, value)
                probe = None if self.dtype.numpy is None else np.empty((), self.dtype.numpy)

                def check_value(selected: tuple[int, ...] | None = None) -> Any:
                    # (the value's dtype and its shape, where the key's shapes tell the
                    # selection's, before the key's bounds, as on the CPU)
                    if probe is None:
                        return value
                    v = _value_for(self, probe, value, compute=False)
                    if selected is not None:
                        _check_held_value(probe, selected, v)
                    return v
                k = backend_key(self, key, True, check_value)
                v = check_value()
                target = held_view("__getitem__", self, k)
                if probe is not None:
                    _check_held_value(probe, target.shape, v)
            a = self._compute()  # (raises for held memory)
        tk = type(key)
        if type(a) is _np_ndarray and self._device is CPU:
            # x[i, j] = v, X[1, :] = v, x[i:j] = v, x[...] = v: a key of ints, slices and an
            # ellipsis (an int or a slice for each axis, or an ellipsis for the rest), written
            # by NumPy's own indexing, where the checked path below writes the same: a scalar
            # by the spec's promotion, as _value_for takes it; an array of x's dtype or one
            # promoting to it, on the CPU, of no more axes than the selection (NumPy drops
            # leading length-1 axes to fit), copied where it may share x's memory (see
            # _unaliased). NumPy refuses before it writes (a key out of bounds or of too many
            # indices, a slice of floats, read-only memory, a value of another shape): then
            # the checked path says it in its words. (X[1, :] = y: 6.8x -> 2.5x NumPy's time)
            selected = -1  # the selection's axes: -1 for a key of another kind
            if tk is tuple:
                n = ints = 0
                ellipsis = False
                for k in key:
                    tp = type(k)
                    if tp is int:
                        ints += 1
                    elif tp is not slice:
                        if k is not Ellipsis or ellipsis:
                            # (X[i, j] = v, X[m, :] = v: index arrays, NumPy's own write
                            # where it writes as the checked path would)
                            if tp is ndarray and NUMPY_CHECKS_ALL and \
                                    _numpy_write(a, key, tk, value):
                                return
                            break
                        ellipsis = True
                        continue
                    n += 1
                else:
                    nd = a.ndim
                    if n == nd or ellipsis and n < nd:
                        selected = nd - ints
            elif tk is int or tk is slice:
                if a.ndim == 1:
                    selected = tk is slice
            elif key is Ellipsis:
                selected = a.ndim
            elif tk is ndarray and a.ndim != 1 and NUMPY_CHECKS_ALL and \
                    _numpy_write(a, key, tk, value):
                return  # (X[mask] = v: NumPy's own, as above; x[i] = v is told below)
            if selected >= 0:
                try:
                    if type(value) is ndarray:
                        v = value._array
                        if type(v) is _np_ndarray and value._device is CPU and \
                                v.ndim <= selected and (v.dtype is a.dtype or NUMPY_PROMOTION.get(
                                    (a.dtype, v.dtype)) is a.dtype):
                            a[key] = v.copy() if _may_share_memory(a, v) else v
                            return
                    else:
                        rule = _RULES_OF.get(type(value), _NO_RULES).get(a.dtype)
                        if rule is True or type(rule) is tuple and rule[0] <= value <= rule[1]:
                            a[key] = value
                            return
                        if rule is float and -_INT_AS_FLOAT <= value <= _INT_AS_FLOAT:
                            # (an int into floats, as _value_for writes it)
                            a[key] = _as_float(value, a.dtype)
                            return
                        v = _written_scalar(a, value)  # (a NumPy scalar)
                        if v is not None:
                            a[key] = v
                            return
                except (IndexError, OverflowError, TypeError, ValueError):
                    pass
        if not a.flags.writeable if type(a) is _np_ndarray else _array_read_only(a):
            raise read_only_error(self)
        if tk is ndarray and a.ndim == 1 and key._device is self._device is CPU \
                and _numpy_checks(i := key._array, a) and not _shared(np, a, i, _ALIASED_ON_NUMPY):
            if type(value) is not ndarray:
                a[i] = _value_for(self, a, value)  # (a scalar: ~4 us less)
                return
            v = _numpy_value(a, value)
            # An array value NumPy's checks refuse as the spec does (_numpy_value's), not
            # sharing x's memory (see _unaliased), and of no more axes than the key (a mask's
            # one; NumPy drops leading length-1 axes to fit, and its error for a 2-D value into
            # a mask is a TypeError): ~10 us less. Where NumPy refuses (nothing written then),
            # the checked path below says it in its words.
            if v is not None and v.ndim <= i.ndim and not _may_share_memory(a, v):
                try:
                    a[i] = v
                    return
                except (IndexError, ValueError):
                    pass
        plain = (tk is int or tk is slice) and a.ndim == 1  # (no array in the key)
        if not plain and (tk is tuple or key is Ellipsis) and self._device is CPU and \
                (basic := basic_key(key if tk is tuple else (key,), a.ndim)) is not None:
            key, plain = basic, True  # (x[i, j] = v, x[...] = v: NumPy's own key, no array)
        elif not plain:  # (X[i, j] = v, X[mask] = v: NumPy's own above, where it writes)
            key = backend_key(self, key, True)
        elif tk is slice:
            key = check_slice(key)
        else:  # (an int past int64 is refused before the value, as x[i, ...] and held memory do)
            in_int64(key)
        if self._device is CPU:
            if not plain:
                key = _unaliased_key(np, a, key, _ALIASED_ON_NUMPY)
            v = _value_for(self, a, value)
            try:
                target = None
                if type(value) is ndarray:
                    target = _check_fits(a, key, v)
                    v = _unaliased(np, a, v)
                if not plain:  # (a key of no array has no array's bounds to check)
                    _check_key_bounds(key, self, v, target)
                a[key] = v
            except (IndexError, OverflowError):
                if tk is not int or -a.shape[0] <= key < a.shape[0]:
                    raise  # (the value's overflow, 2**1100 into float32: an OverflowError)
                raise out_of_bounds(key, a.shape[0]) from None  # (NumPy's words for 2**63)
        else:
            with on(self._device):  # (copies made on a's GPU)
                if not plain:
                    key = _unaliased_key(array_module(a), a, key, "biu")
                v = _value_for(self, a, value)
                if (type(v) is float or type(v) is complex) and \
                        max(abs(v.real), abs(v.imag)) < _MAY_ROUND_TO_0:  # (abs(v) overflows)
                    # (CuPy fills a value that is 0 in the array's dtype by a memset: -0.0, or
                    # -1e-50 into float32, became +0.0. Any other scalar goes as it is, one
                    # fill kernel, or a copy to the GPU where the key is a mask or indices)
                    v = namespace_for(self._device).full((), v, dtype=a.dtype)
                target = None
                if type(value) is ndarray:
                    target = _check_fits(a, key, v)
                    if type(key) is tuple and len(key) == 1 and self._device.device_type == \
                            CUDA_TYPE and getattr(key[0], "dtype", None) == bool:  # (a lone mask)
                        _check_mask_fits(array_module(a), a.shape, key[0], v.shape)
                    v = _unaliased(array_module(a), a, v)
                if tk is int and not -a.shape[0] <= key < a.shape[0]:  # (CuPy would wrap it)
                    raise out_of_bounds(key, a.shape[0])
                _check_key_bounds(key, self, v, target)
                if self._device.device_type == CUDA_TYPE:
                    backend_for(self._device).setitem(a, key, v)
                else:
                    a[key] = v
    except ZeroDMask:
        pass
    else:
        return
    y, key = zero_d_masks_as_axes(self, key)
    y[key] = value


# A float smaller than this may be 0 in some dtype CuPy computes (float16's least subnormal,
# the largest of theirs; one rounds to 0 from half of its dtype's).
_MAY_ROUND_TO_0 = float(np.finfo(np.float16).smallest_subnormal)


def _numpy_write(a: Any, key: Any, tk: type, value: Any) -> bool:
    """Write ``value`` into NumPy array ``a`` on the CPU through NumPy's own indexing where
    it writes what the checked path would, and say whether it did: numpy_key's keys (index
    arrays or masks), a scalar by the spec's promotion or an array as _numpy_value takes it,
    copied where it may share a's memory (see _unaliased). The selection has an axis or more,
    so NumPy refuses a value of more axes, as the spec does, unless its first is of length 1
    (NumPy drops those) or it has no elements: those are the checked path's. NumPy refuses
    before it writes (an index out of bounds, a mask of another shape, a value that does not
    broadcast), and the checked path then says it in its words."""
    nk = numpy_key(key if tk is tuple else (key,), a.ndim, True)
    if nk is None:
        return False
    if type(value) is ndarray:
        v = _numpy_value(a, value)
        if v is None or v.ndim > 1 and (v.shape[0] == 1 or not v.size):
            return False  # (NumPy also takes more axes of no elements into an empty selection)
        if _may_share_memory(a, v):
            v = v.copy()
    else:
        v = value
        if _RULES_OF.get(type(value), _NO_RULES).get(a.dtype) is not True:
            v = _written_scalar(a, value)  # (an int into floats, a NumPy scalar)
            if v is None:
                return False
        # NumPy casts a scalar before it checks the key: its overflow warning (a finite part
        # past the dtype's largest) must not come twice, here and from the checked path
        # (part by part: abs() of a complex past the floats raises OverflowError)
        top = _LARGEST.get(a.dtype)
        if top is not None and (top < abs(v.real) < math.inf or top < abs(v.imag) < math.inf):
            return False
    # (NumPy reads a lone mask as it writes, and before 2.4 copied no index array: see
    # _unaliased_key; a mask beside other indices it takes as its nonzero() arrays)
    if len(nk) == 1:
        if _may_share_memory(a, nk[0]):
            nk = (nk[0].copy(),)
    elif _ALIASED_ON_NUMPY != "b":
        nk = _unaliased_key(np, a, nk, _ALIASED_ON_NUMPY)
    try:
        a[nk] = v
    except (IndexError, OverflowError, TypeError, ValueError):
        return False
    return True


_INT_AS_FLOAT = 1 << 1023  # (a bound within the largest float: float() of it does not raise)


def _as_float(value: int, dt: np.dtype[Any]) -> float:
    """An int written into floating dtype ``dt``, as a float: rounded once into ml_dtypes'
    floats (see scalar_into: float() then their conversion rounded twice)."""
    return scalar_into(value, dt) if dt in EXTENSION_FLOATS else float(value)
# The NumPy dtypes whose cast of a Python float or complex may overflow (a RuntimeWarning)
_LARGEST = {np.dtype(t): float(np.finfo(t).max) for t in (np.float16, np.float32, np.complex64)}


def _numpy_value(a: Any, value: ndarray) -> Any:
    """Array ``value``'s NumPy array where the spec lets NumPy write it into NumPy array ``a``
    as it is: on the CPU, of a's dtype or one promoting to it (_value_for's rule). None where
    it is not computed, on another device or of another dtype: the checked path's to say."""
    v = value._array
    if type(v) is _np_ndarray and value._device is CPU:
        vt = v.dtype
        if vt is a.dtype or NUMPY_PROMOTION.get((a.dtype, vt)) is a.dtype:
            return v
    return None


def _unaliased(xp: Any, a: Any, v: Any) -> Any:
    """Value array ``v`` as it is before anything is written into ``a``: a copy where the two
    may share memory. NumPy writes a slice or a mask from a view overlapping it element by
    element, reading elements it has already written (``x[::2] = x[1:5]`` gave x[6] the new
    x[4]; numpy/numpy#6272), and CuPy writes in parallel."""
    return v.copy() if (_may_share_memory if xp is np else xp.may_share_memory)(a, v) else v


def _unaliased_key(xp: Any, a: Any, key: Any, kinds: str) -> Any:
    """Backend key ``key`` with its arrays of ``kinds`` as they are before anything is written
    into ``a``: copies of those that may share memory with it. NumPy reads a mask element by
    element as it writes (``x[x[::-1]] = False`` left x[3] True: x[0], its mask's last
    element, was written first; index arrays it copies itself, since 2.4 without a crash:
    _ALIASED_ON_NUMPY), and CuPy's scatter reads a lone index array or mask in the kernel
    that writes ``a``, in parallel."""
    if type(key) is not tuple:
        return key.copy() if _shared(xp, a, key, kinds) else key
    for k in key:  # (most keys hold no array: a loop is the cheapest way to say so)
        if type(k) not in _NO_ARRAY and _shared(xp, a, k, kinds):
            return tuple(k.copy() if _shared(xp, a, k, kinds) else k for k in key)
    return key


_NO_ARRAY = frozenset({int, slice, type(Ellipsis), type(None)})
# The key arrays NumPy does not copy itself where they share memory with the target: masks;
# and before 2.4 index arrays too (NumPy 2.2.5's copy of them, numpy/numpy#26958, crashed the
# interpreter at a later garbage collection after x[x] = 5)
_ALIASED_ON_NUMPY = "b" if np.lib.NumpyVersion(np.__version__) >= "2.4.0" else "biu"


def _shared(xp: Any, a: Any, k: Any, kinds: str) -> bool:
    """Whether ``k`` is an array of ``kinds`` (0-d too: a mask CuPy broadcasts) that may
    share memory with ``a``."""
    return isinstance(k, xp.ndarray) and k.dtype.kind in kinds and (
        _may_share_memory if xp is np else xp.may_share_memory)(a, k)


def _check_key_bounds(key: Any, x: ndarray, v: Any, target: tuple[int, ...] | None) -> None:
    """check_all_bounds for the integer index arrays of a backend key from backend_key, after
    the checks NumPy makes first: that they broadcast together, and value ``v`` to their
    shape (``target``, where _check_fits told it)."""
    if type(key) is not tuple:
        return
    arrays = checked = False
    for k in key:  # (one pass: most keys hold no array, and NumPy checks most arrays' bounds)
        if type(k) is not int and type(k) is not slice and k is not Ellipsis and \
                k is not None and k.dtype != bool and k.ndim:
            arrays = True
            checked = checked or type(k) is not _np_ndarray or not NUMPY_CHECKS_ALL or \
                k.dtype == np.uint64  # (see check_bounds: NumPy checks the rest itself)
    if not arrays:
        return
    shape = getattr(v, "shape", ())
    if shape:  # (a scalar broadcasts to any selection)
        check_ints(x.shape, key)  # (NumPy's order: an int out of bounds first)
        _check_broadcasts(shape, selection_shape(x.shape, key) if target is None else target)
    if checked:
        check_all_bounds(x, key, index_arrays(key, x.ndim))


def _check_fits(a: Any, key: Any, v: Any) -> tuple[int, ...] | None:
    """ValueError for a value array of more axes than ``a[key]``, which cannot broadcast to
    its shape, as the spec asks: NumPy and CuPy drop its leading length-1 axes to fit, so
    ``x[0] = ones((1, 1))`` would write (and NumPy's error for a complex element was a
    TypeError, CuPy's a ValueError). Returns ``a[key]``'s shape where it is told (a key with
    integer arrays, for _check_key_bounds), else None."""
    if not v.ndim:
        return None
    target = None
    for k in key if type(key) is tuple else ():  # (not a[key]: CuPy's may wrap its indices)
        if type(k) is not int and type(k) is not slice and k is not Ellipsis and k is not None:
            if k.dtype != bool:  # (integer arrays, adjacent: see backend_key)
                target = selection_shape(a.shape, key)
            break
    if v.ndim > (n := written_ndim(a.shape, key) if target is None else len(target)):
        # (NumPy's order: an int out of bounds first, or a lone mask of another shape)
        check_ints(a.shape, key)
        if type(key) is tuple and len(key) == 1 and getattr(key[0], "dtype", None) == bool:
            check_mask(key[0], a, 0)
        raise ValueError(f"a value of shape {v.shape} does not broadcast to the {n}-D "
                         "selection it is written into")
    return target


def _check_mask_fits(xp: Any, shape: tuple[int, ...], mask: Any, value: tuple[int, ...]) -> None:
    """A value of shape ``value`` written through a lone mask into a CUDA array of ``shape``:
    it must broadcast to the selection, (n,) + the axes the mask leaves, as NumPy checks. CuPy
    returns before it broadcasts the value where the selection has no elements
    (_scatter_op_mask_single), so NumPy's ValueError was no error there. n, which only a GPU
    sync tells, is asked only for a value that fits some selections and not others (one as
    long as a selection along its first axis, of other than one element) or fits none. A mask
    of another shape is CuPy's IndexError, first, as NumPy's, but for one of no elements,
    which both take as a selection of none."""
    if mask.shape != shape[:mask.ndim]:
        if mask.ndim <= len(shape) and all(n in (0, d) for n, d in zip(mask.shape, shape)):
            _check_broadcasts(value, (0,) + shape[mask.ndim:])  # (of no elements: NumPy's
        return  # rule, _keys.check_mask's: each axis the array's length or 0)
    rest = shape[mask.ndim:]
    if len(value) <= len(rest) or value[0] == 1:
        try:
            _check_broadcasts(value, (1,) + rest)  # (then it fits any n)
            return
        except ValueError:
            pass
    _check_broadcasts(value, (int(xp.count_nonzero(mask)),) + rest)


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


def _check_held_value(probe: Any, shape: tuple[int, ...], v: Any) -> None:
    """The CPU's errors for value ``v`` (as _value_for makes it) written into held memory where
    the key's target has ``shape``: its shape (broadcast as _check_fits asks) and, for a
    scalar, its conversion (2**1100 into float32 overflows) on ``probe``, a NumPy element of
    the held array's dtype."""
    if isinstance(v, ndarray):
        _check_broadcasts(v.shape, shape)
    else:
        probe[()] = v


def _value_for(x: ndarray, a: Any, value: Any, compute: bool = True) -> Any:
    """``value`` ready to write into x: spec promotion only (no cross-kind or narrowing casts);
    an array value as its backend array, or (``compute`` False) as itself."""
    tv = type(value)
    rule = _SCALAR_RULE.get((a.dtype, tv))
    if rule is not None:
        if rule is True:
            return value
        if type(rule) is not tuple:  # float: an int into a floating dtype, as a float
            return _as_float(value, a.dtype)
        lo, hi = rule  # an int into an integer dtype: it must fit
        if not lo <= value <= hi:
            raise OverflowError(f"{value} is out of bounds for {x.dtype.name}")
        return value
    p = _PYTHON_OF.get(tv)  # (a NumPy scalar: written as the Python one it holds)
    if p is not None:
        return _value_for(x, a, p(value), compute)
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
    scalar = python_scalar(value)  # (a subclass of int or float: an IntEnum)
    if type(scalar) in PYTHON_SCALARS:  # (not longdouble's own, which it holds: no recursion)
        return _value_for(x, a, scalar, compute)
    raise TypeError(f"can write a Python scalar or a dltensor array, not {type_name(value)}")


_Rule = tuple[int, int] | type[float] | Literal[True]


# (backend dtype, Python scalar type) -> True, the (min, max) an int must fit in, or float: an
# int written into a floating dtype as a float.
_SCALAR_RULE: dict[tuple[np.dtype[Any], type], _Rule] = {}
# The same, by the scalar's type first: {Python scalar type: {backend dtype: rule}}, told in
# two lookups without a tuple (~0.1 us less a write)
_RULES_OF: dict[type, dict[np.dtype[Any], _Rule]] = {tv: {} for tv in _SCALAR_INTO}
_NO_RULES: dict[np.dtype[Any], _Rule] = {}
# NumPy's number scalar types (ml_dtypes' too) -> the Python type of the scalar each holds, as
# python_scalar makes it (float(np.float32(x)) is its item()); not longdouble's: none holds it
_PYTHON_OF: dict[type, type] = {}


@derived
def _scalar_rules() -> None:
    for np_dtype, dt in numpy_rows():
        kind = dt.spec_kind or "real floating"  # bfloat16, float8: held floats
        for tv, kinds in _SCALAR_INTO.items():
            if kind in kinds:
                if tv is int and kind in INTEGER_KINDS:
                    rule: _Rule = int_bounds(np_dtype)
                else:  # (an int into floats as a float, as NumPy converts it: CuPy packs it
                    # into int64 first, OverflowError past it, and ml_dtypes convert none)
                    rule = float if tv is int and "floating" in kind else True
                _SCALAR_RULE[np_dtype, tv] = _RULES_OF[tv][np_dtype] = rule
    for t in {np.dtype(c).type for c in np.typecodes["All"] if np.dtype(c).kind in "biufc"} \
            | {d.type for d, _ in numpy_rows()}:
        if (p := type(python_scalar(t(0)))) in PYTHON_SCALARS:
            _PYTHON_OF[t] = p


def _written_scalar(a: Any, value: Any) -> Any:
    """Scalar ``value`` as _value_for writes it into NumPy array ``a`` (the spec's promotion):
    a NumPy scalar as the Python one it holds, an int into a floating dtype as a float. None
    where that path refuses it or is to say why (an int out of the dtype's bounds, no scalar)."""
    tv = type(value)
    rule = _SCALAR_RULE.get((a.dtype, tv))
    if rule is None:
        p = _PYTHON_OF.get(tv)
        if p is None:
            return None
        value = p(value)
        rule = _SCALAR_RULE.get((a.dtype, p))
    if rule is True:
        return value
    if rule is float:  # (past the largest float float() raises: the checked path's)
        return _as_float(value, a.dtype) if -_INT_AS_FLOAT <= value <= _INT_AS_FLOAT else None
    if type(rule) is tuple and rule[0] <= value <= rule[1]:
        return value
    return None


# --- conversion to Python scalars ------------------------------------------------------------

def _scalar(x: ndarray, name: str) -> Any:
    if x.ndim != 0:
        raise TypeError(f"{name}() needs a 0-d array, not one of shape {x.shape}")
    return _on_host(x)


def _on_host(x: ndarray) -> Any:
    # The NumPy array of x's elements: its compute view, copied to the host from a GPU on
    # CuPy's stream there (asked by name, as float() asks: not a silent copy).
    a = x._compute()
    if x._device.device_type == CUDA_TYPE:
        with on(x._device):
            return a.get()
    return a


def tolist(self: ndarray, /) -> Any:
    """The elements as nested lists of Python scalars (a scalar for a 0-d array), as NumPy's,
    PyTorch's, CuPy's and JAX's ``tolist()`` give them; from a GPU, through a copy to the
    host. Not in the standard, which has ``float(x)`` and the others for 0-d arrays only."""
    return _on_host(self).tolist()


def item(self: ndarray, /) -> bool | int | float | complex:
    """The one element of a one-element array, of any shape, as a Python scalar (NumPy's and
    PyTorch's ``item()``; ValueError for another size, as in NumPy)."""
    if self.size != 1:
        raise ValueError(f"item() needs an array of one element, not {self.size} "
                         f"(shape {self.shape})")
    v: bool | int | float | complex = _on_host(self).item()
    return v


def __bool__(self: ndarray, /) -> bool:
    a = self._array
    if type(a) is _np_ndarray and not a.ndim:  # (the commonest: NumPy's, with no checks)
        return bool(a)
    return bool(_scalar(self, "bool"))


# (each checks the dtype before reading the value: a dtype's error also for held memory)

def __int__(self: ndarray, /) -> int:
    a = self._array
    if type(a) is _np_ndarray and not a.ndim and a.dtype.kind != "c":  # (as __bool__)
        return int(a)
    if self.dtype.spec_kind == "complex floating":
        raise TypeError("int() of a complex array is undefined; take real() or abs() first")
    return int(_scalar(self, "int"))


def __float__(self: ndarray, /) -> float:
    a = self._array
    if type(a) is _np_ndarray and not a.ndim and a.dtype.kind != "c":  # (as __bool__)
        return float(a)
    if self.dtype.spec_kind == "complex floating":
        raise TypeError("float() of a complex array is undefined; take real() or abs() first")
    return float(_scalar(self, "float"))


def __complex__(self: ndarray, /) -> complex:
    v = complex(_scalar(self, "complex"))
    if v.real != v.real and self.dtype.spec_kind != "complex floating":
        return complex(v.real, v.real)  # the spec: NaN + NaN j for a real NaN (not NaN + 0j)
    return v


def __index__(self: ndarray, /) -> int:
    # (by NumPy's kind letter: a held int4 is an integer array too, refused below for its
    # dtype as int() refuses it, not told it is no integer)
    a = self._array
    if type(a) is _np_ndarray and not a.ndim and a.dtype.kind in "iu":  # (as __bool__)
        return int(a)
    if self.dtype.kind not in "iu":
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
    a = self._array
    if type(a) is _np_ndarray and a.ndim:  # (the commonest, told here: ~0.3 us less)
        return _numpy_rows(a, range(a.shape[0]), self._device)
    return _rows(self, False)


def __reversed__(self: ndarray, /) -> Iterator[ndarray]:
    """``reversed(x)``: the first axis backwards, as ``iter(x)`` walks it, as in NumPy and
    PyTorch. (Without it Python indexed ``x[i]``, the spec's IndexError on an n-D array,
    which ends its walk: ``list(reversed(x))`` of a 2-D array was ``[]``.)"""
    return _rows(self, True)


def _rows(self: ndarray, backwards: bool) -> Iterator[ndarray]:
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    indices = range(self.shape[0])
    if backwards:
        indices = indices[::-1]
    if self._array is None and held(self) and (self._tensor.bits % 8 == 0 or not indices):
        # (views of held memory, as x[i, ...] makes them; packed below a byte they are refused
        # where there are rows, but an empty first axis describes none: [], as of float32)
        return (self[i, ...] for i in indices)
    a = self._compute()
    dev = self._device
    if type(a) is _np_ndarray:
        return _numpy_rows(a, indices, dev)
    return (wrap(inherit_read_only(a, a[i, ...]), dev) for i in indices)


def _numpy_rows(a: Any, indices: range, dev: Device) -> Iterator[ndarray]:
    """The rows ``a[i, ...]`` of NumPy array ``a``: views, which carry its read-only flag
    themselves (no inherit_read_only, a call a row)."""
    for i in indices:
        yield wrap(a[i, ...], dev)


def __len__(self: ndarray, /) -> int:
    """The length of the first axis, as in NumPy and PyTorch (the spec has no ``len``; a 0-d
    array has none: TypeError, NumPy's words)."""
    a = self._array  # (list(x) asks it: the shape read without the properties)
    shape: tuple[int, ...] = a.shape if a is not None else self._tensor.shape
    if not shape:
        raise TypeError("len() of a 0-d array (it has no first axis)")
    return shape[0]


def __contains__(self: ndarray, value: object, /) -> bool:
    """``value in x``: whether any element equals ``value`` (NumPy's and PyTorch's meaning,
    for any shape; not the spec's, which leaves ``in`` unspecified). A number compares by its
    value whatever the dtype, as in NumPy (``2.0 in`` an integer array, ``True in`` a float
    one, where ``==`` keeps the spec's rules and refuses them); an object holding no number
    (None, a string) is in no array, as ``x == None`` is False; a number no Python scalar
    stands for (a Fraction, a Decimal) is refused, as ``==`` refuses it."""
    from ._elementwise import _array_like, equal  # (they import this module)
    from ._utility import any
    if isinstance(value, ndarray):
        return bool(any(equal(self, value)))
    scalar = value if type(value) in PYTHON_SCALARS else python_scalar(value)
    if scalar is None:
        if _array_like(value):
            raise TypeError(f"'in' takes a dltensor array or a Python scalar, not "
                            f"{type_name(value)}; convert it with dltensor.asarray()")
        if isinstance(value, numbers.Number):
            # (Fraction(1, 2) in x was False for x holding 0.5, where == raises)
            raise TypeError(f"'in' takes a dltensor array or a Python scalar, not "
                            f"{type_name(value)}; convert it to a Python int, float or complex")
        return False
    a = self._compute()
    if type(scalar) is int:
        # An int no element can equal is in no array: answered here, for the backends refuse
        # it (OverflowError: NumPy's bool beside an int past int64, CuPy 14's int8 beside
        # 1000) or take none past int64 (ml_dtypes' floats: TypeError), where it is no
        # question. Past int64, the other dtypes compare it as a float (by value, as NumPy).
        kind = a.dtype.kind
        if kind in "iu":
            low, high = int_bounds(a.dtype)
            if not low <= scalar <= high:
                return False
        elif kind == "b":
            if scalar not in (0, 1):
                return False
        elif not -1 << 63 <= scalar < 1 << 63:
            try:
                scalar = float(scalar)
            except OverflowError:  # (past every float, infinity included)
                return False
    with on(self._device):  # (the backend's ==: a Python scalar weak, compared by value)
        return bool((a == scalar).any())


# --- transposes and copies -------------------------------------------------------------------

def _T(self: ndarray) -> ndarray:
    a = self._array
    if type(a) is _np_ndarray and a.ndim == 2:  # (matrix_transpose's view, without its checks)
        return wrap(a.T, self._device)
    if self.ndim != 2:
        raise ValueError(f"x.T needs a 2-D array, not {self.ndim}-D; use x.mT for stacks of "
                         "matrices or permute_dims() for other axis orders")
    return matrix_transpose(self)  # (for 2-D, the same view: and of held memory too)


def __copy__(self: ndarray) -> ndarray:
    return copied(self)


def __deepcopy__(self: ndarray, memo: object) -> ndarray:
    return __copy__(self)


for _f in (__getitem__, __setitem__, __bool__, __int__, __float__, __complex__, __index__,
           __format__, __iter__, __reversed__, __len__, __contains__, __copy__, __deepcopy__,
           tolist, item):
    setattr(ndarray, _f.__name__, _f)
setattr(ndarray, "mT", property(matrix_transpose,
                                doc="The last two axes swapped (stacked transposes)."))
setattr(ndarray, "T", property(_T, doc="The transpose of a 2-D array."))
del _f
