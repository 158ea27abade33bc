"""Ownership accounting and leaks: every managed tensor's deleter runs exactly once on every
path (consumed and released, exported and never consumed, refused by dltensor after taking it,
refused by a consumer), and round trips with NumPy and PyTorch leave neither memory nor owned
tensors behind.

tests/test_ownership.py covers the basic paths; this file adds the refusals that happen after
dltensor owns a tensor, refusals by PyTorch and JAX, every export path left unconsumed, any
order of release among many holders, and the round-trip counts (100k here; a million in
tests/reliability/soak.py, figures in docs/reliability.md).
"""

import gc
import itertools
import os

import jax.numpy as jnp
import numpy as np
import pytest
import torch

import producers as P
import dltensor
from reliability import workloads

ROUND_TRIPS = int(os.environ.get("DLTENSOR_LEAK_ROUND_TRIPS", "100000"))
MiB = 1 << 20


pytestmark = pytest.mark.usefixtures("leak_accounting")


def cpu(dtype=(2, 32, 1), **kw):
    a = np.arange(12, dtype=np.float32)
    fields = dict(dtype=dtype, shape=(3, 4), strides=(4, 1))
    fields.update(kw)
    return P.from_numpy(a, **fields)


def held(device=P.METAL, **kw):
    fields = dict(data=P.FAKE_POINTER, device=(device, 0), shape=(3, 4), strides=(4, 1))
    fields.update(kw)
    return P.Producer(**fields)


# --- refused by dltensor after it took the tensor -----------------------------------------------

# name: (producer, the call that takes the tensor and then refuses, the exception)
REFUSED_AFTER_OWNING = {
    "dtype conversion of a held dtype": (
        lambda: cpu((17, 4, 1)), lambda p: dltensor.asarray(p, dtype=dltensor.float32),
        TypeError),
    "dtype conversion on a held device": (
        lambda: held(), lambda p: dltensor.asarray(p, dtype=dltensor.float64), RuntimeError),
    "move off a held device": (
        lambda: held(), lambda p: dltensor.asarray(p, device="cpu"), BufferError),
    "move off a held device, copy=False": (
        lambda: held(), lambda p: dltensor.from_dlpack(p, device="cpu", copy=False),
        BufferError),
    "move off a held device, copy=True": (
        lambda: held(P.VULKAN), lambda p: dltensor.from_dlpack(p, device="cpu", copy=True),
        BufferError),
    "dtype change under copy=False": (
        lambda: cpu(), lambda p: dltensor.asarray(p, dtype=dltensor.float64, copy=False),
        ValueError),
    "compute on a held device": (
        lambda: held(), lambda p: dltensor.from_dlpack(p) + 1, RuntimeError),
    "compute on a held dtype": (
        lambda: cpu((0, 4, 1)), lambda p: dltensor.sum(dltensor.from_dlpack(p)), TypeError),
    "numpy view of a held device": (
        lambda: held(P.ROCM), lambda p: np.asarray(dltensor.from_dlpack(p)), BufferError),
    "bare capsule, held dtype conversion": (
        lambda: cpu((3, 64, 1), shape=(6,), strides=(1,)),
        lambda p: dltensor.asarray(p.__dlpack__(max_version=(1, 3)), dtype=dltensor.int64),
        TypeError),
}


@pytest.mark.parametrize("make, call, exc", REFUSED_AFTER_OWNING.values(),
                         ids=REFUSED_AFTER_OWNING.keys())
def test_refused_after_owning_is_given_back_once(make, call, exc):
    p = make()
    with pytest.raises(exc) as info:
        call(p)
    assert not isinstance(info.value, SystemError)
    del info  # the traceback holds the frames that hold the array
    assert len(p.exports) == 1 and p.deleter_calls == 1


# --- a bare capsule taken with a request ---------------------------------------------------------

@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "legacy"])
@pytest.mark.parametrize("request_", [
    dict(dtype=dltensor.float64), dict(copy=True), dict(dtype=dltensor.float32),
    dict(device="cpu"), dict(dtype=dltensor.float32, copy=False)])
def test_a_bare_capsule_taken_with_a_request_is_released_once_when_its_array_goes(
        versioned, request_):
    # (asarray of a capsule with a dtype, device or copy takes it only once that succeeds: the
    # deleter is read from the managed tensor then, at its own offset in each layout, and runs
    # once, when the array, or the copy made of it, is gone)
    p = cpu()
    cap = p.__dlpack__(max_version=(1, 3) if versioned else None)
    x = dltensor.asarray(cap, **request_)
    assert P.capsule_name(cap).startswith(b"used_")
    assert np.array_equal(np.from_dlpack(x), np.arange(12).reshape(3, 4))
    del cap, x
    gc.collect()
    assert len(p.exports) == 1 and p.deleter_calls == 1


# --- refused by another consumer ------------------------------------------------------------------

# name: (producer, consumer); every consumer below refuses, with its own exception class.
# (Where PyTorch was built for CUDA or ROCm it takes a tensor that claims kDLROCM: its
# getATenDevice (aten/src/ATen/DLConvertor.cpp) makes it a HIP device (a ROCm build: CUDA), and
# from_blob wraps the pointer without touching it, so only a CPU-only build refuses, in
# torch.from_dlpack's torch.cuda.current_stream, before it asks for a capsule.)
TORCH_HAS_A_GPU_BUILD = torch.version.cuda is not None or torch.version.hip is not None
ONLY_CPU_TORCH_REFUSES = {"torch, rocm"}
CONSUMER_REFUSALS = {
    "numpy, vulkan": (lambda: held(P.VULKAN), np.from_dlpack),
    "numpy, int4": (lambda: cpu((0, 4, 1)), np.from_dlpack),
    "numpy, float8": (lambda: cpu((10, 8, 1)), np.from_dlpack),
    "numpy, opaque handle": (lambda: cpu((3, 64, 1), shape=(6,), strides=(1,)), np.from_dlpack),
    "torch, vulkan": (lambda: held(P.VULKAN), torch.from_dlpack),
    "torch, rocm": (lambda: held(P.ROCM), torch.from_dlpack),
    "torch, int4": (lambda: cpu((0, 4, 1)), torch.from_dlpack),
    "torch, float4": (lambda: cpu((17, 4, 1)), torch.from_dlpack),
    "torch, opaque handle": (lambda: cpu((3, 64, 1), shape=(6,), strides=(1,)), torch.from_dlpack),
    "jax, metal": (lambda: held(P.METAL), jnp.from_dlpack),
    "jax, int4": (lambda: cpu((0, 4, 1)), jnp.from_dlpack),
    "jax, opaque handle": (lambda: cpu((3, 64, 1), shape=(6,), strides=(1,)), jnp.from_dlpack),
}


@pytest.mark.parametrize("make, consume", [
    pytest.param(*v, id=k, marks=pytest.mark.skipif(
        k in ONLY_CPU_TORCH_REFUSES and TORCH_HAS_A_GPU_BUILD,
        reason="a CUDA or ROCm build of PyTorch takes a kDLROCM tensor (as a HIP or CUDA one)"))
    for k, v in CONSUMER_REFUSALS.items()])
def test_consumer_refusal_shows_its_own_error_and_leaks_nothing(make, consume):
    p = make()
    x = dltensor.from_dlpack(p)
    for _ in range(3):  # repeatedly: each refused export must be released
        with pytest.raises(Exception) as info:
            consume(x)
        # The consumer's own error: never SystemError (numpy#32697), never a crash.
        assert not isinstance(info.value, SystemError), repr(info.value)
        assert str(info.value)
        del info
    assert p.deleter_calls == 0, "the array still holds its memory"
    del x
    assert p.deleter_calls == 1


# --- exports nobody consumes ----------------------------------------------------------------------

# Every export path of ndarray.__dlpack__, left unconsumed: (export, shares the memory)
EXPORTS = {
    "NumPy's producer (computed array)": (lambda x: (np.asarray(x), x.__dlpack__(
        max_version=(1, 0)))[1], True),
    "not yet computed (NumPy's view made for it)": (lambda x: x.__dlpack__(max_version=(1, 0)),
                                                    True),
    "legacy": (lambda x: x.__dlpack__(), True),
    "copy=False": (lambda x: x.__dlpack__(max_version=(1, 0), copy=False), True),
    "dl_device=CPU": (lambda x: x.__dlpack__(max_version=(1, 0), dl_device=(1, 0)), True),
    "copy=True": (lambda x: x.__dlpack__(max_version=(1, 0), copy=True), False),
}


@pytest.mark.parametrize("export, shares", EXPORTS.values(), ids=EXPORTS.keys())
@pytest.mark.parametrize("device", [P.CPU, P.CUDA_HOST], ids=["cpu", "cuda_host"])
def test_exports_never_consumed(export, shares, device):
    p = cpu(device=(device, 0))
    x = dltensor.from_dlpack(p)
    caps = [export(x) for _ in range(3)]
    assert all(P.capsule_name(c) in (b"dltensor", b"dltensor_versioned") for c in caps)
    del x
    assert p.deleter_calls == (0 if shares else 1), "a shared export keeps the memory alive"
    del caps
    assert p.deleter_calls == 1


@pytest.mark.parametrize("device", [P.METAL, P.VULKAN, P.CUDA, P.ROCM])
def test_exports_of_held_arrays_never_consumed(device):
    p = held(device)
    x = dltensor.from_dlpack(p)
    caps = [x.__dlpack__(max_version=(1, 0)), x.__dlpack__(), x.__dlpack__(max_version=(1, 3))]
    del x
    assert p.deleter_calls == 0
    del caps
    assert p.deleter_calls == 1


# --- any release order among many holders -------------------------------------------------------

HOLDERS = {
    "array": lambda x: x,
    "view": lambda x: x[1:, ::2],
    "numpy": lambda x: np.from_dlpack(x),
    "torch": lambda x: torch.from_dlpack(x),
    "capsule": lambda x: x.__dlpack__(max_version=(1, 0)),
    "re-import": lambda x: dltensor.from_dlpack(x.__dlpack__(max_version=(1, 0))),
}


@pytest.mark.parametrize("order", list(itertools.permutations(HOLDERS))[::15],
                         ids=lambda o: ",".join(o))
def test_released_after_the_last_holder_in_any_order(order):
    p = cpu()
    x = dltensor.from_dlpack(p)
    holders = {name: make(x) for name, make in HOLDERS.items()}
    del x
    for i, name in enumerate(order):
        assert p.deleter_calls == 0, f"released while {order[i:]} still held it"
        del holders[name]
    assert p.deleter_calls == 1


# --- round trips ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_round_trips_leak_nothing(kind):
    r = workloads.round_trips(kind, ROUND_TRIPS, warmup=ROUND_TRIPS // 10)
    assert r["live_count_drift"] == 0, r
    assert r["rss_growth"] < MiB, r


def test_producer_types_made_per_call_are_not_kept_for_ever():
    # The importer and refusal caches are keyed by type: a class made per call (a wrapper
    # factory's) was held by both for the life of the process, ~2 KB each
    import gc
    import weakref

    from dltensor import _interop

    class Base:
        def __init__(self):
            self.a = np.ones(3)

        def __dlpack__(self, **kw):
            return self.a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return (1, 0)

    kept = dict(_interop._importers), dict(_interop._refusal_by_type)
    refs = []
    try:
        for _ in range(600):
            cls = type("Wrapper", (Base,), {})
            dltensor.from_dlpack(cls())  # (its importer)
            dltensor.from_dlpack(cls(), copy=True)  # (its refusal)
            refs.append(weakref.ref(cls))
            del cls
        gc.collect()
        assert sum(r() is not None for r in refs) <= _interop._TYPES_KEPT
        assert len(_interop._importers) <= _interop._TYPES_KEPT
        assert len(_interop._refusal_by_type) <= _interop._TYPES_KEPT
        # a type seen now is still remembered (the first learned went), and the built-in
        # importers stay
        late = type("Late", (Base,), {})
        x = dltensor.from_dlpack(late())
        assert x.shape == (3,) and x.dtype == dltensor.float64
        assert late in _interop._importers and dltensor.ndarray in _interop._importers
    finally:  # (the caches as they were, for the tests after this one)
        for cache, before in zip((_interop._importers, _interop._refusal_by_type), kept):
            cache.clear()
            cache.update(before)


def test_devices_numbered_without_end_are_not_kept_for_ever():
    # NumPy computes on pinned and managed memory of any device number, and the dispatch
    # caches (each function's backend function, the namespaces) kept every number they met:
    # ~200 bytes a new number, without end.
    import gc

    from dltensor import Device

    def devices_alive():
        return sum(type(o) is Device for o in gc.get_objects())

    a = np.arange(4.0)
    gc.collect()
    before = devices_alive()
    for i in range(1, 1001):
        x = dltensor.from_dlpack(P.from_numpy(a, device=(P.CUDA_HOST, i)))
        dltensor.abs(x), dltensor.sum(x), x + 1, dltensor.linalg.vector_norm(x)
    del x
    gc.collect()
    # (as_device keeps 256 of them, the dispatch caches 64)
    assert devices_alive() - before <= 256 + 64


def test_refusals_on_held_memory_leave_no_garbage():
    # Each refusal (a CPU check of the call first, for its argument errors) left a reference
    # cycle, 8 objects, for the collector: a nested function of the size check calling itself
    import gc
    x = dltensor.from_dlpack(held())
    calls = [lambda: x + 1, lambda: dltensor.abs(x), lambda: dltensor.sum(x, axis=5),
             lambda: dltensor.repeat(x, 3), lambda: dltensor.linalg.trace(x)]

    def refuse(times):
        for call in calls * times:
            try:
                call()
            except Exception:  # (NoBackendError, or the CPU's error for the axis)
                pass
    refuse(1)  # (first calls make what is made once: imports, caches)
    gc.collect()
    refuse(20)
    assert gc.collect() == 0
