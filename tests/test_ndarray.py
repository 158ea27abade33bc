"""The ndarray: what every array answers (attributes, repr, protocol methods), its ``__dlpack__``
rules, read-only memory, and arrays on devices no backend computes on (fake CUDA without CuPy,
ROCm, Metal, Vulkan from the test producer: described, handed on, never dereferenced)."""

import operator

import numpy as np
import pytest

import producers as P
import dltensor
from dltensor._dlpack import consume_capsule


def ptr(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def _imported(a, **kw):
    return dltensor.from_dlpack(P.from_numpy(a, **kw))


# --- attributes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["computed", "imported"])
def test_attributes(kind):
    a = np.arange(24, dtype=np.int16).reshape(2, 3, 4).transpose(2, 0, 1)
    x = dltensor.asarray(a) if kind == "computed" else _imported(a)
    assert x.shape == (4, 2, 3) and x.ndim == 3 and x.size == 24
    assert x.dtype is dltensor.int16
    assert x.device == dltensor.Device(1, 0) and str(x.device) == "cpu"
    assert x.strides == (1, 12, 4)  # in elements, as DLPack counts them
    assert x.data_ptr == ptr(a)
    assert x.read_only is False
    assert x.__dlpack_device__() == (1, 0)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float32", "complex128"])
def test_itemsize_and_nbytes_are_numpys(dtype):
    a = np.zeros((3, 5), dtype)
    for x in (dltensor.asarray(a), _imported(a), dltensor.asarray(a)[:, ::2],
              dltensor.broadcast_to(dltensor.asarray(a[:1]), (4, 5))):
        want = np.broadcast_to(a[:1], (4, 5)) if x.shape == (4, 5) else np.from_dlpack(x)
        assert (x.itemsize, x.nbytes) == (want.itemsize, want.nbytes)


def test_nbytes_counts_held_memory_and_packed_sub_byte_elements_by_their_bits():
    # (never dereferenced: metadata only) int4 and float4_e2m1fn pack two elements a byte
    for code, bits, size, nbytes in ((0, 4, 7, 4), (17, 4, 8, 4), (2, 32, 3, 12)):
        x = dltensor.from_dlpack(P.Producer(data=0x1000, device=(P.METAL, 0), shape=(size,),
                                            dtype=(code, bits, 1)))
        assert x.nbytes == nbytes and x.itemsize == max(bits // 8, 1)
    # ... unless flagged padded (DLPack 1.1): a byte each
    for code, bits, size in ((0, 4, 7), (17, 4, 8), (1, 2, 3)):
        x = dltensor.from_dlpack(P.Producer(data=0x1000, device=(P.METAL, 0), shape=(size,),
                                            dtype=(code, bits, 1), flags=4))
        assert x.nbytes == size and x.itemsize == 1


def test_attributes_do_not_need_a_compute_view():
    x = _imported(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert (x.shape, x.ndim, x.size, x.dtype, x.strides) == ((2, 3), 2, 6, dltensor.float32,
                                                             (3, 1))
    assert x._array is None


def test_cannot_be_constructed_directly():
    with pytest.raises(TypeError, match="asarray"):
        dltensor.ndarray()


@pytest.mark.parametrize("version", [None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"])
def test_array_namespace(version):
    assert dltensor.asarray([1]).__array_namespace__(api_version=version) is dltensor


@pytest.mark.parametrize("version, error", [
    ("2020.12", ValueError), ("2023.06", ValueError), ("2026.12", ValueError),
    (2024, TypeError), (2024.12, TypeError), (b"2024.12", TypeError), (["2024.12"], TypeError),
])
def test_array_namespace_refuses_unknown_versions(version, error):
    with pytest.raises(error, match="api_version" if error is TypeError else "2025.12"):
        dltensor.asarray([1]).__array_namespace__(api_version=version)


def test_repr():
    assert repr(dltensor.asarray([1.5, 2.0])) == "dltensor.ndarray([1.5, 2. ], dtype=float64)"
    assert repr(dltensor.asarray(True)) == "dltensor.ndarray(True, dtype=bool)"
    x = _imported(np.arange(3, dtype=np.int32), device=(P.CUDA_HOST, 1))
    assert repr(x) == "dltensor.ndarray([0, 1, 2], dtype=int32, device=cuda_host:1)"
    assert str(x) == repr(x)
    assert repr(dltensor.asarray(np.zeros((0, 3)))) == \
        "dltensor.ndarray([], shape=(0, 3), dtype=float64)"
    assert repr(dltensor.asarray(np.zeros(0, np.int8))) == "dltensor.ndarray([], dtype=int8)"
    # no elements, extents NumPy cannot describe ("array is too big"): still printable
    huge = _imported(np.zeros(0, np.float32), shape=(2**62, 0), strides=(0, 1))
    assert repr(huge) == "dltensor.ndarray([], shape=(4611686018427387904, 0), dtype=float32)"
    # summarised, its shape said as NumPy 2.2 says it (and not under legacy printing)
    assert repr(dltensor.arange(2000)) == \
        "dltensor.ndarray([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,), dtype=int64)"
    with np.printoptions(threshold=5):
        assert repr(dltensor.arange(8)) == \
            "dltensor.ndarray([0, 1, 2, ..., 5, 6, 7], shape=(8,), dtype=int64)"
        # at the threshold NumPy prints every element, and so no shape
        assert repr(dltensor.arange(5)) == "dltensor.ndarray([0, 1, 2, 3, 4], dtype=int64)"
        with np.printoptions(legacy="1.25"):  # (2.1 is NumPy 2.2's: not at the floor)
            assert "shape" not in repr(dltensor.arange(6))


def test_to_device_same_device_is_the_array_itself():
    x = dltensor.asarray([1, 2])
    assert x.to_device("cpu") is x
    assert x.to_device(dltensor.Device(1, 0)) is x
    assert x.to_device(x.device) is x


@pytest.mark.parametrize("dev", [P.CUDA_HOST, P.CUDA_MANAGED, P.ROCM_HOST])
def test_cpu_readable_memory_computes_and_moves_to_cpu_without_a_copy(dev):
    a = np.arange(6, dtype=np.float32)
    x = _imported(a, device=(dev, 0))
    assert x.device.device_type == dev
    assert np.asarray(x)[5] == 5 and ptr(np.asarray(x)) == ptr(a)
    y = x.to_device("cpu")
    assert y.device == dltensor.Device(1, 0) and y.data_ptr == ptr(a)
    # computed on (a NumPy view made), its exports still say its own device, not NumPy's CPU
    assert float(x[5]) == 5 and x._array is not None
    for kwargs in ({}, {"max_version": (1, 0)}, {"max_version": (1, 0), "copy": False}):
        assert P.tensor_fields(x.__dlpack__(**kwargs))["device"] == (dev, 0)


def test_array_protocol():
    a = np.arange(4, dtype=np.float32)
    x = dltensor.asarray(a)
    assert ptr(np.asarray(x)) == ptr(a)
    assert ptr(np.asarray(x, copy=True)) != ptr(a)
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError):
        x.__array__(dtype=np.float64, copy=False)
    # called directly: a dltensor dtype is its NumPy one; copy is checked as __dlpack__'s is
    assert ptr(x.__array__(dltensor.float32, copy=False)) == ptr(a)
    assert x.__array__(dltensor.float64).dtype == np.float64
    with pytest.raises(TypeError, match="copy"):
        x.__array__(copy="no")
    int4 = dltensor.from_dlpack(P.Producer(np.zeros(4, np.uint8), dtype=(0, 4, 1),
                                           shape=(4,))).dtype
    with pytest.raises(TypeError, match="int4"):  # (it was ignored: float64 came back)
        x.__array__(int4)


# --- __dlpack__ rules, for each kind of array ------------------------------------------------

def _held():
    return dltensor.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0),
                                           shape=(2, 3), strides=(3, 1)))


KINDS = {
    "computed": lambda: dltensor.asarray(np.arange(6, dtype=np.float32).reshape(2, 3)),
    "imported": lambda: _imported(np.arange(6, dtype=np.float32).reshape(2, 3)),
    "imported bfloat16": lambda: _imported(np.zeros((2, 3), np.uint16), dtype=(4, 16, 1)),
    "held (metal)": _held,
}


def test_an_imported_cpu_tensor_is_exported_by_numpys_producer_through_its_compute_view(
        monkeypatch):
    # dltensor's own producer is ctypes, ~4 us an export; the NumPy view, made once as the
    # first computation makes it, and NumPy's C producer then ~0.3 us each. What NumPy cannot
    # view (int4) or export (an ml_dtypes dtype), and an empty tensor, whose pointer NumPy
    # would not keep, go to dltensor's producer, as a read-only array's legacy request does.
    from dltensor import _array
    calls = []
    real = _array._export
    monkeypatch.setattr(_array, "_export", lambda *a: calls.append(a[0]) or real(*a))
    a = np.arange(6.0).reshape(2, 3)
    p = P.from_numpy(a)
    x = dltensor.from_dlpack(p)
    assert x._array is None  # (not computed on yet)
    for _ in range(3):
        b = np.from_dlpack(x)
        assert b.ctypes.data == a.ctypes.data and b.flags.writeable
    assert x._array is not None and not calls
    del x
    assert p.deleter_calls == 0  # (NumPy's import of the export keeps the tensor)
    del b
    assert p.deleter_calls == 1
    ro = _imported(a, flags=1)
    cap = ro.__dlpack__(max_version=(1, 0))
    assert P.capsule_flags(cap) & 1 and not calls  # READ_ONLY, said by NumPy's producer
    with pytest.raises(BufferError, match="readonly|read-only"):
        ro.__dlpack__()  # (legacy: NumPy's refusal, then dltensor's producer's)
    assert calls == [ro]
    for held, ours in ((_imported(np.zeros(3, np.uint8), dtype=(0, 4, 1)), True),  # int4
                       # (NumPy 2.5 exports ml_dtypes' bfloat16 itself; 2.4 refused it)
                       (_imported(np.zeros(3, np.uint16), dtype=(4, 16, 1)), None),
                       (_imported(np.empty((0, 3))), True)):
        calls.clear()
        cap = held.__dlpack__(max_version=(1, 0))
        assert ours is None or calls == [held]
        fields = P.tensor_fields(cap)
        assert fields["data"] + fields["byte_offset"] == held.data_ptr
        t = held._tensor
        assert fields["dtype"] == (t.code, t.bits, t.lanes)


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
@pytest.mark.parametrize("max_version, versioned", [
    (None, False), ((0, 8), False), ((1, 0), True), ((1, 3), True), ((1, 9), True),
    ((2, 0), True), ((2**70, 0), True), ((1, 2**70), True),  # (NumPy's producer: C ints)
])
def test_versioned_iff_max_version_major_at_least_1(make, max_version, versioned):
    x = make()
    cap = x.__dlpack__(max_version=max_version)
    name = P.capsule_name(cap)
    assert name == (b"dltensor_versioned" if versioned else b"dltensor")
    if versioned:
        v = P.capsule_struct(cap).version
        # A producer may answer with a lower version, never a higher one than asked or 2.x.
        assert v.major == 1 and (max_version[0] > 1 or v.minor <= max_version[1])
    assert P.tensor_fields(cap)["data"] + P.tensor_fields(cap)["byte_offset"] == x.data_ptr


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
@pytest.mark.parametrize("kwargs, exc", [
    ({"max_version": (1, 1.5)}, TypeError),
    ({"max_version": (1,)}, TypeError), ({"max_version": "1.0"}, TypeError),
    ({"max_version": [1, 0]}, TypeError),
    ({"dl_device": (1,)}, TypeError), ({"dl_device": (1, 0, 0)}, TypeError),
    ({"dl_device": ("cpu", 0)}, TypeError), ({"dl_device": 1}, TypeError),
    ({"dl_device": [1, 0]}, TypeError),
], ids=str)
def test_bad_dlpack_keywords_are_type_or_value_errors(make, kwargs, exc):
    # (they were struct.error and IndexError from deep inside the export)
    x = make()
    with pytest.raises(exc):
        x.__dlpack__(**{"max_version": (1, 0), **kwargs, "copy": True})
    # (also where NumPy's producer answers, which refuses what is not a tuple, in words that
    # named neither the parameter nor what it takes; inside a tuple it checks nothing)
    if "dl_device" in kwargs or type(kwargs["max_version"]) is not tuple:
        with pytest.raises(exc, match=r"dl_device|max_version must be a \(major, minor\)"):
            x.__dlpack__(**{"max_version": (1, 0), **kwargs})


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
def test_negative_max_versions_are_read_as_numpys_producer_reads_them(make):
    # (a major below 1 asks for a legacy capsule, a minor below 0 for 1.0: _export refused
    # them with ValueError where NumPy's producer, answering for CPU arrays, took them)
    x = make()
    for copy in (None, True):
        if copy and x.device.device_type != 1:
            continue  # (held memory cannot be copied)
        cap = x.__dlpack__(max_version=(1, -1), copy=copy)
        assert P.capsule_name(cap) == b"dltensor_versioned"
        assert P.capsule_struct(cap).version.major == 1
        assert P.capsule_struct(cap).version.minor == 0  # (1.0, not 1.1: NumPy's reading)
        if not x.read_only:  # (a legacy capsule cannot say read-only)
            # (-2**70: NumPy's producer, asked again after its OverflowError, raised it)
            for mv in ((-1, 0), (0, -1), (-2**70, 0), (-2**70, -2**70)):
                assert P.capsule_name(x.__dlpack__(max_version=mv, copy=copy)) == b"dltensor"


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
def test_max_version_takes_any_integers(make):
    # (NumPy's own producer takes NumPy ints; so must every other path)
    x = make()
    for mv in ((np.int64(1), np.int64(0)), (1, np.uint8(3))):
        # (copy=True: past NumPy's producer, for CPU arrays; held ones cannot be copied)
        cap = x.__dlpack__(max_version=mv, copy=True if x.device.device_type == 1 else None)
        assert P.capsule_name(cap) == b"dltensor_versioned"


def test_stream_values_out_of_range_are_refused_on_gpu_devices():
    x = dltensor.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.CUDA, 0), shape=(2,),
                                        strides=(1,)))
    for stream in (-2, -5, 1 << 64, 1 << 70):
        with pytest.raises(ValueError, match="stream"):
            x.__dlpack__(stream=stream, max_version=(1, 0))
    assert dltensor.from_dlpack(x.__dlpack__(stream=(1 << 64) - 1, max_version=(1, 0))).device \
        == x.device


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
def test_every_export_is_fresh_and_shares_memory(make):
    x = make()
    caps = [x.__dlpack__(max_version=(1, 0)) for _ in range(4)]
    assert len({P.capsule_pointer(c) for c in caps}) == 4
    for c in caps:
        y = dltensor.from_dlpack(c)
        assert y.data_ptr == x.data_ptr and y.shape == x.shape and y.dtype is x.dtype


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
def test_stream_on_cpu_is_refused(make):
    x = make()
    if x.device.device_type != 1:
        pytest.skip("a stream means nothing to dltensor on a held device; tested below")
    for stream in (1, 2, 0, -1):
        with pytest.raises(BufferError):
            x.__dlpack__(stream=stream, max_version=(1, 0))


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
def test_unsupported_dl_device_is_refused(make):
    x = make()
    for dl_device in ((P.CUDA, 0), (P.ROCM, 0), (P.VULKAN, 1)):
        with pytest.raises(BufferError):
            x.__dlpack__(max_version=(1, 0), dl_device=dl_device)
        with pytest.raises(BufferError):
            x.__dlpack__(max_version=(1, 0), dl_device=dl_device, copy=False)


@pytest.mark.parametrize("make", [KINDS["computed"], KINDS["imported"]],
                         ids=["computed", "imported"])
def test_copy_true_copies_and_says_so(make):
    x = make()
    cap = x.__dlpack__(max_version=(1, 0), copy=True)
    f = P.tensor_fields(cap)
    assert f["data"] + f["byte_offset"] != x.data_ptr
    assert P.capsule_flags(cap) & P.IS_COPIED
    y = dltensor.from_dlpack(cap)
    assert np.asarray(y).tolist() == [[0, 1, 2], [3, 4, 5]]


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
def test_copy_false_and_none_share(make):
    x = make()
    for copy in (False, None):
        cap = x.__dlpack__(max_version=(1, 0), copy=copy)
        f = P.tensor_fields(cap)
        assert f["data"] + f["byte_offset"] == x.data_ptr
        assert not P.capsule_flags(cap) & P.IS_COPIED


@pytest.mark.parametrize("make", KINDS.values(), ids=KINDS.keys())
def test_same_device_dl_device_is_not_a_copy(make):
    x = make()
    cap = x.__dlpack__(max_version=(1, 0), dl_device=x.__dlpack_device__(), copy=False)
    assert P.tensor_fields(cap)["data"] + P.tensor_fields(cap)["byte_offset"] == x.data_ptr


@pytest.mark.parametrize("dev", [P.CUDA_HOST, P.CUDA_MANAGED])
def test_pinned_memory_exports_to_cpu_without_a_copy(dev):
    a = np.arange(6, dtype=np.float32)
    x = _imported(a, device=(dev, 0))
    for copy in (None, False):
        cap = x.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=copy)
        f = P.tensor_fields(cap)
        assert f["device"] == (1, 0) and f["data"] + f["byte_offset"] == ptr(a)
        assert P.capsule_flags(cap) == 0  # (neither IS_COPIED nor READ_ONLY)
    cap = x.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=True)
    assert P.capsule_flags(cap) & P.IS_COPIED and P.tensor_fields(cap)["data"] != ptr(a)


@pytest.mark.parametrize("dev", [P.CUDA_HOST, P.CUDA_MANAGED])
def test_astype_to_the_cpu_copies_pinned_memory_unless_told_not_to(dev):
    # (pinned memory is the CPU's: the move to `cpu` is a view, and astype's copy=True must
    # still copy; it returned the view, so writes reached the pinned buffer)
    a = np.arange(6, dtype=np.float32)
    x = _imported(a, device=(dev, 0))
    for dtype in (dltensor.float32, dltensor.float64):
        y = dltensor.astype(x, dtype, device="cpu")
        assert y.device == dltensor.Device(1, 0) and y.data_ptr != ptr(a)
        y[0] = 100
        assert a[0] == 0
    y = dltensor.astype(x, dltensor.float32, device="cpu", copy=False)
    assert y.device == dltensor.Device(1, 0) and y.data_ptr == ptr(a)


@pytest.mark.parametrize("dev", [P.CUDA_HOST, P.CUDA_MANAGED])
@pytest.mark.parametrize("dtype", [(17, 4, 1), (3, 64, 1)], ids=["float4", "opaque64"])
def test_pinned_memory_of_a_held_dtype_is_the_cpus_too(dev, dtype):
    # (relabelling read its elements first: TypeError, dltensor cannot compute on float4)
    a = np.arange(8, dtype=np.uint8)
    x = _imported(a, device=(dev, 0), dtype=dtype, shape=(1,), strides=(1,))
    cap = x.__dlpack__(max_version=(1, 3), dl_device=(1, 0))
    f = P.tensor_fields(cap)
    assert f["device"] == (1, 0) and f["data"] + f["byte_offset"] == ptr(a)
    y = x.to_device("cpu")
    assert y.device == dltensor.Device(1, 0) and y.data_ptr == ptr(a) and y.dtype == x.dtype
    with pytest.raises(BufferError, match="cannot copy"):
        x.__dlpack__(max_version=(1, 3), dl_device=(1, 0), copy=True)


@pytest.mark.parametrize("dtype", [(0, 4, 1), (17, 4, 1), (3, 64, 1)],
                         ids=["int4", "float4", "opaque64"])
def test_copies_of_a_held_dtype_on_the_cpu_are_buffer_errors_every_way(dtype):
    # (__dlpack__(copy=True) said BufferError, from_dlpack/asarray(copy=True) TypeError)
    a = np.arange(8, dtype=np.uint8)
    x = _imported(a, dtype=dtype, shape=(1,), strides=(1,))
    for copy in (lambda: dltensor.from_dlpack(x, copy=True),
                 lambda: dltensor.asarray(x, copy=True),
                 lambda: dltensor.from_dlpack(x, device="cpu", copy=True),
                 lambda: x.__dlpack__(max_version=(1, 3), copy=True),
                 lambda: dltensor.from_dlpack(
                     P.from_numpy(a, dtype=dtype, shape=(1,), strides=(1,)), copy=True)):
        with pytest.raises(BufferError, match="cannot copy"):
            copy()
    assert x.data_ptr == ptr(a)


@pytest.mark.parametrize("dtype", [(0, 4, 1), (1, 4, 1)], ids=["int4", "uint4"])
def test_index_of_a_held_integer_dtype_says_it_cannot_compute_as_int_does(dtype):
    # (it said "only integer arrays can be used as an index, not int4": int4 is one)
    x = _imported(np.zeros(1, np.uint8), dtype=dtype, shape=(), strides=())
    for convert in (operator.index, int):
        with pytest.raises(TypeError, match="cannot compute on dtype u?int4"):
            convert(x)
    with pytest.raises(TypeError, match="only integer arrays"):
        operator.index(_imported(np.zeros(1, np.uint8), dtype=(17, 4, 1), shape=(), strides=()))


@pytest.mark.parametrize("copy", ["yes", 1.5])
def test_bad_copy_value(copy):
    for make in KINDS.values():
        with pytest.raises((TypeError, ValueError)):
            make().__dlpack__(max_version=(1, 0), copy=copy)


# --- read-only memory --------------------------------------------------------------------------

def _read_only_array():
    a = np.arange(6, dtype=np.float32)
    a.flags.writeable = False
    return a


READ_ONLY = {
    "computed": lambda: dltensor.asarray(_read_only_array()),
    "imported": lambda: _imported(np.arange(6, dtype=np.float32), flags=P.READ_ONLY),
    "imported and computed": lambda: _computed(_imported(np.arange(6, dtype=np.float32),
                                                         flags=P.READ_ONLY)),
    "bytes": lambda: dltensor.asarray(b"0123456789ab"),
    "view of read-only": lambda: dltensor.asarray(_read_only_array())[1:],
    "held": lambda: dltensor.from_dlpack(P.Producer(
        data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(3,), strides=(1,), flags=P.READ_ONLY)),
}


def _computed(x):
    x._compute()
    return x


@pytest.mark.parametrize("make", READ_ONLY.values(), ids=READ_ONLY.keys())
def test_read_only_every_export_says_so(make):
    x = make()
    assert x.read_only
    for max_version in ((1, 0), (1, 3)):
        cap = x.__dlpack__(max_version=max_version)
        assert P.capsule_flags(cap) & P.READ_ONLY
        assert dltensor.from_dlpack(cap).read_only


@pytest.mark.parametrize("make", READ_ONLY.values(), ids=READ_ONLY.keys())
def test_read_only_legacy_export_is_refused(make):
    with pytest.raises(BufferError):
        make().__dlpack__()
    with pytest.raises(BufferError):
        make().__dlpack__(max_version=(0, 9))


PADDED = 1 << 2  # DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (DLPack 1.1)


@pytest.mark.parametrize("dtype", [(0, 4, 1), (1, 1, 1), (17, 4, 1)], ids=["int4", "uint1",
                                                                          "float4_e2m1fn"])
def test_padded_sub_byte_tensors_say_so_when_handed_on(dtype):
    # One element per byte, not packed: a consumer told nothing reads each byte as several.
    buf = np.array([1, 2, 3, 4], dtype=np.uint8)
    p = P.from_numpy(buf, dtype=dtype, shape=(4,), strides=(1,), flags=PADDED)
    x = dltensor.from_dlpack(p)
    for max_version in ((1, 1), (1, 3)):
        cap = x.__dlpack__(max_version=max_version)
        assert P.capsule_flags(cap) & PADDED and P.capsule_pointer(cap)
        assert dltensor.from_dlpack(cap)._tensor.flags & PADDED
    for max_version in (None, (0, 8), (1, 0)):  # a capsule that cannot carry the flag
        with pytest.raises(BufferError, match="one element per byte"):
            x.__dlpack__(max_version=max_version)
    packed = dltensor.from_dlpack(P.from_numpy(buf, dtype=dtype, shape=(8,), strides=(1,)))
    assert not P.capsule_flags(packed.__dlpack__(max_version=(1, 3))) & PADDED
    assert P.capsule_name(packed.__dlpack__()) == b"dltensor"


@pytest.mark.parametrize("dtype", [(0, 8, 1), (1, 8, 1), (2, 16, 1)], ids=["int8", "uint8",
                                                                          "float16"])
def test_padded_means_nothing_for_whole_bytes_and_is_not_handed_on(dtype):
    # (a producer setting it on 8-bit elements, the smallest whole byte, says nothing; handed
    # on, it would make a DLPack 1.0 consumer refuse a tensor it can read)
    x = dltensor.from_dlpack(P.from_numpy(np.zeros(4, np.uint8), dtype=dtype,
                                          shape=(4 * 8 // dtype[1],), flags=PADDED))
    assert not P.capsule_flags(x.__dlpack__(max_version=(1, 3))) & PADDED
    assert P.capsule_name(x.__dlpack__()) == b"dltensor"


def test_a_null_pointer_with_no_elements_is_handed_on_as_null():
    x = dltensor.from_dlpack(P.Producer(data=0, shape=(0,)))
    for kwargs in ({}, {"max_version": (1, 0), "copy": False}):
        assert P.tensor_fields(x.__dlpack__(**kwargs))["data"] == 0


@pytest.mark.parametrize("make", [v for k, v in READ_ONLY.items() if k != "held"],
                         ids=[k for k in READ_ONLY if k != "held"])
def test_read_only_cannot_be_written(make):
    x = make()
    with pytest.raises((ValueError, BufferError)):
        x[...] = 0
    n = np.from_dlpack(x)
    assert not n.flags.writeable
    with pytest.raises(ValueError):
        n[0] = 1


@pytest.mark.parametrize("make", [v for k, v in READ_ONLY.items() if k != "held"],
                         ids=[k for k in READ_ONLY if k != "held"])
def test_read_only_copy_is_writable(make):
    x = make()
    cap = x.__dlpack__(max_version=(1, 0), copy=True)
    assert P.capsule_flags(cap) & P.IS_COPIED and not P.capsule_flags(cap) & P.READ_ONLY
    y = dltensor.asarray(x, copy=True)
    assert not y.read_only


def test_writes_are_shared_with_a_writable_source():
    a = np.zeros(4, np.float32)
    x = _imported(a)
    x[1] = 5
    assert a[1] == 5
    a[2] = 7
    assert np.asarray(x)[2] == 7


# --- devices no backend computes on ------------------------------------------------------------

FAKE_DEVICES = {"cuda": P.CUDA, "rocm": P.ROCM, "metal": P.METAL, "vulkan": P.VULKAN}


def _fake(dev, device_id=1):
    p = P.Producer(data=P.FAKE_POINTER, device=(dev, device_id), dtype=(2, 32, 1), shape=(2, 3),
                   strides=(3, 1), byte_offset=64)
    return dltensor.from_dlpack(p), p


@pytest.mark.parametrize("name, dev", FAKE_DEVICES.items(), ids=FAKE_DEVICES.keys())
def test_fake_device_is_described(name, dev):
    x, p = _fake(dev)
    assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6 and x.dtype is dltensor.float32
    assert str(x.device) == f"{name}:1" and x.__dlpack_device__() == (dev, 1)
    assert x.data_ptr == P.FAKE_POINTER + 64 and x.strides == (3, 1)
    assert repr(x) == (f"dltensor.ndarray(<{name}:1 memory>, shape=(2, 3), dtype=float32, "
                       f"device={name}:1)")


@pytest.mark.parametrize("dev", FAKE_DEVICES.values(), ids=FAKE_DEVICES.keys())
@pytest.mark.parametrize("max_version", [(1, 0), None])
def test_fake_device_is_handed_on_with_the_same_pointer(dev, max_version):
    x, p = _fake(dev)
    cap = x.__dlpack__(max_version=max_version)
    f = P.tensor_fields(cap)
    assert f == dict(data=P.FAKE_POINTER, device=(dev, 1), dtype=(2, 32, 1), ndim=2,
                     shape=(2, 3), strides=(3, 1), byte_offset=64)
    mt = consume_capsule(cap)
    assert mt.pointer == P.FAKE_POINTER + 64
    mt.release()
    y = dltensor.from_dlpack(x)
    assert y.data_ptr == x.data_ptr and y.device == x.device


@pytest.mark.parametrize("dev", FAKE_DEVICES.values(), ids=FAKE_DEVICES.keys())
def test_fake_device_stream_is_accepted(dev):
    # dltensor queued no work on this memory: there is nothing to order the consumer after.
    x, p = _fake(dev)
    assert P.tensor_fields(x.__dlpack__(stream=7, max_version=(1, 0)))["data"] == P.FAKE_POINTER


COMPUTE = {
    "x + 1": lambda x: x + 1,
    "1 - x": lambda x: 1 - x,
    "-x": lambda x: -x,
    "sum": lambda x: dltensor.sum(x),
    "abs": lambda x: dltensor.abs(x),
    "np.asarray": lambda x: np.asarray(x),
    "np.from_dlpack": lambda x: np.from_dlpack(x),
    "setitem": lambda x: x.__setitem__((0, slice(None)), 1.0),  # (x[0, :] is a view)
    "copy": lambda x: dltensor.asarray(x, copy=True),
    "astype": lambda x: dltensor.asarray(x, dtype=dltensor.float64),
    "__dlpack__ copy=True": lambda x: x.__dlpack__(max_version=(1, 0), copy=True),
}


@pytest.mark.parametrize("name, dev", FAKE_DEVICES.items(), ids=FAKE_DEVICES.keys())
@pytest.mark.parametrize("op", COMPUTE.values(), ids=COMPUTE.keys())
def test_fake_device_compute_raises_naming_the_device(name, dev, op):
    x, p = _fake(dev)
    with pytest.raises((RuntimeError, BufferError, TypeError)) as info:
        op(x)
    assert not isinstance(info.value, SystemError)
    if "Unsupported device" not in str(info.value):
        # NumPy's own refusal names no device (a RuntimeError before NumPy 2.5, a BufferError
        # since); everything dltensor raises does.
        assert f"{name}:1" in str(info.value), str(info.value)
    assert x._array is None, "no compute view may exist for memory dltensor cannot reach"


@pytest.mark.parametrize("dev", FAKE_DEVICES.values(), ids=FAKE_DEVICES.keys())
@pytest.mark.parametrize("target", ["cpu", "cuda:0", (P.METAL, 0)])
def test_fake_device_to_device_is_refused(dev, target):
    x, p = _fake(dev)
    if dltensor.Device(*x.__dlpack_device__()) == dltensor._devices.as_device(target):
        pytest.skip("same device")
    with pytest.raises(BufferError):
        x.to_device(target)
    with pytest.raises(BufferError):
        dltensor.asarray(x, device=target)
    with pytest.raises(BufferError):
        x.__dlpack__(max_version=(1, 0), dl_device=(1, 0))


def test_cpu_to_a_device_without_backend_is_refused():
    with pytest.raises(BufferError):
        dltensor.asarray([1.0, 2.0]).to_device("cuda:0")
    with pytest.raises(RuntimeError, match="metal:0"):  # (new memory there: as zeros() says)
        dltensor.asarray([1.0, 2.0], device="metal:0")


def test_arrays_on_different_devices_do_not_mix():
    x, p = _fake(P.METAL)
    y = dltensor.asarray(np.ones((2, 3), np.float32))
    with pytest.raises((ValueError, RuntimeError)):
        x + y
