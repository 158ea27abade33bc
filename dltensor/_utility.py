"""Utility functions (array API 2025.12, "Utility Functions"): all, any, diff."""

from __future__ import annotations

from ._array import ndarray
from ._dispatch import delegating
from ._dispatch import delegate, expect_array, native
from ._manipulation import result_dtype

__all__ = ["all", "any", "diff"]


@delegating
def all(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """Whether every element of ``x`` along ``axis`` is true (non-zero)."""


@delegating
def any(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> ndarray:
    """Whether any element of ``x`` along ``axis`` is true (non-zero)."""


_diff = delegate("diff")


def diff(x: ndarray, /, *, axis: int = -1, n: int = 1, prepend: ndarray | None = None,
         append: ndarray | None = None) -> ndarray:
    """The ``n``-th forward difference of ``x`` along ``axis`` (``prepend``/``append`` are
    joined to ``x`` first)."""
    # NumPy takes an explicit prepend=None / append=None as a value to join: leave them out.
    edges = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    expect_array("diff", x, *edges.values())
    result_dtype("diff", [native(a) for a in (x, *edges.values())])  # (spec promotion only)
    result: ndarray = _diff(x, axis=axis, n=n, **edges)
    return result
