"""cupy.fft: NumPy's functions over the simulator's arrays."""
import numpy as _np

from . import _module_getattr

__all__ = [n for n in dir(_np.fft) if not n.startswith("_") and n != "test"]


__getattr__ = _module_getattr(_np.fft, globals())
