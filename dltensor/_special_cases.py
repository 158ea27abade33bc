"""Fix-ups: where NumPy and CuPy depart from the spec's special cases.

Each is a function ``fn(xp, *arrays)`` of an array module, used by the element-wise tables
(``_elementwise``) in place of the ufunc for the dtype kinds its row names, on every device.
Where CuPy's kernels depart from NumPy's is CuPy's backend's: ``_backends.cupy_departures``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from ._dtypes import EXTENSION_FLOATS, PYTHON_SCALARS, derived
from ._dtype_functions import int_bounds
from ._dispatch import NULL_CONTEXT
from ._dispatch import c_count_nonzero as _count_nonzero

_FLOAT64, _FLOAT32, _FLOAT16 = np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.float16)
_HALVES_AND_LESS = {_FLOAT16}  # (real floats of 16 bits or less)
derived(lambda: _HALVES_AND_LESS.update(EXTENSION_FLOATS))
_REAL_SCALARS = frozenset((bool, int, float))
_np_ndarray, _np_isinf, _max = np.ndarray, np.isinf, np.maximum.reduce
_np_signbit, _np_square, _np_sqrt = np.signbit, np.square, np.sqrt
_NATIVE_FLOATS = frozenset({_FLOAT16, _FLOAT32, _FLOAT64})


def quiet(xp: ModuleType) -> contextlib.AbstractContextManager[Any]:
    """NumPy's warnings off (for fix-ups that evaluate a formula everywhere, then select)."""
    return np.errstate(all="ignore") if xp is np else NULL_CONTEXT


def some(xp: Any, mask: Any) -> bool:
    """Whether ``mask`` holds a True (NumPy's C count_nonzero of a mask takes ~0.1 us, its
    .any() ~1; on a GPU either waits for it)."""
    return bool(_count_nonzero(mask) if xp is np else mask.any())


def for_kernel(scalar: Any, dt: np.dtype[Any], true_divide: bool = False) -> Any:
    """A Python scalar as CuPy should get it for an array of ``dt``: an int beside floats as
    a float, as NumPy converts it (CuPy packs a Python int into int64 or uint64 first: past
    them an OverflowError, and into float32 on the GPU, rounding twice); an int past int64
    that ``true_divide`` divides (by) a uint64 array as a float too, as NumPy divides them
    (CuPy's true_divide lists its loops of int64 and uint64 before uint64's, and packed the
    int into an int64: OverflowError; read in CuPy 14.2's sources, unrun on a GPU)."""
    if type(scalar) is int and (dt.kind in "fc" or true_divide and scalar >= 1 << 63):
        return float(scalar)
    return scalar


def zero_d(xp: Any, scalar: Any, dt: np.dtype[Any]) -> Any:
    """A Python scalar as a 0-d array of ``dt``, as NumPy converts it (see for_kernel; full,
    since CuPy's asarray of -0.0 is a memset, +0.0)."""
    return xp.full((), for_kernel(scalar, dt), dtype=dt)


def _isinf(xp: Any, v: Any) -> Any:
    # (a Python int is never infinite, and isinf refuses one beyond int64 as an object)
    t = type(v)
    return False if t is int else math.isinf(v) if t is float else xp.isinf(v)


def floor_divide(xp: Any, a: Any, b: Any) -> Any:
    """NumPy's floor division, but the spec's quotient where one operand is infinite. NumPy
    follows Python: -1.0 // inf is -1.0 and inf // 1.0 is NaN. The spec asks for the signed
    zero / infinity of the true quotient when exactly one operand is infinite: as computed, so
    a Python scalar is taken in the result's dtype (1e39 and 2**200 are inf in float32, 70000
    in float16; in float64 a scalar NumPy could convert is finite). Those elements are
    divided as 1 // 1 by NumPy, so its warnings (and np.errstate) are of the others only:
    inf // 2.0 raised "invalid value" of a NaN no one saw."""
    tb = type(b)
    if type(a) is _np_ndarray and (tb is _np_ndarray and not _count_nonzero(_np_isinf(b)) or
                                   a.dtype is _FLOAT64 and (tb is int or tb is float and
                                                            math.isfinite(b))) and \
            not _count_nonzero(_np_isinf(a)):
        # (the common calls, two NumPy arrays, or a float64 one and a finite Python number,
        # with no infinity: NumPy's floor division, as below, without its checks, ~1.5 us;
        # count_nonzero without its Python layer)
        return np.floor_divide(a, b)
    da: Any = getattr(a, "dtype", None)  # (one of them is an array)
    db: Any = getattr(b, "dtype", da)
    dtype = db if da is None or da == db else np.result_type(da, db)
    # Python scalars become 0-d arrays of the dtype where they round into it, and infinite
    # ones, whose elements are replaced below; beside float64, a finite one is as it is.
    if dtype != _FLOAT64:
        scalar: tuple[type, ...] = (int, float) if dtype.kind == "f" else (float,)
    else:
        scalar = (float,) if math.isinf(a if type(a) is float else b if type(b) is float
                                        else 0.0) else ()
    if type(a) in scalar or type(b) in scalar:
        with quiet(xp):
            a, b = (zero_d(xp, v, dtype) if type(v) in scalar else v for v in (a, b))
    ia, ib = _isinf(xp, a), _isinf(xp, b)
    one_inf = ib if ia is False else ia if ib is False else ia ^ ib
    if not some(xp, one_inf):
        return xp.floor_divide(a, b)
    r = xp.floor_divide(*(v if type(v) in _REAL_SCALARS else
                          xp.where(one_inf, xp.ones((), dtype=v.dtype), v) for v in (a, b)))
    with quiet(xp):
        out = xp.where(one_inf, xp.divide(a, b), r)
    return out if out.dtype == dtype else out.astype(dtype)  # (CuPy's where: no bfloat16 loop)


def nextafter(xp: Any, a: Any, b: Any) -> Any:
    """float16's nextafter as the spec's: x2 wherever x1 == x2 (NumPy's nextafter(+0, -0) is
    +0: numpy/numpy#31472, fixed after 2.4), and from an infinity toward a number the largest
    finite value (CuPy 14's float16 nextafter is NaN for any x1 not finite). bfloat16's on
    CUDA: x2 wherever x1 == x2 (CuPy's returns x1; ml_dtypes' is the spec's)."""
    r = xp.nextafter(a, b)
    half = r.dtype == _FLOAT16
    if not half and (xp is np or r.dtype not in EXTENSION_FLOATS):
        return r
    a, b = (zero_d(xp, v, r.dtype) if type(v) in PYTHON_SCALARS else v for v in (a, b))
    with quiet(xp):
        if half:
            from_inf = xp.isinf(a) & (a != b) & ~xp.isnan(b)
            r = xp.where(from_inf, xp.copysign(xp.full((), 65504.0, dtype=r.dtype), a), r)
        # (CuPy's where of bfloat16 is float32's: cast back, every bfloat16 value kept)
        return xp.where(a == b, b, r).astype(r.dtype, copy=False)


def power(xp: Any, a: Any, b: Any) -> Any:
    if xp is np and type(a) is _np_ndarray:
        # NumPy's own x ** 2 and x ** 0.5: its square (x * x rounded once, as the correctly
        # rounded pow gives it) and sqrt (also power's own loop for one exponent of 0.5 from
        # NumPy 2.3; before, C's pow, a last bit apart for some values), at half np.power's
        # cost on a small array; sqrt only where no sign bit is set (-0, -inf: mended below)
        if type(b) is int and b == 2:
            return _np_square(a)
        if type(b) is float and b == 0.5 and a.dtype in _NATIVE_FLOATS and \
                not _count_nonzero(_np_signbit(a)):
            return _np_sqrt(a)
    r = xp.power(a, b)
    size = getattr(b, "size", 1)
    if (size == 1 and bool(b == 0.5) or size > 1 and (0 in b.strides or b.shape != r.shape)
            and b.dtype.kind in "fV" and _a_half_in(b)) and _some_at_most_zero(xp, a):
        # NumPy computes x ** 0.5 as sqrt(x) when the exponent is one value (or one repeated
        # along its loop: a broadcast, of stride 0, by broadcast_to or by the ufunc itself, as
        # an exponent of shape (2, 1) beside a base of (1, 3)): sqrt(-0) is -0 and sqrt(-inf)
        # NaN, where the spec's pow gives +0 and +inf.
        if type(a) in PYTHON_SCALARS and xp is not np:  # (CuPy's where takes no Python bool)
            a = zero_d(xp, a, r.dtype)
        with quiet(xp):
            bad = (a == 0) | (a == -xp.inf)
            s = xp.where(bad if size == 1 else bad & (b == 0.5), xp.abs(a), r)
        # (a Python scalar base's abs is a float64: r's dtype kept)
        r = s if s.dtype == r.dtype else s.astype(r.dtype)
    return r


def _a_half_in(b: Any) -> bool:
    """Whether broadcast exponent ``b`` holds a 0.5, asked of the elements it repeats (one
    per axis of stride 0; all of them where the ufunc broadcasts it): NumPy's power by any
    other exponent keeps its speed."""
    core = b[tuple(0 if s == 0 else slice(None) for s in b.strides)]
    return bool((core == 0.5).any())


def _some_at_most_zero(xp: Any, a: Any) -> bool:
    """Whether ``a`` may hold a -0 or -inf for power to mend: asked of NumPy's arrays (a
    sign bit and a reduction, where the mending took five calls and an errstate: the zeros
    of arange or relu, whose sign bit is clear, need none); on a GPU the answer would wait
    for it, so it is yes."""
    if type(a) in PYTHON_SCALARS:
        return bool(a <= 0)
    if xp is not np:
        return True
    with quiet(xp) if a.dtype in EXTENSION_FLOATS else NULL_CONTEXT:  # (ml_dtypes' warn of NaN)
        return bool(_count_nonzero(_np_signbit(a) if a.dtype.kind == "f" else a <= 0))


def divide(xp: Any, a: Any, b: Any) -> Any:
    """divide's fix-up for complex and integer results: the spec's tables with one real
    operand (see real_and_complex); integers into float64, NumPy's quotient, a Python int
    beside them the 0-d array of their dtype, as in every other op, so out of its range an
    OverflowError (NumPy divides by any: uint8 / -1 was a quotient on the CPU only)."""
    if _complex_operand(a) or _complex_operand(b):
        return _complex_divide(xp, a, b)
    for s, other in ((a, b), (b, a)):
        if type(s) is int:
            low, high = int_bounds(other.dtype)
            if not low <= s <= high:
                raise OverflowError(f"Python integer {s} out of bounds for {other.dtype}")
    return xp.divide(a, b)


def reciprocal(xp: Any, a: Any) -> Any:
    """The spec's reciprocal, "as if implemented as 1.0 / x": NumPy's complex reciprocal is
    not its 1 / z (1 / (1 + 0j) was 1 - 0j, 1 / 0j NaN where 1.0 / 0j is inf + NaN j)."""
    return divide(xp, 1.0, a)


def _complex_operand(v: Any) -> bool:
    return type(v) is complex or getattr(v, "dtype", _FLOAT64).kind == "c"


def real_and_complex(ufunc: str) -> Callable[..., Any]:
    """The fix-up of add, subtract, multiply and divide with one real array and one complex
    operand: the spec's tables compute each component with the real operand, (a + bj) * c =
    ac + bcj, where NumPy and CuPy make c complex first: (inf + 0j) * c had a NaN imaginary
    part (inf * 0), and (x - 0j) + c lost the sign of its -0j. A Python int or float is no
    real operand: beside a complex array it is "a zero-dimensional array with the same data
    type" (type_promotion.rst), c + 0j, as NumPy and CuPy take it.

    Computed on z seen as (a, b) pairs of reals, in about the ufunc's time: c scales whole
    pairs, or is added to their first elements (c - z as c + (-z), as IEEE 754 defines it)."""
    scales = ufunc in ("multiply", "divide")

    def fix(xp: Any, x1: Any, x2: Any) -> Any:
        op = getattr(xp, ufunc)
        if type(x1) in _REAL_SCALARS or type(x2) in _REAL_SCALARS:
            return op(x1, x2)
        real1, real2 = _real_valued(x1), _real_valued(x2)
        z, c = (x1, x2) if real2 else (x2, x1)
        if real1 is real2 or real1 and ufunc == "divide":  # (c / (a + bj): "special rules")
            return op(x1, x2)
        if c.dtype in _HALVES_AND_LESS:  # (exact in float32, the table's)
            c = c.astype(_FLOAT32)
            x1, x2 = (c, x2) if real1 else (x1, c)
        if WHOLE.get(c.dtype) is None:
            return op(x1, x2)
        if type(z) is complex:  # (a Python complex takes the real array's precision)
            z = xp.full((), z, dtype=WHOLE[c.dtype])
        elif not z.flags.c_contiguous:
            z = xp.ascontiguousarray(z)
        parts = PARTS[z.dtype]
        n = getattr(c, "ndim", 0)  # (a Python scalar c: as the ufunc takes it)
        if max(z.ndim, n) >= 64:  # (no axis to spare for the pairs: part by part)
            a, b = z.real, z.imag
            if real1 and ufunc == "subtract":
                a, b, op = -a, -b, xp.add
            re = op(c, a) if real1 else op(a, c)
            im = (op(b, c) if real2 else op(c, b)) if scales else b
            r = xp.empty(re.shape, WHOLE[re.dtype])
            r.real, r.imag = re, im
            return r
        # z's parts, a0 b0 a1 b1 ... along its last axis (c a scalar), else in pairs (a, b)
        flat = n == 0 and z.ndim > 0
        pairs = z.view(parts) if flat else z.reshape(z.shape + (1,)).view(parts)
        if scales:
            if n:  # (c[..., None] would make NumPy loop over the pairs, 2 elements at a time)
                c = xp.stack((c, c), axis=-1)
            r = op(pairs, c) if real2 else op(c, pairs)
        elif n == 0 or c.shape == z.shape:
            # a + c (b kept) in a copy of the parts, or c + -a (-b) in their negation
            r = pairs.astype(xp.result_type(parts, getattr(c, "dtype", parts)))
            ra = r[..., ::2] if flat else r[..., 0]
            if real1 and ufunc == "subtract":
                xp.negative(r, out=r)
                xp.add(c, ra, out=ra)
            else:
                op(c, ra, out=ra) if real1 else op(ra, c, out=ra)
        else:  # (c broadcasts z; n > 0, so z's parts are in pairs)
            a = pairs[..., 0]
            if real1 and ufunc == "subtract":
                pairs, a, op = -pairs, -a, xp.add
            re = op(c, a) if real1 else op(a, c)
            r = xp.empty(re.shape + (2,), re.dtype)
            r[..., 0], r[..., 1] = re, pairs[..., 1]
        return r.view(WHOLE[r.dtype]) if flat else r.view(WHOLE[r.dtype])[..., 0]
    return fix


_complex_divide = real_and_complex("divide")

# complex dtype -> the dtype of its parts, and back
PARTS: dict[np.dtype[Any], np.dtype[Any]] = {
    np.dtype(c): np.dtype(f) for c, f in ((np.complex64, np.float32), (np.complex128, np.float64))}
WHOLE = {f: c for c, f in PARTS.items()}


def _real_valued(x: Any) -> bool:
    return type(x) is not complex if type(x) in PYTHON_SCALARS else x.dtype.kind != "c"


def expm1(xp: Any, a: Any) -> Any:
    # NumPy's complex expm1 is exp(z) - 1: inaccurate near 0 and wrong at infinities.
    # expm1(x + iy) = expm1(x) cos(y) - 2 sin^2(y/2) + i exp(x) sin(y), with the spec's
    # special cases where x is infinite or y is zero.
    # Where exp(x) alone overflows (finite x past log of the largest float) its products with
    # cos(y) and sin(y) may not: taken as exp(x/2) (exp(x/2) cos(y)), as NumPy's exp scales
    # (expm1(709.9 + 1j) was inf + inf j, not 1.09e308 + 1.70e308j).
    x, y = a.real, a.imag
    with quiet(xp):
        s = xp.sin(y / 2)
        cos, sin, e = xp.cos(y), xp.sin(y), xp.exp(x)
        re, im = xp.expm1(x) * cos - 2 * s * s, e * sin
        over = xp.isinf(e) & (x != xp.inf)
        if xp is not np or some(np, over):  # (on the CPU, asked: 20% of the call)
            h = xp.exp(x / 2)
            re, im = xp.where(over, h * (h * cos), re), xp.where(over, h * (h * sin), im)
        im = xp.where(y == 0, y, im)
        pos_inf, neg_inf = x == xp.inf, x == -xp.inf
        bad_y = ~xp.isfinite(y)
        re = xp.where(neg_inf, -1.0, xp.where(pos_inf & bad_y, xp.inf, re))
        re = xp.where((x == 0) & (y == 0), 0.0, re)  # -0 - 2*0**2 is -0; the spec wants +0
        im = xp.where(neg_inf & bad_y, 0.0, xp.where(pos_inf & bad_y, xp.nan, im))
    return from_parts(xp, re, im, a.dtype)


# Past half the largest float |1 + z| may overflow where |z| did not (log1p's fix-up)
_HALF_MAX = {np.dtype(t): float(np.finfo(t).max) / 2 for t in (np.complex64, np.complex128)}


def log1p(xp: Any, a: Any) -> Any:
    # NumPy's complex log1p is log(1 + z): 1 + 1e-20 is 1, so log1p(1e-20) came out 0. Near 0
    # (where no special case lies) log|1 + z| = log1p(x (2 + x) + y^2) / 2, arg = atan2(y, 1 + x).
    # And it takes |1 + z| itself, which overflows for finite z past about half the largest
    # float, giving +inf (and an overflow warning) where log(z + 1) is finite: taken there
    # (on the CPU only: CuPy's complex log1p is log(z + 1)).
    m = xp.abs(a)
    huge = None
    if xp is np and np.count_nonzero(m > _HALF_MAX[a.dtype]):  # (rare: asked first)
        huge = (m > _HALF_MAX[a.dtype]) & np.isfinite(a)
    with np.errstate(over="ignore") if huge is not None else NULL_CONTEXT:  # (not log1p's)
        r = xp.log1p(a)
    small = m < 0.5
    x, y = a.real, a.imag
    if some(xp, small):  # (on a GPU the one question, waited for)
        with quiet(xp):
            accurate = from_parts(xp, xp.log1p(x * (2 + x) + y * y) / 2, xp.arctan2(y, 1 + x),
                                  a.dtype)
        r = xp.where(small, accurate, r)
    if huge is not None:  # (1 added to the real part: a + (1 + 0j) makes -0j +0j)
        r = np.where(huge, np.log(from_parts(np, x + 1, y, a.dtype)), r)
    return r


def acosh(xp: Any, a: Any) -> Any:
    # acosh(±0 + NaN j) is NaN + πj/2 (C11, the spec and NumPy 2.3); CuPy's cacosh (FreeBSD's
    # comment says so) and NumPy 2.2's gave NaN + NaN j
    fix = (a.real == 0) & xp.isnan(a.imag)
    r = xp.arccosh(a)
    if fix.any():
        r = xp.where(fix, xp.asarray(complex(np.nan, np.pi / 2), dtype=a.dtype), r)
    return r


def from_parts(xp: Any, re: Any, im: Any, dtype: Any) -> Any:
    out = xp.empty(re.shape, dtype)  # re and im always share a shape here
    out.real, out.imag = re, im
    return out


def tanh(xp: Any, a: Any) -> Any:
    return _limit_at_infinity(xp, a, xp.tanh(a), along_real=True)


def tan(xp: Any, a: Any) -> Any:
    # tan(z) = -1j tanh(1j z) (the spec's definition): tanh's fix, rotated
    return _limit_at_infinity(xp, a, xp.tan(a), along_real=False)


def _limit_at_infinity(xp: Any, a: Any, r: Any, along_real: bool) -> Any:
    """``r`` with tanh's limits where a's part along ``along_real`` is infinite and the other
    finite: C99's ctanh(±inf + yj) gives ±1 with a zero of the sign of sin(2y); the spec wants
    the sign of y (tanh(conj z) = conj(tanh z))."""
    x, y = a.real, a.imag
    fix = xp.isinf(x if along_real else y) & xp.isfinite(y if along_real else x)
    if fix.any():
        re, im = (1.0, 0.0) if along_real else (0.0, 1.0)
        r = xp.where(fix, from_parts(xp, xp.copysign(re, x), xp.copysign(im, y), a.dtype), r)
    return r


def odd_and_conjugate(name: str) -> Callable[[Any, Any], Any]:
    """The fix-up of a function that the spec makes odd and conjugate-symmetric (atan, atanh:
    f(-z) = -f(z), f(conj z) = conj f(z)): f(|x| + i|y|), the signs of x and y put back.
    NumPy's complex64 arctan and arctanh break the symmetry by an ulp at some points."""
    def fix(xp: Any, a: Any) -> Any:
        x, y = a.real, a.imag
        r = getattr(xp, name)(from_parts(xp, xp.abs(x), xp.abs(y), a.dtype))
        return from_parts(xp, xp.copysign(r.real, x), xp.copysign(r.imag, y), a.dtype)
    return fix


def in_float32(ufunc: str) -> Callable[..., Any]:
    """The fix-up computing ``ufunc`` of ml_dtypes' floats in float32, then cast back: where
    their own loops depart (copysign sets the sign bit of a zero, which is NaN in the "fnuz"
    float8 types)."""
    def fix(xp: Any, *args: Any) -> Any:
        dt = next(v.dtype for v in args if hasattr(v, "dtype") and v.dtype.kind not in "biu")
        r = getattr(xp, ufunc)(*(v.astype(np.float32) if hasattr(v, "dtype") else v
                                 for v in args))
        back = r.astype(dt)
        if ufunc != "copysign" or dt.name.endswith(("fnuz", "fnu")):  # (no sign bit for NaN)
            return back
        # A GPU's float32-to-bfloat16 conversion drops a NaN's sign (an H200, CuPy 14.2;
        # ml_dtypes' keeps it): the sign set on the bits, which holds for every value
        bits = back.view(np.dtype(f"u{dt.itemsize}"))
        sign = bits.dtype.type(1 << (8 * dt.itemsize - 1))
        return xp.where(xp.signbit(r), bits | sign, bits & ~sign).view(dt)
    return fix


def sign(xp: Any, a: Any, r: Any = None) -> Any:
    """The spec's sign; ``r``, where given, the backend's complex sign of ``a`` to mend."""
    if a.dtype.kind != "c":
        # ml_dtypes' floats give sign(-0.0) = -0; the spec (and NumPy's floats) say 0: in
        # float32, + 0.0 (float8_e8m0fnu has no zero: its "zeros" are 2**-127)
        r = xp.sign(a.astype(np.float32)) + 0.0
        return r.astype(a.dtype)
    if r is None:
        with quiet(xp):  # (its overflow, for |a| past the floats, is mended below)
            r = xp.sign(a)
    if xp is np and _parts_in_range(a):  # (the common call: nothing below to mend)
        return r
    r = _sign_by_parts(xp, a, r)
    if not some(xp, ~xp.isfinite(a)):  # (no NaN or infinite part: the common call)
        return r
    infinite = xp.isinf(a)
    if some(xp, infinite):
        # Past both special cases the spec's sign is a / |a| by its division (see divide), of
        # a complex by a real (|a| = inf here): part by part, NaN for an infinite part, a zero
        # of its sign for a finite one, as divide(a, abs(a)) gives; NumPy's sign gave the
        # direction (inf + 1j: 1, where the spec says NaN + 0j)
        with quiet(xp):  # (inf * 0, not selected)
            re, im = (xp.where(xp.isinf(p), xp.nan, p * 0) for p in (a.real, a.imag))
        r = xp.where(infinite, from_parts(xp, re, im, a.dtype), r)
    # NumPy gives sign(inf + nan j) = 1; the spec: NaN + NaN j when either part is NaN.
    return xp.where(xp.isnan(a), xp.asarray(complex("nan+nanj"), dtype=a.dtype), r)


def _parts_in_range(a: Any) -> bool:
    """Whether each part of NumPy complex array ``a`` is 0 or a normal float at most half the
    largest: then its sign is NumPy's, with no non-finite part nor |a| that may overflow or
    round to a part (_sign_by_parts). ~5 passes over the parts where those mends take ~12."""
    info = np.finfo(a.real.dtype)
    # (a contiguous array's parts as one array of floats: half the calls)
    parts = (a.reshape(-1).view(info.dtype),) if a.flags.c_contiguous else (a.real, a.imag)
    for part in parts:
        p = np.abs(part)
        # (the largest: NaN is no <= ; no part below the normals but zeros)
        if not (_max(p, axis=None, initial=0) <= info.max / 2 and
                _count_nonzero(p < info.tiny) == _count_nonzero(p == 0)):
            return False
    return True


def _sign_by_parts(xp: Any, a: Any, r: Any) -> Any:
    """``r``, a complex sign of ``a``, with a / |a| computed from a scaled by its larger part
    where |a| may overflow or a's parts are subnormal: NumPy's and CuPy's a / abs(a) gave -1j
    for 1e308 - 1e308j (|a| is inf) and 1 + 1j for 5e-324 + 5e-324j (|a| rounds to one part);
    NumPy's sign takes hypot, which overflows for 1.797e308 + 3e300j where its abs, rounding
    down, does not (1j, for about 1 + 1.7e-8j)."""
    big = xp.maximum(xp.abs(a.real), xp.abs(a.imag))
    info = np.finfo(big.dtype)
    with quiet(xp):  # (|a| <= big * sqrt(2): no overflow below half the largest float)
        need = (big > 0) & xp.isfinite(big) & ((big < info.tiny) | (big > info.max / 2))
        if not need.any():
            return r
        re, im = a.real / big, a.imag / big
        m = xp.abs(from_parts(xp, re, im, a.dtype))  # (in [1, sqrt(2)])
        # (by parts, each rounded once, as a GPU flushing subnormals keeps their signs: its
        # complex division added a flushed -0 to +0)
        return xp.where(need, from_parts(xp, re / m, im / m, a.dtype), r)
