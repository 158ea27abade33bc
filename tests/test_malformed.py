"""Malformed DLPack input: every case raises the right exception class (BufferError for DLPack
problems, TypeError for wrong types, ValueError for wrong values) and, where dltensor took
ownership, gives the tensor back to its producer: the deleter runs exactly once, at once.

The cases that would crash a careless consumer (NULL shape, huge ndim) run in a subprocess, so a
crash fails one test instead of killing the run."""

import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import producers as P
import dltensor
from dltensor._dlpack import consume_capsule, live_count

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
I64_MAX = 2**63 - 1

# name: (producer fields that break one rule, over a valid 3x4 float32 tensor on the CPU;
#        the words the BufferError must say, so that each rule is the one that refused)
VERSION, DEVICE, CODE = "unsupported DLPack version", "unknown DLPack device type", "dtype code"
BITS, NDIM, SPAN = "dltensor has no .*-bit", "invalid ndim", "overflow the address space"
NULL, OUTSIDE = "elements but a NULL data pointer", "outside the 64-bit address space"
FIRST_PAGE = "in the first page of memory"
MALFORMED = {
    "version major 2": (dict(version=(2, 0)), VERSION),
    "version major 0 in a versioned capsule": (dict(version=(0, 9)), VERSION),
    "version major huge": (dict(version=(2**32 - 1, 0)), VERSION),
    "dtype code 18": (dict(dtype=(18, 8, 1)), CODE),
    "dtype code 255": (dict(dtype=(255, 32, 1)), CODE),
    "device code 0": (dict(device=(0, 0)), DEVICE),
    "device code 5": (dict(device=(5, 0)), DEVICE),
    "device code 6": (dict(device=(6, 0)), DEVICE),
    "device code 19": (dict(device=(19, 0)), DEVICE),
    "device code negative": (dict(device=(-1, 0)), DEVICE),
    "lanes 0": (dict(dtype=(2, 32, 0)), "lanes=0"),
    "lanes 2": (dict(dtype=(2, 32, 2)), "lanes=2"),
    "lanes 4": (dict(dtype=(2, 32, 4)), "lanes=4"),
    "float with 8 bits": (dict(dtype=(2, 8, 1)), BITS),
    "float with 128 bits": (dict(dtype=(2, 128, 1)), BITS),
    "int with 128 bits": (dict(dtype=(0, 128, 1)), BITS),
    "int with 0 bits": (dict(dtype=(0, 0, 1)), BITS),
    "uint with 12 bits": (dict(dtype=(1, 12, 1)), BITS),
    "bool with 1 bit": (dict(dtype=(6, 1, 1)), BITS),
    "bool with 32 bits": (dict(dtype=(6, 32, 1)), BITS),
    "bfloat with 32 bits": (dict(dtype=(4, 32, 1)), BITS),
    "complex with 32 bits": (dict(dtype=(5, 32, 1)), BITS),
    "float8 with 16 bits": (dict(dtype=(8, 16, 1)), BITS),
    "float6 with 8 bits": (dict(dtype=(15, 8, 1)), BITS),
    "float4 with 8 bits": (dict(dtype=(17, 8, 1)), BITS),
    "negative ndim": (dict(ndim=-1), NDIM),
    "most negative ndim": (dict(ndim=-2**31), NDIM),
    "ndim 65": (dict(ndim=65, shape=(1,) * 65, strides=(1,) * 65), NDIM),
    "negative extent": (dict(shape=(3, -4), strides=(4, 1)), "negative extent"),
    "negative extent, NULL strides": (dict(shape=(-1,), strides=None), "negative extent"),
    "element count overflows int64": (dict(shape=(2**32, 2**32), strides=(2**32, 1)),
                                      "more elements than fit in int64"),
    "element count one past int64's largest": (dict(shape=(2**62, 2), strides=(0, 0)),
                                               "more elements than fit in int64"),
    "element count overflows int64, NULL strides": (
        dict(shape=(2**40, 2**40, 2**40), strides=None), "too large for int64 strides"),
    "byte span overflows int64": (dict(shape=(2**62,), strides=(1,)), SPAN),
    "byte span overflows int64, NULL strides": (dict(shape=(2**62,), strides=None), SPAN),
    "byte span one past int64's largest": (dict(dtype=(0, 8, 1), shape=(3,),
                                                strides=(2**62,)), SPAN),
    "huge stride": (dict(shape=(3, 4), strides=(I64_MAX, 1)), SPAN),
    "huge negative stride": (dict(shape=(3, 4), strides=(-I64_MAX, 1)), SPAN),
    "byte_offset over int64": (dict(byte_offset=2**63), "invalid byte_offset"),
    # (the header's other fields valid at their limits: the byte_offset is what is refused)
    "byte_offset over int64, 0-d": (dict(byte_offset=2**63, shape=(), strides=()),
                                    "invalid byte_offset"),
    "byte_offset over int64, ndim 64": (dict(byte_offset=2**63, shape=(1,) * 64,
                                             strides=(1,) * 64), "invalid byte_offset"),
    "NULL data with elements": (dict(data=0), NULL),
    "NULL data, 0-d (one element)": (dict(data=0, shape=(), strides=()), NULL),
    "elements past the end of memory": (dict(data=2**64 - 32), OUTSIDE),
    "byte_offset past the end of memory": (dict(data=2**64 - 64, byte_offset=128, shape=(1,),
                                                strides=(1,)), OUTSIDE),
    "0-d past the end of memory": (dict(data=2**64 - 2, shape=(), strides=()), OUTSIDE),
    "negative strides before address 0": (dict(data=16, shape=(3,), strides=(-4,)), OUTSIDE),
    # (PyTorch's zero tensors sliced, and functionalized ones: no memory, their offset given as
    # the address; NumPy read it there, a segmentation fault)
    "elements in the first page": (dict(data=12), FIRST_PAGE),
    "0-d in the first page": (dict(data=4095, shape=(), strides=()), FIRST_PAGE),
    "negative strides into the first page": (dict(data=4096 + 16, shape=(3,), strides=(-4,)),
                                             FIRST_PAGE),
    "pinned memory in the first page": (dict(data=64, device=(3, 0)), FIRST_PAGE),
    # (a vector, the commonest import, which the consumer accepts on a path of its own, on
    # any device: each rule again there)
    "a vector in the first page": (dict(data=12, shape=(3,), strides=(1,)), FIRST_PAGE),
    "a vector's byte_offset ending in the first page": (
        dict(data=8, byte_offset=4000, shape=(3,), strides=(1,)), FIRST_PAGE),
    "a vector with NULL data": (dict(data=0, shape=(3,), strides=(1,)), NULL),
    "a vector with NULL data and an offset": (
        dict(data=0, byte_offset=8192, shape=(3,), strides=(1,)), NULL),
    "a vector past the end of memory": (dict(data=2**64 - 8, shape=(3,), strides=(1,)),
                                        OUTSIDE),
    "a vector past the end of memory by one byte": (
        dict(data=2**64 - 11, shape=(3,), strides=(1,)), OUTSIDE),
    "a vector on a GPU past the end of memory by one byte": (
        dict(data=2**64 - 11, device=(2, 0), shape=(3,), strides=(1,)), OUTSIDE),
    "a pinned vector in the first page": (dict(data=64, device=(3, 0), shape=(3,),
                                               strides=(1,)), FIRST_PAGE),
    "a vector whose byte_offset passes the end of memory": (
        dict(data=2**64 - 4096, byte_offset=4090, shape=(2,), strides=(1,)), OUTSIDE),
    "a vector's stride spans past int64": (dict(shape=(3,), strides=(2**61,)), SPAN),
    "a vector's negative extent": (dict(shape=(-3,), strides=(1,)), "negative extent"),
    # (the general path's bound, to the byte: 3 x 4 float32 ending one byte past the end)
    "elements past the end of memory by one byte": (dict(data=2**64 - 47), OUTSIDE),
}


@pytest.fixture(autouse=True)
def no_collection():
    """Keep the collector off: garbage from other tests must not move live_count() mid-test."""
    gc.disable()
    yield
    gc.enable()


def _producer(**kw):
    a = np.arange(12, dtype=np.float32)
    fields = dict(buffer=a, data=a.__array_interface__["data"][0], shape=(3, 4),
                  strides=(4, 1))
    fields.update(kw)
    return P.Producer(**fields)


@pytest.mark.parametrize("fields, words", MALFORMED.values(), ids=MALFORMED.keys())
def test_from_dlpack_refuses_and_returns_ownership(fields, words):
    p = _producer(**fields)
    before = live_count()
    with pytest.raises(BufferError, match=words):
        dltensor.from_dlpack(p)
    assert len(p.exports) == 1
    assert p.deleter_calls == 1, "the refused tensor must go back to its producer at once"
    assert live_count() == before
    assert p.deleter_calls == 1


@pytest.mark.parametrize("fields, words", MALFORMED.values(), ids=MALFORMED.keys())
def test_asarray_refuses_a_bare_capsule(fields, words):
    p = _producer(**fields)
    cap = p.__dlpack__(max_version=(1, 3))
    with pytest.raises(BufferError, match=words):
        dltensor.asarray(cap)
    assert P.capsule_name(cap).startswith(b"used_")
    del cap
    assert p.deleter_calls == 1


@pytest.mark.parametrize("fields", [
    dict(dtype=(2, 32, 2)), dict(shape=(3, -4), strides=(4, 1)), dict(data=0),
    dict(device=(99, 0)), dict(dtype=(2, 8, 1)),
], ids=["lanes", "negative extent", "NULL data", "device", "bits"])
def test_legacy_capsules_are_checked_too(fields):
    p = _producer(versioned=False, **fields)
    with pytest.raises(BufferError):
        dltensor.from_dlpack(p)
    assert p.deleter_calls == 1


# --- valid edge cases that must NOT be refused ---------------------------------------------

VALID = {
    "0-d, NULL shape and strides": dict(shape=(), null_shape=True, null_strides=True),
    "NULL strides (before DLPack 1.2)": dict(strides=None),
    "size 0 with NULL data": dict(data=0, shape=(0, 4), strides=(4, 1)),
    "size 0 with a huge other extent": dict(data=0, shape=(0, 2**62), strides=None),
    "negative strides": dict(shape=(3,), strides=(-1,), byte_offset=8),
    "zero strides (broadcast)": dict(shape=(5, 4), strides=(0, 1)),
    "ndim 64": dict(shape=(1,) * 64, strides=(1,) * 64),
    "unknown minor version": dict(version=(1, 99)),
    "float8 held": dict(dtype=(10, 8, 1)),
    "opaque handle held": dict(dtype=(3, 64, 1), shape=(2,), strides=(1,)),
    "flags with unknown bits": dict(flags=1 << 40),
    "the last bytes of memory": dict(data=2**64 - 48),  # (3 x 4 float32: never read)
    "negative strides down to the first page's end": dict(data=4096 + 32, shape=(3,),
                                                          strides=(-4,)),
    "a held device's memory in the first page (never read)": dict(data=12,
                                                                 device=(10, 0)),
    # each limit reached, not passed (the refusals one past them are in MALFORMED)
    "int64's largest element count (a broadcast)": dict(dtype=(0, 8, 1), shape=(I64_MAX,),
                                                        strides=(0,)),
    "int64's largest byte span": dict(data=4096, dtype=(0, 8, 1), shape=(2,),
                                      strides=(I64_MAX,)),
    "int64's largest byte_offset, no elements": dict(data=0, shape=(0, 4), strides=(4, 1),
                                                     byte_offset=I64_MAX),
    "0-d in the last bytes of memory": dict(data=2**64 - 4, shape=(), strides=()),
    "a 4-bit element in the last byte of memory": dict(data=2**64 - 1, dtype=(17, 4, 1),
                                                       shape=(1,), strides=(1,)),
    # ... and on the general path (2-D: vectors take a path of their own)
    "int64's largest element count, 2-D": dict(dtype=(0, 8, 1), shape=(I64_MAX, 1),
                                               strides=(0, 0)),
    "int64's largest byte span, 2-D": dict(data=4096, dtype=(0, 8, 1), shape=(2, 1),
                                           strides=(I64_MAX, 1)),
    "int64's largest span of 4-bit elements (a byte a stride), 2-D": dict(
        data=4096, dtype=(0, 4, 1), shape=(2, 1), strides=(I64_MAX, 1)),
    "no elements, NULL strides, int64's largest extent": dict(data=0, shape=(0, I64_MAX),
                                                              strides=None),
    "elements down to address 0 on a GPU (never read)": dict(data=32, device=(2, 0),
                                                             shape=(3, 1), strides=(-4, 1)),
}


@pytest.mark.parametrize("fields", VALID.values(), ids=VALID.keys())
def test_valid_edge_cases_are_accepted(fields):
    p = _producer(**fields)
    x = dltensor.from_dlpack(p)
    assert p.deleter_calls == 0
    shape = fields.get("shape", (3, 4))
    assert x.shape == tuple(shape)
    del x
    assert p.deleter_calls == 1


# --- capsules that are not ours to take -------------------------------------------------------

def test_wrong_capsule_name():
    p = _producer(name=b"not_a_dltensor")
    cap = p.__dlpack__(max_version=(1, 3))
    with pytest.raises(BufferError, match="not a DLPack capsule"):
        dltensor.from_dlpack(cap)
    assert P.capsule_name(cap) == b"not_a_dltensor", "must not take what is not a DLPack capsule"
    assert p.deleter_calls == 0


def test_used_capsule_is_refused():
    p = _producer()
    cap = p.__dlpack__(max_version=(1, 3))
    x = dltensor.asarray(cap)
    with pytest.raises(BufferError, match="already consumed"):
        dltensor.asarray(cap)
    with pytest.raises(BufferError, match="already consumed"):
        consume_capsule(cap)
    assert p.deleter_calls == 0
    del x, cap
    assert p.deleter_calls == 1


def test_capsule_consumed_by_another_library_is_refused():
    p = _producer()
    cap = p.__dlpack__(max_version=(1, 3))
    a = np.from_dlpack(P.CapsuleHolder(cap))
    with pytest.raises(BufferError):
        dltensor.from_dlpack(cap)
    del a
    assert p.deleter_calls == 1


@pytest.mark.parametrize("obj", [42, "dltensor", b"\0" * 8, None, object()],
                         ids=["int", "str", "bytes", "None", "object"])
def test_not_a_producer_is_a_type_error(obj):
    with pytest.raises(TypeError):
        dltensor.from_dlpack(obj)
    with pytest.raises(TypeError):
        consume_capsule(obj)


@pytest.mark.parametrize("value", [42, b"dltensor", None, np.zeros(3)],
                         ids=["int", "bytes", "None", "ndarray"])
def test_producer_returning_a_non_capsule(value):
    with pytest.raises(BufferError, match="not a DLPack capsule"):
        dltensor.from_dlpack(P.NonCapsuleProducer(value))


@pytest.mark.parametrize("exc, expected", [  # (the spec: from_dlpack "must propagate" them)
    (BufferError("no"), BufferError), (ValueError("no"), ValueError),
    (RuntimeError("no"), RuntimeError), (KeyError("no"), KeyError),
    (ZeroDivisionError(), ZeroDivisionError), (MemoryError("no"), MemoryError),
    (TypeError("no"), TypeError),
], ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else v.__name__)
def test_producer_raising(exc, expected):
    p = P.RaisingProducer(exc)
    with pytest.raises(expected):
        dltensor.from_dlpack(p)
    assert p.calls <= 2  # at most one retry without the new keywords


def test_keyboard_interrupt_is_not_swallowed():
    with pytest.raises(KeyboardInterrupt):
        dltensor.from_dlpack(P.RaisingProducer(KeyboardInterrupt()))


def test_producer_raising_type_error_is_not_asked_forever():
    p = P.AlwaysTypeErrorProducer()
    with pytest.raises(TypeError):
        dltensor.from_dlpack(p)
    assert p.calls == 2


def test_lying_dlpack_device_does_not_fool_the_consumer():
    # __dlpack_device__ says CPU, the tensor says Metal: the tensor is what dltensor holds.
    p = P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 1), shape=(2,), strides=(1,),
                   dlpack_device=(P.CPU, 0))
    x = dltensor.from_dlpack(p)
    assert str(x.device) == "metal:1"
    with pytest.raises(RuntimeError, match="metal"):
        x._compute()


# --- wrong argument values ------------------------------------------------------------------

@pytest.mark.parametrize("copy", ["yes", 2, [True]], ids=["str", "int", "list"])
def test_bad_copy_argument(copy):
    p = _producer()
    with pytest.raises((TypeError, ValueError)):
        dltensor.from_dlpack(p, copy=copy)
    with pytest.raises((TypeError, ValueError)):
        dltensor.asarray(np.zeros(3), copy=copy)
    assert p.exports == [], "a bad argument must be refused before the producer is asked"


def test_bad_device_argument():
    with pytest.raises(ValueError):
        dltensor.from_dlpack(np.zeros(3), device="nowhere")
    with pytest.raises(TypeError):
        dltensor.from_dlpack(np.zeros(3), device=3.5)


@pytest.mark.parametrize("device, exc", [(123, TypeError), ("cuda:x", ValueError),
                                         ((99, 0), ValueError)])
def test_a_bad_device_is_refused_before_anything_is_taken(device, exc):
    # The capsule stays unconsumed (a caller may still hand it elsewhere); no producer is asked.
    p = P.from_numpy(np.arange(3.0))
    cap = p.__dlpack__(max_version=(1, 0))
    for take in (dltensor.from_dlpack, dltensor.asarray):
        with pytest.raises(exc):
            take(cap, device=device)
        assert P.capsule_name(cap) == b"dltensor_versioned"
        with pytest.raises(exc):
            take(p, device=device)
    assert len(p.exports) == 1 and p.deleter_calls == 0
    del cap
    assert p.deleter_calls == 1


@pytest.mark.parametrize("request_", [
    dict(dtype=dltensor.float32, copy=False),   # a conversion that needs a copy
    dict(device="rocm:0"),                      # a device dltensor cannot copy to
    dict(device="cuda:0", copy=False),          # a move, under copy=False
])
def test_a_refused_request_leaves_a_bare_capsule_to_its_holder(request_):
    # A producer can be asked again; a bare capsule cannot: a refusal must not consume it.
    a = np.arange(3.0)
    p = P.from_numpy(a)
    for take in (dltensor.from_dlpack, dltensor.asarray):
        if "dtype" in request_ and take is dltensor.from_dlpack:
            continue
        cap = p.__dlpack__(max_version=(1, 0))
        released = p.deleter_calls
        with pytest.raises((BufferError, ValueError)):
            take(cap, **request_)
        assert P.capsule_name(cap) == b"dltensor_versioned" and p.deleter_calls == released
        x = take(cap)  # taken now, the same memory, and released once
        assert P.capsule_name(cap) == b"used_dltensor_versioned"
        assert np.from_dlpack(x).__array_interface__["data"] == a.__array_interface__["data"]
        del x, cap
    assert p.deleter_calls == len(p.exports)


def test_a_malformed_bare_capsule_refused_under_a_request_is_released_once():
    p = P.from_numpy(np.arange(3.0), dtype=(2, 32, 3))  # vector lanes: refused
    cap = p.__dlpack__(max_version=(1, 0))
    with pytest.raises(BufferError, match="lanes"):
        dltensor.asarray(cap, copy=True)
    assert p.deleter_calls == 0  # still the capsule's, whose destructor releases it
    del cap
    assert p.deleter_calls == 1


def test_a_request_granted_consumes_a_bare_capsule():
    p = P.from_numpy(np.arange(3.0))
    cap = p.__dlpack__(max_version=(1, 0))
    y = dltensor.asarray(cap, dtype=dltensor.float32)  # a copy: the tensor is released now
    assert P.capsule_name(cap) == b"used_dltensor_versioned" and p.deleter_calls == 1
    with pytest.raises(BufferError, match="already consumed"):
        dltensor.asarray(cap, copy=True)
    assert np.from_dlpack(y).tolist() == [0.0, 1.0, 2.0]


def test_bad_dtype_argument():
    with pytest.raises(TypeError):
        dltensor.asarray([1, 2], dtype="float32")
    with pytest.raises(TypeError):
        dltensor.asarray([1, 2], dtype=np.float32)


# --- crash-prone cases, each in its own interpreter ------------------------------------------

CRASHY = {
    "NULL shape, ndim 1": dict(shape=(4,), strides=(1,), null_shape=True),
    "NULL shape, ndim 3": dict(shape=(1, 2, 2), strides=None, null_shape=True),
    "NULL shape and strides, ndim 2": dict(shape=(2, 2), null_shape=True, null_strides=True),
    "ndim 1000 with a 1-element shape array": dict(ndim=1000, shape=(4,), strides=(1,)),
    "ndim 2**31-1": dict(ndim=2**31 - 1, shape=(4,), strides=(1,)),
    "NULL shape, NULL data, ndim 2": dict(shape=(2, 2), null_shape=True, data=0),
}

_SCRIPT = r"""
import gc, sys
sys.path.insert(0, sys.argv[1] + "/tests")
sys.path.insert(0, sys.argv[1])
import numpy as np
import producers as P
import dltensor
fields = eval(sys.argv[2])
a = np.arange(4, dtype=np.float32)
kw = dict(buffer=a, data=a.ctypes.data)
kw.update(fields)
for how in ("from_dlpack", "asarray capsule"):
    p = P.Producer(**kw)
    try:
        if how == "from_dlpack":
            dltensor.from_dlpack(p)
        else:
            dltensor.asarray(p.__dlpack__(max_version=(1, 0)))
    except BaseException as e:
        gc.collect()
        print(how, type(e).__name__, p.deleter_calls)
    else:
        print(how, "accepted", p.deleter_calls)
"""


@pytest.mark.parametrize("fields", CRASHY.values(), ids=CRASHY.keys())
def test_crash_prone_tensor_is_refused_in_a_subprocess(fields):
    r = subprocess.run([sys.executable, "-c", _SCRIPT, ROOT, repr(fields)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"crashed with {r.returncode}: {r.stderr[-2000:]}"
    assert r.stdout.splitlines() == ["from_dlpack BufferError 1", "asarray capsule BufferError 1"]


# Device types whose data pointer is an address (CPU, CUDA with its pinned and managed memory,
# ROCm with its pinned memory, oneAPI's USM) and some where it is a buffer handle (OpenCL,
# Vulkan, Metal, WebGPU).
ADDRESSES, HANDLES = (1, 2, 3, 10, 11, 13, 14), (4, 7, 8, 15)


@pytest.mark.parametrize("device", ADDRESSES + HANDLES)
def test_elements_past_the_address_space_are_refused_where_the_pointer_is_an_address(device):
    # NumPy and CuPy take no pointer past 2**64 (an OverflowError at the first computation, not
    # at the import); a handle is a number no element's address is computed from. (The
    # pointers are never touched.)
    p = _producer(device=(device, 0), data=2**64 - 32)
    if device in HANDLES:
        assert dltensor.from_dlpack(p).shape == (3, 4)
    else:
        with pytest.raises(BufferError, match=OUTSIDE):
            dltensor.from_dlpack(p)
    assert p.deleter_calls == 1


@pytest.mark.parametrize("versioned", [True, False])
@pytest.mark.parametrize("field, pointer", [("shape", 2**62), ("shape", 2**64 - 16),
                                            ("strides", 2**62), ("strides", 2**63)])
def test_shape_or_strides_past_the_address_space_are_refused_and_freed(versioned, field,
                                                                       pointer):
    # dltensor reads memory through one ctypes array of 2**62 bytes: a pointer at or past its
    # end read short, a struct.error after the capsule was renamed (the tensor never freed).
    # (The pointers are never touched.)
    a = np.arange(12, dtype=np.float32)
    cap, export = P.make_capsule(data=a.ctypes.data, shape=(3, 4), strides=(4, 1),
                                 versioned=versioned, keep=a)
    setattr(P.capsule_struct(cap).dl_tensor, field, pointer)
    with pytest.raises(BufferError, match="past the address space"):
        dltensor.from_dlpack(cap)
    assert export.deleter_calls == 1
    del cap
    gc.collect()
    assert export.deleter_calls == 1


def test_a_managed_tensor_past_the_address_space_is_refused():
    # (its deleter cannot be read; the pointer is never touched)
    for name in (b"dltensor_versioned", b"dltensor"):
        with pytest.raises(BufferError, match="lies past the address space"):
            dltensor.from_dlpack(P._PyCapsule_New(2**62, name, None))


# --- more malformed tensors (catalogue: MALFORMED above plus these) --------------------------

MALFORMED_MORE = {
    "lanes 65535": (dict(dtype=(2, 32, 65535)), "lanes=65535"),
    "opaque handle with 7 bits": (dict(dtype=(3, 7, 1)), BITS),
    "int with 3 bits": (dict(dtype=(0, 3, 1)), BITS),
    "float4 with 4 bits and 8 lanes": (dict(dtype=(17, 4, 8)), "lanes=8"),
    "device code 21 (after DLPack 1.3)": (dict(device=(21, 0)), DEVICE),
    "device code int32 max": (dict(device=(2**31 - 1, 0)), DEVICE),
    "ndim 64 with one negative extent": (dict(shape=(1,) * 63 + (-1,), strides=(1,) * 64),
                                         "negative extent"),
    "size 0 beside a negative extent": (dict(shape=(0, -1), strides=(1, 1)), "negative extent"),
    "byte span overflows only in bytes": (dict(shape=(2**61 + 1,), strides=(1,)), SPAN),
    "spans overflow only when summed": (dict(shape=(3, 3), strides=(2**61, 2**61)), SPAN),
    "byte_offset uint64 max": (dict(byte_offset=2**64 - 1), "invalid byte_offset"),
    "NULL data, NULL strides, with elements": (dict(data=0, strides=None), NULL),
    "most negative extent": (dict(shape=(-2**63, 1), strides=(1, 1)), "negative extent"),
    "negative device id": (dict(device=(2, -1)), "invalid DLPack device id"),
}


@pytest.mark.parametrize("fields, words", MALFORMED_MORE.values(), ids=MALFORMED_MORE.keys())
@pytest.mark.parametrize("versioned", ["auto", False], ids=["versioned", "legacy"])
def test_more_malformed_tensors_are_refused_and_given_back(fields, words, versioned):
    p = _producer(versioned=versioned, **fields)
    before = live_count()
    with pytest.raises(BufferError, match=words):
        dltensor.from_dlpack(p)
    cap = p.__dlpack__(max_version=(1, 3))
    with pytest.raises(BufferError, match=words):
        dltensor.asarray(cap)
    assert P.capsule_name(cap).startswith(b"used_")
    del cap
    assert [e.deleter_calls for e in p.exports] == [1, 1]
    assert live_count() == before


@pytest.mark.parametrize("device_id", [3, -1])
def test_cpu_tensor_with_a_nonzero_device_id(device_id):
    # Was a device printing 'cpu' that was not dltensor's CPU: `x + y` raised "arrays are on
    # different devices (cpu and cpu)". Refused, or the CPU: both are fine.
    p = _producer(device=(1, device_id), shape=(12,), strides=(1,))
    try:
        x = dltensor.from_dlpack(p)
    except BufferError:
        assert p.deleter_calls == 1  # refused: fine, if given back
        return
    y = dltensor.asarray(np.ones(12, np.float32))
    assert x.device == y.device
    assert np.asarray(x + y).tolist() == [i + 1.0 for i in range(12)]


# --- bad input that is not a tensor at all: name -> (object, exception classes) --------------

BAD_INPUT = {
    "object": (lambda: object(), TypeError),
    "str": (lambda: "1.0", TypeError),
    "empty str": (lambda: "", TypeError),
    "list of str": (lambda: ["1", "2"], TypeError),
    "str nested in numbers": (lambda: [[1, "2"]], TypeError),
    "list of bytes": (lambda: [b"a", b"b"], TypeError),
    "ragged list": (lambda: [[1, 2], [3]], ValueError),
    "ragged, deeper": (lambda: [[[1]], [2]], ValueError),
    "scalar beside a list": (lambda: [1, [2, 3]], ValueError),
    "ragged list of dltensor arrays": (
        lambda: [dltensor.asarray([1, 2]), dltensor.asarray([1])], ValueError),
    "dict": (lambda: {0: 1.0}, TypeError),
    "set": (lambda: {1.0, 2.0}, TypeError),
    "None": (lambda: None, TypeError),
    "list of None": (lambda: [None, None], TypeError),
    "list of objects": (lambda: [object()], TypeError),
    "generator": (lambda: (i for i in range(3)), TypeError),
    "Decimal": (lambda: __import__("decimal").Decimal("1.5"), TypeError),
    "Fraction": (lambda: __import__("fractions").Fraction(1, 2), TypeError),
    "int beyond 64 bits": (lambda: 2**64, (TypeError, OverflowError)),
    "list with an int beyond 64 bits": (lambda: [1, 2**70], (TypeError, OverflowError)),
    "NumPy str array": (lambda: np.array(["a", "b"]), TypeError),
    "NumPy object array": (lambda: np.array([1, None], dtype=object), TypeError),
    "NumPy structured array": (lambda: np.zeros(2, dtype=[("a", "i4")]), TypeError),
    "NumPy void array": (lambda: np.zeros(2, dtype="V4"), TypeError),
    "NumPy datetime64 array": (lambda: np.array(["2020-01-01"], dtype="M8[D]"), TypeError),
    "NumPy timedelta64 array": (lambda: np.array([1], dtype="m8[s]"), TypeError),
    # ('u' is deprecated from Python 3.13, which has 'w', and goes in 3.16)
    "unicode memoryview": (lambda: memoryview(__import__("array").array(
        "w" if __import__("sys").version_info >= (3, 13) else "u", "ab")), TypeError),
    "__dlpack__ that is None": (lambda: P.NotCallableProducer(), TypeError),
    "__dlpack__ raising TypeError forever": (lambda: P.AlwaysTypeErrorProducer(), TypeError),
    "__dlpack__ raising BufferError": (lambda: P.RaisingProducer(BufferError("no")), BufferError),
    "__dlpack__ recursing into asarray": (lambda: P.ReentrantProducer(dltensor.asarray),
                                          BufferError),
    "__dlpack__ recursing into from_dlpack": (lambda: P.ReentrantProducer(dltensor.from_dlpack),
                                              BufferError),
    "__dlpack__ returning bytes": (lambda: P.NonCapsuleProducer(b"dltensor"), BufferError),
    "__dlpack__ returning a foreign capsule": (
        lambda: _producer(name=b"not_a_dltensor"), BufferError),
}


@pytest.mark.parametrize("make, exc", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_asarray_of_bad_input_raises_a_clear_error(make, exc):
    obj = make()
    with pytest.raises(exc) as info:
        dltensor.asarray(obj)
    assert str(info.value), "the error must say what is wrong"
    assert not isinstance(info.value, SystemError)
    if isinstance(obj, P.Producer):  # a foreign capsule is not ours to take or to release
        assert all(e.deleter_calls == 0 for e in obj.exports)


@pytest.mark.parametrize("scalar", [np.datetime64("2020-01-01"), np.timedelta64(5, "s")],
                         ids=["datetime64", "timedelta64"])
def test_asarray_of_a_datetime_scalar_is_refused(scalar):
    # NumPy's datetime scalars export the buffer protocol as raw bytes (format 'B'): asarray
    # made a uint8 array of them, where arrays of datetimes are refused.
    with pytest.raises(TypeError):
        dltensor.asarray(scalar)


def test_same_capsule_twice_is_refused_the_second_time():
    p = P.SameCapsuleProducer(np.arange(4, dtype=np.float32), shape=(4,), strides=(1,))
    x = dltensor.from_dlpack(p)
    with pytest.raises(BufferError, match="already consumed"):
        dltensor.from_dlpack(p)
    assert p.deleter_calls == 0
    del x
    assert p.deleter_calls == 1


@pytest.mark.parametrize("says", [(P.METAL, 0), (P.CUDA, 3), "cpu", (1, 0, 0)],
                         ids=["metal", "cuda:3", "a string", "a 3-tuple"])
def test_lying_dlpack_device_about_a_cpu_tensor(says):
    # The tensor is what dltensor holds, whatever __dlpack_device__ claims.
    a = np.arange(4, dtype=np.float32)
    p = P.from_numpy(a)
    p.dlpack_device = says
    x = dltensor.from_dlpack(p)
    assert x.device == dltensor.asarray(a).device and x.data_ptr == a.ctypes.data
    del x
    assert p.deleter_calls == 1


def test_dlpack_device_that_raises_is_not_needed():
    p = P.DeviceRaisingProducer(np.arange(4, dtype=np.float32), shape=(4,), strides=(1,))
    x = dltensor.asarray(p)
    assert np.asarray(x).tolist() == [0, 1, 2, 3]
    del x
    assert p.deleter_calls == 1


def test_an_unhashable_dlpack_device_does_not_leak_a_raw_error():
    # (it was `TypeError: unhashable type: 'list'` from a set lookup, for device="cpu" only)
    a = np.arange(3.0)
    x = dltensor.from_dlpack(P.from_numpy(a, dlpack_device=([1], 0)), device="cpu")
    assert x.data_ptr == a.ctypes.data


@pytest.mark.parametrize("stride", [2**62, 2**60, -2**60, I64_MAX, -2**63])
def test_a_huge_stride_on_an_axis_of_extent_one_is_harmless(stride):
    # Never used, so any int64 is valid there (NumPy and PyTorch take it); NumPy's view of it
    # used to overflow a C long on every use. (2**60 elements of 8 bytes: the first stride in
    # bytes past a C long; -2**60: the least within it)
    a = np.arange(3.0)
    x = dltensor.from_dlpack(P.from_numpy(a, shape=(1, 3), strides=(stride, 1)))
    assert np.asarray(x + 1).tolist() == [[1.0, 2.0, 3.0]]
    assert np.asarray(x).__array_interface__["data"][0] == a.ctypes.data
    assert "1., 2." in repr(x)


def test_an_empty_shape_whose_compact_strides_overflow_is_refused():
    # NULL strides mean compact row-major: for this (empty) shape the first would be 2**124,
    # which no export could carry (it was struct.error on every hand-off later).
    p = P.Producer(data=0, shape=(0, 2**62, 2**62), strides=None, version=(1, 1))
    with pytest.raises(BufferError, match="too large"):
        dltensor.from_dlpack(p)
    assert p.deleter_calls == 1


def test_from_dlpack_of_an_object_without_dlpack_is_an_attribute_error():
    # (the spec's Raises: AttributeError; TypeError too, as a wrong type)
    for x in (memoryview(b"ab"), [1.0], 3, np.float64(1.0).item()):
        with pytest.raises(AttributeError, match="__dlpack__"):
            dltensor.from_dlpack(x)
        with pytest.raises(TypeError):
            dltensor.from_dlpack(x)


def test_lists_nested_past_numpys_dimensions_are_value_errors():
    # (the scans for strings and arrays recursed: RecursionError)
    looped = [1.0]
    looped.append(looped)
    deep: object = 1.0
    for _ in range(2000):
        deep = [deep]
    for x in (looped, deep, [[np.float32(1.0), looped]]):
        with pytest.raises(ValueError):
            dltensor.asarray(x)
