"""The C exchange API reader (DLPack 1.3's ``__dlpack_c_exchange_api__``): which types it takes.

A type is taken only with a capsule of the API's name, at major version 1, and each getter
only where its function pointer is set, and each call with an out-slot of its own.
(Calls through PyTorch's: tests/test_interop.py, test_cudasim_streams.py, test_gpu.py.)
"""

import ctypes

import pytest

from dltensor import _dlpack
from dltensor._dlpack import capsule as cap
from producers import EXCHANGE_FROM_PY, EXCHANGE_STREAM, ExchangeAPI


@EXCHANGE_STREAM
def _null_stream(device_type, device_id, out):  # (the default stream: a NULL handle)
    ctypes.c_void_p.from_address(out).value = None
    return 0


_SOME_FUNCTION = ctypes.cast(_null_stream, ctypes.c_void_p).value


def _offering(major=1, from_py=_SOME_FUNCTION, stream=_SOME_FUNCTION,
              name=b"dlpack_exchange_api"):
    api = ExchangeAPI(major, 3, None, None, from_py, None, None, stream)
    return type("Offering", (), {"__dlpack_c_exchange_api__": cap.PyCapsule_New(
        ctypes.addressof(api), name, None), "keep": api})


@pytest.mark.parametrize("tp", [
    object, int,
    type("NotACapsule", (), {"__dlpack_c_exchange_api__": 1}),
    _offering(name=b"another_api"),  # (a capsule of another name is not read)
    _offering(major=2),
], ids=["object", "int", "not a capsule", "another name", "major 2"])
def test_types_without_the_api_at_major_1_get_no_functions(tp):
    assert _dlpack.managed_tensor_taker(tp) is None
    assert _dlpack.current_stream_getter(tp) is None


def test_each_function_is_offered_only_where_its_pointer_is_set():
    assert _dlpack.managed_tensor_taker(_offering(from_py=None)) is None
    assert _dlpack.current_stream_getter(_offering(from_py=None)) is not None
    assert _dlpack.managed_tensor_taker(_offering(stream=None)) is not None
    assert _dlpack.current_stream_getter(_offering(stream=None)) is None


def test_a_null_work_stream_is_the_default_stream_0():
    assert _dlpack.current_stream_getter(_offering())(2, 0) == 0


def test_a_call_made_while_another_reads_its_slot_writes_a_slot_of_its_own():
    # From Python 3.12 a collection may run after any call: between the C call that writes a
    # thread's out-slot and its read, a finalizer that took a tensor on the same thread wrote
    # over it (the outer call returned the inner's tensor, owned twice; its own was never
    # released). Here the inner call runs from inside the outer, after its write.
    outer, inner = object(), object()

    @EXCHANGE_FROM_PY
    def from_py(obj, out):
        ctypes.c_void_p.from_address(out).value = 0x1000 if obj == id(outer) else 0x2000
        if obj == id(outer):
            assert take(inner) == 0x2000
        return 0

    @EXCHANGE_STREAM
    def stream(device_type, device_id, out):
        ctypes.c_void_p.from_address(out).value = 0x30 + device_id
        if device_id == 0:
            assert current(2, 1) == 0x31
        return 0

    tp = _offering(from_py=ctypes.cast(from_py, ctypes.c_void_p).value,
                   stream=ctypes.cast(stream, ctypes.c_void_p).value)
    take, current = _dlpack.managed_tensor_taker(tp), _dlpack.current_stream_getter(tp)
    assert take(outer) == 0x1000 and current(2, 0) == 0x30


def test_threads_taking_at_once_each_read_their_own_slot():
    # Each call takes an out-slot from a shared pool and puts it back after its read; a thread
    # switched to between another's C call and its read (forced here, inside the producer's
    # function, after its write) takes another slot, and reads what its own call wrote.
    import threading
    import time

    @EXCHANGE_FROM_PY
    def from_py(obj, out):
        ctypes.c_void_p.from_address(out).value = obj
        time.sleep(0)  # (another thread runs here)
        return 0

    take = _dlpack.managed_tensor_taker(_offering(from_py=ctypes.cast(from_py,
                                                                      ctypes.c_void_p).value))
    wrong = []

    def work():
        mine = [object() for _ in range(4)]
        for _ in range(300):
            for obj in mine:
                got = take(obj)
                if got != id(obj):
                    wrong.append((got, id(obj)))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong
