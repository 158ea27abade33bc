"""Views of held memory: slices, transposes, reshapes and broadcasts of arrays dltensor holds
but cannot compute on (memory on Metal, ROCm, Vulkan, CUDA without CuPy; dtypes NumPy lacks).

Each view is checked against the same call on a CPU array over the same memory: the producers
here describe a NumPy array's memory but claim another device, so the held view must start at
the address, and have the shape and strides, of NumPy's own view (held memory is never read).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dltensor as dt
from producers import CUDA, FAKE_POINTER, METAL, ROCM, Producer, from_numpy, tensor_fields

VULKAN = 7
A = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)

# name -> a call that makes a view (or a tuple of views) on CPU arrays, as on held ones
VIEWS = {
    "x[int, ...]": lambda x: x[1, ...],
    "x[int, int, int]": lambda x: x[1, -1, 2],
    "x[slices]": lambda x: x[:, ::-1, 1:3],
    "x[::-2]": lambda x: x[::-2, 1, ::-3],
    "x[None, ...]": lambda x: x[None, ..., 0, None],
    "x[empty]": lambda x: x[:, 3:, :],
    "x.mT": lambda x: x.mT,
    "x.T": lambda x: x[0, ...].T,
    "matrix_transpose": lambda x: dt.matrix_transpose(x),
    "permute_dims": lambda x: dt.permute_dims(x, (2, 0, 1)),
    "permute_dims negative": lambda x: dt.permute_dims(x, (-1, 0, -2)),
    "reshape": lambda x: dt.reshape(x, (6, -1)),
    "reshape copy=False": lambda x: dt.reshape(x, (2, 12), copy=False),
    "reshape of a slice": lambda x: dt.reshape(x[:, :, 1:3], (6, 2)),
    "flip": lambda x: dt.flip(x),
    "flip axis": lambda x: dt.flip(x, axis=(0, -1)),
    "moveaxis": lambda x: dt.moveaxis(x, (0, 1), (-1, 0)),
    "expand_dims": lambda x: dt.expand_dims(x, axis=(0, -1)),
    "squeeze": lambda x: dt.squeeze(x[:1, ...], axis=0),
    "broadcast_to": lambda x: dt.broadcast_to(x[:, :1, :], (5, 2, 3, 4)),
    "broadcast_arrays": lambda x: dt.broadcast_arrays(x, x[:1, ...]),
    "unstack": lambda x: dt.unstack(x, axis=1),
    "unstack of 0 items": lambda x: dt.unstack(x[:, :0, :], axis=1),
}

# name -> a call the CPU refuses, with the error class both refuse it with
BAD_CALLS = {
    "index past the end": (lambda x: x[2, ...], IndexError),
    "too many indices": (lambda x: x[0, 0, 0, 0], IndexError),
    "a float index": (lambda x: x[0.5, ...], IndexError),
    "permute_dims not a permutation": (lambda x: dt.permute_dims(x, (0, 0, 1)), ValueError),
    "permute_dims too few": (lambda x: dt.permute_dims(x, (0, 1)), ValueError),
    "squeeze of length 2": (lambda x: dt.squeeze(x, axis=0), ValueError),
    "squeeze of 0-d": (lambda x: dt.squeeze(x[0, 0, 0], axis=0), IndexError),
    "expand_dims repeated": (lambda x: dt.expand_dims(x, axis=(0, 0)), IndexError),
    "flip axis 3": (lambda x: dt.flip(x, axis=3), IndexError),
    "reshape to 7 elements": (lambda x: dt.reshape(x, (7,)), ValueError),
    "reshape no view, copy=False": (lambda x: dt.reshape(x.mT, (24,), copy=False), ValueError),
    "reshape by floats": (lambda x: dt.reshape(x, (6.0, 4)), TypeError),
    "reshape to 7, copy=True": (lambda x: dt.reshape(x, (7,), copy=True), ValueError),
    "reshape by floats, copy=True": (lambda x: dt.reshape(x, (6.0, 4), copy=True), TypeError),
    "setitem past the end": (lambda x: x.__setitem__((0, 3, 0), 1.0), IndexError),
    "setitem by a float": (lambda x: x.__setitem__((0, 0.5, 0), 1.0), IndexError),
    "setitem of a str": (lambda x: x.__setitem__((0, 0, 0), "s"), TypeError),
    "setitem of a complex": (lambda x: x.__setitem__((0, 0, 0), 1j), TypeError),
    "broadcast_to smaller": (lambda x: dt.broadcast_to(x, (3, 4)), ValueError),
    "moveaxis out of range": (lambda x: dt.moveaxis(x, 5, 0), IndexError),
    "unstack axis 3": (lambda x: dt.unstack(x, axis=3), IndexError),
    "matrix_transpose of 1-D": (lambda x: dt.matrix_transpose(x[0, 0, ...]), ValueError),
    "permute_dims out=": (lambda x: dt.permute_dims(x, (0, 1, 2), out=None), TypeError),
}

HELD = [(METAL, 0), (ROCM, 1), (VULKAN, 0), (CUDA, 0)]  # (CUDA: held where CuPy is absent)


def _held(a: np.ndarray, device, **fields) -> dt.ndarray:
    """An array of ``a``'s memory that claims to be on ``device`` (never read there)."""
    return dt.from_dlpack(from_numpy(a, device=device, **fields))


def _as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


@pytest.fixture(params=HELD, ids=lambda d: str(dt.Device(*d)))
def device(request):  # (CuPy is hidden from these tests: conftest.py)
    return request.param


@pytest.mark.parametrize("name", VIEWS)
@pytest.mark.parametrize("dtype", ["float32", "bool", "complex128", "uint8", "int16"])
def test_a_held_view_is_numpys_view_of_the_same_memory(name, dtype, device):
    a = A.astype(dtype)
    a = a if dtype != "int16" else np.asfortranarray(a)  # (other strides)
    start = a.__array_interface__["data"][0]
    # (int16: a producer whose data pointer is before element 0, by a byte_offset)
    offset = 16 if dtype == "int16" else 0
    x, c = _held(a, device, data=start - offset, byte_offset=offset), dt.asarray(a)
    try:
        cpu = _as_tuple(VIEWS[name](c))
    except ValueError as e:  # (reshape(copy=False) of Fortran-ordered memory)
        with pytest.raises(type(e)):
            VIEWS[name](x)
        return
    if any(n.size and not np.shares_memory(n._compute(), a) for n in cpu):
        # NumPy copies (a reshape of Fortran-ordered memory): a read, refused on held memory
        with pytest.raises(RuntimeError, match="cannot compute on device"):
            VIEWS[name](x)
        return
    held = _as_tuple(VIEWS[name](x))
    assert len(held) == len(cpu)
    for h, n in zip(held, cpu):
        assert type(h) is dt.ndarray and h.device == x.device and h.dtype == n.dtype
        assert h.shape == n.shape
        if n.size:  # (an empty array's strides address nothing: the stand-in's are compact)
            assert h.strides == n.strides
            assert h.data_ptr == n.data_ptr  # (the CPU array's memory is the held one's)
        assert h.read_only == n.read_only
        # the export: the producer's data pointer (on some devices a handle, not an address),
        # the view's start in byte_offset
        f = tensor_fields(h.__dlpack__(max_version=(1, 0)))
        assert f["data"] == start - offset and f["data"] + f["byte_offset"] == h.data_ptr
        assert f["shape"] == h.shape and f["device"] == device


@pytest.mark.parametrize("name", BAD_CALLS)
def test_a_held_view_refuses_what_the_cpu_refuses(name, device):
    call, error = BAD_CALLS[name]
    try:
        call(dt.asarray(A))
    except error as e:
        on_cpu = type(e)  # (the class only: an exception kept holds its frames in a cycle)
    else:
        raise AssertionError("the CPU took it")
    with pytest.raises(on_cpu):
        call(_held(A, device))


@pytest.mark.parametrize("call, error", [
    (lambda x: dt.reshape(x.mT, (24,)), RuntimeError),  # no view has the shape: a copy
    (lambda x: dt.reshape(x, (24,), copy=True), RuntimeError),
    (lambda x: dt.flip(x) + 1, RuntimeError),
    (lambda x: x[0, ...].__setitem__((0, 0), 1.0), RuntimeError),
    (lambda x: dt.asarray(x[0, ...], copy=True), BufferError),  # (asarray's error for a copy)
])
def test_what_reads_or_writes_held_memory_still_refuses(call, error):
    with pytest.raises(error, match="metal:0"):
        call(_held(A, (METAL, 0)))


def test_views_of_memory_packed_below_a_byte_refuse():
    # float4_e2m1fn (DLPack code 17), two to a byte: strides in elements cannot say where a
    # view starting mid-byte would start
    x = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(4, 4),
                                dtype=(17, 4, 1), strides=(4, 1)))
    with pytest.raises(RuntimeError, match="metal:0"):
        x[1, ...]
    with pytest.raises(RuntimeError, match="metal:0"):
        x.mT


def test_iterating_memory_packed_below_a_byte_with_no_rows_is_empty():
    # (int4 of shape (0,) refused iteration, NoBackendError, where float32's gave []: there
    # is no row to describe; rows packed below a byte are still refused, as x[i, ...] is)
    for dtype in ((0, 4, 1), (17, 4, 1), (1, 1, 1), (2, 32, 1)):
        for shape in ((0,), (0, 3)):
            x = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=shape,
                                        dtype=dtype))
            assert list(x) == [] and list(reversed(x)) == [] and len(x) == 0, (dtype, shape)
    x = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(2,),
                                dtype=(0, 4, 1)))
    for call in (list, lambda x: list(reversed(x))):
        with pytest.raises(RuntimeError, match="metal:0"):
            call(x)


def test_views_keep_the_producers_tensor_until_the_last_is_gone(leak_accounting):
    p = from_numpy(A, device=(METAL, 0))
    x = dt.from_dlpack(p)
    views = [x[1, ...], x.mT, dt.reshape(x, (24,)), *dt.unstack(x)]
    deeper = views[0][::-1, None, ...]  # (a view of a view)
    del x, views
    assert p.deleter_calls == 0
    capsule = deeper.__dlpack__(max_version=(1, 0))
    del deeper
    assert p.deleter_calls == 0  # (the export keeps it)
    del capsule
    assert p.deleter_calls == 1


def test_read_only_memory_gives_read_only_views_and_a_broadcast_is_read_only():
    ro = _held(A, (METAL, 0), flags=1)  # READ_ONLY
    v = ro[0, ...]
    assert v.read_only and dt.permute_dims(ro, (1, 0, 2)).read_only
    with pytest.raises(ValueError, match="read-only"):
        v[0, 0] = 1.0
    b = dt.broadcast_to(_held(A, (METAL, 0)), (2, 2, 3, 4))
    assert b.read_only and not _held(A, (METAL, 0))[0, ...].read_only
    with pytest.raises(ValueError, match="read-only .*broadcast"):
        b[0, 0, 0, 0] = 1.0


def test_a_view_before_the_producers_pointer_cannot_be_described():
    # A producer's tensor with a negative stride, element 0 at data + byte_offset: reversed,
    # its first element lies before that, which DLPack's unsigned byte_offset cannot say.
    buf = np.arange(3, dtype=np.float32)
    x = dt.from_dlpack(Producer(buffer=buf, data=buf.__array_interface__["data"][0] + 8,
                                device=(METAL, 0), shape=(3,), strides=(-1,),
                                dtype=(2, 32, 1)))
    assert x[:2, ...].shape == (2,) and x[:2, ...].data_ptr == x.data_ptr  # (from element 0)
    for key in (slice(1, None), slice(None, None, -1)):
        with pytest.raises(BufferError, match=f"{(1 + (key.step == -1)) * 4} bytes before.*"
                                              "kDLMetal .*handle"):
            x[key, ...]


@pytest.mark.parametrize("device", [2, 3, 10, 11, 13, 14])  # CUDA, ROCm, their host, oneAPI
def test_a_view_before_the_producers_pointer_moves_it_where_it_is_an_address(device):
    # CuPy (and CuPy on ROCm) exports x[::-1] with data at element 0, negative strides and
    # byte_offset 0: its slices, reversals, iteration were refused, as on Metal (a handle).
    buf = np.arange(4, dtype=np.float32)
    base = buf.__array_interface__["data"][0]
    x = dt.from_dlpack(Producer(buffer=buf, data=base + 12, device=(device, 0), shape=(4,),
                                strides=(-1,), dtype=(2, 32, 1)))
    for v, first in ((x[1:], 8), (x[3], 0), (x[-1], 0), (dt.flip(x), 0), (x[::-2], 0)):
        assert v.data_ptr == base + first
        f = tensor_fields(v.__dlpack__(max_version=(1, 0)))
        assert f["data"] == base + first and f["byte_offset"] == 0
    assert [e.data_ptr - base for e in x] == [12, 8, 4, 0]
    if device in (3, 13):  # (host memory: NumPy reads it, so the values can be checked)
        assert np.asarray(dt.flip(x)).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_view_of_held_cuda_memory_keeps_the_producers_stream():
    from test_devices import _CAI  # (an object offering only __cuda_array_interface__)
    x = dt.asarray(_CAI(FAKE_POINTER, (3, 4), "<f4", stream=0xBEEF))
    v = x[1:, ::2]
    cai = v.__cuda_array_interface__
    assert cai["stream"] == 0xBEEF and cai["shape"] == (2, 2) and cai["strides"] == (16, 8)
    assert cai["data"][0] == FAKE_POINTER + 16


def test_inspect_and_hasattr_work_on_held_arrays():
    import inspect
    x = _held(A[0], (METAL, 0))
    assert hasattr(x, "T") and hasattr(x, "mT") and inspect.getmembers(x)


@pytest.mark.parametrize("call", [
    lambda x: dt.flip(x[0, 0, 0]),            # NumPy's flip of 0-d is s[()]: a NumPy scalar
    lambda x: dt.flip(x[0, 0, 0], axis=()),
    lambda x: dt.unstack(x[0, 0, ...]),       # NumPy's unstack of 1-D iterates: scalars
    lambda x: x[0, 0, 0][()],
], ids=["flip 0-d", "flip 0-d axis=()", "unstack 1-D", "x[()] of 0-d"])
def test_where_numpy_would_read_an_element_into_a_scalar_the_view_is_0_d(call):
    # NumPy fills a scalar by reading the element: on the stand-in, at an address nothing is
    # mapped at, a segmentation fault (it was, for flip and unstack). The CPU's results are
    # 0-d copies; held memory's are 0-d views of the same elements.
    x = _held(A, (METAL, 0))
    held, cpu = _as_tuple(call(x)), _as_tuple(call(dt.asarray(A)))
    assert [h.shape for h in held] == [c.shape for c in cpu]
    assert all(h.device == x.device and h._tensor.base is x._tensor for h in held)
    ends = [x.data_ptr + 4 * i for i in range(A.size)]
    assert all(h.data_ptr in ends for h in held)


def test_index_arrays_on_a_held_dtype_refuse_as_computing_on_it_does():
    # CPU memory of a dtype NumPy has not (an opaque handle): held there, so index arrays and
    # masks (which read their indices) meet the dtype's refusal, not an ambiguous truth value
    buf = np.zeros(4, np.uint64)
    x = dt.from_dlpack(Producer(buffer=buf, shape=(4,), strides=(1,), dtype=(3, 64, 1)))
    assert x[1:3].shape == (2,) and x[1:3].data_ptr == x.data_ptr + 8
    for key in (dt.asarray([True, False, True, False]), dt.asarray([0, 2])):
        with pytest.raises(TypeError, match="cannot compute on dtype opaquehandle64"):
            x[key]
    with pytest.raises(TypeError, match="cannot compute"):  # (no elements selected: NumPy
        dt.reshape(x, (2, 2))[dt.asarray([], dtype=dt.int64), dt.asarray([5])]  # checks none)
    # (a 0-d index array is an int, as the spec says: read on the CPU, a view of held memory)
    for key in (dt.asarray(1), (dt.asarray(-3), ...)):
        assert x[key].shape == () and x[key].data_ptr == x.data_ptr + 8


def test_a_view_whose_start_wraps_around_the_address_space_cannot_be_described():
    # a producer's stride of -(2**59 + 2**58) elements: element 1 is 2**62 + 2**61 bytes
    # before element 0, past the stand-in's address, where NumPy's arithmetic wraps
    x = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(2,),
                                strides=(-(2**59 + 2**58),), dtype=(2, 64, 1)))
    with pytest.raises(BufferError, match="before"):
        x[1:]
    y = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(2,),
                                strides=(2**59,), dtype=(2, 64, 1), byte_offset=2**62))
    with pytest.raises(BufferError, match="past"):
        y[1:]


# --- random chains of views ---------------------------------------------------------------------

def _root(a: np.ndarray) -> np.ndarray:
    """The NumPy array owning ``a``'s memory (its base's base ...)."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def _axis(draw, ndim):
    return draw(st.integers(-ndim - 1, ndim))  # (one past each end: invalid)


@st.composite
def _view_op(draw, shape):
    """One view call for an array of ``shape`` (its arguments valid or not), as a function."""
    n = len(shape)
    kind = draw(st.sampled_from(["getitem", "getitem", "permute_dims", "moveaxis", "flip",
                                 "expand_dims", "squeeze", "unstack", "broadcast_to",
                                 "reshape", "mT"]))
    if kind == "getitem":
        parts = [draw(st.one_of(st.integers(-d - 1, d), st.none(),
                                st.builds(slice, st.none() | st.integers(-d - 2, d + 2),
                                          st.none() | st.integers(-d - 2, d + 2),
                                          st.none() | st.sampled_from([1, 2, -1, -3]))))
                 for d in shape[:draw(st.integers(0, n))]]
        if draw(st.booleans()):
            parts.insert(draw(st.integers(0, len(parts))), Ellipsis)
        key = tuple(parts)
        return lambda x: x[key]
    if kind == "permute_dims":
        axes = tuple(draw(st.permutations(range(n)))) if draw(st.integers(0, 9)) else (0,) * n
        return lambda x: dt.permute_dims(x, axes)
    if kind == "moveaxis":
        src, dst = _axis(draw, n), _axis(draw, n)
        return lambda x: dt.moveaxis(x, src, dst)
    if kind == "flip":
        axis = draw(st.none() | st.integers(-n - 1, n) | st.just(()))
        return lambda x: dt.flip(x, axis=axis)
    if kind == "expand_dims":
        axis = _axis(draw, n + 1)
        return lambda x: dt.expand_dims(x, axis=axis)
    if kind == "squeeze":
        axis = _axis(draw, n)
        return lambda x: dt.squeeze(x, axis=axis)
    if kind == "unstack":
        axis = _axis(draw, n)
        return lambda x: dt.unstack(x, axis=axis)[-1] if x.shape[axis:][:1] != (0,) else x
    if kind == "broadcast_to":
        new = tuple(draw(st.sampled_from([1, 2])) if d == 1 else d for d in shape)
        new = tuple(draw(st.lists(st.integers(0, 2), max_size=2))) + new
        return lambda x: dt.broadcast_to(x, new)
    if kind == "reshape":
        size = int(np.prod(shape))
        new = draw(st.sampled_from([(-1,), (size, 1), (1, -1), (size + 1,), (2, -1), ()]))
        copy = draw(st.sampled_from([None, False, True]))
        return lambda x: dt.reshape(x, new, copy=copy)
    return lambda x: x.mT


@settings(max_examples=int(os.environ.get("DLTENSOR_FUZZ_EXAMPLES", "300")), deadline=None,
          database=None)
@given(data=st.data(), shape=st.lists(st.integers(0, 3), max_size=4),
       dtype=st.sampled_from(["bool", "uint8", "int16", "float32", "complex128"]),
       layout=st.sampled_from(["C", "F", "stepped", "reversed"]))
def test_random_chains_of_views_match_the_cpu(data, shape, dtype, layout):
    base = np.arange(2 * 2 ** len(shape) * int(np.prod(shape))).astype(dtype)
    base = base.reshape([2, *(2 * d for d in shape)])
    n = len(shape)
    a = {"C": np.ascontiguousarray(base[(0, *(slice(d) for d in shape), ...)]),
         "F": np.asfortranarray(base[(0, *(slice(d) for d in shape), ...)]),
         "stepped": base[(1, *(slice(None, None, 2),) * n, ...)],
         "reversed": base[(1, *(slice(None, None, -2),) * n, ...)]}[layout]
    p = from_numpy(a, device=(METAL, 0))
    x, c = dt.from_dlpack(p), dt.asarray(a)
    p_tensor = x._tensor
    for _ in range(data.draw(st.integers(1, 3))):
        op = data.draw(_view_op(c.shape))
        try:
            c2 = op(c)
        except Exception as e:  # the same class on held memory
            with pytest.raises(type(e)):
                op(x)
            return
        copied = _root(c2._compute()) is not _root(a)  # (shares_memory: False when empty)
        try:
            x2 = op(x)
        except BufferError:  # a negative-stride source's view starting before its pointer
            assert layout == "reversed"
            return
        except RuntimeError:  # a read: where the CPU copied
            assert copied
            return
        if copied:  # NumPy's 0-d copy of one element (flip of 0-d): held memory's 0-d view
            assert x2.shape == c2.shape == () and x2._tensor.base is p_tensor
            return
        assert (x2.shape, x2.read_only, x2.dtype) == (c2.shape, c2.read_only, c2.dtype)
        # (an empty array's strides address nothing: the stand-in's are compact)
        assert x2.size == 0 or (x2.strides, x2.data_ptr) == (c2.strides, c2.data_ptr)
        x, c = x2, c2


def test_an_empty_tensors_strides_may_be_any_int64():
    # (its strides address nothing: the stand-in takes compact ones, as the CPU's view does)
    x = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(0, 2),
                                strides=(1 << 62, 1), dtype=(2, 32, 1)))
    assert x[...].shape == (0, 2) and dt.permute_dims(x, (1, 0)).shape == (2, 0)


def _outcome(call, arg):
    """The class of what ``call(arg)`` raises; None if it returns."""
    try:
        call(arg)
    except Exception as e:
        return type(e)
    return None


def test_badly_formed_keys_and_values_get_the_cpus_error_before_any_refusal(device):
    # Held index arrays were read (NoBackendError) before the key's form was checked; a value
    # array was read before its shape, an int before its conversion.
    def write(k, v):
        def f(x):
            x[k(x) if callable(k) else k] = v(x) if callable(v) else v
        return f

    cases = [
        lambda x: x[_like(x, np.ones((2, 3, 1), bool))],      # a mask of too many axes
        lambda x: x[_like(x, np.array([0]))],                 # one index array for two axes
        lambda x: x[_like(x, np.array([0])), None, 0],        # apart from its int
        lambda x: x[_like(x, np.array([0], np.float32)), 0],  # a float index array
        lambda x: x[:, _like(x, np.ones(2, bool))],           # a mask of another shape
        write(lambda x: (slice(None), _like(x, np.ones(4, bool))), 1.0),  # ... and set
        write(Ellipsis, lambda x: _like(x, np.ones(2))),      # does not broadcast
        write((0, ...), lambda x: _like(x, np.ones((1, 3)))),  # one leading 1 too many
        write((0, 0), 2 ** 1100),                             # past float32
        write((0, 0), 1j),                                    # no promotion
        write((0, 0), lambda x: _like(x, np.ones((), np.float64))),  # none either
        lambda x: x[[True, False, True]],                     # a lone mask of another shape
        lambda x: x[_like(x, np.ones(3, bool))],              # ... held
        lambda x: x[9, _like(x, np.array([0]))],              # an int out of bounds beside
        write(lambda x: (9, _like(x, np.array([0]))), 1.0),   # ... and set
        lambda x: x[_like(x, np.array([0, 1])), _like(x, np.array([0, 1, 2]))],  # no broadcast
        write((-8, 0), 1j),                                   # the value's dtype, then bounds
        write(lambda x: (9, _like(x, np.array([0]))), 1j),    # ... beside an index array
        write(lambda x: (_like(x, np.array([5])), 0), 1j),    # ... of an index array
        write(lambda x: (_like(x, np.array([0])), 0), 1j),    # ... before refusing to compute
        write(lambda x: (_like(x, np.array([0])), 0), 2 ** 1100),
        write(True, 1j),                                      # a lone bool's (its 0-d mask
        write(np.False_, "s"),                                # was made on x's device)
        write(True, lambda x: _like(x, np.ones((), np.float64))),
        write(([0, 1], 0), lambda x: _like(x, np.ones(3, np.float32))),  # a gather's shape,
        write(lambda x: (_like(x, np.array([1, 0])), ...),                # told by the key's
              lambda x: _like(x, np.ones((2, 2, 3), np.float32))),        # shapes
        write(True, lambda x: _like(x, np.ones(4, np.float32))),
        write(([True, False],), lambda x: _like(x, np.ones((2, 3), np.float32))),
        write(([True, False, True],), 1j),  # the value's dtype before a mask's shape and the
        write(lambda x: (_like(x, np.array([0, 1])), [0, 1, 2]), "s"),  # arrays' broadcast
        write((True,), 2 ** 1100),  # (a sole bool in a tuple too)
        write(lambda x: _like(x, np.ones(3, bool)), "s"),
        write(([0, 1, 1], []), True),
        write(lambda x: (_like(x, np.array([0, 1, 1])), _like(x, np.array([0, 1]))), 2 ** 1100),
        write(lambda x: (9, _like(x, np.array([0]))),        # an int out of bounds beside
              lambda x: _like(x, np.ones(2, np.float32))),  # index arrays before the value's
        write(([0], 5), lambda x: _like(x, np.ones(2, np.float32))),  # shape, as NumPy
        write(([True, False, True],),                          # a lone mask's shape before
              lambda x: _like(x, np.ones((2, 2, 3), np.float32))),  # a value of more axes
        write(([True, False], slice(1, None)),                # a mask beside a slice: the
              lambda x: _like(x, np.ones(5, np.float32))),  # value's shape (its count told)
        write(([[True, False, True], [True, True, False]], ...),  # a 2-D one, two axes
              lambda x: _like(x, np.ones(3, np.float32))),
        write(([True, True], [0, 1, 2]), 1.0),                # its count does not broadcast
    ]
    cpu = dt.asarray(np.zeros((2, 3), np.float32))
    h = _held(np.zeros((2, 3), np.float32), device)
    for f in cases:
        want = _outcome(f, cpu)
        assert want is not None and not issubclass(want, RuntimeError)
        assert _outcome(f, h) is want
    # and good ones are refused as compute
    for f in (lambda x: x[_like(x, np.array([0, 1])), 0], write((0, ...), 1.0),
              lambda x: x[:, _like(x, np.array([True, False, True]))],
              write((0, ...), lambda x: _like(x, np.ones(3, np.float32))),
              write(([0, 1], 0), lambda x: _like(x, np.ones(2, np.float32))),
              write(([True, False],), lambda x: _like(x, np.ones(3, np.float32))),
              write(True, 1.0), lambda x: x[True],
              write(([True, False], slice(1, None)), lambda x: _like(x, np.ones(2, np.float32))),
              write(([[True, False, True], [True, True, False]], ...),
                    lambda x: _like(x, np.ones(4, np.float32)))):
        assert _outcome(f, cpu) is None
        assert issubclass(_outcome(f, h), RuntimeError)


def test_a_0d_mask_into_0d_held_memory_is_checked_without_an_axis(device):
    # (the bounds check read x.shape[0] for the mask's place: IndexError 'tuple index out of
    # range', where a good key is refused as compute and a bad value as on the CPU)
    x = _held(np.zeros((), np.float32), device)
    for m in (_held(np.zeros((), bool), device), _held(np.ones((), bool), device)):
        for f in (lambda: x[m], lambda: x.__setitem__(m, 1.0), lambda: x.__setitem__((m,), 1.0)):
            with pytest.raises(RuntimeError):
                f()
        with pytest.raises(TypeError):
            x[m] = 1j
    i4 = dt.from_dlpack(Producer(data=FAKE_POINTER, shape=(), strides=(), dtype=(0, 4, 1)))
    with pytest.raises(TypeError, match="cannot compute on dtype int4"):  # (held on the CPU)
        i4[dt.asarray(True)]


@pytest.mark.parametrize("key, words", [
    (([0, 2], Ellipsis), "index 2 is out of bounds"),  # (the axis's length itself)
    (([0, -3], Ellipsis), "index -3 is out of bounds"),
    ((slice(None), [1, 4]), "index 4 is out of bounds"),  # (beside a slice: an AttributeError)
    (([1], 3), "index 3 is out of bounds"),  # (an int beside)
    (([1], -4), "index -4 is out of bounds")])
def test_lists_out_of_bounds_into_held_memory_are_the_cpus_index_error(key, words, device):
    # A list is an index array made on the CPU for held memory, so its indices (and the ints
    # beside it) are checked there before the refusal to compute on the memory itself.
    cpu = dt.asarray(np.zeros((2, 3), np.float32))
    h = _held(np.zeros((2, 3), np.float32), device)
    for x in (cpu, h):
        with pytest.raises(IndexError, match=words):
            x[key]
    for key in (([1, -2], ...), (slice(None), [0, 2]), ([1], -3)):  # (in bounds: refused as
        with pytest.raises(RuntimeError, match="cannot compute"):  # computing on the memory)
            h[key]


def _like(x, a):
    """``a`` on x's device: held where x is."""
    return dt.asarray(a) if x.device == dt.Device(1, 0) else _held(a, tuple(x.__dlpack_device__()))


def test_keys_into_memory_packed_below_a_byte_are_checked_too():
    p = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(4, 4),
                                dtype=(17, 4, 1), strides=(4, 1)))  # float4_e2m1fn
    for bad, error in (((10, 0), IndexError), ((0, 0, 0), IndexError), ((slice(None, None, 0), 0),
                                                                         ValueError)):
        with pytest.raises(error):
            p[bad]
    with pytest.raises(RuntimeError, match="metal"):
        p[1, 0]


# Calls whose arguments are wrong whatever memory they name: on (small) held memory the CPU's
# error (most were NoBackendError: the refusal came before the arguments were looked at).
_Z = np.zeros
BAD_ARGUMENTS = {
    "sum axis": lambda m: dt.sum(m(_Z((2, 3), np.float32)), axis=5),
    "std axis": lambda m: dt.std(m(_Z((2, 3), np.float32)), axis=5),
    "cumulative_sum axis": lambda m: dt.cumulative_sum(m(_Z((2, 3), np.float32)), axis=2),
    "trace to bfloat16 of a float offset": lambda m: dt.linalg.trace(
        m(_Z((3, 3), np.float32)), offset=1.5, dtype=dt.bfloat16),
    "repeat by int64 counts of another length": lambda m: dt.repeat(
        m(_Z(3)), m(_Z(2, np.int64)), axis=0),
    "cumulative_sum of 0-d axis": lambda m: dt.cumulative_sum(m(_Z((), np.float32)), axis=3),
    "cumulative_prod of 0-d flag": lambda m: dt.cumulative_prod(m(_Z((), np.float32)),
                                                                include_initial="yes"),
    "argmax axis": lambda m: dt.argmax(m(_Z((2, 3))), axis=2),
    "sort axis": lambda m: dt.sort(m(_Z((2, 3))), axis=3),
    "negative of bool": lambda m: -m(_Z(3, bool)),
    "exp of int": lambda m: dt.exp(m(_Z(3, np.int64))),
    "int + float": lambda m: m(_Z(3, np.int64)) + 1.5,
    "shapes that do not broadcast": lambda m: m(_Z((2, 3))) + m(_Z(4)),
    "in-place dtype change": lambda m: m(_Z(3, np.float32)).__iadd__(1j),
    "matmul shapes": lambda m: m(_Z((2, 3))) @ m(_Z((2, 3))),
    "inv of ints": lambda m: dt.linalg.inv(m(_Z((2, 2), np.int64))),
    "concat shapes": lambda m: dt.concat([m(_Z((2, 3))), m(_Z((2, 4)))], axis=0),
    "stack shapes": lambda m: dt.stack([m(_Z(3)), m(_Z(4))]),
    "fft of reals": lambda m: dt.fft.fft(m(_Z(3))),
    "searchsorted of 2-D": lambda m: dt.searchsorted(m(_Z((2, 2))), m(_Z(3))),
    "take with floats": lambda m: dt.take(m(_Z(3)), m(_Z(2))),
    "an int past int8": lambda m: m(_Z(3, np.int8)) + 300,  # (OverflowError: was refused)
    # (these seven were refused before their arguments were looked at, 2026-11-27)
    "diff axis": lambda m: dt.diff(m(_Z((2, 3))), axis=7),
    "vector_norm of nothing, axis": lambda m: dt.linalg.vector_norm(m(_Z((0, 3))), axis=7),
    "where of bool and int": lambda m: dt.where(m(_Z(3, bool)), m(_Z(3, bool)), 2),
    "in-place matmul shape": lambda m: m(_Z((2, 3))).__imatmul__(m(_Z((3, 2)))),
    "operator.index of a float": lambda m: m(_Z((), np.float32)).__index__(),
    "float of a complex": lambda m: float(m(_Z((), np.complex64))),
    "int of a complex": lambda m: int(m(_Z((), np.complex64))),
    # (an axis past a C int: max's counted as a large int, refused; the views' NumPy's
    # OverflowError or ValueError, where the CPU's is AxisError)
    "max axis past a C int": lambda m: dt.max(m(_Z((2, 3))), axis=2**31),
    "argmin axis past a C int": lambda m: dt.argmin(m(_Z((2, 3))), axis=-2**31 - 1),
    "flip axis past a C int": lambda m: dt.flip(m(_Z((2, 3))), axis=2**32 + 1),
    "squeeze axis past a C int": lambda m: dt.squeeze(m(_Z((1, 3))), 2**31),
    "moveaxis past a C int": lambda m: dt.moveaxis(m(_Z((2, 3))), 0, 2**63),
    "take_along_axis axis": lambda m: dt.take_along_axis(m(_Z((2, 3))), m(_Z((2, 1), np.int64)),
                                                         axis=5),
    "take_along_axis of 0-d": lambda m: dt.take_along_axis(m(_Z(())), m(_Z((), np.int64)),
                                                           axis=0),
    "take_along_axis axis past a C int": lambda m: dt.take_along_axis(
        m(_Z((2, 3))), m(_Z((2, 1), np.int64)), axis=2**31),
    # at the check's bounds, checked (each past them by one: PAST_THE_CHECK below)
    "sum axis at the checked size": lambda m: dt.sum(m(_Z(2**10, np.float32)), axis=1),
    "repeat at the checked bound": lambda m: dt.repeat(m(_Z(1)), 2**20, axis=1),
    "repeat at the bound by shape": lambda m: dt.repeat(m(_Z(2**10)), 2**10, axis=1),
    "roll at the checked bound": lambda m: dt.roll(m(_Z(1)), 2**20, axis=1),
    "two ranks at the bound": lambda m: dt.repeat(m(_Z((1, 1))), m(np.ones(1, np.int64)),
                                                  axis=2**20),
}
# The same calls past the check's bounds: refused as they are, whatever the CPU would say.
PAST_THE_CHECK = {
    "sum axis": lambda m: dt.sum(m(_Z(2**10 + 1, np.float32)), axis=1),
    # (repeat's axis is checked before its count: repeat(x, 2**20 + 1, axis=1) of 1-D x is
    # the AxisError on any device)
    "roll": lambda m: dt.roll(m(_Z(1)), 2**20 + 1, axis=1),
    "two ranks": lambda m: dt.repeat(m(_Z((1, 1))), m(np.ones(1, np.int64)), axis=2**20 + 1),
}
_Point = __import__("collections").namedtuple("_Point", "a b")
# Calls the CPU check must not misjudge: values (zeros are singular), sizes past the checked
# ones (2**10 elements: no check, so no stand-in cut down to a wrong size), results a check
# would make large (it would take seconds and gigabytes), sequences of other types.
GOOD_ARGUMENTS = {
    "inv of the identity": lambda m: dt.linalg.inv(m(np.eye(3))),
    "solve": lambda m: dt.linalg.solve(m(np.eye(3)), m(np.ones(3))),
    "matmul past the checked size": lambda m: m(_Z((300, 300))) @ m(_Z(300)),
    "concat past the checked size": lambda m: dt.concat([m(_Z((700, 2))), m(_Z((5, 2)))]),
    "broadcast to a large result": lambda m: m(_Z((1000, 1))) + m(_Z((1, 1000))),
    "repeat many times": lambda m: dt.repeat(m(_Z(10)), 5000),  # (a count past 2**10)
    "concat of a namedtuple": lambda m: dt.concat(_Point(m(_Z(3)), m(_Z(2)))),
    "sum": lambda m: dt.sum(m(_Z((2, 3)))), "add": lambda m: m(_Z(3)) + 1,
    "in-place add": lambda m: m(_Z(3)).__iadd__(1.0), "exp": lambda m: dt.exp(m(_Z(3))),
    "concat": lambda m: dt.concat([m(_Z(3)), m(_Z(2))]), "std": lambda m: dt.std(m(_Z(3))),
    "searchsorted": lambda m: dt.searchsorted(m(_Z(3)), m(_Z(2))),
}


@pytest.mark.parametrize("call", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_bad_arguments_get_the_cpus_error_on_held_memory_too(call, device):
    cpu = _outcome(call, dt.asarray)
    assert cpu is not None and not issubclass(cpu, RuntimeError)
    assert _outcome(call, lambda a: _held(a, device)) is cpu


def test_repeat_by_counts_of_another_device_is_the_devices_error(device):
    # (64-bit held counts were read first: NoBackendError, not the arrays' devices' ValueError)
    for x, counts in ((dt.asarray([1.0, 2.0]), _held(np.array([1, 2]), device)),
                      (_held(np.zeros(2), device), dt.asarray([1, 2])),
                      (_held(np.zeros(2), device), dt.asarray([2]))):
        with pytest.raises(ValueError, match="different devices"):
            dt.repeat(x, counts)


@pytest.mark.parametrize("call", PAST_THE_CHECK.values(), ids=PAST_THE_CHECK.keys())
def test_bad_arguments_past_the_checks_bounds_are_refused(call, device):
    cpu = _outcome(call, dt.asarray)
    assert cpu is not None and not issubclass(cpu, RuntimeError)
    got = _outcome(call, lambda a: _held(a, device))
    assert got is not None and issubclass(got, RuntimeError)


@pytest.mark.parametrize("call", GOOD_ARGUMENTS.values(), ids=GOOD_ARGUMENTS.keys())
def test_good_arguments_are_refused_on_held_memory(call, device):
    assert _outcome(call, dt.asarray) is None
    got = _outcome(call, lambda a: _held(a, device))
    assert got is not None and issubclass(got, RuntimeError)


@pytest.mark.parametrize("call", [
    lambda m: dt.tile(m(_Z(500, np.float32)), (200, 200)),
    lambda m: dt.clip(m(_Z((300, 1, 1))), m(_Z((1, 300, 1))), m(_Z((1, 1, 300)))),
    lambda m: dt.fft.fftn(m(_Z((2, 2, 2), np.complex64)), s=(300, 300, 300), axes=(0, 1, 2)),
], ids=["tile", "clip of three axes", "fftn"])
def test_the_cpu_check_makes_no_large_result(call, device):
    # Each int and each pair of arrays is small, but together they make a result of tens of
    # millions of elements: the check on CPU stand-ins would have computed it (seconds and
    # gigabytes at a larger size) before the refusal.
    import tracemalloc
    tracemalloc.start()
    try:
        with pytest.raises(RuntimeError):
            call(lambda a: _held(a, device))
        assert tracemalloc.get_traced_memory()[1] < 20 * 2**20
    finally:
        tracemalloc.stop()


def test_iterating_held_memory_gives_views_of_its_rows(device):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = _held(a, device)
    rows = list(x)
    assert len(rows) == 2 and all(r.shape == (3,) and r.device == x.device for r in rows)
    assert [r.__dlpack_device__() for r in rows] == [x.__dlpack_device__()] * 2
    starts = [tensor_fields(r.__dlpack__(max_version=(1, 0)))["byte_offset"] for r in rows]
    assert starts == [0, 12]
    backwards = [tensor_fields(r.__dlpack__(max_version=(1, 0)))["byte_offset"]
                 for r in reversed(x)]  # (was [], from x[1]'s IndexError on a 2-D array)
    assert backwards == [12, 0]


def test_the_cpu_check_of_a_refused_call_warns_nothing(device):
    # (the check computes on zeros: log(0) and 1 / 0 would warn before the refusal)
    import warnings
    x = _held(np.ones(3), device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call in (dt.log, dt.reciprocal, lambda x: x / 0, lambda x: dt.mean(x[:0])):
            with pytest.raises(RuntimeError):
                call(x)


def test_clip_and_frequencies_on_held_devices_say_what_is_wrong(device):
    x = _held(np.ones(3), device)
    with pytest.raises(ValueError, match="different devices"):
        dt.clip(x, dt.zeros(3))  # (it was refused as compute before the devices were asked)
    with pytest.raises(TypeError):
        dt.clip(x, 1j)
    with pytest.raises(RuntimeError, match="cannot compute"):
        dt.clip(x, 0.0)
    for f in (dt.fft.fftfreq, dt.fft.rfftfreq):  # (new memory there: as zeros(), not a move)
        with pytest.raises(RuntimeError, match="cannot compute"):
            f(4, device=x.device)


def test_held_memory_beside_cpu_memory_says_so(device):
    x, m = _held(np.ones((2, 3), np.float32), device), _held(np.ones((2, 3), bool), device)
    c = dt.zeros((2, 3), dtype=dt.float32)
    for call in (lambda: dt.diff(x, prepend=c), lambda: x.__setitem__(m, c),
                 lambda: dt.broadcast_arrays(x, c), lambda: dt.where(m, c, c),
                 lambda: dt.where(c > 0, x, c), lambda: dt.where(c > 0, c, x)):
        with pytest.raises(ValueError, match="different devices"):
            call()
    with pytest.raises(BufferError, match=f"cannot export {x.device} memory to device"):
        x.__dlpack__(dl_device=(VULKAN, 0) if device != (VULKAN, 0) else (METAL, 0),
                     max_version=(1, 0))


def test_a_read_only_held_array_does_not_suggest_a_copy_dltensor_cannot_make():
    x = _held(np.ones(3, np.float32), (ROCM, 0), flags=1)  # (DLPack READ_ONLY)
    with pytest.raises(ValueError, match="read-only.*from_dlpack") as e:
        x[0] = 1.0
    assert "dltensor.asarray(x, copy=True)" not in str(e.value)


def test_a_list_beside_a_0d_mask_on_held_memory_is_checked_on_the_cpu():
    # (a list made an array of the CPU's beside held memory: "arrays are on different devices
    # (metal:0 and cpu)", where the same key gave NoBackendError, or its IndexError)
    x = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(3, 4),
                                strides=(4, 1)))
    from dltensor._backends import NoBackendError
    with pytest.raises(NoBackendError, match="cannot compute on device metal:0"):
        x[True, [0, 1], ...]
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        x[True, [5], ...]
