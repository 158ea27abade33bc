"""Shared test setup: makes ``tests/producers.py`` (the ctypes DLPack producer) importable.

Ownership tests assert that deleters run as soon as the last reference goes (``del x``), without
``gc.collect()``: users rely on prompt release, and with torch loaded a collection costs ~0.3 s.
"""

import gc
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture
def leak_accounting():
    """live_count() and the test producer's unreleased tensors end where they started.

    Garbage other tests left in cycles is collected first, and the collector is off
    meanwhile, so such garbage cannot move them.
    """
    import producers as P
    from dltensor._dlpack import live_count
    gc.collect()
    gc.disable()
    try:
        live, alive = live_count(), P.exports_alive()
        yield
        assert (live_count(), P.exports_alive()) == (live, alive), "a tensor leaked"
    finally:
        gc.enable()


_cupy_installed: list[bool] = []


@pytest.fixture(autouse=True)
def _without_cupy_unless_gpu(request, monkeypatch):
    """Tests not marked ``gpu`` run as on CI, a machine without CuPy, wherever they run: their
    producers claim CUDA over pointers no one may touch (a CuPy that finds a GPU would compute
    on them), and their refusals are those of a machine without one. .ci/gpu runs them on a GPU
    machine too; the ``gpu`` tests (test_gpu.py and the like) use the real CuPy there."""
    if not _cupy_installed:
        import importlib.util
        _cupy_installed.append(importlib.util.find_spec("cupy") is not None)
    if _cupy_installed[0] and request.node.get_closest_marker("gpu") is None:
        from dltensor._backends import cupy_backend
        monkeypatch.setattr(cupy_backend, "_cupy", None)
        monkeypatch.setattr(cupy_backend, "_reason", "CuPy is hidden from tests not marked gpu")
