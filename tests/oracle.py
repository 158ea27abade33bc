"""The differential check the API tests share: a dltensor result against array-api-strict's."""

from __future__ import annotations

from typing import Callable

import re

import numpy as np
import pytest

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


def bits(got, want, where):
    """The same dtype, shape and elements to the bit (signed zeros and NaNs in place)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, where
    assert np.array_equal(got, want, equal_nan=True), where
    if got.dtype.kind in "fc":
        parts = (np.real, np.imag) if got.dtype.kind == "c" else (lambda a: a,)
        for part in parts:
            assert np.array_equal(np.signbit(part(got)), np.signbit(part(want))), where


def alike(fast, checked, where):
    """The same result (see bits; a tuple's, each), or the same error in the same words."""
    try:
        got = fast()
    except Exception as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            checked()
        return
    want = checked()
    if isinstance(got, tuple):
        assert isinstance(want, tuple) and len(got) == len(want), where
        for g, w in zip(got, want):
            bits(g, w, where)
    else:
        bits(got, want, where)

