"""Where CuPy's element-wise kernels depart from NumPy's (and the spec's special cases).

Each is a function ``fn(xp, *arrays)`` of CuPy (or of the CUDA simulator in the tests), used by
the element-wise tables (``_elementwise``) on CUDA in place of the ufunc and of a row's
``_special_cases`` fix-up, for the dtype kinds ``DEPARTURES`` names. Importing this module
imports no CuPy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from .._dtypes import EXTENSION_FLOATS, PYTHON_SCALARS, derived
from .. import _special_cases as special
from .._special_cases import from_parts, zero_d

_FLOAT16 = np.dtype(np.float16)


def _result_dtype(a: Any, b: Any) -> np.dtype[Any]:
    """The dtype of an operation of arrays or Python scalars ``a`` and ``b`` (scalars weak)."""
    return np.result_type(*(getattr(v, "dtype", v) for v in (a, b)))


def floor_divide(xp: Any, a: Any, b: Any) -> Any:
    return _divmod(xp, a, b)[0]


def remainder(xp: Any, a: Any, b: Any) -> Any:
    return _divmod(xp, a, b)[1]


# NumPy's npy_divmod (numpy/_core/src/npymath/npy_math_internal.h.src), then the spec's
# quotient where exactly one operand is infinite (as _special_cases.floor_divide), for a CuPy
# kernel.
# (No a * b + c in it: NVRTC would fuse one, rounding once where NumPy rounds twice.)
_DIVMOD = """
T m = fmod(a, b);
T d;
if (b == 0) {
    d = a / b;
} else {
    d = (a - m) / b;  // nearly an integer multiple of b
    if (m != 0) {
        if ((b < 0) != (m < 0)) {  // the remainder takes b's sign, as Python's
            m += b;
            d -= 1;
        }
    } else {
        m = copysign((T)0, b);
    }
    if (d != 0) {
        T f = floor(d);
        d = d - f > (T)0.5 ? f + 1 : f;  // snapped to the nearest integer
    } else {
        d = copysign((T)0, a / b);
    }
}
if ((isinf(a) != 0) != (isinf(b) != 0)) {  // (isinf(-inf) may be -1)
    d = a / b;
}
q = d;
r = m;
"""
_kernels: dict[tuple[str, ModuleType], Any] = {}


def _kernel(xp: Any, name: str) -> Any:
    """dltensor's CuPy kernel ``name`` (a row of KERNELS), made once per array module (CuPy
    compiles it once)."""
    kernel = _kernels.get((name, xp))
    if kernel is None:
        ins, outs, code, options, _ = KERNELS[name]
        kernel = _kernels[name, xp] = xp.ElementwiseKernel(ins, outs, code, name,
                                                             options=options)
    return kernel


def _divmod(xp: Any, a: Any, b: Any) -> tuple[Any, Any]:
    """NumPy's floating-point floor division and remainder, in one CuPy kernel: CuPy's
    compute floor(a / b) and a - floor(a / b) * b, which part from NumPy's (1.0 // 0.1 is
    10.0, not 9.0) and from the spec's special cases (5.0 % inf is NaN, not 5.0; +0.0 % -2.0
    is +0.0, not -0.0). float16 and bfloat16 as NumPy and ml_dtypes compute them: in float32
    (CuPy's bfloat16 remainder subtracted a quotient rounded to bfloat16: 1000 % 3 was 4)."""
    dt = _result_dtype(a, b)
    wide = np.dtype(np.float32) if dt in _HALVES else dt
    # (a Python scalar as a 0-d array of the result's dtype, as NumPy converts it)
    a, b = ((zero_d(xp, v, dt) if type(v) in PYTHON_SCALARS else v).astype(wide, copy=False)
            for v in (a, b))
    q, r = _kernel(xp, "dltensor_divmod")(a, b)
    return (q, r) if wide == dt else (q.astype(dt), r.astype(dt))


# NumPy's complex division (numpy/_core/src/umath/loops.c.src, @TYPE@_divide: Smith's, a zero
# divisor dividing each part by its zero), on the parts, for a CuPy kernel. CuPy's scales by
# |c| + |d| (thrust's), so a zero or infinite divisor gave NaN + NaN j: 1 / 0j is inf + NaN j
# in NumPy, 1 / (inf + 0j) is 0j. (Read in CuPy 14.2's sources, unrun on a GPU.) Compiled with
# --fmad=false: NVRTC would fuse its a * b + c, rounding once where NumPy rounds twice.
_COMPLEX_DIVIDE = """
T cr_abs = fabs(cr);
T ci_abs = fabs(ci);
if (cr_abs >= ci_abs) {
    if (cr_abs == 0 && ci_abs == 0) {
        qr = ar / cr_abs;
        qi = ai / ci_abs;
    } else {
        T rat = ci / cr;
        T scl = (T)1 / (cr + ci * rat);
        qr = (ar + ai * rat) * scl;
        qi = (ai - ar * rat) * scl;
    }
} else {
    T rat = cr / ci;
    T scl = (T)1 / (ci + cr * rat);
    qr = (ar * rat + ai) * scl;
    qi = (ai * rat - ar) * scl;
}
"""


def divide(xp: Any, a: Any, b: Any) -> Any:
    """divide with a complex result: NumPy's complex division wherever the row's fix-up
    (special.divide) would divide as complex numbers, its own way where the divisor is a
    real array (the spec's table: each part divided by it)."""
    if type(b) not in PYTHON_SCALARS and (b.dtype in special.WHOLE or b.dtype in _HALVES) and \
            (type(a) is complex or getattr(a, "dtype", None) is not None and a.dtype.kind == "c"):
        return special.divide(xp, a, b)  # (by a float32 or float64 array: part by part)
    dt, _, _, (qr, qi) = _of_parts(xp, a, b, "dltensor_complex_divide")
    return from_parts(xp, qr, qi, dt)


def _of_parts(xp: Any, a: Any, b: Any, name: str) -> tuple[np.dtype[Any], Any, Any, Any]:
    """The result's complex dtype, ``a`` and ``b`` in it (a Python scalar as NumPy converts
    it), and the outputs of dltensor's kernel ``name`` over their parts."""
    dt = _result_dtype(a, b)
    a, b = (zero_d(xp, v, dt) if type(v) in PYTHON_SCALARS else v.astype(dt, copy=False)
            for v in (a, b))
    return dt, a, b, _kernel(xp, name)(a.real, a.imag, b.real, b.imag)


def reciprocal(xp: Any, a: Any) -> Any:
    return divide(xp, 1.0, a)  # (the spec's 1.0 / x, as special.reciprocal, by NumPy's division)


def int_power(xp: Any, a: Any, b: Any) -> Any:
    # CuPy's integer power gives 0 (or +-1) for a negative exponent where NumPy refuses it.
    # (Asking costs a GPU sync, for signed exponents only.)
    # NumPy refuses one it computes: none where either operand has no elements.
    if getattr(a, "size", 1) == 0 or getattr(b, "size", 1) == 0:
        return xp.power(a, b)
    negative = b < 0 if type(b) is int else b.dtype.kind == "i" and bool((b < 0).any())
    if negative:
        raise ValueError("Integers to negative integer powers are not allowed.")
    return xp.power(a, b)


# NumPy's complex power (npy_cpow, numpy/_core/src/npymath/npy_math_complex.c.src) where it
# does not take C's cpow: z ** 0 is 1, 0 ** w 0 or NaN + NaN j, z ** n for a whole n in
# (-100, 100) repeated products (its cmul; 1 / z ** |n| by its cdiv, Smith's); g = 1 marks
# the rest, which is C's cpow, exp(w log z) as CuPy's. CuPy takes exp(w log z) everywhere:
# 0j ** -1 was NaN + NaN j with no invalid, (inf + 1j) ** 2 NaN + NaN j, not inf + inf j,
# and (1 + 1j) ** 2 was 1.2e-16 + 2j, not 2j. (Read in CuPy 14.2's sources, unrun on a GPU;
# --fmad=false as for the division.)
_COMPLEX_POWER = """
g = 0;
if (br == 0 && bi == 0) {
    qr = 1;
    qi = 0;
} else if (ar == 0 && ai == 0) {
    qr = qi = br > 0 ? (T)0 : (T)nan("");
} else if (bi == 0 && br > -100 && br < 100 && (T)(long long)br == br) {
    long long n = (long long)br;
    T pr = ar, pi = ai, t;
    if (n == 2 || n == 3) {  // (NumPy's unrolled a * a and a * (a * a))
        qr = ar * ar - ai * ai;
        qi = ar * ai + ai * ar;
        if (n == 3) {
            t = ar * qr - ai * qi;
            qi = ar * qi + ai * qr;
            qr = t;
        }
    } else if (n == 1) {
        qr = ar;
        qi = ai;
    } else {  // (1 + 0j) times the powers of two of a that |n| has
        qr = 1;
        qi = 0;
        n = n < 0 ? -n : n;
        for (long long mask = 1;; mask <<= 1) {
            if (n & mask) {
                t = qr * pr - qi * pi;
                qi = qr * pi + qi * pr;
                qr = t;
            }
            if (n < (mask << 1)) {
                break;
            }
            t = pr * pr - pi * pi;
            pi = pr * pi + pi * pr;
            pr = t;
        }
        if (br < 0) {  // 1 / q, as the division kernel divides
            const T ar = 1, ai = 0, cr = qr, ci = qi;
""" + "\n".join(" " * 12 + line for line in _COMPLEX_DIVIDE.strip().splitlines()) + """
        }
    }
} else {
    g = 1;
    qr = qi = 0;
}
"""


# C's complex product (C11 Annex G.5.1, as GCC's __muldc3 computes it for C's cpow, exp(w log
# z)): where the plain product is NaN + NaN j and an operand is infinite, an infinity. CuPy's
# (thrust's) plain product made (inf + NaN j) ** 0.5 NaN + NaN j where NumPy's cpow gives
# inf + NaN j, the spec's exp(0.5 log(inf + NaN j)). ``inf`` is an argument: a constant
# infinity is spelt differently in NVRTC and in C.
_C_PRODUCT = """
T ac = ar * br, bd = ai * bi, ad = ar * bi, bc = ai * br;
qr = ac - bd;
qi = ad + bc;
if (isnan(qr) && isnan(qi)) {
    T a = ar, b = ai, c = br, d = bi;
    int again = 0;
    if (isinf(a) || isinf(b)) {  // a + bi a box of ones and zeros with its signs
        a = copysign(isinf(a) ? (T)1 : (T)0, a);
        b = copysign(isinf(b) ? (T)1 : (T)0, b);
        if (isnan(c)) c = copysign((T)0, c);
        if (isnan(d)) d = copysign((T)0, d);
        again = 1;
    }
    if (isinf(c) || isinf(d)) {
        c = copysign(isinf(c) ? (T)1 : (T)0, c);
        d = copysign(isinf(d) ? (T)1 : (T)0, d);
        if (isnan(a)) a = copysign((T)0, a);
        if (isnan(b)) b = copysign((T)0, b);
        again = 1;
    }
    if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {  // overflowed
        if (isnan(a)) a = copysign((T)0, a);
        if (isnan(b)) b = copysign((T)0, b);
        if (isnan(c)) c = copysign((T)0, c);
        if (isnan(d)) d = copysign((T)0, d);
        again = 1;
    }
    if (again) {
        qr = inf * (a * c - b * d);
        qi = inf * (a * d + b * c);
    }
}
"""


def complex_power(xp: Any, a: Any, b: Any) -> Any:
    """NumPy's complex power: its own products where it takes them, else C's cpow, exp(b
    log a) with C's product, from CuPy's exp and (mended) log."""
    dt, a, b, (qr, qi, g) = _of_parts(xp, a, b, "dltensor_complex_power")
    # (cpow everywhere, taken where g says: an exponent reaches here as an array, whose
    # values only a GPU sync could tell)
    w = _mended_log(xp, a, xp.log(a), a, ask=False)  # (no GPU sync)
    wr, wi = _kernel(xp, "dltensor_c_product")(b.real, b.imag, w.real, w.imag, math.inf)
    return xp.where(g != 0, xp.exp(from_parts(xp, wr, wi, dt)), from_parts(xp, qr, qi, dt))


def power(xp: Any, a: Any, b: Any) -> Any:
    kind = _result_dtype(a, b).kind
    return (complex_power if kind == "c" else int_power)(xp, a, b)


# float16 and bfloat16 (ml_dtypes')
_HALVES = {_FLOAT16}
derived(lambda: _HALVES.update(d for d in EXTENSION_FLOATS if d.itemsize == 2))


def halves_in_float32(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn(a, b, ...)`` (a product summed: matmul, vecdot, tensordot) of two float16 (or
    bfloat16) arrays computed in float32 and rounded once, as NumPy computes it (its float16
    matmul and dot add in float32: matmul.c.src, HALF_dot; ml_dtypes' have no loop, so
    dltensor's CPU path takes float32 too). Where the product is one element CuPy's
    tensordot_core rounds each product to float16 and adds in float16 (``(a * b).sum()``
    under CUB, its default accelerator, else _tensordot_core_mul_sum): [2048, 1, 1, 1, 1, 1,
    1] @ ones(7) was not 2054. (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    def f(a: Any, b: Any, /, **kwargs: Any) -> Any:
        if a.dtype == b.dtype and a.dtype in _HALVES:
            return fn(a.astype(np.float32), b.astype(np.float32), **kwargs).astype(a.dtype)
        return fn(a, b, **kwargs)
    f.__name__ = getattr(fn, "__name__", "product")
    return f


def matmul(xp: Any, a: Any, b: Any) -> Any:
    if a.dtype.kind in "iu":
        return _integer_matmul(xp, a, b)
    return halves_in_float32(xp.matmul)(a, b)


# (CuPy's integer products: a grid of at most 65,535 blocks of 128 rows or columns, and the
# elements of a matrix counted in a C int; see _integer_matmul)
_INT_MATMUL_ROWS = 1 << 22
_INT_MATMUL_ELEMENTS = (1 << 31) - 1


def _integer_matmul(xp: Any, a: Any, b: Any) -> Any:
    """An integer ``a @ b`` in blocks CuPy's kernel can take: its own kernel
    (``_integral_tensordot_core``, cupy/_core/_routines_linalg.pyx: ``int M, N, K``, a grid of
    ceil(rows / 128) by ceil(columns / 128) blocks) failed to launch past 8,388,480 rows or
    columns and indexed past a C int from 2**31 elements of a matrix. Rows of x1, columns of
    x2 or the contracted axis are halved until they fit (the last by a sum of products, which
    wraps as one sum does). (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    if a.ndim == 0 or b.ndim == 0:  # (CuPy's error)
        return xp.matmul(a, b)
    if a.ndim == 1 or b.ndim == 1:  # (vectors as one-row and one-column matrices, as PEP 465)
        r = _integer_matmul(xp, a[None, :] if a.ndim == 1 else a,
                            b[:, None] if b.ndim == 1 else b)
        r = r[..., 0] if b.ndim == 1 else r
        return r if a.ndim != 1 else r[..., 0] if b.ndim == 1 else r[..., 0, :]
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    most = _INT_MATMUL_ELEMENTS
    if m > 1 and (m > _INT_MATMUL_ROWS or m * k > most or m * n > most):
        h = m // 2
        return xp.concatenate([_integer_matmul(xp, a[..., :h, :], b),
                               _integer_matmul(xp, a[..., h:, :], b)], axis=-2)
    if n > 1 and (n > _INT_MATMUL_ROWS or k * n > most or m * n > most):
        h = n // 2
        return xp.concatenate([_integer_matmul(xp, a, b[..., :h]),
                               _integer_matmul(xp, a, b[..., h:])], axis=-1)
    if k > 1 and (m * k > most or k * n > most):
        h = k // 2
        return _integer_matmul(xp, a[..., :h], b[..., :h, :]) + \
            _integer_matmul(xp, a[..., h:], b[..., h:, :])
    return xp.matmul(a, b)


# CuPy's complex functions (thrust's, from FreeBSD's msun: cupy/_core/include/cupy/complex/)
# part from C11, NumPy and the spec at a few special values; fixed after the kernel.


_COMPLEX128 = np.dtype(np.complex128)
_NORMAL, _LARGEST = float(np.finfo(np.float64).tiny), float(np.finfo(np.float64).max)


def _mended_log(xp: Any, a: Any, r: Any, w: Any, ask: bool = True) -> Any:
    """``r``, CuPy's complex log of ``w`` (``a`` itself, or 1 + a for log1p), with its real part
    mended where CuPy's clog is wrong (one question to the GPU for both):
    - +inf where a's either part is infinite: clog takes log(x * x + y * y) when a part is
      NaN, so log(inf + NaN j) and log(NaN + inf j) were NaN + NaN j (the spec: +inf + NaN j);
    - of complex128, log|w| as log(big) + log1p((small / big)^2) / 2 of w's larger and smaller
      parts where clog takes log(hypot(x, y)) wrongly: past 2**1023 hypot overflows (clog.h
      scales where the smaller part, not the larger, is past 5e307: log(1.797e308 + 1e307j)
      was inf + 0.056j), and below the smallest normal it is a subnormal of few digits
      (log(5e-324 + 5e-324j) was 0.35 off); complex64's clogf tests the larger part. (CuPy
      14.2's headers compiled on the host, tests/cupy_complex; unrun on a GPU.)
    ``ask`` False mends without asking (no sync: for a caller that may need none of it)."""
    infinite = xp.isinf(a)
    fix = None
    if a.dtype == _COMPLEX128:
        x, y = xp.abs(w.real), xp.abs(w.imag)
        big = xp.maximum(x, y)
        fix = (big > 2.0 ** 1023) & (big <= _LARGEST) | (big > 0) & (big < _NORMAL)
    if ask and not (infinite if fix is None else infinite | fix).any():
        return r
    re = r.real
    if fix is not None:
        small = xp.minimum(x, y)
        re = xp.where(fix, xp.log(big) + xp.log1p((small / xp.where(fix, big, 1.0)) ** 2) / 2,
                      re)
    return from_parts(xp, xp.where(infinite, xp.inf, re), r.imag, a.dtype)


def log(xp: Any, a: Any) -> Any:
    return _mended_log(xp, a, xp.log(a), a)


def sqrt(xp: Any, a: Any) -> Any:
    """complex128 sqrt of a subnormal |a| from a scaled by 2**600 (and the root by 2**-300,
    both exact): CuPy's csqrt scales such a by 4 only, and its a + hypot(a, b) kept few
    digits (sqrt(5e-324 + 5e-324j) was 1.8% off). (CuPy 14.2's headers compiled on the host,
    unrun on a GPU.)"""
    r = xp.sqrt(a)
    if a.dtype != _COMPLEX128:
        return r
    big = xp.maximum(xp.abs(a.real), xp.abs(a.imag))
    fix = (big > 0) & (big < _NORMAL)
    if not fix.any():  # (one question to the GPU: cheaper than the mend's passes, always)
        return r
    # (each part scaled on its own: CuPy's complex multiply by a real, as complex, made a -0
    # imaginary part +0)
    root = xp.sqrt(from_parts(xp, a.real * 2.0 ** 600, a.imag * 2.0 ** 600, a.dtype))
    return xp.where(fix, from_parts(xp, root.real * 2.0 ** -300, root.imag * 2.0 ** -300,
                                    a.dtype), r)


def _log_times(scale: float) -> Callable[..., Any]:
    """Complex log2 or log10 as NumPy's: log z with each part times a real constant (CuPy
    divides log z by a complex one, whose NaN + NaN j where log's real part is infinite made
    log2(0j) -inf + NaN j, not -inf + 0j; read in CuPy 14.2's sources, unrun on a GPU)."""
    def f(xp: Any, a: Any) -> Any:
        r = log(xp, a)
        return from_parts(xp, r.real * scale, r.imag * scale, a.dtype)
    return f


def log1p(xp: Any, a: Any) -> Any:
    # CuPy's complex log1p is log(z + 1), the 1 added as 1 + 0j: -0j + 0j is +0j, so
    # log1p(-2.5 - 0j) was 0.41 + πj, not - πj. Its imaginary part, arg(1 + z), has the
    # sign of z's.
    r = _mended_log(xp, a, special.log1p(xp, a), from_parts(xp, a.real + 1, a.imag, a.dtype))
    return from_parts(xp, r.real, xp.copysign(r.imag, a.imag), a.dtype)


def _zero_and_nan(xp: Any, a: Any, r: Any, along_real: bool) -> Any:
    """``r`` with tanh's ±0 + NaN j where a's part along ``along_real`` is zero and the other
    infinite or NaN (its sign kept): CuPy's ctanh gives NaN + NaN j wherever the imaginary
    part is not finite (C99's old answer; C11, NumPy and the spec keep the zero). tan's, as
    for _limit_at_infinity, is tanh's rotated: NaN ± 0j where the imaginary part is zero."""
    x, y = a.real, a.imag
    zero, other = (x, y) if along_real else (y, x)
    fix = (zero == 0) & ~xp.isfinite(other)
    if fix.any():
        nan = zero + xp.nan
        r = xp.where(fix, from_parts(xp, *((zero, nan) if along_real else (nan, zero)),
                                   a.dtype), r)
    return r


def tanh(xp: Any, a: Any) -> Any:
    return _zero_and_nan(xp, a, special.tanh(xp, a), along_real=True)


def tan(xp: Any, a: Any) -> Any:
    return _zero_and_nan(xp, a, special.tan(xp, a), along_real=False)


# NumPy's shifts of 64-bit integers (npy_lshift, npy_rshift: npy_math_internal.h.src): an amount
# of 64 or more, or negative, shifts every bit out (0; -1 for a negative value shifted right).
# CuPy's kernel is C's a << b, which nvcc compiles to PTX's shl.b64 with the amount's low 32
# bits (PTX clamps those to 64): x << 2**32 was x, not 0. Narrower integers shift in 32-bit
# registers by the whole amount, as NumPy's. (Read in CuPy 14.2's sources and nvcc 13.0's
# PTX, unrun on a GPU.)
_SHIFTS = {
    "left_shift": ("dltensor_left_shift", "c = (unsigned long long)b < 64 ? (T)(a << b) : (T)0;"),
    "right_shift": ("dltensor_right_shift",
                    "c = (unsigned long long)b < 64 ? (T)(a >> b) : a < (T)0 ? (T)-1 : (T)0;")}


def _shift(ufunc: str) -> Callable[..., Any]:
    name, code = _SHIFTS[ufunc]

    def shift(xp: Any, a: Any, b: Any) -> Any:
        dt = _result_dtype(a, b)
        if dt.itemsize < 8:
            return getattr(xp, ufunc)(a, b)
        a, b = (v if type(v) in PYTHON_SCALARS else v.astype(dt, copy=False) for v in (a, b))
        return _kernel(xp, name)(a, b)
    return shift


# Every kernel dltensor gives CuPy: name: (in_params, out_params, operation, NVRTC options,
# the C types its T takes). --fmad=false where NVRTC would fuse an a * b + c of NumPy's two
# roundings into one. tests/test_cupy_kernels.py compiles each with nvcc, in CuPy's wrapper.
_FLOATS, _NO_FMA = ("float", "double"), ("--fmad=false",)
KERNELS: dict[str, tuple[str, str, str, tuple[str, ...], tuple[str, ...]]] = {
    "dltensor_divmod": ("T a, T b", "T q, T r", _DIVMOD, (), _FLOATS),
    "dltensor_complex_divide": ("T ar, T ai, T cr, T ci", "T qr, T qi", _COMPLEX_DIVIDE,
                                _NO_FMA, _FLOATS),
    "dltensor_complex_power": ("T ar, T ai, T br, T bi", "T qr, T qi, T g", _COMPLEX_POWER,
                               _NO_FMA, _FLOATS),
    "dltensor_c_product": ("T ar, T ai, T br, T bi, T inf", "T qr, T qi", _C_PRODUCT, _NO_FMA,
                           _FLOATS),
    **{name: ("T a, T b", "T c", code, (), ("long long", "unsigned long long"))
       for name, code in _SHIFTS.values()},
}


# ufunc: (dtype kinds, fn(xp, *arrays)) where CuPy's kernel departs from NumPy's (and the spec):
# used on CUDA in place of the ufunc and of a row's fix-up (which the CUDA one applies first).
DEPARTURES: dict[str, tuple[str, Callable[..., Any]]] = {
    "floor_divide": ("f", floor_divide), "remainder": ("f", remainder),
    "divide": ("c", divide), "reciprocal": ("c", reciprocal), "power": ("iuc", power),
    "log": ("c", log), "log1p": ("c", log1p), "sqrt": ("c", sqrt),
    "log2": ("c", _log_times(1.4426950408889634)), "log10": ("c", _log_times(0.4342944819032518)),
    "tanh": ("c", tanh), "tan": ("c", tan), "matmul": ("fFiu", matmul),
    "left_shift": ("iu", _shift("left_shift")), "right_shift": ("iu", _shift("right_shift")),
    # (bfloat16: CuPy's round has no loop of it, and took float32's, a float32 result; rint,
    # half to even as round, has one)
    "round": ("F", lambda xp, a: xp.rint(a)),
}
