"""Utility functions (array API 2025.12, "Utility Functions"): all, any, diff."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._array import ndarray, wrap
from ._creation import empty
from ._devices import CPU
from ._backends import NoBackendError
from ._dispatch import check_device, cpu_error_first, delegating
from ._dispatch import check_axis, delegate, expect_array, fresh, ints, native, within_largest
from ._dtypes import FROM_NUMPY
from ._manipulation import broadcast_to, concat, result_dtype

__all__ = ["all", "any", "diff"]


# What np.all and np.any call for a NumPy array: the logical reduction into bool
_and_reduce: Any = np.logical_and.reduce
_or_reduce: Any = np.logical_or.reduce
_np_ndarray, _asarray = np.ndarray, np.asarray


def all(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """Whether every element of ``x`` along ``axis`` is true (non-zero)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and (keepdims is False or keepdims is True) and (
            axis is None or type(axis) is int and -a.ndim <= axis < a.ndim):
        # The commonest calls: np.all's own reduction, without its Python layer and the
        # checked path's (~2.5 us)
        r = _and_reduce(a, axis, bool, None, keepdims=keepdims)
        return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)
    return _checked_all(x, axis=axis, keepdims=keepdims)


def any(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """Whether any element of ``x`` along ``axis`` is true (non-zero)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and (keepdims is False or keepdims is True) and (
            axis is None or type(axis) is int and -a.ndim <= axis < a.ndim):
        r = _or_reduce(a, axis, bool, None, keepdims=keepdims)  # (as all's)
        return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)
    return _checked_any(x, axis=axis, keepdims=keepdims)


_checked_all, _checked_any = delegating(all), delegating(any)


_backend_diff = delegate("diff")


def diff(x: ndarray, /, *, axis: int = -1, n: int = 1, prepend: ndarray | None = None,
         append: ndarray | None = None) -> ndarray:
    """The ``n``-th forward difference of ``x`` along ``axis`` (``prepend``/``append`` are
    joined to ``x`` first)."""
    if type(x) is ndarray and type(axis) is int and type(n) is int \
            and type(x._array) is np.ndarray:
        # The commonest calls: NumPy's own, where each check below passes and n needs no
        # clamping (~3.5 us of them; ~12 us with an edge)
        a = x._array
        if -a.ndim <= axis < a.ndim and 0 < n <= a.shape[axis] and a.size:
            if prepend is None and append is None:
                return wrap(np.diff(a, n=n, axis=axis), CPU)
            # (edges of x's dtype and ndim, which NumPy joins as the spec does)
            joined = {k: v._array for k, v in (("prepend", prepend), ("append", append))
                     if v is not None and type(v) is ndarray and type(v._array) is np.ndarray
                     and v._array.dtype is a.dtype and v._array.ndim == a.ndim}
            if len(joined) == (prepend is not None) + (append is not None):
                length = a.shape[axis] + sum(e.shape[axis] for e in joined.values())
                if a.size // a.shape[axis] * length * a.itemsize < 1 << 63:  # (within_largest)
                    return wrap(np.diff(a, n=n, axis=axis, **joined), CPU)
    # NumPy takes an explicit prepend=None / append=None as a value to join: leave them out.
    edges = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    expect_array("diff", x, *edges.values())
    check_device(x, *edges.values())
    try:
        return _diff(x, axis, n, edges)
    except NoBackendError as e:  # held memory: the CPU's error first for bad arguments
        raise cpu_error_first(diff, (x,), {"axis": axis, "n": n, **edges}, e) from None


def _diff(x: ndarray, axis: int, n: int, edges: dict[str, ndarray]) -> ndarray:
    axis, n = ints("diff", "axis", axis, many=False), ints("diff", "n", n, many=False)
    dtype = result_dtype("diff", [native(a) for a in (x, *edges.values())])  # (the spec's)
    check_axis("diff", axis, x.ndim)  # (NumPy's n = 0 checked none; CuPy: the edges' ndims first)
    for name, edge in edges.items():  # (NumPy: an AxisError for the joined arrays' axis)
        if edge.ndim not in (0, x.ndim):
            raise ValueError(f"diff: {name} must have x's {x.ndim} dimensions (or none), "
                             f"not {edge.ndim}")
    if n == 0:
        # NumPy returns x itself, edges left off: the spec's axis has M + N1 + N2 elements
        # (a 0-d edge is one step along axis, as NumPy's diff takes it for n >= 1)
        step = x.shape[:axis % x.ndim] + (1,) + x.shape[axis % x.ndim + 1:]
        return concat([broadcast_to(a, step) if a.ndim == 0 else a
                       for a in (edges.get("prepend"), x, edges.get("append")) if a is not None],
                      axis=axis)
    # Differences of order past the joined length are all empty: NumPy and CuPy loop n times
    # whatever the length (diff(x, n=10**20) ran for ever). (At least 1: their n = 0 is x
    # itself, edges left unjoined.)
    length = x.shape[axis] + sum(e.shape[axis] if e.ndim else 1 for e in edges.values())
    # (NumPy joins the edges in C, whose sum of lengths wraps: a wrapped join crashed)
    within_largest("diff", x.shape[:axis % x.ndim] + (length,) + x.shape[axis % x.ndim + 1:],
                   max(np.dtype(dtype).itemsize, 1))
    ax = axis % x.ndim
    others = x.shape[:ax] + x.shape[ax + 1:]
    unjoined = [e for e in edges.values() if e.ndim and e.shape[:ax] + e.shape[ax + 1:] != others]
    if 0 in others and n > 0 and not unjoined:  # (else NumPy's errors: a negative n, edges that
        # do not join)
        # No elements to difference: NumPy loops over the n differences in Python whatever
        # the elements (2**24 of an empty array took 17 s)
        return empty(x.shape[:ax] + (max(length - n, 0),) + x.shape[ax + 1:],
                     dtype=FROM_NUMPY[dtype], device=fresh(x._device))
    result: ndarray = _backend_diff(x, axis=axis, n=min(n, max(length, 1)), **edges)
    return result
