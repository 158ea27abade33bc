"""Statistical and utility functions against array-api-strict, dtype rules, the sum fast path."""

import warnings
from fractions import Fraction

import array_api_strict as strict
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import dltensor as dlt
import oracle
import producers as P

xps = make_strategies_namespace(dlt)


def same(got, want):
    oracle.same(got, want, tol=lambda dtype: (1e-6, 0.0))


F = np.array([[1.5, -2.0, 4.0], [0.25, 8.0, -1.0]], dtype=np.float32)
N = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
I8 = np.array([[100, 100, -7], [3, 2, 1]], dtype=np.int8)
U16 = np.array([60000, 60000, 1], dtype=np.uint16)
C = np.array([1 + 2j, -3j, 0.5], dtype=np.complex64)
BOOL = np.array([[True, False], [True, True]])

CASES = {
    "sum": lambda xp: xp.sum(xp.asarray(F)),
    "sum int8 accumulates in int64": lambda xp: xp.sum(xp.asarray(I8), axis=1),
    "sum uint16 gives uint64": lambda xp: xp.sum(xp.asarray(U16)),
    "sum dtype": lambda xp: xp.sum(xp.asarray(I8), dtype=xp.int8),
    "sum axes keepdims": lambda xp: xp.sum(xp.asarray(F), axis=(0, 1), keepdims=True),
    "sum complex": lambda xp: xp.sum(xp.asarray(C)),
    "sum empty": lambda xp: xp.sum(xp.asarray(F[:0])),
    "prod": lambda xp: xp.prod(xp.asarray(I8), axis=0),
    "prod dtype": lambda xp: xp.prod(xp.asarray(F), dtype=xp.float64, keepdims=True),
    "max": lambda xp: xp.max(xp.asarray(I8)),
    "max nan propagates": lambda xp: xp.max(xp.asarray(N), axis=1),
    "min axis": lambda xp: xp.min(xp.asarray(F), axis=-1, keepdims=True),
    "mean": lambda xp: xp.mean(xp.asarray(F)),
    "mean axis": lambda xp: xp.mean(xp.asarray(N), axis=0),
    "mean complex": lambda xp: xp.mean(xp.asarray(C)),
    "std": lambda xp: xp.std(xp.asarray(F)),
    "std correction": lambda xp: xp.std(xp.asarray(F), axis=1, correction=1),
    "var": lambda xp: xp.var(xp.asarray(F), axis=0, keepdims=True),
    "var correction float": lambda xp: xp.var(xp.asarray(F), correction=0.5),
    "cumulative_sum": lambda xp: xp.cumulative_sum(xp.asarray(U16)),
    "cumulative_sum axis initial": lambda xp: xp.cumulative_sum(xp.asarray(F), axis=1,
                                                                include_initial=True),
    "cumulative_sum dtype": lambda xp: xp.cumulative_sum(xp.asarray(I8), axis=0,
                                                         dtype=xp.int16),
    "cumulative_prod": lambda xp: xp.cumulative_prod(xp.asarray(I8), axis=-1),
    "cumulative_prod initial": lambda xp: xp.cumulative_prod(xp.asarray(C),
                                                             include_initial=True),
    "all": lambda xp: xp.all(xp.asarray(BOOL)),
    "all axis": lambda xp: xp.all(xp.asarray(BOOL), axis=0, keepdims=True),
    "any numeric": lambda xp: xp.any(xp.asarray(I8 - 3), axis=(0, 1)),
    "diff": lambda xp: xp.diff(xp.asarray(F)),
    "diff axis n": lambda xp: xp.diff(xp.asarray(I8), axis=0, n=1),
    "diff n=2": lambda xp: xp.diff(xp.asarray(U16.astype(np.int64)), n=2),
    "diff prepend append": lambda xp: xp.diff(xp.asarray(F), prepend=xp.asarray(F[:, :1]),
                                              append=xp.asarray(F)),
}


@pytest.mark.parametrize("fn", CASES.values(), ids=CASES.keys())
def test_matches_array_api_strict(fn):
    same(fn(dlt), fn(strict))


def test_sum_of_imported_memory():
    """The fast path computes on memory imported through DLPack (no compute view yet)."""
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    x = dlt.from_dlpack(P.from_numpy(a))
    assert x._array is None
    out = dlt.sum(x)
    assert out.dtype is dlt.int64 and int(np.from_dlpack(out)) == 15
    assert np.from_dlpack(dlt.sum(x, axis=0)).tolist() == [3, 5, 7]


def test_sum_returns_a_0d_array_not_a_scalar():
    out = dlt.sum(dlt.asarray([1.0, 2.0]))
    assert isinstance(out, dlt.ndarray) and out.shape == ()


def test_reductions_on_held_memory_name_the_device():
    held = dlt.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(2,),
                                      strides=(1,)))
    for fn in (dlt.sum, dlt.prod, dlt.max, dlt.mean, dlt.all, dlt.cumulative_sum):
        with pytest.raises(RuntimeError, match="metal:0"):
            fn(held)


def test_explicit_none_prepend_is_no_prepend():
    x = dlt.asarray([1, 4, 9])
    assert np.from_dlpack(dlt.diff(x, prepend=None, append=None)).tolist() == [3, 5]


def test_axis_errors():
    x = dlt.asarray(F)
    for fn in (dlt.sum, dlt.max, dlt.mean, dlt.all):
        with pytest.raises((IndexError, ValueError)):
            fn(x, axis=2)
    with pytest.raises(ValueError):
        dlt.cumulative_sum(x)  # axis is required above one dimension


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "std", "var", "all",
                                  "any", "argmax", "argmin", "count_nonzero"])
@pytest.mark.parametrize("axis", [0, -1, (0,)])
def test_a_0d_array_has_no_axis(name, axis):
    # The spec: valid axes are [-N, N), none for N = 0, and an invalid axis must raise. NumPy
    # reads axis 0 of a 0-d array as the whole for most reductions (not for mean or std).
    fn = getattr(dlt, name)
    if name in ("argmax", "argmin") and isinstance(axis, tuple):
        return  # (an int or None there)
    with pytest.raises(IndexError, match="out of bounds"):
        fn(dlt.asarray(5.0), axis=axis)
    assert fn(dlt.asarray(5.0)).shape == fn(dlt.asarray(5.0), axis=None).shape == ()
    if name not in ("argmax", "argmin"):
        assert fn(dlt.asarray(5.0), axis=()).shape == ()


@pytest.mark.parametrize("fn", [dlt.std, dlt.var, dlt.mean, dlt.sum])
def test_numpy_integer_axes_are_axes(fn):
    m = np.array([[1.0, 2.0], [3.0, 5.0]])
    for axis in (np.int64(0), np.intp(-1)):
        got = np.from_dlpack(fn(dlt.asarray(m), axis=axis))
        np.testing.assert_allclose(got, getattr(np, fn.__name__)(m, axis=int(axis)))


@pytest.mark.parametrize("fn, initial", [(dlt.cumulative_sum, 0.0), (dlt.cumulative_prod, 1.0)])
def test_cumulative_functions_take_a_0d_array_as_numpy_does(fn, initial):
    # Its one element, in 1-D (include_initial raised IndexError from array-api-compat).
    z = dlt.asarray(5.0)
    assert np.from_dlpack(fn(z)).tolist() == [5.0]
    assert np.from_dlpack(fn(z, include_initial=True)).tolist() == [initial, 5.0]
    assert np.from_dlpack(fn(z, axis=0, include_initial=True)).tolist() == [initial, 5.0]


@settings(max_examples=50, deadline=None)
@given(dtype=xps.real_dtypes(), shape=xps.array_shapes(max_dims=3, max_side=4),
       keepdims=st.booleans(), data=st.data())
def test_sum_matches_numpy(dtype, shape, keepdims, data):
    low = 0 if dtype.spec_kind == "unsigned integer" else -100
    x = data.draw(xps.arrays(dtype, shape, elements={"min_value": low, "max_value": 100}))
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1) if x.ndim else st.none())
    a = np.from_dlpack(x)
    expected = np.sum(a, axis=axis, keepdims=keepdims)
    out = dlt.sum(x, axis=axis, keepdims=keepdims)
    assert out.shape == expected.shape
    assert out.dtype.name == expected.dtype.name
    np.testing.assert_allclose(np.from_dlpack(out), expected, rtol=1e-3)


@pytest.mark.parametrize("src", [np.int8, np.uint16, np.int64, np.float32, np.float64,
                                 np.complex64, np.bool_, np.float16])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), (), 2, (1, 1), 1.0, True])
def test_sum_with_a_dtype_is_what_the_general_path_makes(src, axis):
    # sum(x, dtype=) has its own CPU path (_PLAIN_SUM); it must say and make exactly what
    # _with_dtype, the path of every other reduction with a dtype, does.
    from dltensor._statistical import _WIDEN, _with_dtype

    x = dlt.asarray(np.arange(6).reshape(2, 3).astype(src))
    for dtype in (dlt.int8, dlt.int32, dlt.uint64, dlt.float32, dlt.float64, dlt.complex64,
                  dlt.complex128, dlt.bool, dlt.float16):
        for keepdims in (False, True):
            def outcome(fn):
                try:
                    r = fn(x, axis=axis, dtype=dtype, keepdims=keepdims)
                except Exception as e:
                    return type(e), str(e)
                return r.dtype, r.shape, np.from_dlpack(r).tolist()
            assert outcome(dlt.sum) == outcome(
                lambda y, **kw: _with_dtype("sum", y, kw.pop("dtype"), _WIDEN, **kw))


@settings(max_examples=50, deadline=None)
@given(x=xps.arrays(xps.floating_dtypes(), xps.array_shapes(min_dims=1, max_dims=3,
                                                                 max_side=4),
                    elements={"allow_nan": False, "allow_infinity": False,
                              "min_value": -1e3, "max_value": 1e3}))
def test_std_is_sqrt_var_and_min_le_mean_le_max(x):
    var, std = np.from_dlpack(dlt.var(x)), np.from_dlpack(dlt.std(x))
    np.testing.assert_allclose(std, np.sqrt(var), rtol=1e-3, atol=1e-3)
    lo, mid, hi = (float(np.from_dlpack(f(x))) for f in (dlt.min, dlt.mean, dlt.max))
    assert lo - 1e-3 * abs(lo) - 1e-6 <= mid <= hi + 1e-3 * abs(hi) + 1e-6


def test_a_complex_mean_is_the_mean_of_each_part():
    # "the real-valued special cases should apply independently to the real and imaginary
    # components": NumPy divided the complex sum by N as a complex number, inf + nanj
    inf, nan = float("inf"), float("nan")
    for dtype in (dlt.complex64, dlt.complex128):
        r = np.asarray(dlt.mean(dlt.asarray([complex(inf, 1), 1 + 1j], dtype=dtype)))
        assert r.real == inf and r.imag == 1 and r.dtype == dtype.numpy
        r = np.asarray(dlt.mean(dlt.asarray([complex(nan, 2), 1 + 2j], dtype=dtype)))
        assert np.isnan(r.real) and r.imag == 2
    z = np.arange(12).reshape(3, 4) * (1 - 2j)
    for kw in ({}, {"axis": 0}, {"axis": (0, 1), "keepdims": True}, {"axis": -1}):
        got = np.asarray(dlt.mean(dlt.asarray(z), **kw))
        np.testing.assert_allclose(got, np.mean(z, **kw), strict=True)
    with pytest.raises(IndexError):
        dlt.mean(dlt.asarray(1j), axis=0)


@pytest.mark.parametrize("name", ["var", "std"])
def test_the_spread_of_a_64_dimensional_complex_array(name):
    # NumPy views complex as floats of one more axis ("number of dimensions must be within
    # [0, 64]"); 63 dimensions went, 64 did not
    rng = np.random.default_rng(3)
    z = (rng.normal(size=(3, 4)) + 1j * rng.normal(size=(3, 4))).astype(np.complex64)
    x = dlt.asarray(z.reshape((3, 4) + (1,) * 62))
    for kw, want in (({}, getattr(z, name)()),
                     ({"axis": 1, "correction": 1}, getattr(z, name)(axis=1, ddof=1))):
        got = getattr(dlt, name)(x, **kw)
        assert got.dtype == dlt.float32
        np.testing.assert_allclose(np.asarray(got).ravel(), want, rtol=1e-5)
    assert getattr(dlt, name)(x, axis=(0, 5), keepdims=True).shape == (1, 4) + (1,) * 62


@settings(max_examples=300, deadline=None)
@given(x=xps.arrays(st.sampled_from([dlt.float32, dlt.float64]), xps.array_shapes(min_dims=0),
                    elements={"allow_subnormal": True}))
def test_the_cpu_mean_of_a_whole_array_is_numpys_to_the_bit(x):
    # (dltensor divides NumPy's own sum by N itself: the same rounding, and NaN/inf alike)
    a = np.from_dlpack(x)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.mean(a)
        got = np.asarray(dlt.mean(x))
    assert got.dtype == want.dtype and got.shape == ()
    np.testing.assert_array_equal(got, want, strict=False)
    assert np.signbit(got) == np.signbit(want) or np.isnan(want)


@pytest.mark.parametrize("name", ["max", "min"])
def test_cpu_max_and_min_are_numpys(name):
    # The CPU's are NumPy's methods (np.max's Python layer ends in the same reduction): NaN
    # first, signed zeros, bools and complex as NumPy orders them, keepdims, axis tuples, and
    # the same errors in the same words (no elements, an axis out of range or repeated)
    v = np.array([[1.0, -0.0, 0.0], [np.nan, -np.inf, 2.0]])
    ro = v[::-1, ::-2].copy()
    ro.flags.writeable = False
    for a in (v, v[:, ::-1], v.T, ro, v[:, :0], v > 0, v.astype(np.float32) + 1j * v[::-1],
              np.array([[3, -7]], np.int8), np.arange(6, dtype=np.uint64).reshape(1, 2, 3)):
        for kw in ({}, {"axis": 0}, {"axis": -1}, {"axis": (0, 1)}, {"axis": (1, 0)},
                   {"axis": ()}, {"axis": 2}, {"axis": (0, 0)}, {"keepdims": True},
                   {"axis": (-1,), "keepdims": True}):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # (NaN comparisons)
                oracle.alike(lambda: getattr(dlt, name)(dlt.asarray(a), **kw),
                             lambda: dlt.asarray(getattr(np, name)(a, **kw)), (a, kw))


def test_the_cpu_mean_of_more_than_2_to_the_24_float32s_is_numpys():
    # (N is no float32 past 2**24: a float32 division by it was an ulp off)
    a = np.random.default_rng(0).random(2**24 + 1, np.float32)
    got, want = np.asarray(dlt.mean(dlt.asarray(a))), np.mean(a)
    assert got.dtype == want.dtype and got == want


@pytest.mark.parametrize("shape, axis", [((0,), None), ((0, 3), 0), ((3, 0), 1)])
def test_a_complex_mean_of_nothing_is_nan_and_warns_as_the_real_one_does(shape, axis):
    def warned(dtype):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = np.asarray(dlt.mean(dlt.zeros(shape, dtype=dtype), axis=axis))
        return r, [str(m.message) for m in w]
    z, zw = warned(dlt.complex128)
    f, fw = warned(dlt.float64)
    assert np.isnan(z.real).all() and np.isnan(z.imag).all() and z.shape == f.shape
    assert zw == fw  # once, not once per part


@pytest.mark.parametrize("f", [dlt.std, dlt.var])
def test_no_degrees_of_freedom_left_is_nan(f):
    # The spec: NaN where N - correction <= 0 (NumPy divides by max(N - correction, 0): inf).
    x = dlt.asarray([1.0, 2.0, 4.0])
    m = dlt.reshape(dlt.arange(6.0), (2, 3))
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for r in (f(x, correction=3), f(x, correction=5.5), f(m, axis=0, correction=2),
                      f(m, axis=(0, 1), correction=6, keepdims=True),
                      f(dlt.asarray(np.zeros((0,))))):
                assert np.isnan(np.asarray(r)).all() and r.dtype == dlt.float64
            assert f(m, axis=0, correction=2).shape == (3,)
            assert f(m, axis=(0, 1), correction=6, keepdims=True).shape == (1, 1)
    assert float(f(x, correction=2)) > 0  # one degree left: finite


def test_a_correction_at_int64s_ends_divides_as_the_spec_says():
    # N - correction in the backends' C int64 wrapped: var(x, correction=-2**63) was inf
    x = dlt.asarray([1.0, 2.0, 3.0])  # (squared deviations sum to 2)
    for c in (-2**63, -2**63 + 1, -2**62, -2**53 - 1, -2**53):
        want = 2 / (3 - c)
        assert float(dlt.var(x, correction=c)) == pytest.approx(want, rel=1e-15, abs=0)
        assert float(dlt.std(x, correction=c)) == pytest.approx(want ** 0.5, rel=1e-15, abs=0)
    with np.errstate(all="ignore"):
        for c in (2**63 - 1, 2**63, 2**70, 10**400, Fraction(10**400, 3)):
            assert np.isnan(float(dlt.var(x, correction=c)))  # (past the floats: it raised
    assert float(dlt.std(x, correction=-10**400)) == 0.0  # OverflowError converting it)
    assert float(dlt.linalg.vector_norm(x, ord=10**400)) == 3.0  # (ord's limit: max |x|)


def test_diff_joins_only_arrays_and_by_the_spec_promotion():
    # NumPy joined a scalar or a list to x and promoted: uint8 with -1 gave int64.
    x = dlt.asarray([1, 2], dtype=dlt.uint8)
    for edge in (-1, [0], np.zeros(1, np.uint8)):
        with pytest.raises(TypeError, match="dltensor arrays"):
            dlt.diff(x, append=edge)
    assert dlt.diff(x, prepend=dlt.asarray([0], dtype=dlt.uint16)).dtype is dlt.uint16
    with pytest.raises(TypeError, match="no promotion"):
        dlt.diff(dlt.asarray([1.0, 2.0]), prepend=dlt.asarray([0]))


@pytest.mark.parametrize("name", ["sum", "prod", "cumulative_sum", "cumulative_prod"])
def test_a_real_dtype_for_a_complex_reduction_is_refused_as_astype_refuses_it(name):
    # x "should be cast to" dtype: NumPy dropped the imaginary parts (a ComplexWarning).
    z = dlt.asarray([1 + 2j, 3 + 4j])
    with pytest.raises(TypeError, match="imaginary"):
        getattr(dlt, name)(z, dtype=dlt.float64)
    assert getattr(dlt, name)(z, dtype=dlt.complex64).dtype is dlt.complex64


def test_a_numpy_int_axis_of_a_0d_array_is_an_axis_error():
    # (np.int64(0) != () is an empty NumPy array: "truth value ... ambiguous", a ValueError)
    for f in (dlt.sum, dlt.max, dlt.mean, dlt.all, dlt.argmax, dlt.count_nonzero):
        with pytest.raises(IndexError):
            f(dlt.asarray(2.0), axis=np.int64(0))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "std", "var", "all",
                                  "any", "count_nonzero"])
def test_an_axis_of_a_wrong_type_is_a_type_error_whatever_the_arrays_ndim(name):
    # (of a 0-d array it was the AxisError of any axis there; NumPy's mean, std and var read
    # True as axis 1, an AxisError of a 1-D array)
    fn = getattr(dlt, name)
    for x in (dlt.asarray(2.0), dlt.asarray([2.0]), dlt.ones((2, 2))):
        for axis in (1.5, "0", True, False, [0], (0.0,), (None,), (True,)):
            with pytest.raises(TypeError):  # (NumPy's words name no axis)
                fn(x, axis=axis)


def test_the_axis_is_checked_before_a_complex_to_real_dtype():
    # (on the CPU NumPy's cast came first, a TypeError; CuPy and strict check the axis)
    z = dlt.asarray([1 + 1j, 2 + 0j])
    for fn in (dlt.sum, dlt.prod, dlt.cumulative_sum, dlt.cumulative_prod):
        with pytest.raises(IndexError, match="out of bounds"):
            fn(z, axis=1, dtype=dlt.float64)
        with pytest.raises(TypeError):
            fn(z, axis=0, dtype=dlt.float64)


def test_diff_takes_a_0d_edge_as_one_step_for_every_n():
    y = dlt.reshape(dlt.asarray([1, 4, 9, 16, 25, 36]), (2, 3))
    want = np.diff(np.asarray(y), n=1, prepend=0)
    assert np.array_equal(np.asarray(dlt.diff(y, prepend=dlt.asarray(0))), want)
    got = dlt.diff(y, n=0, axis=0, prepend=dlt.asarray(0), append=dlt.asarray(7))
    assert np.array_equal(np.asarray(got), [[0, 0, 0], [1, 4, 9], [16, 25, 36], [7, 7, 7]])


def test_correction_is_an_int_or_a_float():
    x = dlt.asarray([1.0, 2.0, 3.0])
    for f in (dlt.var, dlt.std):
        for bad in (True, "1", None, 1j, [1]):  # (True was read as 1, the others NumPy's words)
            with pytest.raises(TypeError, match="correction"):
                f(x, correction=bad)
        assert float(f(x, correction=np.int64(1))) == float(f(x, correction=1.0))


def test_bool_sums_and_products_and_a_mean_of_a_fresh_import():
    # dtype=bool: a logical or (sum) and and (prod), of bool arrays too, not only of others
    b = dlt.asarray([True, False])
    assert bool(dlt.sum(b, dtype=dlt.bool)) is True and bool(dlt.prod(b, dtype=dlt.bool)) is False
    assert bool(dlt.sum(dlt.asarray([0j, 2j]), dtype=dlt.bool)) is True
    assert bool(dlt.prod(dlt.asarray([0.0, 2.0]), dtype=dlt.bool)) is False
    # mean's CPU fast path on an import not yet computed on
    y = dlt.from_dlpack(P.from_numpy(np.array([1.0, 2.0, 4.0], np.float32)))
    assert y._array is None and float(dlt.mean(y)) == pytest.approx(7 / 3, rel=1e-6)


def test_diff_with_edges_of_xs_dtype_and_ndim_is_numpys():
    # (NumPy's own join, taken without the general path's checks: they must still hold)
    a = np.arange(12.0).reshape(3, 4) ** 2
    x, e = dlt.asarray(a), dlt.asarray(a[:1] - 5)
    for axis, n in ((0, 1), (-2, 2), (0, 3)):
        got = dlt.diff(x, axis=axis, n=n, prepend=e, append=e)
        assert np.array_equal(np.asarray(got), np.diff(a, axis=axis, n=n, prepend=a[:1] - 5,
                                                       append=a[:1] - 5))
    assert dlt.diff(x, axis=0, n=9, prepend=e).shape == (0, 4)
    with pytest.raises(ValueError):  # (edges that do not join: NumPy's error)
        dlt.diff(x, axis=1, prepend=e)
    pinned = dlt.from_dlpack(P.from_numpy(a, device=(P.CUDA_HOST, 0)))
    assert dlt.diff(pinned, axis=0, prepend=pinned).device == dlt.Device("cpu")
    big = dlt.asarray(np.broadcast_to(np.zeros(1), (2**59,)))  # (2**62 bytes, a view)
    with pytest.raises(ValueError, match="past the largest array"):
        dlt.diff(big, prepend=big)


def test_products_and_running_sums_commonest_calls_answer_as_the_checked_paths():
    # NumPy's own prod, cumulative_sum and cumulative_prod for NumPy arrays on the CPU with no
    # dtype= (the checked path: pinned memory): the same results to the bit, the same errors
    def pinned(a):
        return dlt.from_dlpack(P.from_numpy(np.array(a, order="K"), device=(P.CUDA_HOST, 0)))

    rng = np.random.default_rng(7)
    m = rng.standard_normal((3, 4))
    with np.errstate(all="ignore"):
        for a in (m, m.T, m.astype(np.float32), m + 1j * m[::-1], (m * 9).astype(np.int8),
                  m > 0, (m * 1e4).astype(np.uint16), np.array([1e300, 1e300, -0.0]),
                  np.array(3.5), m[:, :0], m.astype(np.float16)):
            for f, kwargs in ((dlt.prod, {}), (dlt.prod, {"axis": 0, "keepdims": True}),
                              (dlt.sum, {"axis": (True,)}), (dlt.sum, {"axis": [0]}),
                              (dlt.sum, {"axis": -3}), (dlt.prod, {"axis": (0, 0)}),
                              (dlt.prod, {"axis": (0, 1)}), (dlt.prod, {"axis": True}),
                              (dlt.prod, {"axis": 2}), (dlt.cumulative_sum, {}),
                              (dlt.cumulative_sum, {"axis": -1, "include_initial": True}),
                              (dlt.cumulative_prod, {"axis": 0}), (dlt.cumulative_sum, {"axis": 5}),
                              (dlt.cumulative_prod, {"axis": 1, "include_initial": 1}),
                              (dlt.prod, {"axis": 5, "keepdims": np.True_}),
                              (dlt.cumulative_sum, {"axis": 5, "include_initial": np.True_})):
                oracle.alike(lambda: f(dlt.asarray(a), **kwargs), lambda: f(pinned(a), **kwargs),
                             (f.__name__, kwargs, a.shape, a.dtype))


def _commonest_calls_alike(checked, others):
    """Each function of ``checked`` (-> its checked path) on NumPy arrays on the CPU, and on
    pinned memory, as its checked path: every axis, and the arguments of ``others``."""
    import ml_dtypes

    rng = np.random.default_rng(11)
    m = rng.standard_normal((3, 4)) * 1e3
    m[0, 1], m[2, 2] = -0.0, np.inf
    ro = m[:, ::-1].copy()
    ro.flags.writeable = False
    with np.errstate(all="ignore"):  # (inf's casts and products)
        arrays = [m, m.T, m[::-1, ::2], ro, m.astype(np.float32), m.astype(np.float16),
                  m.astype(ml_dtypes.bfloat16), m + 1j * m[::-1], (m * 9).astype(np.int8),
                  (m * 1e4).astype(np.uint16), m > 0, np.array([np.nan, 1.0, -0.0]),
                  m[:, :0], np.array(3.5), np.array(0.0), m.reshape(3, 2, 2),
                  np.zeros((1,) * 64), np.ones((1,) * 64, np.complex64), m[:1, :1]]
    axes = ({}, {"axis": None}, {"axis": 0}, {"axis": 1}, {"axis": -1}, {"axis": -2},
            {"axis": 2}, {"axis": -3}, {"axis": 2**31}, {"axis": True}, {"axis": np.int64(0)},
            {"axis": (0,)}, {"axis": (0, 1)}, {"axis": ()}, {"axis": 1.0})
    pinned = [dlt.from_dlpack(P.from_numpy(a.copy(), device=(P.CUDA_HOST, 0)))
              for a in arrays[:2]]  # (the checked path's own arrays: NumPy computes on them)
    for a, x in [(a, dlt.asarray(a)) for a in arrays] + list(zip(arrays, pinned)):
        for f, check in checked.items():
            for kw in axes + others:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore", RuntimeWarning)  # (no degrees of freedom)
                    oracle.alike(lambda: f(x, **kw), lambda: check(x, **kw),
                                 (f.__name__, a.dtype, a.shape, kw))


def test_spreads_and_running_sums_commonest_calls_answer_as_the_checked_paths():
    # std, var, cumulative_sum and cumulative_prod of a NumPy array on the CPU are NumPy's own
    # calls where the checked path makes the same: the same results to the bit, the same
    # errors in the same words (the spread of no more elements than the correction: NaN; a
    # correction past 2**53 divides as a float; an axis out of range, past a C int or not an
    # int; flags and corrections of other types; 16-bit floats computed in float32)
    from dltensor import _statistical as s

    def spread(name):
        return lambda x, **kw: s._checked_spread(name, x, kw.get("axis"),
                                                 kw.get("correction", 0.0),
                                                 kw.get("keepdims", False))

    def running(name):
        return lambda x, **kw: s._cumulative(name, x, kw.get("axis"), kw.get("dtype"),
                                             kw.get("include_initial", False))

    _commonest_calls_alike(
        {dlt.std: spread("std"), dlt.var: spread("var")},
        ({"correction": 1}, {"correction": 1.0}, {"correction": 0.5}, {"correction": 3},
         {"correction": 4.0}, {"correction": 12}, {"correction": -2}, {"correction": 2**53},
         {"correction": 2**53 + 2}, {"correction": -2.0**60},
         {"correction": -2**53 - 3, "axis": 0}, {"correction": -2**53},
         {"correction": -2.0**53 - 2}, {"correction": 2**53 + 3, "axis": 0},
         {"correction": float("nan")}, {"correction": float("inf")},
         {"correction": np.float64(1.0)}, {"correction": True}, {"correction": 1, "axis": 0},
         {"correction": 2.5, "axis": -1, "keepdims": True}, {"keepdims": True},
         {"keepdims": np.True_}, {"keepdims": 0}, {"axis": 0, "keepdims": True}))
    _commonest_calls_alike(
        {dlt.cumulative_sum: running("cumulative_sum"),
         dlt.cumulative_prod: running("cumulative_prod")},
        ({"include_initial": True}, {"include_initial": np.False_},
         {"include_initial": False, "axis": 0}, {"dtype": dlt.float64},
         {"dtype": None, "axis": -1}))


def test_spreads_and_running_sums_on_the_cpu_take_the_fast_paths(monkeypatch):
    # (never their checked paths: a fast path lost or narrowed is a slowdown no answer shows)
    from dltensor import _statistical

    def checked(*args, **kwargs):
        raise AssertionError("the checked path")

    monkeypatch.setattr(_statistical, "_checked_spread", checked)
    monkeypatch.setattr(_statistical, "_cumulative", checked)
    m = dlt.asarray(np.arange(12.0).reshape(3, 4) % 5)
    for x in (m, dlt.asarray([3.0, -1.0, 0.0]), dlt.asarray(np.array([[1, 2]], np.int8)),
              dlt.asarray([True, False]), dlt.asarray(np.ones((1, 3), np.complex64)),
              dlt.asarray(np.zeros((1,) * 63))):
        for axis in (None, *range(-x.ndim, x.ndim)):
            for keepdims in (False, True):
                for correction in (0, 0.0, -0.0, 0.5, -3, -3.0, -2.0**53, -2**53):
                    dlt.std(x, axis=axis, correction=correction, keepdims=keepdims)
                    dlt.var(x, axis=axis, correction=correction, keepdims=keepdims)
            if axis is not None or x.ndim == 1:
                dlt.cumulative_sum(x, axis=axis), dlt.cumulative_prod(x, axis=axis)
        dlt.std(x), dlt.var(x)
    dlt.std(dlt.asarray([1.0, 2.0]), correction=1.0), dlt.var(dlt.asarray(2.0))
    monkeypatch.undo()
    for f in (dlt.std, dlt.var, dlt.cumulative_sum, dlt.cumulative_prod):
        for other in (np.array([1.0, 2.0]), [1.0, 2.0]):  # (not arrays: the checked path's)
            with pytest.raises(TypeError, match="array"):
                f(other)


def test_any_and_all_commonest_calls_answer_as_the_checked_paths():
    # any and all of a NumPy array on the CPU are NumPy's own logical reduction into bool,
    # as np.any and np.all make it: the same results, the same errors in the same words
    from dltensor import _utility as u

    _commonest_calls_alike({dlt.any: u._checked_any, dlt.all: u._checked_all},
                           ({"keepdims": True}, {"keepdims": np.True_}, {"keepdims": 1},
                            {"axis": 1, "keepdims": True},
                            {"axis": (0, -1), "keepdims": True}))


def test_any_and_all_on_the_cpu_take_the_fast_paths(monkeypatch):
    # (never their checked paths: a fast path lost or narrowed is a slowdown no answer shows)
    from dltensor import _utility

    def checked(*args, **kwargs):
        raise AssertionError("the checked path")

    monkeypatch.setattr(_utility, "_checked_any", checked)
    monkeypatch.setattr(_utility, "_checked_all", checked)
    for x in (dlt.asarray(np.arange(12.0).reshape(3, 4) % 5), dlt.asarray([True, False]),
              dlt.asarray(np.zeros((1,) * 64, np.int8)), dlt.asarray(0), dlt.asarray(0.5)):
        for axis in (None, *range(-x.ndim, x.ndim)):
            for keepdims in (False, True):
                dlt.any(x, axis=axis, keepdims=keepdims)
                dlt.all(x, axis=axis, keepdims=keepdims)
        dlt.any(x), dlt.all(x)
    monkeypatch.undo()
    for f in (dlt.any, dlt.all):
        for other in (np.array([1.0, 2.0]), [1.0, 2.0]):  # (not arrays: the checked path's)
            with pytest.raises(TypeError, match="array"):
                f(other)


def _signs(x):
    """The sign bits of x's values, each part's for complex."""
    if not dlt.isdtype(x.dtype, "complex floating"):
        x = dlt.astype(x, dlt.float64)  # (NumPy has no bfloat16)
    a = np.from_dlpack(x)
    parts = (a.real, a.imag) if a.dtype.kind == "c" else (a,)
    return [np.signbit(p).tolist() for p in parts]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64",
                                   "complex128"])
def test_sums_of_negative_zeros_are_negative_zero_as_successive_adds_make_them(dtype):
    # The spec's sum (and trace) is successive adds, whose special cases are add's: -0.0 +
    # -0.0 is -0.0. NumPy's sums start from +0.0, which dropped the sign; an empty sum stays 0
    # and a +0.0 among -0.0s makes +0.0, as add does.
    dt = getattr(dlt, dtype)
    z = complex(-0.0, -0.0) if "complex" in dtype else -0.0
    x = dlt.full((2, 3), z, dtype=dt)
    m = dlt.asarray([[0.0, z], [z, z]], dtype=dt)
    calls = {  # (each path: the fast one, axes, dtype=, the checked one, trace's)
        "all": (dlt.sum(x), True), "axis": (dlt.sum(x, axis=1, keepdims=True), True),
        "axes": (dlt.sum(x, axis=(0, 1)), True), "none": (dlt.sum(x, axis=()), True),
        "dtype": (dlt.sum(x, dtype=dlt.complex128 if "complex" in dtype else dlt.float64),
                  True),
        "own dtype": (dlt.sum(x, dtype=dt), True),
        "a +0.0 among them": (dlt.sum(m, axis=1), [False, True]),
        "empty": (dlt.sum(x[:, :0], axis=1), False),
    }
    if dtype != "bfloat16":  # (trace takes the spec's dtypes, and float16)
        calls.update({
            "trace": (dlt.linalg.trace(x), True),
            "trace dtype": (dlt.linalg.trace(x, dtype=dt), True),
            "trace of an empty diagonal": (dlt.linalg.trace(x, offset=3), False),
            "trace with a +0.0": (dlt.linalg.trace(m), False)})
    for what, (r, negative) in calls.items():
        assert dlt.all(r == 0), what
        signs = _signs(r)
        expected = [np.broadcast_to(negative, np.shape(s)).tolist() for s in signs]
        assert signs == expected, what


def _bits(a):
    a = np.asarray(a)
    return [(repr(float(v.real)), repr(float(v.imag))) for v in a.ravel()], a.shape


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_products_are_successive_multiplies(dtype):
    # The spec's prod is successive multiplies, whose special cases are multiply's: NumPy's
    # products start from 1+0j, and (1+0j) * z is not z where a part of z is infinite, NaN or
    # zero (prod([inf+0j]) was inf+nanj; prod([infj, 1j]) nan+nanj, where infj * 1j is
    # -inf+nanj). Each product here is dltensor's own multiply, factor by factor, in order.
    import functools
    import itertools
    import math
    inf, nan = math.inf, math.nan
    specials = [complex(p, q) for p, q in itertools.product((0.0, -0.0, 1.5, -2.0, inf, -inf,
                                                             nan), repeat=2)]
    rng = np.random.default_rng(0)
    a = rng.choice(np.array(specials, dtype=dtype), size=(3, 2, 2))
    x = dlt.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in (None, 0, 1, -1, (0, 2), (2, 0), ()):
            axes = tuple(range(3)) if axis is None else (axis % 3,) if type(axis) is int \
                else tuple(sorted(i % 3 for i in axis))
            lanes = np.moveaxis(a, axes, range(3 - len(axes), 3))
            lanes = lanes.reshape(lanes.shape[:3 - len(axes)] + (-1,))
            want = np.empty(lanes.shape[:-1], dtype=dtype)
            for i in np.ndindex(want.shape):
                want[i] = np.from_dlpack(functools.reduce(
                    dlt.multiply, [dlt.asarray(v) for v in lanes[i]]))
            for keepdims in (False, True):
                got = dlt.prod(x, axis=axis, keepdims=keepdims)
                shape = [1 if i in axes else n for i, n in enumerate(a.shape)] if keepdims \
                    else want.shape
                assert _bits(np.from_dlpack(got)) == _bits(want.reshape(shape)), (axis, keepdims)
        one = dlt.asarray([complex(inf, 0.0)], dtype=getattr(dlt, dtype))
        assert _bits(np.from_dlpack(dlt.prod(one))) == _bits(complex(inf, 0.0))
        # (a real array asked for a complex product: cast, then multiplied one by one)
        r = dlt.prod(dlt.asarray([-0.0, -0.0]), dtype=getattr(dlt, dtype))
        c = dlt.asarray(complex(-0.0, 0.0), dtype=getattr(dlt, dtype))  # (-0.0 cast)
        assert _bits(np.from_dlpack(r)) == _bits(np.from_dlpack(dlt.multiply(c, c)))  # 0-0j
    for bad in (True, (0, True), 1.0):
        with pytest.raises(TypeError, match="prod's axis"):
            dlt.prod(x, axis=bad)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        dlt.prod(x, axis=(0, -3))
    assert dlt.prod(dlt.zeros((2, 0), dtype=getattr(dlt, dtype)), axis=1).shape == (2,)
