"""The differential check the API tests share: a dltensor result against array-api-strict's."""

from __future__ import annotations

from typing import Callable

import numpy as np

import dltensor as dlt


def same(got, want, *, tol: Callable[[np.dtype], tuple[float, float]] | None = None) -> None:
    """``got`` (dltensor) equals ``want`` (array-api-strict): the same dtype and shape, and the
    same values, exactly or to the ``(rtol, atol)`` that ``tol`` gives for the result's dtype;
    tuples item by item, named tuples with the same field names."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        assert getattr(type(got), "_fields", None) == getattr(type(want), "_fields", None)
        for g, w in zip(got, want):
            same(g, w, tol=tol)
        return
    assert isinstance(got, dlt.ndarray)
    assert got.dtype.name == str(want.dtype).rpartition(".")[2]
    assert got.shape == want.shape
    g, w = np.from_dlpack(got), np.from_dlpack(want)
    if tol is None:
        np.testing.assert_array_equal(g, w, strict=True)
    else:
        rtol, atol = tol(w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, strict=True)
