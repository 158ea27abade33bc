"""Threads: tensors exchanged between threads with NumPy and PyTorch, deleters run on threads
other than their creator's, one array exported from many threads at once. No error, no leak.

What is and is not thread-safe is written down in docs/reliability.md. The exchange runs 2 s
here (``DLTENSOR_THREAD_SECONDS``); tests/reliability/soak.py runs it 10 s.
"""

import os
import threading
import time

import numpy as np
import pytest
import torch

import producers as P
import dltensor
from dltensor._dlpack import produce
from reliability import workloads

SECONDS = float(os.environ.get("DLTENSOR_THREAD_SECONDS", "2"))
THREADS = 8


pytestmark = pytest.mark.usefixtures("leak_accounting")


def test_threads_exchange_tensors_with_numpy_and_torch():
    r = workloads.exchange(THREADS, SECONDS)
    assert r["errors"] == [], r["errors"][0]
    assert r["exchanges"] > 1000, r  # the threads did run, concurrently, for the whole time
    # Every item was released by a thread other than its creator, or by the main thread at the
    # end; the test producer's deleter ran exactly once, right there (checked per item).
    assert r["released_cross_thread"] + r["released_at_end"] == r["exchanges"], r
    assert r["live_count_drift"] == 0 and r["test_producer_exports_alive"] == 0, r
    assert r["shared_deleter_calls"] == 1, r


def _run_together(fn, n=THREADS):
    """Run ``fn(i)`` on n threads released at once; re-raise the first error; return results."""
    barrier, out, errors = threading.Barrier(n), [None] * n, []

    def run(i):
        try:
            barrier.wait()
            out[i] = fn(i)
        except BaseException as e:
            errors.append(e)

    workloads.run_threads(run, n, 1e-6)
    if errors:
        raise errors[0]
    return out


def test_first_compute_from_many_threads_at_once():
    # The compute view is made lazily on first use: eight threads race to make it.
    for _ in range(20):
        p = P.from_numpy(np.arange(12.0), shape=(3, 4), strides=(4, 1))
        x = dltensor.from_dlpack(p)
        sums = _run_together(lambda i: float(dltensor.sum(x + i)))
        assert sums == [66.0 + 12 * i for i in range(THREADS)]
        assert np.asarray(x).__array_interface__["data"][0] == x.data_ptr
        del x
        assert p.deleter_calls == 1


def test_one_array_exported_from_many_threads_at_once():
    p = P.from_numpy(np.arange(16.0))
    x = dltensor.from_dlpack(p)
    consumers = [np.from_dlpack, torch.from_dlpack, dltensor.from_dlpack,
                 lambda v: dltensor.from_dlpack(v.__dlpack__(max_version=(1, 0)))]

    def export(i):
        return [consumers[(i + j) % 4](x[j:]) for j in range(50)]

    held = _run_together(export)
    del x
    assert p.deleter_calls == 0, "the exports still hold the memory"
    # Release the exports from other threads than the ones that made them.
    _run_together(lambda i: held[(i + 1) % THREADS].clear())
    assert p.deleter_calls == 1


def test_release_on_many_threads_at_once():
    ps = [P.from_numpy(np.full(4, float(i))) for i in range(THREADS * 25)]
    boxes = [[dltensor.from_dlpack(p) for p in ps[i::THREADS]] for i in range(THREADS)]
    _run_together(lambda i: boxes[i].clear())
    assert [p.deleter_calls for p in ps] == [1] * len(ps)


def test_python_fallback_producer_from_many_threads(monkeypatch):
    # Without the C release pair, exports go through the Python fallback, whose holder dict is
    # guarded by a lock: exports made and released on different threads must balance it.
    monkeypatch.setattr(produce, "_c_release", {})
    p = P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(8,), strides=(1,))
    x = dltensor.from_dlpack(p)
    holders_before = len(produce._holders)
    made = _run_together(lambda i: [x.__dlpack__(max_version=(1, 0)) if j % 2 else
                                    dltensor.from_dlpack(x.__dlpack__(max_version=(1, 0)))
                                    for j in range(100)])
    assert len(produce._holders) == holders_before + THREADS * 100
    _run_together(lambda i: made[(i + 3) % THREADS].clear())
    assert len(produce._holders) == holders_before
    del x
    assert p.deleter_calls == 1


def test_one_capsule_taken_by_many_threads_at_once_is_taken_once(monkeypatch):
    # The check, the read and the rename of a capsule are three C calls from Python: without a
    # lock two threads could both take the tensor between them (deleter called twice; NumPy's
    # frees twice and crashes), and the loser got ValueError from PyCapsule_GetPointer. A
    # pause after the read makes the window wide enough to hit every time.
    from dltensor._dlpack import consume
    real = consume._get_pointer

    def slow_get_pointer(capsule, name):
        address = real(capsule, name)
        time.sleep(0.002)
        return address

    monkeypatch.setattr(consume, "_get_pointer", slow_get_pointer)
    for _ in range(20):
        p = P.from_numpy(np.arange(4.0))
        cap = p.__dlpack__(max_version=(1, 0))

        def take(i):
            try:
                return dltensor.from_dlpack(cap)
            except BufferError as e:
                assert "already consumed" in str(e)
                return None

        got = [x for x in _run_together(take, 4) if x is not None]
        assert len(got) == 1
        del got
        assert p.deleter_calls == 1


def test_a_capsule_being_taken_holds_up_no_other_import():
    # taking_capsule held the process-wide lock through its whole block (a dtype conversion, a
    # copy, a move: 0.9 s for 1e8 elements), so every other thread's capsule import waited
    from dltensor._dlpack import consume
    cap = np.arange(3.0).__dlpack__(max_version=(1, 0))
    other = np.arange(4.0).__dlpack__(max_version=(1, 0))
    done, seen = [], []
    with consume.taking_capsule(cap) as mt:
        assert mt.shape == (3,)
        t = threading.Thread(target=lambda: done.append(dltensor.from_dlpack(other).shape))
        t.start()
        t.join(10)
        # the capsule being taken is refused to another thread, saying so
        t2 = threading.Thread(target=lambda: seen.append(_error(lambda: dltensor.from_dlpack(cap))))
        t2.start()
        t2.join(10)
    assert done == [(4,)]
    assert "being taken by another thread" in seen[0]
    with pytest.raises(BufferError, match="already consumed"):  # (the block ended: taken)
        dltensor.from_dlpack(cap)
    # a block that raises leaves the capsule as it was, for its holder to use again
    cap = np.arange(2.0).__dlpack__(max_version=(1, 0))
    with pytest.raises(KeyError):
        with consume.taking_capsule(cap):
            raise KeyError("refused")
    assert dltensor.from_dlpack(cap).shape == (2,)


def _error(call):
    try:
        call()
    except BufferError as e:
        return str(e)
    return "no error"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_child_forked_while_another_thread_took_a_capsule_can_import():
    # The lock's holder is not in the child: the child's capsule imports waited forever
    from dltensor._dlpack import consume
    held, release = threading.Event(), threading.Event()

    def hold():
        with consume._taking.lock:
            held.set()
            release.wait(30)
    t = threading.Thread(target=hold)
    t.start()
    held.wait(10)
    pid = os.fork()
    if pid == 0:  # the child: exits 0 if the import finished, is killed by the alarm if not
        import signal
        signal.alarm(10)
        code = 0 if dltensor.from_dlpack(np.arange(3.0).__dlpack__()).shape == (3,) else 1
        os._exit(code)
    release.set()
    t.join()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status


def test_error_checks_on_held_arrays_from_many_threads_leave_the_warning_filters_alone():
    # A bad argument on held memory is checked on CPU stand-ins inside catch_warnings, which
    # swaps the process-wide filter list in and out: interleaved on two threads, the check's
    # "ignore" stayed behind, and every warning of the process was silenced for good.
    import warnings
    p = P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(8,), strides=(1,))
    x = dltensor.from_dlpack(p)
    before = list(warnings.filters)

    def check(i):
        for _ in range(100):
            with pytest.raises(np.exceptions.AxisError):
                dltensor.sum(x, axis=5)

    _run_together(check)
    after, warnings.filters[:] = list(warnings.filters), before
    del x
    assert after == before
    assert p.deleter_calls == 1


def test_the_importer_cache_stays_bounded_when_threads_fill_it_at_once(monkeypatch):
    # Each new type's importer is remembered, the first learned dropped when the cache is
    # full: threads finding it full at once each dropped the same one and each added their
    # own, so it grew by every such collision, without bound (584 types after 72,000 imports
    # of classes made per call on 8 threads, for a bound of 256), each keeping its class alive.
    from dltensor import _interop
    kept = 16  # (a small bound: evictions on nearly every import, collisions soon)
    monkeypatch.setattr(_interop, "_TYPES_KEPT", kept)
    monkeypatch.setattr(_interop, "_importers", dict(_interop._importers))
    a = np.arange(4.0)

    def fresh_types(i, n=1500):
        for j in range(n):
            T = type(f"T{i}_{j}", (), {"__dlpack__": lambda self, **kw: a.__dlpack__(**kw),
                                        "__dlpack_device__": lambda self: a.__dlpack_device__()})
            assert dltensor.from_dlpack(T()).shape == (4,)
        return len(_interop._importers)

    sizes = _run_together(fresh_types)
    assert max(sizes) <= kept + THREADS, sizes  # (over it by at most one type a thread)
    fresh_types(THREADS, 1)  # one more, on one thread: back to the bound
    assert len(_interop._importers) == kept, sizes
