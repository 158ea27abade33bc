"""The element-wise functions and the operators, against array-api-strict (the oracle) and the
spec's special cases.

Every function of the 2025.12 spec runs on every dtype with values that include the awkward
ones (signed zeros, infinities, NaN, integer extremes); dltensor must give the dtype and the
bits array-api-strict gives, or raise the same exception type. Where array-api-strict itself
departs from the spec (complex expm1, floor_divide with infinities), a table of the spec's
special cases decides instead.
"""

from __future__ import annotations

import importlib.util
import math
import operator
import pathlib
import re
import shutil
import subprocess
import types
import warnings
from fractions import Fraction

import array_api_strict as xs
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import dltensor as dt
from dltensor import _elementwise as ew
from dltensor import _special_cases as special
from dltensor._backends import cupy_departures
from dltensor._array import wrap
from dltensor._devices import Device
from dltensor._dtypes import SPEC_DTYPES, computable
import producers as P

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

NAMES = [d.name for d in SPEC_DTYPES]
SPEC_FUNCTIONS = [  # array-api/src/array_api_stubs/_2025_12/elementwise_functions.py __all__
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1",
    "floor", "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf",
    "isnan", "less", "less_equal", "log", "log1p", "log2", "log10", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative",
    "nextafter", "not_equal", "positive", "pow", "real", "reciprocal", "remainder", "round",
    "sign", "signbit", "sin", "sinh", "square", "sqrt", "subtract", "tan", "tanh", "trunc",
]
_REALS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.5, 3.7, -1e10, 1e-10, math.pi, math.inf,
          -math.inf, math.nan]


def sample(name: str) -> np.ndarray:
    """Awkward values of one dtype, as a 1-d NumPy array."""
    npdt = np.dtype(name)
    if name == "bool":
        return np.array([True, False, True])
    if npdt.kind in "iu":
        info = np.iinfo(npdt)
        vals = [0, 1, 2, 3, 7, 100, -1, -3, -100, info.min, info.max, info.max - 1]
        return np.array([v for v in vals if info.min <= v <= info.max], dtype=npdt)
    if npdt.kind == "f":
        return np.array(_REALS, dtype=npdt)
    re = [0.0, -0.0, 1.5, -2.0, math.inf, math.nan]
    return np.array([complex(a, b) for a in re for b in re], dtype=npdt)


def same(got, want, zero_sign: bool = True) -> None:
    """dltensor result ``got`` equals array-api-strict result ``want``: dtype, shape, bits
    (NaN equals NaN; the sign of zero counts unless ``zero_sign`` is False)."""
    g, w = np.asarray(got), np.asarray(want._array)
    assert got.dtype.name == w.dtype.name, (got.dtype, want.dtype)
    assert g.shape == w.shape
    assert_bits(g, w, zero_sign)


def assert_bits(g: np.ndarray, w: np.ndarray, zero_sign: bool = True) -> None:
    np.testing.assert_array_equal(g, w)  # treats NaN == NaN
    if zero_sign and g.dtype.kind in "fc":
        for part in ((g.real, w.real), (g.imag, w.imag)) if g.dtype.kind == "c" else [(g, w)]:
            np.testing.assert_array_equal(np.signbit(part[0]), np.signbit(part[1]) |
                                          np.isnan(part[1]) & np.signbit(part[0]))


def outcome(f, *args):
    """The result, or the type of the exception raised."""
    try:
        return f(*args)
    except Exception as e:  # noqa: BLE001 - the exception type is what is compared
        return type(e)


def agree(got, want) -> None:
    if want is OverflowError:
        return  # strict refuses ints out of the dtype's range; the spec leaves them open
    if isinstance(want, type) or isinstance(got, type):
        assert got is want or (isinstance(got, type) and isinstance(want, type)
                               and issubclass(got, want)), (got, want)
    else:
        same(got, want)


def test_every_spec_function_is_there():
    assert sorted(ew.__all__) == sorted(SPEC_FUNCTIONS)
    for name in SPEC_FUNCTIONS:
        assert callable(getattr(dt, name)), name


# --- differential: every function, every dtype (pair), against array-api-strict --------------

UNARY = sorted(ew.UNARY)
BINARY = sorted(ew.BINARY)


@pytest.mark.parametrize("func", UNARY)
def test_unary_matches_strict(func):
    for name in NAMES:
        a = sample(name)
        if func in ("expm1", "reciprocal", "sign", "tan", "tanh") and a.dtype.kind == "c":
            # At complex infinities strict (NumPy) departs from the spec here: the special-case
            # table below decides those; expm1 and reciprocal have tests of their own.
            if func in ("expm1", "reciprocal"):
                continue
            a = a[np.isfinite(a)]
        got = outcome(getattr(dt, func), dt.asarray(a.copy()))
        want = outcome(getattr(xs, func), xs.asarray(a.copy()))
        if func in ("sign", "atan", "atanh") and a.dtype.kind == "c":
            # strict divides by a complex |z|: an ulp off, and the signs of zeros lost; its
            # (NumPy's) atan and atanh are an ulp off their symmetry (tested on its own below)
            assert got.dtype.name == name
            np.testing.assert_allclose(np.asarray(got), np.asarray(want._array), rtol=1e-6)
            continue
        agree(got, want)


def test_complex_expm1_is_accurate():
    z = np.array([1e-9 + 1e-9j, 0.5 - 0.25j, -3 + 2j, 1e-5j], dtype=np.complex128)
    got = np.asarray(dt.expm1(dt.asarray(z)))
    want = np.array([_expm1_ref(v) for v in z])
    np.testing.assert_allclose(got, want, rtol=1e-14)


def test_complex_expm1_is_finite_where_only_exp_of_the_real_part_overflows():
    # (exp(x) cos y and exp(x) sin y fit past x = log of the largest float: 709.78, 88.72)
    z = np.array([709.9 + 1j, 710 + 1e-300j, 709.5 - 3j, 1000 + 1j], dtype=np.complex128)
    got = np.asarray(dt.expm1(dt.asarray(z)))
    want = [complex(1.092168192007999e308, 1.7009511788556363e308),  # (mpmath's, 30 digits)
            complex(math.inf, 2.2339947661617112e8),
            complex(-1.3414262891177418e308, -1.912156803026908e307), complex(math.inf, math.inf)]
    for part in (np.real, np.imag):  # (apart: assert_allclose subtracts complex infinities)
        np.testing.assert_allclose(part(got), part(want), rtol=1e-13)
    z = np.array([88.8 + 2j, 89 + 1e-30j], dtype=np.complex64)
    got = np.asarray(dt.expm1(dt.asarray(z)))
    assert got.dtype == np.complex64
    want = [complex(-1.5296705867600533e38, 3.3423912097293543e38),
            complex(math.inf, 4.4896128334112525e8)]
    for part in (np.real, np.imag):
        np.testing.assert_allclose(part(got), part(want), rtol=1e-6)


def test_special_case_fix_ups_on_the_cpu_warn_of_nothing_they_mend():
    # (their formulas are evaluated everywhere, then selected: NumPy's overflow and invalid
    # warnings there are about values the result does not hold)
    inf, nan = math.inf, math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e = np.asarray(dt.expm1(dt.asarray([complex(inf, nan), complex(-inf, inf)])))
        s = np.asarray(dt.sign(dt.asarray([1e308 - 1e308j, complex(inf, nan)])))
    assert math.isinf(e[0].real) and e[1] == -1 and np.isnan(s[1])
    np.testing.assert_allclose(s[0], (1 - 1j) / math.sqrt(2))


@pytest.mark.parametrize("dtype", [dt.float16, dt.float32, dt.float64])
def test_floor_divide_warns_of_the_elements_numpy_would_and_not_of_the_infinities_it_mends(
        dtype):
    # NumPy's inf // 2.0 is a NaN with an "invalid value" warning; the spec's is inf, and no
    # NaN is left to warn of. 0.0 // 0.0 and inf // inf stay NaN: NumPy's warnings, as NumPy.
    inf = math.inf
    x = dt.asarray([inf, -inf, 7.0, -1.0], dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = [x // 2.0, 2 // x, x // dt.asarray([2.0, 3.0, inf, -inf], dtype=dtype),
               dt.floor_divide(-inf, x[2:]), x[2:] // inf, x[2:] // -inf]
        # (a Python number infinite in the dtype: 1e39 in float32, 70000 in float16)
        past = {dt.float16: 70000, dt.float32: 1e39, dt.float64: inf}[dtype]
        got.append(x[2:] // past)
    assert [np.asarray(r).tolist() for r in got] == [
        [inf, -inf, 3.0, -1.0], [0.0, -0.0, 0.0, -2.0], [inf, -inf, 0.0, 0.0], [-inf, inf],
        [0.0, -0.0], [-0.0, 0.0], [0.0, -0.0]]
    assert [math.copysign(1, v) for r in got[4:] for v in np.asarray(r).tolist()] == \
        [1, -1, -1, 1, 1, -1]  # (the true quotient's zeros; NumPy's -1 // inf: -1)
    wide = dt.asarray([2.0, 2.0, 2.0, 2.0]) // x  # (float64, the promoted dtype, mended so)
    assert wide.dtype == dt.float64 and np.asarray(wide).tolist() == [0.0, -0.0, 0.0, -2.0]
    for a, b, warned in ((x, 0.0, "divide by zero"), (dt.asarray([0.0, inf], dtype=dtype),
                         dt.asarray([0.0, 1.0], dtype=dtype), "invalid value")):
        with pytest.warns(RuntimeWarning, match=warned):
            r = np.asarray(a // b)
        with np.errstate(all="raise"), pytest.raises(FloatingPointError, match=warned):
            a // b
    assert np.isnan(r[0]) and r[1] == inf


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_floor_divide_of_arrays_without_infinities_is_numpys(dtype):
    # (no infinity to mend: NumPy's floor division at once, its NaNs, signed zeros, division
    # by zero and warnings as they are)
    a = np.array([7.0, -7.0, 0.0, -0.0, math.nan, 1e-8, 3.0, -1.0], dtype)
    b = np.array([2.0, 2.0, -3.0, 5.0, 1.0, 0.0, -0.0, 0.5], dtype)
    for p, q in ((a, b), (b, a), (a[::2], b[1::2]), (a[:0], b[:0]), (np.array(a[0]), b),
                 (a.reshape(2, 4), b[:4]), (np.array(a[3]), np.array(b[5]))):
        for f in (dt.floor_divide, operator.floordiv):
            with warnings.catch_warnings(record=True) as got_warned:
                warnings.simplefilter("always")
                got = f(dt.asarray(p), dt.asarray(q))
            with warnings.catch_warnings(record=True) as warned:
                warnings.simplefilter("always")
                want = np.floor_divide(p, q)
            assert got.dtype == getattr(dt, dtype) and got.shape == want.shape
            assert_bits(np.asarray(got), np.asarray(want))
            assert [str(w.message) for w in got_warned] == [str(w.message) for w in warned]


def test_acosh_of_a_zero_and_nan_is_nan_and_a_quarter_turn():
    # (C11 and the spec: acosh(±0 + NaN j) = NaN + πj/2; CuPy's and NumPy 2.2's NaN + NaN j)
    for dtype in (dt.complex64, dt.complex128):
        r = np.asarray(dt.acosh(dt.asarray([complex(0.0, math.nan), complex(-0.0, math.nan)],
                                           dtype=dtype)))
        assert np.isnan(r.real).all()
        np.testing.assert_allclose(r.imag, math.pi / 2, rtol=1e-7)


def test_integers_divide_by_python_ints_at_the_ends_of_their_dtype():
    x = dt.asarray([127, -128], dtype=dt.int8)
    assert np.asarray(dt.divide(x, 127)).tolist() == [1.0, -128 / 127]
    assert np.asarray(dt.divide(x, -128)).tolist() == [-127 / 128, 1.0]
    for past in (128, -129):
        with pytest.raises(OverflowError):
            dt.divide(x, past)


def test_complex_log1p_is_accurate_near_zero():
    # (NumPy's is log(1 + z): 1 + 1e-20 rounds to 1)
    z = np.array([1e-20 + 0j, 1e-10 - 1e-10j, -1e-9 + 1e-12j, 0.3 + 0.1j, -0.4 - 0.2j],
                 dtype=np.complex128)
    got = np.asarray(dt.log1p(dt.asarray(z)))
    want = np.array([-_expm1_inverse(v) for v in -z])
    np.testing.assert_allclose(got, want, rtol=1e-13)
    got32 = np.asarray(dt.log1p(dt.asarray(z.astype(np.complex64))))
    np.testing.assert_allclose(got32, want, rtol=1e-6)


def test_complex_log1p_of_huge_values_is_finite_and_quiet():
    # (NumPy's takes |1 + z|, which overflowed past ~1.2e308 (1.7e38 in complex64): +inf and
    # an overflow warning, where CuPy's log(z + 1) is finite)
    import cmath
    for t, big in ((np.complex128, 1.5e308), (np.complex64, 3e38)):
        z = np.array([complex(big, big), complex(-big, 0), complex(0, -big), complex(big, 1),
                      complex(-big, -0.0), complex(big, -0.0),
                      complex(np.inf, 1), complex(1, np.nan), 0.25 + 0j], t)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = np.asarray(dt.log1p(dt.asarray(z)))
        assert got.dtype == t
        want = [cmath.log(complex(v.real + 1, v.imag)) for v in z[:6]]
        np.testing.assert_allclose(got[:6], np.array(want, t), rtol=1e-6)
        assert (np.signbit(got[:6].imag) == np.signbit(z[:6].imag)).all()  # (of -0j: -πj, -0)
        assert np.isinf(got[6].real) and np.isnan(got[7].real) and np.isclose(got[8], np.log1p(z[8]))


def _expm1_inverse(w: complex) -> complex:
    # -log1p(-w), by the Taylor series near 0 (exact to double precision here), else cmath
    import cmath
    if abs(w) < 1e-3:
        return w + w * w / 2 + w ** 3 / 3 + w ** 4 / 4
    return -cmath.log(1 - w)


def test_floor_divide_of_floats_by_python_ints_beyond_int64():
    x = dt.asarray([7.0, -3.0])
    for big in (2**64, -2**70, 10**30):
        want = np.floor_divide(np.array([7.0, -3.0]), float(big))
        assert np.asarray(x // big).tolist() == want.tolist()
        assert np.asarray(dt.floor_divide(big, x)).tolist() == \
            np.floor_divide(float(big), np.array([7.0, -3.0])).tolist()
        y = dt.asarray(x, copy=True)
        y //= big
        assert np.asarray(y).tolist() == want.tolist()


def _expm1_ref(z: complex) -> complex:
    import cmath
    if abs(z) < 1e-3:  # Taylor series: exact to double precision here
        return z + z * z / 2 + z ** 3 / 6 + z ** 4 / 24
    return cmath.exp(z) - 1


def operand(func: str, name: str) -> np.ndarray:
    """``sample(name)`` less the values strict gets wrong or the spec leaves open for
    ``func``: negative shift counts (strict raises ValueError) and, for floor_divide, the
    infinities (strict keeps NumPy's Python-style results; the special-case table has them)."""
    a = sample(name)
    if "shift" in func:
        a = a[a >= 0]
    if func == "floor_divide" and a.dtype.kind == "f":
        a = a[~np.isinf(a)]
    return a


def _binary_inputs(name1: str, name2: str, func: str):
    return operand(func, name1)[:, None], operand(func, name2)[None, :]


def _skip_scalar(func: str, s) -> bool:
    """Scalars whose results strict gets wrong or the spec leaves open (tested elsewhere)."""
    return ("shift" in func and type(s) is int and s < 0
            or func == "floor_divide" and s == math.inf)


def _complex_refused(func: str, s) -> bool:
    """A complex scalar makes the result complex: functions of real dtypes must refuse it
    (strict lets NumPy compute a complex maximum)."""
    return type(s) is complex and "complex floating" not in _category_kinds(func)


def _category_kinds(func: str) -> set:
    return {d.spec_kind for d in SPEC_DTYPES if d.numpy in ew.CATEGORIES[ew.BINARY[func][0]]}


_TABLE_OPS = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
              "divide": operator.truediv}


def spec_table(func: str, x1, x2, want, inplace: bool = False):
    """strict's result ``want``, but for add, subtract, multiply and divide with one real and
    one complex operand the spec's tables instead: each component computed with the real
    operand ((a + bj) * c = ac + bcj; c - (a + bj) = (c - a) - bj), where NumPy makes the real
    operand complex first. Per element, in float64 (exact for float32 results too). A Python
    int or float is no real operand: it is the 0-d array of the other's dtype (type_promotion.rst,
    "mixing arrays with Python scalars"), as strict takes it."""
    if func == "divide" and want is TypeError and not inplace and _integer_division(x1, x2):
        # NumPy's float64 quotients (strict refuses ints); a Python int is the 0-d array of
        # the other's dtype (NumPy would divide by any: uint8 / -1)
        dtype = next(np.asarray(v).dtype for v in (x1, x2) if type(v) is not int)
        with np.errstate(all="ignore"):
            return outcome(lambda a, b: xs.asarray(np.divide(
                *(np.asarray(v, dtype=dtype) if type(v) is int else np.asarray(v)
                  for v in (a, b)))), x1, x2)
    if func == "pow" and not isinstance(want, type) and want._array.dtype.kind == "f":
        # pow(-0, 0.5) is +0 and pow(-inf, 0.5) +inf by the spec's special cases, where
        # NumPy 2.5 takes one exponent of 0.5 as sqrt, -0 of -0 (strict's answer there)
        a, b = np.broadcast_arrays(np.asarray(x1), np.asarray(x2))
        fix = (b == 0.5) & ((a == 0) | (a == -np.inf))
        if fix.any():
            out = want._array.copy()
            out[fix] = np.abs(a[fix])
            return xs.asarray(out)
    if type(x1) in (bool, int, float) or type(x2) in (bool, int, float):
        return want
    real1, real2 = (np.asarray(v).dtype.kind != "c" for v in (x1, x2))
    if func not in _TABLE_OPS or isinstance(want, type) or real1 is real2 or \
            real1 and func == "divide":  # (c / (a + bj): the spec's "special rules")
        return want
    op = _TABLE_OPS[func]
    p, q = np.broadcast_arrays(np.asarray(x1).astype(np.complex128 if real2 else np.float64),
                               np.asarray(x2).astype(np.float64 if real2 else np.complex128))
    out = np.empty(p.shape, want._array.dtype)
    with np.errstate(all="ignore"):
        for i in np.ndindex(p.shape):
            u, v = p[i], q[i]
            if real2:
                re, im = op(u.real, v), u.imag if func in ("add", "subtract") else op(u.imag, v)
            else:
                re = op(u, v.real)
                im = {"add": v.imag, "subtract": -v.imag}.get(func, op(u, v.imag))
            out[i] = complex(*(abs(v) if v != v else v for v in (re, im)))  # (NaN: no sign)
    return xs.asarray(out)


def _integer_division(x1, x2) -> bool:
    """Whether x1 / x2 divides integers the spec promotes together (Python ints among them):
    dltensor divides them as NumPy does, in float64, where strict refuses them (the spec leaves
    the result to the library)."""
    arrays = [np.asarray(v).dtype for v in (x1, x2) if type(v) is not int]
    if not all(d.kind in "iu" for d in arrays):
        return False
    try:
        xs.result_type(*(getattr(xs, d.name) for d in arrays))
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("func", BINARY)
def test_binary_matches_strict_for_every_dtype_pair(func):
    for n1 in NAMES:
        for n2 in NAMES:
            a, b = _binary_inputs(n1, n2, func)
            got = outcome(getattr(dt, func), dt.asarray(a.copy()), dt.asarray(b.copy()))
            want = outcome(getattr(xs, func), xs.asarray(a.copy()), xs.asarray(b.copy()))
            agree(got, spec_table(func, a, b, want))


@pytest.mark.parametrize("func", list(_TABLE_OPS))
def test_one_real_operand_in_every_layout(func):
    # The spec's tables (see spec_table) for every shape the fix-up meets: a scalar or 0-d real
    # operand, one of z's shape, one broadcasting it, a non-contiguous or transposed z, 0-d z.
    zs = sample("complex128").reshape(6, 6)
    rs = np.array(_REALS[:12]).reshape(2, 6)
    for cname, rname in (("complex128", "float64"), ("complex64", "float32"),
                         ("complex64", "float64"), ("complex128", "float32")):
        z, r = zs.astype(cname), rs.astype(rname)
        for zv, rv in ((z, np.resize(r, (6, 6))), (z[:, ::2], r[:, :3]), (z.T, r[:1]),
                       (z[0, 4], r[1, 5]), (z[2, 3], r[0]), (z[::-1], r[0, 2]),
                       (z, r[:, :1, None])):
            for x1, x2 in ((zv, rv), (rv, zv)):
                got = outcome(getattr(dt, func), dt.asarray(x1), dt.asarray(x2))
                want = outcome(getattr(xs, func), xs.asarray(x1), xs.asarray(x2))
                agree(got, spec_table(func, x1, x2, want))


SCALARS = [True, False, 0, 3, -2, 2.5, -0.0, math.inf, 1j, 2 - 0.5j]


@pytest.mark.parametrize("func", BINARY)
def test_python_scalars_follow_the_spec_rules(func):
    """A scalar takes the array's dtype (complex: the complex of its precision); bool only
    with bool, float only with floating, complex only with floating arrays; TypeError else."""
    for name in NAMES:
        a = operand(func, name)
        for s in SCALARS:
            if _skip_scalar(func, s):
                continue
            for left in (True, False):
                args = (s, dt.asarray(a.copy())) if left else (dt.asarray(a.copy()), s)
                oracle = (s, xs.asarray(a.copy())) if left else (xs.asarray(a.copy()), s)
                got = outcome(getattr(dt, func), *args)
                if _complex_refused(func, s):
                    assert got is TypeError
                    continue
                want = outcome(getattr(xs, func), *oracle)
                agree(got, spec_table(func, *((s, a) if left else (a, s)), want))


def test_two_scalars_or_foreign_types_raise_type_error():
    x = dt.asarray(np.ones(3))
    for args in [(1, 2), (1.0, 2.0), (x, [1.0]), ([1.0], x), (np.float64(1), 2.0), (x, "a"),
                 (x, np.ones(3)), (x, np.datetime64(1, "D"))]:
        with pytest.raises(TypeError):
            dt.add(*args)
    with pytest.raises(TypeError):
        dt.exp(np.ones(3))


def test_clip_matches_strict():
    for name in NAMES:
        a = sample(name)
        if a.dtype.kind in "bc":
            with pytest.raises(TypeError):
                dt.clip(dt.asarray(a), 0, 1)
            continue
        for lo, hi in [(None, None), (0, None), (None, 3), (-1, 2), (0.5, 2.5), (math.nan, 1.0),
                       (-1000, 1000)]:
            if a.dtype.kind in "iu" and (isinstance(lo, float) or isinstance(hi, float)):
                with pytest.raises(TypeError):
                    dt.clip(dt.asarray(a), lo, hi)
                continue
            got = dt.clip(dt.asarray(a.copy()), lo, hi)
            want = xs.clip(xs.asarray(a.copy()), lo, hi)
            same(got, want, zero_sign=False)  # the spec leaves clip(-0.0, 0.0) open
        lo_arr = np.zeros(a.shape, a.dtype)
        same(dt.clip(dt.asarray(a.copy()), dt.asarray(lo_arr)),
             xs.clip(xs.asarray(a.copy()), xs.asarray(lo_arr)), zero_sign=False)


# --- property tests with Hypothesis's array API strategies -----------------------------------

xps = make_strategies_namespace(dt)


@st.composite
def _promotable_pair(draw):
    d1 = draw(xps.scalar_dtypes())
    d2 = draw(st.sampled_from([d for d in SPEC_DTYPES if (d1, d) in dt._dtypes.PROMOTION]))
    s1, s2 = draw(xps.mutually_broadcastable_shapes(2, max_dims=3, max_side=4)).input_shapes
    return draw(xps.arrays(d1, s1)), draw(xps.arrays(d2, s2))


def _for_strict(x1, x2):
    """array-api-strict's copies of a pair, a 0-d one beside an n-d one broadcast first. NumPy
    broadcasts it so for dltensor; strict gives it shape (1,) instead, which can send NumPy
    down another loop whose complex rounding differs (an FMA) where the result has one element."""
    a, b = np.asarray(x1), np.asarray(x2)
    if a.ndim == 0 and b.ndim:
        a = np.broadcast_to(a, b.shape)
    elif b.ndim == 0 and a.ndim:
        b = np.broadcast_to(b, a.shape)
    return xs.asarray(a), xs.asarray(b)


@settings(max_examples=150, deadline=None)
@given(pair=_promotable_pair(), func=st.sampled_from(
    ["add", "subtract", "multiply", "equal", "not_equal", "less", "greater_equal", "maximum",
     "bitwise_xor", "logical_or", "divide", "pow", "remainder", "atan2", "hypot"]))
@example(pair=(dt.asarray(3 + 2097177j, dtype=dt.complex64),  # (found by Hypothesis)
               dt.asarray([[4.9546845e15 + 256j]], dtype=dt.complex64)), func="multiply")
@example(pair=(dt.asarray(-0.0, dtype=dt.float32), dt.asarray(0.5, dtype=dt.float32)),
         func="pow")  # (found by Hypothesis under NumPy 2.5, whose one 0.5 is sqrt: -0)
def test_binary_properties(pair, func):
    x1, x2 = pair
    got = outcome(getattr(dt, func), x1, x2)
    want = outcome(getattr(xs, func), *_for_strict(x1, x2))
    agree(got, spec_table(func, np.asarray(x1), np.asarray(x2), want))
    if not isinstance(got, type):
        assert got.shape == np.broadcast_shapes(x1.shape, x2.shape)
        if func in ("add", "subtract", "multiply", "maximum", "divide", "pow"):
            integers = func == "divide" and dt.isdtype(got.dtype, "real floating") and \
                dt.isdtype(x1.dtype, "integral")  # (they divide in float64)
            assert got.dtype is (dt.float64 if integers else dt.result_type(x1, x2))


# --- operators ------------------------------------------------------------------------------

BINARY_OPERATORS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide",
                    "//": "floor_divide", "%": "remainder", "**": "pow", "&": "bitwise_and",
                    "|": "bitwise_or", "^": "bitwise_xor", "<<": "bitwise_left_shift",
                    ">>": "bitwise_right_shift", "==": "equal", "!=": "not_equal", "<": "less",
                    "<=": "less_equal", ">": "greater", ">=": "greater_equal"}


def _apply(symbol: str, a, b):
    return eval(f"a {symbol} b", {"a": a, "b": b})


def _apply_inplace(symbol: str, a, b):
    exec(f"a {symbol}= b", {}, ns := {"a": a, "b": b})
    return ns["a"]


@pytest.mark.parametrize("symbol", list(BINARY_OPERATORS))
def test_operators_match_strict(symbol):
    func = BINARY_OPERATORS[symbol]
    for n1 in NAMES:
        for n2 in NAMES:
            a, b = _binary_inputs(n1, n2, func)
            agree(outcome(_apply, symbol, dt.asarray(a.copy()), dt.asarray(b.copy())),
                  spec_table(func, a, b, outcome(_apply, symbol, xs.asarray(a.copy()),
                                                 xs.asarray(b.copy()))))
        a = operand(func, n1)
        for s in SCALARS:
            if _skip_scalar(func, s):
                continue
            for order in ((dt.asarray(a.copy()), s), (s, dt.asarray(a.copy()))):
                oracle = tuple(xs.asarray(np.asarray(v)) if isinstance(v, dt.ndarray) else v
                               for v in order)
                got = outcome(_apply, symbol, *order)
                if _complex_refused(func, s):
                    assert got is TypeError
                    continue
                agree(got, spec_table(func, *(np.asarray(v) if isinstance(v, dt.ndarray) else v
                                              for v in order), outcome(_apply, symbol, *oracle)))


@pytest.mark.parametrize("symbol", [s for s in BINARY_OPERATORS if s[-1] != "=" and s not in
                                    "<>" or s in ("<<", ">>")])
def test_inplace_operators_match_strict_and_write_in_place(symbol):
    func = BINARY_OPERATORS[symbol]
    for n1 in NAMES:
        for other in [*NAMES, *SCALARS]:
            a = operand(func, n1)
            if isinstance(other, str):
                b = operand(func, other)[2:3]
                ob, sb = dt.asarray(b.copy()), xs.asarray(b.copy())
            else:
                if _skip_scalar(func, other):
                    continue
                b = ob = sb = other
            backing = a.copy()
            x = dt.from_dlpack(backing.__dlpack__(max_version=(1, 0)))  # lazy, writable view
            got = outcome(_apply_inplace, symbol, x, ob)
            want = spec_table(func, a, b, outcome(_apply_inplace, symbol, xs.asarray(a.copy()),
                                                  sb), inplace=True)
            agree(got, want)
            if not isinstance(got, type):
                assert got is x
                assert_bits(backing, np.asarray(want._array))  # written into the memory


def test_inplace_refuses_a_dtype_change():
    i8 = dt.asarray(np.arange(3, dtype=np.int8))
    for rhs in [1.5, 1j, True, dt.asarray(np.ones(3, np.int16)), dt.asarray(np.ones(3))]:
        with pytest.raises(TypeError):
            i8 += rhs
    f32 = dt.asarray(np.ones(3, np.float32))
    with pytest.raises(TypeError):
        f32 += 1j
    with pytest.raises(TypeError):
        f32 *= dt.asarray(np.ones(3, np.float64))
    with pytest.raises(ValueError):  # nor its shape
        f32 += dt.asarray(np.ones((2, 3), np.float32))
    assert np.asarray(i8).tolist() == [0, 1, 2] and i8.dtype is dt.int8


def test_a_refused_inplace_power_writes_nothing():
    # NumPy refuses an integer to a negative power at the first such element, after writing
    # the elements before it: x **= y lost x's values there
    x = dt.asarray([2, 3, 4, 5])
    with pytest.raises(ValueError, match="negative"):
        x **= dt.asarray([2, 2, -1, 2])
    assert np.asarray(x).tolist() == [2, 3, 4, 5]
    x **= dt.asarray([2, 1, 0, 1])
    assert np.asarray(x).tolist() == [4, 3, 1, 5]


def test_inplace_refuses_read_only_arrays():
    a = np.arange(4.0)
    a.flags.writeable = False
    x = dt.from_dlpack(a)
    assert x.read_only
    for op in ("+", "*", "//", "**"):
        with pytest.raises(ValueError):
            _apply_inplace(op, x, 1.0)
    with pytest.raises(ValueError):
        x @= dt.asarray(np.ones((4, 4)))
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_inplace_operators_on_cpu_arrays_of_one_dtype_take_the_ufunc_straight(monkeypatch):
    # x += y went through the operand checks every time (3-8 us, where x + y takes ~0.5 us
    # over NumPy): CPU arrays of one dtype, and Python scalars that keep it, are written by
    # the ufunc itself, with the general way's answers
    x, y, i = dt.asarray([1.0, 2.0]), dt.asarray([0.5, 0.25]), dt.asarray([6, 3])
    ro = dt.broadcast_to(dt.asarray([1.0]), (2,))

    def general(*args):
        raise AssertionError("the general way")
    monkeypatch.setattr(ew, "_operands", general)
    x += y
    x *= 2
    x -= 0.5
    i &= 5
    i <<= 1
    i %= dt.asarray([5, 3])
    assert np.asarray(x).tolist() == [2.5, 4.0] and x.dtype == dt.float64
    assert np.asarray(i).tolist() == [3, 2] and i.dtype == dt.int64
    with pytest.raises(ValueError, match="__iadd__: this array is read-only"):
        ro += y
    with pytest.raises(ValueError):  # (NumPy's broadcast error, x kept)
        x += dt.asarray([[1.0, 2.0]])
    assert np.asarray(x).tolist() == [2.5, 4.0]
    monkeypatch.undo()
    # the rest as before: fix-ups, integer power and division, dtype changes, other types
    z = dt.asarray([complex(math.inf, -0.0)])
    z *= dt.asarray([2.0])  # (the spec's table: each part times the real operand)
    assert math.copysign(1, np.asarray(z)[0].imag) == -1
    x, i = dt.asarray([-0.0]), dt.asarray([2, 3])
    x **= 0.5
    assert math.copysign(1, np.asarray(x)[0]) == 1  # (the spec's pow, not NumPy's sqrt)
    i **= dt.asarray([2, 1])
    assert np.asarray(i).tolist() == [4, 3]
    for rhs in (1.5, dt.asarray([1.0, 1.0]), dt.asarray([1, 1], dtype=dt.uint64)):
        with pytest.raises(TypeError):
            i += rhs
    with pytest.raises(TypeError):
        i /= 2
    assert x.__iadd__("a") is NotImplemented


@pytest.mark.parametrize("op", ["+=", "**=", "<<="])
def test_an_inplace_operator_never_rebinds_to_a_number(op):
    # A number it does not take is a TypeError: Python's fallback, x = x op other, let a
    # Fraction's __rpow__ make a new array (x **= Fraction(1, 2)), the memory never written
    a = np.array([1.0, 4.0, 9.0])
    for other in (Fraction(1, 2), Fraction(3)):
        for x in (dt.asarray(a), dt.broadcast_to(dt.asarray([4.0]), (3,))):
            ns = {"x": x, "other": other}
            with pytest.raises(TypeError, match="takes dltensor arrays"):
                exec(f"x {op} other", ns)
            assert ns["x"] is x
    assert a.tolist() == [1.0, 4.0, 9.0]

    # ... while another object's reflected operator is its own, as NumPy and PyTorch leave it
    class Reflecting:
        __array_priority__ = 1000

        def __radd__(self, other):
            return "its own"
        __rpow__ = __rlshift__ = __rmatmul__ = __radd__

    for written in (op, "@="):
        ns = {"x": dt.asarray(a), "other": Reflecting()}
        exec(f"x {written} other", ns)
        assert ns["x"] == "its own"


def test_unary_operators():
    x = dt.asarray(np.array([1, -2, 3], dtype=np.int16))
    assert np.asarray(-x).tolist() == [-1, 2, -3]
    assert np.asarray(+x).tolist() == [1, -2, 3]
    assert np.asarray(abs(x)).tolist() == [1, 2, 3]
    assert np.asarray(~x).tolist() == [-2, 1, -4]
    assert np.asarray(~dt.asarray(np.array([True, False]))).tolist() == [False, True]
    with pytest.raises(TypeError):
        ~dt.asarray(np.ones(2))
    with pytest.raises(TypeError):
        -dt.asarray(np.array([True]))


def test_matmul_operator():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    x, y = dt.asarray(a), dt.asarray(b)
    np.testing.assert_array_equal(np.asarray(x @ y), a @ b)
    v = dt.asarray(np.arange(3.0))
    r = v @ v
    assert type(r) is dt.ndarray and r.shape == () and float(np.asarray(r)) == 5.0
    assert (dt.asarray(np.ones((2, 2), np.int8)) @ dt.asarray(np.ones(2, np.int16))).dtype \
        is dt.int16
    with pytest.raises(TypeError):
        x @ 2
    with pytest.raises(TypeError):
        2 @ x
    with pytest.raises(TypeError):
        x @ dt.asarray(np.ones((3, 4), np.int64))
    with pytest.raises(TypeError):
        dt.asarray(np.ones((2, 2), bool)) @ dt.asarray(np.ones((2, 2), bool))
    with pytest.raises(ValueError):
        x @ x
    with pytest.raises(ValueError):
        dt.asarray(np.array(1.0)) @ dt.asarray(np.array(1.0))
    m = dt.asarray(np.eye(3))
    p = m.data_ptr
    m @= dt.asarray(2 * np.eye(3))
    assert m.data_ptr == p and np.asarray(m).tolist() == (2 * np.eye(3)).tolist()
    # a result of another shape, or of another dtype, is refused with the reason, not written
    col = dt.ones((3, 1))
    with pytest.raises(ValueError, match=r"shape \(3, 3\)\) cannot be written into"):
        col @= dt.ones((1, 3))
    i = dt.asarray(np.eye(3, dtype=np.int32))
    with pytest.raises(TypeError, match="result would be int64, .* cannot change the int32"):
        i @= dt.asarray(np.eye(3, dtype=np.int64))
    assert np.asarray(col).tolist() == [[1.0]] * 3 and np.asarray(i).tolist() == np.eye(3).tolist()
    # the operand checks name @= as += names itself (they named __matmul__)
    for rhs, match in ((dt.ones((3, 3)), "__imatmul__: int32 and float64 have no promotion"),
                       (dt.ones((3, 3), dtype=dt.bool), "__imatmul__ takes arrays of numeric")):
        with pytest.raises(TypeError, match=match):
            i @= rhs


def test_imatmul_refuses_a_dtype_change_before_the_product(monkeypatch):
    # x @= y computed the whole product, then refused its dtype (n^3 work for an int8 (n, n)
    # @= int16 (n, n)); and a 0-d x said matmul's ValueError, where the dtypes alone decide it
    # (array-api-strict: TypeError). The promotion is checked first, as by x += y.
    calls = []
    matmul = np.matmul
    monkeypatch.setattr(np, "matmul", lambda *a, **k: calls.append(1) or matmul(*a, **k))
    x = dt.zeros((300, 300), dtype=dt.int8)
    with pytest.raises(TypeError, match="__imatmul__: the result would be int16"):
        x @= dt.ones((300, 300), dtype=dt.int16)
    with pytest.raises(TypeError, match="__imatmul__: the result would be int16"):
        x0 = dt.asarray(np.int8(1))
        x0 @= dt.ones(3, dtype=dt.int16)
    assert calls == []
    y = dt.ones((300, 300), dtype=dt.int16)
    y @= dt.ones((300, 300), dtype=dt.int8)  # (a promotion to x's dtype is computed)
    assert calls and int(y[0, 0]) == 300


def test_imatmul_refuses_a_shape_change_before_the_product(monkeypatch):
    # (n, 1) @= (1, n) computed the n * n product to refuse it: 8 TiB here, or a MemoryError
    # in place of the ValueError. Shapes that do not multiply keep the product's own error.
    calls = []
    matmul = np.matmul
    monkeypatch.setattr(np, "matmul", lambda *a, **k: calls.append(1) or matmul(*a, **k))
    n = 2**20
    col, row = dt.ones((n, 1)), dt.ones((1, n))
    with pytest.raises(ValueError, match=rf"result \(float64, shape \({n}, {n}\)\) cannot be"):
        col @= row
    for x, y in (((3, 3), (2, 3, 3)), ((3,), (1, 3, 3)), ((2, 3), (3,)), ((1, 2, 2), (3, 2, 2))):
        with pytest.raises(ValueError, match="cannot be written into"):
            z = dt.ones(x)
            z @= dt.ones(y)
    assert calls == []
    with pytest.raises(ValueError):  # (NumPy's words: a mismatch in its core dimension)
        z = dt.ones((2, 3))
        z @= dt.ones((2, 3))
    z = dt.ones((2, 3, 3))
    z @= dt.asarray(np.full((1, 3, 3), 2.0))  # (a stack broadcast into x's is computed)
    assert calls and np.asarray(z).tolist() == np.full((2, 3, 3), 6.0).tolist()
    b = dt.ones((2, 1), dtype=dt.bool)  # (the product's dtype error first, as before)
    with pytest.raises(TypeError, match="takes arrays of numeric dtypes, not bool"):
        b @= dt.ones((1, 2), dtype=dt.bool)
    pinned = dt.from_dlpack(P.from_numpy(np.ones((1, 2**12)), device=(P.CUDA_HOST, 0)))
    calls.clear()
    with pytest.raises(ValueError, match=r"result \(float64, shape \(4096, 4096\)\) cannot be"):
        col = dt.ones((2**12, 1))
        col @= pinned  # (pinned memory computes with the CPU's: refused before it too)
    assert calls == []


def test_imatmul_of_every_small_pair_of_shapes_keeps_the_shape_or_refuses_before_the_product(
        monkeypatch):
    # Every pair of shapes of up to 3 axes of 1 to 3 (and of 4 and 5 of 1 and 2): where
    # NumPy's product keeps x's shape it is written; where it has another, refused before
    # computing it, naming that shape; where the shapes do not multiply, the product's own
    # ValueError.
    import itertools
    calls = []
    matmul = np.matmul
    monkeypatch.setattr(np, "matmul", lambda *a, **k: calls.append(1) or matmul(*a, **k))
    shapes = [s for n in range(1, 4) for s in itertools.product((1, 2, 3), repeat=n)] + \
        [s for n in (4, 5) for s in itertools.product((1, 2), repeat=n)] + \
        [(2, 1, 3, 3), (3, 1, 3, 3), (3, 2, 1, 3, 3), (2, 2, 1, 3, 3)]  # (stacks apart afar)
    for s, o in itertools.product(shapes, repeat=2):
        try:
            want = matmul(np.ones(s), np.ones(o)).shape
        except ValueError:
            want = None
        x = dt.ones(s)
        calls.clear()
        if want == s:
            x @= dt.ones(o)
            assert calls and np.asarray(x).tolist() == np.full(s, float(o[-2] if len(o) > 1
                                                                         else o[0])).tolist()
            continue
        with pytest.raises(ValueError) as e:
            x @= dt.ones(o)
        assert (calls == []) == (want is not None), (s, o, want, str(e.value))
        assert want is None or f"shape {want})" in str(e.value), (s, o, want, str(e.value))


def test_operators_meet_sequences_numpy_scalars_and_fresh_imports():
    x = dt.asarray([1.0, 2.0])
    # == with a list or tuple: TypeError as for +, not Python's identity answer (False)
    for other in ([1, 2], (1, 2)):
        for compare in (operator.eq, operator.ne):
            with pytest.raises(TypeError, match="takes dltensor arrays and Python scalars"):
                compare(x, other)
    # an import not yet computed on, on the right of the fast path
    y = dt.from_dlpack(P.from_numpy(np.array([2.0, 3.0])))
    assert y._array is None and np.asarray(x + y).tolist() == [3.0, 5.0]
    # clip takes NumPy's scalars as the Python numbers they are
    assert np.asarray(dt.clip(x, min=np.float64(1.5), max=np.float32(1.75))).tolist() == \
        [1.5, 1.75]
    ints = dt.clip(dt.asarray([1, 5]), min=np.int64(2), max=np.uint8(4))
    assert ints.dtype == dt.int64 and np.asarray(ints).tolist() == [2, 4]
    # no array at all: the error names the operand that is no Python scalar, on either side
    for args, word in (((1, "a"), "not str"), (("a", 1), "not str"), (([1], 2), "not list"),
                       ((2.0, [1]), "not list"), ((1, 2), "at least one array")):
        with pytest.raises(TypeError, match=word):
            dt.add(*args)


def test_comparison_with_foreign_types_is_not_implemented():
    x = dt.asarray(np.arange(3.0))
    assert x.__eq__("a") is NotImplemented and x.__ne__(None) is NotImplemented
    assert (x == "a") is False and (x != None) is True  # noqa: E711
    # NumPy's str_ and bytes_ are strings: foreign too (they raised TypeError)
    assert (x == np.str_("a")) is False and (x != np.bytes_(b"a")) is True
    assert x.__add__("a") is NotImplemented and x.__radd__([1]) is NotImplemented
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x < "a"
    # NumPy's number scalars are scalars (tests/api/test_argument_types.py); its arrays are
    # refused by the operator itself, as NumPy would answer in confusing words
    assert (x + np.float64(1.0)).dtype == dt.float64
    with pytest.raises(TypeError, match="numpy.ndarray"):
        x + np.ones(3)


def test_equality_with_numbers_no_scalar_stands_for_is_refused_as_plus_is():
    # (left to Python, x == Fraction(1, 2) was False for x holding 0.5, where NumPy says True
    # and array-api-strict raises TypeError; + and < raise Python's TypeError)
    from decimal import Decimal
    from fractions import Fraction
    x = dt.asarray([0.5])
    for number in (Fraction(1, 2), Decimal("0.5")):
        for compare in (operator.eq, operator.ne, lambda a, b: b == a, dt.equal):
            with pytest.raises(TypeError, match="convert it to a Python int, float or complex"):
                compare(x, number)
        with pytest.raises(TypeError):
            x + number
    assert np.asarray(x == float(Fraction(1, 2))).tolist() == [True]


def test_a_complex_subclass_is_the_value_it_holds_in_every_call():
    # (operators, full, setitem and `in` read it through its __complex__, asarray and where
    # by its value: x + c added 99j where NumPy and PyTorch add 1+2j)
    class C(complex):
        def __complex__(self):
            return 99j

    c, x = C(1 + 2j), dt.asarray([1 + 2j, 0j])
    y = dt.zeros(2, dtype=dt.complex128)
    y[0] = c
    for got, want in ((x + c, [2 + 4j, 1 + 2j]), (c * x, [-3 + 4j, 0j]),
                      (x == c, [True, False]), (dt.full(2, c), [1 + 2j] * 2),
                      (y, [1 + 2j, 0j]), (dt.asarray(c), 1 + 2j)):
        assert np.asarray(got).tolist() == want
    assert c in x


def test_results_are_ndarrays_on_the_inputs_device():
    x0 = dt.asarray(np.array(2.0))
    for r in (dt.exp(x0), x0 + x0, x0 + 1, 1 - x0, x0 < x0, dt.floor_divide(x0, x0)):
        assert type(r) is dt.ndarray and type(r._array) is np.ndarray and r.shape == ()
        assert r.device == dt.asarray(np.ones(1)).device
    host = Device(3, 0)  # pinned memory: CPU-readable, computed by NumPy, another device
    h = wrap(np.arange(3.0), host)
    # NumPy's results are ordinary (pageable) host memory: labelled cuda_host, a GPU consumer
    # would take them for pinned memory it can read from kernels.
    for r in (h + h, dt.exp(h), h * 2.0, 2.0 * h, dt.clip(h, 0, 1), h @ h, dt.sum(h),
              dt.sort(h)):
        assert r.device == dt.asarray(np.ones(1)).device
    # and pinned memory computes with CPU memory (PyTorch's pinned tensors are CPU tensors)
    assert (h + dt.asarray(np.arange(3.0))).device == dt.asarray(np.ones(1)).device
    assert dt.add(dt.asarray(np.arange(3.0)), h).device == dt.asarray(np.ones(1)).device
    with pytest.raises(ValueError, match="different devices"):
        h + wrap(np.arange(3.0), Device(8, 0))  # (metal: never computed, refused first)
    h2 = wrap(np.arange(3.0), Device(3, 0))  # an equal, not identical, Device
    assert (h + h2).device == dt.asarray(np.ones(1)).device


def test_lazy_imported_arrays_compute():
    backing = np.arange(4.0)
    x = dt.from_dlpack(backing.__dlpack__(max_version=(1, 0)))
    assert x._array is None
    assert np.asarray(x + x).tolist() == [0.0, 2.0, 4.0, 6.0]
    y = dt.from_dlpack(backing.__dlpack__(max_version=(1, 0)))
    assert np.asarray(dt.sqrt(y)).tolist() == np.sqrt(backing).tolist()


# --- the spec's special cases, value by value --------------------------------------------------

inf, nan = math.inf, math.nan
SPECIAL_CASES = [  # (function, arguments, the spec's result)
    ("floor_divide", (1.0, inf), 0.0), ("floor_divide", (-1.0, inf), -0.0),
    ("floor_divide", (1.0, -inf), -0.0), ("floor_divide", (-1.0, -inf), 0.0),
    ("floor_divide", (0.0, inf), 0.0), ("floor_divide", (-0.0, inf), -0.0),
    ("floor_divide", (inf, 2.0), inf), ("floor_divide", (inf, -2.0), -inf),
    ("floor_divide", (-inf, 2.0), -inf), ("floor_divide", (-inf, -2.0), inf),
    ("floor_divide", (inf, inf), nan), ("floor_divide", (0.0, 0.0), nan),
    ("floor_divide", (1.0, 0.0), inf), ("floor_divide", (1.0, -0.0), -inf),
    ("floor_divide", (-1.0, 0.0), -inf), ("floor_divide", (-0.0, 1.0), -0.0),
    ("floor_divide", (7.0, 2.0), 3.0), ("floor_divide", (-7.0, 2.0), -4.0),
    ("floor_divide", (nan, inf), nan), ("floor_divide", (inf, nan), nan),
    ("remainder", (1.0, inf), 1.0), ("remainder", (-1.0, inf), inf),
    ("remainder", (1.0, -inf), -inf), ("remainder", (-1.0, -inf), -1.0),
    ("remainder", (inf, 2.0), nan), ("remainder", (-0.0, 2.0), 0.0),
    ("remainder", (0.0, -2.0), -0.0), ("remainder", (5.0, 0.0), nan),
    ("remainder", (-7.0, 2.0), 1.0),
    ("expm1", (0j,), 0j), ("expm1", (complex(-0.0, 0.0),), 0j),
    ("expm1", (complex(inf, 0.0),), complex(inf, 0.0)),
    ("expm1", (complex(-inf, 1.0),), complex(-1.0, 0.0)),
    ("expm1", (complex(inf, inf),), complex(inf, nan)),
    ("expm1", (complex(inf, nan),), complex(inf, nan)),
    ("expm1", (complex(-inf, inf),), complex(-1.0, 0.0)),
    ("expm1", (complex(-inf, nan),), complex(-1.0, 0.0)),
    ("expm1", (complex(nan, 0.0),), complex(nan, 0.0)),
    ("expm1", (complex(nan, 1.0),), complex(nan, nan)),
    ("expm1", (complex(1.0, inf),), complex(nan, nan)),
    ("expm1", (complex(2.0, nan),), complex(nan, nan)),
    ("sign", (complex(inf, nan),), complex(nan, nan)),
    ("sign", (complex(nan, 0.0),), complex(nan, nan)), ("sign", (complex(-0.0, -0.0),), 0j),
    ("sign", (complex(3.0, 4.0),), complex(0.6, 0.8)), ("sign", (-0.0,), 0.0),
    ("sign", (nan,), nan), ("sign", (-2.0,), -1.0),
    ("add", (-0.0, -0.0), -0.0), ("add", (-0.0, 0.0), 0.0), ("add", (inf, -inf), nan),
    ("multiply", (-0.0, 5.0), -0.0), ("divide", (1.0, -0.0), -inf),
    ("pow", (nan, 0.0), 1.0), ("pow", (1.0, nan), 1.0), ("pow", (-1.0, inf), 1.0),
    ("pow", (-0.0, -3.0), -inf), ("pow", (-0.0, 0.5), 0.0), ("pow", (-inf, 0.5), inf),
    ("pow", (-inf, 3.0), -inf), ("pow", (-0.0, 3.0), -0.0),
    ("tanh", (complex(inf, 3.0),), complex(1.0, 0.0)),
    ("tanh", (complex(inf, -3.0),), complex(1.0, -0.0)),
    ("tanh", (complex(-inf, 3.0),), complex(-1.0, 0.0)),
    ("tanh", (complex(nan, 0.0),), complex(nan, 0.0)),
    ("tan", (complex(3.0, inf),), complex(0.0, 1.0)),
    ("tan", (complex(-3.0, -inf),), complex(-0.0, -1.0)),
    # one real operand: each component computed with it (NumPy: inf * 0 = NaN, -0 + 0 = 0)
    ("multiply", (complex(inf, 0.0), 2.0), complex(inf, 0.0)),
    ("multiply", (2.0, complex(1.0, inf)), complex(2.0, inf)),
    ("multiply", (complex(-0.0, -0.0), 2.0), complex(-0.0, -0.0)),
    ("divide", (complex(inf, 0.0), 2.0), complex(inf, 0.0)),
    ("divide", (complex(1.0, inf), -0.0), complex(-inf, -inf)),
    ("add", (complex(-0.0, -0.0), -0.0), complex(-0.0, -0.0)),
    ("add", (1.0, complex(inf, -0.0)), complex(inf, -0.0)),
    ("subtract", (complex(1.0, -0.0), 1.0), complex(0.0, -0.0)),
    ("subtract", (0.0, complex(0.0, 0.0)), complex(0.0, -0.0)),
    ("maximum", (nan, 1.0), nan), ("minimum", (1.0, nan), nan),
    ("sqrt", (-0.0,), -0.0), ("round", (2.5,), 2.0), ("round", (-0.5,), -0.0),
    ("round", (complex(2.5, -1.5),), complex(2.0, -2.0)), ("ceil", (-0.5,), -0.0),
    ("trunc", (-0.5,), -0.0), ("hypot", (inf, nan), inf), ("atan2", (0.0, -0.0), math.pi),
    ("copysign", (1.0, -0.0), -1.0), ("nextafter", (0.0, 1.0), 5e-324),
    ("logaddexp", (inf, inf), inf), ("signbit", (-0.0,), True), ("signbit", (nan,), False),
]


@pytest.mark.parametrize("func, args, expected", SPECIAL_CASES,
                         ids=[f"{f}{a}" for f, a, _ in SPECIAL_CASES])
def test_special_case(func, args, expected):
    arrays = [dt.asarray(np.array(v, np.complex128 if type(v) is complex else np.float64))
              for v in args]
    calls = [arrays] if len(arrays) == 1 else [arrays, [arrays[0], args[1]], [args[0], arrays[1]]]
    if len({type(v) for v in args}) == 2:  # (a real Python scalar: SCALAR_CASES below)
        calls = [arrays, [arrays[0], args[1]] if type(args[1]) is complex else
                 [args[0], arrays[1]]]
    for call in calls:  # arrays, and a Python scalar on either side
        r = np.asarray(getattr(dt, func)(*call))
        assert_bits(r[None], np.array([expected], dtype=r.dtype))


# A Python int or float beside a complex array is the 0-d array of the array's dtype, c + 0j,
# not a real operand ("mixing arrays with Python scalars", type_promotion.rst): x + 1.0 was
# computed by the real-operand table, keeping a -0j that x + asarray(1.0, dtype=x.dtype) makes +0j.
SCALAR_CASES = [
    ("add", (complex(1.0, -0.0), 1.0), complex(2.0, 0.0)),
    ("add", (-0.0, complex(-0.0, -0.0)), complex(-0.0, 0.0)),
    ("subtract", (3.0, complex(1.0, 0.0)), complex(2.0, 0.0)),
    ("subtract", (complex(1.0, -0.0), 1), complex(0.0, -0.0)),
    ("multiply", (complex(1.0, 0.0), -1.0), complex(-1.0, 0.0)),
    ("multiply", (2, complex(-0.0, -0.0)), complex(0.0, -0.0)),
    ("divide", (complex(-0.0, 1.0), 2.0), complex(0.0, 0.5)),
]


@pytest.mark.parametrize("func, args, expected", SCALAR_CASES,
                         ids=[f"{f}{a}" for f, a, _ in SCALAR_CASES])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_a_python_real_scalar_takes_the_complex_arrays_dtype(func, args, expected, dtype):
    at = 0 if type(args[0]) is complex else 1
    z = dt.asarray(np.array([args[at]], dtype))
    s = args[1 - at]
    for c in (s, dt.asarray(np.array(s, dtype))):  # the scalar, and the 0-d array it stands for
        r = getattr(dt, func)(*((z, c) if at == 0 else (c, z)))
        assert_bits(np.asarray(r), np.array([expected], dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_by_a_broadcast_half_keeps_the_spec_special_cases(dtype):
    # NumPy's power loop takes sqrt for an exponent of stride 0 too (a broadcast 0.5):
    # sqrt(-0) is -0 and sqrt(-inf) NaN, where the spec's pow gives +0 and +inf
    base = dt.asarray(np.array([-0.0, -math.inf, 4.0, 0.0], dtype))
    half = dt.broadcast_to(dt.asarray(np.array([0.5], dtype)), (4,))
    want = np.array([0.0, math.inf, 2.0, 0.0], dtype)
    assert_bits(np.asarray(dt.pow(base, half)), want)
    assert_bits(np.asarray(base ** half), want)
    grid = dt.broadcast_to(dt.asarray(np.array([0.5, 2.0], dtype)), (2, 2))
    got = np.asarray(dt.pow(dt.asarray(np.array([[-0.0], [-math.inf]], dtype)), grid))
    assert_bits(got, np.array([[0.0, 0.0], [math.inf, math.inf]], dtype))



@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16"])
def test_pow_by_two_is_the_power_to_the_bit(dtype):
    # x ** 2 is NumPy's square (as NumPy's own ** is): the values and signs of power's, in
    # every float dtype
    dtype = getattr(dt, dtype)
    values = [-0.0, 0.0, math.inf, -math.inf, math.nan, 1.5, -3.0, 1e-30, 3e38, -7e300]
    # (computable: bfloat16's .numpy is None until ml_dtypes' floats join, as when run alone)
    a = np.asarray(dt.asarray(values, dtype=dt.float64)).astype(computable(dtype))
    x = dt.asarray(a)
    with np.errstate(all="ignore"):
        want = np.power(a.astype(np.float64), 2).astype(a.dtype)
        for got in (x ** 2, dt.pow(x, 2), dt.pow(x, 2.0), dt.pow(x, dt.asarray(2, dtype=dtype))):
            _bits_equal(np.asarray(got).astype(np.float64), want.astype(np.float64))
    assert_bits(np.asarray(dt.asarray(a[:1]) ** 2), want[:1])  # (a 0-d result made an array)
    assert_bits(np.asarray(dt.asarray(a[1]) ** 2), want[1])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_pow_by_a_half_of_zeros_and_negatives_keeps_the_spec_special_cases(dtype):
    # The -0 and -inf NumPy's sqrt gets wrong are asked of the sign bits: +0 (arange's, relu's)
    # needs no mending, a negative does (NaN as before, beside a -0 made +0). Without a sign
    # bit, x ** 0.5 is NumPy's sqrt, as NumPy's own ** (and np.power's loop from NumPy 2.3;
    # before, C's pow, a last bit apart for some values) computes it
    for values, want in (([0.0, 1.0, 4.0], [0.0, 1.0, 2.0]),
                         ([-1.0, -0.0, 4.0, -math.inf], [math.nan, 0.0, 2.0, math.inf])):
        x = dt.asarray(np.array(values, dtype))
        with np.errstate(invalid="ignore"):
            assert_bits(np.asarray(x ** 0.5), np.array(want, dtype))
    rng = np.random.default_rng(3)
    a = (rng.random(5000) * 10.0 ** rng.integers(-40, 40, 5000)).astype(dtype)
    a[:4] = [0.0, math.inf, math.nan, np.finfo(dtype).smallest_subnormal]
    with np.errstate(over="ignore"):
        for got in (dt.asarray(a) ** 0.5, dt.pow(dt.asarray(a), 0.5), dt.asarray(a[5]) ** 0.5):
            want = a ** 0.5 if got.ndim else a[5] ** 0.5
            assert_bits(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_by_a_half_the_ufunc_broadcasts_keeps_the_spec_special_cases(dtype):
    # An exponent broadcast by power itself (shape (2, 1) beside a base of (1, 3)) is of
    # stride 0 along NumPy's loop too, so NumPy took sqrt: -0.0 ** 0.5 was -0.0, -inf ** 0.5 NaN
    base = dt.asarray(np.array([[-0.0, -math.inf, 4.0]], dtype))
    exps = dt.asarray(np.array([[0.5], [2.0]], dtype))
    want = np.array([[0.0, math.inf, 2.0], [0.0, math.inf, 16.0]], dtype)
    with np.errstate(invalid="ignore"):
        assert_bits(np.asarray(dt.pow(base, exps)), want)
        assert_bits(np.asarray(base ** exps), want)
        # (a base of one axis less: the exponent's rows each repeated along the loop)
        got = dt.pow(dt.reshape(base, (3,)), dt.asarray(np.array([[0.5], [0.5]], dtype)))
        assert_bits(np.asarray(got), np.stack([want[0], want[0]]))

def test_clip_with_a_nan_bound_keeps_the_broadcast_shape():
    # A NaN max made the result x's shape, dropping the axes an array min had broadcast in
    # (found by a differential fuzz against array-api-strict)
    x, lo = dt.asarray(np.array([1.0, 2.0])), dt.asarray(np.array([[0.0], [1.0]]))
    for got, shape in ((dt.clip(x, lo, math.nan), (2, 2)), (dt.clip(x, math.nan, lo), (2, 2)),
                       (dt.clip(dt.asarray(1.0), lo, math.nan), (2, 1)),
                       (dt.clip(x, None, math.nan), (2,))):
        assert got.shape == shape and np.isnan(np.asarray(got)).all()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_clip_of_floats_by_python_bounds_keeps_dtype_zeros_nans_and_0d(dtype):
    # (clip's fast path, NumPy's clip ufunc: an int bound is a float, an absent one infinite,
    # a 0-d x a 0-d array, where the ufunc returns a NumPy scalar)
    x = dt.asarray(np.array([-0.0, 0.0, 1.5, math.nan, -math.inf], dtype))
    assert_bits(np.asarray(dt.clip(x, 0, 1.0)), np.array([-0.0, 0.0, 1.0, math.nan, 0.0], dtype))
    assert_bits(np.asarray(dt.clip(x, max=-0.0)),
                np.array([-0.0, 0.0, -0.0, math.nan, -math.inf], dtype))
    z = dt.clip(dt.asarray(np.array(-0.0, dtype)), 0.0, 1)
    assert type(z) is dt.ndarray and z.shape == () and z.dtype == getattr(dt, dtype)
    assert_bits(np.asarray(z + 1), np.array(1.0, dtype))
    with pytest.raises(OverflowError):
        dt.clip(x, 10 ** 400)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "uint64"])
def test_clip_of_ints_by_python_bounds_clamps_the_bounds_to_the_dtype(dtype):
    # (clip's fast path, NumPy's clip ufunc, which takes no Python int outside the dtype)
    info = np.iinfo(dtype)
    x = dt.asarray(np.array([info.min, 0, 3, info.max], dtype))
    want = np.array([max(info.min, -1), 0, 3, 4], dtype)
    assert_bits(np.asarray(dt.clip(x, -(2 ** 70), 2 ** 70)), np.asarray(x))
    assert_bits(np.asarray(dt.clip(x, -1, 4)), want)
    assert_bits(np.asarray(dt.clip(x, 5, -(2 ** 70))), np.full(4, info.min, dtype))
    z = dt.clip(dt.asarray(np.array(7, dtype)), None, 2 ** 64)
    assert type(z) is dt.ndarray and z.shape == () and z.dtype == getattr(dt, dtype)
    assert int(z + 1) == 8
    with pytest.raises(TypeError):
        dt.clip(x, 1.0)


@pytest.mark.parametrize("dtype, big", [("complex128", 1.7976931348623157e308),
                                        ("complex64", 3.4e38)])
def test_complex_sign_of_huge_and_subnormal_values_is_on_the_unit_circle(dtype, big):
    # a / abs(a): abs overflowed (1e308 - 1e308j gave -1j) or rounded to one part (5e-324 +
    # 5e-324j gave 1 + 1j); the spec's sign is x / |x|, of modulus 1. NumPy's sign takes hypot,
    # which overflowed where its abs rounds down (1.797e308 + 3e300j gave 1j)
    tiny = float(np.finfo(np.float32 if dtype == "complex64" else np.float64).smallest_subnormal)
    for v in (complex(big, -big), complex(-big, big / 3), complex(tiny, tiny),
              complex(3 * tiny, -tiny), complex(big, 0.0), complex(0.0, -tiny),
              complex(-big * 0.6, big * 0.6),
              complex(np.finfo(dtype).max, 1e35 if dtype == "complex64" else 3e300)):
        m = max(abs(v.real), abs(v.imag))
        w = complex(v.real / m, v.imag / m)
        want = w / abs(w)
        # alone, among ordinary values, and so in a strided view (found by each its own pass)
        mixed = np.array([[1 + 2j, v, -3j], [0j, 4.0, v]], dtype)
        for x, at in ((np.array(v, dtype), ()), (mixed, (0, 1)), (mixed.T, (1, 0)),
                      (mixed[:, 1::-1], (0, 0))):
            got = np.asarray(dt.sign(dt.asarray(x)))
            r = complex(got[at])
            assert abs(abs(r) - 1) < 1e-6 and abs(r - want) < 1e-6, (v, x, r, want)
            ordinary = x != v
            assert (got[ordinary] == np.sign(x[ordinary])).all(), (v, x, got)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sign_with_an_infinite_part_is_the_specs_division_by_abs(dtype):
    # Past its two special cases the spec's sign is x / |x| "according to the rules of complex
    # number division": a complex by a real (|x| = inf), part by part (divide's table), NaN for
    # an infinite part, a zero of its sign for a finite one, as dltensor's divide(x, abs(x))
    # gives. It gave NumPy's direction: sign(inf + 1j) 1 + 0j, sign(1 - inf j) -1j.
    inf = math.inf
    z = np.array([complex(inf, 1), complex(1, -inf), complex(-inf, -2), complex(-0.0, inf),
                  complex(inf, 0), complex(inf, -inf), complex(inf, math.nan)], dtype)
    got = np.from_dlpack(dt.sign(dt.asarray(z)))
    x = dt.asarray(z[:-1])
    assert_bits(np.from_dlpack(dt.divide(x, dt.abs(x))), got[:-1])  # (NaNs: of either sign)
    nan_parts = [(True, False), (False, True), (True, False), (False, True), (True, False),
                 (True, True), (True, True)]
    assert [(bool(np.isnan(r.real)), bool(np.isnan(r.imag))) for r in got] == nan_parts
    finite = [p for r, (a, b) in zip(got, nan_parts) for p, nan in ((r.real, a), (r.imag, b))
              if not nan]
    assert [bool(np.signbit(p)) for p in finite] == [False, False, True, True, False]
    assert all(p == 0 for p in finite)  # (zeros: a finite part over |x| = inf)


def test_clip_special_cases():
    nan_x = dt.clip(dt.asarray(np.array([nan, 0.5])), 0.0, 1.0)
    assert np.isnan(np.asarray(nan_x)[0])
    nan_min = dt.clip(dt.asarray(np.array([0.5])), dt.asarray(np.array([nan])), 1.0)
    assert np.isnan(np.asarray(nan_min)[0])
    assert dt.clip(dt.asarray(np.array([5], np.int8)), 0, 1000).dtype is dt.int8


# --- ml_dtypes' floats compute like float16 (NumPy calls most of them kind "V", e5m2 "f") ---

def _ml(values, name):
    import ml_dtypes
    return dt.asarray(np.array(values, dtype=getattr(ml_dtypes, name)))


@pytest.mark.parametrize("name", ["bfloat16", "float8_e5m2"])  # (e4m3fn has no infinity)
def test_extension_floats_take_the_floor_divide_special_cases(name):
    # The fix-ups were chosen by NumPy's kind "f": -1 // inf gave -1, inf // 1 gave NaN.
    x = _ml([-1.0, 1.0], name)
    got = np.from_dlpack(dt.astype(x // math.inf, dt.float32))
    assert got.tolist() == [-0.0, 0.0] and math.copysign(1, got[0]) == -1
    assert np.from_dlpack(dt.astype(math.inf // x, dt.float32)).tolist() == [-math.inf,
                                                                             math.inf]


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_extension_floats_take_python_scalars_and_keep_their_dtype(name):
    # float8_e5m2 (NumPy kind "f") refused every Python scalar; ints past int64 were a TypeError.
    x = _ml([1.0, 2.0], name)
    for r in (x * 2, x + 0.5, 2 - x, dt.clip(x, 0, 1)):
        assert r.dtype == x.dtype
    assert np.from_dlpack(x == 1.0).tolist() == [True, False]
    assert dt.result_type(x, 1.0) == x.dtype
    assert (x < 10**20).dtype == dt.bool
    assert (x @ x).dtype == x.dtype  # (NumPy's matmul makes float32 of them)
    m = _ml([[1.0, 0.0], [0.0, 1.0]], name)
    m @= m
    assert m.dtype == x.dtype


@pytest.mark.parametrize("op", ["__ifloordiv__", "__ipow__", "__iadd__"])
def test_in_place_ops_refuse_a_broadcast_that_changes_the_shape(op):
    # The fix-up path (floor_divide, pow of floats) copied a (1, 3) result into (3,) silently.
    x = dt.asarray([1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        getattr(x, op)(dt.asarray([[2.0, 2.0, 2.0]]))
    assert np.from_dlpack(x).tolist() == [1.0, 2.0, 3.0]


def test_in_place_ops_refuse_a_shape_change_before_computing():
    # The fix-up path computed the whole broadcast result, then refused its shape: x //= y of
    # (1, 1000) and (1000, 1000) floats made 8 MB first, and an int x **= y met NumPy's error
    # for a negative exponent before its own. The shapes decide it; they are checked first.
    import tracemalloc
    x, y = dt.ones((1, 1000)), dt.ones((1000, 1000))
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"result's shape \(1000, 1000\) is not the array's"):
            x //= y
        assert tracemalloc.get_traced_memory()[1] < 2**20
    finally:
        tracemalloc.stop()
    i = dt.ones((1, 3), dtype=dt.int32)
    with pytest.raises(ValueError, match=r"__ipow__: the result's shape \(3, 3\)"):
        i **= dt.full((3, 3), -1, dtype=dt.int32)


def test_real_and_complex_operands_of_64_dimensions():
    # (the fix-up viewed z as pairs along one more axis: past 64, ValueError or IndexError)
    sh = (1,) * 63 + (2,)
    x, z = dt.full(sh, 2.0), dt.full(sh, complex(math.inf, -0.0))
    z64 = dt.full(sh, 3 - 0j, dtype=dt.complex64)
    x2, z2 = dt.full((2,), 2.0), dt.full((2,), complex(math.inf, -0.0))
    z642 = dt.full((2,), 3 - 0j, dtype=dt.complex64)
    for f in (lambda x, z, w: x + z, lambda x, z, w: x * z, lambda x, z, w: z / x,
              lambda x, z, w: x - z, lambda x, z, w: z - x, lambda x, z, w: x * 1j,
              lambda x, z, w: w + 0.25, lambda x, z, w: x - w, lambda x, z, w: w * x[..., :1]):
        got, want = f(x, z, z64), f(x2, z2, z642)
        assert got.shape == sh and got.dtype == want.dtype
        _bits_equal(np.asarray(got).reshape(2).view(np.float32 if want.dtype == dt.complex64
                                                    else np.float64),
                    np.asarray(want).view(np.float32 if want.dtype == dt.complex64
                                          else np.float64))
    z -= x
    assert np.asarray(z).ravel().tolist() == [complex(math.inf, -0.0)] * 2


def test_float16_beside_complex_follows_the_real_and_complex_table_as_float32_does():
    # (not a dtype of the spec's, but NumPy's: (inf + 0j) * float16 gave inf + NaN j where
    # float32 gives the table's inf + 0j, and (-0 - 0j) + float16 lost its -0j)
    inf = math.inf
    calls = (lambda x, z: z * x, lambda x, z: x * z, lambda x, z: z + x, lambda x, z: x - z,
             lambda x, z: z / x, lambda x, z: x * complex(inf, 0), lambda x, z: x + (-0.0 - 0j))
    z = dt.asarray([complex(inf, 0), -0.0 - 0.0j, 2 - 0j, complex(-0.0, inf)], dtype=dt.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (NumPy's invalid: inf * 0 is in the table too)
        for f in calls:
            got = f(dt.asarray([1.0, -0.0, inf, 2.0], dtype=dt.float16), z)
            want = f(dt.asarray([1.0, -0.0, inf, 2.0], dtype=dt.float32), z)
            assert got.dtype == want.dtype == dt.complex64
            _bits_equal(np.asarray(got).view(np.float32), np.asarray(want).view(np.float32))
    # (the fix-up of two real operands is the ufunc's: no widening swapped one for the other)
    h = np.array([1.0, 2.0], np.float16), np.array([10.0, 20.0], np.float16)
    assert special.real_and_complex("add")(np, *h).tolist() == [11.0, 22.0]


def test_complex_of_a_real_nan_is_nan_nan_j():
    # The 2025.12 __complex__: "If self is NaN, the result is NaN + NaN j".
    z = complex(dt.asarray(math.nan))
    assert math.isnan(z.real) and math.isnan(z.imag)
    assert complex(dt.asarray(1.5)) == 1.5 + 0j
    z = complex(dt.asarray(complex(math.nan, 0.0)))  # a complex array's own parts
    assert math.isnan(z.real) and z.imag == 0.0


def test_elementwise_edges_from_the_hunt():
    # pow of a Python scalar base by a one-element float32 exponent of 0.5 kept float64 from
    # the sqrt fix-up's abs() of the scalar
    x = dt.asarray([0.5], dtype=dt.float32)
    assert dt.pow(2.0, x).dtype is dt.float32 and (2 ** x).dtype is dt.float32
    assert (3 ** dt.asarray(0.5, dtype=dt.float16)).dtype is dt.float16
    # floor_divide by a float that is infinite in the array's dtype is floor_divide by inf
    f = dt.asarray([-1.0, 1.0], dtype=dt.float32)
    with np.errstate(all="ignore"):
        assert np.array_equal(np.asarray(dt.floor_divide(f, -1e39)),
                              np.asarray(dt.floor_divide(f, float("-inf"))))
        assert np.asarray(dt.floor_divide(1e39, dt.asarray([2.0], dtype=dt.float32))).tolist() \
            == [float("inf")]
        # and so is a Python int that is infinite there (2**200 in float32, 70000 in float16),
        # either side and in place: -1.0 // inf is -0.0 and inf // 1.0 is inf (was -1.0, NaN)
        h = dt.asarray([-1.0, 1.0], dtype=dt.float16)
        for x, big in ((f, 2**200), (h, 70000)):
            assert [math.copysign(1, v) for v in np.asarray(x // big).tolist()] == [-1, 1]
            assert np.asarray(x // big).tolist() == [0.0, 0.0]
            assert np.asarray(big // x).tolist() == [-math.inf, math.inf]
            y = dt.asarray(x, copy=True)
            y //= big
            assert np.array_equal(np.asarray(y), np.asarray(x // math.inf))
        assert np.asarray(dt.asarray([7.0, -7.0], dtype=dt.float16) // 2).tolist() == [3.0, -4.0]
    # clip by an array bound of a wider integer dtype clamps as a scalar bound does (it wrapped)
    i = dt.asarray([0, 50, 100], dtype=dt.int8)
    assert np.asarray(dt.clip(i, min=dt.asarray(200, dtype=dt.int16))).tolist() == [127] * 3
    assert np.asarray(dt.clip(i, max=dt.asarray(-200, dtype=dt.int16))).tolist() == [-128] * 3
    # sign(-0.0) is 0 for ml_dtypes' floats too
    s = np.asarray(dt.sign(dt.asarray([-0.0], dtype=dt.bfloat16))).astype(np.float32)
    assert s[0] == 0 and not np.signbit(s[0])


# --- CuPy's departures, written in array functions: checked here with NumPy as the xp --------

_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.1, -0.1, 0.3, 7.0, -7.0, 3.0, 2.5, -2.5, 0.5, 1e16,
            math.inf, -math.inf, math.nan, 1e300, -1e300, 1e-300, 5e-324]


def _bits_equal(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    same = (got == want) & (np.signbit(got) == np.signbit(want)) | np.isnan(got) & np.isnan(want)
    assert same.all(), list(zip(got[~same][:5], want[~same][:5]))


def _host_kernels():
    """An array module of NumPy's functions whose ElementwiseKernel compiles the kernel's
    code with the C compiler (the CUDA simulator's, tests/cudasim/cupy/_kernel.py)."""
    path = pathlib.Path(__file__).parents[1] / "cudasim" / "cupy" / "_kernel.py"
    spec = importlib.util.spec_from_file_location("_host_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    xp = types.ModuleType("host_kernels")
    xp.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
    xp.ElementwiseKernel = module.Kernel
    return xp


def test_cudas_kernels_compile_as_cuda_cpp_with_no_fused_multiply_add(tmp_path):
    # (each ElementwiseKernel dltensor makes, in the shape CuPy gives its operation: inputs
    # const references, outputs references, -ftz=true as CuPy adds; NVRTC would fuse an
    # a * b + c, rounding once where NumPy rounds twice: none of its arithmetic is fused as
    # compiled, the fused multiply-adds in the PTX being those of CUDA's own fmodf)
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("no nvcc here: the kernels compile on a GPU run")
    xp, made = _host_kernels(), []

    class Recording(xp.ElementwiseKernel):
        def __init__(self, *args, **kwargs):
            made.append((args, kwargs))
            super().__init__(*args, **kwargs)
    xp.ElementwiseKernel = Recording
    f, z, i = np.array([1.0]), np.array([1 + 1j]), np.array([1])
    cupy_departures.remainder(xp, f, f)
    cupy_departures.divide(xp, z, z)
    cupy_departures.power(xp, z, z)
    for shift in ("left_shift", "right_shift"):
        cupy_departures.DEPARTURES[shift][1](xp, i, i)
    assert {args[3] for args, _ in made} == set(re.findall(  # (every one)
        r'"(dltensor_\w+)"', pathlib.Path(cupy_departures.__file__).read_text()))
    for (ins, outs, operation, name), kwargs in made:
        params = [p.split() for p in f"{ins}, {outs}".split(",")]
        n_in = ins.count(",") + 1
        for ctype in ("long long", "unsigned long long") if "shift" in name else (
                "float", "double"):
            source = tmp_path / f"{name}_{ctype.replace(' ', '_')}.cu"
            source.write_text(
                f"typedef {ctype} T;\nextern \"C\" __global__ void {name}(" +
                ", ".join(f"T *_raw_{n}" for _, n in params) + ", long long _n) {\n"
                "for (long long _i = blockIdx.x * blockDim.x + threadIdx.x; _i < _n;"
                " _i += blockDim.x * gridDim.x) {\n" +
                "".join(f"{'const ' if i < n_in else ''}{t} &{n} = _raw_{n}[_i];\n"
                        for i, (t, n) in enumerate(params)) + operation + "}\n}\n")
            fmas = []
            for extra in ((), ("--fmad=false",)):  # (as given, and with no contraction at all)
                ptx = source.with_suffix(f".{len(extra)}.ptx")
                done = subprocess.run([nvcc, "-ptx", "-arch=sm_90", "-ftz=true",
                                       *kwargs.get("options", ()), *extra, str(source), "-o",
                                       str(ptx)], capture_output=True, text=True)
                assert done.returncode == 0, done.stderr
                assert f".entry {name}" in ptx.read_text()
                fmas.append(ptx.read_text().count("fma."))
            assert fmas[0] == fmas[1], (name, ctype, fmas)  # (fmodf's own are CUDA's)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_cudas_64_bit_shifts_are_numpys(dtype):
    # (CuPy's a << b of 64-bit integers shifts by the amount's low 32 bits, PTX's shl.b64:
    # x << 2**32 was x; dltensor's kernel, run here as C on the host, shifts as NumPy's
    # npy_lshift/npy_rshift: 0, or -1 for a negative value shifted right, from 64 on)
    xp = _host_kernels()
    info = np.iinfo(dtype)
    values = np.array([0, 1, 5, info.max, info.min, info.max // 3] +
                      ([-1, -5, info.min + 1] if info.min else []), dtype)
    amounts = np.array([*range(0, 70), 2**32, 2**32 + 1, 2**32 + 63, 2**33, info.max] +
                       ([-1, -2**32, info.min] if info.min else [2**63, 2**64 - 2**32]), dtype)
    x, n = np.repeat(values, len(amounts)), np.tile(amounts, len(values))
    for name, numpy_shift in (("left_shift", np.left_shift), ("right_shift", np.right_shift)):
        got = cupy_departures.DEPARTURES[name][1](xp, x, n)
        assert np.array_equal(got, numpy_shift(x, n)) and got.dtype == dtype, name
        assert np.array_equal(cupy_departures.DEPARTURES[name][1](xp, x, 2**32),
                              numpy_shift(x, 2**32))  # (a Python int amount, as CuPy takes it)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_cudas_complex_division_is_numpys_to_the_bit(dtype):
    # (CuPy scales by |c| + |d|: a zero or infinite divisor gave NaN + NaN j, where NumPy's
    # 1 / 0j is inf + NaN j and 1 / (inf + 0j) 0j; on CUDA dltensor computes NumPy's complex
    # division in a kernel of its own, run here as C on the host, its mixed forms as the row's
    # fix-up does)
    xp = _host_kernels()

    def real_divide_only(a, b, **kwargs):  # (CuPy's complex division is not NumPy's)
        assert np.result_type(a, b).kind != "c", "CuPy's complex division was called"
        return np.divide(a, b, **kwargs)
    xp.divide = real_divide_only
    s = np.array(_SPECIAL + [-2.5, 2.5], dtype=np.float64)
    z = np.empty(len(s) ** 2, dtype)
    z.real, z.imag = np.repeat(s, len(s)), np.tile(s, len(s))
    w, real = z[:, None], z.real.astype(z.real.dtype)
    with np.errstate(all="ignore"):
        for x, y in ((w, z), (1.0, z), (z, 2.0), (real[:, None], z), (z, real[:, None]),
                     (-3, z), (1 + 2j, z), (z, 0.5 - 1j), (z, 0.0), (z, -0.0),
                     (z, real.astype(np.float16)), (z, np.arange(-3, len(z) - 3))):
            got, want = cupy_departures.divide(xp, x, y), special.divide(np, x, y)
            assert got.dtype == want.dtype
            _bits_equal(got.real, want.real)
            _bits_equal(got.imag, want.imag)
        got, want = cupy_departures.reciprocal(xp, z), special.reciprocal(np, z)
        _bits_equal(got.real, want.real)
        _bits_equal(got.imag, want.imag)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_cudas_complex_power_is_numpys(dtype):  # (to the bit, but for cpow's rounding)
    # (CuPy takes exp(w log z) everywhere: 0j ** -1, (inf + 1j) ** 2 and (1 + 1j) ** 2 were
    # not NumPy's; on CUDA dltensor computes NumPy's own branches -- z ** 0, 0 ** w, whole
    # exponents in (-100, 100) by products -- in a kernel of its own, run here as C on the
    # host, and C's cpow for the rest: exp(w log z) with C's product, which in CuPy's power
    # made (inf + NaN j) ** 0.5 NaN + NaN j)
    xp = _host_kernels()

    def cpows_exp(w):  # (wrong wherever the kernel should have answered)
        return np.full(w.shape, complex(7, 7), w.dtype)
    xp.exp = cpows_exp
    s = np.array(_SPECIAL, dtype=np.float64)
    z = np.empty(len(s) ** 2, dtype)
    z.real, z.imag = np.repeat(s, len(s)), np.tile(s, len(s))
    whole = [0, -0.0, 1, 2, 3, 4, 5, 7, -1, -2, -3, -4, -7, 17, 99, -99, 2 - 0j, -0.0 - 0j]
    with np.errstate(all="ignore"):
        for w in whole:
            for b in (complex(w), np.full(z.shape, w, dtype),
                      np.full(z.shape, complex(w).real, np.float64)):
                got, want = cupy_departures.power(xp, z, b), np.power(z, b)
                assert got.dtype == want.dtype
                _bits_equal(got.real, want.real)
                _bits_equal(got.imag, want.imag)
        x = z.real.copy()  # (a real base, a complex exponent)
        _bits_equal(cupy_departures.power(xp, x, 2 + 0j).imag, np.power(x, 2 + 0j).imag)
        xp.exp = np.exp
        for w in (100, -100, 0.5, -0.5, 2.5, 1j, 1 + 1j, 3 + 1e-30j, math.nan, math.inf,
                  complex(math.inf, math.nan), complex(-math.inf, 2), complex(3e38, 3e38)):
            got, want = cupy_departures.power(xp, z, w), np.power(z, w)  # (0 ** w: the kernel's)
            finite = np.isfinite(want)  # (C's clog and NumPy's log round apart: w log z's ulps)
            assert (np.abs(got - want)[finite] <= 1e-12 * np.abs(want[finite])).all()
            _bits_equal(got.real[~finite], want.real[~finite])
            _bits_equal(got.imag[~finite], want.imag[~finite])
    assert cupy_departures.power(xp, np.array([2, 3]), 2).tolist() == [4, 9]  # (integers)


def test_cudas_products_of_16_bit_floats_add_in_float32():
    # (CuPy adds a product of one element in float16, or rounds bfloat16 products to
    # bfloat16; NumPy's float16 matmul adds in float32, and dltensor's CPU path takes
    # ml_dtypes' bfloat16 in float32)
    import ml_dtypes
    path = pathlib.Path(__file__).parents[1] / "cudasim" / "cupy" / "_departures.py"
    spec = importlib.util.spec_from_file_location("_cupy_departures", path)
    cupys = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cupys)  # (the simulator's models of CuPy's products)
    xp = types.SimpleNamespace(matmul=cupys.matmul)
    assert float(cupys.matmul(np.array([2048] + [1] * 6, np.float16), np.ones(7, np.float16))) \
        == 2048  # (the model departs)
    for t, x, y, want in ((np.float16, [2048, 1, 1, 1, 1, 1, 1], [1] * 7, 2054.0),
                          (ml_dtypes.bfloat16, [1, 1 + 2**-7], [2**-8, 1 + 2**-7], 1.0234375)):
        a, b = np.array(x, t), np.array(y, t)
        for got in (cupy_departures.matmul(xp, a, b),
                    cupy_departures.halves_in_float32(cupys.dot)(a, b)):
            assert got.dtype == t and float(got) == want
    a = np.array([0.1, 0.2])  # (other dtypes as they are)
    assert cupy_departures.matmul(xp, a, a) == np.matmul(a, a)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_cudas_floor_divide_and_remainder_are_numpys_to_the_bit(dtype):
    # (CuPy computes floor(a / b) and a - floor(a / b) * b: 1.0 // 0.1 was 10.0, 5.0 % inf NaN,
    # +0.0 % -2.0 +0.0; on CUDA dltensor computes NumPy's npy_divmod in a kernel of its own,
    # run here as C on the host)
    xp = _host_kernels()
    rng = np.random.default_rng(0)
    with np.errstate(all="ignore"):
        s = np.array(_SPECIAL, dtype=dtype)
        a, b = np.repeat(s, len(s)), np.tile(s, len(s))
        r = rng.standard_normal(5000) * 10.0 ** rng.integers(-5, 5, 5000)
        a = np.concatenate([a, r.astype(dtype)])
        b = np.concatenate([b, rng.permutation(r).astype(dtype)])
        for x, y in ((a, b), (a, 7.0), (-0.0, b), (a, -3), (math.inf, b)):
            _bits_equal(cupy_departures.remainder(xp, x, y), np.remainder(x, y))
            _bits_equal(cupy_departures.floor_divide(xp, x, y), special.floor_divide(np, x, y))


def test_cudas_bfloat16_floor_divide_and_remainder_are_the_cpus():
    # (CuPy's bfloat16 remainder subtracts a quotient rounded to bfloat16: 1000 % 3 was 4; on
    # CUDA dltensor runs its float32 kernel and rounds once, as the CPU path computes it)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    xp, bf = _host_kernels(), ml_dtypes.bfloat16
    rng = np.random.default_rng(0)
    with np.errstate(all="ignore"):
        s = np.array(_SPECIAL + [1000.0, 3.0, -2.0], dtype=bf)
        a = np.concatenate([np.repeat(s, len(s)), (rng.uniform(-2000, 2000, 4000)).astype(bf)])
        b = np.concatenate([np.tile(s, len(s)), (rng.uniform(-20, 20, 4000)).astype(bf)])
        for mine, theirs in ((cupy_departures.remainder, dt.remainder),
                             (cupy_departures.floor_divide, dt.floor_divide)):
            got, want = mine(xp, a, b), np.asarray(theirs(dt.asarray(a), dt.asarray(b)))
            assert got.dtype == want.dtype == bf
            same = (got.view(np.uint16) == want.view(np.uint16)) | np.isnan(
                got.astype(np.float32)) & np.isnan(want.astype(np.float32))
            assert same.all(), list(zip(a[~same][:5], b[~same][:5], got[~same][:5],
                                        want[~same][:5]))


def test_cudas_integer_power_refuses_negative_exponents_as_numpy_does():
    # (CuPy's integer power gives 0 for 2 ** -1)
    a = np.array([2, 3, -1])
    assert cupy_departures.int_power(np, a, np.array([2, 0, 3])).tolist() == [4, 1, -1]
    # (on CUDA a Python scalar exponent reaches it as a 0-d array; unsigned ones are not asked)
    assert cupy_departures.int_power(np, a, np.array([2, 0, 3], np.uint8)).tolist() == [4, 1, -1]
    for b in (np.array(-1), np.array([1, -1, 2]), np.array([[-2]], np.int8)):
        with pytest.raises(ValueError, match="negative integer powers"):
            cupy_departures.int_power(np, a, b)
        with pytest.raises(ValueError, match="negative integer powers"):
            np.power(a, b)
    for a, b in ((np.zeros(0, np.int32), np.array(-1)), (np.zeros((0, 3), np.int8),
                                                       np.array([1, -1, 2], np.int8))):
        assert cupy_departures.int_power(np, a, b).shape == np.power(a, b).shape  # (nothing)
    assert set(cupy_departures.DEPARTURES) <= {row[1] for row in (*ew.BINARY.values(),
                                                          *ew.UNARY.values())} | {
        "matmul"}  # (in use: the rows' ufuncs, and @'s)


def _cupys_complex_functions():
    """NumPy as CuPy 14.2 computes complex acosh, log, log1p, tanh and tan at the special
    values where its thrust/FreeBSD code (cupy/_core/include/cupy/complex/) departs: run on
    the host, these are its answers (the rest NumPy's)."""
    xp = types.ModuleType("cupy_like")
    xp.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
    nan2 = complex(math.nan, math.nan)

    def with_nans(name, where):
        def f(a):
            r = getattr(np, name)(a)
            return np.where(where(a.real, a.imag), np.asarray(nan2, a.dtype), r) \
                if a.dtype.kind == "c" else r
        return f
    xp.arccosh = with_nans("arccosh", lambda x, y: (x == 0) & np.isnan(y))
    xp.log = with_nans("log", lambda x, y: np.isnan(x) | np.isnan(y))  # (log(x*x + y*y))
    xp.tanh = with_nans("tanh", lambda x, y: np.isfinite(x) & ~np.isfinite(y))
    xp.tan = with_nans("tan", lambda x, y: np.isfinite(y) & ~np.isfinite(x))
    xp.log1p = lambda a: xp.log(a + np.asarray(1 + 0j, a.dtype)) if a.dtype.kind == "c" \
        else np.log1p(a)  # (log(z + (1 + 0j)): -0j became +0j)
    return xp


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_cudas_complex_special_cases_are_numpys(dtype):
    # (the array API test suite on a GPU: acosh(+0 + NaN j) was NaN + NaN j, not NaN + πj/2;
    # log and log1p of inf + NaN j and NaN + inf j NaN + NaN j, not +inf + NaN j; tanh(+0 + inf
    # j) and tanh(+0 + NaN j) NaN + NaN j, not +0 + NaN j; and log1p(-2.5 - 0j) had +πj)
    xp = _cupys_complex_functions()
    s = np.array(_SPECIAL + [-2.5, 2.5, 1.0], dtype=np.float64)
    a = np.empty(len(s) ** 2, dtype)
    a.real, a.imag = np.repeat(s, len(s)), np.tile(s, len(s))
    with np.errstate(all="ignore"):
        for ufunc in ("arccosh", "log", "log1p", "tanh", "tan"):
            # (acosh's is the row's, on every device: NumPy 2.2 departs there too)
            kinds, cuda = (("c", special.acosh) if ufunc == "arccosh" else
                           cupy_departures.DEPARTURES[ufunc])
            assert kinds == "c"
            # (the fix-up over NumPy's answers: NumPy's own, where NumPy is right; older
            # NumPy's complex64 arccosh(0 + NaN j) was NaN + NaN j too)
            got, want = cuda(xp, a), cuda(np, a)
            assert got.dtype == want.dtype
            for g, w in ((got.real, want.real), (got.imag, want.imag)):
                np.testing.assert_allclose(g, w, rtol=1e-5, equal_nan=True, err_msg=ufunc)
                assert (np.signbit(g) == np.signbit(w))[w == 0].all(), ufunc


def test_float16_nextafter_between_zeros_and_from_infinities():
    # The spec: x2 where x1 == x2 (NumPy's float16 nextafter(+0, -0) was +0, (-0, +0) -0); from
    # an infinity toward a number, the largest finite value (CuPy's float16 gives NaN)
    f = dt.float16
    x1 = dt.asarray([0.0, -0.0, np.inf, -np.inf, np.inf, 1.0, np.nan, 0.0], dtype=f)
    x2 = dt.asarray([-0.0, 0.0, 0.0, 7.0, np.inf, 2.0, 0.0, 1.0], dtype=f)
    got = np.asarray(dt.nextafter(x1, x2))
    want = np.array([-0.0, 0.0, 65504.0, -65504.0, np.inf, 1.0009765625, np.nan, 6e-08], f.name)
    assert_bits(got, want)
    assert_bits(np.asarray(dt.nextafter(x1[:2], -0.0)), np.array([-0.0, -0.0], f.name))
    for t in (dt.float32, dt.float64):  # (as NumPy's, which has it right)
        a, b = dt.astype(x1, t), dt.astype(x2, t)
        assert_bits(np.asarray(dt.nextafter(a, b)), np.nextafter(np.asarray(a), np.asarray(b)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_reciprocal_is_one_divided_by_x(dtype):
    # The spec: reciprocal's special cases as if it were 1.0 / x. NumPy's complex reciprocal
    # is not its 1 / z: 1 / (1 + 0j) was 1 - 0j, 1 / (-0 + 1j) -0 - 1j, 1 / 0j NaN + NaN j
    # (1.0 / 0j is inf + NaN j)
    s = np.array(_SPECIAL + [-2.5, 2.5, 1.0, 1e300, -3e-310], dtype=np.float64)
    z = np.empty(len(s) ** 2, np.complex128)
    z.real, z.imag = np.repeat(s, len(s)), np.tile(s, len(s))
    with np.errstate(all="ignore"):
        x = dt.asarray((z if "complex" in dtype else z.real).astype(dtype))
        got, want = np.asarray(dt.reciprocal(x)), np.asarray(1.0 / x)
    assert got.dtype == want.dtype == dtype
    parts = (np.real, np.imag) if "complex" in dtype else (np.real,)
    for part in parts:
        assert_bits(part(got), part(want))
    if "complex" in dtype:  # (1 + 0j: 1 + 0j; -0 + 1j: 0 - 1j)
        one = np.asarray(dt.reciprocal(dt.asarray(np.array(1 + 0j, dtype))))
        assert one == 1 and not np.signbit(one.imag)
        assert not np.signbit(got[(z.real == 0) & ~np.signbit(z.real) & (z.imag == 1)].real).any()


@pytest.mark.parametrize("name", ["atan", "atanh"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_atan_and_atanh_are_odd_and_conjugate_symmetric(name, dtype):
    # The spec: f(conj z) = conj f(z) and f(-z) = -f(z). NumPy's arctan(h) missed both by an
    # ulp at some points (complex64 (1.5 + 1.5j), complex128 (0.5 - 2j)).
    parts = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 1e-3, 7.5]
    z = np.array([complex(a, b) for a in parts for b in parts], dtype=dtype)
    f = getattr(dt, name)
    with np.errstate(all="ignore"):
        r = np.asarray(f(dt.asarray(z)))
        assert np.array_equal(np.asarray(f(dt.asarray(z.conj()))), r.conj())
        assert np.array_equal(np.asarray(f(dt.asarray(-z))), -r)
        assert np.array_equal(np.asarray(f(dt.asarray(-z.conj()))), -r.conj())
        assert np.allclose(r, getattr(np, "arc" + name[1:])(z), rtol=1e-6)


def test_clip_keeps_an_x_equal_to_a_bound_whatever_the_bounds_are():
    # NumPy's clip gave an x equal to an array bound the bound's zero (same shapes) or kept x
    # (a broadcast bound, a scalar): dltensor keeps x, as "x clamped to [min, max]" reads
    x = dt.asarray([0.0, -0.0, -2.0, 3.0])
    for lo, hi in ((dt.asarray([-0.0, 0.0, -0.0, 0.0]), 1.0), (-0.0, dt.asarray([0.0, -0.0, 5.0, 1.0])),
                   (dt.asarray([-0.0, 0.0, -0.0, 0.0]), dt.asarray([0.0, -0.0, 5.0, 1.0]))):
        r = np.asarray(dt.clip(x, min=lo, max=hi))
        assert np.signbit(r[:2]).tolist() == [False, True]
    # min > max gives max; NaN anywhere is NaN
    assert np.signbit(np.asarray(dt.clip(x, min=1.5, max=-0.0))).all()
    r = np.asarray(dt.clip(x, min=dt.asarray([math.nan, 0.0, 0.0, 0.0]), max=1.0))
    assert math.isnan(r[0]) and r[1:].tolist() == [0.0, 0.0, 1.0]


def test_clip_of_a_large_array_gives_the_bits_its_pieces_do():
    # Past ~4e3 elements, clip by an array bound takes NumPy's clip (three where's were ~25x
    # it) and mends the sign of its zeros: an x equal to a bound keeps its zero, NaN anywhere
    # is NaN, a scalar min rounds to x's dtype, as in the pieces (the where's, under ~4e3)
    rng = np.random.default_rng(7)
    pool = np.array([0.0, -0.0, 1e-30, -1e-30, 5e-324, 1.0, -1.0, nan, inf, -inf])
    n = 6000
    for dtype in ("float16", "float32", "float64"):
        x, lo, hi, lo64 = (rng.choice(pool, n).astype(d) for d in (dtype, dtype, dtype, "float64"))
        for lo_, hi_ in ((lo, hi), (lo, None), (None, hi), (lo, -0.0), (0.0, hi), (lo[:1], hi),
                         (-0.0, lo64), (5e-324, lo64), (lo64, 1e-30), (lo64[::-1], lo64),
                         (lo, -5e-324), (lo, 1e-50), (lo, -1e-8)):  # (a max that rounds to a
            # zero in x's dtype ties as that zero: float32's clip(x, lo, -5e-324) was -0.0
            # where lo is 0.0 and x below it, 0.0 in the pieces)
            def clip(s):
                return np.asarray(dt.clip(dt.asarray(x[s]), *(
                    b if b is None or type(b) is float else dt.asarray(b if b.size == 1 else b[s])
                    for b in (lo_, hi_))))
            whole = clip(slice(None))
            assert whole.dtype == x.dtype
            pieces = [clip(slice(i, i + 1000)) for i in range(0, n, 1000)]
            assert_bits(whole, np.concatenate(pieces))
    # (where NumPy's clip picks an equal bound's zero: both operands the same shape)
    x = np.tile([0.0, -0.0, -1.0, 2.0], 2000)
    hi = np.tile([-0.0, 0.0, 5.0, nan], 2000)
    r = np.asarray(dt.clip(dt.asarray(x), dt.asarray(-x), dt.asarray(hi)))
    assert r[:3].tolist() == [0.0, 0.0, 1.0] and np.signbit(r[:3]).tolist() == [False, True, False]
    assert np.isnan(r[3::4]).all() and np.array_equal(r, np.tile(r[:4], 2000), equal_nan=True)


def test_integers_divide_into_float64_as_numpy_divides_them():
    # (the spec leaves integer division's result to the library; scikit-learn divides counts
    # on every namespace but array-api-strict: balanced_accuracy_score raised TypeError)
    c = dt.asarray([[3, 1], [0, 4]])
    r = dt.linalg.diagonal(c) / dt.sum(c, axis=1)
    assert r.dtype is dt.float64 and np.asarray(r).tolist() == [0.75, 1.0]
    assert (dt.asarray([1], dtype=dt.uint8) / 2).dtype is dt.float64
    assert np.asarray(7 / dt.asarray([2], dtype=dt.int16)).tolist() == [3.5]
    for bad in (lambda: c / 2.0, lambda: c / dt.asarray([1.0, 2.0]),
                lambda: dt.asarray([True]) / dt.asarray([True])):
        with pytest.raises(TypeError):
            bad()
    for big in (lambda: dt.asarray([1], dtype=dt.uint8) / -1, lambda: c / 2**70,
                lambda: 300 / dt.asarray([1], dtype=dt.int8)):
        with pytest.raises(OverflowError):  # (the scalar is a 0-d array of c's dtype)
            big()
    with pytest.raises(TypeError, match="in-place"):
        c /= 2
