"""ml_dtypes' floats (bfloat16, float8) and float16 beyond the element-wise functions.

NumPy's loops for ml_dtypes' floats accumulate in the dtype itself and order NaN as no float,
so dltensor computes reductions, running sums, sorts, unique_* and searchsorted on them in
float32 (which holds their values exactly) and casts back. Each case here failed before.
"""

import math
import re
import warnings

import ml_dtypes
import numpy as np
import pytest

import dltensor as dt

EXTENSION = [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]


def a(values, dtype):
    return dt.asarray(np.array(values, dtype=dtype))


def host(x):
    return np.asarray(x).astype(np.float64)


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_reductions_accumulate_in_float32_and_keep_the_dtype(dtype):
    ones = a(np.ones(64), dtype)  # (the bfloat16 sum of 1000 ones was 256, float8's 16)
    for f, want in ((dt.sum, 64.0), (dt.mean, 1.0), (dt.std, 0.0), (dt.var, 0.0),
                    (dt.prod, 1.0)):
        r = f(ones)
        assert r.dtype == ones.dtype and float(host(r)) == want, f
    run = dt.cumulative_sum(ones)
    assert run.dtype == ones.dtype and float(host(run)[-1]) == 64.0
    assert dt.sum(ones, dtype=dt.float32).dtype is dt.float32  # (a dtype asked is kept)
    assert float(host(dt.sum(ones, dtype=ones.dtype))) == 64.0
    if dtype is ml_dtypes.bfloat16:  # (1000 is a bfloat16; the sum was 256)
        assert float(host(dt.sum(a(np.ones(1000), dtype)))) == 1000.0


def test_float16_running_sums_do_not_stall():
    # NumPy's float16 cumsum adds in float16: it stalls at 2048
    r = dt.cumulative_sum(dt.asarray(np.ones(4000, np.float16)))
    assert r.dtype is dt.float16 and float(host(r)[-1]) == 4000.0
    assert dt.cumulative_prod(dt.asarray(np.full(3, 2.0, np.float16))).dtype is dt.float16


def test_float16_sums_products_and_variances_in_float32():
    # NumPy adds float16 in float16 along any axis but the innermost (the sum of 3000 ones
    # down a column was 2048, 6e4 + 6e4 - 6e4 was inf) and squares deviations in float16
    # (var of [200, -200] was inf); PyTorch gives these.
    ones = dt.asarray(np.ones((3000, 2), np.float16))
    for r in (dt.sum(ones, axis=0), dt.sum(dt.permute_dims(ones, (1, 0)), axis=1),
              dt.sum(ones, axis=0, dtype=dt.float16)):
        assert r.dtype is dt.float16 and host(r).tolist() == [3000.0, 3000.0]
    assert host(dt.sum(dt.asarray(np.array([[6e4], [6e4], [-6e4]], np.float16)), axis=0)
                ).tolist() == [6e4]
    assert host(dt.prod(dt.asarray(np.full((20, 1), 1.5, np.float16)), axis=0)).tolist() == \
        [float(np.float16(1.5 ** 20))]
    v = dt.var(dt.asarray(np.array([200.0, -200.0], np.float16)))
    assert v.dtype is dt.float16 and float(host(v)) == 40000.0
    assert float(host(dt.std(dt.asarray(np.array([300.0, -300.0, 0.0], np.float16))))) == \
        float(np.float16(np.sqrt(60000.0)))


@pytest.mark.parametrize("target", [dt.float16, dt.bfloat16])
def test_a_16_bit_dtype_asked_for_is_the_result_not_the_accumulator(target):
    # dtype=float16 or bfloat16 of wider input: x cast to it, then added in float32 (NumPy
    # accumulated in the 16 bits: a bfloat16 sum of 1000 float32 ones was 256)
    for x in (dt.ones(1000, dtype=dt.float32), dt.ones(1000, dtype=dt.int8)):
        r = dt.sum(x, dtype=target)
        assert r.dtype is target and float(host(r)) == 1000.0
    run = dt.cumulative_sum(dt.ones(3000, dtype=dt.int16), dtype=target)
    assert run.dtype is target and float(host(run)[-1]) == float(
        np.array(3000.0).astype(np.dtype(target.name) if target is dt.float16 else
                                ml_dtypes.bfloat16))
    with pytest.raises(TypeError, match="imaginary"):
        dt.sum(dt.ones(3, dtype=dt.complex64), dtype=target)


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_sorting_searching_and_unique_order_nan_last(dtype):
    x = a([3, np.nan, -1, 2, np.nan, 0.5], dtype)
    s = host(dt.sort(x))
    assert s[:4].tolist() == [-1, 0.5, 2, 3] and np.isnan(s[4:]).all()
    assert dt.sort(x).dtype == x.dtype
    assert np.asarray(dt.argsort(x)).tolist()[:4] == [2, 5, 3, 0]
    assert np.isnan(host(dt.sort(x, descending=True))[:2]).all()
    u = dt.unique_counts(a([1, np.nan, 1, np.nan, 2], dtype))
    assert host(u.values)[:2].tolist() == [1, 2] and np.asarray(u.counts).tolist() == [2, 1, 1, 1]
    assert u.values.dtype.name == np.dtype(dtype).name
    assert int(dt.searchsorted(a([1, 2, 3], dtype), a([np.nan], dtype))[0]) == 3


def test_searchsorted_of_an_extension_float_and_another_dtype():
    # compared in a dtype holding both: NumPy cast bfloat16 x float16 to bfloat16 (NaN first,
    # 1.5 rounded) and int64 x bfloat16 to bfloat16
    x1 = a([1.0, 2.0, np.nan], ml_dtypes.bfloat16)
    got = dt.searchsorted(x1, dt.asarray([1.5, np.nan, 3.0, -1.0], dtype=dt.float16))
    assert np.asarray(got).tolist() == [1, 2, 2, 0]
    assert int(dt.searchsorted(a([1.0, 2.0, 3.0], ml_dtypes.bfloat16), dt.asarray([257]))[0]) == 3
    assert int(dt.searchsorted(dt.asarray([1, 256, 257]), a([257], ml_dtypes.bfloat16),
                               side="right")[0]) == 2  # (bfloat16 257 is 256)


def test_finfo_of_every_extension_float():
    for dtype in EXTENSION:  # (float8_e5m2 was refused: NumPy calls its kind "f", not "V")
        info = dt.finfo(a([0], dtype).dtype)
        assert info.max == float(ml_dtypes.finfo(dtype).max)


def test_python_ints_past_int64_go_into_extension_floats():
    # ml_dtypes converts no int past int64 ("expected number, got int", naming nothing)
    x = a([1, 2], ml_dtypes.bfloat16)
    big = 2**64
    for made in (dt.full((1,), big, dtype=x.dtype), dt.asarray(big, dtype=x.dtype),
                 dt.asarray([big], dtype=x.dtype), dt.where(x > 5, x, big)):
        assert float(host(made).ravel()[0]) == float(np.float32(big))
    x[0] = big
    assert float(host(x)[0]) == float(np.float32(big))


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_isin_finds_values_beside_nan_and_converts_scalars(dtype):
    # (NumPy's sort-based isin, in ml_dtypes' loops, missed 1.0 and 5.0 beside a NaN; a
    # float scalar was compared unconverted where equal() converts it)
    x1 = a([1.0, 5.0], dtype)
    x2 = a([np.nan] + [float(i) for i in range(1, 12)], dtype)
    assert host(dt.isin(x1, x2)).tolist() == [1.0, 1.0]
    assert host(dt.isin(a([7.0, np.nan], dtype), x2)).tolist() == [1.0, 0.0]
    assert bool(dt.isin(a([1.3], dtype), 1.3)[0]) == bool((a([1.3], dtype) == 1.3)[0]) is True


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_trace_clip_linspace_asarray_and_astype_keep_their_promises(dtype):
    ext = a([0], dtype).dtype
    # trace to an extension float sums in float32, as sum does (1000 ones in bfloat16: 256)
    n = 64 if dtype is not ml_dtypes.bfloat16 else 1000
    assert float(host(dt.linalg.trace(dt.eye(n, dtype=dt.float32), dtype=ext))) == \
        float(host(dt.sum(dt.ones(n), dtype=ext)))
    # arange of ints past int64 (ml_dtypes: "expected number, got int"), as float32's
    for args in ((2**64, 2**64 + 3), (2**63, 2**63 + 2**62, 2**61), (-2**63 - 1, -2**63 + 1),
                 (2**64, 0, -2**62), (0, 2**66, 2**64), (2**70, 2**70 + 2**66, 2**64)):
        with np.errstate(over="ignore"):
            got = dt.arange(*args, dtype=ext)
            want = dt.astype(dt.arange(*args, dtype=dt.float32), ext)
        assert got.shape == want.shape and host(got).tobytes() == host(want).tobytes(), args
    # (cast first, as sum casts: a diagonal of 1 + 2**-8 summed first rounded to 3.0156)
    m = dt.eye(3, dtype=dt.float32) * (1 + 2**-8)
    assert float(host(dt.linalg.trace(m, dtype=ext))) == \
        float(host(dt.sum(dt.linalg.diagonal(m), dtype=ext)))
    # clip keeps an equal x's zero, as for float32 (it took the bound's)
    x = a([-0.0, 0.0], dtype)
    for r in (dt.clip(x, 0.0), dt.clip(x, a([-0.0, -0.0], dtype))):
        assert np.signbit(host(r)).tolist() == [True, False]
    # linspace starts at start (NaN for an infinite step; +0.0 for -0.0)
    for start, stop in ((0.0, np.inf), (-np.inf, 0.0), (-0.0, 1.0)):
        first = host(dt.linspace(start, stop, 3, dtype=ext))[0]
        want = float(np.float64(start).astype(dtype))  # (float8_e4m3fn has no inf: NaN)
        assert first == want or np.isnan(first) and np.isnan(want)
        assert np.signbit(first) == np.signbit(want)
    # a list of 0-d arrays (ml_dtypes: "expected number, got ndarray")
    b = a([1.5, 2.0], dtype)
    assert host(dt.asarray([b[0], b[1]])).tolist() == [1.5, 2.0]
    assert dt.asarray([[b[0]], [b[1]]], dtype=ext).shape == (2, 1)
    # between float8_e8m0fnu and the others ("Cannot cast ... according to the rule 'unsafe'")
    e8 = a([1.0], ml_dtypes.float8_e8m0fnu).dtype
    assert host(dt.astype(dt.astype(a([2.0, 0.5], dtype), e8), ext)).tolist() == [2.0, 0.5]
    c = a([2.0, 0.5], dtype)  # (asarray's casts too: its own, and of a list of arrays)
    for there in (dt.asarray(c, dtype=e8), dt.asarray([c[0], c[1]], dtype=e8)):
        assert host(there).tolist() == [2.0, 0.5] and there.dtype == e8
        assert host(dt.asarray(there, dtype=ext)).tolist() == [2.0, 0.5]


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_a_true_of_any_byte_casts_to_one(dtype):
    # (PyTorch's view of uint8 as bool holds bytes 2 and 255 as True: ml_dtypes' cast from
    # bool read the byte, 2 and 255 (256 in float8_e4m3fn), where every other cast reads 1)
    x = dt.asarray(np.array([0, 1, 2, 255], np.uint8).view(np.bool_))  # (as PyTorch's is)
    target = dt.asarray(np.zeros(1, dtype)).dtype
    assert host(dt.astype(x, target)).tolist() == [0.0, 1.0, 1.0, 1.0]
    assert host(dt.asarray(x, dtype=target)).tolist() == [0.0, 1.0, 1.0, 1.0]


def test_copysign_and_sign_of_float8s_without_negative_zero():
    # "fnuz" float8s have no -0.0: their sign bit on a zero is NaN, which copysign set; and
    # float8_e8m0fnu has no zero: sign added its "zero", 2**-127
    for dtype in (ml_dtypes.float8_e4m3fnuz, ml_dtypes.float8_e5m2fnuz):
        x = a([0.0, 1.5, -2.0], dtype)
        r = dt.copysign(x, -1.0)
        assert r.dtype == x.dtype and host(r).tolist() == [0.0, -1.5, -2.0]
        assert host(dt.copysign(x, a([-1.0, 1.0, 1.0], dtype))).tolist() == [0.0, 1.5, 2.0]
    assert host(dt.sign(a([2.0**-127, 1.0], ml_dtypes.float8_e8m0fnu))).tolist() == [1.0, 1.0]
    s = host(dt.sign(a([-0.0, 0.0, -3.0], ml_dtypes.bfloat16)))
    assert s.tolist() == [0.0, 0.0, -1.0] and not np.signbit(s[:2]).any()


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_square_roots_by_pow_are_the_specs_and_quiet_beside_nan(dtype):
    # (x ** 0.5 is NumPy's sqrt, mended at -0 and -inf; whether any is there is asked by a
    # comparison, which warns of NaN in ml_dtypes' floats)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = host(a([math.nan, 4.0, -0.0], dtype) ** 0.5)
        q = host(a([math.nan, 4.0], dtype) ** 0.5)
    assert np.isnan(r[0]) and r[1:].tolist() == [2.0, 0.0] and not np.signbit(r[2])
    assert np.isnan(q[0]) and q[1] == 2.0


def test_scalars_of_every_extension_float_are_python_floats_as_numpys_are():
    # (a float8_e5m2 scalar was taken, NumPy calling its kind "f", and a bfloat16 one refused)
    x = a([1.0, 2.0], ml_dtypes.bfloat16)
    for scalar in (ml_dtypes.bfloat16(1.5), ml_dtypes.float8_e4m3fn(1.5),
                   ml_dtypes.float8_e5m2(1.5), np.float32(1.5)):
        r = x + scalar
        assert r.dtype == x.dtype and host(r).tolist() == [2.5, 3.5]


def test_every_dlpack_float_code_has_its_width_and_a_byte_per_element_at_least():
    # (held dtypes: float8/6/4 keep DLPack's bits; an element takes at least a byte)
    from dltensor._dlpack.abi import DLDataTypeCode as C
    from dltensor._dtypes import dtype_from_dlpack
    for code in C:
        name = code.name[3:].lower()
        bits = {"float6": 6, "float4": 4}.get(name[:6], 8 if name.startswith("float8") else 0)
        if bits:
            d = dtype_from_dlpack(code, bits)
            assert (d.name, d.bits, d.itemsize) == (name, bits, 1)
    for d, size in ((dt.bfloat16, 2), (dt.float64, 8), (dt.complex128, 16), (dt.bool, 1)):
        assert d.itemsize == size


def test_promotion_refusals_say_why():
    one = lambda d: dt.ones(1, dtype=d)  # noqa: E731
    for a, b, why in ((dt.bfloat16, dt.float32, "bfloat16 is no dtype of its table"),
                      (dt.float32, dt.bfloat16, "bfloat16 is no dtype of its table"),
                      (dt.int8, dt.uint64, "promotes no signed integer with uint64"),
                      (dt.int64, dt.float64, "promotes no kind to another")):
        with pytest.raises(TypeError, match=why):
            one(a) + one(b)


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_the_scalars_an_extension_float_takes_are_the_ones_named(dtype):
    # A Python complex has no complex dtype of their precision to go into: refused, and the
    # refusals of bool and complex no longer named complex among the scalars allowed
    x = a([1.0, 2.0], dtype)
    for scalar in (True, 1j):
        for call in (lambda: x + scalar, lambda: dt.result_type(x, scalar),
                     lambda: dt.where(x > 1, x, scalar)):
            with pytest.raises(TypeError, match="allows only Python float/int scalars"):
                call()
    assert [host(x + 1).tolist(), host(x * 0.5).tolist()] == [[2.0, 3.0], [0.5, 1.0]]


@pytest.mark.parametrize("dtype", [ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e4m3fnuz,
                                   ml_dtypes.float8_e8m0fnu], ids=lambda t: np.dtype(t).name)
def test_comparisons_with_scalars_past_a_float8_without_infinity(dtype):
    # (the scalar became the dtype's NaN: x < 1e6 was all False for x holding 1 and 2, and
    # x > -1 of float8_e8m0fnu, which has no negative values, too; NumPy: True for floats)
    x = a([1.0, 2.0], dtype)
    for big in (1e6, 2**70, 470):
        assert host(x < big).tolist() == host(big > x).tolist() == [1.0, 1.0]
        assert host(dt.less_equal(x, big)).tolist() == [1.0, 1.0]
        assert host(x == big).tolist() == [0.0, 0.0] and host(x != big).tolist() == [1.0, 1.0]
    for small in (-1e6, -1.0, 0, 1e-50):
        if small >= -1.0 and dtype is not ml_dtypes.float8_e8m0fnu:
            continue  # (in the dtype's range: compared as it is)
        assert host(x > small).tolist() == host(dt.greater(x, small)).tolist() == [1.0, 1.0]
    assert host(x < math.nan).tolist() == [0.0, 0.0]  # (a NaN stays one)


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_trace_of_an_extension_float_is_refused_as_the_rest_of_linalg(dtype):
    # trace takes an extension float as its dtype= only (docs/api.md), and a GPU refuses it;
    # float8_e5m2, of NumPy kind "f", took the CPU's fast path, added in float8 (300 ones: 8)
    x = a(np.ones((300, 300)), dtype)
    with pytest.raises(TypeError, match=f"trace needs a numeric array, not {x.dtype.name}"):
        dt.linalg.trace(x)
    ext = x.dtype
    assert float(host(dt.linalg.trace(dt.ones((300, 300)), dtype=ext))) == \
        float(np.float32(300).astype(dtype))


def test_solve_refuses_float16_as_the_other_lapack_functions():
    # (NumPy's "array type float16 is unsupported in linalg" came through, where inv, det and
    # the rest say which dtypes they take; either operand, matrices of no elements too)
    f16 = dt.float16
    for x1, x2 in ((dt.eye(2, dtype=f16), dt.ones(2, dtype=f16)),
                   (dt.eye(2), dt.ones(2, dtype=f16)), (dt.eye(2, dtype=f16), dt.ones(2)),
                   (dt.zeros((0, 0), dtype=f16), dt.zeros(0, dtype=f16))):
        with pytest.raises(TypeError, match=r"solve needs float32 or float64 \(float16"):
            dt.linalg.solve(x1, x2)
        with pytest.raises(TypeError, match=r"inv needs float32 or float64 \(float16"):
            dt.linalg.inv(dt.astype(x1, f16))


@pytest.mark.parametrize("dtype", EXTENSION, ids=lambda t: np.dtype(t).name)
def test_fft_shifts_move_an_extension_float_as_float32_is_moved(dtype):
    # A shift moves values and computes none (PyTorch's fftshift takes bfloat16): it was
    # refused with the transforms, "needs a floating-point array, not bfloat16"
    f = np.arange(30.0).reshape(5, 6)
    x = a(f, dtype)
    x32 = dt.asarray(host(x).astype(np.float32))  # (its values, exactly)
    for shift in (dt.fft.fftshift, dt.fft.ifftshift):
        for axes in (None, 0, 1, -1, (0, 1), (1, 1), ()):
            got = shift(x, axes=axes)
            assert got.dtype == x.dtype, (shift, axes)
            assert np.array_equal(host(got), host(shift(x32, axes=axes))), (shift, axes)
        for bad in (2, (0, -3), 1.0):  # (the same refusals as float32's, in its words)
            with pytest.raises(Exception) as want:
                shift(x32, axes=bad)
            with pytest.raises(type(want.value), match=re.escape(str(want.value))):
                shift(x, axes=bad)
    with pytest.raises(TypeError, match=f"rfft needs a real floating-point array, not "
                       f"{x.dtype.name}"):
        dt.fft.rfft(x)  # (the transforms compute: refused, as docs/api.md says)


# (value, its dtype, that dtype's value nearest it): each lies just off a halfway point of the
# dtype, where float32 rounds it onto the halfway point and ties-to-even the wrong way, or is
# an int past float64's exact ones
ROUNDED_ONCE = [
    (2**24 + 2**16 + 1, ml_dtypes.bfloat16, 16908288.0),
    (2**60 + 2**52 + 1, ml_dtypes.bfloat16, 2.0**60 + 2**53),
    (float.fromhex("0x1.0100000001010p-1"), ml_dtypes.bfloat16, 0.50390625),
    (-float.fromhex("0x1.affffffffe500p+8"), ml_dtypes.float8_e4m3fn, -416.0),
    (-float.fromhex("0x1.a000000001a00p+15"), ml_dtypes.float8_e5m2, -57344.0),
]


@pytest.mark.parametrize("value, dtype, nearest", ROUNDED_ONCE)
def test_a_python_scalar_is_rounded_once_into_an_extension_dtype(value, dtype, nearest):
    # ml_dtypes convert a Python float through float32 and an int through a float (np.full's
    # conversion, and an operand's): rounded twice, one step off (bfloat16 of 2**24 + 2**16
    # + 1 was 2**24); asarray(value, dtype=) and x[i] = value cast it once, so the same value
    # came out as two
    t = dt.asarray(np.zeros(1, dtype=dtype)).dtype
    zero = dt.zeros(1, dtype=t)
    exact = dt.asarray([nearest], dtype=t)
    for got in (dt.full(1, value, dtype=t), dt.full_like(zero, value), zero + value,
                value + zero, dt.clip(zero, min=value) if value > 0 else
                dt.clip(zero, max=value), dt.asarray([value], dtype=t)):
        assert got.dtype == t and got.tolist() == [nearest], (value, got)
    assert (exact == value).tolist() == [True] and (exact != value).tolist() == [False]
    y = dt.zeros(1, dtype=t)
    y += value
    assert y.tolist() == [nearest]
    for key in (0, (Ellipsis,), dt.asarray([True]), dt.asarray([0])):
        z = dt.zeros(1, dtype=t)
        z[key] = value
        assert z.tolist() == [nearest], key
    assert dt.where(dt.asarray([True]), value, zero).tolist() == [nearest]
