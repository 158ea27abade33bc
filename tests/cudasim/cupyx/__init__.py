import numpy as _np


def empty_pinned(shape, dtype=float, order="C"):
    return _np.empty(shape, dtype, order=order)


def zeros_pinned(shape, dtype=float, order="C"):
    return _np.zeros(shape, dtype, order=order)
