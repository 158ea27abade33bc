import numpy as _np

from . import _namespace_attr

__all__ = [n for n in dir(_np.fft) if not n.startswith("_")]


def __getattr__(name):
    if name.startswith("__") or not hasattr(_np.fft, name):
        raise AttributeError(name)
    value = _namespace_attr(_np.fft, name)
    globals()[name] = value
    return value
