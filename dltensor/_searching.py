"""Searching functions (array API 2025.12, "Searching Functions").

argmax, argmin, count_nonzero and nonzero delegate to the backend namespace (their commonest
calls on the CPU make NumPy's own calls directly). ``where`` and ``searchsorted`` take Python
scalars (2024.12 / 2025.12), which are converted as the spec's "mixing arrays with Python
scalars" rules say (``_dtype_functions.scalar_dtype``) rather than by NumPy's wider rules, and
``where`` promotes its two arrays by the spec's table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._array import ndarray, wrap
from ._backends import NoBackendError
from ._devices import CPU, CUDA_TYPE, Device
from ._dispatch import check_c_int_axis, check_device, delegating, expect_array
from ._dispatch import namespace_for, native
from ._dispatch import cpu_error_first, native_or_cpu_error, on
from ._dispatch import c_count_nonzero, strict_int, wrap_result
from ._dtype_functions import KEEPING_SCALARS, int_bounds, scalar_dtype, scalar_into
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, NUMPY_PROMOTION, no_promotion
from ._dtypes import rounds_in_common

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

_np_ndarray = np.ndarray
_asarray = np.asarray
_np_searchsorted: Any = np.ndarray.searchsorted  # (NumPy's method: np.searchsorted is a layer)
_SIDES = ("left", "right")


def _one_axis(name: str) -> Callable[[Any], Callable[..., Any]]:
    """The namespace's ``name``, its axis an int or None (CuPy's reductions take a tuple, where
    NumPy's TypeError is the spec's typing)."""
    def backend(ns: Any) -> Callable[..., Any]:
        fn = getattr(ns, name)

        def f(a: Any, /, **kwargs: Any) -> Any:
            if kwargs.get("axis") is not None:
                axis = kwargs["axis"] = strict_int(kwargs["axis"], f"{name}'s axis")
                check_c_int_axis(name, axis, a.ndim)
            return fn(a, **kwargs)
        return f
    return backend


# The fast paths of the commonest calls on the CPU below: NumPy's own calls on a NumPy array,
# where the checked path passes each check and calls the same (~1.5-2.5 us of layers less).
# Each falls back to its checked path, `delegating` of the function itself (after it).
_np_argmax: Any = np.ndarray.argmax  # (np.argmax's call: a layer less)
_np_argmin: Any = np.ndarray.argmin
_np_count_nonzero: Any = np.count_nonzero


def argmax(x: ndarray, /, *, axis: int | None = None, keepdims: bool = False) -> ndarray:
    """Indices of the first maximum along ``axis`` (of the flattened array when None)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and (keepdims is False or keepdims is True) and (
            axis is None or type(axis) is int and -a.ndim <= axis < a.ndim):
        r = _np_argmax(a, axis=axis, keepdims=keepdims)  # (an empty x: NumPy's ValueError)
        return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)
    return _checked_argmax(x, axis=axis, keepdims=keepdims)


_checked_argmax = delegating(argmax, backend=_one_axis("argmax"))


def argmin(x: ndarray, /, *, axis: int | None = None, keepdims: bool = False) -> ndarray:
    """Indices of the first minimum along ``axis`` (of the flattened array when None)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and (keepdims is False or keepdims is True) and (
            axis is None or type(axis) is int and -a.ndim <= axis < a.ndim):
        r = _np_argmin(a, axis=axis, keepdims=keepdims)
        return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)
    return _checked_argmin(x, axis=axis, keepdims=keepdims)


_checked_argmin = delegating(argmin, backend=_one_axis("argmin"))


def count_nonzero(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
                  keepdims: bool = False) -> ndarray:
    """The number of non-zero elements along ``axis`` (all axes by default)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray:
        # (a whole array's count: NumPy's int (NumPy before 2.3: a Python int) as a 0-d
        # array, as array-api-compat makes it)
        if axis is None and keepdims is False:
            return wrap(_asarray(c_count_nonzero(a)), CPU)  # (np.count_nonzero's call)
        if keepdims is True or keepdims is False:
            if axis is None or type(axis) is int and -a.ndim <= axis < a.ndim:
                r = _np_count_nonzero(a, axis=axis, keepdims=keepdims)
                return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)
    return _checked_count_nonzero(x, axis=axis, keepdims=keepdims)


_checked_count_nonzero = delegating(count_nonzero)


def nonzero(x: ndarray, /) -> tuple[ndarray, ...]:
    """Indices of the non-zero elements, one array per axis (ValueError for a 0-d array)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and a.ndim:
        r = a.nonzero()  # (np.nonzero's call)
        if len(r) == 1:
            return (wrap(r[0], CPU),)
        if len(r) == 2:
            return wrap(r[0], CPU), wrap(r[1], CPU)
        return tuple([wrap(i, CPU) for i in r])
    return _checked_nonzero(x)


_checked_nonzero = delegating(nonzero)


def searchsorted(x1: ndarray, x2: ndarray | int | float, /, *, side: str = "left",
                 sorter: ndarray | None = None) -> ndarray:
    """Indices where the elements of ``x2`` would be inserted to keep sorted ``x1`` sorted."""
    a1 = x1._array if type(x1) is ndarray and x1._device is CPU and sorter is None else None
    if type(a1) is _np_ndarray and a1.ndim == 1 and side in _SIDES:
        # The common call, a NumPy x1 and an x2 of its dtype (an array, or a Python scalar
        # that keeps it): NumPy's own search, where the checks below pass (~3 us of them)
        dt = a1.dtype
        if type(x2) is ndarray:
            a2 = x2._array if x2._device is CPU else None
            if type(a2) is not _np_ndarray or a2.dtype is not dt:
                a2 = None
        elif type(x2) in KEEPING_SCALARS[dt]:
            try:
                a2 = _host_scalar(x2, dt)
            except OverflowError:  # an int past the dtype: the general path's answer
                a2 = None
        else:
            a2 = None
        if a2 is not None and dt not in EXTENSION_FLOATS:
            r = _np_searchsorted(a1, a2, side=side)
            return wrap(r if type(r) is _np_ndarray else np.asarray(r), CPU)
    if side not in _SIDES:
        raise (ValueError if isinstance(side, str) else TypeError)(
            f"side must be 'left' or 'right', not {side!r}")
    expect_array("searchsorted", x1, *(() if sorter is None else (sorter,)))
    if x1.ndim != 1:  # (NumPy: "object too deep for desired array", or "of too small depth")
        raise ValueError(f"searchsorted searches a one-dimensional x1, not one of shape "
                         f"{x1.shape}")
    if sorter is not None:  # (the spec's: NumPy's TypeError for another ndim, CuPy none)
        if sorter.dtype.spec_kind not in ("signed integer", "unsigned integer"):
            raise TypeError(f"searchsorted's sorter must be an integer array, not one of "
                            f"{sorter.dtype.name}")
        if sorter.shape != x1.shape:
            raise ValueError(f"searchsorted's sorter must have x1's shape {x1.shape}, not "
                             f"{sorter.shape}")
    dev = check_device(x1, *(a for a in (x2, sorter) if isinstance(a, ndarray)))
    a1 = native_or_cpu_error(x1, searchsorted, x1, x2, side=side, sorter=sorter)
    ns = namespace_for(dev)
    if isinstance(x2, ndarray):
        a2 = native(x2)
    elif isinstance(x2, complex):  # the spec takes int and float scalars only
        raise TypeError("searchsorted takes an array, int or float as x2, not complex")
    else:
        dtype = scalar_dtype(x2, a1.dtype, "searchsorted")
        if dtype.kind in "iu" and not int_bounds(dtype)[0] <= int(x2) <= int_bounds(dtype)[1]:
            # Past every value of the dtype: after them all or before them all, as less()
            # compares such an int and NumPy 2 and torch search it (the spec leaves it open)
            with on(dev):
                _check_sorter(native(sorter), a1.shape[0])
                past: ndarray = wrap_result(
                    ns.full((), a1.shape[0] if x2 > 0 else 0, dtype=np.int64), dev)
            return past
        a2 = scalar_array(ns, dev, x2, dtype)
    if a1.dtype in EXTENSION_FLOATS or a2.dtype in EXTENSION_FLOATS:
        # Each compared as float32, which holds them exactly: NumPy orders their NaN as no
        # float, and casts bfloat16 and float16 to bfloat16. The other operand stays as it is,
        # so a 64-bit integer one is compared exactly below (float64 rounded int64 2**60 + 1)
        with on(dev):  # (CuPy copies on its current GPU)
            a1, a2 = (a.astype(np.float32) if a.dtype in EXTENSION_FLOATS else a
                      for a in (a1, a2))
    s = native(sorter)
    if s is not None and s.dtype == np.uint64:  # (NumPy: "could not parse sorter argument")
        s = s.astype(np.int64)
    if a1.dtype != a2.dtype and rounds_in_common(a1.dtype, a2.dtype) and \
            "c" not in (a1.dtype.kind, a2.dtype.kind):  # (complex: NumPy's order, as it was)
        with on(dev):
            _check_sorter(s, a1.shape[0])  # (the exact path takes a1[s])
            exact: ndarray = wrap_result(_exactly(ns, a1, a2, side, s), dev)
        return exact
    if dev.device_type == CUDA_TYPE:
        with on(dev):
            _check_sorter(s, a1.shape[0])
        a1, a2 = _as_numpy_compares(dev, a1, a2)
    result: ndarray = wrap_result(ns.searchsorted(a1, a2, side=side, sorter=s), dev)
    return result


def _exactly(ns: Any, a1: Any, a2: Any, side: str, s: Any) -> Any:
    """searchsorted of a 64-bit integer x1 or x2 beside a float, or beside an integer of the
    other signedness, comparing the values exactly, as the spec's index condition asks: NumPy
    and CuPy compare in float64, which rounds integers past 2**53 (2**53 + 1 sorted before
    2**53 + 2; int64 2**63 - 1 equalled uint64 2**63). Each comparison is made between
    integers of one dtype:
    - a float v among integers: k < v where k < ceil(v), k <= v where k <= floor(v), with
      those past the integers' range (and NaN, which sorts last) counted apart;
    - an integer k among floats: f < k where floor(f) < k, f <= k where ceil(f) <= k, among
      the sorted floats within the integers' range (those below it counted, those above and
      NaN not);
    - uint64 with signed integers: in the dtype of x1, x2's values past its range counted
      apart."""
    n = a1.shape[0]
    if a1.dtype.kind in "iu" and a2.dtype.kind in "iu":
        if a1.dtype.kind == "u":  # (x1 uint64: x2's negatives go first)
            r = ns.searchsorted(a1, a2.astype(a1.dtype), side=side, sorter=s)
            return ns.where(a2 < 0, ns.zeros_like(r), r)
        r = ns.searchsorted(a1.astype(np.int64), a2.astype(np.int64), side=side, sorter=s)
        past = a2 > a2.dtype.type(np.iinfo(np.int64).max)  # (typed: compared as uint64)
        return ns.where(past, ns.full_like(r, n), r)
    if a1.dtype.kind in "iu":
        low, high = (0.0, 2.0**64) if a1.dtype.kind == "u" else (-2.0**63, 2.0**63)
        t = (ns.ceil if side == "left" else ns.floor)(a2.astype(np.float64))
        inside = (t >= low) & (t < high)
        r = ns.searchsorted(a1, ns.where(inside, t, ns.zeros_like(t)).astype(a1.dtype),
                            side=side, sorter=s)
        return ns.where(inside, r, ns.where(t < low, ns.zeros_like(r), ns.full_like(r, n)))
    low, high = (0.0, 2.0**64) if a2.dtype.kind == "u" else (-2.0**63, 2.0**63)
    f = (a1 if s is None else a1[s]).astype(np.float64)
    g = (ns.floor if side == "left" else ns.ceil)(f)
    ends = ns.searchsorted(g, ns.asarray([low, high], dtype=np.float64), side="left")
    below, within = int(ends[0]), int(ends[1])  # (GPU: one sync, for a rare pair of dtypes)
    r = ns.searchsorted(g[below:within].astype(a2.dtype), a2, side=side)
    return r + below


def _check_sorter(s: Any, n: int) -> None:
    """ValueError for a sorter index outside x1 (of length ``n``), as NumPy's for those its
    search visits: every one, where dltensor indexes with them itself or CuPy takes them
    (wrapping each; one reduction more, and on a GPU a sync). NumPy's own search is left to
    check its own: a check of every index took 9 ms for a sorter of 10**7."""
    if s is not None and s.size and not 0 <= int(s.min()) <= int(s.max()) < n:
        raise ValueError("searchsorted: a sorter index is out of range")


def _as_numpy_compares(dev: Device, a1: Any, a2: Any) -> tuple[Any, Any]:
    """CuPy arrays for CuPy 14's searchsorted to answer as NumPy's does: both in their common
    dtype (CuPy compares the two dtypes in C++: int32 with uint32 as unsigned, -1 past 10)."""
    if a1.dtype != a2.dtype:
        with on(dev):
            common = np.result_type(a1.dtype, a2.dtype)
            a1, a2 = a1.astype(common, copy=False), a2.astype(common, copy=False)
    return a1, a2


def scalar_array(ns: Any, dev: Device, value: Any, dtype: Any) -> Any:
    """A Python scalar as a 0-d backend array: CuPy's asarray of 0.0 fills with a memset,
    losing -0.0's sign, so on a GPU it is full()."""
    if isinstance(value, np.generic):  # taken as the Python scalar it holds (scalar_dtype
        value = value.item()           # checked its range): NumPy would wrap np.int64(300)
    value = scalar_into(value, dtype)
    if dev.device_type == CUDA_TYPE:
        return ns.full((), value, dtype=dtype)
    return np.asarray(value, dtype=dtype)  # (NumPy's own: compat's adds ~0.8 us)


def _host_scalar(value: Any, dtype: Any) -> Any:
    """A Python scalar as a 0-d NumPy array of ``dtype``, as scalar_array makes it on the CPU."""
    return np.asarray(float(value) if type(value) is int and dtype.kind in "fc" else value,
                      dtype=dtype)


def where(condition: ndarray, x1: ndarray | bool | int | float | complex,
          x2: ndarray | bool | int | float | complex, /) -> ndarray:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (broadcast together)."""
    if type(condition) is ndarray and type(x1) is ndarray and type(x2) is ndarray \
            and condition._device is CPU and x1._device is CPU and x2._device is CPU:
        # The common case, without the general path's checks (~1.5 us): NumPy arrays of one dtype.
        a1, a2 = native(x1), native(x2)
        if a1.dtype is a2.dtype:
            return wrap(np.where(native(condition), a1, a2))
    elif type(condition) is ndarray and condition._device is CPU:
        # An array and a Python scalar of a kind its dtype takes: the general path's calls
        # without its checks (~4.5 us of them)
        if type(x1) is ndarray and x1._device is CPU:
            a1 = native(x1)
            if type(x2) in KEEPING_SCALARS[a1.dtype]:
                return wrap(np.where(native(condition), a1, _host_scalar(x2, a1.dtype)))
        elif type(x2) is ndarray and x2._device is CPU:
            a2 = native(x2)
            if type(x1) in KEEPING_SCALARS[a2.dtype]:
                return wrap(np.where(native(condition), _host_scalar(x1, a2.dtype), a2))
    if not isinstance(condition, ndarray):
        raise TypeError(f"where needs condition to be an array, not {type(condition).__name__}")
    x1_array, x2_array = isinstance(x1, ndarray), isinstance(x2, ndarray)
    if not (x1_array or x2_array):
        raise TypeError("where needs at least one of x1 and x2 to be an array")
    dev = check_device(condition, *(a for a in (x1, x2) if isinstance(a, ndarray)))
    try:
        if dev.device_type == CUDA_TYPE:
            with on(dev):  # (astype below copies on CuPy's current device)
                return _where(dev, condition, x1, x2, x1_array, x2_array)
        return _where(dev, condition, x1, x2, x1_array, x2_array)
    except NoBackendError as e:  # held memory: the CPU's error first for bad operands
        raise cpu_error_first(where, (condition, x1, x2), {}, e) from None


def _where(dev: Device, condition: ndarray, x1: Any, x2: Any, x1_array: bool,
           x2_array: bool) -> ndarray:
    ns = namespace_for(dev)
    c = native(condition)
    if x1_array and x2_array:
        a1, a2 = native(x1), native(x2)
        if a1.dtype != a2.dtype:
            dt = NUMPY_PROMOTION.get((a1.dtype, a2.dtype))
            if dt is None:
                raise no_promotion("where", FROM_NUMPY[a1.dtype], FROM_NUMPY[a2.dtype])
            a1, a2 = a1.astype(dt, copy=False), a2.astype(dt, copy=False)
    elif x1_array:
        a1 = native(x1)
        a2 = scalar_array(ns, dev, x2, scalar_dtype(x2, a1.dtype, "where"))
    else:
        a2 = native(x2)
        a1 = scalar_array(ns, dev, x1, scalar_dtype(x1, a2.dtype, "where"))
    result: ndarray = wrap_result(ns.where(c, a1, a2), dev)
    return result
