"""cupy.fft: NumPy's functions over the simulator's arrays, but where CuPy 14.2's depart
(cupy/fft/_fft.py): its n-D plans (complex transforms of two or three adjacent axes, the first
or the last among them) refuse an array with any empty axis, transformed or not (ValueError),
and an inverse real transform of an output of no elements (n = 2 * (1 - 1)) makes a cuFFT plan
of none (CuFFTError, a RuntimeError) where there is anything to transform. A complex-to-real
transform reads the imaginary part of its zero-frequency term (and of an even length's n // 2
term), which stands for a real value: cuFFT leaves the answer undefined, and newer versions
differ from NumPy's, which reads only the real part (NVIDIA/torch-harmonics#70); modelled as
that part added to the real one. irfftn is such a transform along its last axis after a complex
one along the others (so a spectrum not Hermitian along those reaches it with imaginary parts
there)."""
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


def _undefined_ends(a, n, axis):
    """``a`` as cuFFT's complex-to-real transform may read it (see the module's words)."""
    if a.dtype.kind != "c" or not a.size:
        return a
    a = a.copy()
    lines = _np.moveaxis(a._a, axis, -1)  # (a view: written through)
    m = lines.shape[-1]
    n = 2 * (m - 1) if n is None else n
    for i in (0, n // 2) if n % 2 == 0 and 0 < n // 2 < m else (0,):
        lines[..., i] = lines[..., i].real + lines[..., i].imag
    return a


def _real_inverse(name):
    f = _namespace_attr(_np.fft, name)

    def transform(a, n=None, axis=-1, norm=None):
        a = _undefined_ends(a, n, axis)
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
    axes = range(a.ndim) if axes is None else axes
    if len(axes) > 1:
        a = ifftn(a, s=None if s is None else s[:-1], axes=axes[:-1], norm=norm)
    return irfft(a, n=last, axis=axes[-1], norm=norm)


fftn, ifftn = _nd_plan("fftn"), _nd_plan("ifftn")
irfft, hfft = _real_inverse("irfft"), _real_inverse("hfft")
__getattr__ = _module_getattr(_np.fft, globals())
