"""Sorting functions (array API 2025.12, "Sorting Functions").

Both delegate to array-api-compat, which maps ``stable``/``descending`` onto NumPy's and CuPy's
``kind`` and keeps a descending stable sort stable (it sorts the flipped array).
"""

from __future__ import annotations

import functools

from ._array import ndarray
from ._dispatch import delegating

__all__ = ["argsort", "sort"]


@functools.partial(delegating, widen=True)
def argsort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
            stable: bool = True) -> ndarray:
    """Indices that sort ``x`` along ``axis`` (ascending unless ``descending``)."""


@functools.partial(delegating, widen=True)
def sort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
         stable: bool = True) -> ndarray:
    """A sorted copy of ``x`` along ``axis`` (ascending unless ``descending``)."""
