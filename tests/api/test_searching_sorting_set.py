"""Searching, sorting and set functions against array-api-strict, plus the spec's rules."""

import cmath
import math

import array_api_strict as strict
import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis.extra.array_api import make_strategies_namespace

import dltensor as dlt
from oracle import alike, same
import producers as P

xps = make_strategies_namespace(dlt)


M = np.array([[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]], dtype=np.int16)
F = np.array([2.5, np.nan, -1.0, 2.5, -0.0, np.nan, np.inf], dtype=np.float64)
SORTED = np.array([1.0, 2.0, 2.0, 3.0, 7.5], dtype=np.float32)
COND = np.array([[True, False, True, False]] * 3)
DUPS = np.array([[2, 7, 2], [7, 1, 2]], dtype=np.uint8)

CASES = {
    "argmax": lambda xp: xp.argmax(xp.asarray(M)),
    "argmax axis keepdims": lambda xp: xp.argmax(xp.asarray(M), axis=0, keepdims=True),
    "argmin axis": lambda xp: xp.argmin(xp.asarray(M), axis=-1),
    "count_nonzero": lambda xp: xp.count_nonzero(xp.asarray(M - 1)),
    "count_nonzero axes": lambda xp: xp.count_nonzero(xp.asarray(COND), axis=(0, 1),
                                                      keepdims=True),
    "nonzero": lambda xp: xp.nonzero(xp.asarray(M - 5)),
    "searchsorted": lambda xp: xp.searchsorted(xp.asarray(SORTED),
                                               xp.asarray([2.0, 0.0, 9.0], dtype=xp.float32)),
    "searchsorted right": lambda xp: xp.searchsorted(xp.asarray(SORTED),
                                                     xp.asarray(SORTED), side="right"),
    "searchsorted sorter": lambda xp: xp.searchsorted(
        xp.asarray(M[0]), xp.asarray(M[1]), sorter=xp.argsort(xp.asarray(M[0]))),
    "searchsorted scalar": lambda xp: xp.searchsorted(xp.asarray(SORTED), 2.0),
    "where": lambda xp: xp.where(xp.asarray(COND), xp.asarray(M), xp.asarray(-M)),
    "where promotes": lambda xp: xp.where(xp.asarray(COND[0]), xp.asarray(M[0]),
                                          xp.asarray(DUPS[0, :1])),
    "where int scalar": lambda xp: xp.where(xp.asarray(COND), xp.asarray(M), 0),
    "where float scalar first": lambda xp: xp.where(xp.asarray(COND[0]), -1.5,
                                                    xp.asarray(SORTED[:4])),
    "where complex scalar": lambda xp: xp.where(xp.asarray(COND[0]), xp.asarray(SORTED[:4]),
                                                1j),
    "where bool scalar": lambda xp: xp.where(xp.asarray(COND), xp.asarray(COND), False),
    "argsort": lambda xp: xp.argsort(xp.asarray(M)),
    "argsort descending stable": lambda xp: xp.argsort(xp.asarray(M), axis=0,
                                                       descending=True),
    "sort": lambda xp: xp.sort(xp.asarray(M), axis=0),
    "sort descending": lambda xp: xp.sort(xp.asarray(SORTED), descending=True),
    "unique_values": lambda xp: xp.unique_values(xp.asarray(DUPS)),
    "unique_counts": lambda xp: xp.unique_counts(xp.asarray(DUPS)),
    "unique_inverse": lambda xp: xp.unique_inverse(xp.asarray(DUPS)),
    "unique_all": lambda xp: xp.unique_all(xp.asarray(DUPS)),
    "unique_all 0-d": lambda xp: xp.unique_all(xp.asarray(3.5)),
    "isin": lambda xp: xp.isin(xp.asarray(M), xp.asarray([1, 5, 8], dtype=xp.int16)),
}


@pytest.mark.parametrize("fn", CASES.values(), ids=CASES.keys())
def test_matches_array_api_strict(fn):
    same(fn(dlt), fn(strict))


def test_unique_counts_every_nan_apart():
    values, counts = dlt.unique_counts(dlt.asarray(F))
    v = np.from_dlpack(values)
    assert np.isnan(v).sum() == 2  # two NaNs in, two distinct values out
    assert np.from_dlpack(counts).sum() == F.size
    r = dlt.unique_all(dlt.asarray(F))
    assert r._fields == ("values", "indices", "inverse_indices", "counts")
    assert dlt.unique_inverse(dlt.asarray(F))._fields == ("values", "inverse_indices")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128",
                                   "int8", "uint64"])
def test_every_unique_gives_numpys_values_counts_and_inverse(dtype):
    # (with zeros, without, all negative, all NaN, empty, one element: the zero's sign is the
    # test below's)
    rng = np.random.default_rng(11)
    floats = dtype.startswith(("float", "complex"))
    cases = [[3.0, 1.0, 3.0, 2.0], [-5.0, -1.0, -5.0], [1.0], [], [7.0, 0.0, 7.0, 0.0]]
    if floats:
        cases += [[np.nan, -2.0, np.nan], [np.nan, np.nan], list(rng.standard_normal(50))]
    for v in cases:
        a = (np.abs(np.array(v)) if dtype.startswith("u") else np.array(v)).astype(dtype)
        x = dlt.asarray(a)
        values, index, inverse, counts = np.unique(a, return_index=True, return_inverse=True,
                                                   return_counts=True, equal_nan=False)
        for got in (dlt.unique_values(x), dlt.unique_counts(x).values,
                    dlt.unique_inverse(x).values, dlt.unique_all(x).values):
            assert np.array_equal(np.asarray(got), values, equal_nan=True), (v, dtype)
        assert np.array_equal(np.asarray(dlt.unique_counts(x).counts), counts)
        assert np.array_equal(np.asarray(dlt.unique_inverse(x).inverse_indices), inverse)
        assert np.array_equal(np.asarray(dlt.unique_all(x).indices), index)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_every_unique_keeps_the_first_zeros_sign(dtype):
    # The spec lets either zero stand for both; dltensor keeps the first's, as unique_all's
    # first-occurrence indices say, on every device (NumPy's unique sorts without indices by
    # an unstable sort: unique_values([0.5, 0.5, 0.0, -0.0]) was -0.0, unique_all's 0.0)
    # Past 256 real floats NumPy's own unique (no stable sort) runs, its zero mended after,
    # unless a NaN is there (then the stable sort), so: short and long, with and without NaN
    rng = np.random.default_rng(7)
    cases = [([0.5, 0.5, 0.0, -0.0, np.nan, 3.0, -0.0, 1.0, 0.0, -2.0], 3),
             ([0.5, 0.5, 0.0, -0.0, np.nan, 3.0, -0.0, 1.0, 0.0, -2.0], 40),
             ([0.5, 0.5, 0.0, -0.0, 7.0, 3.0, -0.0, 1.0, 0.0, -2.0], 40)]
    for base, times in cases * 15:
        v = np.array(rng.permutation(base * times), dtype=dtype).reshape(2 * times, 5)
        if dtype.startswith("complex"):
            v.imag = rng.choice([0.0, -0.0], v.shape)
        x = dlt.asarray(v)
        first = v.reshape(-1)[np.flatnonzero(v.reshape(-1) == 0)[0]]
        for values in (dlt.unique_values(x), dlt.unique_counts(x).values,
                       dlt.unique_inverse(x).values, dlt.unique_all(x).values):
            got = np.asarray(values)[np.asarray(values) == 0]
            assert got.size == 1
            for part in (np.real, np.imag):
                assert np.signbit(part(got[0])) == np.signbit(part(first)), v


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_every_unique_keeps_the_first_sign_of_a_complex_values_zero_part(dtype):
    # 1+0j and 1-0j are one value, as are 0+2j and -0+2j: unique_all keeps the first
    # occurrence's signs, and so does a GPU (CuPy's sorts are stable); NumPy's unique with
    # counts or inverse indices but no indices sorts by an unstable sort, which past 16
    # elements kept either
    rng = np.random.default_rng(11)
    values = np.array([1 + 0j, complex(1, -0.0), 2j, complex(-0.0, 2), 3 + 3j], dtype=dtype)
    for n in (17, 40, 300):
        for _ in range(10):
            v = rng.choice(values, n)
            x = dlt.asarray(v)
            want = np.asarray(dlt.unique_all(x).values)
            firsts = v[np.sort(np.unique(v, return_index=True)[1])]  # (first occurrences)
            assert sorted(zip(firsts.real.tolist(), firsts.imag.tolist(),
                              np.signbit(firsts.real).tolist(),
                              np.signbit(firsts.imag).tolist())) == sorted(
                zip(want.real.tolist(), want.imag.tolist(), np.signbit(want.real).tolist(),
                    np.signbit(want.imag).tolist()))
            for got in (dlt.unique_values(x), dlt.unique_counts(x).values,
                        dlt.unique_inverse(x).values):
                assert np.asarray(got).tobytes() == want.tobytes(), v


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_unique_of_many_complex_values_with_odd_parts_keeps_the_first_occurrences(dtype):
    # Past ~1000 elements unique_counts and unique_inverse take NumPy's unstable sort where no
    # part is NaN or -0.0 (equal values are then equal bits), its stable one where one is
    rng = np.random.default_rng(5)
    values = np.array([1 + 0j, complex(1, -0.0), 2j, complex(-0.0, 2), 3 + 3j,
                       complex(math.nan, 1), complex(2, math.nan), complex(-0.0, -0.0)], dtype)
    for n in (1500, 5000):
        for odd in ([1], [3], [5], [6], [7], []):  # (the odd part among plain values)
            pick = [0, 2, 4, *odd]
            v = rng.choice(values[pick], n)
            v[::7] = values[0]  # (1+0j first among its equals, often)
            x = dlt.asarray(v)
            want = dlt.unique_all(x)
            for got in (dlt.unique_counts(x), dlt.unique_inverse(x)):
                assert np.asarray(got[0]).tobytes() == np.asarray(want.values).tobytes(), odd
            np.testing.assert_array_equal(np.asarray(dlt.unique_inverse(x).inverse_indices),
                                          np.asarray(want.inverse_indices))
            np.testing.assert_array_equal(np.asarray(dlt.unique_counts(x).counts),
                                          np.asarray(want.counts))


@pytest.mark.parametrize("shape, axis", [((1,) * 32 + (3,), -1), ((2,) + (1,) * 40 + (3, 2), 0),
                                         ((1,) * 62 + (0, 2), 31), ((1,) * 63 + (4,), -1),
                                         ((1,) * 31 + (4, 3), None)])
@pytest.mark.parametrize("descending", [False, True])
def test_sorts_of_more_than_32_dimensions(shape, axis, descending):
    # (NumPy's sorts stop at 32: RuntimeError; the spec's arrays go to 64. axis None: not
    # given, the last)
    a = np.random.default_rng(0).integers(0, 3, shape).astype(np.float64)
    x = dlt.asarray(a)
    if axis is None:
        assert np.array_equal(np.asarray(dlt.sort(x, descending=descending)),
                              np.asarray(dlt.sort(x, axis=-1, descending=descending)))
        assert np.array_equal(np.asarray(dlt.argsort(x, descending=descending)),
                              np.asarray(dlt.argsort(x, axis=-1, descending=descending)))
        axis = -1
    rows = np.moveaxis(a, axis, -1)
    want = np.sort(rows.reshape(-1, rows.shape[-1]), axis=-1, kind="stable")
    want = np.moveaxis((want[:, ::-1] if descending else want).reshape(rows.shape), -1, axis)
    got = dlt.sort(x, axis=axis, descending=descending)
    assert got.shape == shape and np.array_equal(np.asarray(got), want)
    order = dlt.argsort(x, axis=axis, descending=descending)
    assert np.array_equal(np.asarray(dlt.take_along_axis(x, order, axis=axis)), want)


@pytest.mark.parametrize("fn", [dlt.sort, dlt.argsort])
@pytest.mark.parametrize("axis", [35, -36])
def test_sorts_of_more_than_32_dimensions_name_an_axis_out_of_bounds(fn, axis):
    # (the rows' moveaxis said "source: axis 35 is out of bounds ...")
    x = dlt.asarray(np.zeros((1,) * 33 + (2, 3)))
    for descending in (False, True):
        with pytest.raises(np.exceptions.AxisError,
                           match=rf"^{fn.__name__}: axis {axis} is out of bounds for an array "
                                 "of dimension 35$"):
            fn(x, axis=axis, descending=descending)


def test_descending_sort_is_stable():
    keys = dlt.asarray([1, 2, 1, 2, 1])
    assert np.from_dlpack(dlt.argsort(keys, descending=True)).tolist() == [1, 3, 0, 2, 4]
    assert np.from_dlpack(dlt.argsort(keys)).tolist() == [0, 2, 4, 1, 3]
    # sort too: 0.0 and -0.0 compare equal, so stay in their order (a reversed ascending sort,
    # array-api-compat's, gave -0.0 first); the same through bfloat16's float32 sort
    for dtype in (dlt.float64, dlt.float32, dlt.bfloat16):
        x = dlt.asarray([0.0, -0.0, 1.0, -0.0, 0.0], dtype=dtype)
        got = np.asarray(dlt.sort(x, descending=True)).astype(np.float64)
        assert np.signbit(got).tolist() == [False, False, True, True, False], dtype
        assert np.signbit(np.asarray(dlt.sort(x)).astype(np.float64)).tolist() == \
            [False, True, True, False, False]
    # (a compact result: a flipped view's negative strides make PyTorch's from_dlpack abort)
    assert all(s > 0 for s in dlt.sort(dlt.asarray(np.ones((2, 3))), descending=True).strides)
    m = dlt.asarray([[0.0, -0.0], [-0.0, 0.0]])
    assert np.signbit(np.asarray(dlt.sort(m, axis=0, descending=True))).tolist() == \
        [[False, True], [True, False]]


def test_where_scalar_rules():
    c = dlt.asarray([True, False])
    i8, f32 = dlt.asarray([1, 2], dtype=dlt.int8), dlt.asarray([1, 2], dtype=dlt.float32)
    assert dlt.where(c, i8, 5).dtype is dlt.int8
    assert dlt.where(c, 5, f32).dtype is dlt.float32
    assert dlt.where(c, f32, 2j).dtype is dlt.complex64
    for bad in ((c, i8, 1.5), (c, True, i8), (c, f32, True)):
        with pytest.raises(TypeError):
            dlt.where(*bad)
    with pytest.raises(TypeError):
        dlt.where(c, 1, 2)  # at least one array
    with pytest.raises(TypeError):
        dlt.where(True, i8, 1)  # condition is an array
    with pytest.raises(TypeError):
        dlt.where(c, dlt.asarray([1, 2]), dlt.asarray([1, 2], dtype=dlt.uint64))


def test_errors():
    with pytest.raises(ValueError):
        dlt.nonzero(dlt.asarray(3))  # the spec forbids 0-d input
    with pytest.raises(ValueError):
        dlt.searchsorted(dlt.asarray(SORTED), 1.0, side="middle")
    with pytest.raises(TypeError):
        dlt.searchsorted(dlt.asarray(SORTED), 1j)
    with pytest.raises(TypeError):
        dlt.isin(1, 2)


def test_isin_invert():
    # (array-api-strict 2.6.1 ignores invert=, so NumPy is the oracle here)
    out = dlt.isin(dlt.asarray(M), dlt.asarray([5, 1], dtype=dlt.int16), invert=True)
    np.testing.assert_array_equal(np.from_dlpack(out), ~np.isin(M, [5, 1]), strict=True)


def test_scalar_isin_gives_a_0d_array():
    out = dlt.isin(5, dlt.asarray(M))
    assert out.shape == () and out.dtype is dlt.bool and bool(np.from_dlpack(out))


@settings(max_examples=50, deadline=None)
@given(x=xps.arrays(xps.real_dtypes(), xps.array_shapes(min_dims=1, max_dims=3, max_side=5)))
def test_sort_is_argsort_applied(x):
    a = np.from_dlpack(x)
    for descending in (False, True):
        order = np.from_dlpack(dlt.argsort(x, axis=-1, descending=descending))
        expected = np.take_along_axis(a, order, axis=-1)
        got = np.from_dlpack(dlt.sort(x, axis=-1, descending=descending))
        np.testing.assert_array_equal(got, expected, strict=True)
        assert got.tobytes() == expected.tobytes()  # (signed zeros too)
    order = np.from_dlpack(dlt.argsort(x, axis=-1))
    assert (np.sort(order, axis=-1) == np.arange(a.shape[-1])).all()  # a permutation


@settings(max_examples=50, deadline=None)
@given(x=xps.arrays(xps.integer_dtypes(), xps.array_shapes(max_dims=3, max_side=5)))
def test_unique_inverse_rebuilds_x(x):
    values, inverse = dlt.unique_inverse(x)
    v, inv = np.from_dlpack(values), np.from_dlpack(inverse)
    assert inv.shape == x.shape
    np.testing.assert_array_equal(v[inv], np.from_dlpack(x), strict=True)
    assert (v[1:] > v[:-1]).all()  # sorted and unique


def test_numpy_scalars_are_taken_as_python_ints_are():
    # where and searchsorted passed a NumPy scalar to asarray(dtype=...), which wrapped it:
    # where(c, u8, np.int64(300)) gave 44s. Past the dtype, where refuses (it stores the
    # value) and searchsorted compares, for a NumPy int as for a Python one.
    u8 = dlt.asarray([1, 2, 3], dtype=dlt.uint8)
    c = dlt.asarray([True, False, False])
    for big in (300, np.int64(300), np.uint64(2**64 - 1)):
        with pytest.raises(OverflowError):
            dlt.where(c, u8, big)
        assert int(dlt.searchsorted(u8, big)) == 3  # (compared, not stored: see below)
    assert np.from_dlpack(dlt.where(c, u8, np.int64(30))).tolist() == [1, 30, 30]
    assert int(dlt.searchsorted(u8, np.int64(2))) == 1


def test_searchsorted_places_an_int_past_the_dtype_after_or_before_every_element():
    # (it raised OverflowError, where less(x1, 300) compares it and NumPy 2 and torch search
    # it: the spec leaves ints past the dtype open)
    x1 = np.array([-128, 1, 2, 127], np.int8)
    for v in (300, -300, 2**70, -2**70, np.int64(128)):
        for side in ("left", "right"):
            got = dlt.searchsorted(dlt.asarray(x1), v, side=side)
            assert got.shape == () and got.dtype == dlt.int64
            assert int(got) == np.searchsorted(x1, v, side=side) == (4 if v > 0 else 0)
    assert int(dlt.searchsorted(dlt.asarray([1, 2], dtype=dlt.uint64), -1)) == 0
    assert int(dlt.searchsorted(dlt.asarray(x1), 300, sorter=dlt.asarray([0, 1, 2, 3]))) == 4
    with pytest.raises(ValueError):
        dlt.searchsorted(dlt.asarray(x1), 300, sorter=dlt.asarray([0, 1, 2, 9]))


def test_isin_compares_a_float_scalar_in_the_arrays_dtype():
    # Value equality, as equal() says: a Python 0.1 next to float32 is float32's 0.1.
    f32 = dlt.asarray([0.1, 0.5], dtype=dlt.float32)
    assert np.from_dlpack(dlt.isin(f32, 0.1)).tolist() == \
        np.from_dlpack(dlt.equal(f32, 0.1)).tolist() == [True, False]
    assert bool(dlt.isin(0.1, f32))
    assert bool(dlt.isin(dlt.asarray(1 + 0.1j, dtype=dlt.complex64), 1 + 0.1j))
    assert np.from_dlpack(dlt.isin(dlt.asarray([1, 2]), 1.0)).tolist() == [True, False]


def test_isin_of_an_int_at_the_ends_of_the_integers_compared():
    # An int within the dtype's integers (at either end) is compared; one past them equals
    # no element. Beside floats an int past int64 and uint64 is a float in their dtype, as
    # equal() takes it (2**64 + 1 is float64's 2**64); one past float64's, none.
    i8 = dlt.asarray([127, -128], dtype=dlt.int8)
    assert bool(dlt.isin(127, i8)) and bool(dlt.isin(-128, i8))
    assert not dlt.isin(128, i8) and not dlt.isin(-129, i8)
    f = dlt.asarray([2.0**64, -2.0**63, 1.0])
    assert bool(dlt.isin(2**64, f)) and bool(dlt.isin(-2**63, f))
    assert bool(dlt.isin(2**64 + 1, f)) and bool(dlt.isin(-2**63 - 1, f))
    assert not dlt.isin(10**400, f) and not dlt.isin(-10**400, f)


def test_isin_compares_an_int_scalar_in_a_float_arrays_dtype_as_equal_does():
    # The spec's isin is value equality "(see equal)", and equal takes a Python scalar in the
    # array's dtype: 2049 is float16's 2048, 16777217 float32's 16777216. An int was compared
    # exactly, in float64 (as NumPy's isin; PyTorch's agrees with equal).
    for dtype, values, n in ((dlt.float16, [2048.0, 2050.0, math.inf], 2049),
                             (dlt.float16, [2048.0, 2050.0, math.inf], 70000),
                             (dlt.float32, [16777216.0, 1.0, 2.0], 16777217),
                             (dlt.complex64, [16777216.0, 1.0, 2.0], 16777217)):
        x = dlt.asarray(values, dtype=dtype)
        with np.errstate(over="ignore"):  # (70000 is float16's inf, with NumPy's warning)
            want = np.from_dlpack(dlt.equal(x, n)).tolist()
            assert np.from_dlpack(dlt.isin(x, n)).tolist() == want and any(want)
            assert np.from_dlpack(dlt.isin(x, n, invert=True)).tolist() == [not w for w in want]
            assert bool(dlt.isin(n, x))


def test_searchsorted_compares_64_bit_integers_with_floats_exactly():
    # NumPy compares int64 with float64 (or with uint64) in float64, rounding past 2**53;
    # the spec's index condition is on the values. Checked against exact Python comparisons
    # (NaN last, as sort puts it), with and without a sorter.
    from fractions import Fraction

    def key(v):
        if isinstance(v, float) and not math.isfinite(v):
            return (2, 0) if math.isnan(v) else (1 if v > 0 else -1, 0)
        return (0, Fraction(v))
    pools = {
        "int64": [-2**63, -2**53 - 1, -1, 0, 2**53, 2**53 + 1, 2**53 + 2, 2**63 - 2, 2**63 - 1],
        "uint64": [0, 5, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1],
        "int8": [-128, -1, 0, 127],
        "float64": [-math.inf, -2.0**63, -1.5, -0.0, 0.5, 2.0**53, 2.0**53 + 2, 2.0**63,
                    2.0**64, math.inf, math.nan],
        "float32": [-2.0**63, 0.0, 2.0**53, 2.0**63, math.nan],
        # (bfloat16 was made float64 beside them: int64 2**60 + 1 equalled 2.0**60)
        "bfloat16": [-2.0**63, -2.0**60, 0.0, 2.0**53, 2.0**60, 2.0**63, math.inf, math.nan]}
    rng = np.random.default_rng(2)
    dtypes = {"bfloat16": ml_dtypes.bfloat16}
    for d1, d2 in [(a, b) for a in pools for b in pools if a != b and "int64" in a + b and
                   ("bfloat16" in a + b or np.result_type(a, b) == np.float64)]:
        n1, n2 = dtypes.get(d1, d1), dtypes.get(d2, d2)
        for _ in range(12):
            x1 = sorted((pools[d1][i] for i in rng.integers(0, len(pools[d1]), 6)), key=key)
            x2 = [pools[d2][i] for i in rng.integers(0, len(pools[d2]), 4)]
            perm = rng.permutation(len(x1))
            for side in ("left", "right"):
                want = [sum(key(x) < key(v) if side == "left" else key(x) <= key(v)
                            for x in x1) for v in x2]
                got = dlt.searchsorted(dlt.asarray(np.array(x1, n1)),
                                       dlt.asarray(np.array(x2, n2)), side=side)
                assert np.asarray(got).tolist() == want, (d1, d2, side, x1, x2)
                got = dlt.searchsorted(dlt.asarray(np.array(x1, n1)[perm]),
                                       dlt.asarray(np.array(x2, n2)), side=side,
                                       sorter=dlt.asarray(np.argsort(perm)))
                assert np.asarray(got).tolist() == want, (d1, d2, side, x1, x2, "sorter")


def test_every_unique_function_agrees_with_unique_all_among_nans():
    # NumPy's unique without indices sorts by an unstable sort: complex values with a NaN
    # part beside zeros of two signs, and float NaNs' inverse indices, came out in another
    # order than unique_all's (and a GPU's), by chance
    rng = np.random.default_rng(4)
    nan = math.nan
    parts = [0.0, -0.0, 1.0, -1.0, nan]
    for dtype in ("float32", "float64", "complex64", "complex128"):
        for i in range(40):  # (past 256 real floats, or 1024 complex, other sorts are taken)
            n = int(rng.integers(1, 40)) if i < 30 else int(rng.integers(257, 1500))
            re = rng.choice(parts, n)
            x = re + 1j * rng.choice(parts, n) if dtype.startswith("complex") else re
            a = dlt.asarray(np.asarray(x, dtype))
            every = dlt.unique_all(a)
            bits = [np.asarray(v).tobytes() for v in (every.values, every.inverse_indices,
                                                      every.counts)]
            assert np.asarray(dlt.unique_values(a)).tobytes() == bits[0]
            values, inverse = dlt.unique_inverse(a)
            assert [np.asarray(values).tobytes(), np.asarray(inverse).tobytes()] == bits[:2]
            values, counts = dlt.unique_counts(a)
            assert [np.asarray(values).tobytes(), np.asarray(counts).tobytes()] == \
                [bits[0], bits[2]]


def test_isin_of_two_dtypes_finds_no_element_that_rounds_onto_another():
    # NumPy's isin takes x1's unique elements in its dtype, then sorts them beside x2's in
    # their result type: two that round to one float there counted as found (2**53 beside
    # 2**53 + 1 among 0.0..19.0; 2**62 among uint64 ones, in float64). Each now compared as
    # on a GPU: in the result type, signed with unsigned in int64 beside a mask.
    floats = dlt.asarray([float(i) for i in range(20)])
    assert np.asarray(dlt.isin(dlt.asarray([2**53, 2**53 + 1]), floats)).tolist() == [0, 0]
    u64 = dlt.asarray(list(range(20)) + [2**62 + 1], dtype=dlt.uint64)
    got = dlt.isin(dlt.asarray([2**62, 2**62 + 1, -1, 5]), u64)
    assert np.asarray(got).tolist() == [False, True, False, True]
    assert np.asarray(dlt.isin(dlt.asarray([2**62, 3]), u64, invert=True)).tolist() == [1, 0]


def test_isin_compares_64_bit_integers_with_floats_exactly():
    # As searchsorted compares them: NumPy's common type, float64, rounded int64 2**53 + 1
    # onto float64 2**53 and found it. Checked against exact Python equality, both ways, with
    # complex values (equal to an integer only when real), and against Python floats.
    from fractions import Fraction

    def value(v):
        return None if not cmath.isfinite(v) else (Fraction(v.real) if v.imag == 0 else v) \
            if isinstance(v, complex) else Fraction(v) if isinstance(v, int) or \
            math.isfinite(v) else None
    pools = {
        "int64": [-2**63, -2**63 + 1, -2**53 - 1, -1, 0, 3, 2**53, 2**53 + 1, 2**63 - 1],
        "uint64": [0, 3, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1],
        "float64": [-math.inf, -2.0**63, -1.0, -0.0, 3.0, 3.5, 2.0**53, 2.0**63, 2.0**64,
                    math.inf, math.nan],
        "float32": [-2.0**63, -1.0, 3.0, 2.0**53, 2.0**63, math.nan],
        "float16": [-math.inf, -0.0, 3.0, 65504.0, math.inf],
        "complex128": [3 + 0j, 3 + 1j, 2.0**53 + 0j, -2.0**63 - 0j, complex(math.nan, 0)]}
    rng = np.random.default_rng(3)
    for d1, d2 in [(a, b) for a in pools for b in pools
                   if {a, b} & {"int64", "uint64"} and not {a, b} <= {"int64", "uint64"}]:
        for _ in range(10):
            x1 = [pools[d1][i] for i in rng.integers(0, len(pools[d1]), 5)]
            x2 = [pools[d2][i] for i in rng.integers(0, len(pools[d2]), 4)]
            want = [value(a) is not None and any(value(a) == value(b) for b in x2) for a in x1]
            a1, a2 = dlt.asarray(np.array(x1, d1)), dlt.asarray(np.array(x2, d2))
            assert np.asarray(dlt.isin(a1, a2)).tolist() == want, (d1, d2, x1, x2)
            assert np.asarray(dlt.isin(a1, a2, invert=True)).tolist() == \
                [not w for w in want], (d1, d2, x1, x2)
    i64 = dlt.asarray(np.array([-2**63 + 1, 2**53 + 1, 2**53], np.int64))
    assert np.asarray(dlt.isin(i64, -2.0**63)).tolist() == [False, False, False]
    assert np.asarray(dlt.isin(i64, 2.0**53)).tolist() == [False, False, True]
    assert bool(dlt.isin(2.0**53, i64)) and not bool(dlt.isin(2.0**63, i64))


@pytest.mark.parametrize("fn", [dlt.sort, dlt.argsort])
def test_sorting_a_0d_array_is_an_axis_error(fn):
    # argsort flattened it to shape (1,) (NumPy's habit); the spec keeps x's shape, and a
    # 0-d array has no axis -1.
    with pytest.raises(IndexError):
        fn(dlt.asarray(3.0))
    with pytest.raises(IndexError):
        fn(dlt.asarray(3.0), descending=True)


def test_searchsorted_checks_side_and_sorter_types():
    x1, x2 = dlt.asarray([3, 1, 2]), dlt.asarray([2])
    with pytest.raises(TypeError, match="dltensor arrays"):  # (NumPy took the list)
        dlt.searchsorted(x1, x2, sorter=[1, 2, 0])
    with pytest.raises(TypeError, match="side"):  # a wrong type, not a wrong value
        dlt.searchsorted(x1, x2, side=1)
    with pytest.raises(ValueError, match="side"):
        dlt.searchsorted(x1, x2, side="middle")
    assert np.asarray(dlt.searchsorted(x1, x2, sorter=dlt.asarray([1, 2, 0]))).tolist() == [1]
    # The sorter's form checked for every pair of dtypes, and the exact path's indices (it
    # took a bool sorter as a mask, an index past x1 and a -1 wrapping; NumPy's own search
    # checks the indices it visits, here all)
    f1 = dlt.asarray([3.0, 1.0, 2.0])
    for y1, y2 in ((x1, x2), (f1, x2), (f1, dlt.asarray([2.0])), (x1, dlt.asarray([2.0]))):
        for sorter, error in (([True, False, True], TypeError), ([1.0, 2.0, 0.0], TypeError),
                              ([1, 2, 0, 0], ValueError), ([[1, 2, 0]], ValueError),
                              (1, ValueError)):
            with pytest.raises(error, match="sorter"):
                dlt.searchsorted(y1, y2, sorter=dlt.asarray(sorter))
    for sorter in ([1, 2, -1], [1, 2, 3], [2, 0, 2**40]):
        with pytest.raises(ValueError, match="sorter"):
            dlt.searchsorted(f1, x2, sorter=dlt.asarray(sorter))
    for bad in (dlt.ones((2, 3)), dlt.asarray(1.0)):  # (NumPy: "object too deep for desired
        with pytest.raises(ValueError, match="one-dimensional x1"):  # array")
            dlt.searchsorted(bad, x2)


def test_sort_axis_is_an_int_and_any_integer_sorter_is_taken():
    m = dlt.reshape(dlt.arange(6.0), (2, 3))
    for f in (dlt.sort, dlt.argsort):
        for axis in (None, True, 1.0):  # (NumPy flattened for None and read True as 1)
            with pytest.raises(TypeError, match="axis"):
                f(m, axis=axis)
        assert f(m, axis=np.int64(0)).shape == (2, 3)
    with pytest.raises(TypeError, match="axis"):
        dlt.sort(dlt.asarray(2.0), axis=None)
    x = dlt.asarray([7, -5, 3, 0])
    for dtype in (dlt.int8, dlt.uint32, dlt.uint64):  # (NumPy could not parse a uint64 sorter)
        s = dlt.asarray([1, 3, 2, 0], dtype=dtype)
        assert np.asarray(dlt.searchsorted(x, dlt.asarray([3]), sorter=s)).tolist() == [2]


def test_where_of_an_array_and_a_python_scalar_on_the_cpu():
    # (NumPy's own where on the scalar made an array of x's dtype, without the general path)
    c = dlt.asarray([True, False])
    f32, u8 = dlt.asarray([1.5, 2.5], dtype=dlt.float32), dlt.asarray([1, 2], dtype=dlt.uint8)
    r = dlt.where(c, f32, 7)
    assert r.dtype is dlt.float32 and np.asarray(r).tolist() == [1.5, 7.0]
    assert np.asarray(dlt.where(c, -0.0, f32)).tolist() == [-0.0, 2.5]
    assert np.signbit(np.asarray(dlt.where(c, -0.0, f32)))[0]
    assert np.asarray(dlt.where(c, u8, 255)).tolist() == [1, 255]
    with pytest.raises(OverflowError):  # (NumPy 2's: a Python int out of uint8's range)
        dlt.where(c, u8, 256)
    with pytest.raises(TypeError):
        dlt.where(c, u8, True)
    import producers as P
    pinned = dlt.from_dlpack(P.from_numpy(np.array([1.0, 2.0]), device=(P.CUDA_HOST, 0)))
    assert dlt.where(c, pinned, 0.0).device == dlt.Device("cpu")


def test_searchsorted_commonest_calls_answer_as_the_checked_path():
    # An x1 of NumPy's with an x2 of its dtype, or a Python scalar that keeps it, is NumPy's
    # own search (the checked path: x1 as pinned memory): the same indices, the same errors
    f = np.array([-np.inf, -1.0, -0.0, 0.0, 2.5, np.inf, np.nan])
    with np.errstate(invalid="ignore"):
        arrays = [f, f.astype(np.float16), f.astype(np.float32), f[:0], f[::2], f[:3] + 0j,
                  np.array([False, True]), np.array([0, 3, 255], np.uint8),
                  np.array([0, 2**63, 2**64 - 1], np.uint64), np.array([-128, 0, 127], np.int8)]
    for a in arrays:
        x, pinned = dlt.asarray(a), dlt.from_dlpack(P.from_numpy(a, device=(P.CUDA_HOST, 0)))
        for v in (a[::-1], a[-1:].reshape(()) if a.size else a, 2, -1.5, True, 300, 10**20, -1,
                  math.nan, -0.0, 1j, "a"):
            y = dlt.asarray(v) if isinstance(v, np.ndarray) else v
            for side in ("left", "right", "middle"):
                with np.errstate(over="ignore"):  # (10**20 is float16's inf, warned of)
                    alike(lambda: dlt.searchsorted(x, y, side=side),
                          lambda: dlt.searchsorted(pinned, y, side=side), (a, v, side))



def _fast_path_arrays():
    import ml_dtypes

    rng = np.random.default_rng(5)
    ties = rng.integers(-3, 4, 240).astype(np.float64)
    ties[::7] = -0.0  # (0.0 and -0.0 tie: an unstable sort's order among them is its own)
    ties[::11] = np.nan
    m = ties[:12].reshape(3, 4)
    ro = m.copy()
    ro.flags.writeable = False
    with np.errstate(invalid="ignore"):
        return [ties, ties.astype(np.float32), ties.astype(np.float16),
                ties.astype(ml_dtypes.bfloat16), np.nan_to_num(ties).astype(np.int8),
                np.nan_to_num(ties).astype(np.uint64), ties > 0, ties + 1j * ties[::-1],
                m, m.T, m[::-1, ::-2], ro, m.reshape(2, 3, 2), m[:, :0], m[:0],
                np.array(2.5), np.array(0), np.zeros((1,) * 33)]


def _fast_path_inputs():
    """Each of _fast_path_arrays as a CPU array, then as pinned memory (NumPy computes on it,
    by the checked path)."""
    for a in _fast_path_arrays():
        yield a, dlt.asarray(a)
        yield a, dlt.from_dlpack(P.from_numpy(a.copy(), device=(P.CUDA_HOST, 0)))


def test_sorts_commonest_calls_answer_as_the_checked_path():
    # sort and argsort of a NumPy array on the CPU are NumPy's own calls, as the checked path
    # makes them: stable or not (the order among ties: 0.0 and -0.0, NaNs, equal elements'
    # indices), descending by the flipped array, along every axis; the same errors in the
    # same words for all else (an axis out of range or not an int, flags not bools, 0-d
    # arrays, more than 32 axes; ml_dtypes' floats sorted in float32)
    from dltensor._sorting import _checked_argsort, _checked_sort

    for a, x in _fast_path_inputs():
        for f, checked in ((dlt.sort, _checked_sort), (dlt.argsort, _checked_argsort)):
            for kw in ({}, {"axis": 0}, {"axis": -1}, {"axis": 1}, {"axis": -2}, {"axis": 2},
                       {"axis": -3}, {"axis": 3}, {"axis": True}, {"axis": np.int64(0)},
                       {"axis": None}, {"axis": 0.0}, {"descending": True},
                       {"descending": True, "axis": 0}, {"descending": True, "axis": -2},
                       {"stable": False}, {"stable": False, "descending": True},
                       {"stable": False, "axis": 0, "descending": True},
                       {"descending": np.True_}, {"stable": np.False_}, {"descending": 1},
                       {"stable": None}):
                alike(lambda: f(x, **kw), lambda: checked(x, **kw), (f, a.dtype, a.shape, kw))
    assert dlt.sort.__name__ == "sort" and dlt.argsort.__name__ == "argsort"


def test_searches_commonest_calls_answer_as_the_checked_path():
    # argmax, argmin, count_nonzero and nonzero of a NumPy array on the CPU: NumPy's own
    # calls, answering as the checked path does, to the same errors (no elements to search,
    # a 0-d array's nonzero or axis, an axis out of range or not an int, a keepdims not a
    # bool)
    from dltensor import _searching as s

    for a, x in _fast_path_inputs():
        alike(lambda: dlt.nonzero(x), lambda: s._checked_nonzero(x), (a.dtype, a.shape))
        for f, checked in ((dlt.argmax, s._checked_argmax), (dlt.argmin, s._checked_argmin),
                           (dlt.count_nonzero, s._checked_count_nonzero)):
            for kw in ({}, {"axis": 0}, {"axis": -1}, {"axis": 1}, {"axis": -2}, {"axis": 2},
                       {"axis": -3}, {"axis": 3}, {"axis": True}, {"axis": np.int64(1)},
                       {"axis": (0,)}, {"axis": (0, -1)}, {"axis": ()}, {"axis": 2**40},
                       {"keepdims": True}, {"axis": 0, "keepdims": True},
                       {"axis": -1, "keepdims": False}, {"keepdims": np.True_},
                       {"keepdims": 1}, {"axis": None, "keepdims": True}):
                alike(lambda: f(x, **kw), lambda: checked(x, **kw), (f, a.dtype, a.shape, kw))


def test_isin_commonest_calls_answer_as_the_checked_path():
    # isin of two NumPy arrays of one dtype on the CPU, or of one and a Python scalar that
    # keeps its dtype, is NumPy's own, the scalar made as the checked path makes it: the
    # same answers (NaN never found, -0.0 is 0.0, an int at or past an integer dtype's ends,
    # a float in float32's terms), inverted or not, and the same errors
    import ml_dtypes

    from dltensor._set import _checked_isin

    ints = np.array([-128, -1, 0, 5, 127], np.int8)
    floats = np.array([0.1, np.nan, -0.0, 2049.0, np.inf, 3.0])
    wide = np.array([2**53 + 1, -1, 2**63 - 1, 7])  # (beside float64 or uint64: rounded or
    # wrapped onto another's value in NumPy's common type, where the checked path masks them)
    for a in (ints, ints.astype(np.uint64) * 7, floats, floats.astype(np.float32),
              floats.astype(np.float16), floats + 1j, ints > 0, floats.reshape(2, 3),
              floats[::-2], np.array(5, np.int8), np.array(0.1, np.float32), floats[:0],
              floats.astype(ml_dtypes.bfloat16), wide, wide.astype(np.uint64)):
        x = dlt.asarray(a)
        r = np.clip(np.nan_to_num(np.real(a).astype(np.float64)), -999, 999)
        others = [a, a.reshape(-1)[::-1], a.reshape(-1)[:2], r, r.astype(np.int16), ints,
                  floats, floats.astype(np.float32), wide, wide.astype(np.float64),
                  wide.astype(np.uint64)]
        scalars = [0, 5, -1, 127, 128, -129, 2**63, 2**64 - 1, 2**64, 10**400, 0.1, -0.0,
                   math.nan, 2049, 3.0, True, False, 1j, np.float64(0.1), np.int8(5), "a"]
        for invert in (False, True, np.True_, 0):
            for b in others:
                y = dlt.asarray(b)
                alike(lambda: dlt.isin(x, y, invert=invert),
                      lambda: _checked_isin(x, y, invert), (a, b, invert))
            for v in scalars:
                with np.errstate(over="ignore"):  # (10**400: float16's inf, warned of)
                    alike(lambda: dlt.isin(x, v, invert=invert),
                          lambda: _checked_isin(x, v, invert), (a, v, invert))
                    alike(lambda: dlt.isin(v, x, invert=invert),
                          lambda: _checked_isin(v, x, invert), (v, a, invert))
    # (NumPy's own isin of bfloat16, sorted with ml_dtypes' loops, did not find 2.0 here)
    bf = np.array([np.nan, 2, np.nan, -0.0, -0.0, 2, 1, 0, 3, 0, 2], ml_dtypes.bfloat16)
    assert np.asarray(dlt.isin(dlt.asarray(bf[1:2]), dlt.asarray(bf))).tolist() == [True]
    for x1, x2 in ((floats, floats), (ints, ints[::-1]), (floats, 0.1), (ints, 5), (5, ints)):
        p1, p2 = (P.from_numpy(v.copy(), device=(P.CUDA_HOST, 0)) if isinstance(v, np.ndarray)
                  else v for v in (x1, x2))
        y1, y2 = (dlt.from_dlpack(v) if isinstance(v, P.Producer) else v for v in (p1, p2))
        alike(lambda: dlt.isin(y1, y2), lambda: _checked_isin(y1, y2, False), (x1, x2))


def test_the_commonest_calls_on_the_cpu_take_the_fast_paths(monkeypatch):
    # (never their checked paths: a fast path lost or narrowed is a slowdown no answer shows)
    from dltensor import _searching, _set, _sorting

    def checked(*args, **kwargs):
        raise AssertionError("the checked path")

    for module, name in ((_sorting, "_checked_sort"), (_sorting, "_checked_argsort"),
                         (_searching, "_checked_argmax"), (_searching, "_checked_argmin"),
                         (_searching, "_checked_count_nonzero"),
                         (_searching, "_checked_nonzero"), (_set, "_checked_isin")):
        monkeypatch.setattr(module, name, checked)
    m, v = dlt.asarray(np.arange(12.0).reshape(3, 4) % 5), dlt.asarray([3.0, -1.0, 0.0])
    i, b = dlt.asarray(np.array([[1, 2], [0, 7]], np.int8)), dlt.asarray([True, False])
    for x in (m, v, i, b, dlt.asarray(np.zeros((1,) * 32))):
        for axis in range(-x.ndim, x.ndim):
            for descending in (False, True):
                for stable in (False, True):
                    dlt.sort(x, axis=axis, descending=descending, stable=stable)
                    dlt.argsort(x, axis=axis, descending=descending, stable=stable)
        for axis in (None, *range(-x.ndim, x.ndim)):
            for keepdims in (False, True):
                for f in (dlt.argmax, dlt.argmin, dlt.count_nonzero):
                    f(x, axis=axis, keepdims=keepdims)
        dlt.sort(x), dlt.argsort(x), dlt.nonzero(x), dlt.count_nonzero(x), dlt.argmax(x)
        dlt.isin(x, x), dlt.isin(x, x, invert=True)
    dlt.argmax(dlt.asarray(2.5)), dlt.count_nonzero(dlt.asarray(0))
    for x, scalar in ((m, 2.0), (m, 2), (i, 7), (i, -128), (i, 127), (b, True)):
        dlt.isin(x, scalar), dlt.isin(scalar, x, invert=True)
    monkeypatch.undo()
    for f in (dlt.sort, dlt.argsort, dlt.argmax, dlt.argmin, dlt.count_nonzero, dlt.nonzero):
        for other in (np.array([1.0, 2.0]), [1.0, 2.0]):  # (not arrays: the checked path's)
            with pytest.raises(TypeError, match="array"):
                f(other)
