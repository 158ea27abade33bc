"""Sorting functions (array API 2025.12, "Sorting Functions").

Both delegate to array-api-compat, which maps ``stable``/``descending`` onto NumPy's and CuPy's
``kind`` and keeps a descending stable sort stable (it sorts the flipped array).
"""

from __future__ import annotations

from ._array import ndarray
from ._dispatch import delegating
from ._dtype_functions import through_float32

__all__ = ["argsort", "sort"]


@through_float32
@delegating
def argsort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
            stable: bool = True) -> ndarray:
    """Indices that sort ``x`` along ``axis`` (ascending unless ``descending``)."""


@through_float32
@delegating
def sort(x: ndarray, /, *, axis: int = -1, descending: bool = False,
         stable: bool = True) -> ndarray:
    """A sorted copy of ``x`` along ``axis`` (ascending unless ``descending``)."""
