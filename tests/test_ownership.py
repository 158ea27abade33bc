"""Ownership: every imported tensor's deleter runs exactly once, whoever ends up holding it,
and only when nothing (array, view, export) still uses the memory."""

import gc
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import torch

import producers as P
import dltensor
from dltensor._dlpack import live_count

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def no_leaks(request):
    """Every test leaves dltensor's count of owned tensors where it found it.

    The collector is off meanwhile: garbage other tests left in cycles (a traceback holding an
    array, say) must not be collected in the middle and move the count.
    """
    gc.disable()
    try:
        start = live_count()
        yield
        end = live_count()
    finally:
        gc.enable()
    if not getattr(request.function, "collects", False):
        assert end == start


def _cpu(**kw):
    a = np.arange(12, dtype=np.float32)
    fields = dict(shape=(3, 4), strides=(4, 1))
    fields.update(kw)
    return P.from_numpy(a, **fields), a


def _metal(**kw):
    fields = dict(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(3, 4), strides=(4, 1))
    fields.update(kw)
    return P.Producer(**fields)


@pytest.mark.parametrize("versioned", ["auto", False], ids=["versioned", "legacy"])
def test_consumed_then_released(versioned):
    p, a = _cpu(versioned=versioned)
    x = dltensor.from_dlpack(p)
    assert x.data_ptr == a.ctypes.data
    assert p.deleter_calls == 0
    del x
    assert p.deleter_calls == 1


def test_released_when_the_compute_view_is_gone_too():
    p, a = _cpu()
    x = dltensor.from_dlpack(p)
    view = x._compute()  # the NumPy view made on first compute holds the tensor
    del x
    assert p.deleter_calls == 0
    assert view[2, 3] == 11
    del view
    assert p.deleter_calls == 1


def test_released_from_a_reference_cycle():
    p, a = _cpu()
    holder = [dltensor.from_dlpack(p)]
    holder.append(holder)
    del holder
    assert p.deleter_calls == 0
    gc.collect()
    assert p.deleter_calls == 1


test_released_from_a_reference_cycle.collects = True  # gc.collect() frees others' garbage too


class _Keeper:
    """In a cycle with an imported array, and in the same garbage: its finalizer reads the
    array, and may keep it (both legal: the collector runs every finalizer of the garbage,
    in any order, before it frees anything)."""

    kept: list = []

    def __init__(self, x, p, keep):
        self.x, self.p, self.keep, self.me = x, p, keep, self

    def __del__(self):
        # (the values, and whether the producer had been told it may free them already)
        _Keeper.read = (float(dltensor.sum(self.x)), self.p.deleter_calls)
        if self.keep:
            _Keeper.kept.append(self.x)


@pytest.mark.parametrize("keep", [False, True], ids=["read", "kept"])
@pytest.mark.parametrize("versioned", ["auto", False], ids=["versioned", "legacy"])
def test_a_finalizer_in_the_same_garbage_reads_and_keeps_the_memory(versioned, keep):
    # The import's deleter ran from its own finalizer, first or not: a finalizer run after it
    # read freed memory (another array's values, or a segmentation fault), and an array it
    # kept pointed at freed memory for good. Made before the keeper, it was finalized first.
    for _ in range(3):  # (the order the collector finalizes in: any)
        p, a = _cpu(versioned=versioned)
        _Keeper(dltensor.from_dlpack(p), p, keep)
        gc.collect()
        assert _Keeper.read == (66.0, 0)  # (sum of 0..11, the memory not yet given back)
        assert p.deleter_calls == (0 if keep else 1)
        if keep:
            x = _Keeper.kept.pop()
            a[:] = 1.0  # (the producer's memory, still the array's)
            assert float(dltensor.sum(x)) == 12.0
            del x
            assert p.deleter_calls == 1


test_a_finalizer_in_the_same_garbage_reads_and_keeps_the_memory.collects = True


def test_an_array_taken_back_twice_is_released_once_when_let_go():
    # Taken back by a finalizer in one collection, then in cyclic garbage again with another
    # keeper: a weak reference's callback, run before the second collection's finalizers,
    # released it while the second keeper took it back (the array read freed memory).
    kept = []

    class Holder:  # (reads nothing: no view of the array in the garbage besides it)
        def __init__(self, x):
            self.x, self.me = x, self

        def __del__(self):
            kept.append(self.x)

    p, a = _cpu()
    Holder(dltensor.from_dlpack(p))
    gc.collect()
    Holder(kept.pop())
    gc.collect()
    assert p.deleter_calls == 0
    x = kept.pop()
    a[:] = 2.0
    assert float(dltensor.sum(x)) == 24.0
    box = [x]
    box.append(box)  # (let go in a third collection)
    del x, box
    assert p.deleter_calls == 0
    gc.collect()
    assert p.deleter_calls == 1


test_an_array_taken_back_twice_is_released_once_when_let_go.collects = True


def test_a_missed_end_of_collection_holds_no_deleter_back():
    # CPython skips the gc callback after one that removes itself: dltensor's then never sees
    # the collection end, and deleters queued for that end waited for good (gc disabled)
    def once(phase, info):
        if phase == "stop":
            gc.callbacks.remove(once)

    gc.callbacks.insert(0, once)
    try:
        gc.collect()
    finally:
        if once in gc.callbacks:
            gc.callbacks.remove(once)
    try:
        ps = [_cpu()[0] for _ in range(20)]
        for q in ps:
            del q  # (the loop's name still holds the last: cleared below)
        xs = [dltensor.from_dlpack(q) for q in ps]
        del xs
        assert [q.deleter_calls for q in ps] == [1] * 20
    finally:
        gc.collect()  # (a full one, seen whole: the flag right again)


test_a_missed_end_of_collection_holds_no_deleter_back.collects = True


def test_a_generator_in_the_same_garbage_reads_the_memory_in_its_finally():
    read = []
    p, a = _cpu()

    def worker(x):
        try:
            yield
        finally:
            read.append((float(dltensor.sum(x)), p.deleter_calls))

    g = worker(dltensor.from_dlpack(p))
    next(g)
    box = [g]
    box.append(box)
    del g, box
    gc.collect()
    assert read == [(66.0, 0)] and p.deleter_calls == 1


test_a_generator_in_the_same_garbage_reads_the_memory_in_its_finally.collects = True


def test_released_on_another_thread():
    p, a = _cpu()
    box = [dltensor.from_dlpack(p)]
    t = threading.Thread(target=box.clear)
    t.start()
    t.join()
    assert p.deleter_calls == 1


def test_live_count_follows_arrays():
    start, waiting = live_count(), P.exports_alive()
    ps = [_cpu()[0] for _ in range(4)]
    xs = [dltensor.from_dlpack(p) for p in ps]
    assert live_count() == start + 4 and P.exports_alive() == waiting + 4
    del xs
    assert live_count() == start and P.exports_alive() == waiting
    assert [p.deleter_calls for p in ps] == [1, 1, 1, 1]


def test_a_python_deleter_run_while_an_exception_unwinds_keeps_that_exception():
    # A producer whose deleter is Python code (a ctypes callback, as these test producers'):
    # an array released while an exception unwinds the frame that held it must leave that
    # exception as it was. NumPy's C consumer calls such a deleter with the exception set and
    # the caller saw "SystemError: error return without exception set" (np.from_dlpack does
    # so): dltensor's consumer releases through a finalizer, which keeps it.
    def body():
        for x in (dltensor.from_dlpack(_cpu()[0]), 1):
            x = None
            raise KeyError("the caller's")
    with pytest.raises(KeyError, match="the caller's"):
        body()


def test_refused_after_taking_ownership():
    p, a = _cpu(dtype=(2, 32, 3))
    with pytest.raises(BufferError):
        dltensor.from_dlpack(p)
    assert p.deleter_calls == 1


# --- exports: dltensor as a producer ----------------------------------------------------------

def test_unconsumed_exports_of_a_held_array():
    # A Metal array cannot be computed on: every export goes through dltensor's own producer.
    p = _metal()
    x = dltensor.from_dlpack(p)
    caps = [x.__dlpack__(max_version=(1, 0)) for _ in range(3)]
    caps.append(x.__dlpack__())  # legacy
    del caps
    assert p.deleter_calls == 0, "the array still holds the memory"
    del x
    assert p.deleter_calls == 1


def test_export_outlives_the_array():
    p = _metal()
    x = dltensor.from_dlpack(p)
    cap = x.__dlpack__(max_version=(1, 0))
    del x
    assert p.deleter_calls == 0, "an export keeps the memory alive"
    assert P.tensor_fields(cap)["data"] == P.FAKE_POINTER
    del cap
    assert p.deleter_calls == 1


def test_export_consumed_by_dltensor_outlives_the_array():
    p = _metal()
    x = dltensor.from_dlpack(p)
    y = dltensor.from_dlpack(x.__dlpack__(max_version=(1, 0)))
    del x
    assert p.deleter_calls == 0
    assert y.data_ptr == P.FAKE_POINTER and y.shape == (3, 4)
    del y
    assert p.deleter_calls == 1


@pytest.mark.parametrize("consumer", ["numpy", "torch"])
def test_exports_to_other_libraries_outlive_the_array(consumer):
    p, a = _cpu()
    x = dltensor.from_dlpack(p)
    out = np.from_dlpack(x) if consumer == "numpy" else torch.from_dlpack(x)
    ptr = out.__array_interface__["data"][0] if consumer == "numpy" else out.data_ptr()
    assert ptr == a.ctypes.data
    del x
    assert p.deleter_calls == 0
    assert out[2, 3] == 11
    del out
    assert p.deleter_calls == 1


def test_views_outlive_the_array():
    p, a = _cpu()
    x = dltensor.from_dlpack(p)
    v = x[1:, :]
    del x
    assert p.deleter_calls == 0
    assert v.data_ptr == a.ctypes.data + 16
    assert np.asarray(v).tolist() == [[4, 5, 6, 7], [8, 9, 10, 11]]
    del v
    assert p.deleter_calls == 1


# --- a consumer refusing a dltensor export ----------------------------------------------------

@pytest.mark.parametrize("make", ["metal", "bfloat16 imported", "bfloat16 computed", "float8"])
def test_numpy_refusing_an_export_raises_its_own_error(make):
    # NumPy refuses these and destroys the capsule with its exception set (numpy#32697). The
    # user must see NumPy's error, never SystemError, and nothing may leak.
    ml_dtypes = pytest.importorskip("ml_dtypes") if make == "bfloat16 computed" else None
    p = None
    if make == "metal":
        p = _metal()
        x = dltensor.from_dlpack(p)
    elif make == "bfloat16 imported":
        p, a = _cpu(dtype=(4, 16, 1), shape=(6,), strides=(1,))
        x = dltensor.from_dlpack(p)
    elif make == "float8":
        p, a = _cpu(dtype=(10, 8, 1), shape=(12,), strides=(1,))
        x = dltensor.from_dlpack(p)
    else:
        x = dltensor.asarray(np.ones(3, ml_dtypes.bfloat16))
    # (NumPy 2.5 takes ml_dtypes' bfloat16 and float8 types: those imports must then be
    # right, and released as the others)
    refused = make == "metal" or np.lib.NumpyVersion(np.__version__) < "2.5.0"
    for _ in range(3):
        if not refused:
            out = np.from_dlpack(x)
            assert out.dtype.name == ("float8_e4m3fn" if make == "float8" else "bfloat16")
            assert out.__array_interface__["data"][0] == x.data_ptr
            del out
            continue
        with pytest.raises((BufferError, RuntimeError)) as info:
            np.from_dlpack(x)
        assert not isinstance(info.value, SystemError), info.value
    if p is not None:
        assert p.deleter_calls == 0
        del x
        assert p.deleter_calls == 1


_FRESH = r"""
import gc, sys
sys.path.insert(0, sys.argv[1] + "/tests"); sys.path.insert(0, sys.argv[1])
import numpy as np
import producers as P
import dltensor
# No compute has happened in this interpreter: the first export must already be safe.
p = P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(2,), strides=(1,))
x = dltensor.from_dlpack(p)
try:
    np.from_dlpack(x)
except Exception as e:
    print(type(e).__name__)
del x
gc.collect()
print(p.deleter_calls)
"""


def test_numpy_refusing_the_first_export_of_a_fresh_interpreter():
    r = subprocess.run([sys.executable, "-c", _FRESH, ROOT], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() in (["RuntimeError", "1"], ["BufferError", "1"]), r.stdout + r.stderr
    assert "Exception ignored" not in r.stderr, r.stderr


_SHUTDOWN = r"""
import sys
sys.path.insert(0, sys.argv[1] + "/tests"); sys.path.insert(0, sys.argv[1])
import numpy as np
import torch
import producers as P
import dltensor
keep = []
for i in range(3):
    a = np.arange(4.0)
    x = dltensor.from_dlpack(P.from_numpy(a))
    keep += [x, np.from_dlpack(x), torch.from_dlpack(x), x.__dlpack__(max_version=(1, 0))]
m = dltensor.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(2,),
                                    strides=(1,)))
keep += [m, m.__dlpack__(max_version=(1, 0)), m.__dlpack__()]
print("ok")
"""


def test_arrays_alive_at_interpreter_exit():
    # Deleters may run during shutdown: that must be quiet and must not crash.
    r = subprocess.run([sys.executable, "-c", _SHUTDOWN, ROOT], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    assert "Exception ignored" not in r.stderr and "Error" not in r.stderr, r.stderr
