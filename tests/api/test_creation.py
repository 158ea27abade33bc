"""Creation functions: values, dtypes and shapes against array-api-strict, devices, errors."""

import collections
import math

import array_api_strict as strict
import numpy as np
import pytest

import dltensor as dlt
from oracle import alike, same
import producers as P
from dltensor import Device


def check(fn):
    same(fn(dlt), fn(strict))


I8 = np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int8)
F32 = np.array([[1.5, -2.0], [0.0, np.inf]], dtype=np.float32)
CUBE = np.arange(24, dtype=np.float64).reshape(2, 3, 4)

CASES = {
    "arange stop": lambda xp: xp.arange(5),
    "arange start stop step": lambda xp: xp.arange(1, 10, 3),
    "arange float": lambda xp: xp.arange(0.5, 3, 0.5),
    "arange negative step": lambda xp: xp.arange(10, 0, -2),
    "arange empty": lambda xp: xp.arange(5, 1),
    "arange dtype": lambda xp: xp.arange(0, 1, 0.25, dtype=xp.float32),
    "eye": lambda xp: xp.eye(3),
    "eye rect k": lambda xp: xp.eye(3, 5, k=2),
    "eye negative k dtype": lambda xp: xp.eye(4, k=-1, dtype=xp.int8),
    "full int": lambda xp: xp.full((2, 3), 7),
    "full bool": lambda xp: xp.full(2, True),
    "full float 0-d": lambda xp: xp.full((), 1.5),
    "full complex": lambda xp: xp.full((2,), 1 - 2j),
    "full dtype": lambda xp: xp.full((3,), 3, dtype=xp.uint16),
    "ones": lambda xp: xp.ones((2, 2)),
    "ones dtype": lambda xp: xp.ones(3, dtype=xp.complex64),
    "zeros": lambda xp: xp.zeros(4),
    "zeros dtype": lambda xp: xp.zeros((0, 2), dtype=xp.bool),
    "full_like": lambda xp: xp.full_like(xp.asarray(I8), 9),
    "full_like dtype": lambda xp: xp.full_like(xp.asarray(I8), 0.5, dtype=xp.float32),
    "ones_like": lambda xp: xp.ones_like(xp.asarray(F32)),
    "zeros_like dtype": lambda xp: xp.zeros_like(xp.asarray(F32), dtype=xp.int64),
    "linspace": lambda xp: xp.linspace(0, 1, 5),
    "linspace no endpoint": lambda xp: xp.linspace(0, 1, 4, endpoint=False),
    "linspace complex": lambda xp: xp.linspace(1j, 2 + 2j, 3),
    "linspace dtype": lambda xp: xp.linspace(-1, 10, 6, dtype=xp.float32),
    "linspace one": lambda xp: xp.linspace(3, 4, 1),
    "meshgrid xy": lambda xp: xp.meshgrid(xp.arange(3), xp.arange(2)),
    "meshgrid ij": lambda xp: xp.meshgrid(xp.arange(3), xp.arange(2), xp.arange(4),
                                          indexing="ij"),
    "meshgrid xy of three": lambda xp: xp.meshgrid(xp.arange(3), xp.arange(2), xp.arange(4)),
    "meshgrid one": lambda xp: xp.meshgrid(xp.arange(3)),
    "meshgrid none": lambda xp: xp.meshgrid(),
    "triu": lambda xp: xp.triu(xp.asarray(CUBE)),
    "tril": lambda xp: xp.tril(xp.asarray(CUBE)),
    "tril k": lambda xp: xp.tril(xp.asarray(CUBE), k=1),
    "triu k": lambda xp: xp.triu(xp.asarray(I8), k=-1),
}


@pytest.mark.parametrize("fn", CASES.values(), ids=CASES.keys())
def test_matches_array_api_strict(fn):
    check(fn)


@pytest.mark.parametrize("name", ["empty", "empty_like"])
def test_empty_has_the_asked_shape_and_dtype(name):
    for dtype in (None, dlt.int16):
        arg = (2, 3) if name == "empty" else dlt.asarray(F32)
        out = getattr(dlt, name)(arg, dtype=dtype)
        assert out.shape == ((2, 3) if name == "empty" else (2, 2))
        expected = dtype or (dlt.float64 if name == "empty" else dlt.float32)
        assert out.dtype is expected


@pytest.mark.parametrize("value, dtype", [(True, dlt.bool), (3, dlt.int64), (2.5, dlt.float64),
                                          (1j, dlt.complex128)])
def test_full_infers_the_spec_default_dtype(value, dtype):
    out = dlt.full((2,), value)
    assert out.dtype is dtype
    assert np.from_dlpack(out).tolist() == [value, value]


@pytest.mark.parametrize("device", ["cpu", dlt.Device(1, 0), (1, 0), None])
def test_device_spellings_make_cpu_arrays(device):
    for fn in (lambda: dlt.zeros(2, device=device), lambda: dlt.arange(3, device=device),
               lambda: dlt.eye(2, device=device), lambda: dlt.full(2, 1, device=device),
               lambda: dlt.linspace(0, 1, 3, device=device)):
        assert fn().device == Device(1, 0)


def test_like_functions_keep_the_input_device_and_dtype():
    x = dlt.asarray(I8)
    for fn in (dlt.zeros_like, dlt.ones_like, dlt.empty_like):
        out = fn(x)
        assert (out.dtype, out.shape, out.device) == (dlt.int8, (2, 3), x.device)


def test_like_functions_commonest_call_answers_as_the_checked_path():
    # A CPU x and no dtype or device are NumPy's own zeros, ones, empty and full (device="cpu"
    # takes the checked path): the same arrays, and the same errors in the same words
    xs = [dlt.asarray(np.arange(6, dtype=t).reshape(2, 3)) for t in (np.int8, np.uint8,
                                                                      np.float32, np.complex64)]
    xs += [dlt.asarray(np.array(True)), dlt.zeros((0, 2)), dlt.ones(3, dtype=dlt.bfloat16),
           dlt.broadcast_to(dlt.asarray(np.arange(2.0)), (3, 2))]
    for x in xs:
        for fn in (dlt.zeros_like, dlt.ones_like):
            alike(lambda: fn(x), lambda: fn(x, device="cpu"), (fn, x.dtype))
        e = dlt.empty_like(x)
        assert (e.dtype, e.shape, e.device, e.read_only) == (x.dtype, x.shape, x.device, False)
        for value in (True, -1, 300, 2**63, 10**400, 1.5, float("nan"), -0.0, 1e300, 1j,
                      np.float32(2.5), "1", None):
            with np.errstate(over="ignore"):  # (1e300 into float32: inf, NumPy's cast)
                alike(lambda: dlt.full_like(x, value),
                      lambda: dlt.full_like(x, value, device="cpu"), (x.dtype, value))


def test_creating_on_a_device_without_backend_names_it():
    with pytest.raises(RuntimeError, match="metal:0"):
        dlt.zeros(3, device="metal:0")
    held = dlt.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(2,),
                                      strides=(1,)))
    with pytest.raises(RuntimeError, match="metal:0"):
        dlt.ones_like(held)  # same device as the input: never silently the CPU
    assert dlt.zeros_like(held, device="cpu").shape == (2,)


def test_default_device_is_used():
    dlt.set_default_device("metal:0")
    try:
        with pytest.raises(RuntimeError, match="metal:0"):
            dlt.ones(2)
        assert dlt.ones(2, device="cpu").device == Device(1, 0)
    finally:
        dlt.set_default_device(None)


def test_dtype_must_be_a_dltensor_dtype():
    with pytest.raises(TypeError, match="dtype"):
        dlt.zeros(2, dtype=np.float32)
    with pytest.raises(TypeError, match="fill_value"):
        dlt.full(2, "1")


def test_meshgrid_refuses_mixed_dtypes():
    with pytest.raises(TypeError):
        dlt.meshgrid(dlt.arange(2), dlt.ones(2))


@pytest.mark.parametrize("ints", [2**63, [1, 2**63], 2**64, [[0], [2**64]], -2**63 - 1,
                                  [True, 2**100]])
def test_python_ints_beyond_int64_overflow_rather_than_wrap(ints):
    # The spec's dtype for ints alone is int64; NumPy would make uint64 (wrapped to negative
    # by the int64 conversion), float64 or object arrays of them.
    with pytest.raises(OverflowError, match="out of bounds for int64"):
        dlt.asarray(ints)
    assert int(dlt.asarray(2**63 - 1)) == 2**63 - 1 and int(dlt.asarray(-2**63)) == -2**63
    assert int(dlt.asarray(2**63, dtype=dlt.uint64)) == 2**63


def test_int_subclasses_beyond_int64_overflow_as_ints_do():
    # An IntFlag of bit 63 (a 64-bit mask) was taken as NumPy's uint64 and wrapped to
    # -2**63 by the int64 conversion: the checks looked at exact ints only.
    import enum

    class Flags(enum.IntFlag):
        LOW = 1
        TOP = 1 << 63

    class Big(int):
        pass

    for ints in (Flags.TOP, [Flags.LOW, Flags.TOP], Big(2**64), [[Big(-2**63 - 1)]]):
        with pytest.raises(OverflowError, match="out of bounds for int64"):
            dlt.asarray(ints)
    assert int(dlt.asarray(Flags.TOP, dtype=dlt.uint64)) == 2**63
    assert np.asarray(dlt.asarray([Big(2**64), 1.5])).tolist() == [2.0**64, 1.5]
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):  # (beside arrays)
        dlt.asarray([np.int8(1), Big(300)], dtype=dlt.int8)
    assert dlt.asarray([Flags.LOW, True]).dtype == dlt.int64


@pytest.mark.parametrize("obj", [["12"], "12", [b"12"], [b"1.5", 2.0], [[1, b"2"]],
                                 [np.bytes_(b"7")], [np.str_("7")],
                                 # (other sequences, and arrays of strings in a list: parsed
                                 # as numbers where a dtype was given)
                                 collections.UserList(["12"]), collections.deque([b"7"]),
                                 [collections.UserList(["1"])], [np.array(["12"])]], ids=repr)
def test_strings_and_bytes_in_sequences_are_no_numbers(obj):
    # Strings were refused, but bytes in a sequence were NumPy's to parse with a dtype:
    # asarray([b"12"], dtype=int64) was [12] (as full() refuses b"1" as a fill value).
    for dtype in (None, dlt.int64, dlt.float32):
        with pytest.raises(TypeError, match="not strings"):
            dlt.asarray(obj, dtype=dtype)
    assert dlt.asarray(b"12").dtype == dlt.uint8  # (bytes alone: a buffer, as in NumPy)


def test_a_list_of_datetimes_is_no_numbers_with_a_dtype_either():
    # (NumPy casts datetime64 to int64: [[1]] was made where the array alone is refused)
    for dtype in (None, dlt.int64):
        with pytest.raises(TypeError):
            dlt.asarray([np.array([1], "M8[s]")], dtype=dtype)
    assert dlt.asarray(collections.deque([1.5, 2]), dtype=dlt.float32).dtype == dlt.float32


def test_nested_lists_of_numbers_keep_every_check():
    # Lists of Python numbers, and rows of them, are looked at once per row (a walk made a
    # call per element): the checks the walk made must still hold deep in later rows.
    for ints in ([[1, 2], [3, 2**63]], ([0, 1], (2, 2**64)), [[True], [2**100]]):
        with pytest.raises(OverflowError, match="out of bounds for int64"):
            dlt.asarray(ints)
    x = dlt.asarray([[1.5], [2**64]])
    assert x.dtype == dlt.float64 and np.asarray(x).tolist() == [[1.5], [2.0**64]]
    with pytest.raises(OverflowError):
        dlt.asarray([[1], [300]], dtype=dlt.int8)
    with pytest.raises(TypeError, match="not strings"):
        dlt.asarray([[1], ["2"]])
    y = dlt.asarray([(1, True), [2, False]])
    assert y.dtype == dlt.int64 and np.asarray(y).tolist() == [[1, 1], [2, 0]]
    assert dlt.asarray([[2**63]], dtype=dlt.uint64).dtype == dlt.uint64
    assert dlt.asarray([[1.0], [np.float32(2)]], dtype=dlt.float32).dtype == dlt.float32
    assert dlt.asarray([[1], [dlt.asarray(2, dtype=dlt.int8)]]).dtype == dlt.int64
    assert dlt.asarray([[]]).shape == (1, 0)
    big = np.arange(12).reshape(3, 4)
    z = dlt.asarray(big.tolist(), dtype=dlt.float32)
    assert z.dtype == dlt.float32 and np.array_equal(np.asarray(z), big)


def test_big_ints_among_floats_make_a_float_array():
    for values, dtype in (([1.5, 2**63], dlt.float64), ([1.5, 2**64], dlt.float64),
                          ([2**64, 1j], dlt.complex128)):
        x = dlt.asarray(values)
        assert x.dtype == dtype
        assert np.asarray(x).tolist() == [complex(v) if dtype == dlt.complex128 else float(v)
                                          for v in values]


def test_sequences_of_unsigned_arrays_and_scalars_keep_their_dtype():
    # (the int64 overflow check must not take NumPy's uint dtype for Python ints beyond int64)
    assert dlt.asarray([np.uint8(1), np.uint8(2)]).dtype == dlt.uint8
    assert dlt.asarray([dlt.asarray([1], dtype=dlt.uint8)] * 2).shape == (2, 1)
    assert dlt.asarray([dlt.asarray(1, dtype=dlt.uint16)]).dtype == dlt.uint16
    assert int(dlt.asarray([np.uint64(2**63)])[0]) == 2**63


def test_flat_sequences_commonest_call_answers_as_the_checked_path():
    # A flat list or tuple of Python numbers of one type, nothing asked for, is NumPy's array
    # at once (copy=True takes the checked path): the same arrays, the same errors
    import enum

    class Flag(enum.IntEnum):
        A = 1

    class F(float):
        pass

    nan, inf = float("nan"), float("inf")
    sequences = [[1.0, 2.5], [-0.0, nan, inf, 1e308], [True, False], [1, -2, 3], [2**63 - 1],
                 [-2**63], [2**63], [1, 2**64], [-2**63 - 1], [10**30], [1j, -0.0j],
                 [complex(nan, -0.0)], [], [1.0], [1, 2.0], [True, 1], [1, 1j], [Flag.A, 2],
                 [Flag.A], [F(1.5)], [np.float64(1.5)], [1.5, np.float64(2.5)], [[1.0, 2.0]],
                 [1.0, [2.0]], [1.0, "2"], [1.0, None], [np.int64(1)], [2**63, 1.5]]
    for seq in sequences:
        for v in (seq, tuple(seq)):
            alike(lambda: dlt.asarray(v), lambda: dlt.asarray(v, copy=True), v)
    dlt.set_default_device("metal:0")  # (made on the default device: the checked path's)
    try:
        alike(lambda: dlt.asarray([1.0]), lambda: dlt.asarray([1.0], copy=True), "metal")
    finally:
        dlt.set_default_device(None)


def test_float_lists_with_nan_make_no_warning():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(np.asarray(dlt.asarray([float("nan")]))).all()
        assert np.isnan(float(dlt.asarray(float("nan"))))


def _ints(x):
    return np.from_dlpack(x).tolist()


def test_arange_of_ints_is_int64_exactly_or_overflows():
    # NumPy picked float64 (equal neighbours), uint64, objects (KeyError) or wrapped the last
    # element for ints near or past int64; the spec: the default integer dtype.
    assert dlt.arange(0, 2**63, 2**62).dtype == dlt.int64
    assert _ints(dlt.arange(0, 2**63, 2**62)) == [0, 2**62]
    assert _ints(dlt.arange(0, 3, 2**64)) == [0]
    for args in [(2**63 - 2, 2**63 + 1), (2**63, 2**63 + 2), (2**64, 2**64 + 2),
                 (-2**63 - 4, -2**63)]:
        with pytest.raises(OverflowError):
            dlt.arange(*args)
    with pytest.raises(OverflowError):
        dlt.arange(2**63 - 2, 2**63 + 1, dtype=dlt.int64)
    with pytest.raises(OverflowError):
        dlt.arange(250, 260, dtype=dlt.uint8)
    for args in [(5,), (1, 10, 3), (10, 1, -3), (0,), (5, 0), (np.int64(3),)]:
        assert _ints(dlt.arange(*args)) == list(range(*map(int, args)))
        assert dlt.arange(*args).dtype == dlt.int64
    assert dlt.arange(5, dtype=dlt.float32).dtype == dlt.float32


@pytest.mark.parametrize("args, dtype", [
    ((0, 2**62 + 1, 2**60), None), ((2**62 + 1, -1, -2**60), None),   # NumPy: one short
    ((-2**63, 2**63 - 1, 2**62 + 1), None), ((2**63 - 1, -2**63, -(2**61 + 1)), None),
    ((0, 2**64 - 1, 2**62), "uint64"), ((2**64 - 1, 0, -2**62), "uint64"),
    ((2**62 + 1, 0, -2**60), "uint64"), ((0, 2**53 + 3, 2**51), None),
    ((-2**62 - 1, 1, 2**60), None),  # (a negative start on the exact path)
])
def test_arange_of_ints_counts_exactly_past_2_to_53(args, dtype):
    # The spec: ceil((stop - start) / step) elements, start + i * step; NumPy and CuPy count
    # in float64, which rounds (2**62 + 1) / 2**60 down to 4.0.
    x = dlt.arange(*args, dtype=getattr(dlt, dtype) if dtype else None)
    assert _ints(x) == list(range(*args))
    assert x.dtype == (getattr(dlt, dtype) if dtype else dlt.int64)


@pytest.mark.parametrize("args, dtype", [
    ((10**8, 10**8 + 100, 5), "float32"), ((10**8, 10**8 + 20, 1), "float32"),
    ((10**8, 10**8 + 15, 5), "float32"),  # (3 elements: the fewest where NumPy's spacing errs)
    ((2.0**53, 2.0**53 + 30, 3.0), None), ((2.0**53 + 30, 2.0**53, -3.0), None),
    ((2048, 2100, 3), "float16"), ((1e8, 1e8 - 50, -5), "float32"),
    ((2**24, 2**24 + 30, 3), "complex64"), ((2**53, 2**53 + 30, 3), "complex128"),
    ((256, 300, 3), "bfloat16"),  # (complex and bfloat16 ran past stop, spaced by 4)
])
def test_float_arange_with_an_integer_step_is_start_plus_i_step(args, dtype):
    # NumPy fills start + i * ((start + step) - start), the difference taken in the dtype: 8
    # for a step of 5 at 1e8 in float32, whose values then ran past stop.
    x = dlt.arange(*args, dtype=getattr(dlt, dtype) if dtype else None)
    got = np.asarray(x)
    start, stop, step = args
    want = [start + i * step for i in range(len(range(0, int(stop - start), int(step))))]
    assert got.tolist() == np.array(want, dtype=got.dtype).tolist()
    if dtype != "float16":  # (2048 + 51 rounds to 2100 in float16: the dtype's own rounding)
        assert all((v < stop) if step > 0 else (v > stop)
                   for v in got.astype(np.complex128).real)


@pytest.mark.parametrize("args", [(1, 0, 1e-300), (0.0, -1e19), (0, -math.inf),
                                  (0, math.inf, -1), (1e300, -1e300, 1e-300)])
def test_arange_whose_span_and_step_disagree_is_empty(args):
    # The spec: length 0 when stop - start and step have other signs; NumPy's count of such a
    # span past 2**63 overflowed ("Maximum allowed size exceeded")
    x = dlt.arange(*args)
    assert x.shape == (0,) and x.dtype is dlt.float64


@pytest.mark.parametrize("dtype", [None, "float32", "int32", "uint8", "bool"])
def test_arange_whose_quotient_is_zero_only_in_floats_holds_start(dtype):
    # ceil((stop - start) / step) of the exact values is 1 where the float quotient underflows
    # or the step is infinite: [start], as NumPy has it (dltensor's count of 0 was empty)
    dtype = dtype and getattr(dlt, dtype)
    for args, want in (((0, 1e-300, 1e300), 0), ((0, 5, math.inf), 0), ((2.5, 3, math.inf), 2.5),
                       ((0, -5, -math.inf), 0), ((-0.0, 1e-320, 1e300), -0.0)):
        got = np.asarray(dlt.arange(*args, dtype=dtype))
        assert got.tolist() == np.array([want], dtype=got.dtype).tolist(), args
        assert math.copysign(1, got[0]) == math.copysign(1, want) or got.dtype.kind != "f"
        assert got.dtype == np.arange(*args, dtype=got.dtype).dtype
    for args in ((5, 0, math.inf), (0.5, 0.5 + 1e-300, 1e300), (0, 0, math.inf)):
        assert dlt.arange(*args, dtype=dtype).shape == (0,)  # (other signs, or no span)


@pytest.mark.parametrize("args, error", [((1j,), TypeError), ((0, 5, 1j), TypeError),
                                         ((True,), TypeError), (("3",), TypeError),
                                         ((0, 10, 0), ValueError), ((0.0, 1.0, 0.0), ValueError)])
def test_arange_argument_errors(args, error):
    with pytest.raises(error):
        dlt.arange(*args)


@pytest.mark.parametrize("fill", ["1.5", [1, 2], None, b"1"])
def test_full_checks_the_fill_value_with_a_dtype_too(fill):
    # Only dtype=None checked it: NumPy parsed strings, broadcast lists, took None as NaN.
    with pytest.raises(TypeError, match="fill_value"):
        dlt.full((2, 2), fill, dtype=dlt.float64)
    with pytest.raises(TypeError, match="fill_value"):
        dlt.full_like(dlt.ones(2), fill)
    assert _ints(dlt.full(2, np.int64(3), dtype=dlt.int8)) == [3, 3]


def test_tril_triu_need_matrices_and_an_int_k():
    # NumPy made a 1-D array a matrix (another shape) and a 0-d one a crash.
    for fn in (dlt.tril, dlt.triu):
        for x in (dlt.ones(3), dlt.asarray(1.0)):
            with pytest.raises(ValueError, match="2 dimensions"):
                fn(x)
        with pytest.raises(TypeError):
            fn(dlt.ones((2, 2)), k=1.5)
        assert fn(dlt.ones((2, 3, 3)), k=np.int64(1)).shape == (2, 3, 3)


def test_linspace_bounds_are_scalars_numpy_complex_ones_too():
    # np.complex64(1j) is no Python complex: the default dtype was float64, the imaginary part
    # dropped. Arrays as bounds would broadcast; a bool num counted as 1. A 0-d array is its
    # value, as in NumPy and array-api-strict (SciPy passes x[0]).
    got = np.from_dlpack(dlt.linspace(np.complex64(1j), 2, 3))
    np.testing.assert_allclose(got, np.linspace(1j, 2, 3))
    x = dlt.asarray(np.arange(6.0, dtype=np.float32))
    r = dlt.linspace(x[0], x[5], 3)
    assert r.dtype is dlt.float64 and np.from_dlpack(r).tolist() == [0.0, 2.5, 5.0]
    assert dlt.linspace(dlt.asarray(1j), 2, 3).dtype is dlt.complex128
    i = dlt.arange(dlt.asarray(2), dlt.asarray(5, dtype=dlt.uint8))
    assert i.dtype is dlt.int64 and np.from_dlpack(i).tolist() == [2, 3, 4]
    assert dlt.arange(x[1], 3.0).dtype is dlt.float64
    for call in (lambda: dlt.linspace(dlt.asarray([1j]), 2, 3), lambda: dlt.linspace(0, 1, True),
                 lambda: dlt.linspace(dlt.asarray(True), 1, 3), lambda: dlt.arange(x),
                 lambda: dlt.linspace("0", 1, 3), lambda: dlt.linspace(0, 1, 2.0)):
        with pytest.raises(TypeError):
            call()
    assert dlt.linspace(0, 1, np.int64(3)).shape == (3,)


def test_asarray_of_any_sequence_of_big_ints_overflows():
    # Only lists and tuples were looked into: range(2**63, ...) wrapped to negatives.
    import collections.abc

    class Seq(collections.abc.Sequence):
        def __init__(self, items):
            self.items = items

        def __len__(self):
            return len(self.items)

        def __getitem__(self, i):
            return self.items[i]

    for obj in (range(2**63, 2**63 + 2), Seq([2**63]), Seq([2**64])):
        with pytest.raises(OverflowError):
            dlt.asarray(obj)
    assert _ints(dlt.asarray(range(3))) == [0, 1, 2]


@pytest.mark.parametrize("copy", [1, 0, "yes"])
def test_copy_must_be_a_bool_or_none(copy):
    with pytest.raises(TypeError, match="copy"):
        dlt.asarray([1.0], copy=copy)
    with pytest.raises(TypeError, match="copy"):
        dlt.from_dlpack(np.ones(2), copy=copy)


def test_broadcast_shapes_checks_its_dimensions():
    with pytest.raises(ValueError):
        dlt.broadcast_shapes((-1,))
    for bad in ((2.5,), (True,)):
        with pytest.raises(TypeError):
            dlt.broadcast_shapes(bad, (3,))
    r = dlt.broadcast_shapes((np.int64(2),), (1,))
    assert r == (2,) and type(r[0]) is int


def test_review_regressions_of_the_creation_fixes():
    # meshgrid's grids are C-ordered fresh arrays (a copy in 'K' order kept the broadcast's
    # strides, and reshape(copy=False) then failed)
    X, _ = dlt.meshgrid(dlt.arange(3.0), dlt.arange(2.0))
    assert dlt.reshape(X, (-1,), copy=False).shape == (6,)
    # a list of buffers holds small ints, not ints past int64 (StopIteration escaped)
    import array
    for buf in (bytearray(b"ab"), memoryview(b"ab"), array.array("B", b"ab")):
        assert _ints(dlt.asarray([buf])) == [[97, 98]]
    # an empty range whatever its start
    assert dlt.arange(2**63, 0).shape == (0,) and dlt.arange(2**63, 0).dtype == dlt.int64
    assert dlt.arange(-3, -5, dtype=dlt.uint8).shape == (0,)


def test_copy_takes_numpy_bools():
    x = dlt.asarray([1.0, 2.0])
    for flag in (np.True_, np.False_):
        assert dlt.asarray(x, copy=flag).shape == (2,)
        assert dlt.from_dlpack(np.arange(3), copy=flag).shape == (3,)
        assert dlt.reshape(x, (2,), copy=flag).shape == (2,)
        assert np.from_dlpack(x.__dlpack__(copy=flag) and x).shape == (2,)
    assert dlt.asarray(x, copy=np.True_).data_ptr != x.data_ptr


@pytest.mark.parametrize("bounds, num, endpoint, dtype", [
    ((0, 1 + 2j), 5, True, np.complex128), ((1 - 1j, 3.5 + 2j), 7, False, np.complex64),
    ((2j, -3), 1, True, np.complex128), ((0, 1j), 0, True, np.complex128)])
def test_complex_linspace_by_parts_is_numpys(bounds, num, endpoint, dtype):
    # The GPU path (CuPy's linspace takes float() of a complex step) builds the real and
    # imaginary parts apart; run here with NumPy, it must give NumPy's values exactly.
    from dltensor._creation import linspace_by_parts
    got = linspace_by_parts(np, list(bounds), num, dtype, endpoint)
    want = np.linspace(*bounds, num, dtype=dtype, endpoint=endpoint)
    assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("bounds, num, endpoint, dtype", [
    ((-1, 1), 7, True, np.float32), ((-1, 1), 7, True, np.int8), ((0.1, 0.7), 13, False, None),
    ((1e-320, 3e-320), 4, True, None), ((-0.3, 0.3), 3, True, np.float64),
    ((2.0, float("inf")), 3, True, None), ((5, -5), 1, True, np.int64), ((0, 1), 0, True, None),
    ((0.5, 3), 6, True, bool), ((-3, 7), 50, True, np.uint8)])
def test_cudas_linspace_is_numpys(bounds, num, endpoint, dtype):
    # CuPy's linspace computes start + i * step in one kernel, an FMA on the GPU (-1, 1, 7 gave
    # -5.55e-17 where NumPy's is 0.0): the CUDA path multiplies, then adds; run here with
    # NumPy, it must give the CPU path's values (NumPy's, ends exact) to the bit
    from dltensor._creation import _spaced
    dtype = np.dtype(dtype or np.float64)
    with np.errstate(all="ignore"):
        got, want = (_spaced(np, [float(b) for b in bounds], num, dtype, endpoint, on_cuda)
                     for on_cuda in (True, False))
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_bool_arange_is_each_values_truth():
    # the spec's ceil((stop - start) / step) values (NumPy fills at most 2, TypeError past;
    # PyTorch and JAX have no bool arange), where NumPy answers its answer
    for args in [(1, -1, -1), (0, 2), (2, 0, -1), (0, 5, 2), (0.0, 1.0, 0.25), (5,), (3, 3)]:
        want = [bool(v) for v in np.arange(*args).tolist()]
        got = dlt.arange(*args, dtype=dlt.bool)
        assert got.dtype is dlt.bool and np.asarray(got).tolist() == want


def test_unsigned_arange_counts_down():
    x = dlt.arange(10, 0, -3, dtype=dlt.uint8)
    assert x.dtype is dlt.uint8 and np.asarray(x).tolist() == [10, 7, 4, 1]
    # The GPU path (CuPy casts a negative step to the unsigned dtype: uint8(-1) overflows)
    # counts modulo 2**64; run here with NumPy, it must give the same fresh array.
    import array_api_compat.numpy as cnp
    from dltensor._creation import _by_index
    got = _by_index(cnp, 10, 4, -3, np.dtype(np.uint8))
    assert got.dtype == np.uint8 and got.tolist() == [10, 7, 4, 1] and got.flags.c_contiguous


def test_arange_of_floats_into_an_integer_dtype_is_numpys_on_every_device():
    # NumPy's rule: its count in float64, its first two values truncated, then whole steps of
    # their difference (its values may pass stop); CuPy cast the step to the dtype first
    # ([1, 1, 1, 1] below; a negative one to uint8 overflowed), and a value past the dtype
    # is the OverflowError of int arguments, where NumPy wraps.
    for args, dtype in (((1, 0, -0.3), "int8"), ((5, 0.5, -1), "uint8"),
                        ((0.5, 5, 1.5), "int64"), ((-0.5, 5, 1.5), "int64"),
                        ((0.1, 0.9, 0.3), "int8"), ((-3.7, 3.7, 0.9), "int8"),
                        ((10.0, 0, -2.5), "uint16"), ((2.5, 3.0, 1.0), "int16"),
                        ((0.0, 1e-9, 1e-10), "uint8"), ((3.0, 2.0), "int32")):
        got = dlt.arange(*args, dtype=getattr(dlt, dtype))
        assert got.dtype.name == dtype
        assert np.asarray(got).tolist() == np.arange(*args, dtype=dtype).tolist(), args
    for args in ((0.0, 300.0, 100.0), (1.5, -2.0, -1.0, "uint8"), (200.0, 100.0, -1.0)):
        with pytest.raises(OverflowError, match="out of bounds") as e:
            dlt.arange(*args[:3], dtype=getattr(dlt, args[3] if len(args) > 3 else "int8"))
        assert str(e.value).startswith(f"arange{args[:3]} ")  # (as given, not NumPy's ints)


def test_the_gpus_float_arange_is_numpys_to_the_bit():
    # CuPy's arange computes start + i * step in one kernel (an FMA on a GPU) with the step
    # where NumPy fills start + i * delta, delta its first two values' difference (in float32
    # arange(1000.0, 1001.0, 0.01)[-1] is 1000.99097 there, 1000.99 on CUDA). The GPU path
    # does NumPy's fill: run here with NumPy, bit for bit against NumPy's arange.
    import array_api_compat.numpy as cnp
    from dltensor._creation import _numpys_fill
    for lo, hi, step in ((1000.0, 1001.0, 0.01), (1, 2, 0.001), (-0.0, 2, 0.5), (1, 2, 0.1),
                         (-5.5, 7.25, 0.37), (0.1, 0.0, -0.01), (5e-324, 1e-322, 5e-324),
                         (2**24 - 3, 2**24 + 40, 1.5), (0, 10, 1), (-0.0, -2, -1)):
        for dtype in ("float16", "float32", "float64", "complex64", "complex128"):
            want = np.arange(lo, hi, step, dtype=dtype)
            got = _numpys_fill(cnp, lo, step, want.shape[0], np.dtype(dtype))
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), \
                (lo, hi, step, dtype)


def test_the_gpus_complex_linspace_is_numpys_to_the_bit():
    # The GPU path (CuPy's own takes float() of the complex step) computes each part as
    # NumPy's complex arithmetic does: a step divided by the count is times its reciprocal
    # (linspace(10, 1j, 7)[2].real was 6.666666666666666 there, NumPy's 6.666666666666667).
    # Run here with NumPy, bit for bit against NumPy's linspace.
    import array_api_compat.numpy as cnp
    from dltensor._creation import linspace_by_parts
    for start, stop in ((10, 1j), (0.1 + 0.7j, 3.3 - 2.2j), (-3j, 1e-310 + 1e-310j),
                        (1e308 + 1e308j, -1e308), (5e-324, 1 - 1j), (complex(1, math.inf), 2)):
        for num, endpoint in ((7, True), (50, False), (1, True), (2, False), (0, True)):
            for dtype in (np.complex128, np.complex64):
                want = np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
                got = linspace_by_parts(cnp, [complex(start), complex(stop)], num, dtype,
                                        endpoint)
                assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), \
                    (start, stop, num, endpoint, got, want)


def test_creation_edges_from_the_hunt():
    # arange's exact count past the largest size was an empty array (NumPy's count overflows)
    for args in ((0, 2**63), (-2**62, 2**62), (-2**63, 0)):
        with pytest.raises(ValueError, match="elements"):
            dlt.arange(*args)
    # tril/triu take k as the int it stands for, and any int (NumPy: a C long)
    x = dlt.ones((3, 3))
    want = np.tril(np.ones((3, 3)), 1).tolist()
    for k in (1, np.uint64(1), dlt.asarray(1)):
        assert np.asarray(dlt.tril(x, k=k)).tolist() == want
    assert not np.asarray(dlt.tril(x, k=-2**63)).any()
    assert np.asarray(dlt.triu(x, k=-2**70)).all()
    # linspace of ints past int64 (they fit float64, which linspace computes in)
    assert np.asarray(dlt.linspace(2**70, 2**71, 3)).tolist() == [2.0**70, 1.5 * 2**70, 2.0**71]
    # a NumPy scalar must be copied: copy=False refuses, as np.asarray does
    s = np.float64(1.5)
    with pytest.raises(ValueError, match="copy=False"):
        dlt.asarray(s, copy=False)
    assert float(dlt.asarray(s)) == 1.5


def test_counts_near_the_largest_array_size_are_value_errors_not_empty_arrays():
    # NumPy's float count rounds up to 2**63 and overflows: an empty array, or an IndexError
    for make in (lambda: dlt.arange(2**63 - 1), lambda: dlt.arange(0.0, 2.0**63),
                 lambda: dlt.arange(2**62, dtype=dlt.int16),
                 lambda: dlt.linspace(0, 1, 2**63 - 1, endpoint=False),
                 lambda: dlt.linspace(0, 1, 2**63 - 1)):
        with pytest.raises(ValueError, match="largest array size"):
            make()


def test_a_dtype_dltensor_only_holds_is_refused_for_new_memory():
    # int4 has no NumPy dtype: asarray made int64 or float64 of it, or a KeyError
    int4 = dlt.from_dlpack(P.Producer(np.zeros(4, np.uint8), dtype=(0, 4, 1), shape=(4,))).dtype
    for make in (lambda: dlt.asarray([1, 2], dtype=int4), lambda: dlt.asarray(2**70, dtype=int4),
                 lambda: dlt.asarray(np.ones(2, np.int8), dtype=int4),
                 lambda: dlt.asarray(dlt.ones(2), dtype=int4),
                 lambda: dlt.astype(dlt.ones(2), int4), lambda: dlt.zeros(2, dtype=int4)):
        with pytest.raises(TypeError, match="cannot compute on dtype int4"):
            make()


@pytest.mark.parametrize("like", [dlt.zeros_like, dlt.ones_like, dlt.empty_like,
                                  lambda x, dtype: dlt.full_like(x, 1, dtype=dtype)])
@pytest.mark.parametrize("dtype", [0, False, "", []])
def test_a_falsy_dtype_is_refused_by_the_like_functions_too(like, dtype):
    with pytest.raises(TypeError, match="dtype"):
        like(dlt.ones(2), dtype=dtype)


def test_full_converts_its_value_as_asarray_does():
    # NumPy's fill is a C cast: 1j into float32 was 0.0 (a ComplexWarning), NaN into int32
    # INT_MIN; the spec's full has every element equal to fill_value
    for value, dtype in ((1j, dlt.float32), (1 + 0j, dlt.int32)):
        with pytest.raises(TypeError, match="imaginary"):
            dlt.full(2, value, dtype=dtype)
        with pytest.raises(TypeError, match="imaginary"):
            dlt.full_like(dlt.zeros(2, dtype=dtype), value)
    for value, error in ((float("nan"), ValueError), (float("inf"), OverflowError),
                         (1e30, OverflowError)):
        with pytest.raises(error):
            dlt.full(2, value, dtype=dlt.int32)
        with pytest.raises(error):
            dlt.asarray(value, dtype=dlt.int32)
    assert np.asarray(dlt.full(2, 2.7, dtype=dlt.int8)).tolist() == [2, 2]  # (as asarray)
    assert np.asarray(dlt.full(2, 1j, dtype=dlt.complex64)).tolist() == [1j, 1j]


def test_full_commonest_call_answers_as_the_checked_path():
    # A Python scalar into its default dtype, no dtype or device asked for, is NumPy's own full
    # at once (device="cpu" takes the checked path): the same arrays, the same errors
    shapes = [3, 0, (), (2, 3), (0, 2), -1, (2, -1), 2**62, (2**40, 2**40), True, (2, True),
              np.int64(2), (np.int64(2),), 2.0, (2, 3.0), [2], None, "3"]
    values = [True, False, 0, -1, 2**63 - 1, 2**63, -2**63, -2**63 - 1, 10**30, 1.5, -0.0,
              float("nan"), float("inf"), 1e308, 1j, complex(float("nan"), -0.0)]
    for shape in shapes:
        for value in values:
            alike(lambda: dlt.full(shape, value), lambda: dlt.full(shape, value, device="cpu"),
                  (shape, value))


def test_linspace_starts_at_start():
    # NumPy's first value is 0 * step + start: NaN for an infinite step, +0.0 for -0.0
    with np.errstate(invalid="ignore"):
        inf = float("inf")
        assert np.asarray(dlt.linspace(0, inf, 3)).tolist() == [0.0, inf, inf]
        assert np.asarray(dlt.linspace(0.0, float("inf"), 1)).tolist() == [0.0]
    z = np.asarray(dlt.linspace(-0.0, -0.0, 2))
    assert np.signbit(z).all()
    c = np.asarray(dlt.linspace(complex(-0.0, 1), 1, 3))
    assert np.signbit(c[0].real) and c[0].imag == 1
    # integer dtypes are floored as NumPy floors them, the first value too
    assert np.asarray(dlt.linspace(-0.5, 2, 3, dtype=dlt.int64)).tolist() == [-1, 0, 2]
    # with a NaN stop too (NumPy's NaN cast to int64 was -2**63); values the dtype lacks are
    # NumPy's cast, as before
    with np.errstate(invalid="ignore"):
        assert np.asarray(dlt.linspace(2, float("nan"), 1, dtype=dlt.int64)).tolist() == [2]
    assert np.asarray(dlt.linspace(-2.5, 3, 4, dtype=dlt.uint8)).tolist() == [253, 255, 1, 3]


def test_linspace_of_bounds_whose_difference_overflows_is_made_in_halves():
    # Finite bounds, an infinite stop - start: NumPy's step was inf, its values
    # [-1e308, inf, inf, inf, 1e308] (not even ordered). In halves, then doubled: exact, as
    # NumPy would make them with exponents to spare.
    big = 1.7e308
    for lo, hi, num, endpoint in ((-1e308, 1e308, 5, True), (big, -big, 7, True),
                                  (-big, big, 4, False), (-1e308, 1e308, 1, True)):
        got = np.asarray(dlt.linspace(lo, hi, num, endpoint=endpoint))
        want = 2 * np.linspace(lo / 2, hi / 2, num, endpoint=endpoint)
        assert np.isfinite(got).all() and got.tolist() == want.tolist()
        assert got[0] == lo and (not endpoint or num == 1 or got[-1] == hi)
    assert np.asarray(dlt.linspace(-1e308, 1e308, 5)).tolist() == [
        -1e308, -5e307, 0.0, 5e307, 1e308]
    c = np.asarray(dlt.linspace(complex(-1e308, 1), complex(1e308, 3), 3))
    assert c.tolist() == [complex(-1e308, 1), complex(0, 2), complex(1e308, 3)]
    # (an infinite bound is no overflow: NumPy's values, as before)
    with np.errstate(invalid="ignore"):
        assert np.asarray(dlt.linspace(0, float("inf"), 3)).tolist() == [0.0] + [np.inf] * 2


def test_eye_takes_only_an_int_diagonal():
    for k in (True, None, 1.0):
        with pytest.raises(TypeError, match="k"):
            dlt.eye(3, k=k)
    assert np.asarray(dlt.eye(3, k=np.int8(1))).tolist() == np.eye(3, k=1).tolist()


@pytest.mark.parametrize("device", ["metal:0", "vulkan:1", Device(8, 0)])
@pytest.mark.parametrize("make", [
    lambda d: dlt.asarray(1.0, device=d), lambda d: dlt.asarray([1, 2], device=d),
    lambda d: dlt.zeros(2, device=d), lambda d: dlt.full(2, 1.0, device=d),
    lambda d: dlt.arange(3, device=d)])
def test_new_memory_on_a_device_without_a_backend_is_one_error(device, make):
    # asarray of Python data was a BufferError ("cannot move memory from cpu"), zeros a
    # NoBackendError: both make new memory there
    from dltensor._backends import NoBackendError
    with pytest.raises(NoBackendError, match=f"cannot compute on device {dlt.Device(8, 0)}"
                       if device == Device(8, 0) else "cannot compute on device"):
        make(device)


@pytest.mark.parametrize("device", ["metal:0", "cuda_host"])
@pytest.mark.parametrize("make, error", [
    (lambda d: dlt.eye(-1, device=d), ValueError),
    (lambda d: dlt.eye(2, -1, device=d), ValueError),
    (lambda d: dlt.eye(2.0, device=d), TypeError),
    (lambda d: dlt.eye(2, "a", device=d), TypeError),
    (lambda d: dlt.linspace(0, 1, -1, device=d), ValueError),
    (lambda d: dlt.zeros((2, "a"), device=d), TypeError),
    (lambda d: dlt.ones((np.int64(2), -1), device=d), ValueError),
    (lambda d: dlt.full(2, 300, dtype=dlt.int8, device=d), OverflowError),
    (lambda d: dlt.full(2, 2**64, device=d), OverflowError),
    (lambda d: dlt.arange(float("nan"), device=d), ValueError),
    (lambda d: dlt.arange(0, float("inf"), float("inf"), device=d), ValueError)])
def test_creation_arguments_are_checked_before_a_device_that_cannot_allocate(device, make,
                                                                            error):
    # (these were NoBackendErrors on held and pinned devices, where the CPU and CUDA say what
    # is wrong with the arguments, as zeros(-1, device=...) already did)
    with pytest.raises(error):
        make(device)
    with pytest.raises(error):
        make("cpu")


def test_infinite_and_huge_aranges_are_value_errors():
    for args in ((0.0, float("inf")), (-1e308, 1e308), (0, 1e308, 1e-308), (0, 10**400, 1.0)):
        with pytest.raises(ValueError):
            dlt.arange(*args)


def test_aranges_errors_name_the_call_as_written():
    # (stop omitted makes start the stop, and float bounds into an integer dtype NumPy's
    # ints: the messages said arange(0, 1e+308, 1e-308) of arange(1e308, step=1e-308), and
    # arange(300.5, None, 1) of arange(300.5, dtype=int8))
    for args, kwargs, error, said in (
            ((1e308,), dict(step=1e-308), ValueError, "arange(1e+308, step=1e-308) would"),
            ((float("inf"),), {}, ValueError, "arange(inf) would have infinitely many"),
            ((1e308, -1e308, -1e-300), {}, ValueError, "arange(1e+308, -1e+308, -1e-300) "),
            ((300.5,), dict(dtype=dlt.int8), OverflowError, "arange(300.5) has values out"),
            ((0.1, 900.9, 300.3), dict(dtype=dlt.int8), OverflowError, "arange(0.1, 900.9, "
                                                                        "300.3) has"),
            ((10**400,), dict(step=2.0), ValueError, f"arange({10**400}, step=2.0) would"),
            ((2**70, 2**70 + 3), {}, OverflowError, f"arange({2**70}, {2**70 + 3}) has")):
        with pytest.raises(error) as e:
            dlt.arange(*args, **kwargs)
        assert str(e.value).startswith(said), (args, str(e.value))


def test_a_float_arange_from_an_int_past_the_floats_is_an_overflow_error():
    # (its values are past float64's, as full(1, 10**400) and asarray(10**400) say: NumPy
    # counted NaN elements, "Maximum allowed size exceeded", and of 3 or more the check of
    # NumPy's step said Python's "int too large to convert to float")
    for args in ((10**400, 10**400 + 2, 1.5), (10**400, 10**400 + 5, 1.5),
                 (-10**400, -10**400 + 5, 1.0), (2**1024 - 2**970, 2**1024, 2.0**969)):
        for dtype in (None, dlt.float32, dlt.complex128):
            with pytest.raises(OverflowError, match=r"^arange\(.* has values out of bounds"):
                dlt.arange(*args, dtype=dtype)
    big = 2**1024 - 2**970 - 1  # (float64's largest, rounded)
    assert np.asarray(dlt.arange(big, big + 1, 0.5)).tolist() == [float(big)] * 2


def test_arange_of_ints_has_one_length_whatever_the_dtype():
    # ceil((stop - start) / step) of ints is counted exactly for every dtype: float64's
    # quotient (2**62 + 1) / 2**60 rounds to 4.0, so floating dtypes had 4 elements where
    # int64 and bool had 5; 2**53 + 1 apart, the least span whose quotient can round so
    for args in ((0, 2**62 + 1, 2**60), (2**62 + 1, 0, -2**60), (0, 2**53 + 1, 2**51)):
        want = [float(v) for v in range(*args)]
        assert len(want) == 5
        for dtype in (dlt.int64, dlt.bool, dlt.float64, dlt.float32, dlt.complex128):
            assert dlt.arange(*args, dtype=dtype).shape == (5,)
        assert np.asarray(dlt.arange(*args, dtype=dlt.float64)).tolist() == want


def test_arange_whose_span_is_past_the_floats_counts_by_parts():
    # stop - start overflows to inf: it said "infinitely many" of arange(1e308, -1e308, -1e308)
    assert np.asarray(dlt.arange(1e308, -1e308, -1e308)).tolist() == [1e308, 0.0]
    assert np.asarray(dlt.arange(-1.5e308, 1.5e308, 1e308)).tolist() == [-1.5e308, -5e307, 5e307]


def test_linspace_refuses_complex_bounds_for_a_real_dtype():
    # (NumPy dropped the imaginary part with a ComplexWarning; full and asarray refuse)
    for bounds in ((1j, 2.0), (0.0, 1 + 0j)):
        with pytest.raises(TypeError, match="imaginary"):
            dlt.linspace(*bounds, 3, dtype=dlt.float64)
    assert dlt.linspace(1j, 2.0, 3, dtype=dlt.complex64).dtype == dlt.complex64


def test_python_ints_beside_numpy_scalars_must_fit_the_dtype():
    # (a list holding a NumPy scalar went through NumPy's array and astype: 300 wrapped to 44)
    for obj, dtype in (([300, np.int8(1)], dlt.int8), ([-1, np.uint8(1)], dlt.uint8),
                       ([[2**64], [np.int64(1)]], dlt.uint64)):
        with pytest.raises(OverflowError, match="out of bounds"):
            dlt.asarray(obj, dtype=dtype)
    assert np.asarray(dlt.asarray([3, np.int8(1)], dtype=dlt.int8)).tolist() == [3, 1]


def test_a_bool_is_no_shape():
    # zeros(True) was an array of shape (1,), ones(False) of shape (0,): NumPy reads a bool
    # as an int, where a tuple holding one is a TypeError
    for f in (dlt.zeros, dlt.ones, dlt.empty, lambda s: dlt.full(s, 1.0),
              lambda s: dlt.reshape(dlt.ones(1), s)):
        for bad in (True, False, np.True_, (True, 2)):
            with pytest.raises(TypeError):
                f(bad)


def test_asarray_with_a_dtype_of_sequences_holding_arrays_or_objects():
    # (arrays in the sequence are cast as astype casts them; Python ints beside them must fit
    # an integer dtype, and nothing else is checked against one)
    x = dlt.asarray([dlt.asarray(1.0), 2.5], dtype=dlt.float32)
    assert x.dtype == dlt.float32 and np.asarray(x).tolist() == [1.0, 2.5]
    i8 = dlt.asarray([dlt.asarray(1, dtype=dlt.int8), -128, 127], dtype=dlt.int8)  # (the ends)
    assert np.asarray(i8).tolist() == [1, -128, 127]
    for past in (-129, 128):
        with pytest.raises(OverflowError):
            dlt.asarray([dlt.asarray(1, dtype=dlt.int8), past], dtype=dlt.int8)
    with pytest.raises(TypeError):  # (NumPy's: None is no int; not a float64 NaN cast to int)
        dlt.asarray([None], dtype=dlt.int64)


def test_asarray_with_a_dtype_of_sequences_holding_arrays_is_exact():
    # Made in the dtype asked for, as NumPy's asarray(obj, dtype=) makes it: cast from NumPy's
    # common dtype of the elements, float64 for int64 beside uint64 or a float, 2**62 + 1 was
    # 2**62; uint64's 2**64 - 1 beside an int was 0; a record was 0
    big = 2**62 + 1
    for obj, dtype, want in (
            ([dlt.asarray(big), 0.5], dlt.int64, [big, 0]),
            ([dlt.asarray([big]), dlt.asarray([0.5], dtype=dlt.float32)], dlt.int64,
             [[big], [0]]),
            ([np.int64(2**53 + 1), np.uint64(1)], dlt.int64, [2**53 + 1, 1]),
            ([np.uint64(2**64 - 1), 0], dlt.uint64, [2**64 - 1, 0]),
            ([dlt.asarray([2**64 - 1], dtype=dlt.uint64), dlt.asarray([1])], dlt.uint64,
             [[2**64 - 1], [1]]),
            # (our 0-d arrays, which NumPy read through __float__: rounded twice, 2**60)
            ([dlt.asarray(2**60 + 2**36 + 1), 0.5], dlt.float32, [2.0**60 + 2**37, 0.5]),
            ([[dlt.asarray(2**60 + 2**36 + 1)], [1]], dlt.complex64,
             [[2.0**60 + 2**37 + 0j], [1 + 0j]])):
        x = dlt.asarray(obj, dtype=dtype)
        assert x.dtype == dtype and x.tolist() == want, obj
    with pytest.raises(OverflowError):  # (NumPy's: -1 is no int64 2**64 - 1 can be)
        dlt.asarray([np.uint64(2**64 - 1), -1], dtype=dlt.int64)
    with pytest.raises(TypeError):  # (NumPy's: a record is no int)
        dlt.asarray([np.zeros(1, dtype=[("a", "<i4")])[0]], dtype=dlt.int64)


def test_float_arange_of_one_element_and_numpys_spacing_for_other_steps():
    # a span of at most one step is one element (the span's first bound), not none
    for args, want in (((0.0, 0.5), [0.0]), ((2.5, 3.0, 1.0), [2.5]), ((1.0, 2.0), [1.0]),
                       ((0.0, 1e-300, 1.0), [0.0])):
        assert np.asarray(dlt.arange(*args)).tolist() == want
    # a step that is not an integer may be inexact, the spec says: NumPy's values, bit for bit
    # ((1/3 + 0.1) - 1/3 is not 0.1: NumPy steps by that difference)
    for args in ((1 / 3, 10, 0.1), (0.1, 5, 0.7), (-2.5, 7.25, 0.35)):
        assert np.array_equal(np.asarray(dlt.arange(*args)), np.arange(*args))


@pytest.mark.parametrize("args, dtype", [
    ((100, 257, 0.1), "bfloat16"),  # (NumPy: 1570 times 100.0, its delta 0)
    ((1e8, 1e8 + 100, 4.5), "float32"),  # (NumPy's last value 1e8 + 176, past stop)
    ((100, 200, 0.01), "float32"),  # (NumPy's last value 200.011, past stop)
    ((1000, 1010, 0.3), "float16"), ((1e15, 1e15 + 10, 0.3), "float64"),
])
def test_float_arange_whose_numpy_values_stray_is_start_plus_i_step(args, dtype):
    # NumPy steps by (start + step) - start rounded in the dtype: where that strays by more
    # than half a step (and the dtype's resolution) by the last value, each value is
    # start + i * step, rounded once, as for an integer step
    x = dlt.arange(*args, dtype=getattr(dlt, dtype))
    got = np.asarray(dlt.astype(x, dlt.float64))
    start, stop, step = args
    want = (np.arange(math.ceil((stop - start) / step)) * step + start).astype(x.dtype.numpy)
    assert got.tolist() == want.astype(np.float64).tolist()
    assert got[-1] <= stop


def test_float_arange_keeps_numpys_values_where_they_stay_within_a_step():
    # (NumPy's rounding of the step drifts its float16 values by 0.24 by 999.9, where the
    # dtype resolves 0.5: kept bit for bit)
    for args, dtype in (((0, 1000, 0.1), np.float16), ((0, 1, 0.1), np.float32),
                        ((1 / 3, 10, 0.1), np.float64)):
        x = dlt.arange(*args, dtype=dlt.asarray(np.zeros(0, dtype)).dtype)
        assert np.array_equal(np.asarray(dlt.astype(x, dlt.float64)),
                              np.arange(*args, dtype=dtype).astype(np.float64))


@pytest.mark.parametrize("args, dtype", [
    ((1, 2, 0.1), "bfloat16"),  # (NumPy's 1.3046875 at 1.3, whose nearest is 1.296875)
    ((0, 1, 0.1), "float8_e5m2"),  # (NumPy's 0.25 at 0.3: 17% off)
    ((100, 257, 0.5), "float8_e3m4"),  # (past its range: inf; NumPy's NaN, of inf - inf)
    ((0.5, 8, 0.25), "float8_e8m0fnu"),  # (powers of two only: NumPy's 2.0 at 1.0)
    ((5,), "bfloat16"), ((2.5, 3.0, 1.0), "bfloat16"),
])
def test_an_extension_float_arange_is_each_value_rounded_once(args, dtype):
    # start + i * step in float64, each rounded once into ml_dtypes' float: NumPy's fill
    # steps by the difference of its first two values, which ml_dtypes round through float32
    import ml_dtypes
    t = getattr(ml_dtypes, dtype)
    x = dlt.arange(*args, dtype=dlt.asarray(np.zeros(0, t)).dtype)
    want = np.arange(*args, dtype=np.float64).astype(t)
    with np.errstate(invalid="ignore"):
        assert np.array_equal(np.asarray(x).astype(np.float64), want.astype(np.float64))


def test_triangles_commonest_call_answers_as_the_checked_path():
    # A CPU stack of matrices with elements and an int offset within them is NumPy's own tril
    # or triu at once (the checked path: x imported, not yet computed on): the same arrays,
    # the same errors
    f = np.arange(24.0).reshape(2, 3, 4) - 11.5
    ro = f[0].copy()
    ro.flags.writeable = False
    arrays = [f, f[0], f[0].T, f[..., ::-2], ro, np.broadcast_to(f[0, 0], (4, 4)),
              (f[0] > 0), f[0].astype(np.int8) + 0j, f[:, :0], f[0, 0], np.array(1.0),
              np.ones((1, 1, 1), np.uint16)]
    for a in arrays:
        x = dlt.asarray(a)
        for k in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 2**63, -2**63 - 1, True, np.int64(1),
                  1.0, None):
            for fn in (dlt.tril, dlt.triu):
                alike(lambda: fn(x, k=k), lambda: fn(dlt.from_dlpack(P.from_numpy(a)), k=k),
                      (fn, a, k))


def test_tril_and_triu_default_to_the_main_diagonal():
    x = dlt.reshape(dlt.arange(1, 10), (3, 3))
    assert np.array_equal(np.asarray(dlt.tril(x)), np.tril(np.arange(1, 10).reshape(3, 3)))
    assert np.array_equal(np.asarray(dlt.triu(x)), np.triu(np.arange(1, 10).reshape(3, 3)))


@pytest.mark.parametrize("args, dtype", [
    ((2**63 - 2, 2**63), None), ((-2**63 + 1, -2**63 - 1, -1), None),
    ((250, 256), "uint8"), ((-126, -129, -1), "int8"),
])
def test_arange_of_ints_reaches_its_dtypes_ends(args, dtype):
    x = dlt.arange(*args, dtype=getattr(dlt, dtype) if dtype else None)
    assert _ints(x) == list(range(*args))


def test_float_arange_keeps_the_dtype_asked_for_past_the_floats_and_when_empty():
    # (stop - start past float64: counted by parts; the values then cast to the dtype)
    x = dlt.arange(1e308, -1e308, -1e308, dtype=dlt.float32)
    assert x.dtype == dlt.float32 and np.asarray(x).tolist() == [math.inf, 0.0]
    assert dlt.arange(1.0, 0.0, dtype=dlt.float32).dtype == dlt.float32
    assert dlt.arange(1.0, 0.0).dtype == dlt.float64


def test_linspace_refuses_bool_bounds():
    for bounds in ((True, 1.0), (0.0, False)):
        with pytest.raises(TypeError, match="linspace takes int, float and complex bounds"):
            dlt.linspace(*bounds, 3)


def test_linspace_values_are_numpys_to_the_bit():
    # the last value is stop also for two values (1e16 + (1.0 - 1e16) is 0.0), and a step of 1
    # multiplies (i / 10 * 10 is 3.0000000000000004 for i = 3)
    assert np.asarray(dlt.linspace(1e16, 1.0, 2)).tolist() == [1e16, 1.0]
    assert np.asarray(dlt.linspace(0, 10, 11)).tolist() == list(map(float, range(11)))
    for args in ((1e16, 1.0, 2), (0, 10, 11), (-1, 1, 7), (0.1, 0.7, 13)):
        assert np.array_equal(np.asarray(dlt.linspace(*args)), np.linspace(*args))


def test_linspaces_commonest_call_answers_as_the_checked_path():
    # linspace(start, stop, num) with Python ints or floats and nothing else is NumPy's own;
    # dtype=float64 takes the general path: the same values to the bit, signed zeros too
    vals = [0, 1, -1, 2.5, -0.0, 0.0, 1e308, -1e308, 10**20, 1e-320, math.inf, math.nan]
    with np.errstate(all="ignore"):
        for lo in vals:
            for hi in vals:
                for num in (0, 1, 2, 5):
                    for endpoint in (True, False):
                        got = np.asarray(dlt.linspace(lo, hi, num, endpoint=endpoint))
                        want = np.asarray(dlt.linspace(lo, hi, num, endpoint=endpoint,
                                                       dtype=dlt.float64))
                        assert got.dtype == want.dtype and got.shape == want.shape
                        assert np.array_equal(got, want, equal_nan=True), (lo, hi, num)
                        assert np.array_equal(np.signbit(got), np.signbit(want)), (lo, hi, num)
    for bad in (-1, 2.0, True):  # (and its checks are the general path's)
        with pytest.raises((TypeError, ValueError)):
            dlt.linspace(0, 1, bad)
    with pytest.raises(TypeError):
        dlt.linspace(0, 1, 3, endpoint=1)


def test_arange_and_eyes_commonest_calls_answer_as_the_checked_paths():
    # arange of small ints and eye(n) with no dtype or device are NumPy's own; a dtype takes
    # the general path: the same arrays
    # (and spans past 2**53, which NumPy counts in float64: arange(0, 2**62 + 1, 2**60) has 5)
    ints = [0, 1, -1, 5, -7, 2**40 - 1, -(2**40 - 1), 2**40, 2**63, 2**62 + 1, -(2**62 + 1)]
    for start in ints:
        for stop in ints + [None]:
            for step in (1, -1, 3, -2, 2**39, 0, 2**60, -2**60):
                lo, hi = (0, start) if stop is None else (start, stop)
                if step and -((lo - hi) // step) > 1000:  # (memory of a test's size)
                    continue
                try:
                    got = np.asarray(dlt.arange(start, stop, step))
                except (ValueError, OverflowError) as e:
                    with pytest.raises(type(e)):
                        dlt.arange(start, stop, step, dtype=dlt.int64)
                    continue
                want = np.asarray(dlt.arange(start, stop, step, dtype=dlt.int64))
                assert got.dtype == want.dtype and np.array_equal(got, want), (start, stop, step)
    for n in (0, 1, 4):
        for k in (0, 1, -2, 5, -5, 2**70, -2**70):
            got, want = dlt.eye(n, k=k), dlt.eye(n, k=k, dtype=dlt.float64)
            assert got.dtype == want.dtype and np.array_equal(np.asarray(got), np.asarray(want))
    for bad in (True, 2.0, -1):
        with pytest.raises((TypeError, ValueError)):
            dlt.eye(bad)
    with pytest.raises(ValueError, match=r"eye: a result of shape \(1073741824, 1073741824\)"):
        dlt.eye(2**30)  # (in dltensor's words, as eye(n, n) says it: the fast path's bound)
    with pytest.raises(TypeError):
        dlt.arange(True)
    with pytest.raises(ValueError, match="step must not be 0"):
        dlt.arange(0, 5, 0)
    for args in ((0, 2.5), (0.0, 3), (0, 3, 1.0)):  # a float anywhere: float64, not the int path
        got = dlt.arange(*args)
        assert got.dtype == dlt.float64 and np.asarray(got).tolist() == [0.0, 1.0, 2.0]
