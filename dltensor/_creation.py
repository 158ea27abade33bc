"""Array creation functions (array API 2025.12, "Creation Functions").

Arrays are made by the backend of the requested device (NumPy on the CPU, CuPy on CUDA), with
``device=None`` meaning ``get_default_device()``; a device no backend computes on raises
NoBackendError naming it. ``asarray`` and ``from_dlpack`` live in _interop.py.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._array import held, ndarray, wrap
from ._devices import CPU, Device, as_device, get_default_device
from ._dispatch import allocatable, check_device, delegate_first, diagonal_offset, expect_array
from ._dispatch import flag, fresh, namespace_for, native, native_dtype, on, shape_tuple
from ._dispatch import shown, strict_int, type_name, undispatched, within_largest, wrap_result
from ._dlpack.abi import DLDeviceType
from ._dtype_functions import astype, finfo, int_bounds, python_scalar, scalar_into
from . import _dtypes
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, DType, numpy_kind, refuse_complex_to_real
from ._moves import copied

__all__ = [
    "arange", "empty", "empty_like", "eye", "full", "full_like", "linspace", "meshgrid",
    "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
]

_np_ndarray = np.ndarray


def _make(name: str | Callable[..., Any], device: Device | str | tuple[int, int] | None,
          *args: Any, **kwargs: Any) -> ndarray:
    """``ns.name(*args, **kwargs)`` (or ``name(ns, *args, **kwargs)``) on ``device`` (None: the
    default device; NoBackendError, from allocatable, where nothing makes memory there)."""
    dev = device if device is CPU else allocatable(_resolved(device))  # (CPU: ~0.5 us less)
    if dev is CPU and type(name) is str:  # (NumPy's own: compat's adds only device= (~0.7 us))
        return wrap(getattr(np, name)(*args, **kwargs))
    ns = namespace_for(dev)
    with on(dev):  # (CuPy allocates on its current GPU: made the one asked for)
        r = getattr(ns, name)(*args, **kwargs) if isinstance(name, str) else \
            name(ns, *args, **kwargs)
        result: ndarray = wrap_result(r, dev)
        return result


def arange(start: int | float, /, stop: int | float | None = None, step: int | float = 1, *,
           dtype: DType | None = None,
           device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """Evenly spaced values in the half-open interval [start, stop): int64 when the bounds and
    step are all ints (OverflowError where a value would not fit), else float64."""
    if type(start) is int and type(step) is int and (stop is None or type(stop) is int) and \
            -_EXACT < start < _EXACT and (stop is None or -_EXACT < stop < _EXACT) and \
            0 < abs(step) < _EXACT and _default_cpu(dtype, device):
        # The commonest call, arange(n), NumPy's own (~2 us less): ints well within float64's
        # exact ones, whose count NumPy (in float64) gets right, into int64 (NumPy's stop
        # None is ours: start is the stop)
        return wrap(np.arange(start, stop, step, dtype=_INT64))
    lo, step_ = _real(start), _real(step)
    hi = lo if stop is None else _real(stop)
    if stop is None:
        lo = 0
    if step_ == 0:
        raise ValueError("arange: step must not be 0")
    device = _resolved(device)
    if dtype is _dtypes.bool:
        # Each value's truth, the spec's ceil((stop - start) / step) of them, as PyTorch and
        # JAX have none: NumPy fills at most 2 and CuPy adds the step cast to bool, True.
        return astype(arange(start, stop, step, device=device), dtype)
    npdt = native_dtype(dtype, device)
    if npdt is not None and npdt.kind in "iu" and not (
            type(lo) is int and type(hi) is int and type(step_) is int):
        counted = _numpys_ints(lo, hi, step_)
        if counted is not None:
            first, n, delta = counted
            if delta == 0 and n > 1:  # (arange(0.1, 0.9, 0.3, dtype=int8): 0, 0, 0)
                low, high = int_bounds(npdt)
                if not low <= first <= high:
                    raise OverflowError(f"{_called(start, stop, step)} has values out of "
                                        f"bounds for {npdt}")
                return full(n, first, dtype=dtype, device=device)
            lo, hi, step_ = first, first + n * delta, delta
    if type(lo) is int and type(hi) is int and type(step_) is int \
            and (npdt is None or npdt.kind in "iu"):
        npdt = npdt or _INT64
        made = _int_arange(lo, hi, step_, npdt, device, (start, stop, step))
    else:
        made = _float_arange(lo, hi, step_, npdt, device, (start, stop, step))
    if made is not None:
        return made
    if npdt in EXTENSION_FLOATS and any(type(v) is int and not -1 << 63 <= v < 1 << 63
                                        for v in (lo, hi, step_)):
        # (ml_dtypes take no int past int64, "expected number, got int": each value rounded
        # once from float64, counted in ints)
        n = max(0, math.ceil((hi - lo) / step_))
        return _make(_by_float_index, device, float(lo), n, float(step_), npdt)
    return _make("arange", device, lo, hi, step_, dtype=npdt or _FLOAT64)


_INT64, _FLOAT64 = np.dtype(np.int64), np.dtype(np.float64)
_EXACT = 1 << 40  # (arange's ints and linspace's counts below it take NumPy's own)
_EXACT_SPAN = 1 << 53  # (ints this near are counted exactly by their float64 quotient)
_PAST_FLOATS = 2**1024 - 2**970  # (the least int float() rounds past float64's largest)


def _called(start: Any, stop: Any, step: Any) -> str:
    """arange's call as its caller wrote it, for its errors (lo, hi, step_ are normalised:
    stop None makes start the stop, and float bounds into an integer dtype NumPy's ints);
    made where an error is raised, not on every call (~1 us of arange(0.5, 10.0)'s 3)."""
    args = [f"{start}"] if stop is None else [f"{start}", f"{stop}"]
    if not (type(step) is int and step == 1):
        args.append(f"{step}" if stop is not None else f"step={step}")
    return f"arange({', '.join(args)})"


def _int_arange(lo: int, hi: int, step_: int, npdt: np.dtype[Any], device: Device,
                asked: tuple[Any, Any, Any]) -> ndarray | None:
    """arange of ints, where NumPy's own would not do (None where it does); ``asked``, the
    arguments as given, for its error (_called)."""
    # NumPy would pick uint64, float64 or objects for ints past int64, and wrap a last
    # element past the dtype: the spec's default integer dtype, exactly, or OverflowError.
    n = max(0, -((lo - hi) // step_))  # ceil((stop - start) / step)
    if n == 0:
        return _make("empty", device, (0,), dtype=npdt)
    _check_count("arange", n, npdt)
    low, high = int_bounds(npdt)
    if not (low <= lo <= high and low <= lo + (n - 1) * step_ <= high):
        raise OverflowError(f"{_called(*asked)} has values out of bounds for {npdt}")
    if n == 1:  # (one value: NumPy cannot take a step past int64, which is not needed)
        return _make("full", device, (1,), lo, dtype=npdt)
    if math.ceil((hi - lo) / step_) != n or (step_ < 0 and npdt.kind == "u"
                                              and _on_cuda(device)):
        # NumPy and CuPy count the elements in float64, one short (or over) for spans past
        # 2**53 (arange(0, 2**62 + 1, 2**60) has 5); and CuPy casts the step to the dtype
        # (a negative one to uint8 overflows). Then the values are counted here.
        return _make(_by_index, device, lo, n, step_, npdt)
    return None


def _numpys_ints(lo: int | float, hi: int | float,
                 step_: int | float) -> tuple[int, int, int] | None:
    """arange into an integer dtype from a float bound or step as NumPy makes it, for every
    device: ``(first, n, delta)``, its count n = ceil((stop - start) / step) in float64, its
    first two values start and start + step each truncated, then whole steps of their
    difference (arange(1, 0, -0.3, dtype=int8) is [1, 0, -1, -2]; CuPy cast the step to the
    dtype first, [1, 1, 1, 1], and a negative one to uint8 overflowed). None where the count
    is no number (NumPy's error)."""
    try:
        span = (hi - lo) / step_
    except OverflowError:  # (an int past the floats)
        return None
    if not (math.isfinite(span) and math.isfinite(lo)):
        return None
    n = _count(span, lo, hi, step_)
    first = int(lo)
    return first, n, int(lo + step_) - first if n > 1 else 1


def _float_arange(lo: int | float, hi: int | float, step_: int | float,
                  npdt: np.dtype[Any] | None, device: Device,
                  asked: tuple[Any, Any, Any]) -> ndarray | None:
    """arange of floats, where NumPy's own would not do (None where it does); ``asked``, the
    arguments as given, for its errors (_called)."""
    try:
        span = (hi - lo) / step_  # (NaN for inf - inf: NumPy's own error then)
    except OverflowError:  # (an int past the floats, 10**400)
        span = math.inf
    if span != span:  # (NaN, NumPy's words, before a device that cannot allocate refuses)
        raise ValueError("arange: cannot compute length")
    if type(lo) is int and type(hi) is int and type(step_) is int and \
            not -_EXACT_SPAN < hi - lo < _EXACT_SPAN:
        # (nearer, the quotient's ceiling is exact: a correctly rounded one of |hi - lo| <
        # 2**53 errs by under 1/|step|, its distance from any integer; this look cost ~0.6 us
        # of arange(10, dtype=float64)'s 5.5)
        n = max(0, -((lo - hi) // step_))  # ceil((stop - start) / step), exactly
        if not (math.isfinite(span) and n == max(0, math.ceil(span))):
            # Ints are counted exactly into a floating dtype too, as into the integer ones:
            # their float64 quotient rounds past 2**53 (arange(0, 2**62 + 1, 2**60) had 4
            # elements of dtype=float64, 5 of int64 or bool)
            out_ = npdt or _FLOAT64
            _check_count("arange", n, out_)
            if n and -1 << 63 <= min(lo, lo + (n - 1) * step_) and \
                    max(lo, lo + (n - 1) * step_) < 1 << 63:  # (each value exact, then cast)
                return _make(_int64_by_index, device, lo, n, step_, out_)
            return _make(_by_float_index, device, float(lo), n, float(step_), out_)
    if span == math.inf and all(type(v) is float and math.isfinite(v)
                                for v in (lo, hi, step_)):
        # stop - start past the floats (arange(1e308, -1e308, -1e308) has 2 elements):
        # counted by parts, filled in halves (NumPy's own count overflows)
        span = hi / step_ - lo / step_
        if span == math.inf:
            raise ValueError(f"{_called(*asked)} would have more elements than the largest "
                             "array")
        n = math.ceil(span)
        _check_count("arange", n, npdt or _FLOAT64)
        return _make(_by_float_index, device, lo, n, step_, npdt or _FLOAT64, 0.5)
    if span == 0 and _count(span, lo, hi, step_):
        return _make("full", device, (1,), lo, dtype=npdt or _FLOAT64)  # (CuPy's: none)
    if span <= 0:  # (stop - start and step of other signs: none, the spec says, where
        # NumPy's count of a span past 2**63 overflows: "Maximum allowed size exceeded")
        return _make("empty", device, (0,), dtype=npdt or _FLOAT64)
    if span >= 2.0 ** 53:  # (a float count near 2**63 rounded up overflows NumPy's)
        if span == math.inf:
            raise ValueError(f"{_called(*asked)} would have infinitely many elements")
        _check_count("arange", math.ceil(span), npdt or _FLOAT64)
    out = npdt or _FLOAT64
    if type(lo) is int and not -_PAST_FLOATS < lo < _PAST_FLOATS:
        # (an int past float64's largest, as full(1, 10**400) says; NumPy counts NaN elements,
        # "Maximum allowed size exceeded")
        raise OverflowError(f"{_called(*asked)} has values out of bounds for {out}")
    if math.isfinite(step_) and (out in EXTENSION_FLOATS or span > 2 and out.kind in "fc"
                                 and _numpys_values_stray(lo, step_, math.ceil(span), out)):
        # (ml_dtypes' floats always: NumPy's fill steps by the difference of two values it
        # rounded through float32, NaN of inf - inf past the dtype's range, and wrong by whole
        # powers of two in float8_e8m0fnu, whose every value is one)
        return _make(_by_float_index, device, lo, math.ceil(span), step_, out)
    if _on_cuda(device) and out.kind in "fc":
        return _make(_numpys_fill, device, lo, step_, max(math.ceil(span), 0), out)
    return None


def _count(span: float, lo: int | float, hi: int | float, step_: int | float) -> int:
    """ceil((stop - start) / step) of the exact values, from ``span``, their float quotient:
    1 where that is 0 only by underflow or an infinite step (arange(0, 1e-300, 1e300) and
    arange(0, 5, inf) hold start, as NumPy's [0.]; PyTorch's and JAX's were empty)."""
    if span == 0 and hi != lo and (hi > lo) == (step_ > 0):
        return 1
    return max(0, math.ceil(span))


def _numpys_values_stray(lo: int | float, step_: int | float, n: int,
                         out: np.dtype[Any]) -> bool:
    """Whether NumPy's arange of ``n`` values into NumPy's floating or complex dtype ``out``
    strays from start + i * step: it fills start + i * delta with delta = (start + step) -
    start in the dtype, 8.0 for arange(1e8, 1e8 + 100, 5, dtype=float32), whose values then
    run past stop (complex too). For an integer step any other delta strays; for another step,
    which may be inexact, the spec says, one whose last value is off by more than half a step
    and more than the dtype resolves there (arange(100, 200, 0.01, dtype=float32) ended past
    200). (ml_dtypes' floats are never asked: made by index always, _float_arange.)"""
    whole = step_ == int(step_)
    if not whole:
        if (n - 1) * _eps(out) * (abs(lo) + abs(lo + step_) + abs(step_)) <= abs(step_) / 2:
            return False  # (the most rounding can make delta stray: NumPy's, at once)
    delta = (out.type(float(lo + step_)) - out.type(float(lo))).item()
    if delta == step_ or whole:
        return bool(delta != step_)
    drift = abs(delta - step_) * (n - 1)
    return bool(drift > abs(step_) / 2 and
                drift > _eps(out) * max(abs(lo), abs(lo + (n - 1) * step_)))


def _eps(npdt: np.dtype[Any]) -> float:
    """The machine epsilon of a floating dtype (of its parts, for a complex one)."""
    eps = _EPS.get(npdt)
    if eps is None:
        eps = _EPS[npdt] = finfo(FROM_NUMPY[npdt]).eps
    return eps


_EPS = {np.dtype(t): float(np.finfo(t).eps) for t in (np.float64, np.float32, np.complex128)}


def _check_count(name: str, n: int, dtype: Any) -> None:
    """ValueError for ``n`` elements of ``dtype`` past the largest array NumPy can describe:
    NumPy's own count overflows near 2**63, into an empty array (or an IndexError)."""
    if n * np.dtype(dtype).itemsize >= 1 << 63:
        raise ValueError(f"{name} would make {n} elements of {np.dtype(dtype)}, past the "
                         "largest array size")


def _default_cpu(dtype: DType | None, device: object) -> bool:
    """No dtype and no device asked for, with the CPU the default device: a creation function
    whose NumPy defaults are the spec's can be NumPy's own call."""
    return dtype is None and device is None and get_default_device() is CPU


def _resolved(device: Device | str | tuple[int, int] | None) -> Device:
    """The device asked for, or the default one, read once: a call that reads it twice (to
    choose a CuPy fix-up, then to create) could see another thread change it in between."""
    return get_default_device() if device is None else as_device(device)


def _on_cuda(device: Device) -> bool:
    return device.device_type == DLDeviceType.kDLCUDA


def _numpys_fill(ns: Any, start: int | float, step: int | float, n: int, dtype: Any) -> Any:
    """NumPy's arange of floats, for CuPy: its first two values start and start + step (added
    as Python numbers, then cast), then start + i * delta with delta their difference, each
    product and sum rounded in the dtype (NumPy's fill loop; float16 in float32, complex part
    by part). CuPy's own computes start + i * step in one kernel, which the GPU fuses into one
    rounding (an FMA), with the step where NumPy has its delta (arange(1000.0, 1001.0, 0.01,
    dtype=float32)[-1] was 1000.99, NumPy's 1000.99097), and writes a first value of -0.0
    as +0.0 (a memset)."""
    dt = np.dtype(dtype)
    ends = np.array([start, start + step]).astype(dt)
    work = np.float32 if dt.itemsize <= 4 or dt.kind == "c" and dt.itemsize == 8 \
        else np.float64
    first, second = ends.real.astype(work)
    y = ns.arange(n, dtype=work)
    y *= second - first
    y += first
    r = y.astype(dt, copy=False)
    if n:
        r[:min(n, 2)] = ns.asarray(ends[:n])  # (an array: CuPy's scalar 0.0 is a memset)
    return r


def _by_index(ns: Any, start: int, n: int, step: int, dtype: Any) -> Any:
    """``start + i * step`` for ``i < n``, exactly: computed modulo 2**64 (every value fits the
    dtype, so products that wrap on the way come back), then cast."""
    u64 = ns.uint64
    i = ns.arange(n, dtype=u64)
    r = i * ns.asarray(step % 2**64, dtype=u64) + ns.asarray(start % 2**64, dtype=u64)
    return ns.astype(r, dtype)


def _int64_by_index(ns: Any, start: int, n: int, step: int, dtype: Any) -> Any:
    """``start + i * step`` for ``i < n``, exactly in int64 (every value fits), then cast: each
    value rounded once into a floating ``dtype``."""
    return ns.astype(_by_index(ns, start, n, step, np.int64), dtype)


def _by_float_index(ns: Any, start: int | float, n: int, step: int | float, dtype: Any,
                    scale: float = 1.0) -> Any:
    """``start + i * step`` for ``i < n``, each rounded once from float64 to the dtype; with
    ``scale`` 0.5, computed in halves (exact but for subnormals) where it would overflow on
    the way."""
    r = ns.arange(n, dtype=ns.float64) * (step * scale) + start * scale
    return ns.astype(r / scale if scale != 1.0 else r, dtype)


def _bound(v: Any) -> Any:
    """A bound of arange or linspace as a Python scalar (None where it is none): a Python or
    NumPy scalar, or the value of a 0-d array of numbers, as NumPy and array-api-strict take
    them (SciPy passes x[0]; a GPU array's value is read on the host)."""
    if isinstance(v, ndarray) and v.ndim == 0:
        kind = v.dtype.spec_kind
        if kind == "bool":
            return None
        return complex(v) if kind == "complex floating" else int(v) if kind in (
            "signed integer", "unsigned integer") else float(v)
    return python_scalar(v)


def _real(v: Any) -> int | float:
    """An int or float argument (NumPy scalars and 0-d arrays too) as a Python one; TypeError
    otherwise."""
    if type(v) is float or type(v) is int:  # (the commonest, as _bound would return it)
        return v
    p = _bound(v)
    if type(p) is not int and type(p) is not float:
        raise TypeError(f"arange takes int and float arguments, not {shown(v)}")
    return p


def _filled(name: str, shape: int | tuple[int, ...], dtype: DType | None,
            device: Device | str | tuple[int, int] | None) -> ndarray:
    """empty/zeros/ones: NumPy called directly on the CPU (the compat layer adds ~0.6 us)."""
    dev = get_default_device() if device is None else as_device(device)
    npdt = _FLOAT64 if dtype is None else native_dtype(dtype, dev)  # (a dtype, read sooner)
    if type(shape) is not tuple and type(shape) is not int:
        shape = shape_tuple(name, shape)
    if dev is CPU:
        return wrap(_NUMPY_FILLED[name](shape, npdt))
    _check_shape(name, shape, npdt)
    return _make(name, dev, shape, dtype=npdt)


_NUMPY_FILLED = {"empty": np.empty, "zeros": np.zeros, "ones": np.ones}


def _check_shape(name: str, shape: Any, dtype: Any) -> None:
    """NumPy's ValueError for a shape past the largest array, before a backend that converts
    each extent to a C integer first (CuPy: OverflowError) sees it."""
    extents = (shape,) if type(shape) is int else shape if type(shape) is tuple else ()
    if extents and not all(type(e) is int for e in extents):
        # (NumPy's own TypeError for an extent that is no int, before a device that cannot
        # allocate refuses: zeros((2, "a"), device="rocm:0") was a NoBackendError)
        extents = shape_tuple(name, shape)
    if extents:
        if any(e < 0 for e in extents):
            raise ValueError(f"{name}: negative dimensions are not allowed")
        within_largest(name, extents, np.dtype(dtype).itemsize)


def empty(shape: int | tuple[int, ...], *, dtype: DType | None = None,
          device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An uninitialised array (float64 unless ``dtype`` says otherwise)."""
    return _filled("empty", shape, dtype, device)


def zeros(shape: int | tuple[int, ...], *, dtype: DType | None = None,
          device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An array of zeros (float64 unless ``dtype`` says otherwise)."""
    return _filled("zeros", shape, dtype, device)


def ones(shape: int | tuple[int, ...], *, dtype: DType | None = None,
         device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An array of ones (float64 unless ``dtype`` says otherwise)."""
    return _filled("ones", shape, dtype, device)


# Spec defaults for a Python fill value: bool is checked before int (bool subclasses int).
_FILL_DEFAULTS = ((bool, np.dtype(np.bool_)), (int, np.dtype(np.int64)),
                  (float, np.dtype(np.float64)), (complex, np.dtype(np.complex128)))


_FILL_OF = {t: dt for t, dt in _FILL_DEFAULTS}  # (by a Python scalar's exact type)


def _fill_dtype(fill_value: object) -> np.dtype[Any]:
    for t, dt in _FILL_DEFAULTS:
        if isinstance(fill_value, t):
            return dt
    raise TypeError(f"fill_value must be a bool, int, float or complex, not "
                    f"{type_name(fill_value)}")


def full(shape: int | tuple[int, ...], fill_value: bool | int | float | complex, *,
         dtype: DType | None = None,
         device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An array filled with ``fill_value``; its dtype is inferred from a Python scalar as the
    spec says (bool, int64, float64, complex128) when ``dtype`` is None."""
    npdt = _FILL_OF.get(type(fill_value))
    if npdt is not None and (type(shape) is int or type(shape) is tuple) and \
            _default_cpu(dtype, device):
        # (the commonest call: NumPy's own full of a Python scalar into its default dtype, the
        # call the checked path ends in, whose errors, such as an int past int64, are NumPy's)
        return wrap(np.full(shape, fill_value, npdt))
    value = python_scalar(fill_value)  # (NumPy would parse a string, broadcast a list)
    npdt = _fill_dtype(value if value is not None else fill_value)
    if dtype is not None:
        device = _resolved(device)
        npdt = native_dtype(dtype, device) or npdt  # (never None here: for mypy)
        if type(value) is complex:  # (NumPy fills the real part, with a warning)
            refuse_complex_to_real("full", _dtypes.complex128, dtype)
        elif type(value) is float and npdt.kind in "iu":
            # NumPy fills NaN, inf and floats past the dtype as what a C cast makes of them:
            # as asarray(value, dtype=dtype), ValueError or OverflowError; else truncated
            value = np.asarray(value, dtype=npdt).item()
    if type(shape) is not tuple and type(shape) is not int:
        shape = shape_tuple("full", shape)
    device = _resolved(device)
    if device is not CPU:  # (NumPy checks the shape and the value as this does)
        _check_shape("full", shape, npdt)
        if type(value) is int and npdt.kind in "iu":
            low, high = int_bounds(npdt)
            if not low <= value <= high:
                raise OverflowError(f"Python integer {value} out of bounds for {npdt}")
    return _make("full", device, shape, scalar_into(value, npdt), dtype=npdt)


def _like(name: str, x: ndarray, dtype: DType | None,
          device: Device | str | tuple[int, int] | None
          ) -> tuple[tuple[int, ...], DType, Device | str | tuple[int, int]]:
    """The shape, dtype and device of an array made like ``x``: x's unless given."""
    expect_array(name, x)
    # (x's device, or `cpu` for pinned or managed memory, as for every result computed on it)
    return (x.shape, x.dtype if dtype is None else dtype,  # (not `or`: dtype=0 is refused)
            fresh(x._device) if device is None else device)


def _numpys_like(x: object, dtype: DType | None, device: object) -> Any:
    """x's NumPy array where a ``*_like`` call is NumPy's own (its commonest: x computed on the
    CPU, no dtype or device asked for), the one call the checked path ends in; else None."""
    if dtype is None and device is None and type(x) is ndarray and x._device is CPU:
        a = x._array
        if type(a) is _np_ndarray:
            return a
    return None


# The dtype kinds full() fills with a Python scalar as it is (no cast, no check of its own)
_FILLS = {bool: "b", int: "iu", float: "fc", complex: "c"}


def full_like(x: ndarray, /, fill_value: bool | int | float | complex, *,
              dtype: DType | None = None,
              device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An array shaped like ``x`` (same dtype and device unless given) filled with a value."""
    a = _numpys_like(x, dtype, device)
    if a is not None and a.dtype.kind in _FILLS.get(type(fill_value), "") and \
            a.dtype not in EXTENSION_FLOATS:  # (float8_e5m2's kind is "f": see scalar_into)
        return wrap(np.full(a.shape, fill_value, a.dtype))
    shape, dtype, device = _like("full_like", x, dtype, device)
    return full(shape, fill_value, dtype=dtype, device=device)


def empty_like(x: ndarray, /, *, dtype: DType | None = None,
               device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An uninitialised array shaped like ``x`` (same dtype and device unless given)."""
    a = _numpys_like(x, dtype, device)
    if a is not None:
        return wrap(np.empty(a.shape, a.dtype))
    shape, dtype, device = _like("empty_like", x, dtype, device)
    return empty(shape, dtype=dtype, device=device)


def zeros_like(x: ndarray, /, *, dtype: DType | None = None,
               device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An array of zeros shaped like ``x`` (same dtype and device unless given)."""
    a = _numpys_like(x, dtype, device)
    if a is not None:
        return wrap(np.zeros(a.shape, a.dtype))
    shape, dtype, device = _like("zeros_like", x, dtype, device)
    return zeros(shape, dtype=dtype, device=device)


def ones_like(x: ndarray, /, *, dtype: DType | None = None,
              device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """An array of ones shaped like ``x`` (same dtype and device unless given)."""
    a = _numpys_like(x, dtype, device)
    if a is not None:
        return wrap(np.ones(a.shape, a.dtype))
    shape, dtype, device = _like("ones_like", x, dtype, device)
    return ones(shape, dtype=dtype, device=device)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: DType | None = None,
        device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """A 2-D array with ones on the ``k``-th diagonal and zeros elsewhere."""
    k = strict_int(k, "eye's k")  # (True is no k)
    if type(n_rows) is int and n_cols is None and 0 <= n_rows < 1 << 30 and \
            _default_cpu(dtype, device):  # (eye(n), NumPy's own: ~2 us less; n * n float64s
        # within the largest array, so no shape check is needed)
        return wrap(np.eye(n_rows, k=max(-n_rows, min(k, n_rows))))
    # (the sizes checked here, as NumPy checks them, before a device that cannot allocate
    # refuses: eye(-1, device="rocm:0") was a NoBackendError, zeros(-1, ...) a ValueError)
    n_rows = strict_int(n_rows, "eye's n_rows")
    cols = n_rows if n_cols is None else strict_int(n_cols, "eye's n_cols")
    device = _resolved(device)
    npdt = native_dtype(dtype, device) or np.float64
    _check_shape("eye", (n_rows, cols), npdt)
    k = max(-n_rows, min(k, cols))  # (the same zeros past the matrix: CuPy takes a C long)
    return _make("eye", device, n_rows, cols, k=k, dtype=npdt)


def linspace(start: int | float | complex, stop: int | float | complex, /, num: int, *,
             dtype: DType | None = None,
             device: Device | str | tuple[int, int] | None = None,
             endpoint: bool = True) -> ndarray:
    """``num`` evenly spaced numbers over [start, stop] (float64, or complex128 for complex
    bounds, unless ``dtype`` says otherwise)."""
    if type(num) is int and 0 <= num < _EXACT and type(endpoint) is bool and \
            type(start) in _INT_OR_FLOAT and type(stop) in _INT_OR_FLOAT and \
            _default_cpu(dtype, device):
        # The commonest call, NumPy's own (~6 us less): with finite bounds and step and a
        # start that is no -0.0, its first value is start and its last stop (see _spaced).
        lo, hi = float(start), float(stop)  # type: ignore[arg-type]  # (int or float: above)
        if math.isfinite(hi - lo) and (lo or math.copysign(1.0, lo) > 0):
            return wrap(np.linspace(lo, hi, num, endpoint=endpoint))
    npdt: type[np.generic] | np.dtype[Any] | None  # (the dtype handed to the backend)
    # Python scalars (NumPy's too, whose complex64 is no Python complex) and 0-d arrays' values:
    # arrays or strings would make NumPy broadcast or parse them.
    bounds = [_bound(v) for v in (start, stop)]
    for v, b in zip((start, stop), bounds):
        if b is None or type(b) is bool:
            raise TypeError(f"linspace takes int, float and complex bounds, not {shown(v)}")
    num = strict_int(num, "linspace's num")
    if num < 0:  # (NumPy's words, before a device that cannot allocate refuses)
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    endpoint = flag("linspace", "endpoint", endpoint)
    # (ints as floats, as NumPy computes them: ints past int64 became NumPy objects)
    bounds = [float(b) if type(b) is int else b for b in bounds]
    device = _resolved(device)
    if dtype is None:
        npdt = np.complex128 if complex in map(type, bounds) else np.float64
    else:
        npdt = native_dtype(dtype, device)
        if complex in map(type, bounds):  # (NumPy dropped the imaginary parts)
            refuse_complex_to_real("linspace", _dtypes.complex128, dtype)
    _check_count("linspace", num, npdt)
    return _make(_spaced, device, bounds, num, npdt, endpoint, _on_cuda(device))


_INT_OR_FLOAT = (int, float)


def _spaced(ns: Any, bounds: list[Any], num: int, dtype: Any, endpoint: bool,
            on_cuda: bool) -> Any:
    if numpy_kind(np.dtype(dtype)) in "fc" and all(map(cmath.isfinite, bounds)) and \
            not cmath.isfinite(bounds[1] - bounds[0]):
        # Finite bounds whose difference is not: NumPy's step was infinite (linspace(-1e308,
        # 1e308, 5) was [-1e308, inf, inf, inf, 1e308]). Made in halves and doubled, exactly
        # (no value is past the bounds), as arange makes such values.
        half = _spaced(ns, [b / 2 for b in bounds], num, dtype, endpoint, on_cuda)
        half *= 2
        return half
    if not on_cuda:
        out = ns.linspace(*bounds, num, dtype=dtype, endpoint=endpoint)
    elif complex in map(type, bounds):
        out = linspace_by_parts(ns, bounds, num, dtype, endpoint)
    else:
        out = numpys_linspace(ns, bounds[0], bounds[1], num, endpoint)
        if np.dtype(dtype).kind in "iu":
            out = ns.floor(out)
        out = out.astype(dtype, copy=False)
    # The first value is start and the last stop: NumPy's 0 * step + start is NaN for an
    # infinite or NaN step and +0.0 for a start of -0.0; CuPy writes a Python 0.0 with a
    # memset, dropping -0.0's sign (so a 0-d array there). Integer dtypes take the floor.
    kind = numpy_kind(out.dtype)
    ends = [(0, bounds[0])] if num else []
    if endpoint and num > 1 and kind in "fc":
        ends.append((-1, bounds[1]))
    for i, v in ends:
        if kind in "iu":
            low, high = int_bounds(out.dtype)
            if not (math.isfinite(v) and low <= math.floor(v) <= high):
                continue  # (NaN, or a value the dtype lacks: the backend's cast stands)
            v = math.floor(v)
        elif kind not in "fc":
            continue
        out[i] = v if type(out) is np.ndarray else ns.full((), v, dtype=out.dtype)
    return out


def numpys_linspace(ns: Any, start: float, stop: float, num: int, endpoint: bool) -> Any:
    """NumPy's float64 linspace, ``arange(num) * step + start`` (stop last), for CuPy: its
    own computes start + i * step in one kernel, which the GPU fuses into one rounding (an
    FMA): linspace(-1, 1, 7)[3] was -5.55e-17, not NumPy's 0.0. Here a kernel multiplies and
    another adds, each result rounded, so the values are NumPy's to the bit."""
    if num < 0:  # (NumPy's words: arange(-1) below would be empty, not refused)
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    y = ns.arange(num, dtype=np.float64)
    delta = stop - start
    if div > 0:
        step = delta / div
        if step == 0:  # (NumPy's special handling of denormal steps)
            y /= div
            y *= delta
        else:
            y *= step
    else:  # (0 or 1 values: NumPy multiplies by delta, NaN for an infinite one)
        y *= delta
    y += start
    if endpoint and num > 1:
        y[-1] = stop
    return y


def linspace_by_parts(ns: Any, bounds: list[Any], num: int, dtype: Any, endpoint: bool) -> Any:
    """A complex linspace as two real ones, each as NumPy's complex128 arithmetic makes it
    (then cast, as NumPy computes a complex64 linspace in complex128): CuPy's takes float()
    of the complex step. NumPy's step is a complex division by the real count, which
    multiplies by its reciprocal (Smith's): linspace(10, 1j, 7)[2].real is 6.666666666666667
    there, 6.666666666666666 as each part over the count; and i * step is a complex product,
    whose zero imaginary part of i adds 0 * the other part (NaN beside an infinite one)."""
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    start, stop = np.complex128(bounds[0]), np.complex128(bounds[1])
    div = num - 1 if endpoint else num
    y = ns.arange(num, dtype=np.float64)
    delta = stop - start
    step = delta / div if div > 0 else None  # (NumPy's own scalar division, on the host)
    if step is not None and step != 0:
        by = step
    else:  # (0 or 1 values, or NumPy's special handling of denormal steps: times delta)
        if step is not None:
            y /= div
        by = delta
    parts = [y * by.real - 0.0 * by.imag, y * by.imag + 0.0 * by.real]
    for p, s, e in zip(parts, (start.real, start.imag), (stop.real, stop.imag)):
        p += s
        if endpoint and num > 1:
            p[-1] = e
    whole = np.dtype(dtype).kind == "c"  # (else bool: the complex values' truth)
    out = ns.empty((num,), dtype=dtype if whole else np.complex128)
    out.real, out.imag = parts
    return out if whole else out.astype(dtype)


def meshgrid(*arrays: ndarray, indexing: str = "xy") -> tuple[ndarray, ...]:
    """Coordinate matrices from 1-D coordinate arrays, as a tuple (of fresh arrays)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', not {indexing!r}")
    expect_array("meshgrid", *arrays)
    if len({a.dtype for a in arrays}) > 1:
        # NumPy keeps each input's dtype; the spec asks for one dtype across the outputs.
        raise TypeError("meshgrid needs arrays of one dtype; convert them with astype() first")
    if not arrays:
        return ()
    dev = check_device(*arrays)
    # Each grid is its coordinates along one axis, broadcast and copied, as NumPy does, but
    # without np.broadcast_arrays: that stops at 32 dimensions, and capabilities() says 64.
    shape = [a.size for a in arrays]
    axes = list(range(len(arrays)))
    if indexing == "xy" and len(arrays) > 1:
        shape[:2] = shape[1], shape[0]
        axes[:2] = 1, 0
    ns = namespace_for(dev)
    # (CuPy's broadcast_to computes the size in C integers, which wrap: 4 grids of 65536
    # coordinates were arrays of 0 elements)
    _check_shape("meshgrid", tuple(shape), native_dtype(arrays[0].dtype))
    grids = []
    with on(dev):  # (CuPy allocates on the arrays' GPU)
        for a, axis in zip(arrays, axes):
            along = [1] * len(shape)
            along[axis] = shape[axis]
            grid = ns.broadcast_to(ns.reshape(native(a), tuple(along)), tuple(shape))
            grids.append(wrap_result(grid.copy(), dev))  # (C order, as NumPy's grids)
    return tuple(grids)


def tril(x: ndarray, /, *, k: int = 0) -> ndarray:
    """The lower triangle of the matrices in ``x`` (elements above diagonal ``k`` zeroed)."""
    a = _numpys_triangle(x, k)
    if a is not None:
        return wrap(_np_tril(a, k))
    k = _diagonal("tril", x, k)
    result: ndarray = copied(x) if x.size == 0 and not held(x) else _tril(x, k=k)
    return result


def triu(x: ndarray, /, *, k: int = 0) -> ndarray:
    """The upper triangle of the matrices in ``x`` (elements below diagonal ``k`` zeroed)."""
    a = _numpys_triangle(x, k)
    if a is not None:
        return wrap(_np_triu(a, k))
    k = _diagonal("triu", x, k)
    result: ndarray = copied(x) if x.size == 0 and not held(x) else _triu(x, k=k)
    return result


def _numpys_triangle(x: object, k: object) -> Any:
    """x's NumPy array where tril's or triu's call is NumPy's own (its commonest: a CPU stack of
    matrices with elements, an int offset within them), the one call the checked path ends in;
    else None."""
    if type(x) is ndarray and x._device is CPU and type(k) is int:
        a = x._array
        if type(a) is _np_ndarray and a.ndim >= 2 and a.size and \
                -a.shape[-2] <= k <= a.shape[-1]:
            return a
    return None


# (an empty x is copied: NumPy's masks its matrices with np.tri(rows, columns), rows * columns
# booleans for no elements, 1 GiB for a stack of none of 2**15 by 2**15)
_tril, _triu = delegate_first("tril"), delegate_first("triu")
_np_tril, _np_triu = undispatched(np.tril), undispatched(np.triu)


def _diagonal(name: str, x: ndarray, k: int) -> int:
    """The diagonal offset ``k`` as an int NumPy takes, after checking ``x`` is a stack of
    matrices (NumPy makes a 1-D array a matrix of its rows, a shape the spec's "same shape as
    x" rules out). Offsets past the matrix are clipped to it: the same triangle, where NumPy
    overflows a C long (and took a 0-d array's k as an array)."""
    expect_array(name, x)
    if x.ndim < 2:
        raise ValueError(f"{name} needs an array of at least 2 dimensions, not {x.ndim}")
    return diagonal_offset(strict_int(k, f"{name}'s k"), x)
