"""The array object's conversions, iteration, transposes and copies, against array-api-strict."""

import copy
import math
import operator

import array_api_strict as strict
import numpy as np
import pytest

import dltensor as dlt
import producers as P

CONVERSIONS = [  # (method, NumPy dtype, value, expected Python result)
    ("__bool__", np.bool_, True, True), ("__bool__", np.float64, np.nan, True),
    ("__bool__", np.float32, -0.0, False), ("__bool__", np.complex64, 1j, True),
    ("__bool__", np.int8, 0, False),
    ("__int__", np.int64, -7, -7), ("__int__", np.uint64, 2**64 - 1, 2**64 - 1),
    ("__int__", np.bool_, True, 1), ("__int__", np.float64, -2.9, -2),
    ("__int__", np.float32, -0.0, 0),
    ("__float__", np.float32, 1.5, 1.5), ("__float__", np.int16, -3, -3.0),
    ("__float__", np.bool_, False, 0.0), ("__float__", np.float64, np.inf, math.inf),
    ("__complex__", np.complex128, 1 - 2j, 1 - 2j), ("__complex__", np.float32, 2.0, 2 + 0j),
    ("__complex__", np.bool_, True, 1 + 0j),
    ("__index__", np.uint8, 255, 255), ("__index__", np.int32, -4, -4),
]
RESULT_TYPE = {"__bool__": bool, "__int__": int, "__float__": float, "__complex__": complex,
               "__index__": int}


@pytest.mark.parametrize("method, dtype, value, expected", CONVERSIONS,
                         ids=[f"{m}({np.dtype(d).name} {v!r})" for m, d, v, _ in CONVERSIONS])
def test_0d_conversions_match_strict(method, dtype, value, expected):
    a = np.asarray(value, dtype=dtype)
    got = getattr(dlt.asarray(a), method)()
    want = getattr(strict.asarray(a), method)()
    assert type(got) is RESULT_TYPE[method] and type(want) is type(got)
    assert got == expected == want or (math.isnan(got.real) and math.isnan(want.real))


REFUSED = [
    ("__bool__", np.ones(2), TypeError), ("__int__", np.ones((1, 1)), TypeError),
    ("__float__", np.zeros(1), TypeError), ("__complex__", np.zeros(3), TypeError),
    ("__int__", np.asarray(1j), TypeError), ("__float__", np.asarray(1 + 0j), TypeError),
    ("__index__", np.asarray(1.0), TypeError), ("__index__", np.asarray(True), TypeError),
    ("__index__", np.arange(2), TypeError),
    ("__int__", np.asarray(np.nan), ValueError), ("__int__", np.asarray(-np.inf), OverflowError),
]


@pytest.mark.parametrize("method, a, error", REFUSED,
                         ids=[f"{m}({a.dtype.name} {a.shape})" for m, a, _ in REFUSED])
def test_conversions_refuse(method, a, error):
    with pytest.raises(error):
        getattr(dlt.asarray(a), method)()


def test_index_makes_arrays_usable_where_python_wants_an_int():
    i = dlt.asarray(np.int32(3))
    assert operator.index(i) == 3
    assert list(range(10))[i] == 3
    assert "abcdef"[dlt.asarray(1):i] == "bc"
    x = dlt.asarray(np.arange(6.0))
    assert float(x[i]) == 3.0 and x[i:].shape == (3,)


def test_iteration_over_1d_yields_0d_views():
    a = np.arange(4.0)
    items = list(dlt.asarray(a))
    assert [(type(e), e.shape) for e in items] == [(dlt.ndarray, ())] * 4
    assert [float(e) for e in items] == [float(e) for e in strict.asarray(a)]
    items[2][()] = -1.0  # each item is a view of the array's memory
    assert a[2] == -1.0


def test_iteration_over_nd_yields_rows_and_0d_refuses():
    # Implementation-defined in the spec: dltensor iterates the first axis, as NumPy does.
    a = np.arange(6).reshape(3, 2)
    rows = list(dlt.asarray(a))
    assert [r.shape for r in rows] == [(2,)] * 3
    assert np.from_dlpack(rows[1]).tolist() == [2, 3]
    with pytest.raises(TypeError):
        iter(dlt.asarray(np.float64(1.0)))


def test_reversed_walks_the_first_axis_backwards_as_iteration_walks_it():
    # Without __reversed__, Python indexed x[i], the spec's IndexError on a 2-D array, which
    # ends its walk: list(reversed(x)) was [] (NumPy and PyTorch give the rows backwards).
    a = np.arange(6).reshape(3, 2)
    rows = list(reversed(dlt.asarray(a)))
    assert [np.from_dlpack(r).tolist() for r in rows] == [[4, 5], [2, 3], [0, 1]]
    assert [int(e) for e in reversed(dlt.asarray([1, 2, 3]))] == [3, 2, 1]
    assert list(reversed(dlt.zeros((0, 2)))) == []
    ro = np.arange(4.0).reshape(2, 2)
    ro.flags.writeable = False
    assert [r.read_only for r in reversed(dlt.asarray(ro))] == [True, True]  # (as iter's)
    with pytest.raises(TypeError):
        reversed(dlt.asarray(1.0))


def test_in_tests_every_element_as_numpy_and_torch_do():
    # Without __contains__, Python iterates and bools each row: a 2-D array raised the
    # ambiguous-truth error for `2.0 in x`. NumPy and PyTorch look at every element.
    a = np.arange(6.0).reshape(2, 3)
    x = dlt.asarray(a)
    for v in (2.0, 2, 7.0, float("nan"), np.float64(5.0), dlt.asarray(4.0)):
        assert (v in x) == ((np.asarray(v) if isinstance(v, dlt.ndarray) else v) in a), v
    assert 1.0 in dlt.asarray(1.0) and 1.0 not in dlt.zeros((0, 3))
    assert dlt.asarray([3.0, 4.0, 5.0]) in x  # broadcast: equal to a row


def test_in_compares_a_number_by_value_whatever_the_dtype():
    # As NumPy does: 2.0 in an integer array, True in a float one (== keeps the spec's rules
    # and refuses these; `in` raised its TypeError). Nothing else is an element: None and a
    # string are in no array, as x == None is False; a list or NumPy array is to convert.
    i, f, b = dlt.asarray([1, 2]), dlt.asarray([1.0, math.nan]), dlt.asarray([True])
    u, bf = dlt.asarray([3], dtype=dlt.uint8), dlt.asarray([2.0**70], dtype=dlt.bfloat16)
    for v, x, want in ((2.0, i, True), (2.5, i, False), (True, i, True), (True, f, True),
                       (1, b, True), (2, b, False), (math.nan, f, False), (2**70, i, False),
                       (-1, u, False), (3 + 0j, u, True), (3 + 1j, u, False),
                       (2**70, bf, True), (10**400, dlt.asarray([math.inf]), False),
                       (2**64, dlt.asarray([2**64 - 1], dtype=dlt.uint64), False),
                       (np.float32(1.0), f, True), (None, i, False), ("a", f, False)):
        assert (v in x) is want, (v, x)
        if isinstance(v, (int, float, complex)) and np.asarray(x).dtype.kind != "V" and \
                not (type(v) is int and abs(v) >= 2**63):  # (NumPy: OverflowError past them)
            assert want is bool(v in np.asarray(x)), v  # (NumPy's meaning)
    for v in ([1], np.array([1]), (1,)):
        with pytest.raises(TypeError, match="convert it with dltensor.asarray"):
            v in i


def test_in_refuses_a_number_no_python_scalar_stands_for_as_equality_does():
    # (Fraction(1, 2) in x was False for x holding 0.5, where x == Fraction(1, 2) raises and
    # NumPy's in says True: to convert, as == says)
    from decimal import Decimal
    from fractions import Fraction
    x = dlt.asarray([0.5])
    for v in (Fraction(1, 2), Decimal("0.5")):
        with pytest.raises(TypeError, match="convert it to a Python int, float or complex"):
            v in x
        with pytest.raises(TypeError, match="convert it to a Python int, float or complex"):
            x == v
    assert float(Fraction(1, 2)) in x and None not in x


def test_complex_of_a_nan_keeps_its_imaginary_part_and_a_real_nan_gets_a_nan_one():
    # (the spec: complex() of a real NaN is NaN + NaN j; a complex NaN is as it is)
    z = complex(dlt.asarray(complex(math.nan, 2.0)))
    assert math.isnan(z.real) and z.imag == 2.0
    z = complex(dlt.asarray(math.nan))
    assert math.isnan(z.real) and math.isnan(z.imag)


def test_in_at_the_ends_of_the_integer_range():
    lo, hi = dlt.asarray([-2**63], dtype=dlt.int64), dlt.asarray([2**64 - 1], dtype=dlt.uint64)
    assert -2**63 in lo and 2**64 - 1 in hi and -2**63 - 1 not in lo and 2**64 not in hi


def test_in_of_an_int_no_element_can_equal_is_false_whatever_the_dtype():
    # An int between int64's end and uint64's was handed to the backend as it is: beside a
    # bool array NumPy makes it an int64 (OverflowError), and ml_dtypes' floats take no int
    # past int64 (TypeError "expected number"); beside an int8 array CuPy 14 packs it into the
    # dtype (OverflowError). No element can equal it: False, and an equal value still True.
    b = dlt.asarray([False, True])
    bf = dlt.asarray([0.0, 2.0**63], dtype=dlt.bfloat16)
    for v in (2**63, 2**64 - 1, np.uint64(2**64 - 1), -2**63 - 1, 2):
        assert v not in b, v
    for v, want in ((2**63, True), (2**64 - 1, False), (2**63 + 2**60, False),
                    (np.uint64(2**63), True)):
        assert (v in bf) is want, v
    assert 1 in b and 0 in b
    for dtype, past in ((dlt.int8, (128, -129, 2**63)), (dlt.uint8, (256, -1, 2**64 - 1)),
                        (dlt.int64, (2**63, 2**64 - 1))):
        x = dlt.asarray([0, 1], dtype=dtype)
        assert all(v not in x for v in past), dtype


def test_format_specs_format_0d_arrays_as_their_scalar():
    # As NumPy and PyTorch do: f"{loss:.3f}" is the common way to print a result.
    assert f"{dlt.asarray(1.5):.2f}" == "1.50"
    assert f"{dlt.asarray(np.int8(3)):>4d}" == "   3"
    assert f"{dlt.asarray(1 + 2j):.1f}" == "1.0+2.0j"
    assert f"{dlt.asarray(1.5)}" == str(dlt.asarray(1.5))  # no spec: the array printed
    with pytest.raises(TypeError, match="0-d"):
        f"{dlt.asarray([1.0]):.2f}"


TOLIST = [np.arange(6.0).reshape(2, 3), np.array([[True], [False]]), np.array(7, np.int8),
          np.array([2**64 - 1], np.uint64), np.array([1 - 2j, np.nan], np.complex64),
          np.zeros((0, 3), np.float32), np.zeros((2, 0), np.int16),
          np.arange(24, dtype=np.int32).reshape(2, 3, 4)[:, ::-2, 1:]]


@pytest.mark.parametrize("a", TOLIST, ids=[f"{a.dtype.name}{a.shape}" for a in TOLIST])
def test_tolist_gives_numpys_lists_of_python_scalars(a):
    # (not in the standard; NumPy, PyTorch, CuPy and JAX all have it, and code uses it)
    got = dlt.asarray(a).tolist()
    assert repr(got) == repr(a.tolist())  # (the same nesting, types and values, NaN too)
    leaves = [got]
    while leaves and type(leaves[0]) is list:
        leaves = [v for row in leaves for v in row]
    assert all(type(v) in (bool, int, float, complex) for v in leaves)


def test_tolist_and_item_of_a_dtype_numpy_has_not_natively():
    import torch  # (CI has it; the venv suites without it leave this test out by name)
    x = dlt.asarray(torch.tensor([[1.5, -2.0]], dtype=torch.bfloat16))
    assert x.tolist() == [[1.5, -2.0]] and type(x.tolist()[0][0]) is float
    assert x[0, 1].item() == -2.0 and type(x[0, 1].item()) is float


@pytest.mark.parametrize("a, want", [
    (np.array(True), True), (np.array([[-3]], np.int16), -3), (np.array([2.5], np.float32), 2.5),
    (np.ones((1, 1, 1), np.complex128) * 1j, 1j), (np.array([2**64 - 1], np.uint64), 2**64 - 1)])
def test_item_is_the_one_element_as_a_python_scalar(a, want):
    got = dlt.asarray(a).item()
    assert got == want and type(got) is type(want) is type(a.item())


@pytest.mark.parametrize("shape", [(2,), (0,), (1, 0), (3, 1)])
def test_item_refuses_arrays_of_other_sizes(shape):
    with pytest.raises(ValueError, match=f"one element, not {int(np.prod(shape))}"):
        dlt.zeros(shape).item()


def test_tolist_and_item_of_held_memory_name_its_device():
    held = dlt.from_dlpack(P.from_numpy(np.zeros((1,), np.float32), device=(P.ROCM, 0)))
    for method in (held.tolist, held.item):
        with pytest.raises(Exception, match="rocm:0.*from_dlpack"):
            method()


def test_len_is_the_first_axis_as_in_numpy_and_pytorch():
    # (not in the spec, which says x.shape[0]; NumPy, PyTorch, CuPy and JAX answer len(x))
    assert len(dlt.asarray(np.zeros((3, 2)))) == 3 and len(dlt.zeros((0, 4))) == 0
    with pytest.raises(TypeError, match="0-d"):
        len(dlt.asarray(1.5))
    held = dlt.from_dlpack(P.from_numpy(np.zeros((5, 2), np.float32), device=(P.ROCM, 0)))
    assert len(held) == 5  # (metadata: never read)


@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3), (1, 5, 0, 2)])
def test_mT_matches_strict_and_is_a_view(shape):
    a = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    x = dlt.asarray(a)
    got, want = x.mT, strict.asarray(a).mT
    assert got.shape == want.shape and got.dtype == dlt.int16
    np.testing.assert_array_equal(np.from_dlpack(got), np.from_dlpack(want))
    assert got.data_ptr == x.data_ptr


def test_T_is_for_2d_only():
    a = np.arange(6.0).reshape(2, 3)
    x = dlt.asarray(a)
    np.testing.assert_array_equal(np.from_dlpack(x.T), np.from_dlpack(strict.asarray(a).T))
    assert x.T.data_ptr == x.data_ptr
    for bad in [np.arange(3.0), np.zeros((2, 2, 2))]:
        with pytest.raises(ValueError, match="mT|permute_dims"):
            dlt.asarray(bad).T
    with pytest.raises(ValueError):
        dlt.asarray(np.arange(3.0)).mT


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_copies_own_their_memory(copier):
    a = np.arange(6.0).reshape(2, 3)
    x = dlt.asarray(a)
    y = copier(x)
    assert type(y) is dlt.ndarray and y.dtype == x.dtype and y.shape == x.shape
    assert y.data_ptr != x.data_ptr
    a[0, 0] = 100.0
    assert float(y[0, 0]) == 0.0
    assert not y.read_only


def test_arrays_are_unhashable_as_numpys_are():
    # == is element-wise, so equal arrays need not hash alike: no hash at all (as NumPy)
    with pytest.raises(TypeError, match="unhashable"):
        hash(dlt.ones(2))
    with pytest.raises(TypeError):
        {dlt.asarray(1.0)}
