"""cupy.fft: NumPy's functions over the simulator's arrays, but where CuPy 14.2's depart
(cupy/fft/_fft.py): its n-D plans (complex transforms of two or three adjacent axes, the first
or the last among them) refuse an array with any empty axis, transformed or not (ValueError),
and an inverse real transform of an output of no elements (n = 2 * (1 - 1)) makes a cuFFT plan
of none (CuFFTError, a RuntimeError) where there is anything to transform."""
import numpy as _np

from . import _module_getattr, _namespace_attr

__all__ = [n for n in dir(_np.fft) if not n.startswith("_") and n != "test"]


def _nd_plan(name):
    f = _namespace_attr(_np.fft, name)

    def transform(a, s=None, axes=None, norm=None):
        axes_ = sorted(x % a.ndim for x in (range(a.ndim) if axes is None else axes))
        adjacent = axes_ == list(range(axes_[0], axes_[-1] + 1)) if axes_ else False
        if a.ndim > 1 and 1 < len(axes_) <= 3 and adjacent and (
                axes_[0] == 0 or axes_[-1] == a.ndim - 1) and 0 in a.shape:
            raise ValueError(f"Invalid number of FFT data points ({a.shape}) specified.")
        return f(a, s=s, axes=axes, norm=norm)
    return transform


def _real_inverse(name):
    f = _namespace_attr(_np.fft, name)

    def transform(a, n=None, axis=-1, norm=None):
        if n == 0 and a.size:
            raise RuntimeError("CUFFT_INVALID_SIZE")
        if n is None and a.shape[axis] == 1:
            if a.size:
                raise RuntimeError("CUFFT_INVALID_SIZE")
            return f(a, n=1, axis=axis, norm=norm)[..., :0] if axis in (-1, a.ndim - 1) \
                else _np.moveaxis(f(_np.moveaxis(a, axis, -1), n=1, norm=norm)[..., :0], -1, axis)
        return f(a, n=n, axis=axis, norm=norm)
    return transform


def irfftn(a, s=None, axes=None, norm=None):
    last = None if s is None else s[-1]
    if a.size and (last == 0 or last is None and a.ndim and
                   a.shape[-1 if axes is None else axes[-1]] == 1):
        raise RuntimeError("CUFFT_INVALID_SIZE")
    return _namespace_attr(_np.fft, "irfftn")(a, s=s, axes=axes, norm=norm)


fftn, ifftn = _nd_plan("fftn"), _nd_plan("ifftn")
irfft, hfft = _real_inverse("irfft"), _real_inverse("hfft")
__getattr__ = _module_getattr(_np.fft, globals())
