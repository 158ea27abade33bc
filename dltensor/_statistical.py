"""Statistical functions (array API 2025.12, "Statistical Functions").

NumPy's and CuPy's reductions already follow the spec's dtype rules (sums and products of
small integers accumulate in the default integer, unsigned in uint64; floats keep their
dtype), so most functions delegate. Those taking ``dtype=`` are written out to turn a dltensor
dtype into the backend's, and ``sum`` has a hand-written CPU path: it is the reduction called
most often on small arrays, where a generic dispatch would cost more than the sum itself.
"""

from __future__ import annotations


import numpy as np

from ._array import ndarray, wrap
from ._dispatch import delegating, native_dtype
from ._devices import CPU
from ._dtypes import DType
from ._dispatch import namespace_for, native, wrap_result

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum",
           "var"]

_np_ndarray = np.ndarray
_asarray = np.asarray


def sum(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None, dtype: DType | None = None,
        keepdims: bool = False) -> ndarray:
    """The sum of the elements of ``x`` along ``axis`` (all axes by default)."""
    if type(x) is ndarray and x._device is CPU and dtype is None:
        a = x._array
        if a is None:
            a = x._compute()
        r = a.sum(axis=axis, keepdims=keepdims)
        return wrap(r if type(r) is _np_ndarray else _asarray(r))
    return _reduce("sum", x, axis, dtype, keepdims)


def prod(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None, dtype: DType | None = None,
         keepdims: bool = False) -> ndarray:
    """The product of the elements of ``x`` along ``axis`` (all axes by default)."""
    return _reduce("prod", x, axis, dtype, keepdims)


def _reduce(name: str, x: ndarray, axis: int | tuple[int, ...] | None, dtype: DType | None,
            keepdims: bool) -> ndarray:
    dev = x._device
    r = getattr(namespace_for(dev), name)(native(x), axis=axis, dtype=native_dtype(dtype),
                                          keepdims=keepdims)
    result: ndarray = wrap_result(r, dev)
    return result


def cumulative_sum(x: ndarray, /, *, axis: int | None = None, dtype: DType | None = None,
                   include_initial: bool = False) -> ndarray:
    """Running sums along ``axis`` (optional for 1-D ``x``), starting with 0 when
    ``include_initial``."""
    return _accumulate("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x: ndarray, /, *, axis: int | None = None, dtype: DType | None = None,
                    include_initial: bool = False) -> ndarray:
    """Running products along ``axis`` (optional for 1-D ``x``), starting with 1 when
    ``include_initial``."""
    return _accumulate("cumulative_prod", x, axis, dtype, include_initial)


def _accumulate(name: str, x: ndarray, axis: int | None, dtype: DType | None,
                include_initial: bool) -> ndarray:
    dev = x._device
    r = getattr(namespace_for(dev), name)(native(x), axis=axis, dtype=native_dtype(dtype),
                                          include_initial=include_initial)
    result: ndarray = wrap_result(r, dev)
    return result


@delegating
def max(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """The largest element of ``x`` along ``axis`` (NaN propagates)."""


@delegating
def min(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """The smallest element of ``x`` along ``axis`` (NaN propagates)."""


@delegating
def mean(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
         keepdims: bool = False) -> ndarray:
    """The arithmetic mean of ``x`` along ``axis`` (floating-point, complex included)."""


@delegating
def std(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        correction: int | float = 0.0, keepdims: bool = False) -> ndarray:
    """The standard deviation of ``x`` along ``axis``, dividing by N - ``correction``."""


@delegating
def var(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        correction: int | float = 0.0, keepdims: bool = False) -> ndarray:
    """The variance of ``x`` along ``axis``, dividing by N - ``correction``."""
