"""Shared test setup: makes ``tests/producers.py`` (the ctypes DLPack producer) importable.

Ownership tests assert that deleters run as soon as the last reference goes (``del x``), without
``gc.collect()``: users rely on prompt release, and with torch loaded a collection costs ~0.3 s.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
