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
