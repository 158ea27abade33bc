"""Stream ordering on the CUDA simulator (tests/cudasim; test_cudasim.py runs this file there):
the events dltensor records and the streams it makes wait, read from the simulator's log of
ordering calls. On a real GPU these skip: test_gpu.py's stream tests show the same ordering
with values (a producer held back by a spin, so an unordered reader sees stale data).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import sys

import numpy as np
import pytest

import dltensor as dt
from dltensor import _dlpack, _interop
from dltensor._dlpack import capsule as cap
from producers import (EXCHANGE_FROM_PY, EXCHANGE_STREAM, ExchangeAPI, Producer, capsule_name,
                       make_capsule)

try:
    import cupy
    SIMULATED = hasattr(cupy.cuda, "LOG")
except ImportError:
    SIMULATED = False
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not SIMULATED, reason="the CUDA simulator's")]


@pytest.fixture
def log():
    cupy.cuda.LOG.clear()
    return cupy.cuda.LOG


def _waits(log):
    """(waiting stream, stream whose work it waits for) for each wait in the log."""
    return [(e[1], e[2]) for e in log if e[0] in ("wait_event", "streamWaitEvent")]


def _held():
    memory = cupy.arange(4.0)  # (a DLPack producer over it: held, not CuPy's own array)
    p = Producer(data=memory.data.ptr, device=(2, 0), shape=(4,), dtype=(2, 64, 1))
    return dt.asarray(p), p, memory


def test_an_import_asks_the_producer_for_cupys_current_stream(log):
    s = cupy.cuda.Stream()
    with s:
        x, p, _ = _held()
    assert p.requests[-1]["stream"] == s.ptr and x.device == dt.Device(2, 0)
    assert _waits(log) == []  # (the producer orders that stream itself)
    x, p, _ = _held()
    assert p.requests[-1]["stream"] == 1  # CuPy's null stream: the legacy default


def test_an_export_makes_the_consumers_stream_wait_for_cupys(log):
    x, _, _ = _held()
    x.__dlpack__(stream=0xABC, max_version=(1, 0))
    assert _waits(log) == [(0xABC, 0)]
    s = cupy.cuda.Stream()
    log.clear()
    with s:
        x.__dlpack__(stream=0xABC, max_version=(1, 0))
    assert _waits(log) == [(0xABC, s.ptr)]
    log.clear()
    x.__dlpack__(stream=-1, max_version=(1, 0))  # no synchronisation asked
    x.__dlpack__(stream=None, max_version=(1, 0))  # the legacy default: CuPy's current here
    assert _waits(log) == []


def test_an_export_to_a_stream_the_runtime_refuses_waits_on_the_host(log, monkeypatch):
    # JAX 0.11's stream on an H200 made cudaStreamWaitEvent fail (cudaErrorContextIsDestroyed):
    # the host then waits for the work instead, which orders the consumer's later work too.
    def refuse(stream, event, flags=0):
        raise cupy.cuda.runtime.CUDARuntimeError("cudaErrorContextIsDestroyed")
    monkeypatch.setattr(cupy.cuda.runtime, "streamWaitEvent", refuse)
    x, _, _ = _held()
    cap = x.__dlpack__(stream=0xABC, max_version=(1, 0))
    recorded = [e[1] for e in log if e[0] == "record"]
    assert [e for e in log if e[0] == "event.synchronize"] == [("event.synchronize", recorded[-1])]
    assert dt.from_dlpack(cap).data_ptr == x.data_ptr


def test_a_cuda_array_interface_stream_is_waited_for(log):
    memory = cupy.arange(4.0)

    class Interface:
        def __init__(self, stream):
            self.__cuda_array_interface__ = dict(memory.__cuda_array_interface__, stream=stream)
    x = dt.asarray(Interface(0xDEF))
    assert _waits(log) == [(0, 0xDEF)] and x.data_ptr == memory.data.ptr
    log.clear()
    dt.asarray(Interface(None))  # (no stream key value: nothing to wait for)
    assert _waits(log) == []
    for bad in (-1, -5, 2**64):  # (no stream: refused as without CuPy, not CuPy's ValueError)
        with pytest.raises(BufferError, match="stream"):
            dt.asarray(Interface(bad))
    assert _waits(log) == []


def test_a_move_on_a_stream_waits_for_the_source_and_is_waited_for(log):
    x = dt.asarray(np.arange(3.0)).to_device("cuda:0", stream=0x123)
    assert _waits(log) == [(0x123, 0), (0, 0x123)]  # the copy's stream, then CuPy's on it
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), np.arange(3.0))
    log.clear()
    x.to_device("cpu", stream=0x123)
    assert _waits(log) == [(0x123, 0)]


def test_a_move_refuses_a_stream_of_another_gpu(log):
    # (the copy's event was recorded on it: CUDA's cudaErrorInvalidResourceHandle, after the
    # copy was queued)
    with cupy.cuda.Device(1):
        other = cupy.cuda.Stream()
    host, gpu = dt.asarray(np.arange(3.0)), dt.asarray(np.arange(3.0), device="cuda:0")
    for x, device in ((host, "cuda:0"), (gpu, "cpu"), (gpu, "cuda:0"), (gpu, "cuda_host:0"),
                      (dt.asarray(np.arange(3.0), device="cuda:1"), "cuda:0")):
        # (CuPy's deprecated ExternalStream names its GPU too: it was wrapped as of none)
        for stream in (other, cupy.cuda.ExternalStream(other.ptr, 1)):
            with pytest.raises(ValueError, match="belongs to cuda:1"):
                x.to_device(device, stream=stream)
    # its own GPU's streams, and the default ones of any GPU, are taken
    for x, device in ((host, "cuda:1"), (gpu, "cuda:1")):
        np.testing.assert_array_equal(np.asarray(x.to_device(device, stream=other)
                                                 .to_device("cpu")), np.arange(3.0))
    assert gpu.to_device("cuda:1", stream=cupy.cuda.Stream.null).device == dt.Device(2, 1)


def test_a_host_copy_by_the_producer_is_asked_on_its_gpu(log):
    # CuPy's copy to the CPU (__dlpack__ with dl_device=(kDLCPU, 0)) runs on the current
    # GPU's current stream: for an array of GPU 1 asked while GPU 0 was current, that was GPU
    # 0's stream, not GPU 1's where its work is queued.
    with cupy.cuda.Device(1):
        memory, work = cupy.arange(4.0), cupy.cuda.Stream()
        work.use()
    try:
        with cupy.cuda.Stream():  # (GPU 0's current stream)
            x = dt.from_dlpack(memory, device="cpu")
        assert [e for e in log if e[0] == "get"] == [("get", 1, work.ptr, 1)]
        np.testing.assert_array_equal(np.asarray(x), np.arange(4.0))
    finally:
        with cupy.cuda.Device(1):
            cupy.cuda.Stream.null.use()


# --- a producer offering the C exchange API (as PyTorch does) -----------------------------------

def _exchanging_type(stream: int, flags: int = 0, dtype: tuple[int, int, int] = (2, 64, 1),
                     gpu: int = 0, major: int = 1, shape: tuple[int, ...] = (4,),
                     strides: tuple[int, ...] = (1,)):
    """A type whose instances (4 float64s of simulated CUDA memory on GPU ``gpu``, or their
    first 4 bytes as ``dtype``, as ``shape`` and ``strides``) come out of its C exchange API
    with their work on ``stream`` (0: the default stream), ``flags`` and DLPack version
    ``major``, and whose __dlpack__ fails."""
    live: dict[int, object] = {}

    @EXCHANGE_FROM_PY
    def from_py(obj_id, out):
        obj = live[obj_id]
        if obj.refused:  # (-1 with no Python error set: a callback in Python cannot set one)
            return -1
        capsule = _dlpack.make_capsule(obj.memory, data=obj.memory.data.ptr, byte_offset=0,
                                       device=(2, gpu), dtype=dtype, shape=shape,
                                       strides=strides, flags=flags)
        address = cap.PyCapsule_GetPointer(capsule, cap.CAPSULE_NAME_VERSIONED)
        cap.PyCapsule_SetName(capsule, cap.USED_CAPSULE_NAME_VERSIONED)  # (handed over)
        ctypes.c_uint32.from_address(address).value = major
        ctypes.c_void_p.from_address(out).value = address
        return 0

    @EXCHANGE_STREAM
    def current_work_stream(device_type, device_id, out):
        assert (device_type, device_id) == (2, 0)
        ctypes.c_void_p.from_address(out).value = stream
        return 0

    api = ExchangeAPI(1, 3, None, None, ctypes.cast(from_py, ctypes.c_void_p).value, None, None,
               ctypes.cast(current_work_stream, ctypes.c_void_p).value)

    class Exchanging:
        __dlpack_c_exchange_api__ = cap.PyCapsule_New(ctypes.addressof(api),
                                                      b"dlpack_exchange_api", None)
        keep = (api, from_py, current_work_stream)

        def __init__(self, refused=False):
            with cupy.cuda.Device(gpu):
                self.memory = cupy.arange(4.0)
            self.refused = refused
            live[id(self)] = self

        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kwargs):
            if self.refused:
                raise BufferError("refused, in the producer's words")
            raise AssertionError("__dlpack__ called: the exchange API was not used")
    return Exchanging


def _guarded(monkeypatch, tp):
    """``tp`` (an _exchanging_type), its tensors all on GPU 0 by the exchange importer's guard."""
    monkeypatch.setitem(_interop._EXCHANGE_GUARDS, f"{tp.__module__}.{tp.__qualname__}",
                        lambda obj: 0)
    return tp


def _holds(memory) -> int:
    """The references to ``memory``, for a test to compare two counts made alike: each from
    the test's own frame (a call's references to its argument differ between Python
    versions: 3.10 holds one more per frame). Not in an assert: pytest keeps what asserts
    name."""
    gc.collect()  # (the simulator's arrays over capsules are in reference cycles)
    return sys.getrefcount(memory)


@pytest.mark.parametrize("producer_stream, current, waits", [
    (0, None, []),  # both on the legacy default stream: nothing to order
    (0xABC, None, [(0, 0xABC)]),  # CuPy's null stream waits for the producer's
    (0, "s", [("s", 1)]),  # a CuPy stream waits for the producer's default (legacy) one
])
def test_an_exchange_api_import_orders_cupys_stream_after_the_producers(
        log, monkeypatch, producer_stream, current, waits):
    tp = _guarded(monkeypatch, _exchanging_type(producer_stream))
    p = tp()
    s = cupy.cuda.Stream()
    with s if current else contextlib.nullcontext():
        x = dt.asarray(p)
    named = {"s": s.ptr}
    assert _waits(log) == [(named.get(a, a), named.get(b, b)) for a, b in waits]
    assert x.device == dt.Device(2, 0) and x.data_ptr == p.memory.data.ptr
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), [0.0, 1.0, 2.0, 3.0])
    del x  # (the tensor's deleter drops its hold on the memory)


def test_what_the_exchange_api_refuses_is_refused_by_dlpack_in_its_words(log, monkeypatch):
    # (its work on a stream, 0xABC: the thread's out-slot holds that handle before the refusal,
    # which the consumer once read as a tensor's address, as any value a failed call left)
    tp = _guarded(monkeypatch, _exchanging_type(0xABC))
    kept = dt.asarray(tp())  # (a tensor taken first: the refusal must not reuse its slot)
    with pytest.raises(BufferError, match="in the producer's words"):
        dt.asarray(tp(refused=True))
    assert float(dt.sum(kept)) == 6.0


def test_an_exchange_api_import_is_cupys_array_over_the_tensor(monkeypatch):
    # CuPy's consumer takes the tensor (numpy_backend.adopt's twin): the array computes and
    # exports as a CuPy array does, with no view or managed tensor of dltensor's made, and
    # the producer's hold on its memory goes when the array does (the deleter ran).
    tp = _guarded(monkeypatch, _exchanging_type(0))
    p = tp()
    ptr, held = p.memory.data.ptr, _holds(p.memory)  # (not in asserts: pytest's
    x = dt.asarray(p)                                          # keeps what they name)
    alive = _holds(p.memory)
    assert type(x._array) is cupy.ndarray and x._tensor is None and not x.read_only
    assert x.data_ptr == ptr and alive > held
    del x
    left = _holds(p.memory)  # (every tensor over it released, once)
    assert left == held
    exported = cupy.from_dlpack(dt.asarray(p)).data.ptr  # (CuPy's producer, CuPy's consumer)
    assert exported == ptr


def test_an_exchange_api_tensor_whose_elements_share_memory_is_read_only(monkeypatch):
    # (PyTorch's expand of a CUDA tensor: CuPy's array over it, marked read-only, as the CPU's
    # and dltensor's own broadcasts are; at 18ea5d0 `x += 1` wrote 4 sums to one element)
    tp = _guarded(monkeypatch, _exchanging_type(0, shape=(3, 4), strides=(0, 1)))
    p = tp()
    x = dt.asarray(p)
    assert type(x._array) is cupy.ndarray and x.read_only and x.data_ptr == p.memory.data.ptr
    with pytest.raises(ValueError, match="its elements share memory"):
        x += 1.0
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), [[0.0, 1.0, 2.0, 3.0]] * 3)
    np.testing.assert_array_equal(cupy.asnumpy(p.memory), [0.0, 1.0, 2.0, 3.0])
    y = dt.asarray(x, copy=True)
    y += 1.0
    assert not y.read_only and float(dt.sum(y)) == 30.0
    # (a stride of 0 along an axis of one element shares nothing: writable)
    one = dt.asarray(_guarded(monkeypatch, _exchanging_type(0, shape=(1, 4), strides=(0, 1)))())
    assert type(one._array) is cupy.ndarray and not one.read_only
    one += 1.0
    assert float(dt.sum(one)) == 10.0


@pytest.mark.parametrize("flags, dtype", [(1, (2, 64, 1)), (0, (10, 8, 1))],
                         ids=["read-only", "float8"])
def test_what_cupy_would_take_wrongly_is_held_by_dltensors_consumer(monkeypatch, flags, dtype):
    # CuPy ignores READ_ONLY and has no float8: such tensors stay dltensor's managed tensors
    # (read-only kept; float8 held, computing refused in dltensor's words)
    tp = _guarded(monkeypatch, _exchanging_type(0, flags, dtype))
    p = tp()
    ptr, held = p.memory.data.ptr, _holds(p.memory)
    x = dt.asarray(p)
    alive = _holds(p.memory)
    assert x._tensor is not None and x.read_only == bool(flags)
    assert x.data_ptr == ptr and alive > held
    if dtype[0] == 10:
        with pytest.raises(TypeError, match="float8_e4m3fn on cuda:0"):
            dt.abs(x)
    del x
    left = _holds(p.memory)  # (every tensor over it released, once)
    assert left == held


def test_an_exchange_api_tensor_on_another_gpu_than_its_guard_said_keeps_its_own(monkeypatch):
    # CuPy's consumer made the array over GPU 1's tensor, which was labelled with the guard's
    # GPU 0 (before CuPy's consumer, and at d5b2309: cuda:1, the tensor's own)
    tp = _guarded(monkeypatch, _exchanging_type(0, gpu=1))
    p = tp()
    held = _holds(p.memory)
    x = dt.asarray(p)
    assert x.device == dt.Device(2, 1) and x.data_ptr == p.memory.data.ptr
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), [0.0, 1.0, 2.0, 3.0])
    del x
    left = _holds(p.memory)  # (every tensor over it released, once)
    assert left == held


def test_an_exchange_api_tensor_of_another_major_version_is_refused_and_released(monkeypatch):
    # (its fields past the version may lie elsewhere: not read for CuPy, our consumer's
    # BufferError, as before CuPy's consumer took such tensors; the deleter run once)
    tp = _guarded(monkeypatch, _exchanging_type(0, major=2))
    p = tp()
    held = _holds(p.memory)
    with pytest.raises(BufferError, match="version 2"):
        dt.asarray(p)
    left = _holds(p.memory)  # (every tensor over it released, once)
    assert left == held


@pytest.mark.parametrize("fields, error", [
    ({}, None), (dict(version=(2, 0)), BufferError), (dict(device=(1, 0)), RuntimeError),
    (dict(dtype=(2, 32, 2), shape=(2,)), ValueError), (dict(dtype=(10, 8, 1)), TypeError),
], ids=["taken", "major 2", "cpu", "lanes 2", "float8"])
def test_cupy_takes_a_capsule_given_itself_as_cupy_14_2_does(fields, error):
    # (cupy/_core/dlpack.pyx, DLPackMemory: the capsule renamed used_* before anything is
    # checked, a refusal's deleter run then, in C. The simulator read the capsule without
    # taking it: a second from_dlpack made a second array over one tensor, and a refused
    # tensor was released only when its capsule died.)
    memory = cupy.arange(4.0)
    fields = dict(dict(data=memory.data.ptr, device=(2, 0), dtype=(2, 64, 1), shape=(4,)),
                  **fields)
    capsule, export = make_capsule(keep=(memory,), **fields)
    if error is None:
        a = cupy.from_dlpack(capsule)
        assert a.data.ptr == memory.data.ptr and export.deleter_calls == 0
        with pytest.raises(ValueError, match="consumed multiple times"):
            cupy.from_dlpack(capsule)
        del a
        gc.collect()
    else:
        with pytest.raises(error):
            cupy.from_dlpack(capsule)
    assert capsule_name(capsule) == b"used_dltensor_versioned" and export.deleter_calls == 1
