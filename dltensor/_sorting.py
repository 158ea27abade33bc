"""Sorting functions (array API 2025.12, "Sorting Functions").

Both delegate to array-api-compat, which maps ``stable``/``descending`` onto NumPy's and CuPy's
``kind``. Its descending argsort stays stable (it sorts the flipped array); its descending sort
reverses an ascending one, which reverses equal elements too (0.0 and -0.0), so ``sort`` calls
a sort of the flipped array instead (``_stable_sort``). On the CPU the commonest calls make
those same NumPy calls without the delegation's layers (``sort`` and ``argsort`` below).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._array import ndarray, wrap
from ._devices import CPU
from ._dispatch import check_axis, check_c_int_axis, delegating, strict_int
from ._dtype_functions import in_float32
from ._dtypes import EXTENSION_FLOATS
from ._indexing import along_axis

__all__ = ["argsort", "sort"]

_np_ndarray = np.ndarray
# stable= as array-api-compat passes it on: kind="stable", or no kind (NumPy's default, None)
_KINDS: dict[bool, Any] = {True: "stable", False: None}


def _int_axis(name: str, a: Any, kwargs: dict[str, Any]) -> None:
    """The axis an int (NumPy flattens for None and reads True as 1), within a C int."""
    if "axis" in kwargs:
        axis = kwargs["axis"] = strict_int(kwargs["axis"], f"{name}'s axis")
        check_c_int_axis(name, axis, a.ndim)


def _in_32_axes(ns: Any, sort: Callable[..., Any], a: Any, kwargs: dict[str, Any]) -> Any:
    """``sort(a, **kwargs)`` for an array of more than 32 axes, which NumPy's sorts refuse
    (RuntimeError; up to 64 are arrays): along its axis as the rows of a matrix."""
    axis = kwargs.pop("axis", -1)
    check_axis(sort.__name__, axis, a.ndim)  # (else moveaxis's words: "source: axis ...")
    return along_axis(ns, lambda rows: sort(rows, axis=-1, **kwargs), (a,), axis)


def _argsort(ns: Any) -> Callable[..., Any]:
    """The namespace's argsort, its axis an int."""
    def argsort(a: Any, /, **kwargs: Any) -> Any:
        _int_axis("argsort", a, kwargs)
        if a.ndim > 32:
            return _in_32_axes(ns, argsort, a, kwargs)
        return ns.argsort(a, **kwargs)
    return argsort


def _numpy_sortable(x: ndarray, axis: object, stable: object) -> Any:
    """x's NumPy array where NumPy's own sorts take the call as the checked path would: an int
    axis within it (a 0-d x has none: the checked path's AxisError), a bool ``stable``, at
    most 32 axes (NumPy's sorts refuse more), a dtype NumPy sorts (not ml_dtypes' floats,
    sorted in float32); None otherwise."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and type(axis) is int and a.ndim <= 32 and \
            -a.ndim <= axis < a.ndim and (stable is True or stable is False) and \
            a.dtype not in EXTENSION_FLOATS:
        return a
    return None


def argsort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
            stable: bool = True) -> ndarray:
    """Indices that sort ``x`` along ``axis`` (ascending unless ``descending``)."""
    a = _numpy_sortable(x, axis, stable)
    if a is not None:
        # The commonest calls: NumPy's own argsort, as array-api-compat's calls it (~2.5 us
        # of layers less); descending, of the flipped array, its indices flipped back and
        # counted from the end, so that equal elements keep their order.
        if descending is False:
            return wrap(a.argsort(axis=axis, kind=_KINDS[stable]))
        if descending is True:
            flip = (slice(None),) * (axis % a.ndim) + (slice(None, None, -1),)
            return wrap((a.shape[axis] - 1) - a[flip].argsort(axis=axis,
                                                               kind=_KINDS[stable])[flip])
    return _checked_argsort(x, axis=axis, descending=descending, stable=stable)


_checked_argsort = delegating(argsort, widen=in_float32, backend=_argsort)


def _stable_sort(ns: Any) -> Callable[..., Any]:
    """The namespace's sort, descending by the ascending sort of the flipped array, flipped
    back: equal elements stay in their order, as stable=True asks. Its axis is an int."""
    def sort(a: Any, /, *, descending: bool = False, **kwargs: Any) -> Any:
        _int_axis("sort", a, kwargs)
        if a.ndim > 32:
            return _in_32_axes(ns, sort, a, dict(kwargs, descending=descending))
        if not descending:
            return ns.sort(a, **kwargs)  # (only the arguments given: defaults cost ~0.15 us)
        axis = kwargs.pop("axis", -1)
        check_axis("sort", axis, a.ndim)
        # flipped by a slice (flip's axis normalisation: ~1.5 us each), then copied: a flipped
        # view has negative strides, which PyTorch's from_dlpack aborts on
        flip = (slice(None),) * (axis % a.ndim) + (slice(None, None, -1),)
        return ns.sort(a[flip], axis=axis, **kwargs)[flip].copy()
    return sort


def sort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
         stable: bool = True) -> ndarray:
    """A sorted copy of ``x`` along ``axis`` (ascending unless ``descending``)."""
    a = _numpy_sortable(x, axis, stable)
    if a is not None:
        # The commonest calls: np.sort's own copy and sort, without its Python layer and the
        # delegation's (~2 us); descending, as _stable_sort sorts the flipped array
        if descending is False:
            r = a.copy(order="K")
            r.sort(axis=axis, kind=_KINDS[stable])
            return wrap(r)
        if descending is True:
            flip = (slice(None),) * (axis % a.ndim) + (slice(None, None, -1),)
            r = a[flip].copy(order="K")
            r.sort(axis=axis, kind=_KINDS[stable])
            return wrap(r[flip].copy())
    return _checked_sort(x, axis=axis, descending=descending, stable=stable)


_checked_sort = delegating(sort, widen=in_float32, backend=_stable_sort)
