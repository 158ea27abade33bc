"""Stream ordering on the CUDA simulator (tests/cudasim; test_cudasim.py runs this file there):
the events dltensor records and the streams it makes wait, read from the simulator's log of
ordering calls. On a real GPU these skip: test_gpu.py's stream tests show the same ordering
with values (a producer held back by a spin, so an unordered reader sees stale data).
"""

from __future__ import annotations

import numpy as np
import pytest

import dltensor as dt
from producers import Producer

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


def test_a_move_on_a_stream_waits_for_the_source_and_is_waited_for(log):
    x = dt.asarray(np.arange(3.0)).to_device("cuda:0", stream=0x123)
    assert _waits(log) == [(0x123, 0), (0, 0x123)]  # the copy's stream, then CuPy's on it
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), np.arange(3.0))
    log.clear()
    x.to_device("cpu", stream=0x123)
    assert _waits(log) == [(0x123, 0)]
