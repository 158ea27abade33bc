"""Manipulation functions: results against array-api-strict, spec promotion, views, errors."""

import itertools
import math
import re
import subprocess
import sys

import array_api_strict as strict
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

import dltensor as dlt
from oracle import alike, same
import producers as P

xps = make_strategies_namespace(dlt)


A = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
B = np.array([[1.0, np.nan], [-0.0, 3.5]], dtype=np.float32)
I8 = np.array([1, -2, 3], dtype=np.int8)
U8 = np.array([200, 7], dtype=np.uint8)
ROW = np.array([[1, 2, 3]], dtype=np.int64)

CASES = {
    "broadcast_arrays": lambda xp: xp.broadcast_arrays(xp.asarray(ROW),
                                                       xp.asarray(ROW.T)),
    "broadcast_to": lambda xp: xp.broadcast_to(xp.asarray(ROW), (4, 3)),
    "concat": lambda xp: xp.concat([xp.asarray(A), xp.asarray(A)], axis=1),
    "concat promotes": lambda xp: xp.concat((xp.asarray(I8), xp.asarray(U8))),
    "concat axis None": lambda xp: xp.concat([xp.asarray(A), xp.asarray(ROW)], axis=None),
    "concat negative axis": lambda xp: xp.concat([xp.asarray(B), xp.asarray(B)], axis=-1),
    "concat axis -ndim": lambda xp: xp.concat([xp.asarray(B), xp.asarray(B)], axis=-2),
    "expand_dims": lambda xp: xp.expand_dims(xp.asarray(B), axis=1),
    "expand_dims tuple": lambda xp: xp.expand_dims(xp.asarray(I8), axis=(0, -1)),
    "flip": lambda xp: xp.flip(xp.asarray(A)),
    "flip axes": lambda xp: xp.flip(xp.asarray(A), axis=(0, 2)),
    "moveaxis": lambda xp: xp.moveaxis(xp.asarray(A), 0, -1),
    "moveaxis tuples": lambda xp: xp.moveaxis(xp.asarray(A), (0, 1), (2, 0)),
    "permute_dims": lambda xp: xp.permute_dims(xp.asarray(A), (2, 0, 1)),
    "repeat int": lambda xp: xp.repeat(xp.asarray(B), 2),
    "repeat array axis": lambda xp: xp.repeat(xp.asarray(A), xp.asarray([1, 0, 3]), axis=1),
    "reshape": lambda xp: xp.reshape(xp.asarray(A), (4, -1)),
    "reshape 0-d": lambda xp: xp.reshape(xp.asarray(I8[:1]), ()),
    "reshape copy": lambda xp: xp.reshape(xp.asarray(A), (24,), copy=True),
    "roll": lambda xp: xp.roll(xp.asarray(A), 5),
    "roll axes": lambda xp: xp.roll(xp.asarray(A), (1, -1), axis=(0, 2)),
    "squeeze": lambda xp: xp.squeeze(xp.asarray(ROW), axis=0),
    "squeeze tuple": lambda xp: xp.squeeze(xp.asarray(A[:1, :, :1]), axis=(0, 2)),
    "stack": lambda xp: xp.stack([xp.asarray(B), xp.asarray(B)], axis=1),
    "stack promotes": lambda xp: xp.stack([xp.asarray(I8), xp.asarray(I8.astype(np.int64))]),
    "tile": lambda xp: xp.tile(xp.asarray(B), (2, 1, 3)),
    "unstack": lambda xp: xp.unstack(xp.asarray(A), axis=1),
}


@pytest.mark.parametrize("fn", CASES.values(), ids=CASES.keys())
def test_matches_array_api_strict(fn):
    same(fn(dlt), fn(strict))


@pytest.mark.parametrize("a, b", [(np.int64, np.uint64), (np.int8, np.float32),
                                  (np.bool_, np.int8), (np.float64, np.complex64)])
def test_join_refuses_promotions_the_spec_lacks(a, b):
    if (a, b) == (np.float64, np.complex64):  # float64 with complex64 is complex128
        assert dlt.concat([dlt.ones(1, dtype=dlt.float64),
                           dlt.ones(1, dtype=dlt.complex64)]).dtype is dlt.complex128
        return
    x, y = dlt.asarray(np.ones(2, a)), dlt.asarray(np.ones(2, b))
    for join in (dlt.concat, dlt.stack):
        with pytest.raises(TypeError, match=r"(concat|stack): .* have no promotion in the array"):
            join([x, y])


def test_views_share_memory():
    x = dlt.asarray(A)
    for view in (dlt.reshape(x, (6, 4)), dlt.permute_dims(x, (1, 0, 2)),
                 dlt.expand_dims(x, axis=0), dlt.broadcast_to(x, (3, 2, 3, 4))):
        assert view.data_ptr == x.data_ptr
    assert dlt.reshape(x, (6, 4), copy=True).data_ptr != x.data_ptr


def test_reshape_copy_false_refuses_a_copy():
    t = dlt.permute_dims(dlt.asarray(A), (2, 1, 0))
    with pytest.raises(ValueError):
        dlt.reshape(t, (24,), copy=False)


def test_errors():
    with pytest.raises(ValueError):
        dlt.squeeze(dlt.asarray(A), axis=1)  # length 3, not 1
    # an invalid axis: IndexError, as the spec asks (AxisError, a ValueError too)
    for axis in (2, -3, (0, 3), (0, 0), (1, -2)):  # (I8 is 1-D)
        with pytest.raises(IndexError):
            dlt.expand_dims(dlt.asarray(I8), axis=axis)
    with pytest.raises(ValueError):
        dlt.concat([])
    with pytest.raises(TypeError, match="asarray"):
        dlt.stack([dlt.asarray(I8), I8])  # a NumPy array is not silently taken in


def test_broadcast_shapes():
    assert dlt.broadcast_shapes() == ()
    assert dlt.broadcast_shapes((2, 1), (3,), ()) == (2, 3)
    assert dlt.broadcast_shapes((5, 1, 4), (1, 3, 1)) == (5, 3, 4)
    assert dlt.broadcast_shapes((None, 1), (1, 3)) == (None, 3)  # unknown sizes propagate
    assert dlt.broadcast_shapes((None,), (4,)) == (None,)
    with pytest.raises(ValueError):
        dlt.broadcast_shapes((2,), (3,))
    # known sizes must agree whatever unknown ones come between them
    for shapes in (((2,), (None,), (3,)), ((None,), (2,), (3,)), ((2, None), (None, 1), (3, 1))):
        with pytest.raises(ValueError):
            dlt.broadcast_shapes(*shapes)
    assert dlt.broadcast_shapes((2,), (None,), (2,), (1,)) == (None,)
    # an int is a one-axis shape, as NumPy and array-api-strict take it; a set (no order), a
    # string or None is none (a set was read in its iteration order)
    assert dlt.broadcast_shapes((3, 1), 5) == (3, 5) == dlt.broadcast_shapes((3, 1), [5])
    for bad in ({4, 3}, "ab", None, 2.0, {4: 1}):
        with pytest.raises(TypeError, match="broadcast_shapes takes shapes"):
            dlt.broadcast_shapes((1, 1), bad)
    # other iterables of sizes, as NumPy takes them (an array was read as one int)
    assert dlt.broadcast_shapes(np.array([2, 3]), range(3, 4)) == (2, 3)


def test_broadcast_shapes_past_the_largest_array_are_refused_as_numpys_are():
    # (as zeros, broadcast_to and reshape refuse them: broadcast_shapes((2**63,), (1,)) gave
    # (2**63,); NumPy's: "Maximum allowed dimension exceeded", "broadcast dimensions too large")
    for shapes in (((2**63,), (1,)), ((2**62, 4), (1,)), ((2**64, 0),), ((None, 2**63),),
                   ((1,) * 65,)):
        with pytest.raises(ValueError):
            dlt.broadcast_shapes(*shapes)
        if None not in shapes[0]:
            with pytest.raises(ValueError):
                np.broadcast_shapes(*shapes)
    # what may be an array's shape is not: intp's largest, no elements, an unknown extent
    assert dlt.broadcast_shapes((2**63 - 1,), (1,)) == (2**63 - 1,)
    assert dlt.broadcast_shapes((0, 2**62, 4)) == (0, 2**62, 4)
    assert dlt.broadcast_shapes((None, 2**62, 4)) == (None, 2**62, 4)
    assert dlt.broadcast_shapes((1,) * 64) == (1,) * 64


@settings(max_examples=40, deadline=None)
@given(x=xps.arrays(xps.scalar_dtypes(), xps.array_shapes(max_dims=4, max_side=4)),
       data=st.data())
def test_permute_then_inverse_is_identity(x, data):
    axes = data.draw(st.permutations(range(x.ndim)))
    inverse = tuple(np.argsort(axes))
    back = dlt.permute_dims(dlt.permute_dims(x, tuple(axes)), inverse)
    np.testing.assert_array_equal(np.from_dlpack(back), np.from_dlpack(x), strict=True)


@settings(max_examples=40, deadline=None)
@given(x=xps.arrays(xps.scalar_dtypes(), xps.array_shapes(min_dims=1, max_dims=3,
                                                           max_side=4)), data=st.data())
def test_concat_of_unstack_rebuilds(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    parts = dlt.unstack(x, axis=axis)
    assert len(parts) == x.shape[axis]
    if parts:
        back = dlt.stack(parts, axis=axis)
        np.testing.assert_array_equal(np.from_dlpack(back), np.from_dlpack(x), strict=True)


def test_manipulations_of_a_0d_array_refuse_an_axis_but_not_a_shift():
    # roll's first argument after x is its shift, not an axis (a check reading args[0] as the
    # axis broke roll(x, 0) of 0-d arrays in the conformance suite).
    z = dlt.asarray(False)
    assert dlt.roll(z, 1).shape == () and dlt.squeeze(z, ()).shape == ()
    for call in (lambda: dlt.roll(z, 1, axis=0), lambda: dlt.squeeze(z, 0),
                 lambda: dlt.squeeze(z, axis=-1), lambda: dlt.flip(z, axis=0)):
        with pytest.raises(IndexError, match="out of bounds"):
            call()


def test_integer_parameters_refuse_what_numpy_would_truncate_or_parse():
    # NumPy truncated roll(x, 1.9) to 1, parsed repeat(x, "3") and tile(x, "ab")'s digits,
    # read bools as counts: the spec types these ints (and repeats an int or integer array).
    x = dlt.arange(5)
    for call in (lambda: dlt.roll(x, 1.9), lambda: dlt.roll(x, (True,)),
                 lambda: dlt.repeat(x, 2.9), lambda: dlt.repeat(x, "3"),
                 lambda: dlt.repeat(x, [1, 0, 0, 0, 2]), lambda: dlt.repeat(x, np.ones(5, int)),
                 lambda: dlt.repeat(x, dlt.asarray([True, False, True, False, True])),
                 lambda: dlt.tile(x, "ab"), lambda: dlt.tile(x, (2.0,)),
                 lambda: dlt.reshape(x, (5,), copy="yes")):
        with pytest.raises(TypeError):
            call()
    assert dlt.roll(x, np.int64(1)).shape == (5,) and dlt.tile(x, (np.int32(2),)).shape == (10,)
    assert dlt.repeat(x, np.int64(2)).shape == (10,)


def test_repeat_takes_uint64_repeats():
    # NumPy casts repeats to intp only safely, so refused them (the spec: any integer dtype).
    x = dlt.arange(3)
    for r in (dlt.asarray(np.array([1, 0, 2], np.uint64)), dlt.asarray(np.uint64(2))):
        got = np.from_dlpack(dlt.repeat(x, r)).tolist()
        assert got == np.repeat(np.arange(3), np.from_dlpack(r).astype(np.int64)).tolist()
    with pytest.raises(ValueError):  # 2**64 - 1 is no count
        dlt.repeat(x, dlt.asarray(np.array([2**64 - 1, 0, 0], np.uint64)))


def test_joins_past_the_largest_array_are_refused():
    # NumPy adds the lengths along the axis in C: a total wrapped to a few elements took the
    # copies of every array (a crash), one wrapped to 0 never returned
    b = dlt.broadcast_to(dlt.asarray(1, dtype=dlt.int8), (2**62,))
    most = dlt.broadcast_to(dlt.asarray(1, dtype=dlt.int8), (2**63 - 1,))
    small = dlt.asarray([1, 2, 3, 4], dtype=dlt.int8)
    for join in (lambda: dlt.concat([b] * 4 + [small]), lambda: dlt.concat([b] * 4),
                 lambda: dlt.concat([b, small] * 4, axis=None), lambda: dlt.stack([b] * 4),
                 lambda: dlt.diff(small, prepend=b, append=most),
                 lambda: dlt.diff(small, n=0, prepend=b, append=most)):
        with pytest.raises(ValueError, match="past the largest array"):
            join()
    assert dlt.concat([b[:2], small]).shape == (6,)


def test_repeat_by_negative_counts_is_refused():
    # NumPy multiplies one count by the length in C: 4 * (2 - 2**62) wrapped to 8, and it
    # returned an array of 8 floats it never wrote
    x = dlt.arange(4.0)
    for counts in (2 - 2**62, -1, dlt.asarray([2 - 2**62]), dlt.asarray(np.int8(-1))):
        with pytest.raises(ValueError, match="nonnegative"):
            dlt.repeat(x, counts)
    assert np.asarray(dlt.repeat(x, dlt.asarray([2]))).tolist() == [0, 0, 1, 1, 2, 2, 3, 3]


def test_flip_and_unstack_give_views_whatever_the_dimensions():
    # NumPy's flip of a 0-d array and unstack of a 1-D one give scalars (copies), where of
    # other arrays they give views, as CuPy's do of every array
    y, u = dlt.asarray(2.0), dlt.asarray([1.0, 2.0])
    dlt.flip(y)[...] = 4.0
    assert float(y) == 4.0
    dlt.flip(y, axis=())[...] = 5.0
    for i, v in enumerate(dlt.unstack(u)):
        v[...] = 10.0 + i
    assert float(y) == 5.0 and np.asarray(u).tolist() == [10.0, 11.0]
    m = dlt.reshape(dlt.arange(6.0), (2, 3))
    dlt.unstack(m, axis=-1)[2][...] = -1.0
    assert np.asarray(m).tolist() == [[0.0, 1.0, -1.0], [3.0, 4.0, -1.0]]
    with pytest.raises(ValueError, match="read-only"):  # (a broadcast's stays read-only)
        dlt.flip(dlt.broadcast_to(dlt.asarray(1.0), ()))[...] = 3.0


def test_repeat_counts_adding_up_past_int64_are_refused():
    # NumPy adds array repeats in int64: a total of 2**64 wrapped to 0 and it wrote every
    # repetition into an empty array (the process crashed); 2**64 + 1 left one element's room.
    x = dlt.asarray([1.0, 2.0, 3.0, 4.0])
    for counts in ([2**62] * 4, [2**63 - 1, 2**63 - 1, 3, 0], [2**61] * 4):
        with pytest.raises(ValueError, match="past the largest array"):
            dlt.repeat(x, dlt.asarray(counts))
    with pytest.raises(ValueError, match="past the largest array"):  # (one count, broadcast)
        dlt.repeat(dlt.ones((2, 3)), dlt.asarray([2**62]), axis=1)
    with pytest.raises(ValueError, match="negative"):  # (NumPy's own words, as before)
        dlt.repeat(x, dlt.asarray([2**62, 2**62, -1, 0]))
    assert np.asarray(dlt.repeat(x, dlt.asarray([0, 1, 0, 2]))).tolist() == \
        [2.0, 4.0, 4.0]


def test_broadcast_arrays_are_read_only_views():
    # NumPy's are writable with a FutureWarning, and a write lands in every element sharing
    # the memory; as with broadcast_to, dltensor refuses the write.
    base = dlt.arange(3)
    a, b = dlt.broadcast_arrays(base, dlt.zeros((2, 1), dtype=dlt.int64))
    assert a.shape == b.shape == (2, 3)
    for r in (a, b):
        with pytest.raises(ValueError, match="read-only"):
            r[0, 0] = 7
    base[0] = 5  # the input stays writable, and the results are views of it
    assert int(a[1, 0]) == 5


def test_broadcast_arrays_of_numpy_arrays_keep_the_checked_rules():
    # (the fast path, one nditer's read-only views of NumPy arrays on the CPU: the checked
    # path's results, devices and words for everything else)
    a = dlt.asarray(np.arange(3.0).reshape(3, 1))
    b = dlt.asarray(np.arange(8)[::-2].reshape(1, 4))  # (a reversed view)
    c = dlt.asarray(np.arange(12, dtype=np.float32).reshape(4, 3).T)  # (F-ordered)
    got = dlt.broadcast_arrays(a, b, c, dlt.asarray(7))
    assert type(got) is tuple and [r.shape for r in got] == [(3, 4)] * 4
    assert [r.dtype for r in got] == [dlt.float64, dlt.int64, dlt.float32, dlt.int64]
    wants = np.broadcast_arrays(*(np.asarray(v) for v in (a, b, c)), np.array(7))
    for r, want in zip(got, wants):
        assert np.array_equal(np.asarray(r), want) and np.asarray(r).strides == want.strides
        assert r.read_only and r.device == dlt.Device(1, 0)
    assert np.shares_memory(np.asarray(got[1]), np.asarray(b))
    assert dlt.broadcast_arrays() == ()
    (one,) = dlt.broadcast_arrays(c)
    assert one.shape == (3, 4) and one.read_only and np.shares_memory(np.asarray(one),
                                                                      np.asarray(c))
    with pytest.raises(ValueError, match=r"shapes \(3, 1\), \(2, 1\) cannot be broadcast"):
        dlt.broadcast_arrays(a, dlt.ones((2, 1)))
    with pytest.raises(TypeError, match="takes dltensor arrays"):
        dlt.broadcast_arrays(a, np.ones(3))
    pinned = dlt.from_dlpack(P.from_numpy(np.arange(4.0), device=(P.CUDA_HOST, 0)))
    np.asarray(pinned)  # (computed: still pinned memory, labelled so in its views)
    assert [r.device for r in dlt.broadcast_arrays(pinned, a)] == [pinned.device, a.device]
    imported = dlt.from_dlpack(P.from_numpy(np.arange(4.0)))  # (not yet computed)
    assert dlt.broadcast_arrays(imported, a)[0].tolist() == [[0.0, 1.0, 2.0, 3.0]] * 3


def test_broadcast_to_commonest_call_answers_as_the_checked_path():
    # A shape of positive Python ints that passes the checks is NumPy's broadcast_to at once
    # (the checked path: the same extents as NumPy ints): the same view (strides, the memory
    # it starts at, read-only, not writable) and the same errors in the same words
    def view(r):
        a = np.asarray(r)
        return (r.shape, r.dtype, r.device, r.read_only, a.strides, a.flags.writeable,
                a.__array_interface__["data"][0], a.tobytes() if a.size < 99 else None)

    a = np.arange(12.0).reshape(3, 4)
    ro = a.copy()
    ro.flags.writeable = False
    for x in (dlt.asarray(a), dlt.asarray(a[::-1, ::2]), dlt.asarray(ro), dlt.asarray(a[0]),
              dlt.asarray(a[:1]), dlt.asarray(np.array(1, np.int8)), dlt.zeros((0, 4)),
              dlt.broadcast_to(dlt.asarray(a[:, :1]), (3, 4)), dlt.asarray(a > 5)):
        for shape in ((3, 4), (2, 3, 4), (1, 3, 4), (3, 1), (4,), (5, 1, 4), (1,), (7,), (1, 1),
                      (2**62, 4), (2**60, 1, 4), (2**61, 2**2), (1,) * 64 + (4,), (1,) * 65):
            try:
                want = view(dlt.broadcast_to(x, [np.int64(d) for d in shape]))
            except Exception as e:
                with pytest.raises(type(e), match=re.escape(str(e))):
                    dlt.broadcast_to(x, shape)
            else:
                assert view(dlt.broadcast_to(x, shape)) == want, (x.shape, shape)


def test_unstack_of_a_0d_array_is_an_axis_error():
    with pytest.raises(IndexError, match="out of bounds"):
        dlt.unstack(dlt.asarray(1))
    # in unstack's words, not moveaxis's ("source: axis 5 is out of bounds")
    with pytest.raises(IndexError, match="^unstack: axis 5 is out of bounds for an array of "
                                         "dimension 2$"):
        dlt.unstack(dlt.ones((3, 3)), axis=5)


def test_diffs_commonest_call_answers_as_the_checked_path():
    # diff with int n and axis and no edges is NumPy's own where n is 1 to the axis's length
    # (a NumPy int n takes the checked path): the same arrays, and the same errors
    f = np.array([[1.5, -0.0, np.inf, 2.0], [np.nan, 0.0, -np.inf, 1e308]])
    with np.errstate(all="ignore"):
        arrays = [f, f.astype(np.float32), f[0] + 1j * f[1], np.array([[True, False, False]]),
                  np.array([3, 255, 0], np.uint8), np.array([-128, 127], np.int8), f[:, :0],
                  np.array(1.0), f[0, ::-1]]
        for a in arrays:
            x = dlt.asarray(a)
            for axis in range(-a.ndim - 1, a.ndim + 1):
                for n in (-1, 0, 1, 2, 3, 4, 5, 10**20):
                    alike(lambda: dlt.diff(x, axis=axis, n=n),
                          lambda: dlt.diff(x, axis=np.int64(axis), n=np.int64(min(n, 2**62))),
                          (a, axis, n))


def test_roll_commonest_call_answers_as_the_checked_path():
    # An int shift within int64 and no axis or an int one of x's is NumPy's own roll at once
    # (the checked path: x imported, not yet computed on): the same arrays, the same errors
    f = np.array([[1.5, -0.0, np.inf, 2.0], [np.nan, 0.0, -np.inf, 1e308]])
    with np.errstate(all="ignore"):
        arrays = [f, f.astype(np.float16), f[0] + 1j * f[1], np.array([[True, False, False]]),
                  np.arange(24, dtype=np.uint8).reshape(2, 3, 4), f[:, :0], np.array(1.0),
                  f[0, ::-1], np.broadcast_to(f[0], (3, 4))]
    shifts = [0, 1, -1, 3, -7, 2**62, 2**63 - 1, -2**63 + 1, 2**63, -2**63, 10**30, True,
              np.int64(2), 1.0]
    for a in arrays:
        x = dlt.asarray(a)
        for axis in [None, True, np.int64(0), 2**63, *range(-a.ndim - 1, a.ndim + 1)]:
            for shift in shifts:
                alike(lambda: dlt.roll(x, shift, axis=axis),
                      lambda: dlt.roll(dlt.from_dlpack(P.from_numpy(a)), shift, axis=axis),
                      (a, shift, axis))


def test_axis_views_commonest_calls_answer_as_the_checked_path():
    # An int axis (or two) of a CPU array is NumPy's own squeeze, expand_dims, moveaxis,
    # matrix transpose and flip at once (the checked path: x imported, not yet computed on):
    # the same views (strides, read-only flag), the same errors in the same words
    f = np.arange(24.0).reshape(2, 3, 4)
    ro = f.copy()
    ro.flags.writeable = False
    arrays = [f, f[:1], f[:, :1, ::-2], f[0], ro, np.broadcast_to(f[:1, :1], (1, 1, 4)),
              f[0, 0], np.array(1.0), f[:0], np.ones((1,) * 63, np.int8),
              np.ones((1,) * 64, np.uint8), f.astype(np.complex64)[..., :1]]
    axes = [0, 1, -1, 2, -2, 3, -3, -4, 4, 63, 64, -65, 2**63, True, np.int64(0), 1.0, None,
            (0,)]
    calls = [lambda x, i: dlt.squeeze(x, axis=i), lambda x, i: dlt.expand_dims(x, axis=i),
             lambda x, i: dlt.moveaxis(x, i, 0), lambda x, i: dlt.moveaxis(x, -1, i),
             lambda x, i: dlt.moveaxis(x, i, i), lambda x, i: x.mT,
             lambda x, i: dlt.flip(x, axis=i), lambda x, i: dlt.flip(x)]

    def view(call, x, i):  # (no strides of no elements: an import's are its producer's)
        r = call(x, i)
        strides = np.asarray(r).strides if r.size else ()
        return r, dlt.asarray(np.array(strides, dtype=np.int64)), dlt.asarray(r.read_only), \
            np.array([r.device.device_type, r.device.device_id])

    for a in arrays:
        flags = 0 if a.flags.writeable else P.READ_ONLY
        for device in ((P.CPU, 0), (P.CUDA_HOST, 0)):  # (pinned memory's views keep its label)
            x = dlt.from_dlpack(P.from_numpy(a, flags=flags, device=device))
            np.asarray(x)  # (computed on: the fast paths' where they take it)
            for i in axes:
                for call in calls:
                    alike(lambda: view(call, x, i), lambda: view(call, dlt.from_dlpack(
                        P.from_numpy(a, flags=flags, device=device)), i), (a.shape, i, device))


def test_diff_of_an_order_past_the_axis_is_empty_at_once():
    # NumPy and CuPy difference n times whatever the length: n = 10**20 never returned
    x = dlt.reshape(dlt.arange(12.0), (3, 4))
    assert dlt.diff(x, n=10**20).shape == (3, 0)
    assert dlt.diff(x, axis=0, n=10**20, prepend=dlt.zeros((2, 4))).shape == (0, 4)
    assert dlt.diff(x, n=5, append=dlt.asarray(1.0)).shape == (3, 0)
    # an empty joined axis: still the edges joined and promoted (n clamped to 0 was x itself)
    z = dlt.zeros
    assert dlt.diff(z(0, dtype=dlt.int8), prepend=z(0, dtype=dlt.int64), n=3).dtype == dlt.int64
    with pytest.raises(ValueError):
        dlt.diff(z((0, 3)), axis=0, prepend=z((0, 4)))
    empty = dlt.diff(dlt.broadcast_to(z((1, 0)), (3, 0)), n=2)
    assert empty.shape == (3, 0) and not empty.read_only and np.asarray(empty).flags.writeable
    # one short of the joined length is still one difference
    got = dlt.diff(x, n=4, prepend=dlt.asarray(0.0))
    np.testing.assert_array_equal(np.asarray(got), np.diff(np.asarray(x), n=4, prepend=0.0))


def test_reshape_past_the_largest_array_says_the_shape_given():
    for shape in ([10**19, 1], [3, 10**20]):  # (a tuple: NumPy's own words)
        with pytest.raises(ValueError, match=r"reshape: shape \(.*\) is past the largest"):
            dlt.reshape(dlt.arange(9), shape)


def test_reshape_infers_a_minus_one_only():
    # The spec: "Only one shape dimension must be allowed to be -1"; NumPy and CuPy read any
    # negative extent as -1 (reshape(arange(6), (-2, 3)) was (2, 3)).
    x = dlt.arange(6)
    for shape in ((-2, 3), (-5,), [3, -10**20], -10**20, (-1, -2)):
        for copy in (None, False, True):
            with pytest.raises(ValueError, match=r"negative extent|one unknown dimension"):
                dlt.reshape(x, shape, copy=copy)
    with pytest.raises(ValueError, match=r"\(-100000000000000000000,\)"):  # (its sign kept)
        dlt.reshape(x, -10**20)
    for shape, copy in itertools.product(((2, -1), (-1,), (-1, 1, 3)), (None, False, True)):
        assert dlt.reshape(x, shape, copy=copy).shape == np.arange(6).reshape(shape).shape


def test_join_messages_name_the_inputs_dtypes():
    xs = [dlt.ones(1, dtype=dlt.int8), dlt.ones(1, dtype=dlt.uint8),
          dlt.asarray(np.ones(1, np.uint64))]
    with pytest.raises(TypeError, match="concat: int8, uint8 and uint64 have no promotion") as e:
        dlt.concat(xs)
    assert "int16" not in str(e.value)  # (an intermediate the user never wrote)


def test_broadcasts_and_grids_reach_the_dimensions_capabilities_promise():
    # np.broadcast_arrays (and np.meshgrid through it) stop at 32 dimensions.
    n = dlt.__array_namespace_info__().capabilities()["max dimensions"]
    assert n >= 40
    a, b = dlt.broadcast_arrays(dlt.ones((1,) * 40), dlt.ones((2,) + (1,) * 39))
    assert a.shape == b.shape == (2,) + (1,) * 39
    grids = dlt.meshgrid(*[dlt.ones(1)] * 40)
    assert len(grids) == 40 and grids[0].shape == (1,) * 40


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_matches_numpy_with_fresh_arrays(indexing):
    coords = [np.arange(3.0), np.arange(2.0), np.arange(4.0)]
    xs = [dlt.asarray(c) for c in coords]
    grids = dlt.meshgrid(*xs, indexing=indexing)
    for g, want in zip(grids, np.meshgrid(*coords, indexing=indexing)):
        np.testing.assert_array_equal(np.from_dlpack(g), want)
    grids[0][0, 0, 0] = 9.0  # writable, and not a view of the coordinates
    assert float(xs[0][0]) == 0.0
    assert dlt.meshgrid() == () and dlt.meshgrid(xs[0])[0].shape == (3,)


def test_diff_of_order_0_joins_the_edges_and_checks_the_axis():
    # NumPy returns x itself for n=0: edges left off, any axis taken, x's own memory
    x = dlt.asarray([[1, 2, 3], [4, 5, 6]], dtype=dlt.int32)
    p = dlt.asarray([[7], [7]], dtype=dlt.int32)
    got = dlt.diff(x, n=0, prepend=p, append=p)
    assert np.asarray(got).tolist() == [[7, 1, 2, 3, 7], [7, 4, 5, 6, 7]]
    r = dlt.diff(x, n=0)
    r[0, 0] = 100
    assert int(x[0, 0]) == 1, "a new array, not x's memory"
    for bad in (lambda: dlt.diff(x, n=0, axis=5), lambda: dlt.diff(dlt.asarray(1), n=0),
                lambda: dlt.diff(dlt.asarray(1.0)), lambda: dlt.diff(x, n=0, axis=2),
                lambda: dlt.diff(x, n=0, axis=-3)):
        with pytest.raises(IndexError, match="^diff: axis"):  # (diff's own words, not concat's)
            bad()


@pytest.mark.parametrize("call", [
    lambda x, s: dlt.squeeze(s, None), lambda x, s: dlt.squeeze(s, axis=True),
    lambda x, s: dlt.reshape(x, None), lambda x, s: dlt.permute_dims(x, None),
    lambda x, s: dlt.permute_dims(x[0, :], 0), lambda x, s: dlt.unstack(x, axis=(0,)),
    lambda x, s: dlt.unstack(x, axis=True), lambda x, s: dlt.flip(x, axis=True),
    lambda x, s: dlt.roll(x, 1, axis=True), lambda x, s: dlt.expand_dims(x, axis=False),
    lambda x, s: dlt.moveaxis(x, True, 0), lambda x, s: dlt.moveaxis(x, 0, 1.0),
    lambda x, s: dlt.diff(x, axis=False), lambda x, s: dlt.diff(x, n=True),
    lambda x, s: dlt.repeat(x, 2, axis=True), lambda x, s: dlt.repeat(x, 2, axis=(0,)),
    lambda x, s: dlt.stack([x, x], axis=True), lambda x, s: dlt.stack([x, x], axis=1.0),
    lambda x, s: dlt.concat([x, x], axis=True),
])
def test_axes_are_ints_as_the_spec_types_them(call):
    # NumPy read None as every axis, a bool as 0 or 1, an int as a permutation
    x, s = dlt.ones((2, 3)), dlt.ones((1, 3))
    with pytest.raises(TypeError):
        call(x, s)


def test_repeat_and_roll_refuse_what_the_spec_makes_invalid():
    with pytest.raises(IndexError):  # a 0-d array has no axis 0
        dlt.repeat(dlt.asarray(5), 3, axis=0)
    assert np.asarray(dlt.repeat(dlt.asarray(5), 3)).tolist() == [5, 5, 5]
    x = dlt.reshape(dlt.arange(6), (2, 3))
    for shift, axis in (((1, 2), (0,)), ((1,), (0, 1))):  # (NumPy broadcasts one to the other)
        with pytest.raises(ValueError, match="a shift for each axis"):
            dlt.roll(x, shift, axis=axis)
    assert np.asarray(dlt.roll(x, (1, 1), axis=(0, 1))).tolist() == [[5, 3, 4], [2, 0, 1]]
    assert np.asarray(dlt.flip(x, axis=np.int64(1))).tolist() == [[2, 1, 0], [5, 4, 3]]


@pytest.mark.parametrize("axis", [5, -2, 1])
@pytest.mark.parametrize("count", [2, 2**70, "array"])
def test_repeat_along_an_axis_x_has_not_is_an_axis_error_whatever_the_count(axis, count):
    # (a count past a C long reached NumPy before the axis: its OverflowError)
    x = dlt.asarray(np.arange(3.0))
    repeats = dlt.asarray(np.array([1, 2, 3])) if count == "array" else count
    with pytest.raises(np.exceptions.AxisError, match=f"axis {axis} is out of bounds"):
        dlt.repeat(x, repeats, axis=axis)


def test_no_promotion_with_an_extension_dtype_says_why():
    import ml_dtypes
    b = dlt.asarray(np.ones(2, ml_dtypes.bfloat16))
    with pytest.raises(TypeError, match="bfloat16 is no dtype of its table"):
        dlt.concat([b, dlt.ones(2, dtype=dlt.float32)])


def test_roll_shifts_and_axes_pair_up():
    # The spec: a tuple shift needs a tuple axis of its size (NumPy rolled by the shifts' sum,
    # so roll(x, (1, 2), axis=1) gave x back); axis=() rolls nothing (NumPy's roll of a 0-d
    # array could not unpack no axes: "not enough values to unpack")
    x = dlt.reshape(dlt.arange(6), (2, 3))
    for shift, axis in (((1, 2), None), ((1, 2), 1)):
        with pytest.raises(ValueError, match="tuple of shifts"):
            dlt.roll(x, shift, axis=axis)
    for v in (dlt.asarray(3), x):
        for shift in ((), 1) if v.ndim == 0 else (1,):
            r = dlt.roll(v, shift, axis=())
            assert np.asarray(r).tolist() == np.asarray(v).tolist()
            r[...] = 7  # (a new array)
            assert np.asarray(v).tolist() != np.asarray(r).tolist()


def test_sizes_and_numbers_past_c_integers():
    # NumPy 2.4's repeat by 2**62 crashed the process (its size wrapped to 0); the rest raised
    # OverflowError where a C integer took them (CuPy's sizes wrap silently: see device_cases)
    # (and the count is checked on repeat's axis counted from either end; an axis past the
    # end is NumPy's AxisError, not a result past the largest)
    code = ("import dltensor as dt\n"
            "try:\n    dt.repeat(dt.asarray([1.0, 2.0]), 2**62)\n"
            "except ValueError:\n    print('refused')\n"
            "x = dt.ones((2, 2))\n"
            "try:\n    dt.repeat(x, 2**62, axis=-2)\n"
            "except ValueError as e:\n    print('refused' if 'largest' in str(e) else e)\n"
            "try:\n    dt.repeat(x, 2**62, axis=2)\n"
            "except IndexError as e:\n    print(type(e).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.split() == ["refused", "refused", "AxisError"], \
        done
    # (2**63 bytes and an extent of 2**63 beside a 0: each the first past the largest)
    for reps in ((2**62 + 1, 4), (2**60,), (2**63, 0)):
        with pytest.raises(ValueError, match="past the largest array"):
            dlt.tile(dlt.asarray([1.0]), reps)
    x = dlt.reshape(dlt.arange(6.0), (2, 3))
    assert dlt.linalg.diagonal(x, offset=-2**63).shape == (0,)  # (was OverflowError)
    assert float(dlt.linalg.trace(x, offset=2**40)) == 0.0
    assert math.isnan(float(dlt.var(dlt.asarray([3.0, 4.0]), correction=2**70)))
    assert float(dlt.linalg.vector_norm(dlt.asarray([3.0, 4.0]), ord=2**70)) == math.inf
    for join in (dlt.concat, dlt.stack):
        with pytest.raises(np.exceptions.AxisError):
            join([dlt.asarray([1.0])], axis=2**31)


def test_axes_may_be_lists_of_ints_as_numpy_and_strict_take_them():
    # (the spec types them as tuples; SciPy's xp_swapaxes passes a list to permute_dims)
    x = dlt.asarray(np.arange(6.0).reshape(2, 3))
    assert dlt.permute_dims(x, [1, 0]).shape == (3, 2)
    assert dlt.moveaxis(x, [0], [1]).shape == (3, 2)
    assert dlt.flip(x, axis=[0, 1]).shape == (2, 3)
    assert dlt.expand_dims(x, axis=[0, 3]).shape == (1, 2, 3, 1)
    for bad in ([1.0, 0], [True, 0], [[1], 0]):
        with pytest.raises(TypeError):
            dlt.permute_dims(x, bad)


def test_bounds_of_the_largest_array_are_the_results_not_their_neighbours():
    # A result within the largest array is made: 2**62 one-byte elements (bool), an extent
    # of 2**62 beside a 0 (tile pads the shorter of x's shape and the repetitions with 1s;
    # repeat multiplies only its axis); so are shapes with a 0 extent.
    flag, nothing = dlt.asarray(True), dlt.zeros((0,), dtype=dlt.bool)
    assert dlt.broadcast_to(flag, (2**62,)).shape == (2**62,)
    assert dlt.tile(nothing, (2**62, 1)).shape == (2**62, 0)
    assert dlt.tile(dlt.zeros((2**62, 0), dtype=dlt.bool), (1,)).shape == (2**62, 0)
    assert dlt.repeat(dlt.zeros((2, 0), dtype=dlt.bool), 2**62, axis=1).shape == (2, 0)
    assert dlt.broadcast_shapes((0, 3), (1, 3)) == (0, 3)
    # (repeat's count at its axis's bounds: test_sizes_and_numbers_past_c_integers, run apart)


def test_expand_dims_finds_a_position_repeated_from_either_end():
    # (0, -3) of a 1-d array are the same position of the 3-d result: an invalid axis, the
    # spec's IndexError (NumPy's own check raised a plain ValueError)
    for axis in ((0, -3), (-3, 0), (2, -1)):
        with pytest.raises(IndexError, match="repeated axis"):
            dlt.expand_dims(dlt.zeros(3), axis=axis)


def test_reshape_of_something_not_an_array_or_an_import_not_yet_computed_on():
    with pytest.raises(TypeError, match="takes dltensor arrays"):
        dlt.reshape([1, 2], (2,))
    x = dlt.from_dlpack(P.from_numpy(np.arange(6.0)))
    assert x._array is None  # (a fresh import: the fast path for NumPy arrays is not for it)
    assert dlt.reshape(x, (2, 3)).shape == (2, 3)
    assert np.asarray(dlt.reshape(x, (3, 2)))[2, 1] == 5.0


def test_roll_by_shifts_past_int64_is_by_them_modulo_each_axis():
    # NumPy packs the shifts with numpy.broadcast: float64 for one in [2**63, 2**64) beside
    # another, so (2**63 + 1, 1) shifted axis 0 by 2**63 (0 rows), not by 1
    a = np.arange(6).reshape(2, 3)
    x = dlt.asarray(a)
    for shift, axis in (((2**63 + 1, 1), (0, 1)), ((1, 2**63 + 1), (0, 1)),
                        ((2**64 - 1, -2**70), (0, 1)), (2**63 + 1, (1, 0)), (2**63 + 1, None),
                        ((2**62, 2**62, 1), (1, 1, 0))):  # (CuPy adds 2**62 twice in int64)
        shifts = shift if isinstance(shift, tuple) else (shift,) * (len(axis) if axis else 1)
        expected = np.roll(a.ravel(), shifts[0] % 6).reshape(2, 3) if axis is None else \
            np.roll(a, tuple(s % a.shape[i] for s, i in zip(shifts, axis)), axis=axis)
        assert np.array_equal(np.asarray(dlt.roll(x, shift, axis=axis)), expected)


def test_repeat_of_nothing_flattened_is_empty_whatever_the_count():
    # (NumPy converts the count to a C long: OverflowError for a count past it, though the
    # result has no elements; along an axis the count was already taken as given)
    for count in (2**63, 2**64, dlt.asarray([2**63], dtype=dlt.uint64)):
        r = dlt.repeat(dlt.zeros((0, 3), dtype=dlt.int8), count)
        assert r.shape == (0,) and r.dtype == dlt.int8 and r.device == dlt.zeros(0).device
    assert dlt.repeat(dlt.zeros((0, 3)), 2**63, axis=0).shape == (0, 3)


def test_joins_of_numpy_arrays_of_one_dtype_keep_the_spec_checks():
    # (NumPy's own concat and stack, taken without the general path's checks)
    x = dlt.asarray(np.arange(6.0).reshape(2, 3))
    assert dlt.concat((x, x), axis=-1).shape == (2, 6)
    assert dlt.stack([x, x], axis=-3).shape == (2, 2, 3)
    for call in (lambda: dlt.concat((x, x), axis=2), lambda: dlt.stack((x, x), axis=3),
                 lambda: dlt.stack((x, x), axis=2**40)):
        with pytest.raises(IndexError):
            call()
    with pytest.raises(ValueError, match="zero-dimensional"):
        dlt.concat((dlt.asarray(1.0), dlt.asarray(2.0)))
    big = dlt.asarray(np.broadcast_to(np.zeros(1), (2**59,)))  # (2**62 bytes, a view)
    for join in (dlt.concat, dlt.stack):
        with pytest.raises(ValueError, match="past the largest array"):
            join((big, big))
    pinned = dlt.from_dlpack(P.from_numpy(np.ones(3), device=(P.CUDA_HOST, 0)))
    assert dlt.concat((pinned, pinned)).device == dlt.Device("cpu")
    assert dlt.stack((pinned, dlt.ones(3))).device == dlt.Device("cpu")
    # the same arrays, values, strides and errors as the checked path (an import not yet
    # computed on), for every axis around each array's
    f = np.arange(24.0).reshape(2, 3, 4)
    for a in (f, f[:, ::-1, ::2], f.astype(np.int8), f.astype(np.complex64)[0], f[:, :0],
              np.asarray(f, order="F"), np.array(True)):
        for axis in range(-a.ndim - 2, a.ndim + 2):
            for join in (dlt.concat, dlt.stack):
                b = a[::-1] if a.ndim else a
                alike(lambda: join((dlt.asarray(a), dlt.asarray(b)), axis=axis),
                      lambda: join((dlt.from_dlpack(P.from_numpy(a)),
                                    dlt.from_dlpack(P.from_numpy(b))),
                                   axis=axis),
                      (a.shape, axis, join))
                alike(lambda: join([dlt.asarray(a)] * 3, axis=axis),
                      lambda: join([dlt.from_dlpack(P.from_numpy(a))] * 3, axis=axis),
                      (a.shape, axis, join))


def test_numpys_own_permute_dims_unstack_repeat_and_tile_keep_the_spec_checks():
    # (NumPy's own calls, taken on the CPU without the general path's checks)
    x = dlt.asarray(np.arange(6.0).reshape(2, 3))
    ro = np.arange(6.0).reshape(2, 3)
    ro.flags.writeable = False
    assert dlt.permute_dims(dlt.asarray(ro), (1, 0)).read_only
    assert all(v.read_only for v in dlt.unstack(dlt.asarray(ro), axis=-1))
    for axes, error in (((0, 0), ValueError), ((0, 2), IndexError), ((0, 2**32 + 1), IndexError),
                        ((True, False), TypeError), ((0,), ValueError)):
        with pytest.raises(error):
            dlt.permute_dims(x, axes)
    with pytest.raises(ValueError, match="past the largest array"):
        dlt.repeat(x, 2**61)
    with pytest.raises(ValueError, match="nonnegative"):
        dlt.repeat(x, -1)
    with pytest.raises(TypeError):
        dlt.repeat(x, True)
    with pytest.raises(ValueError, match="past the largest array"):
        dlt.tile(x, (2**31, 2**31))
    assert dlt.tile(x, (2, 0)).shape == (4, 0) and dlt.tile(x, 2).shape == (2, 6)
    pinned = dlt.from_dlpack(P.from_numpy(np.ones((2, 3)), device=(P.CUDA_HOST, 0)))
    assert dlt.permute_dims(pinned, (1, 0)).device == pinned.device
    assert {v.device for v in dlt.unstack(pinned)} == {pinned.device}
    assert dlt.repeat(pinned, 2).device == dlt.tile(pinned, (2,)).device == dlt.Device("cpu")


def test_stack_and_tile_past_64_axes_say_so_as_reshape_and_expand_dims_do():
    # (NumPy's stack raised IndexError, "indexing result would have 65"; its tile spoke of
    # "ndmin must be <= ndmax (64)")
    x, one = dlt.zeros((1,) * 64), dlt.asarray([1])
    for call in (lambda: dlt.stack([x, x]), lambda: dlt.stack([x], axis=-1),
                 lambda: dlt.tile(one, (1,) * 65), lambda: dlt.tile(x, (1,) * 65),
                 lambda: dlt.tile(dlt.zeros(0), (1,) * 65), lambda: dlt.expand_dims(x, axis=0)):
        with pytest.raises(ValueError, match="maximum supported dimension .* 64, found 65"):
            call()
    assert dlt.stack([dlt.zeros((1,) * 63)] * 2).ndim == 64 and dlt.tile(x, (1,) * 64).ndim == 64
