"""Indexing: x[key], x[key] = value, take and take_along_axis, against array-api-strict.

Also: the keys the spec leaves out raise IndexError, setitem refuses promotions the spec does
not define and read-only memory, and basic indexing returns views of the same memory.
"""

import math
import warnings

import array_api_strict as strict
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import dltensor as dlt
from oracle import alike, same
import producers as P

xps = make_strategies_namespace(strict)

A = np.arange(2 * 3 * 4, dtype=np.int32).reshape(2, 3, 4)


def both(a):
    return dlt.asarray(a), strict.asarray(a)


def key_for(xp, key):
    """The key with its numpy arrays made into arrays of namespace ``xp``."""
    if isinstance(key, tuple):
        return tuple(key_for(xp, k) for k in key)
    return xp.asarray(key) if isinstance(key, np.ndarray) else key


# --- reading --------------------------------------------------------------------------------

KEYS = [
    1, -1, slice(None), slice(1, 2), slice(None, None, -1), (0, 1, 2), (-1, -2, -3),
    (0, slice(1, None), slice(None, None, 2)), (Ellipsis,), (Ellipsis, 1), (1, Ellipsis),
    (0, Ellipsis, 3), (None, 0, Ellipsis), (slice(None), None, 1, None, slice(2, 3)),
    (slice(1, None, -1), slice(3, 0, -2), 0), (slice(2, 2), slice(None), slice(None)),
    (0, 0, slice(2, 0, -1)),
    # integer arrays (2024.12): with integers, broadcast together, 0-d ones like integers
    (np.array([1, 0]), np.array([2, 0]), np.array([3, 3])),
    (1, np.array([0, 2, 2]), np.array([[0], [3]])),
    (np.array(1), np.array(2), np.array(-1)),
    (np.array([-1, 0], dtype=np.int8), 0, np.array([1, 1], dtype=np.uint8)),
    # boolean masks, the sole index
    A % 3 == 0, (A % 2 == 0)[:, :, 0], (A > 100), np.array(True), np.array(False),
    np.zeros((2, 0), dtype=bool),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem_matches_strict(key):
    shape = (2, 3, 4) if not (isinstance(key, int) or isinstance(key, slice)) else (5,)
    a = A if shape == A.shape else np.arange(5, dtype=np.float32)
    x, s = both(a)
    same(x[key_for(dlt, key)], s[key_for(strict, key)])


@settings(max_examples=150, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple))
def test_basic_indices_match_strict(data, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    key = data.draw(xps.indices(shape, allow_newaxis=True, allow_ellipsis=True), label="key")
    x, s = both(a)
    same(x[key], s[key])


@settings(max_examples=100, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
def test_integer_array_indices_match_strict(data, shape):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    index_shapes = data.draw(st.lists(st.integers(1, 3), max_size=2).map(tuple), label="ishape")
    key = []
    for side in shape:
        if data.draw(st.booleans(), label="array?"):
            key.append(np.array(data.draw(st.lists(st.integers(-side, side - 1),
                                                   min_size=int(np.prod(index_shapes)),
                                                   max_size=int(np.prod(index_shapes)))),
                                dtype=np.int64).reshape(index_shapes))
        else:
            key.append(data.draw(st.integers(-side, side - 1)))
    key = tuple(key)
    x, s = both(a)
    same(x[key_for(dlt, key)], s[key_for(strict, key)])


def test_0d_integer_arrays_are_integers():
    # The spec makes a 0-d integer array equivalent to int(it); so it may stand beside slices.
    x = dlt.asarray(A)
    i = dlt.asarray(np.int8(1))
    assert np.from_dlpack(x[i, :, -1]).tolist() == A[1, :, -1].tolist()
    assert x[i, ..., i].data_ptr == x[1, ..., 1].data_ptr


def test_slices_clip_like_python_lists():
    # The spec leaves out-of-bounds slice bounds unspecified and allows clipping; dltensor
    # clips, as NumPy, CuPy and Python lists do (array-api-strict raises instead).
    x = dlt.asarray(np.arange(5))
    for key in [slice(0, 100), slice(-100, 2), slice(7, 9), slice(100, None, -2)]:
        assert np.from_dlpack(x[key]).tolist() == list(range(5))[key]


def test_getitem_never_returns_a_numpy_scalar():
    x = dlt.asarray(A)
    for key in [(1, 2, 3), (Ellipsis, 1, 2, 3), (dlt.asarray(1), 2, 3)]:
        r = x[key]
        assert type(r) is dlt.ndarray and r.shape == ()
        assert r.data_ptr == x.data_ptr + 23 * A.itemsize, "a 0-d view, not a copied scalar"
    zero_d = dlt.asarray(np.float32(2.5))
    for key in [(), Ellipsis]:
        assert type(zero_d[key]) is dlt.ndarray and zero_d[key].shape == ()


OUT_OF_SPEC = [
    ("empty tuple on 3-D", ()), ("float", 1.0), ("list of one axis's indices", [0, 1]),
    ("tuple in tuple", ((0, 1), 0, 0)), ("Python bool and too few", (True, 0, 0)),
    ("flat indexing", 0), ("flat slice", slice(1)), ("too many", (0, 0, 0, 0)),
    ("two ellipses", (Ellipsis, 0, Ellipsis)), ("out of bounds", (2, 0, 0)),
    ("negative out of bounds", (-3, 0, 0)), ("string", "a"),
    ("mask and an index, too few", (np.array([True, False]), 0)),
    ("mask too many dims", np.ones((2, 3, 4, 1), dtype=bool)),
    ("mask wrong size", np.ones((3,), dtype=bool)),
    ("integer array with a slice", (np.array([0, 1]), slice(None), 0)),
    ("integer arrays apart", (np.array([0, 1]), slice(None), np.array([0]))),
    ("too few integer arrays", (np.array([0, 1]), 0)),
    ("float array", (np.array([0.0]), 0, 0)),
]


@pytest.mark.parametrize("key", [k for _, k in OUT_OF_SPEC], ids=[n for n, _ in OUT_OF_SPEC])
def test_keys_outside_the_spec_raise_index_error(key):
    x, s = both(A)
    dlt_key, strict_key = key_for(dlt, key), key_for(strict, key)
    with pytest.raises(IndexError):
        x[dlt_key]
    with pytest.raises(IndexError):  # the oracle agrees these are outside the spec
        s[strict_key]


def test_slice_bounds_of_floats_are_a_type_error():
    # (as in Python's, NumPy's and array-api-strict's slices; they were an IndexError)
    x, s = both(A)
    for key in ((slice(0.5, 2), 0, 0), (slice(None, None, 1.0), Ellipsis)):
        for a in (x, s):
            with pytest.raises(TypeError):
                a[key]


@pytest.mark.parametrize("key", [
    (np.array([0, 1]), Ellipsis), (Ellipsis, np.array([[3], [0]])),
    (slice(None), np.array([2, 0]), np.array([1, 3])), (np.array([1]), 2, slice(None, None, -1)),
    (None, slice(1, None), 0, np.array([3, 3])), (np.array([-1, 0]), Ellipsis, None),
    (slice(0, 1), Ellipsis, np.array([[0, 1]])), (Ellipsis, 1, np.array([2]))],
    ids=lambda k: repr(k).replace("\n", ""))
def test_integer_arrays_beside_slices_take_numpys_meaning(key):
    # (the spec leaves them to the library: NumPy's, where the integer arrays and integers are
    # adjacent, as NumPy, PyTorch and CuPy index; scikit-learn's _safe_indexing writes X[i, :])
    _indexes_as_numpy(key)
    x = dlt.asarray(A)
    with pytest.raises(IndexError):  # (an index out of bounds there too)
        x[key_for(dlt, tuple(k * 0 + 9 if isinstance(k, np.ndarray) else k for k in key))]


@pytest.mark.parametrize("key", [
    (Ellipsis, np.array([True, False, True, True])), (slice(None), A[0] % 2 == 0),
    (np.array([True, False]), Ellipsis), (None, A % 3 == 0), (0, A[0] > 4),
    (np.array([True, False]), 1, slice(None)), (np.array([1, 0, 1, 1, 0, 0]), A[0] % 2 == 0),
    (slice(None), np.array([True, False, True]), np.array([0, 3])),
    (np.zeros((2, 3), dtype=bool), Ellipsis), (None, np.array([True, False]), 2, Ellipsis),
    (slice(1, None), np.ones((3, 4), dtype=bool)),
    (Ellipsis, np.zeros((0, 4), dtype=bool)), (0, np.zeros((3, 0), dtype=bool))],  # (a length
    # 0 matches any axis, in NumPy and in the conformance suite's sole masks)
    ids=lambda k: repr(k).replace("\n", ""))
def test_masks_beside_other_indices_take_numpys_meaning(key):
    # (the spec leaves them to the library: NumPy reads a mask there as its nonzero() arrays,
    # as PyTorch and CuPy do; SciPy's ndimage writes x[..., mask])
    _indexes_as_numpy(key)


def _indexes_as_numpy(key):
    """x[key], and x[key] = an array or a scalar, do what they do to the same NumPy array."""
    got = dlt.asarray(A)[key_for(dlt, key)]
    assert np.array_equal(np.asarray(got), A[key]) and got.shape == A[key].shape
    if any(k is None for k in (key if isinstance(key, tuple) else (key,))):
        return  # (None reads only)
    for v in (np.arange(A[key].size).reshape(A[key].shape).astype(A.dtype) + 100, 7):
        b, y = A.copy(), dlt.asarray(A.copy())
        b[key] = v
        y[key_for(dlt, key)] = dlt.asarray(v) if isinstance(v, np.ndarray) else v
        assert np.array_equal(np.asarray(y), b)


@pytest.mark.parametrize("key, words", [
    ((np.array([True, False, True]), Ellipsis), "does not match"),  # (of shape (2,))
    ((Ellipsis, np.array([True, False])), "does not match"),
    ((np.array([True, False]), slice(None), np.array([0])), "adjacent"),
    ((np.array(True), 0, slice(None)), "given for a 3-D"),  # (True is an axis of its own)
    ((True, Ellipsis, False), "adjacent"),
    ((np.array([1, 0]), A[0] % 2 == 0), "broadcast")])
def test_masks_beside_other_indices_that_numpy_refuses_or_moves_are_index_errors(key, words):
    x = dlt.asarray(A)
    with pytest.raises(IndexError, match=words):
        x[key_for(dlt, key)]
    with pytest.raises(IndexError, match=words):
        x[key_for(dlt, key)] = 0


@pytest.mark.parametrize("key", [
    True, False, np.True_, (False,), (Ellipsis, True), (Ellipsis, np.array(False)),
    (0, True, 1, slice(None)), (np.array([1, 0]), np.array(True), 2, Ellipsis),
    (1, 2, 3, False), (True, 0, 0, 0), (None, 0, np.True_, Ellipsis)],
    ids=lambda k: repr(k).replace("\n", ""))
def test_0d_masks_and_bools_take_numpys_meaning(key):
    # The spec's 0-d boolean array, which NumPy, PyTorch and CuPy take as a Python bool too,
    # and beside other indices: a new axis of length 1 (True) or 0 (False) at its place,
    # an index array there beside the others (SciPy's ndimage writes input[True] and
    # input[..., footprint] of a 0-d footprint)
    _indexes_as_numpy(key)


def test_lists_are_index_arrays_as_in_numpy():
    x = dlt.asarray(A)
    for key in [([1, 0], Ellipsis), ([], Ellipsis), ([[]], Ellipsis), ([True, False], Ellipsis),
                ([1, 0], [0, 0], [3, -1]), (slice(None), [2, 2, 0], 1), ([[0], [1]], 0, [1, 2])]:
        got = x[key]
        assert np.array_equal(np.asarray(got), A[key]) and got.shape == A[key].shape, key
        b, y = A.copy(), dlt.asarray(A.copy())
        b[key] = -5
        y[key] = -5
        assert np.array_equal(np.asarray(y), b), key
    for key, words in [(([0.5], Ellipsis), "integer or bool"), ((["a"], Ellipsis), "no index"),
                       (([[0, 1], [1]], Ellipsis), "no index"), (([5], Ellipsis), "bounds"),
                       (([2**63], Ellipsis), "bounds"), (([0, -2**63 - 1], Ellipsis), "bounds")]:
        with pytest.raises(IndexError, match=words):
            x[key]
        with pytest.raises(IndexError, match=words):
            x[key] = 1


def test_integer_arrays_apart_from_each_other_or_their_integers_are_refused():
    # (NumPy then moves their axes first, which few expect: x[i, :, j])
    x = dlt.asarray(A)
    for key in [(np.array([0, 1]), slice(None), np.array([0])), (0, None, np.array([0, 1]), 0),
                (np.array([1]), slice(None), 0)]:
        with pytest.raises(IndexError, match="adjacent"):
            x[key_for(dlt, key)]


def test_numpy_index_arrays_index_as_ours_do():
    # (NumPy, PyTorch, CuPy and JAX take them, array-api-strict not: scikit-learn's
    # _safe_indexing and xarray's isel index with them)
    x = dlt.asarray(A)
    for key in [(np.array([0, 1]), 0, 0), (np.array([1]), np.array([[0], [2]]), np.array(3)),
                np.ones(A.shape, dtype=bool), (np.int64(1), slice(None), np.array(0))]:
        got, want = x[key], x[key_for(dlt, key)]
        assert got.shape == want.shape and np.array_equal(np.asarray(got), np.asarray(want))
    y = dlt.asarray(A.copy())
    y[np.array([0]), 0, 0] = 7
    assert int(y[0, 0, 0]) == 7
    for bad in [(np.array([0.5]), 0, 0), (np.array([0, 1]), slice(None), 0)]:
        with pytest.raises(IndexError):
            x[bad]


def test_index_arrays_must_share_the_device():
    x = dlt.asarray(A)
    idx = dlt.asarray(np.array([0, 1]))
    idx._device = dlt.Device(8, 0)  # pretend: Metal memory, another device
    with pytest.raises(ValueError, match="different devices"):
        x[idx, 0, 0]
    idx._device = dlt.Device(3, 0)  # pinned host memory is CPU memory to NumPy: it indexes
    assert x[idx, 0, 0].shape == (2,)


# --- take, take_along_axis --------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, -1, -3])
def test_take_matches_strict(axis):
    x, s = both(A)
    i = np.array([2, 0, -1, 0])[: A.shape[axis] + 1] % A.shape[axis]
    same(dlt.take(x, dlt.asarray(i), axis=axis), strict.take(s, strict.asarray(i), axis=axis))


def test_take_1d_axis_optional_and_negative_indices():
    x, s = both(np.arange(5.0))
    i = np.array([-1, 0, -5])
    same(dlt.take(x, dlt.asarray(i)), strict.take(s, strict.asarray(i)))


def test_take_from_a_view_indexes_it_rather_than_copying_it_whole():
    # NumPy's take copies a view that is not C-contiguous whole first: one element of a
    # broadcast of 2**40 ones wanted 8 TiB (a MemoryError). Views are indexed along the axis.
    b = dlt.broadcast_to(dlt.ones(1), (2**40,))
    assert np.from_dlpack(dlt.take(b, dlt.asarray([0, -1]))).tolist() == [1.0, 1.0]
    a = np.arange(60.0).reshape(3, 4, 5)
    for view in (a.transpose(2, 0, 1), a[::-1, ::2], a[:, 1:3, ::-2], np.asfortranarray(a)):
        x = dlt.asarray(view)
        for axis in range(-3, 3):
            i = np.array([0, -1, 1, 0]) % view.shape[axis]
            for checked in (False, True):  # (the fast path; the checked one, unsigned indices)
                got = dlt.take(x, dlt.asarray(i.astype(np.uint8 if checked else np.int64)),
                               axis=axis)
                assert np.from_dlpack(got).tolist() == np.take(view, i, axis=axis).tolist()
        with pytest.raises(IndexError, match="out of bounds"):
            dlt.take(x, dlt.asarray([view.shape[1]]), axis=1)
        with pytest.raises(np.exceptions.AxisError):
            dlt.take(x, dlt.asarray([0]), axis=3)


def test_take_refuses():
    x = dlt.asarray(A)
    with pytest.raises(ValueError, match="axis"):
        dlt.take(x, dlt.asarray([0]))
    with pytest.raises(TypeError, match="integer"):
        dlt.take(x, dlt.asarray([0.0]), axis=0)
    with pytest.raises(ValueError, match="1-D"):
        dlt.take(x, dlt.asarray([[0]]), axis=0)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_take_along_axis_matches_strict(axis):
    rng = np.random.default_rng(axis + 5)
    shape = list(A.shape)
    shape[axis] = 5
    i = rng.integers(-A.shape[axis], A.shape[axis], size=shape)
    x, s = both(A)
    same(dlt.take_along_axis(x, dlt.asarray(i), axis=axis),
         strict.take_along_axis(s, strict.asarray(i), axis=axis))


def test_take_along_axis_and_take_at_the_edges():
    # 64 dimensions with an empty index axis: reshape(-1, 0) is ambiguous (ValueError)
    x = dlt.zeros((2,) + (1,) * 62 + (3,))
    i = dlt.zeros((1,) * 63 + (0,), dtype=dlt.int64)
    assert dlt.take_along_axis(x, i, axis=-1).shape == (2,) + (1,) * 62 + (0,)
    # take's axis checked before shape[axis] (an empty array's bare IndexError)
    for axis in (1, -2):
        with pytest.raises(np.exceptions.AxisError):
            dlt.take(dlt.zeros((0,)), dlt.zeros((0,), dtype=dlt.int64), axis=axis)


def test_take_along_axis_default_axis_and_broadcasting():
    x, s = both(A)
    i = np.array([[[3, 0]]])  # broadcasts over the first two axes
    same(dlt.take_along_axis(x, dlt.asarray(i)), strict.take_along_axis(s, strict.asarray(i)))
    with pytest.raises(ValueError, match="dimensions"):
        dlt.take_along_axis(x, dlt.asarray([0]))
    for axis in (None, 1.0, True):  # (None: "'<=' not supported between 'int' and 'NoneType'")
        with pytest.raises(TypeError, match="take_along_axis's axis must be an int"):
            dlt.take_along_axis(x, dlt.asarray(i), axis=axis)


def test_take_along_axis_commonest_call_answers_as_the_checked_path():
    # Signed int indices and an int axis are NumPy's take_along_axis at once (a NumPy int axis
    # takes the checked path): the same arrays, and the same errors in the same words
    a = np.arange(24.0).reshape(2, 3, 4)
    a[0, 0, 0] = -0.0
    cases = [np.array([[[3, 0, -1]]]), np.zeros((2, 3, 1), np.int8), np.array([[[4]]]),
             np.array([[[-5]]]), np.ones((2, 2, 2), np.int64), np.ones((2, 3, 0), np.int32),
             np.array([[[1]]], np.uint8), np.array([[[2**64 - 1]]], np.uint64), np.arange(3),
             np.array(0), np.zeros((1,) * 64, np.int64)]
    for x in (dlt.asarray(a), dlt.asarray(a[..., ::-1]), dlt.asarray(a[0, 0])):
        for i in cases:
            for axis in range(-4, 4):
                alike(lambda: dlt.take_along_axis(x, dlt.asarray(i), axis=axis),
                      lambda: dlt.take_along_axis(x, dlt.asarray(i), axis=np.int64(axis)),
                      (x.shape, i, axis))


def test_take_commonest_call_answers_as_the_checked_path():
    # 1-D signed int indices into a non-empty CPU array with an int axis (or none, of a 1-D
    # array) are NumPy's take at once (a NumPy int axis takes the checked path): the same
    # arrays, and the same errors in the same words
    a = np.arange(24.0).reshape(2, 3, 4)
    a[0, 0, 0] = -0.0
    cases = [np.array([3, 0, -1]), np.array([1], np.int8), np.array([4]), np.array([-5]),
             np.zeros(0, np.int32), np.array([2**62]), np.array([1], np.uint8), np.array(0),
             np.array([[1]])]
    for x in (dlt.asarray(a), dlt.asarray(a[..., ::-1]), dlt.asarray(a[0, 0]),
              dlt.asarray(np.array(2.5)), dlt.asarray(a[:0])):
        for i in cases:
            for axis in range(-4, 4):
                alike(lambda: dlt.take(x, dlt.asarray(i), axis=axis),
                      lambda: dlt.take(x, dlt.asarray(i), axis=np.int64(axis)),
                      (x.shape, i, axis))
            if x.ndim == 1:
                alike(lambda: dlt.take(x, dlt.asarray(i)),
                      lambda: dlt.take(x, dlt.asarray(i), axis=np.int64(0)), (x.shape, i))
    for axis in (2**63, -2**63 - 1, 2**70):  # (past a C long, which NumPy's take overflows)
        with pytest.raises(IndexError, match="out of bounds"):
            dlt.take(dlt.asarray(a), dlt.asarray([0]), axis=axis)


# --- writing --------------------------------------------------------------------------------

def test_a_value_overlapping_its_target_is_written_as_it_was():
    # NumPy writes a slice or a 1-D mask from a view overlapping it element by element,
    # reading elements it has already written (x[::2] = x[1:5] gave x[6] the new x[4], not 4;
    # numpy/numpy#6272), and CuPy writes in parallel: the value is copied first where the
    # two may share memory
    n = 9
    slices = [slice(a, b, c) for a in (None, 0, 1, 2, -1) for b in (None, 5, 7, -2)
              for c in (1, 2, 3, -1, -2)]
    rng = np.random.default_rng(3)
    masks = [rng.random(n) < 0.5 for _ in range(20)]
    wrong = 0
    for target in slices + masks:
        for source in slices:
            want = np.arange(n)
            if want[target].shape != want[source].shape:
                continue
            for dtype in (dlt.int64, dlt.float32, dlt.complex128):
                w = want.astype(dtype.name)
                x = dlt.asarray(w.copy())
                w[target] = w[source].copy()
                key = dlt.asarray(target) if isinstance(target, np.ndarray) else target
                x[key] = x[source]
                assert np.array_equal(np.asarray(x), w), (target, source, dtype)
                with np.errstate(all="ignore"):
                    a = np.arange(n).astype(dtype.name)
                    a[target] = a[source]  # (NumPy's own write: wrong for some of them)
                wrong += not np.array_equal(a, w)
    assert wrong, "the grid holds pairs NumPy writes wrongly, which it must (else it tests nothing)"
    # of another dtype over the same bytes: int8 elements written into int16 ones
    buf = np.arange(-8, 8, dtype=np.int8)
    x, v = dlt.asarray(buf.view(np.int16)), dlt.asarray(buf)[3:11]
    want = buf.view(np.int16).copy()
    want[...] = buf[3:11].copy()
    x[...] = v
    assert np.asarray(x).tolist() == want.tolist()


def test_a_key_overlapping_its_target_is_read_before_the_write():
    # NumPy reads a mask element by element as it writes (b[b[::-1]] = False left b[3] True:
    # b[0], the mask's last element, was written first; it copies index arrays itself), and
    # CuPy's scatter reads a lone index array or mask while it writes, in parallel: a key's
    # arrays that may share memory with the target are copied first
    rng = np.random.default_rng(5)
    wrong = 0
    for _ in range(40):
        bits = rng.random(9) < 0.5
        for mask_of in (lambda b: b[::-1], lambda b: b, lambda b: dlt.roll(b, 1)):
            for value in (False, dlt.asarray(False), dlt.zeros(int(np.count_nonzero(
                    np.asarray(mask_of(dlt.asarray(bits))))), dtype=dlt.bool)):
                b = dlt.asarray(bits.copy())
                want = bits.copy()
                want[np.asarray(mask_of(dlt.asarray(bits)))] = False
                b[mask_of(b)] = value
                assert np.asarray(b).tolist() == want.tolist(), (bits, value)
        n = bits.copy()
        n[n[::-1]] = False  # (NumPy's own write: wrong for some of them)
        want = bits.copy()
        want[bits[::-1].copy()] = False
        wrong += not np.array_equal(n, want)
    assert wrong, "NumPy must write some of these wrongly, else this tests nothing"
    x = dlt.asarray([1, 0, 0])
    x[x] = 5  # (the indices 1, 0, 0 read first: x[1] and x[0] written)
    assert np.asarray(x).tolist() == [5, 5, 0]
    m = dlt.asarray([[True, False], [False, True]])
    m[m[::-1, ::-1], ...] = False
    assert not np.asarray(m).any()


def test_a_write_through_its_own_indices_leaves_the_interpreter_whole():
    # NumPy 2.2.5 copies index arrays that share memory with the target (numpy/numpy#26958)
    # and crashed the interpreter at a later garbage collection; dltensor copies them itself
    # before NumPy 2.4 (run apart: a crash fails this test, not the run)
    import subprocess
    import sys
    code = ("import gc, dltensor as dt\n"
            "for i in range(2000):\n"
            "    x = dt.asarray([1, 0, 0]); x[x] = 5\n"
            "    z = dt.asarray([2, 0, 1]); z[(z[::-1],)] = dt.asarray(5)\n"
            "    y = dt.asarray([[1, 0], [0, 1]]); y[y[0, :], y[1, :]] = 7\n"
            "    if i % 100 == 0:\n"
            "        gc.collect()\n"
            "print(x.tolist(), y.tolist())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[5,", "5,", "0]", "[[1,", "7],", "[7,", "1]]"], done.stdout



SET_CASES = [
    ("int into float32", np.float32, (0, 1), 3),
    ("float into float32", np.float32, (slice(None), 0), 2.5),
    ("int8 array into int16", np.int16, (slice(None), 1), np.array([-1, 2], np.int8)),
    ("uint8 array into int16", np.int16, (Ellipsis, 0), np.array(200, np.uint8)),
    ("float32 array into float64", np.float64, (1, slice(None)),
     np.array([0.5, 1.5, 2.5], np.float32)),
    ("float64 into complex128", np.complex128, (0, 0), 1.5),
    ("complex into complex64", np.complex64, (Ellipsis,), 1 + 2j),
    ("bool into bool", np.bool_, (0, slice(0, 2)), True),
    ("bool array mask", np.int64, np.arange(6).reshape(2, 3) % 2 == 0, 7),
    ("mask with array value", np.int64, np.arange(6).reshape(2, 3) > 2,
     np.array(9, np.int32)),
    ("broadcast row", np.int32, (slice(None), slice(None)), np.array([1, 2, 3], np.int32)),
    ("largest int8", np.int8, (1, 2), 127),
]


@pytest.mark.parametrize("dtype, key, value", [c[1:] for c in SET_CASES],
                         ids=[c[0] for c in SET_CASES])
def test_setitem_matches_strict(dtype, key, value):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    x, s = both(a)
    x[key_for(dlt, key)] = dlt.asarray(value) if isinstance(value, np.ndarray) else value
    s[key_for(strict, key)] = strict.asarray(value) if isinstance(value, np.ndarray) else value
    same(x, s)


REFUSED = [
    ("float into int", np.int32, 1.5, TypeError),
    ("bool into int", np.int32, True, TypeError),
    ("int into bool", np.bool_, 1, TypeError),
    ("complex into float", np.float64, 1j, TypeError),
    ("int64 array into int32", np.int32, np.array(1, np.int64), TypeError),
    ("float array into int", np.int64, np.array(1.0), TypeError),
    ("uint64 array into int64", np.int64, np.array(1, np.uint64), TypeError),
    ("float64 array into float32", np.float32, np.array(1.0), TypeError),
    ("int out of range", np.int8, 128, OverflowError),
    ("negative into uint", np.uint8, -1, OverflowError),
    ("a list", np.int64, [1, 2, 3], TypeError),
]


@pytest.mark.parametrize("dtype, value, error", [c[1:] for c in REFUSED],
                         ids=[c[0] for c in REFUSED])
def test_setitem_refuses_promotions_the_spec_lacks(dtype, value, error):
    a = np.zeros(3, dtype)
    x = dlt.asarray(a)
    with pytest.raises(error):
        x[0:1] = dlt.asarray(value) if isinstance(value, np.ndarray) else value
    assert not a.any(), "nothing was written"


@pytest.mark.parametrize("shape, key, value_shape", [
    ((3,), 0, (1,)),            # (the 1-D fast path, where NumPy refused it in its words)
    ((3,), (0,), (1, 1)),       # NumPy drops the value's leading 1s to fit: the spec does not
    ((2, 3), (0, 1), (1, 1, 1)),
    ((2, 3), (0, slice(None)), (1, 3)),
    ((2, 3), (dlt.asarray([0, 1]), 0), (1, 2)),
])
def test_setitem_refuses_a_value_that_does_not_broadcast_to_the_target(shape, key, value_shape):
    # "value: must be compatible with self[key] (see broadcasting)": (1, 1) does not broadcast
    # to (), whatever the key's spelling; array-api-strict refuses these too
    x = dlt.zeros(shape)
    with pytest.raises(ValueError, match="broadcast"):
        x[key] = dlt.ones(value_shape)
    assert not np.asarray(x).any(), "nothing was written"
    x[key] = dlt.ones(x[key].shape)  # (ones of the target's shape: written)
    assert np.asarray(x).any()


WRITE_KEYS = [k for k in KEYS if not (isinstance(k, tuple) and any(p is None for p in k))]


@pytest.mark.parametrize("key", WRITE_KEYS, ids=repr)
def test_the_written_ndim_is_told_from_the_key_as_indexing_gives_it(key):
    # (setitem checks a value against the target's ndim without gathering the target)
    from dltensor._keys import backend_key as _backend_key, written_ndim as _written_ndim
    x = dlt.asarray(A if not isinstance(key, (int, slice)) else np.arange(5.0))
    k = _backend_key(x, key_for(dlt, key), True)
    assert _written_ndim(x.shape, k) == np.asarray(x)[k].ndim


@settings(max_examples=100, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple))
def test_the_written_ndim_of_basic_keys(data, shape):
    from dltensor._keys import backend_key as _backend_key, written_ndim as _written_ndim
    key = data.draw(xps.indices(shape, allow_ellipsis=True), label="key")
    x = dlt.zeros(shape)
    k = _backend_key(x, key, True)
    assert _written_ndim(x.shape, k) == np.asarray(x)[k].ndim
    if x[key].ndim:  # and a value with one more leading 1 is refused
        with pytest.raises(ValueError, match="broadcast"):
            x[key] = dlt.ones((1,) + x[key].shape)


def test_setitem_refuses_none_and_out_of_spec_keys():
    x = dlt.asarray(np.zeros((2, 3)))
    for key in [(None, 0, 0), 0, 1.0, [0], (0, 0, 0)]:
        with pytest.raises(IndexError):
            x[key] = 1


def test_setitem_with_integer_arrays_scatters():
    # Implementation-defined in the spec; dltensor writes like NumPy does.
    a = np.zeros((3, 3))
    x = dlt.asarray(a)
    x[dlt.asarray([0, 2]), dlt.asarray([1, 1])] = dlt.asarray([5.0, 6.0])
    b = np.zeros((3, 3))
    b[[0, 2], [1, 1]] = [5.0, 6.0]
    np.testing.assert_array_equal(a, b)


def _read_only_import(a):
    p = P.from_numpy(a, flags=P.READ_ONLY)
    return dlt.from_dlpack(p), p


def test_setitem_refuses_read_only_memory():
    a = np.arange(6.0)
    x, p = _read_only_import(a)
    assert x.read_only
    for target, key in [(x, 0), (x, slice(None)), (x[1:], 0), (x[::2], (Ellipsis,))]:
        with pytest.raises(ValueError, match="read-only"):
            target[key] = 1.0
    np.testing.assert_array_equal(a, np.arange(6.0))
    ro = np.arange(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        dlt.asarray(ro)[0] = 1


def test_views_of_read_only_memory_are_read_only():
    x, p = _read_only_import(np.arange(6.0).reshape(2, 3))
    assert x[0, :].read_only and x[:, 1:].read_only and x[..., None].read_only


# --- views ------------------------------------------------------------------------------------

def test_basic_indexing_returns_views_of_the_same_memory():
    a = np.arange(24, dtype=np.float64).reshape(4, 6)
    x = dlt.asarray(a)
    item = a.itemsize
    assert x.data_ptr == a.__array_interface__["data"][0]
    assert x[2:, ...].data_ptr == x.data_ptr + 2 * 6 * item
    assert x[1, 3].data_ptr == x.data_ptr + (6 + 3) * item
    assert x[..., 5].data_ptr == x.data_ptr + 5 * item
    assert x[::-1, ::2].data_ptr == x.data_ptr + 3 * 6 * item
    assert x[::2, 1:].strides == (12, 1)
    v = x[1:3, 2]
    v[0] = -1.0
    assert a[1, 2] == -1.0, "a write through a view lands in the parent"
    x[3, ...] = 0.0
    assert (a[3] == 0).all()


def test_advanced_indexing_copies():
    a = np.arange(6.0)
    x = dlt.asarray(a)
    y = x[dlt.asarray([0, 1])]
    y[0] = 100.0
    z = x[dlt.asarray(a > 2)]
    z[0] = 100.0
    assert a[0] == 0.0 and a[3] == 3.0


def test_views_of_an_import_keep_its_managed_tensor_alive():
    a = np.arange(12.0).reshape(3, 4)
    p = P.from_numpy(a)
    x = dlt.from_dlpack(p)
    v = x[1:, ::2]
    w = v[0, ...]
    del x
    assert p.deleter_calls == 0, "views hold the imported memory"
    assert float(w[1]) == 6.0
    del v
    assert p.deleter_calls == 0
    del w
    assert p.deleter_calls == 1


def test_uint64_indices_past_intp_are_out_of_bounds_not_wrapped():
    # NumPy casts uint64 index arrays to intp: 2**64 - 1 became -1, the last element, read
    # and written silently. In take and take_along_axis too.
    x = dlt.asarray(np.arange(5))
    big = dlt.asarray(np.array([2**64 - 1], np.uint64))
    for call in (lambda: x[big], lambda: x[dlt.asarray(np.uint64(2**63))],
                 lambda: dlt.take(x, big), lambda: dlt.take_along_axis(x, big, axis=0)):
        with pytest.raises(IndexError, match="out of bounds"):
            call()
    with pytest.raises(IndexError, match="out of bounds"):
        x[big] = 99
    assert np.from_dlpack(x).tolist() == [0, 1, 2, 3, 4]
    assert np.from_dlpack(x[dlt.asarray(np.array([1, 4], np.uint64))]).tolist() == [1, 4]


@pytest.mark.parametrize("i", [5, -6, 2**63, 2**70, -2**63 - 1, np.uint64(2**63)])
def test_huge_integer_indices_are_index_errors(i):
    # 2**63 raised OverflowError from NumPy's C long conversion.
    x = dlt.asarray(np.arange(5))
    y = dlt.reshape(dlt.arange(10), (2, 5))
    for call in (lambda: x[i], lambda: y[0, i], lambda: x.__setitem__(i, 1),
                 lambda: y.__setitem__((0, i), 1)):
        with pytest.raises(IndexError, match="out of bounds"):
            call()


@pytest.mark.parametrize("value", [True, 1j, 2**1100, "s"], ids=repr)
def test_an_int_past_int64_is_refused_before_the_value_by_every_key(value):
    # (x[2**70] = True into a 1-D array said the value's TypeError, x[2**70, ...] = True and
    # held memory the key's IndexError)
    x, y = dlt.zeros(3, dtype=dlt.float32), dlt.zeros((2, 3), dtype=dlt.float32)
    for i in (2**70, -2**63 - 1, 2**63):
        for call in (lambda: x.__setitem__(i, value), lambda: x.__setitem__((i, ...), value),
                     lambda: y.__setitem__((0, i), value)):
            with pytest.raises(IndexError, match="out of bounds"):
                call()


def test_slice_bounds_behave_alike_on_every_path():
    # The 1-D fast path took x[True:] (as Python's lists do) where n-D keys and writes refused
    # it: now bools are ints in slice bounds everywhere, and floats are refused everywhere
    # (a TypeError, as in Python's slices).
    x = dlt.arange(5)
    assert x[True:].shape == dlt.reshape(x, (1, 5))[:, True:].shape[1:] == (4,)
    x[:True] = 9
    assert int(x[0]) == 9 and int(x[1]) == 1
    for call in (lambda: x[1.0:], lambda: x.__setitem__(slice(None, 2.0), 0),
                 lambda: dlt.reshape(x, (1, 5))[0.5:, :]):
        with pytest.raises(TypeError, match="slice bounds"):
            call()
    assert x[np.int64(1):].shape == (4,)


def test_a_tuple_subclass_is_a_multi_axis_key():
    from collections import namedtuple
    At = namedtuple("At", "i j")
    y = dlt.reshape(dlt.arange(6), (2, 3))
    assert int(y[At(1, 2)]) == 5
    y[At(0, 0)] = 9
    assert int(y[0, 0]) == 9


def test_a_value_too_big_for_the_dtype_is_an_overflow_not_a_bad_index():
    # (setitem read NumPy's OverflowError for the value as one for the index)
    x = dlt.asarray(np.ones(2, np.float32))
    with pytest.raises(OverflowError):
        x[0] = 2**1100
    with pytest.raises(IndexError, match="out of bounds"):
        x[5] = 1.0


def test_more_than_32_dimensions_where_numpy_helpers_stop():
    # np.broadcast_shapes takes at most 32 dimensions, NumPy's take_along_axis at most 63 index
    # arrays: setitem with a 33-d index array and take_along_axis of a 64-d array raised.
    x = dlt.zeros((3,))
    x[dlt.ones((1,) * 33, dtype=dlt.int64)] = 1.0
    assert np.asarray(x).tolist() == [0.0, 1.0, 0.0]
    y = dlt.reshape(dlt.arange(4.0), (1,) * 62 + (2, 2))
    i = dlt.asarray(np.array([[1, 0], [0, 0]]).reshape((1,) * 62 + (2, 2)))
    a, ia = np.arange(4.0).reshape(2, 2), np.array([[1, 0], [0, 0]])
    for axis, np_axis in ((63, 1), (-1, 1), (62, 0)):
        r = dlt.take_along_axis(y, i, axis=axis)
        assert r.shape == y.shape
        assert np.asarray(r).ravel().tolist() == np.take_along_axis(a, ia, np_axis).ravel().tolist()
    assert dlt.__array_namespace_info__().capabilities()["max dimensions"] == 64


@pytest.mark.parametrize("long_axis", [0, 30, 63])
def test_a_64d_array_indexed_by_64_integer_arrays(long_axis):
    # One index array per axis, as the spec asks of integer-array indexing: NumPy takes at
    # most 63 ("the number of index arrays cannot be above 63"). A 64-D array with elements
    # has axes of length 1 (else 2**64 elements): here all but ``long_axis``, of length 2.
    shape = [1] * 64
    shape[long_axis] = 2
    x = dlt.reshape(dlt.arange(2.0), tuple(shape))
    key = [np.zeros((3, 1), np.int64)] * 64
    key[long_axis] = np.array([[1], [0], [-1]])
    key[(long_axis + 1) % 64] = np.array([[0, -1]])  # (broadcasts the result to (3, 2))

    def k():
        return tuple(dlt.asarray(i) for i in key)
    assert np.asarray(x[k()]).tolist() == [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]
    x[k()] = dlt.asarray([[5.0, 5.0], [7.0, 7.0], [5.0, 5.0]])
    assert np.asarray(x).ravel().tolist() == [7.0, 5.0]
    key[(long_axis + 2) % 64] = np.array([[1]])  # (out of bounds on an axis of length 1)
    with pytest.raises(IndexError):
        x[k()]
    with pytest.raises(IndexError):
        x[k()] = 0.0


@pytest.mark.parametrize("first, ok", [(0, True), (-1, True), (1, False), (-2, False)])
def test_a_64d_key_checks_the_indices_of_the_axis_numpy_cannot_take(first, ok):
    # NumPy takes 63 index arrays: the 64th, of the first axis of length 1, becomes the int 0
    # once every index of it is checked to be 0 or -1 (1 or -2 would read element 0).
    x = dlt.reshape(dlt.arange(2.0), (2,) + (1,) * 63)
    key = [np.array([1, 0])] + [np.zeros(2, np.int64)] * 63
    key[1] = np.array([0, first])  # (axis 1: the first of length 1)

    def k():
        return tuple(dlt.asarray(i) for i in key)
    if ok:
        assert np.asarray(x[k()]).tolist() == [1.0, 0.0]
        return
    for call in (lambda: x[k()], lambda: x.__setitem__(k(), 5.0)):
        with pytest.raises(IndexError, match="out of bounds"):
            call()


def test_too_few_indices_say_how_many_were_given():
    y = dlt.asarray(A)
    with pytest.raises(IndexError, match="^1 index given for a 3-D array"):
        y[0]
    with pytest.raises(IndexError, match="^2 indices given for a 3-D array"):
        y[0, 1]


@pytest.mark.parametrize("i", [2, -3, 5])
def test_an_int_out_of_bounds_is_told_before_a_value_that_does_not_fit(i):
    # NumPy's order (a value of more axes than the selection is checked here, before NumPy)
    x, a = dlt.zeros((2, 3, 4)), np.zeros((2, 3, 4))
    with pytest.raises(IndexError, match=f"index {i} is out of bounds"):
        a[i, ...] = np.ones((2, 3, 4))
    for key in ((i, ...), (i, slice(None), slice(None)), (i, slice(None), 0)):
        with pytest.raises(IndexError, match=f"index {i} is out of bounds"):
            x[key] = dlt.ones((2, 3, 4))
    with pytest.raises(ValueError, match="does not broadcast"):
        x[1, ...] = dlt.ones((2, 3, 4))


@pytest.mark.parametrize("mask", [[True, False, True], [[True, False]]], ids=repr)
def test_a_lone_mask_of_another_shape_is_told_before_a_value_that_does_not_fit(mask):
    # NumPy's order: it was the value's ValueError, here and on a GPU (held memory: the mask's)
    x, a = dlt.zeros((2, 3)), np.zeros((2, 3))
    with pytest.raises(IndexError, match="boolean index did not match"):
        a[np.array(mask)] = np.ones((2, 2, 3))
    with pytest.raises(IndexError, match="boolean index of shape"):
        x[dlt.asarray(mask)] = dlt.ones((2, 2, 3))
    with pytest.raises(ValueError, match="does not broadcast"):  # (of the right shape)
        x[dlt.asarray([True, False])] = dlt.ones((2, 2, 3))


@pytest.mark.parametrize("value_shape", [(2,), (2, 2), (3, 4)])
@pytest.mark.parametrize("key", [(5, [0], 0), (5, [], slice(None)), ([True, False], 5, 0),
                                 (0, [1], -9)], ids=repr)
def test_an_int_out_of_bounds_beside_index_arrays_is_told_before_the_value(key, value_shape):
    # NumPy checks the ints before the value, the index arrays' bounds after it (they
    # said ValueError for the value, here and on a GPU)
    def arrays(xp):
        return tuple(xp.asarray(k, dtype=xp.bool if k and type(k[0]) is bool else xp.int64)
                     if type(k) is list else k for k in key)
    a = np.zeros((2, 3, 4))
    with pytest.raises(IndexError, match="out of bounds"):
        a[arrays(np)] = np.ones(value_shape)
    x = dlt.zeros((2, 3, 4))
    with pytest.raises(IndexError, match="out of bounds"):
        x[arrays(dlt)] = dlt.ones(value_shape)
    with pytest.raises(ValueError, match="does not broadcast"):  # (an index array's: after)
        x[0, dlt.asarray([5]), 0] = dlt.ones(value_shape)


def test_slice_bounds_past_int64_clip_beside_open_ones():
    # (clipped to int64 for CuPy, which converts them to C integers; None stays None)
    a = np.arange(5)
    x, y = dlt.asarray(a), dlt.asarray(a[None])
    for s in (slice(None, 2**100), slice(-2**100, None), slice(None, None, 2**70),
              slice(2**64, None, -1), slice(None, -2**80, -1), slice(-2**70, 2**70, -2**70)):
        assert np.asarray(x[s]).tolist() == a[s].tolist(), s
        assert np.asarray(y[:, s]).tolist() == a[None][:, s].tolist(), s
        assert np.asarray(y[..., s]).tolist() == a[None][..., s].tolist(), s  # (checked keys)


@pytest.mark.parametrize("key", [
    (np.array(True), Ellipsis), (Ellipsis, np.array(False)), (np.array(True), 0, 1, slice(None)),
    (np.ones((2, 3), bool), np.array(True), slice(None)), (A[:, :, 0] % 2 == 0, True, 3),
    (np.array([[1], [0]]), True, np.array([2, 0]), Ellipsis)],
    ids=lambda k: repr(k).replace("\n", ""))
def test_numpy_0d_masks_beside_masks_and_index_arrays_index_as_in_numpy(key):
    # NumPy's own arrays in the key, not converted first (a NumPy 0-d mask beside other
    # indices once recursed without end); a 0-d mask beside a 2-D mask or index array
    got = dlt.asarray(A)[key]
    assert np.array_equal(np.asarray(got), A[key]) and got.shape == A[key].shape


@pytest.mark.parametrize("key", [
    (True, [[True, False, True], [False, True, True]], 0),
    (Ellipsis, True, [[True, False, True, False]] * 3),
    (np.bool_(True), [1, 0], 2, Ellipsis)],
    ids=repr)
def test_0d_masks_beside_a_list_read_and_write_as_in_numpy(key):
    # A list beside a 0-d mask is an index array as asarray makes it: a 2-D mask spans two
    # axes (it counted as one, and raised IndexError "2 indices given for a 3-D array")
    x, a = dlt.asarray(A), A.copy()
    got = x[key]
    assert np.array_equal(np.asarray(got), a[key]) and got.shape == a[key].shape
    x[key], a[key] = -1, -1
    assert np.array_equal(np.asarray(x), a)


def test_take_from_no_elements_checks_no_index_as_numpy():
    # (NumPy selects nothing, so checks nothing, where x has no elements but the axis has)
    for shape in ((0, 1), (0, 3)):
        assert dlt.take(dlt.zeros(shape), dlt.asarray([5]), axis=1).shape == (0, 1)
    with pytest.raises(IndexError):  # (an empty axis of a non-empty take: NumPy's words)
        dlt.take(dlt.zeros((2, 0)), dlt.asarray([0]), axis=1)


def test_writes_at_the_ends_of_an_axis_and_of_a_dtype():
    x = dlt.zeros(2, dtype=dlt.float32)
    with pytest.raises(OverflowError):  # (the value's, at index -n: in bounds)
        x[-2] = 2**1100
    with pytest.raises(IndexError, match="index 2 is out of bounds for an axis of size 2"):
        x[2] = 1.0
    i8 = dlt.zeros(2, dtype=dlt.int8)
    i8[0], i8[-1] = -128, 127  # (each end of int8 fits)
    assert np.asarray(i8).tolist() == [-128, 127]
    with pytest.raises(OverflowError):
        i8[0] = -129
    bf = dlt.zeros(2, dtype=dlt.bfloat16)  # (an int into an ml_dtypes float, as a float)
    bf[1] = 3
    assert float(bf[1]) == 3.0


def test_index_array_writes_broadcast_a_value_of_as_many_axes():
    x = dlt.zeros((3, 4))
    x[dlt.asarray([0, 2]), :] = dlt.asarray([[1.0, 2.0, 3.0, 4.0]])  # (1, 4) into (2, 4)
    x[dlt.asarray([1]), :] = dlt.asarray([[7.0]])  # (1, 1) into (1, 4)
    assert np.asarray(x).tolist() == [[1, 2, 3, 4], [7, 7, 7, 7], [1, 2, 3, 4]]
    with pytest.raises(ValueError):
        x[dlt.asarray([0, 2]), :] = dlt.ones((3, 4))


def _random_key(rng, shape):
    """A key of ints, slices, None, at most one ..., integer arrays, lists, 1-D masks and 0-d
    ones (bools too)."""
    key, axis = [], 0
    for _ in range(rng.randint(1, len(shape) + 2)):
        side = shape[axis] if axis < len(shape) else 2
        kind = rng.choice(["int", "slice", "None", "...", "array", "list", "mask", "0-d"])
        if kind == "...":
            if any(k is Ellipsis for k in key):
                continue
            key.append(Ellipsis)
            continue
        if kind == "None":
            key.append(None)
            continue
        if kind == "0-d":
            key.append(rng.choice([True, False, np.array(True), np.array(False)]))
            continue
        axis += 1
        if kind == "int":
            key.append(rng.randint(-side - 1, side))  # (one out of bounds now and then)
        elif kind == "slice":
            key.append(slice(rng.choice([None, 0, 1, -1]), rng.choice([None, 2, -1]),
                             rng.choice([None, 1, -1, 2])))
        elif kind in ("array", "list"):
            hi = side - (rng.random() < 0.95)  # (now and then out of bounds)
            i = [rng.randint(-side, hi) if hi >= -side else 0 for _ in range(rng.randint(0, 3))]
            key.append(i if kind == "list" else np.array(i, dtype=np.int64))
        else:  # (now and then of another length than the axis)
            key.append(np.array([rng.random() < 0.5 for _ in range(side + (rng.random() < 0.1))]))
    return tuple(key)


def _adjacent(key):
    """Whether a key's ints and index arrays (NumPy's advanced indices) are adjacent."""
    places = [i for i, k in enumerate(key) if isinstance(k, (int, list, np.ndarray))]  # (bools)
    return not places or places[-1] - places[0] == len(places) - 1


def test_random_keys_read_and_write_as_numpy_does_or_raise_index_error():
    # 2,000 random keys mixing every kind of index on arrays of 1 to 3 axes: where NumPy raises,
    # dltensor raises IndexError; where dltensor takes a key its result is NumPy's, read and
    # written; it refuses only the keys it documents (axes left without an ellipsis, index
    # arrays apart, which NumPy moves first).
    rng = __import__("random").Random(7)
    for _ in range(2000):
        shape = tuple(rng.randint(0, 3) for _ in range(rng.randint(1, 3)))
        a = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
        key = _random_key(rng, shape)
        dkey = key_for(dlt, key) if rng.random() < 0.5 else key  # (NumPy's arrays index too)
        try:
            with warnings.catch_warnings():  # (NumPy 2.2 warned of an index out of bounds
                warnings.simplefilter("error", DeprecationWarning)  # beside an empty slice,
                want = a[key]  # and gave the empty result; 2.3 and dltensor raise)
        except (IndexError, DeprecationWarning):
            with pytest.raises(IndexError):
                dlt.asarray(a)[dkey]
            continue
        axes = sum(isinstance(k, (slice, list)) or type(k) is int or
                   isinstance(k, np.ndarray) and k.ndim > 0 for k in key)  # (no 0-d mask)
        arrays = any(isinstance(k, (list, np.ndarray, bool)) for k in key)
        whole = any(k is Ellipsis for k in key) or axes == len(shape) or \
            len(key) == 1 and np.asarray(key[0]).dtype == bool  # (a sole mask: its axes)
        if not whole or (arrays and not _adjacent(key)):
            with pytest.raises(IndexError):
                dlt.asarray(a)[dkey]
            continue
        got = dlt.asarray(a)[dkey]
        assert got.shape == want.shape and np.array_equal(np.asarray(got), want), key
        if not any(k is None for k in key):
            b, y = a.copy(), dlt.asarray(a.copy())
            v = np.arange(want.size, dtype=np.int16).reshape(want.shape) + 1000
            b[key] = v
            y[dkey] = dlt.asarray(v)
            assert np.array_equal(np.asarray(y), b), key


@pytest.mark.parametrize("key", [dlt.asarray([0, 2]), dlt.asarray([True, False, True]),
                                 dlt.asarray([0, 2], dtype=dlt.uint8)],
                         ids=["int64", "mask", "uint8"])
def test_a_scalar_written_through_an_index_array_keeps_the_value_rules(key):
    # (the fast path of one index array into a 1-D array: the same rules as every other key)
    for dtype, bad, error in ((dlt.int64, 1.5, TypeError), (dlt.float64, 1j, TypeError),
                              (dlt.int8, 300, OverflowError), (dlt.bool, 2, TypeError),
                              (dlt.float32, "a", TypeError), (dlt.int64, None, TypeError)):
        x = dlt.zeros(3, dtype=dtype)
        with pytest.raises(error):
            x[key] = bad
        assert not np.asarray(x).any(), "nothing written"
    x = dlt.zeros(3, dtype=dlt.float32)
    x[key] = 2  # an int into a float array, as the spec's promotion allows
    assert np.asarray(x).tolist() == [2.0, 0.0, 2.0] and x.dtype == dlt.float32
    with pytest.raises(IndexError):
        x[dlt.asarray([3])] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        dlt.broadcast_to(dlt.asarray([1.0]), (3,))[key] = 0.0
    with pytest.raises(IndexError, match="past the largest intp"):  # (uint64: NumPy wraps it)
        x[dlt.asarray([2**64 - 1], dtype=dlt.uint64)] = 1.0
    mask = dlt.asarray([[True, False, True]])  # (in the key's words, before the value's)
    for value in (5.0, "a"):
        with pytest.raises(IndexError, match="a 2-D mask cannot index a 1-D array"):
            x[mask] = value
    with pytest.raises(IndexError, match="a 2-D mask cannot index a 1-D array"):
        x[mask]


def test_a_numpy_scalar_no_python_scalar_holds_is_refused_as_operators_refuse_it():
    # (x[0] = np.longdouble(1.5) recursed until RecursionError: its item() is itself; + and
    # == refuse it with a TypeError)
    x, X = dlt.zeros(3), dlt.zeros((2, 3))
    for v in (np.longdouble(1.5), np.clongdouble(1.5)):
        for target, key in ((x, 0), (x, slice(0, 2)), (x, dlt.asarray([0, 2])), (X, (0, 1)),
                            (X, (dlt.asarray([True, False]), slice(None))), (x, ...)):
            with pytest.raises(TypeError, match="can write a Python scalar or a dltensor"):
                target[key] = v
        with pytest.raises(TypeError):
            x + v
    assert not np.asarray(x).any() and not np.asarray(X).any(), "nothing written"


@pytest.mark.parametrize("key", [dlt.asarray([0, 2]), dlt.asarray([True, False, True]),
                                 dlt.asarray([0, 2], dtype=dlt.uint8),
                                 dlt.asarray([[0, 2]], dtype=dlt.int8)],
                         ids=["int64", "mask", "uint8", "2-D int8"])
def test_an_array_written_through_an_index_array_keeps_the_value_rules(key):
    # (the fast path of one index array into a 1-D array, for an array value: NumPy's own
    # write where its checks are the spec's, the same rules and words as every other key)
    x = dlt.zeros(3, dtype=dlt.float64)
    x[key] = dlt.asarray([1.5, 2.5], dtype=dlt.float32)  # (float32 promotes to float64)
    assert np.asarray(x).tolist() == [1.5, 0.0, 2.5]
    x[key] = dlt.asarray(4.0)  # (0-d: broadcast)
    assert np.asarray(x).tolist() == [4.0, 0.0, 4.0]
    for dtype, value in ((dlt.int32, dlt.asarray([1, 2])), (dlt.float32, dlt.ones(2)),
                         (dlt.int64, dlt.ones(2)), (dlt.float64, dlt.ones(2, dtype=dlt.complex64)),
                         (dlt.uint8, dlt.ones(2, dtype=dlt.int8))):
        x = dlt.zeros(3, dtype=dtype)
        with pytest.raises(TypeError, match="does not promote"):  # (NumPy casts them)
            x[key] = value
        assert not np.asarray(x).any(), "nothing written"
    x = dlt.zeros(3)
    n = x[key].ndim  # (NumPy drops the leading 1s to fit; for a mask its error a TypeError)
    for shape in ((1,) + x[key].shape, (1,) * (n + 1), (1,) * (n + 2)):
        with pytest.raises(ValueError, match="broadcast"):
            x[key] = dlt.ones(shape)
        assert not np.asarray(x).any(), "nothing written"
    for x, value, error in ((x, dlt.ones(3), ValueError), (dlt.zeros(1), dlt.ones(2), IndexError)):
        # (another length, an index out of bounds: the words of the checked path, which a
        # key of one index array in a tuple takes)
        with pytest.raises(error) as checked:
            x[(key,)] = value
        with pytest.raises(error) as fast:
            x[key] = value
        assert str(fast.value) == str(checked.value)
        assert not np.asarray(x).any(), "nothing written"
    with pytest.raises(ValueError, match="read-only"):
        dlt.broadcast_to(dlt.asarray([1.0]), (3,))[key] = dlt.ones(2)
    # A value sharing x's memory is written as it was (NumPy reads a mask's overlapping value
    # as it writes it)
    x = dlt.asarray(np.arange(9.0))
    mask = dlt.asarray(np.array([0, 1, 0, 1, 1, 0, 0, 1, 0], dtype=bool))
    x[mask] = x[1:5]
    assert np.asarray(x).tolist() == [0, 1, 2, 2, 3, 5, 6, 4, 8]
    x = dlt.asarray(np.arange(3.0))
    x[key] = x[1:3]
    assert np.asarray(x).tolist() == [1.0, 1.0, 2.0]


def test_keys_of_ints_slices_and_an_ellipsis_keep_the_checked_rules():
    # (the fast paths of a key with no array, read and written by NumPy's own indexing: the
    # spec's count of indices, the key's errors before the value's, in the checked words)
    x = dlt.asarray(np.arange(6.0).reshape(2, 3))
    for key, error, words in (((2**63, 0), IndexError, "past the int64"),
                              ((0, slice(None, None, 0)), ValueError, "step cannot be zero"),
                              ((0, slice(1.5, None)), TypeError, "slice bounds"),
                              ((0,), IndexError, "one for every axis"),
                              ((Ellipsis, 0, 0, 0), IndexError, "too many"),
                              ((Ellipsis, Ellipsis), IndexError, "only one ellipsis")):
        for value in (9.0, "a"):  # (a bad value: the key's error first)
            with pytest.raises(error, match=words):
                x[key] = value
        with pytest.raises(error, match=words):
            x[key]
    with pytest.raises(IndexError, match="one for every axis"):
        dlt.zeros(3)[None]
    with pytest.raises(ValueError, match="broadcast"):  # (NumPy drops the leading 1s)
        x[0, 0] = dlt.ones((1, 1))
    x[..., 1] = 7.0
    x[1, ...] = dlt.asarray([1.0, 2.0, 3.0])
    x[0, 0] = 5
    assert np.asarray(x).tolist() == [[5.0, 7.0, 2.0], [1.0, 2.0, 3.0]]
    assert np.shares_memory(np.asarray(x[..., None]), np.asarray(x))
    assert x[0, ...].shape == (3,) and x[None, 0, 0].shape == (1,)


def test_uint64_index_arrays_beside_others_are_checked():
    # (NumPy checks the bounds of every other integer index array itself, so only these are)
    x = dlt.asarray(np.arange(6.0).reshape(2, 3))
    big = dlt.asarray(np.array([2**64 - 1], np.uint64))
    zero = dlt.asarray([0])
    for key in ((zero, big), (big, zero), (big, slice(None)), (slice(None), big)):
        with pytest.raises(IndexError, match="past the largest intp"):
            x[key]
        with pytest.raises(IndexError, match="past the largest intp"):
            x[key] = 1.0
    assert np.asarray(x).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_plain_key_writes_and_rows_keep_the_checked_paths_meaning():
    # x[i] = v, x[i:j] = v and iteration take NumPy's own calls on the CPU: what the checked
    # paths said must hold there (aliasing, errors in dltensor's words, read-only, devices)
    x = dlt.arange(10.0)
    x[1:5] = x[0:4]  # (read before written)
    assert x.tolist()[:6] == [0.0, 0.0, 1.0, 2.0, 3.0, 5.0]
    y = dlt.from_dlpack(P.from_numpy(np.arange(4.0)))  # (imported, not yet computed)
    x[0:4] = y
    assert x.tolist()[:4] == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(IndexError, match="index 10 is out of bounds"):
        x[10] = dlt.asarray(1.0)
    with pytest.raises(IndexError, match="out of bounds"):
        x[2**63] = 1.0
    with pytest.raises(TypeError, match="slice bounds must be integers or None"):
        x[0.5:2] = 1.0
    with pytest.raises(ValueError, match="does not broadcast to the 0-D selection"):
        x[0] = dlt.ones((1,))
    with pytest.raises(OverflowError, match="300 is out of bounds for int8"):
        dlt.zeros(3, dtype=dlt.int8)[0] = 300
    r = dlt.asarray(P.from_numpy(np.arange(4.0), flags=P.READ_ONLY))[1:]
    with pytest.raises(ValueError, match="read-only"):
        r[0:2] = 1.0
    assert all(v.read_only for v in r)
    pinned = dlt.from_dlpack(P.from_numpy(np.arange(6.0).reshape(2, 3), device=(P.CUDA_HOST, 0)))
    assert [v.device for v in pinned] == [pinned.device] * 2
    assert [float(v[0]) for v in reversed(pinned)] == [3.0, 0.0]
    assert pinned.T.device == pinned.device and pinned.T.shape == (3, 2)


def test_index_array_and_mask_keys_of_an_nd_array_keep_the_checked_rules():
    # (the fast path of keys with index arrays or masks into an n-D CPU array, read by
    # NumPy's own indexing: what NumPy takes and the spec does not, flat indexing, too few
    # indices, arrays apart, is still refused, and NumPy's refusals are said in our words)
    a = np.arange(24.0).reshape(2, 3, 4)
    x = dlt.asarray(a)
    i, j = dlt.asarray([1, 0]), dlt.asarray([2, -1])
    big = dlt.asarray(np.array([2**64 - 1], np.uint64))
    for key, error, words in (((i,), IndexError, "one index per axis"),
                              ((i, j), IndexError, "one index per axis"),
                              ((i, slice(None)), IndexError, "one for every axis"),
                              ((i, slice(None), j), IndexError, "must be adjacent"),
                              ((i, Ellipsis, Ellipsis), IndexError, "only one ellipsis"),
                              ((i, j, dlt.asarray([4])), IndexError, "out of bounds"),
                              ((i, j, big), IndexError, "past the largest intp"),
                              ((i, dlt.asarray([0.5]), 0), IndexError, "integer or bool"),
                              ((dlt.asarray([True]), 0, 0), IndexError, "does not match"),
                              ((i, 0, 2**63), IndexError, "past the int64"),
                              ((i, 0, slice(None, None, 0)), ValueError, "step cannot be zero"),
                              ((dlt.asarray(np.ones((2, 3, 4, 1), bool)),), IndexError,
                               "a 4-D mask cannot index a 3-D array")):
        for k in (key, key[0]) if len(key) == 1 else (key,):  # (x[(i,)] and x[i])
            with pytest.raises(error, match=words):
                x[k]
    m2 = np.array([[True, False, False], [False, False, True]])
    m1 = np.array([True, False, True, True])
    for key in ((i, j, 0), (i, j, Ellipsis), (slice(None), dlt.asarray([[2], [0]]), j),
                (Ellipsis, j), (None, 1, i, slice(None, None, -1)), (dlt.asarray(m2), j),
                (dlt.asarray(m2), slice(1, None)), (Ellipsis, dlt.asarray(m1)),
                (slice(None), 0, dlt.asarray(m1)), (dlt.asarray(m2),), dlt.asarray(m2),
                (dlt.asarray(np.zeros((2, 0), bool)), Ellipsis),
                (dlt.from_dlpack(P.from_numpy(np.array([1, 0]))), 0, j),  # (not yet computed)
                (dlt.asarray(1), i, j), (dlt.asarray([1], dtype=dlt.uint32), 2, 3)):
        got = x[key]  # (first: np.asarray computes an imported key)
        want = a[tuple(np.asarray(k) if isinstance(k, dlt.ndarray) else k
                       for k in (key if isinstance(key, tuple) else (key,)))]
        assert type(got) is dlt.ndarray and got.dtype == dlt.float64
        assert np.asarray(got).shape == want.shape and np.array_equal(np.asarray(got), want)
        assert not np.shares_memory(np.asarray(got), a) and not got.read_only  # (a copy)
    # 0-d index arrays are ints (the spec's): a view, never a NumPy scalar
    y = dlt.asarray(np.arange(3.0))
    v = y[(dlt.asarray(1),)]
    assert type(v) is dlt.ndarray and v.shape == () and float(v) == 1.0
    assert np.shares_memory(np.asarray(v), np.asarray(y))
    pinned = dlt.from_dlpack(P.from_numpy(np.array([1, 0]), device=(P.CUDA_HOST, 0)))
    np.asarray(pinned)  # (computed: CPU memory to NumPy, indexed by the checked path)
    assert x[pinned, 0, j].device == dlt.Device(1, 0) and x[pinned, 0, j].tolist() == [14, 3]
    px = dlt.from_dlpack(P.from_numpy(a, device=(P.CUDA_HOST, 0)))
    np.asarray(px)  # (into fresh memory, the CPU's, by the checked path)
    for key in ((pinned, 0, j), dlt.asarray(m2), (dlt.asarray(m2), 1)):
        assert px[key].device == dlt.Device(1, 0) and px[key].tolist() == x[key].tolist()
    y = dlt.asarray(a)
    y._device = dlt.Device(8, 0)  # pretend: Metal memory, another device than the keys'
    for key in ((i, j, 0), dlt.asarray(m2)):
        with pytest.raises(ValueError, match="different devices"):
            y[key]
    t = x.mT[i, dlt.asarray([3, 0]), 1:]  # (of a transposed view)
    assert np.array_equal(np.asarray(t), a.swapaxes(-1, -2)[[1, 0], [3, 0], 1:])
    r = dlt.broadcast_to(dlt.asarray(np.arange(4.0)), (2, 3, 4))[i, j, 1:]  # (read-only x)
    assert r.tolist() == [[1.0, 2.0, 3.0]] * 2 and not r.read_only


def test_index_array_and_mask_writes_into_an_nd_array_keep_the_checked_rules():
    # (the fast path of writes with index arrays or masks into an n-D CPU array, NumPy's own
    # write: what NumPy takes and the spec does not is still refused, keys and values that
    # share x's memory are read before the write, and NumPy's refusals come once, our words)
    x = dlt.zeros((4, 5))
    i, j = dlt.asarray([0, 1, 3]), dlt.asarray([4, 0, 2])
    for key, value, error, words in (
            ((None, i, j), 1.0, IndexError, "None"),
            ((i, j), dlt.ones((1, 3)), ValueError, "does not broadcast"),
            ((i, j), dlt.ones(2), ValueError, "does not broadcast"),
            ((i, j), 2**1100, OverflowError, "too large"),
            ((dlt.asarray([True, False]), slice(None)), 2**1100, IndexError, "does not match"),
            ((i, j), True, TypeError, "cannot write a Python bool"),
            ((i, j), dlt.ones(3, dtype=dlt.int64), TypeError, "does not promote"),
            ((dlt.asarray([0, 9]), slice(None)), 1.0, IndexError, "out of bounds"),
            ((dlt.asarray([True, False]), slice(None)), 1.0, IndexError, "does not match"),
            ((i, j), dlt.from_dlpack(P.from_numpy(np.ones(3), device=(P.METAL, 0))),
             ValueError, "different devices")):
        with pytest.raises(error, match=words):
            x[key] = value
    assert not np.asarray(x).any()  # (nothing written by a refused write)
    with pytest.raises(ValueError, match="does not broadcast"):  # (NumPy takes more axes of
        dlt.zeros((1, 5))[1:, dlt.asarray(np.zeros(0, np.intp))] = dlt.zeros((2, 0, 0))  # none)
    with pytest.raises(ValueError, match="read-only"):
        dlt.broadcast_to(dlt.ones(5), (4, 5))[i, j] = 1.0
    x[i, j] = 2**1023  # (an int into floats, as the checked path converts it)
    assert float(x[1, 0]) == 2.0**1023
    y = dlt.zeros((4, 5))
    y[dlt.asarray([0, 0, 3]), dlt.asarray([1, 1, 2])] = dlt.asarray([1.0, 2.0, 3.0])
    assert float(y[0, 1]) == 2.0 and float(y[3, 2]) == 3.0  # (duplicates: NumPy's, the last)
    y[dlt.asarray([True, False, True, False]), :] = dlt.arange(5.0)
    assert np.asarray(y)[2].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    # NumPy casts a scalar before it checks the key: its overflow warning comes once, and
    # none where the checked path refuses the key before it writes (before NumPy 2.3, which
    # checked fewer keys, dltensor checks index arrays' shapes before NumPy sees them)
    from dltensor._keys import NUMPY_CHECKS_ALL
    for dtype, value in ((dlt.float32, 1e300), (dlt.complex64, complex(math.nan, 1e300))):
        f = dlt.zeros((4, 5), dtype=dtype)
        for key, n in (((dlt.asarray([0, 1, 3]), dlt.asarray([0, 1])), int(NUMPY_CHECKS_ALL)),
                       ((dlt.asarray([True, False]), slice(None)), 0)):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                with pytest.raises(IndexError):
                    f[key] = value
            assert len(w) == n, [str(c.message) for c in w]
    # a lone mask, and a value, that share x's memory are read before anything is written
    # (NumPy writes a lone mask's elements as it reads them)
    a = np.random.default_rng(0).random((4, 4)) < 0.5
    b = dlt.asarray(a, copy=True)
    b[b[::-1, ::-1]] = False
    a[a[::-1, ::-1].copy()] = False
    assert np.array_equal(np.asarray(b), a)
    z = dlt.arange(5.0)
    z[(dlt.asarray([True] * 5),)] = z[::-1]
    assert np.asarray(z).tolist() == [4.0, 3.0, 2.0, 1.0, 0.0]
    r = dlt.reshape(dlt.arange(5.0), (1, 5))
    r[dlt.asarray(np.ones((1, 5), bool))] = r[0, ::-1]
    assert np.asarray(r).tolist() == [[4.0, 3.0, 2.0, 1.0, 0.0]]


def test_a_numpy_scalar_is_written_as_the_python_scalar_it_holds_by_every_key():
    # (the fast paths take NumPy's scalars and an int into a float array as the checked path
    # does: the Python scalar first, np.int64(2**60 + 2**36 + 1) into float32 through
    # float64, not NumPy's direct cast, and the same refusals in the same words)
    import ml_dtypes
    n = 2**60 + 2**36 + 1
    keys = (lambda x: 0 if x.ndim == 1 else (0, 0), lambda x: slice(0, 2),
            lambda x: dlt.asarray([0, 2]), lambda x: (..., 1), lambda x: (
                dlt.asarray([True, False, True]), slice(None)) if x.ndim == 2 else (
                dlt.asarray([True, False, True]),))
    values = ((np.int64(n), n), (np.float64(1.5), 1.5), (np.float32(-0.0), -0.0),
              (np.uint64(2**64 - 1), 2**64 - 1), (np.int8(-1), -1), (np.bool_(True), True),
              (np.complex64(1 + 2j), 1 + 2j), (np.float16(math.nan), math.nan),
              (ml_dtypes.bfloat16(3.5), 3.5), (np.int64(300), 300), (np.float32(7e4), 7e4))
    for dtype in (dlt.float32, dlt.float16, dlt.int8, dlt.uint64, dlt.bool, dlt.complex64,
                  dlt.bfloat16):
        for shape in ((3,), (3, 4)):
            for key in keys:
                for numpy_scalar, scalar in values:
                    got = []
                    for v in (numpy_scalar, scalar):
                        x = dlt.zeros(shape, dtype=dtype)
                        with warnings.catch_warnings(record=True) as w:
                            warnings.simplefilter("always")
                            try:
                                x[key(x)] = v
                                got.append(np.asarray(x).tobytes())
                            except (TypeError, OverflowError, IndexError) as e:
                                got.append((type(e), str(e)))
                        got.append([str(c.message) for c in w])
                    assert got[:2] == got[2:], (dtype, shape, key(dlt.zeros(shape)), scalar)
    x = dlt.zeros(3, dtype=dlt.float32)
    x[0], x[1:2], x[dlt.asarray([2])] = np.int64(n), np.int64(n), np.int64(n)
    assert np.asarray(x).tolist() == [float(np.float32(float(n)))] * 3 != [float(np.float32(n))]


def test_a_complex_whose_magnitude_is_past_the_floats_is_written_by_every_key():
    # (X[i, j] = complex(1.5e308, 1.5e308) into complex64 raised abs()'s OverflowError,
    # "absolute value too large", where x[0] = it writes NumPy's inf + inf j, with its warning)
    v = complex(1.5e308, -1.5e308)
    for dtype in (dlt.complex64, dlt.complex128):
        want = np.array(v).astype(dtype.numpy) if dtype is dlt.complex128 else \
            np.array(complex(math.inf, -math.inf), dtype.numpy)
        for key in ((0, ...), (1, 2), (dlt.asarray([1, 0]), 2), (dlt.asarray([True, False]), 1),
                    (dlt.asarray([True, False]), slice(None)), dlt.asarray([[True] * 3] * 2)):
            X = dlt.zeros((2, 3), dtype=dtype)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # (complex64's overflow)
                X[key] = v
            got = np.asarray(X)[np.asarray(X) != 0]
            assert got.size and (got == want).all(), (dtype, key, got)


# --- the fast paths of writes against the checked path ------------------------------------------
# (pinned memory is CPU memory NumPy computes on, written by the checked path only: what the
# fast paths write into CPU memory, or refuse in what words, must be what it writes or says)

def _pinned(a, **flags):
    return dlt.from_dlpack(P.from_numpy(a, device=(P.CUDA_HOST, 0), **flags))


def _write_alike(make, key, value, where):
    """``x[key] = value(x)`` into CPU memory (the fast paths) and into pinned memory (the
    checked path), from the same elements (``make``: a NumPy array, and flags): the same
    elements after, or the same error in the same words, and the same warnings."""
    said = []

    def write(x):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                x[key] = value(x) if callable(value) else value
            finally:
                said.append([(c.category, str(c.message)) for c in w])
        return np.asarray(x).copy()

    a, flags = make()
    cpu = dlt.asarray(P.from_numpy(a, **flags)) if flags else dlt.asarray(a)
    alike(lambda: write(cpu), lambda: write(_pinned(make()[0], **flags)), where)
    assert said[0] == said[1], where
    if flags:  # (read-only memory: nothing written)
        assert np.array_equal(np.asarray(cpu), make()[0], equal_nan=True), where


_BASIC_KEYS_2D = [
    (1, 2), (-1, -5), (1, slice(None)), (slice(None), 2), (Ellipsis,), Ellipsis, (Ellipsis, 1),
    (1, Ellipsis), (slice(1, None), slice(None, None, 2)), (slice(None, None, -1), 0),
    (slice(0, 0), 0), (1, slice(3, 1)), (1, 2, Ellipsis), (Ellipsis, 1, 2), (),
    (slice(2**70, None), 0), (slice(-2**70, 2**70), 1), (slice(True, None), 0),
    (slice(np.int64(1), None), 0), (np.int64(1), 2),
    (4, 0), (0, -6), (2**63, 0), (2**100, 0), (1,), (slice(None),), (1, 2, 3),
    (Ellipsis, Ellipsis), (Ellipsis, 0, 0, 0), (slice(0.5, None), 0), (slice(None, None, 0), 0),
    (None, 1, 2), (1, None), (True, 0), (0, True), (1.0, 2),
]
_BASIC_KEYS_1D = [1, -1, 5, -6, 2**63, slice(1, 3), slice(None), slice(None, None, -2),
                  slice(3, 1), slice(0.5, 2), Ellipsis, (1,), (Ellipsis,), (), (1, 1), None,
                  True, np.int64(2)]
_SCALARS = [1.0, -0.0, 3, -1, 300, 2**63, 2**64, -2**63 - 1, 2**1100, True, False, 1 + 2j,
            math.nan, 1e300, complex(1.5e308, -1.5e308), np.float32(1.5), np.int64(7),
            np.uint64(2**64 - 1), np.bool_(True), np.float64(1e300), "a", None, [1, 2]]


_BASIC_KEYS_0D = [(), Ellipsis, (Ellipsis,), 0, (0,), slice(None), None, (None,),
                  (Ellipsis, Ellipsis), True]
_BASIC_KEYS_EMPTY = [(slice(None), 1), Ellipsis, (0, 1), (slice(None), slice(None)),
                     (Ellipsis, 0), (slice(None), 5)]
_FEW_KEYS_2D = [(1, 2), (1, slice(None)), (slice(None), 2), Ellipsis, (4, 0), (1,),
                (slice(None, None, -1), slice(1, None))]
_FEW_SCALARS = [1.0, 3, 300, True, 1 + 2j, np.float32(1.5), 1e300]
# Layouts of x: a fresh array of b's elements, C-ordered, Fortran-ordered, or strided
_LAYOUTS = {"C": lambda b: b.copy(), "F": lambda b: np.asfortranarray(b),
            "strided": lambda b: np.repeat(b, 2, axis=-1)[..., ::2]}


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int8", "int64", "uint8",
                                   "uint64", "bool", "complex64", "complex128", "bfloat16"])
def test_writes_by_ints_slices_and_an_ellipsis_answer_as_the_checked_path(dtype):
    import ml_dtypes
    dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype
    base = (np.arange(20) % 3).astype(dtype).reshape(4, 5)
    for b, layouts, keys, values in (
            (base, "C", _BASIC_KEYS_2D, _SCALARS), (base[0], "C", _BASIC_KEYS_1D, _SCALARS),
            (base[0, 0, ...], "C", _BASIC_KEYS_0D, _SCALARS),
            (base[:0], "CF", _BASIC_KEYS_EMPTY, _FEW_SCALARS),
            (base, "F", _FEW_KEYS_2D, _FEW_SCALARS),
            (base, ("strided",), _FEW_KEYS_2D, _FEW_SCALARS)):
        for layout in layouts:
            fresh = _LAYOUTS[layout]
            for key in keys:
                for value in values:
                    _write_alike(lambda: (fresh(b), {}), key, value,
                                 (dtype, b.shape, layout, key, value))


def _values(dtype):
    """Array values: of x's dtype and others, of every shape about a 4x5 or 5-element
    selection, and views of x itself (overlapping its target)."""
    out = []
    for vdtype in (dtype, "int8", "float32", "float64", "bool", "uint64"):
        for shape in ((), (5,), (1, 5), (4, 1), (2,), (4, 5), (1, 1), (1,), (1, 4, 5), (0,),
                      (3, 5), (1, 1, 1)):
            out.append(dlt.asarray((np.arange(math.prod(shape)) % 4 + 1).astype(vdtype)
                                   .reshape(shape)))
    out += [lambda x: x[:-1, ...], lambda x: x[::-1, ...], lambda x: x[..., ::-1],
            lambda x: x[0, ...] if x.ndim == 1 else x[:, 0], lambda x: x[..., 1:] + 0
            if x.dtype == dlt.float64 else x[..., 1:], lambda x: x.mT if x.ndim == 2 else x]
    out.append(dlt.from_dlpack(P.from_numpy(np.ones(5, dtype))))  # (imported, not computed)
    return out


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "int64", "bool"])
def test_array_writes_by_ints_slices_and_an_ellipsis_answer_as_the_checked_path(dtype):
    base = (np.arange(20) % 3).astype(dtype).reshape(4, 5)
    keys_2d = [(1, 2), (1, slice(None)), (slice(None), 2), (Ellipsis,), Ellipsis, (1, Ellipsis),
               (slice(1, None), slice(None)), (slice(None, -1), Ellipsis), (slice(0, 0), 0),
               (slice(None, None, -1), slice(None, None, 2)), (4, 0), (1,), (1, 2, 3),
               (slice(None, None, 0), 0), (None, 1, 2)]
    keys_1d = [1, slice(1, 3), slice(None), slice(None, None, -1), Ellipsis, (1,), 5]
    keys_0d = [(), Ellipsis, 0]
    for b, layout, keys in ((base, "C", keys_2d), (base[0], "C", keys_1d),
                            (base[0, 0, ...], "C", keys_0d), (base, "F", keys_2d[:6]),
                            (base, "strided", keys_2d[:6])):
        fresh = _LAYOUTS[layout]
        for key in keys:
            for value in _values(dtype):
                _write_alike(lambda: (fresh(b), {}), key, value, (dtype, layout, key, value))


def test_an_overlapping_value_is_written_as_the_checked_path_writes_it():
    # (the value is read before anything is written, as the checked path copies it)
    for key, value in (((slice(1, None), slice(None)), lambda x: x[:-1, :]),
                       ((slice(None, -1), slice(None)), lambda x: x[1:, :]),
                       ((Ellipsis,), lambda x: x[::-1, ::-1]),
                       ((slice(None), slice(1, None)), lambda x: x[:, :-1]),
                       ((1, slice(None)), lambda x: x[1, ::-1])):
        _write_alike(lambda: (np.arange(20.0).reshape(4, 5), {}), key, value, key)
        x = dlt.asarray(np.arange(20.0).reshape(4, 5))
        want = np.arange(20.0).reshape(4, 5)
        want[key] = np.asarray(value(x)).copy()
        x[key] = value(x)
        assert np.array_equal(np.asarray(x), want), key
    metal = dlt.from_dlpack(P.from_numpy(np.ones(5), device=(P.METAL, 0)))
    for key in ((1, slice(None)), (1, Ellipsis), (Ellipsis,)):
        with pytest.raises(ValueError, match="different devices"):
            x[key] = metal


def test_read_only_memory_is_refused_before_the_key_and_the_value_by_every_write():
    base = np.arange(20.0).reshape(4, 5)
    for key in ((1, 2), (1, slice(None)), (slice(0, 0), 0), Ellipsis, (4, 0), (1,), (1, 2, 3),
                (dlt.asarray([0, 1]), 1), dlt.asarray(base > 5), dlt.asarray(np.zeros((4, 5),
                bool)), (dlt.asarray([9]), 0)):
        for value in (1.0, 1e300, "a", True, dlt.ones(5), dlt.ones((2, 3)),
                      dlt.ones(5, dtype=dlt.int64)):
            _write_alike(lambda: (base.copy(), {"flags": P.READ_ONLY}), key, value, (key, value))
            with pytest.raises(ValueError, match="read-only"):
                dlt.broadcast_to(dlt.asarray(base[0]), (4, 5))[key] = value
    f = dlt.asarray(P.from_numpy(np.zeros((4, 5), np.float32), flags=P.READ_ONLY))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no overflow warning: nothing cast)
        with pytest.raises(ValueError, match="read-only"):
            f[1, 2] = 1e300


def test_index_array_writes_answer_as_the_checked_path():
    base = np.arange(20.0).reshape(4, 5)
    i, j = dlt.asarray([0, 3, 1]), dlt.asarray([4, 0, 4])
    rows = dlt.asarray([True, False, True, True])
    keys = [(i, j), (i, 1), (1, j), (slice(None), j), (i, slice(None)), (Ellipsis, j),
            (rows, slice(None)), (rows, 2), dlt.asarray(base > 7), (dlt.asarray(base > 7),),
            dlt.asarray(np.zeros((4, 5), bool)), (dlt.asarray([0, 4]), 1), (i, j, 0),
            (i, slice(None), j), (dlt.asarray([True, False]), 0), dlt.asarray(base[:, :2] > 3),
            (dlt.asarray(np.array([2**64 - 1], np.uint64)), 0), (i, dlt.asarray([0.5]))]
    values = [1.0, 3, 2**1100, True, 1e300, np.float32(2.5), dlt.ones(3), dlt.ones(5),
              dlt.ones((1, 3)), dlt.ones((3, 5)), dlt.ones((2,)), dlt.ones(3, dtype=dlt.int64),
              dlt.ones(3, dtype=dlt.float32), lambda x: x[0, :3], lambda x: x[:3, 0],
              lambda x: x[1:4, :]]
    for key in keys:
        for value in values:
            _write_alike(lambda: (base.copy(), {}), key, value, (key, value))
    f = np.zeros((4, 5), np.float32)
    for key in ((i, j), rows, (rows, slice(None)), (dlt.asarray([0, 9]), 0)):
        _write_alike(lambda: (f.copy(), {}), key, 1e300, key)


def test_the_commonest_keys_of_a_cpu_array_take_numpys_own_indexing():
    # (none of the checked path's steps is taken: NumPy's own read or write, where it is the
    # checked path's; a refusal still reaches it)
    from unittest import mock
    import dltensor._indexing as ix

    def unused(*args, **kwargs):
        raise AssertionError("the checked path was taken")

    from dltensor._keys import NUMPY_CHECKS_ALL  # (before NumPy 2.3, index arrays and masks
    X = dlt.asarray(np.zeros((4, 5)))  # are the checked path's: NumPy checked fewer keys)
    y, i, m = dlt.arange(5.0), dlt.asarray([0, 3]), dlt.asarray(np.eye(4, 5, dtype=bool))
    with mock.patch.multiple(ix, _value_for=unused, basic_key=unused, backend_key=unused,
                             _check_fits=unused, read_only_error=unused):
        X[1, :] = y
        X[:, 0] = y[:4]
        X[1:3, ...] = dlt.ones((2, 5), dtype=dlt.float32)
        X[2, 3] = 7
        X[..., 4] = 0.5
        X[3, ::2] = np.float64(2.0)
        dlt.arange(3)[1] = 5
        dlt.arange(3.0)[...] = -0.0
        reads = [X[1, 2], X[1, 2:4], X[:, ::2], X[..., None], X[1, ...], X[None, 1, 2]]
        if NUMPY_CHECKS_ALL:
            X[i, 1] = 9.0
            X[m] = -1.0
            X[(i, i)] = dlt.asarray([3.0, 4.0])
            reads += [X[i, 1], X[i, i], X[m], X[(slice(None), i)]]
        with pytest.raises(AssertionError, match="checked path"):
            X[1, :] = dlt.ones((1, 5))  # (more axes than the selection: the checked path's)
        pinned = _pinned(np.zeros((4, 5)))  # (the checked path, which the tests above take)
        for key, value in (((1, 2), 1.0), ((1, slice(None)), y), (Ellipsis, 0.5), ((i, 1), 9.0),
                           (m, 1.0)):
            with pytest.raises(AssertionError, match="checked path"):
                pinned[key] = value
        for key in ((i, 1), m):  # (reads of ints and slices are views of it, its device's)
            with pytest.raises(AssertionError, match="checked path"):
                pinned[key]
    assert [r.shape for r in reads] == [(), (2,), (4, 3), (4, 5, 1), (5,), (1,), (2,), (2,),
                                        (4,), (4, 2)][:len(reads)]
    want = np.zeros((4, 5))
    want[1, :] = np.arange(5.0)
    want[:, 0] = np.arange(4.0)
    want[1:3, ...] = 1.0
    want[2, 3], want[..., 4], want[3, ::2] = 7, 0.5, 2.0
    if NUMPY_CHECKS_ALL:
        want[[0, 3], 1] = 9.0
        want[np.eye(4, 5, dtype=bool)] = -1.0
        want[[0, 3], [0, 3]] = [3.0, 4.0]
    assert np.array_equal(np.asarray(X), want)


def test_index_array_and_mask_reads_answer_as_the_checked_path():
    # (x[i] of a 1-D array, X[mask] and X[i, j] read by NumPy's own indexing: the elements, or
    # the error in the words, of the checked path, which pinned memory takes)
    big = np.array([2**64 - 1], np.uint64)
    arrays = [np.array([1, 0, 4]), np.array([-1, 2], np.int8), np.array([3], np.uint8),
              np.array([1, 4], np.uint64), big, np.array([5]), np.array([-6]),
              np.array([1.0, 0.0]), np.array([[0, 1], [2, 3]]), np.array(2), np.array(True),
              np.array(False), np.zeros(0, np.intp), np.array([True, False, True, False, True]),
              np.array([True, False]), np.ones((4, 5), bool), np.ones((5, 1), bool),
              np.arange(20).reshape(4, 5) % 3 == 0, np.ones((4, 5, 1), bool),
              np.zeros((4, 0), bool)]
    for b in (np.arange(5.0), np.arange(20.0).reshape(4, 5), np.array(7.0), np.zeros((0, 5))):
        for k in arrays:
            for key in (lambda: dlt.asarray(k), lambda: (dlt.asarray(k),),
                        lambda: (dlt.asarray(k), 1), lambda: (Ellipsis, dlt.asarray(k)),
                        lambda: (dlt.asarray(k), dlt.asarray(k))):
                alike(lambda: np.asarray(dlt.asarray(b)[key()]),
                      lambda: np.asarray(_pinned(b)[key()]), (b.shape, k, key()))


def test_reads_of_a_0d_array_keep_the_checked_rules():
    # (x[...], x[None] and x[()] of a 0-d array are NumPy's own views; other keys the
    # checked path's, in its words)
    x = dlt.asarray(np.array(7.0))
    for key, shape in ((Ellipsis, ()), (None, (1,)), ((), ()), ((None,), (1,)),
                       ((Ellipsis, None), (1,)), (True, (1,)), (False, (0,))):
        assert x[key].shape == shape and float(dlt.sum(x[key])) == 7.0 * math.prod(shape)
    for key, words in ((1.5, "not an array API index"), (np.int64(0), "too many indices"),
                       (0, "too many indices"), ("a", "not an array API index"),
                       (slice(None), "too many indices")):
        with pytest.raises(IndexError, match=words):
            x[key]
