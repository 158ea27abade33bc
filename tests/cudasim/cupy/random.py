import numpy as _np

from . import _current_id, _fresh


def random(size=None, dtype=float):
    return _fresh(_np.random.random(size).astype(dtype), _current_id())


def rand(*shape, dtype=float):
    return random(shape, dtype)


def standard_normal(size=None, dtype=float):
    return _fresh(_np.random.standard_normal(size).astype(dtype), _current_id())
