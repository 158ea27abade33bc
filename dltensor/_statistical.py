"""Statistical functions (array API 2025.12, "Statistical Functions").

NumPy's and CuPy's reductions already follow the spec's dtype rules (sums and products of
small integers accumulate in the default integer, unsigned in uint64; floats keep their
dtype), so most functions delegate. Those taking ``dtype=`` are written out to turn a dltensor
dtype into the backend's, and ``sum`` has hand-written paths for the CPU and CUDA: it is the
reduction called most often on small arrays, where a generic dispatch would cost more than the
sum itself. The commonest CPU calls of ``mean``, ``std``, ``var`` and the cumulative functions
are NumPy's own calls too, made directly where the checked path would make the same.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import AbstractSet, Any


import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ._array import held, ndarray, wrap
from ._dispatch import array_module, axis_checked, axis_past_c_int, delegating, expect_array, flag
from ._dispatch import namespace_for, native, native_dtype, native_or_cpu_error, on, real_number
from ._dispatch import reduction_axes, refuse_axes_of_0d, strict_int, wrap_result
from ._devices import CPU, CUDA_TYPE
from ._dtype_functions import astype, in_float32
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, DType, derived, refuse_complex_to_real
from ._manipulation import reshape

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum",
           "var"]

_np_ndarray = np.ndarray
_asarray = np.asarray
_add_reduce: Callable[..., Any] = np.add.reduce  # (positional keepdims, initial: untyped)
_add_accumulate, _multiply_accumulate = np.add.accumulate, np.multiply.accumulate
# The 16-bit floats, whose sums, products and variances are computed in float32: NumPy adds
# float16 in float16 too along any axis but the innermost, and in running sums (they stall at
# 2048; 6e4 + 6e4 - 6e4 was inf), and squares float16 deviations in float16 (var overflowed).
_WIDEN: set[np.dtype[Any]] = {np.dtype(np.float16)}
derived(lambda: _WIDEN.update(EXTENSION_FLOATS))


def sum(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None, dtype: DType | None = None,
        keepdims: bool = False) -> ndarray:
    """The sum of the elements of ``x`` along ``axis`` (all axes by default)."""
    if keepdims is not False and keepdims is not True:
        keepdims = flag("sum", "keepdims", keepdims)
    try:  # (axis_checked's work, without its call: the sum of a small array is benchmarked)
        if type(x) is ndarray and dtype is None:  # (what _with_dtype does, less its checks)
            dev = x._device
            if dev is CPU:
                a = x._array
                if a is None:
                    a = x._compute()
                if a.dtype not in _WIDEN:
                    if axis is not None and a.ndim == 0:
                        refuse_axes_of_0d("sum", axis)
                    z = _FROM_NEGATIVE_ZERO.get(a.dtype) if a.size else None
                    try:
                        r = a.sum(axis=axis, keepdims=keepdims) if z is None else \
                            _add_reduce(a, axis, None, None, keepdims, z)
                    except (TypeError, ValueError):  # (as _with_dtype's)
                        reduction_axes("sum", axis, a.ndim)
                        raise
                    return wrap(r if type(r) is _np_ndarray else _asarray(r))
            elif dev.device_type == CUDA_TYPE and x._array is not None \
                    and x._array.dtype not in _WIDEN and (axis is None or type(axis) is int):
                a = x._array  # (CuPy's; its result is on its current GPU, x's)
                if axis is not None and a.ndim == 0:
                    refuse_axes_of_0d("sum", axis)
                with on(dev):
                    return wrap(a.sum(axis=axis, keepdims=keepdims), dev)
        elif type(x) is ndarray and type(dtype) is DType and x._device is CPU:
            a = x._array
            if a is None:
                a = x._compute()
            nd = _PLAIN_SUM.get((a.dtype, dtype))
            if nd is not None:  # (sum(x, dtype=float64): 11.5 us through _with_dtype, 4.5 here)
                if a.ndim == 0:
                    refuse_axes_of_0d("sum", axis)
                elif axis is not None:  # (before NumPy's cast of the whole array: as below)
                    reduction_axes("sum", axis, a.ndim)
                r = numpy_sum(a, axis=axis, dtype=nd, keepdims=keepdims)
                return wrap(r if type(r) is _np_ndarray else _asarray(r))
        return _with_dtype("sum", x, dtype, _WIDEN, axis=axis, keepdims=keepdims)
    except (OverflowError, ValueError) as e:
        raise axis_past_c_int("sum", (), axis) or e


# The spec's sum is successive adds of x's elements, whose special cases its own: the sum of
# -0.0s is -0.0, as -0.0 + -0.0 is. NumPy's sums start from +0.0 (+0.0 + -0.0 is +0.0), which
# drops that sign; -0.0, the true identity of IEEE addition (-0.0 + v is v for every v),
# changes nothing else. Not for an empty sum: that is 0.
_FROM_NEGATIVE_ZERO: dict[np.dtype[Any], float | complex] = {
    np.dtype(np.float32): -0.0, np.dtype(np.float64): -0.0,
    np.dtype(np.complex64): complex(-0.0, -0.0), np.dtype(np.complex128): complex(-0.0, -0.0)}


def numpy_sum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    """NumPy's sum of NumPy array ``a``, each from -0.0 where it is a float's or a complex's
    and not empty (see _FROM_NEGATIVE_ZERO)."""
    z = _FROM_NEGATIVE_ZERO.get(a.dtype if dtype is None else np.dtype(dtype)) \
        if a.size else None
    if z is None:
        return a.sum(axis=axis, dtype=dtype, keepdims=keepdims)
    return _add_reduce(a, axis, dtype, None, keepdims, z)  # (a.sum's ufunc: ~0.2 us less)


def numpy_prod(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    """NumPy's product of NumPy array ``a``; a complex one by successive multiplies, as the
    spec's special cases are: NumPy's products start from 1+0j, whose product with z is not z
    where a part of z is infinite or zero (prod([inf+0j]) was inf+nanj, prod([infj, 1j])
    nan+nanj where infj * 1j is -inf+nanj). A running product costs what NumPy's does."""
    d = a.dtype if dtype is None else np.dtype(dtype)
    if d.kind != "c" or not a.size:
        return a.prod(axis=axis, dtype=dtype, keepdims=keepdims)
    reduction_axes("prod", axis, a.ndim)  # (a bool is no axis, as NumPy's reductions say)
    try:
        axes = normalize_axis_tuple(range(a.ndim) if axis is None else axis, a.ndim)
    except ValueError:  # (an axis out of range or twice: NumPy's refusal, in its words)
        return a.prod(axis=axis, dtype=dtype, keepdims=keepdims)
    kept = a.ndim - len(axes)
    lanes = np.moveaxis(a, axes, range(kept, a.ndim))
    lanes = lanes.reshape(lanes.shape[:kept] + (-1,))  # (each product's factors, in order)
    r = _multiply_accumulate(lanes, axis=-1, dtype=d)[..., -1].copy()  # (not a view of it all)
    return r.reshape([1 if i in axes else n for i, n in enumerate(a.shape)]) if keepdims else r


# (x's NumPy dtype, a dltensor dtype=) -> the NumPy dtype NumPy's own sum takes as it is, where
# _with_dtype would do no more: neither a 16-bit float (added in float32) nor complex into a
# real dtype (refused). (Its bool sums are NumPy's too: the cast to bool before adding is
# CuPy's need, which cannot cast complex to bool in a kernel.)
_PLAIN_SUM: dict[tuple[np.dtype[Any], DType], np.dtype[Any]] = {
    (src, d): d.numpy for src, s in FROM_NUMPY.items() for d in FROM_NUMPY.values()
    if d.numpy is not None and src not in _WIDEN and d.numpy not in _WIDEN
    and d.spec_kind is not None and s.spec_kind is not None
    and (s.spec_kind != "complex floating" or d.spec_kind == "complex floating")}


@axis_checked
def prod(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None, dtype: DType | None = None,
         keepdims: bool = False) -> ndarray:
    """The product of the elements of ``x`` along ``axis`` (all axes by default)."""
    return _with_dtype("prod", x, dtype, _WIDEN, axis=axis, keepdims=keepdims)


def _with_dtype(name: str, x: ndarray, dtype: DType | None,
                widen: AbstractSet[np.dtype[Any]] = EXTENSION_FLOATS, **kwargs: Any) -> ndarray:
    """The backend's ``name`` on ``x`` with a dltensor ``dtype=`` made the backend's (``x`` of
    a dtype in ``widen`` computed in float32: see in_float32)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and dtype is None and a.ndim and a.dtype not in widen and \
            type(kwargs.get("keepdims", False)) is bool and \
            type(kwargs.get("include_initial", False)) is bool:
        # (the common call: NumPy's own, where each check below passes; ~3 us less)
        try:
            r = _NUMPY_OWN[name](a, **kwargs)
        except (TypeError, ValueError):  # (an axis NumPy refuses: in the checked path's words)
            reduction_axes(name, kwargs.get("axis"), a.ndim)
            raise
        return wrap(r if type(r) is _np_ndarray else _asarray(r))
    expect_array(name, x)
    for k in ("keepdims", "include_initial"):
        if k in kwargs:
            kwargs[k] = flag(name, k, kwargs[k])
    dev = x._device
    a = native_or_cpu_error(x, lambda y: _with_dtype(name, y, dtype, widen, **kwargs), x)
    nd = native_dtype(dtype)
    if dtype is not None and nd in widen and a.dtype != nd:
        # x cast to the 16-bit float asked for, then added in float32 (NumPy added in the
        # 16 bits: a bfloat16 sum of 1000 float32 ones was 256)
        refuse_complex_to_real(name, x.dtype, dtype)
        return _with_dtype(name, astype(x, dtype), None, widen, **kwargs)
    if dtype is not None and dtype.spec_kind == "bool" and x.dtype.spec_kind != "bool":
        # x cast to bool first, as NumPy's bool loops take it (a sum is a logical or, a
        # product a logical and): CuPy's reductions cast inside the kernel, where complex has
        # no conversion to bool (a CompileException)
        return _with_dtype(name, astype(x, dtype), dtype, widen, **kwargs)
    if a.dtype in widen:
        wide: ndarray = in_float32(lambda y, dtype: _with_dtype(name, y, dtype, **kwargs), x,
                                   dtype=dtype)
        return wide
    if a.ndim == 0:
        refuse_axes_of_0d(name, kwargs.get("axis"))
    else:  # (NumPy checks its own, after the dtype's cast: the axis first, as CuPy, and in
        reduction_axes(name, kwargs.get("axis"), a.ndim)  # the fast path's words above)
    if dtype is not None:  # (x "should be cast to" dtype: as astype casts it)
        refuse_complex_to_real(name, x.dtype, dtype)
    fn: Callable[..., Any] = (_NUMPY_OWN.get(name) if type(a) is _np_ndarray else None) or \
        getattr(namespace_for(dev), name)
    r = fn(a, dtype=nd, **kwargs)
    result: ndarray = wrap_result(r, dev)
    return result


# NumPy's own where it is the spec's (2.1+): array-api-compat's cumulative_* find the
# namespace and concatenate the initial zero (~2 us a call over NumPy's 1).
# (Their sum starts from -0.0, their complex prod is running products: see each.)
_NUMPY_OWN: dict[str, Callable[..., Any]] = {"cumulative_sum": np.cumulative_sum,
                                             "cumulative_prod": np.cumulative_prod,
                                             "sum": numpy_sum, "prod": numpy_prod}


def _numpy_accumulable(x: ndarray, axis: object, dtype: object, include_initial: object
                       ) -> Any:
    """x's NumPy array where its ufunc's accumulate along ``axis`` is the cumulative sum or
    product the checked path makes: no dtype asked nor initial value, a dtype NumPy keeps
    (not one _cumulative widens), an int axis within x (optional for a 1-D x); else None."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and dtype is None and include_initial is False and \
            a.dtype not in _WIDEN and (a.ndim == 1 if axis is None else
                                       type(axis) is int and -a.ndim <= axis < a.ndim):
        return a
    return None


def cumulative_sum(x: ndarray, /, *, axis: int | None = None, dtype: DType | None = None,
                   include_initial: bool = False) -> ndarray:
    """Running sums along ``axis`` (optional for 1-D ``x``), starting with 0 when
    ``include_initial``."""
    a = _numpy_accumulable(x, axis, dtype, include_initial)
    if a is not None:
        # The commonest calls: what np.cumulative_sum does with them, without its Python
        # layer or the checked path's (~2.5 us)
        return wrap(_add_accumulate(a, 0 if axis is None else axis), CPU)
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x: ndarray, /, *, axis: int | None = None, dtype: DType | None = None,
                    include_initial: bool = False) -> ndarray:
    """Running products along ``axis`` (optional for 1-D ``x``), starting with 1 when
    ``include_initial``."""
    a = _numpy_accumulable(x, axis, dtype, include_initial)
    if a is not None:
        return wrap(_multiply_accumulate(a, 0 if axis is None else axis), CPU)  # (as above)
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial)


def _cumulative(name: str, x: ndarray, axis: Any, dtype: DType | None,
                include_initial: Any) -> ndarray:
    """cumulative_sum or cumulative_prod (``name``), checked (an axis past a C int an
    AxisError, as axis_checked makes it)."""
    try:
        return _with_dtype(name, _one_d(x), dtype, _WIDEN, axis=_running_axis(name, axis),
                           include_initial=include_initial)
    except (OverflowError, ValueError) as e:
        raise axis_past_c_int(name, (), axis) or e


def _running_axis(name: str, axis: Any) -> int | None:
    """One axis, an int (NumPy's cumulative_sum took the tuple (0,), its cumsum refused it)."""
    return None if axis is None else strict_int(axis, f"{name}'s axis")


def _one_d(x: ndarray) -> ndarray:
    """A 0-d array as NumPy's cumulative functions take it: its one element, in 1-D
    (array-api-compat's include_initial assumes an axis)."""
    if isinstance(x, ndarray) and x.ndim == 0:
        if held(x):  # (a held view: the CPU's error first for bad arguments, then refused)
            return reshape(x, (1,))
        return wrap_result(native(x).reshape(1), x._device)  # type: ignore[no-any-return]
    return x


@delegating
def max(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """The largest element of ``x`` along ``axis`` (NaN propagates)."""


@delegating
def min(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """The smallest element of ``x`` along ``axis`` (NaN propagates)."""


_COMPLEX = frozenset(np.dtype(c) for c in (np.complex64, np.complex128))
_FLOAT32 = np.dtype(np.float32)


def _mean_by_parts(ns: Any) -> Callable[..., Any]:
    """The namespace's mean, of complex input part by part: NumPy and CuPy divide the complex
    sum by N as a complex number, (inf + 1j) / (2 + 0j) is inf + nanj, where the spec has the
    real special cases apply to each part independently. A float32 sum of more than 2**24
    elements is divided by N in float64, as NumPy's mean divides it (CuPy divided by N
    rounded to a float32: an ulp apart)."""
    def mean(a: Any, /, **kwargs: Any) -> Any:
        if _bools_in(kwargs.get("axis")):  # (NumPy's mean reads True as axis 1, as var)
            reduction_axes("mean", kwargs["axis"], a.ndim)
        if a.dtype not in _COMPLEX or not a.size:  # (a dtype set: faster than its kind)
            if a.size > 1 << 24 and a.dtype == _FLOAT32:
                total = ns.sum(a, **kwargs)
                n = a.size // total.size  # (N, of each result)
                return total / n if n <= 1 << 24 else (total.astype(np.float64) / n).astype(
                    np.float32)  # (N a float32 exactly: one rounding, as the double's two)
            return ns.mean(a, **kwargs)  # (only the arguments given: defaults cost ~0.15 us)
        # (an empty one: NaN + NaN j either way, and NumPy's warnings once, not per part)
        re, im = (mean(part, **kwargs) for part in (a.real, a.imag))
        out = ns.empty(re.shape, dtype=a.dtype)
        out.real, out.imag = re, im  # (the setters: NumPy's and CuPy's write the parts)
        return out
    return mean


def _bools_in(axis: Any) -> bool:
    """Whether ``axis`` is a bool or a tuple holding one (an int to NumPy, not the spec)."""
    return type(axis) is bool or type(axis) is tuple and any(type(i) is bool for i in axis)


_SUM_OVER_N = frozenset(np.dtype(f) for f in (np.float32, np.float64))


def mean(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
         keepdims: bool = False) -> ndarray:
    """The arithmetic mean of ``x`` along ``axis`` (floating-point; complex: of each part)."""
    if axis is None and type(x) is ndarray and x._device is CPU and keepdims is False:
        # The commonest call, on the CPU: NumPy's own sum over N, without np.mean's Python
        # layer (~2-5 us on a small array). The same number: NumPy divides the float32 sum in
        # float64 and rounds to float32; where N is a float32 exactly (up to 2**24), that is
        # the float32 division (a division rounded twice so is rounded once: 53 >= 2*24 + 2).
        a = x._array
        if a is None:
            a = x._compute()
        n = a.size
        if a.dtype in _SUM_OVER_N and n:
            s = _add_reduce(a, None)
            return wrap(_asarray(s / n if n <= 1 << 24 else s.dtype.type(float(s) / n)))
    return _mean(x, axis=axis, keepdims=keepdims)


_mean = delegating(mean, widen=in_float32, backend=_mean_by_parts)


def std(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        correction: int | float = 0.0, keepdims: bool = False) -> ndarray:
    """The standard deviation of ``x`` along ``axis``, dividing by N - ``correction`` (NaN
    where that is not positive)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray:
        ddof = _own_ddof(a, axis, correction, keepdims)
        if ddof is not None:  # (NumPy's own std, as _spread calls it: ~1.5 us less)
            r = a.std(axis=axis, ddof=ddof, keepdims=keepdims)
            return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)
    return _checked_spread("std", x, axis, correction, keepdims)


def var(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        correction: int | float = 0.0, keepdims: bool = False) -> ndarray:
    """The variance of ``x`` along ``axis``, dividing by N - ``correction`` (NaN where that is
    not positive)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray:
        ddof = _own_ddof(a, axis, correction, keepdims)
        if ddof is not None:  # (as std's)
            r = a.var(axis=axis, ddof=ddof, keepdims=keepdims)
            return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)
    return _checked_spread("var", x, axis, correction, keepdims)


_EXACT_INTS = 1 << 53  # (the float64s that are whole numbers, all of them, up to here)
_EXACT_FLOATS = float(_EXACT_INTS)
_WHOLE = {0.0: 0, 1.0: 1}  # (the commonest float corrections, as ints: see _spread)


def _own_ddof(a: np.ndarray[Any, Any], axis: Any, correction: Any, keepdims: Any) -> Any:
    """For the commonest calls of std and var on NumPy array ``a`` (an axis None or an int
    within its axes, a keepdims that is a bool, an int or float correction within +-2**53
    that leaves degrees of freedom), the ddof _spread would give NumPy's own std and var,
    whose answer is then _spread's; else None (_spread's checks and special cases)."""
    if axis is None:
        n = a.size
    elif type(axis) is int and -a.ndim <= axis < a.ndim:
        n = a.shape[axis]
    else:
        return None
    t = type(correction)
    if t is float:
        ddof = _WHOLE.get(correction)
        if ddof is None:  # (a whole one as an int, as _spread passes it; NaN: None)
            if not -_EXACT_FLOATS <= correction <= _EXACT_FLOATS:
                return None
            ddof = int(correction) if correction.is_integer() else correction
    elif t is int and -_EXACT_INTS <= correction <= _EXACT_INTS:
        ddof = correction
    else:
        return None
    if n - correction > 0 and (keepdims is False or keepdims is True) and \
            a.dtype not in _WIDEN and a.ndim != 64:  # (neither _spread's NaN, nor _method's
        return ddof  # parts)
    return None


def _checked_spread(name: str, x: ndarray, axis: Any, correction: Any, keepdims: Any) -> ndarray:
    """std or var (``name``), checked (an axis past a C int an AxisError, as axis_checked
    makes it)."""
    try:
        return _spread(name, x, axis, correction, keepdims)
    except (OverflowError, ValueError) as e:
        raise axis_past_c_int(name, (), axis) or e


def _method(a: Any, name: str, axis: Any, ddof: int | float, keepdims: bool) -> Any:
    """``a.std(...)`` or ``a.var(...)``; of a 64-d complex array the parts' variances summed
    (NumPy views complex as floats of one axis more: "number of dimensions must be within
    [0, 64]")."""
    if a.ndim == 64 and a.dtype.kind == "c":
        v = a.real.var(axis=axis, ddof=ddof, keepdims=keepdims) + \
            a.imag.var(axis=axis, ddof=ddof, keepdims=keepdims)
        return v if name == "var" else array_module(v).sqrt(v)
    return getattr(a, name)(axis=axis, ddof=ddof, keepdims=keepdims)


def _spread(name: str, x: ndarray, axis: int | tuple[int, ...] | None, correction: int | float,
            keepdims: bool) -> ndarray:
    expect_array(name, x)
    correction = real_number(name, "correction", correction)
    # The backends subtract an int correction from N in C int64, which wraps for one far
    # below zero (var(x, correction=-2**63) was inf); past float64's exact ints a float
    # divides the same. A whole float within them is passed as an int: NumPy's var takes ~3 us
    # longer with a float ddof (the spec's default is 0.0), to the same result.
    ddof: int | float = correction
    if not -1 << 53 <= correction <= 1 << 53:
        ddof = float(correction)
    elif type(correction) is float and correction.is_integer():
        ddof = int(correction)
    keepdims = flag(name, "keepdims", keepdims)
    dev = x._device
    a = native_or_cpu_error(x, lambda y: _spread(name, y, axis, correction, keepdims), x)
    if a.dtype in _WIDEN:
        wide: ndarray = in_float32(lambda y: _spread(name, y, axis, correction, keepdims), x)
        return wide
    if a.ndim == 0:  # (as the other reductions: NumPy's var read True as an axis here)
        refuse_axes_of_0d(name, axis)
    elif type(a) is not np.ndarray or _bools_in(axis):  # (NumPy checks its own, but reads
        reduction_axes(name, axis, a.ndim)  # True as axis 1: an AxisError of a 1-D array)
    if type(a) is np.ndarray:  # (the array's own method: array-api-compat's wrapper calls it,
        r = _method(a, name, axis, ddof, keepdims)  # ~2.5 us later)
    else:
        with on(dev):  # (a method runs on CuPy's current GPU, not the array's)
            r = _method(a, name, axis, ddof, keepdims)
    axes = range(a.ndim) if axis is None else axis if isinstance(axis, tuple) \
        else (operator.index(axis),)  # (a NumPy integer too)
    n = 1
    for i in axes:
        n *= a.shape[i]
    if n - correction <= 0:
        # The spec: NaN. NumPy and CuPy divide by max(N - correction, 0), so inf for data
        # that varies.
        ns = namespace_for(dev)
        r = ns.full_like(r, ns.nan)
    result: ndarray = wrap_result(r, dev)
    return result
