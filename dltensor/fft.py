"""The array API's FFT extension (2025.12), computed by the arrays' backend.

Each transform checks the input dtype the spec names (complex for the complex-input transforms,
real floating-point for ``rfft``, ``rfftn`` and ``ihfft``) and calls array-api-compat's ``fft``
for the array's device, which keeps single precision single. ``fftfreq`` and ``rfftfreq`` are
hand-written: array-api-compat takes only the string ``"cpu"`` as a device and a NumPy dtype.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from ._array import ndarray, wrap
from ._dlpack.abi import DLDeviceType
from ._creation import zeros
from ._devices import CPU, Device, as_device, get_default_device
from ._dispatch import allocatable, check_axis, delegate, fresh, namespace_for, on, strict_int
from ._dispatch import undispatched, within_largest
from ._moves import copied
from ._dtype_functions import astype
from ._dtypes import DType, float16, float32, float64 as _DEFAULT_REAL_FLOAT
from ._linalg_functions import FLOATING, require

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_COMPLEX = frozenset({"complex floating"})
_REAL = frozenset({"real floating"})
_Norm = Literal["backward", "ortho", "forward"]
_NORMS = ("backward", "ortho", "forward")
_TINY = 1 / np.finfo(np.float64).max  # (1 / x overflows for x up to it)


def _transform_on_backend(name: str) -> Callable[..., ndarray]:
    """The backend's transform ``name`` of an array: NumPy's own on the CPU (NumPy 2 keeps
    single precision, which array-api-compat's wrappers are for; they and the generic delegate
    cost ~1.8 us a call), array-api-compat's elsewhere."""
    delegated, numpy_transform = delegate(name, "fft"), undispatched(getattr(np.fft, name))

    def transform(x: ndarray, **kwargs: Any) -> ndarray:
        if x.dtype is float16 and name not in _SHIFTS:  # (rfft's, ihfft's: in float32, as
            # CuPy computes them; NumPy scaled by 1/n rounded to float16, ihfft([1, 2, 3, 5,
            # 7])[0] 3.5991 for 3.6. A shift moves values: x's dtype, as the spec says)
            return transform(astype(x, float32), **kwargs)
        if x._device is CPU:
            return wrap(numpy_transform(x._compute(), **kwargs), CPU)
        if x._device.device_type == DLDeviceType.kDLCUDA:
            empty = _as_numpy_on_cuda(name, x, kwargs)
            if empty is not None:
                return empty
            if name in _C2R and x.size:
                return _c2r_on_cuda(name, x, kwargs, delegated)
        result: ndarray = delegated(x, **kwargs)
        return result
    return transform


def _as_numpy_on_cuda(name: str, x: ndarray, kwargs: dict[str, Any]) -> ndarray | None:
    """Where CuPy's transforms part from NumPy's on their own (read in CuPy 14.2's
    cupy/fft/_fft.py, unrun on a GPU): NumPy's ValueError for an inverse real transform whose
    output would have no elements (2 * (m - 1) for an axis of one, said or as s's -1; CuPy's
    cuFFT plan of none raised its RuntimeError), and an empty array for an n-D complex
    transform of an array empty along an axis it does not transform (CuPy's n-D plans refuse
    any empty axis: ValueError)."""
    if name in ("irfft", "hfft", "irfftn"):
        if name == "irfftn":
            axes, s = kwargs.get("axes"), kwargs.get("s")
            axis, length = -1 if axes is None else axes[-1], None if s is None else s[-1]
        else:
            axis, length = kwargs.get("axis", -1), kwargs.get("n")
        if length == 0 or length is None and x.ndim and x.shape[axis] == 1:
            raise ValueError(f"{name}: the output along axis {axis} would have no elements "
                             "(2 * (m - 1) for m = 1: give a length, or more elements)")
    if name in ("fftn", "ifftn") and x.size == 0:
        axes, s = kwargs.get("axes"), kwargs.get("s")
        axes = range(x.ndim) if axes is None else axes
        shape = list(x.shape)
        for i, axis in reversed(list(enumerate(axes))):  # (a repeated axis: its first length)
            shape[axis] = shape[axis] if s is None else s[i]
        if all(shape[axis] for axis in axes):
            return zeros(tuple(shape), dtype=x.dtype, device=fresh(x._device))
    return None


def _c2r_on_cuda(name: str, x: ndarray, kwargs: dict[str, Any],
                 delegated: Callable[..., ndarray]) -> ndarray:
    """A complex-to-real transform on CUDA as NumPy computes it. Its input's zero-frequency
    term (and, for an even output length n, its n // 2 term) along the real axis stands for
    a real value: NumPy's pocketfft reads only its real part, where cuFFT's answer to one with
    an imaginary part is undefined and differs in newer versions (NVIDIA/torch-harmonics#70,
    lwa-project/bifrost#182, FourierFlows.jl#326; CuPy makes those parts 0 itself only on
    ROCm, its comment saying cuFFT ignores them). They are made 0 here, on a copy (a copy and
    one kernel; CuPy copies the input of such a transform again). ``irfftn`` of several axes
    runs as NumPy's does (``_real_by_parts``), so that they are made 0 after the complex
    transforms (a spectrum not Hermitian along the other axes leaves them imaginary there,
    which CuPy's plan of all the axes at once read). (Unrun on a GPU: tests/device_cases.py
    has both.)"""
    if name == "irfftn":
        axes, s, norm = kwargs["axes"], kwargs["s"], kwargs["norm"]
        axes = tuple(range(x.ndim)) if axes is None else axes
        if len(axes) > 1:
            return _real_by_parts(name, x, dict(kwargs, axes=axes))
        name, kwargs = "irfft", {"n": None if s is None else s[0], "axis": axes[0], "norm": norm}
        delegated = _C2R_1D["irfft"]
    with on(x._device):
        a = x._compute().copy()
        _real_ends(a, kwargs["n"], kwargs["axis"])
    return delegated(wrap(a, x._device), **kwargs)


def _real_ends(a: Any, n: int | None, axis: int) -> None:
    """Makes 0, in backend array ``a`` (a CuPy array of dltensor's own), the imaginary parts a
    complex-to-real transform of output length ``n`` along ``axis`` takes as 0: the zero
    frequency's and, for an even n, the n // 2 term's (one kernel: a view of the two)."""
    m = a.shape[axis]
    n = 2 * (m - 1) if n is None else n
    step = n // 2 if n % 2 == 0 and 0 < n // 2 < m else m  # (two terms, or the first alone)
    a[(slice(None),) * (axis % a.ndim) + (slice(0, step + 1, step),)].imag = 0


_C2R = frozenset({"irfft", "hfft", "irfftn"})
_SHIFTS = frozenset({"fftshift", "ifftshift"})
_C2R_1D: dict[str, Callable[..., ndarray]] = {name: delegate(name, "fft")
                                               for name in ("irfft", "hfft")}


_backend = {name: _transform_on_backend(name) for name in __all__ if "freq" not in name}


def _transform(name: str, x: ndarray, kinds: frozenset[Any], **kwargs: Any) -> ndarray:
    require(name, x, kinds)
    if _plain(kwargs, x.ndim):  # the commonest call: nothing below applies to it
        result: ndarray = _backend[name](x, **kwargs)
        return result
    if kwargs.get("norm", "backward") not in _NORMS:  # (NumPy takes None, and checks nothing
        # of a transform of no axes)
        raise ValueError(f"{name}: norm must be 'backward', 'ortho' or 'forward', not "
                         f"{kwargs['norm']!r}")
    for key, what in (("n", "a length"), ("axis", "an axis")):  # (NumPy reads True as 1)
        if key == "axis" and key in kwargs or kwargs.get(key) is not None:  # (axis: no None)
            kwargs[key] = strict_int(kwargs[key], f"{name}'s {key} ({what})")
    for key in ("s", "axes"):
        if kwargs.get(key) is not None:
            if not isinstance(kwargs[key], Sequence) or isinstance(kwargs[key], str):
                raise TypeError(f"{name}'s {key} must be a sequence of ints, not "
                                f"{kwargs[key]!r}")
            kwargs[key] = tuple(strict_int(v, f"{name}'s {key}") for v in kwargs[key])
    s, axes = kwargs.get("s"), kwargs.get("axes")
    # (NumPy's ValueError, said here: CuPy's irfft and hfft gave n = 0 an empty array)
    lengths = [kwargs["n"]] if kwargs.get("n") is not None else [v for v in s or () if v != -1]
    if any(v < 1 for v in lengths):
        raise ValueError(f"{name}: a length (n or s) must be positive, not {min(lengths)}")
    # (NumPy: a length past a C long became an object array, the error its ufunc's casting;
    # below, a length too large for memory is NumPy's MemoryError)
    within_largest(name, lengths, 1)
    if s is not None and axes is None:
        # NumPy reads it as the last len(s) axes, deprecated (a later NumPy will differ)
        raise ValueError(f"{name}: s needs axes (the spec: if s is not None, axes must not "
                         "be None)")
    if s is not None and axes is not None and len(s) != len(axes):  # (NumPy's words)
        raise ValueError("Shape and axes have different lengths.")
    for axis in [kwargs["axis"]] if "axis" in kwargs else axes or ():
        check_axis(name, axis, x.ndim)  # (NumPy: IndexError, "tuple index out of range")
    if "axes" in kwargs and not s and (x.ndim == 0 if axes is None else len(axes) == 0):
        if name in ("rfftn", "irfftn"):  # (their last axis is halved: there must be one)
            raise ValueError(f"{name} must transform at least one axis")
        # all of no axes: x as it is, a new array (NumPy returned x itself); held memory's
        # error NoBackendError, as with axes (not copied's BufferError, a copy's)
        namespace_for(x._device)
        return copied(x)
    if s and axes and -1 in s and len(s) == len(axes):
        # -1: "all elements along axis i of the input must be used": its length, said so (CuPy
        # reads -1 as a slice's stop, dropping the last element). For irfftn's last axis the
        # output is 2 * (M - 1) long then, as with s None (NumPy reads -1 as M, using M // 2 + 1
        # of them).
        s = list(s)
        for i, (n, axis) in enumerate(zip(s, axes)):
            if n == -1:  # (each axis is within x's: checked above)
                last = name == "irfftn" and i == len(s) - 1
                s[i] = 2 * (x.shape[axis] - 1) if last else x.shape[axis]
                if s[i] < 1:  # (said here, before CuPy's path for empty arrays: that one
                    # takes a repeated axis's first length only)
                    raise ValueError(f"{name}: s's -1 along axis {axis} is a length of {s[i]}"
                                     f" (that axis has {x.shape[axis]} elements); a transform "
                                     "needs at least 1")
        kwargs["s"] = tuple(s)
    if x.size == 0:
        x = _padded_with_a_zero(x, kwargs)
    if name in ("rfftn", "irfftn") and axes and x.device.device_type == DLDeviceType.kDLCUDA \
            and any(a % x.ndim >= b % x.ndim for a, b in zip(axes, axes[1:])):
        return _real_by_parts(name, x, kwargs)
    result = _backend[name](x, **kwargs)
    return result


def _plain(kwargs: dict[str, Any], ndim: int) -> bool:
    """Whether a transform's arguments are the commonest, which the checks of ``_transform``
    pass as they are (~2 us of them): no length, an int axis in range or all axes of an array
    with some, a norm by its name."""
    if kwargs.get("norm", "backward") not in _NORMS:
        return False
    if "axis" in kwargs:
        axis = kwargs["axis"]
        return kwargs["n"] is None and type(axis) is int and -ndim <= axis < ndim
    return kwargs.get("s") is None and kwargs.get("axes") is None and ndim > 0


def _real_by_parts(name: str, x: ndarray, kwargs: dict[str, Any]) -> ndarray:
    """rfftn or irfftn on CUDA as NumPy computes them: a real transform along the last of the
    axes and complex ones along the others (irfftn's in the order given, as NumPy's: ifftn's
    order is the reverse, which differs where an axis repeats with another length), the
    imaginary parts irfft takes as 0 made 0 (``_c2r_on_cuda``) on the complex transforms'
    result, dltensor's own. CuPy's plans take the axes sorted, and gave irfftn with axes
    (1, 0) and s (3, 4) the shape (4, 4), not (4, 3) (on an H200, 2026-11-27)."""
    s, norm = kwargs.get("s"), kwargs["norm"]
    axes = tuple(a % x.ndim for a in kwargs["axes"])  # (-1 and 1 one axis, repeated)
    n, rest = (None, None) if s is None else (s[-1], s[:-1])
    if name == "rfftn":
        half = _backend["rfft"](x, n=n, axis=axes[-1], norm=norm)
        if rest is None and len(set(axes)) < len(axes):  # (an axis repeated: transformed at
            rest = tuple(x.shape[a] for a in axes[:-1])  # x's length, as NumPy's s is)
        result: ndarray = _backend["fftn"](half, s=rest, axes=axes[:-1], norm=norm)
        return result
    if len(set(axes[:-1])) == len(axes) - 1:
        whole = _backend["ifftn"](x, s=rest, axes=axes[:-1], norm=norm)
    else:
        whole = x
        for i, axis in enumerate(axes[:-1]):
            whole = _backend["ifft"](whole, n=None if rest is None else rest[i], axis=axis,
                                     norm=norm)
    last = {"n": n, "axis": axes[-1], "norm": norm}
    _as_numpy_on_cuda("irfft", whole, last)  # (NumPy's ValueError for an output of none)
    with on(whole._device):
        _real_ends(whole._compute(), n, axes[-1])
    return _C2R_1D["irfft"](whole, **last)


def _padded_with_a_zero(x: ndarray, kwargs: dict[str, Any]) -> ndarray:
    """An empty ``x`` with each empty axis that ``n`` or ``s`` pads made one zero long: the same
    zero-padded input (the spec: "zero-padded"), which NumPy's pocketfft transforms from
    memory it never wrote when the axis is empty (irfft and hfft gave garbage). Each other
    axis transformed once is cut to its length first, as the transform would cut it: NumPy
    pads the last axis before it cuts the others, and from (2**26, 0) with s (4, 2) it made
    (2**26, 2) first (10 s)."""
    if "axis" in kwargs:
        pads = [(kwargs["axis"], kwargs["n"])]
    else:
        pads = list(zip(kwargs.get("axes") or (), kwargs.get("s") or ()))
    shape = list(x.shape)
    once = [axis % x.ndim for axis, _ in pads]
    for axis, n in pads:
        if n is not None and n > 0 and shape[axis] == 0:
            shape[axis] = 1
        elif n is not None and 0 < n < shape[axis] and once.count(axis % x.ndim) == 1:
            shape[axis] = n
    if shape == list(x.shape):
        return x
    return zeros(tuple(shape), dtype=x.dtype, device=fresh(x._device))  # (pinned: cpu)


def fft(x: ndarray, /, *, n: int | None = None, axis: int = -1,
        norm: _Norm = "backward") -> ndarray:
    """The 1-D discrete Fourier transform of a complex array."""
    return _transform("fft", x, _COMPLEX, n=n, axis=axis, norm=norm)


def ifft(x: ndarray, /, *, n: int | None = None, axis: int = -1,
         norm: _Norm = "backward") -> ndarray:
    """The 1-D inverse discrete Fourier transform of a complex array."""
    return _transform("ifft", x, _COMPLEX, n=n, axis=axis, norm=norm)


def fftn(x: ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: _Norm = "backward") -> ndarray:
    """The n-D discrete Fourier transform of a complex array."""
    return _transform("fftn", x, _COMPLEX, s=s, axes=axes, norm=norm)


def ifftn(x: ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: _Norm = "backward") -> ndarray:
    """The n-D inverse discrete Fourier transform of a complex array."""
    return _transform("ifftn", x, _COMPLEX, s=s, axes=axes, norm=norm)


def rfft(x: ndarray, /, *, n: int | None = None, axis: int = -1,
         norm: _Norm = "backward") -> ndarray:
    """The 1-D discrete Fourier transform of a real array (non-negative frequencies)."""
    return _transform("rfft", x, _REAL, n=n, axis=axis, norm=norm)


def irfft(x: ndarray, /, *, n: int | None = None, axis: int = -1,
          norm: _Norm = "backward") -> ndarray:
    """The inverse of ``rfft``: a real array from its non-negative frequencies."""
    return _transform("irfft", x, _COMPLEX, n=n, axis=axis, norm=norm)


def rfftn(x: ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: _Norm = "backward") -> ndarray:
    """The n-D discrete Fourier transform of a real array."""
    return _transform("rfftn", x, _REAL, s=s, axes=axes, norm=norm)


def irfftn(x: ndarray, /, *, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: _Norm = "backward") -> ndarray:
    """The inverse of ``rfftn``."""
    return _transform("irfftn", x, _COMPLEX, s=s, axes=axes, norm=norm)


def hfft(x: ndarray, /, *, n: int | None = None, axis: int = -1,
         norm: _Norm = "backward") -> ndarray:
    """The 1-D transform of a signal with Hermitian symmetry (a real result)."""
    return _transform("hfft", x, _COMPLEX, n=n, axis=axis, norm=norm)


def ihfft(x: ndarray, /, *, n: int | None = None, axis: int = -1,
          norm: _Norm = "backward") -> ndarray:
    """The inverse of ``hfft``, from a real array."""
    return _transform("ihfft", x, _REAL, n=n, axis=axis, norm=norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: DType | None = None,
            device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """The sample frequencies of an ``n``-point DFT with sample spacing ``d``."""
    return _frequencies(np.fft.fftfreq, n, d, dtype, device)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: DType | None = None,
             device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """The non-negative sample frequencies of an ``n``-point ``rfft``."""
    return _frequencies(np.fft.rfftfreq, n, d, dtype, device)


def _frequencies(f: Callable[..., Any], n: int, d: float, dtype: DType | None,
                 device: Device | str | tuple[int, int] | None) -> ndarray:
    if dtype is None:
        dtype = _DEFAULT_REAL_FLOAT
    elif type(dtype) is not DType:
        raise TypeError(f"dtype must be a dltensor dtype such as dltensor.float32, not "
                        f"{dtype!r}")
    elif dtype.spec_kind != "real floating":
        raise ValueError(f"dtype must be a real floating-point dltensor dtype, not {dtype!r}")
    n = strict_int(n, "n")
    if n < 0:
        raise ValueError(f"n must be a window length, 0 or more, not {n}")
    # (n * d below: an OverflowError past the floats; the host's values are float64)
    within_largest(f.__name__, (n if f is np.fft.fftfreq else n // 2 + 1,), 8)
    if type(d) is float or type(d) is int:  # (the commonest: numbers.Real's check is ~0.3 us)
        pass
    elif isinstance(d, (bool, np.bool_)) or not isinstance(d, numbers.Real):  # (NumPy took
        raise TypeError(f"d must be a real number (the sample spacing), not {d!r}")  # 1j)
    # (new memory there: NoBackendError where no backend makes it, as zeros())
    dev = allocatable(get_default_device() if device is None else as_device(device))
    # n values, made on the host: a device copy of them is the array asked for, not a move.
    # (n = 0: NumPy divides by zero; the spec's shapes are (0,) and (1,), rfftfreq's 0/0 NaN,
    # as in PyTorch and JAX)
    if not n:
        host = np.full(0 if f is np.fft.fftfreq else 1, np.nan)
    elif abs(n * d) <= _TINY:  # (d = 0 too)
        # k / (d * n) by IEEE 754, as in PyTorch and JAX: NumPy's k * (1 / (d * n)) is a
        # ZeroDivisionError for d = 0, and 0 * inf = NaN at k = 0 where 1 / (d * n) overflows
        with np.errstate(all="ignore"):
            host = np.rint(f(n, d=1.0) * n) / (np.float64(n) * d)
    else:
        host = f(n, d=d)
    if host.dtype is dtype.numpy:  # (float64 asked for: no cast, and errstate costs ~1 us)
        out = wrap(host)
    else:
        with np.errstate(over="ignore"):  # (float32: values past its range are infinities)
            out = wrap(host.astype(dtype.numpy, copy=False))
    if dev is CPU or dev == CPU:
        return out
    from ._moves import move
    return move(out, dev)


def fftshift(x: ndarray, /, *, axes: int | Sequence[int] | None = None) -> ndarray:
    """``x`` with the zero-frequency term moved to the centre of ``axes`` (all when None)."""
    return _shift("fftshift", x, axes)


def ifftshift(x: ndarray, /, *, axes: int | Sequence[int] | None = None) -> ndarray:
    """The inverse of ``fftshift``."""
    return _shift("ifftshift", x, axes)


def _shift(name: str, x: ndarray, axes: int | Sequence[int] | None) -> ndarray:
    if axes is not None and not isinstance(axes, Sequence):
        axes = (strict_int(axes, f"{name}'s axes"),)  # one axis (a NumPy int too)
    # A shift moves values, computing none: an extension float (bfloat16, float8) is moved as
    # roll moves it (PyTorch's fftshift takes bfloat16), where the transforms refuse it
    extension = type(x) is ndarray and x.dtype.spec_kind is None and x.dtype.kind == "f"
    return _transform(name, x, _EXTENDED if extension else FLOATING, axes=axes)


_EXTENDED = frozenset({None})  # (require's kinds for an extension float: spec_kind None)


def __dir__() -> list[str]:  # the extension's names, not the helpers imported to build it
    return sorted(__all__)
