"""Sorting functions (array API 2025.12, "Sorting Functions").

Both delegate to array-api-compat, which maps ``stable``/``descending`` onto NumPy's and CuPy's
``kind``. Its descending argsort stays stable (it sorts the flipped array); its descending sort
reverses an ascending one, which reverses equal elements too (0.0 and -0.0), so ``sort`` sorts
the flipped array itself.
"""

from __future__ import annotations

import functools

from ._array import ndarray
from ._dispatch import delegate_first, delegating, expect_array, refuse_axes_of_0d, strict_int
from ._manipulation import flip

__all__ = ["argsort", "sort"]


@functools.partial(delegating, widen=True)
def argsort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
            stable: bool = True) -> ndarray:
    """Indices that sort ``x`` along ``axis`` (ascending unless ``descending``)."""


_sort = delegate_first("sort", -1, -1, widen=True)  # (the backend's: sort checks the call)


def sort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
         stable: bool = True) -> ndarray:
    """A sorted copy of ``x`` along ``axis`` (ascending unless ``descending``)."""
    if not descending:
        result: ndarray = _sort(x, axis=axis, stable=stable)
        return result
    expect_array("sort", x)
    axis = strict_int(axis, "sort's axis")
    if x.ndim == 0:
        refuse_axes_of_0d("sort", axis)
    # The ascending sort of the flipped array, flipped back: descending, and equal elements in
    # their order in x, as stable=True asks (reversing an ascending sort reverses them).
    return flip(_sort(flip(x, axis=axis), axis=axis, stable=stable), axis=axis)
