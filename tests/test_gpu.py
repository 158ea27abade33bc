"""Real-GPU tests (marker ``gpu``): run wherever CuPy finds a CUDA device, skip cleanly elsewhere.

CI has no GPU, so everything here skips there; tests/test_devices.py covers the same paths on
the CPU with ctypes producers that claim CUDA. Stream tests make a missing synchronisation
visible: the producer's stream is held back by a ~1 s spin (``torch.cuda._sleep``) before it
writes, so a consumer that is not ordered after it reads the old values.
"""

from __future__ import annotations

import math
import os
import re

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX shares the GPU here
import subprocess
from pathlib import Path

import numpy as np
import pytest

import dltensor as dt
from dltensor import _dlpack
from dltensor._devices import as_device
from device_cases import CASES, assert_same, outcome


def _gpu_count() -> int:
    try:
        import cupy
        return int(cupy.cuda.runtime.getDeviceCount())
    except Exception:  # no CuPy, or CuPy without a driver
        return 0


N_GPUS = _gpu_count()
# tests/cudasim's CuPy (test_cudasim.py): its "GPU" memory is host memory, which real CUDA
# tensors (PyTorch's, JAX's, numba's) cannot meet, so the tests that make them skip there.
SIMULATED = N_GPUS > 0 and getattr(__import__("cupy"), "SIMULATOR", False)
pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(N_GPUS < 1, reason="needs CuPy and a CUDA device")]

N = 1 << 20
# GPU cycles torch.cuda._sleep spins (clock64, the SM clock): ~1 s on an H200 (1.98 GHz), more
# on slower clocks. The control below means something only if the host launches the reader
# while the spin runs. At 200_000_000 (~0.1 s) it did not on an H200 (the reader saw the new
# values). The likely cause, not a fast clock: the control's warm-up compiled CuPy's sum of 8
# elements, but the sum of N is another kernel (CuPy picks a reduction's block size and items
# per thread from its size), so it was compiled (NVRTC; a fresh machine has no kernel cache:
# 0.1 s to seconds) after the spin was queued. So _warm_up launches every kernel the stream
# tests launch after a spin, at their sizes and dtypes, before it; and the spin is 10 times
# longer, for what else the host may do meanwhile (a pool's first allocation of N, a GC pass).
# 7 spins (the control, import, export, __cuda_array_interface__, to_device x 3): ~7 s.
SPIN = 2_000_000_000


@pytest.fixture
def cupy():
    import cupy
    return cupy


@pytest.fixture
def torch():
    if SIMULATED:
        pytest.skip("CuPy is the CUDA simulator here: no real CUDA memory to meet")
    import torch
    if not torch.cuda.is_available():
        pytest.skip("this PyTorch build has no CUDA")
    return torch


@pytest.fixture
def jax():
    if SIMULATED:
        pytest.skip("CuPy is the CUDA simulator here: no real CUDA memory to meet")
    import jax
    try:
        jax.devices("gpu")
    except RuntimeError:
        pytest.skip("this JAX has no GPU backend")
    return jax


_WARMED = []


def _warm_up(cupy, torch) -> None:
    """Launch, once per process, every kernel the stream tests launch after a spin (the same
    operations, sizes and dtypes), so that none is compiled while a spin runs."""
    if _WARMED:
        return
    t = torch.zeros(N, device="cuda")  # float32: the consumers' imports and sums
    for stream in (cupy.cuda.Stream(null=True), cupy.cuda.Stream(non_blocking=True)):
        with stream:
            float(dt.sum(dt.from_dlpack(t.__dlpack__(stream=-1, max_version=(1, 0)))))
            float(dt.sum(dt.asarray(t)))
    t.fill_(1.0)
    g = dt.zeros(N, device="cuda:0")  # float64: the export's and to_device's + and sums
    float(torch.from_dlpack(g + 5).sum())
    host = (g + 2).to_device("cpu", stream=cupy.cuda.Stream(non_blocking=True))
    float(dt.sum(host.to_device("cuda:0")))
    torch.cuda.synchronize()
    _WARMED.append(True)


def _settled(torch, value: float):
    """A CUDA tensor of N elements, zeroed and synchronised, to be overwritten with ``value``."""
    t = torch.zeros(N, device="cuda")
    torch.cuda.synchronize()
    assert float(t[0]) != value
    return t


# --- zero copy ---------------------------------------------------------------------------------


def test_torch_cupy_jax_chain_keeps_the_pointer(cupy, torch, jax):
    t = torch.arange(1024, dtype=torch.float32, device="cuda")
    ptr = t.data_ptr()
    x = dt.asarray(t)
    assert x.device == as_device("cuda:0") and x.data_ptr == ptr
    # (PyTorch's C exchange API hands the tensor to CuPy's consumer: a CuPy array, which
    # CuPy's producer exports; as on the H200, 2026-11-30)
    assert type(x._array) is cupy.ndarray and x._tensor is None
    c = cupy.from_dlpack(x)
    assert c.data.ptr == ptr
    y = dt.asarray(c)
    assert y.data_ptr == ptr and y.device == x.device
    j = jax.numpy.from_dlpack(y)
    assert j.unsafe_buffer_pointer() == ptr
    z = dt.asarray(j)
    assert z.data_ptr == ptr
    back = torch.from_dlpack(z)
    assert back.data_ptr() == ptr and torch.equal(back, t)


def test_jax_takes_what_dltensor_holds_from_pytorch_and_jax(cupy, torch, jax):
    # dltensor's own producer (not CuPy's) ordering JAX's stream: on the H200's first run
    # cudaStreamWaitEvent refused it (cudaErrorContextIsDestroyed) after PyTorch and JAX had
    # both run; dltensor now waits on the host then. The values must arrive either way.
    t = torch.arange(1024, dtype=torch.float32, device="cuda") * 2
    # (a capsule: held by dltensor's consumer; taken from the tensor itself, through PyTorch's
    # C exchange API, it is CuPy's array, exported by CuPy's producer)
    held = dt.asarray(t.__dlpack__(max_version=(1, 0), stream=1))
    assert held._array is None  # (a managed tensor dltensor holds: its own export)
    j = jax.numpy.from_dlpack(held)
    assert j.unsafe_buffer_pointer() == t.data_ptr()
    np.testing.assert_array_equal(np.asarray(j), np.arange(1024.0) * 2)
    k = jax.numpy.arange(8.0) + 1
    again = jax.numpy.from_dlpack(dt.asarray(k))
    assert again.unsafe_buffer_pointer() == k.unsafe_buffer_pointer()
    np.testing.assert_array_equal(np.asarray(again), np.arange(8.0) + 1)


def test_a_torch_cuda_expand_comes_in_read_only(cupy, torch):
    # (its elements share memory: read-only as on the CPU, on each way in: PyTorch's C
    # exchange API to CuPy's consumer, and a capsule to dltensor's; untested on a GPU when
    # written, 2026-12-03: the simulator's test is tests/test_cudasim_streams.py's)
    row = torch.arange(3.0, device="cuda")
    t = row.expand(4, 3)
    for x in (dt.asarray(t), dt.from_dlpack(t.__dlpack__(max_version=(1, 0)))):
        assert x.read_only and x.data_ptr == t.data_ptr() and x.strides == (0, 1)
        with pytest.raises(ValueError, match="its elements share memory"):
            x += 1.0
        assert row.tolist() == [0.0, 1.0, 2.0]
        assert dt.sum(x, axis=0).to_device("cpu").tolist() == [0.0, 4.0, 8.0]
        back = torch.from_dlpack(x)
        assert back.data_ptr() == t.data_ptr() and back.stride() == (0, 1)
        y = dt.asarray(x, copy=True)
        y += 1.0
        assert not y.read_only and y.to_device("cpu").tolist() == [[1.0, 2.0, 3.0]] * 4


def test_cupy_arrays_are_taken_as_they_are(cupy):
    c = cupy.arange(12, dtype=cupy.float32).reshape(3, 4)[:, ::2]
    x = dt.asarray(c)
    assert x.data_ptr == c.data.ptr and x.shape == (3, 2) and x.dtype == dt.float32
    assert dt.from_dlpack(c).data_ptr == c.data.ptr
    x[0, 0] = 42  # a view: writes reach CuPy's array
    assert float(c[0, 0]) == 42


def test_cuda_array_interface_round_trip(cupy):
    if SIMULATED:
        pytest.skip("CuPy is the CUDA simulator here: no real CUDA memory to meet")
    numba_cuda = pytest.importorskip("numba.cuda")
    d = numba_cuda.to_device(np.arange(10.0))
    x = dt.asarray(d)
    ptr = d.__cuda_array_interface__["data"][0]
    assert x.device == as_device("cuda:0") and x.data_ptr == ptr
    assert float(dt.sum(x)) == 45.0
    back = numba_cuda.as_cuda_array(x)
    assert back.__cuda_array_interface__["data"][0] == ptr
    np.testing.assert_array_equal(back.copy_to_host(), np.arange(10.0))


def test_cuda_array_interface_says_read_only_where_the_array_is(cupy):
    # (it looked at the imported tensor's flag alone: broadcasts and views of read-only
    # imports, which CuPy computes, said writable to numba)
    x = dt.reshape(dt.arange(8.0, device="cuda:0"), (2, 4))
    b = dt.broadcast_to(x[0:1, :], (3, 4))
    frozen = dt.broadcast_arrays(dt.arange(8.0, device="cuda:0"),
                                 dt.zeros((2, 8), device="cuda:0"))[0]
    for a in (b, frozen, frozen[1:, :], dt.flip(frozen, axis=1), b[..., ::2]):
        assert a.read_only and a.__cuda_array_interface__["data"] == (a.data_ptr, True)
    assert x.__cuda_array_interface__["data"][1] is False


def test_a_cuda_array_interface_over_pageable_host_memory_is_refused(cupy):
    # (CUDA 11+ answers cudaPointerGetAttributes for it, type "unregistered", device -2: it
    # was taken as memory of the current GPU, which CuPy would then fault reading)
    a = np.arange(4.0)

    class Claims:
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f8", "version": 3,
                                    "data": (a.ctypes.data, False), "strides": None}
    with pytest.raises(BufferError, match="not a CUDA pointer"):
        dt.asarray(Claims())


def test_a_cuda_array_interface_of_no_elements_at_pointer_0_is_on_the_current_gpu(cupy):
    # (version 3 lets it say pointer 0, which names no GPU: CuPy and numba take the current
    # one. It was cuda:0 whatever was current, which then refused to concat with cuda:1's.)
    class Empty:
        __cuda_array_interface__ = {"shape": (0,), "typestr": "<f4", "version": 3,
                                    "data": (0, False), "strides": None}
    for gpu in range(min(N_GPUS, 2)):
        with cupy.cuda.Device(gpu):
            x = dt.asarray(Empty())
        assert x.device == as_device(f"cuda:{gpu}") and x.shape == (0,)
        y = dt.concat([x, dt.ones(2, device=f"cuda:{gpu}")])
        assert y.device == x.device and y.shape == (2,)


def test_a_gpu_this_machine_lacks_is_held_and_bad_device_ids_are_refused(cupy):
    # A producer's tensor on cuda:N (with N GPUs here) is held and handed on, not given to
    # CuPy (which would fail to switch to that GPU); creating or moving arrays there is refused
    # naming the GPUs there are. A negative id is the producer's fault: BufferError, CuPy not
    # asked (it was, with pinned memory, and raised its own error).
    from producers import FAKE_POINTER, Producer
    p = Producer(data=FAKE_POINTER, device=(2, N_GPUS), shape=(2,), dtype=(2, 32, 1))
    x = dt.asarray(p)
    assert x.device == as_device(f"cuda:{N_GPUS}") and x.data_ptr == FAKE_POINTER
    assert p.requests[-1]["stream"] is None  # (the spec's default: no CuPy stream there)
    assert x.__dlpack_device__() == (2, N_GPUS)
    for call in (lambda: x + 1, lambda: dt.zeros(2, device=f"cuda:{N_GPUS}")):
        with pytest.raises(RuntimeError, match=f"cuda:{N_GPUS}.*CuPy sees {N_GPUS} GPU"):
            call()
    seen = "cuda:0)" if N_GPUS == 1 else f"cuda:0 to cuda:{N_GPUS - 1})"  # (the last there)
    with pytest.raises(RuntimeError, match=re.escape(seen)):
        dt.zeros(2, device=f"cuda:{N_GPUS}")
    with pytest.raises(BufferError, match=f"cuda:{N_GPUS}"):
        dt.ones(2).to_device(f"cuda:{N_GPUS}")
    for device in ((2, -1), (3, -1), (13, -1)):
        with pytest.raises(BufferError):
            dt.asarray(Producer(data=FAKE_POINTER, device=device, shape=(2,), dtype=(2, 32, 1)))



def test_a_dtype_cupy_has_not_is_neither_computed_nor_made_on_the_gpu(cupy):
    # float8 on a GPU is held (CuPy has no float8): computing raises dltensor's TypeError, as
    # the CPU's does for dtypes NumPy has not, not CuPy's BufferError naming a code number.
    # (The pointer is never read: the refusal comes before CuPy is asked.)
    from producers import FAKE_POINTER, Producer
    x = dt.asarray(Producer(data=FAKE_POINTER, device=(2, 0), shape=(4,), dtype=(10, 8, 1)))
    assert x.dtype.name == "float8_e4m3fn" and x.device == as_device("cuda:0")
    for call in (lambda: dt.exp(x), lambda: x + x, lambda: dt.sum(x), lambda: float(x[0])):
        with pytest.raises(TypeError, match="cannot compute on dtype float8_e4m3fn on cuda:0"):
            call()
    assert x[1:].data_ptr == FAKE_POINTER + 1  # (a view of held memory is still made)
    # Nor are arrays of it made or cast to on the GPU: made on the CPU, they are moved there.
    f8, y = x.dtype, dt.ones(3, device="cuda:0")
    for call in (lambda: dt.zeros(2, dtype=f8, device="cuda:0"), lambda: dt.zeros_like(x),
                 lambda: dt.full((2,), 1.0, dtype=f8, device="cuda:0"),
                 lambda: dt.arange(3, dtype=f8, device="cuda:0"),
                 lambda: dt.eye(2, dtype=f8, device="cuda:0"),
                 lambda: dt.linspace(0, 1, 3, dtype=f8, device="cuda:0"),
                 lambda: dt.astype(y, f8), lambda: dt.asarray(y, dtype=f8),
                 lambda: dt.sum(y, dtype=f8)):
        with pytest.raises(TypeError, match="make or compute float8_e4m3fn arrays on cuda:0"):
            call()
    pytest.importorskip("ml_dtypes")
    for moved in (dt.ones(2, dtype=f8).to_device("cuda:0"),
                  dt.asarray([1.0, 1.0], dtype=f8, device="cuda:0"),
                  dt.asarray(np.ones(2), dtype=f8, device="cuda:0"),  # (cast, then moved: it
                  dt.asarray(dt.ones(2, dtype=dt.int8), dtype=f8, device="cuda:0"),  # was cast
                  dt.astype(dt.ones(2), f8, device="cuda:0")):
        # on the GPU, a TypeError)
        assert moved.dtype == f8 and moved.device == x.device
        assert np.asarray(moved.to_device("cpu")).astype(np.float32).tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="copy=False"):  # (the cast and the move copy)
        dt.asarray(np.ones(2), dtype=f8, device="cuda:0", copy=False)


def test_good_calls_on_a_dtype_cupy_has_not_are_still_refused_where_held(cupy):
    # (bad arguments are the CPU's errors, checked on CPU stand-ins first: the held-dtype
    # device cases; good ones, with the GPU arrays beside them too, the dtype's TypeError,
    # which is also a NoBackendError, not a device error of the check's stand-ins)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from dltensor._backends import NoBackendError
    x = dt.asarray(np.ones((2, 3), ml_dtypes.float8_e4m3fn), device="cuda:0")
    cond = dt.asarray([True, False, True], device="cuda:0")
    for call in (lambda: dt.sum(x, axis=1), lambda: dt.concat([x, x]), lambda: x @ x.mT,
                 lambda: dt.where(cond, x, x), lambda: dt.where(cond, x, 1.0),
                 lambda: dt.take(x, dt.asarray([0, 2], device="cuda:0"), axis=1),
                 lambda: dt.diff(x, n=1)):
        with pytest.raises(TypeError, match="cannot compute on dtype float8_e4m3fn on cuda:0") \
                as e:
            call()
        assert isinstance(e.value, NoBackendError)


def test_index_arrays_selecting_nothing_from_a_dtype_cupy_has_not_are_not_bounds_checked(cupy):
    # (its bad keys are the CPU's IndexError, the GPU's index arrays read for them: see the
    # held-dtype device cases; where they broadcast to no elements NumPy checks none, so a
    # good key's refusal, the dtype's)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = dt.asarray(np.zeros((1, 2), ml_dtypes.float8_e4m3fn), device="cuda:0")
    for key in ((dt.asarray([], dtype=dt.int64, device="cuda:0"), dt.asarray([5], device="cuda:0")),
                (dt.asarray([-2], device="cuda:0"), dt.asarray([False, False], device="cuda:0"))):
        with pytest.raises(TypeError, match="cannot compute on dtype float8_e4m3fn on cuda:0"):
            x[key]


def test_host_arrays_of_a_dtype_cupy_has_not_are_cast_on_the_cpu_on_their_way_to_the_gpu(cupy):
    # bfloat16 (float8) CPU weights asked for as float32 on cuda:0 were moved as bytes, then
    # cast there, where CuPy has no such dtype: a TypeError, where the cast on the CPU, then
    # the move, makes them (as each step alone did).
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for npdt in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn):
        a = np.array([1.5, -2.0], dtype=npdt)
        x = dt.asarray(a)
        for r in (dt.asarray(a, dtype=dt.float32, device="cuda:0"),
                  dt.asarray(x, dtype=dt.float32, device="cuda:0"),
                  dt.astype(x, dt.float32, device="cuda:0"),
                  dt.astype(x, dt.float64, device="cuda:0", copy=True)):
            assert r.device == as_device("cuda:0") and r.dtype in (dt.float32, dt.float64)
            assert np.asarray(r.to_device("cpu")).tolist() == [1.5, -2.0]
        with pytest.raises(ValueError, match="copy=False"):
            dt.asarray(x, dtype=dt.float32, device="cuda:0", copy=False)


def test_a_copy_of_a_dtype_cupy_has_not_keeps_the_memory_order(cupy):
    # (float8 is copied on the GPU as its bytes, which came back C-ordered where every other
    # copy keeps x's order, "K", as NumPy's and CuPy's do; the CPU's float8 copy too)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = np.arange(6.0).reshape(2, 3).astype(ml_dtypes.float8_e4m3fn)
    t = dt.asarray(a).to_device("cuda:0").mT
    import copy
    # (astype to its own dtype, a copy too, raised "cannot compute on dtype float8_e4m3fn")
    for r in (dt.asarray(t, copy=True), copy.copy(t), dt.asarray(dt.asarray(a).mT, copy=True),
              dt.astype(t, t.dtype), dt.astype(dt.asarray(a).mT, t.dtype)):
        assert r.strides == t.strides == (1, 3) and r.data_ptr != t.data_ptr
        assert np.asarray(r.to_device("cpu")).astype(np.float32).tolist() == a.T.tolist()


def test_moves_keep_a_fortran_memory_order(cupy):
    # (every move came back C-ordered, where cupy.asarray keeps a NumPy array's order, 'K',
    # and dltensor's copies keep x's; float8 moves as its bytes, the same way)
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for dtype in (np.float64, ml_dtypes.float8_e4m3fn):
        a = np.asfortranarray(np.arange(6.0).reshape(2, 3).astype(dtype))
        g = dt.asarray(a, device="cuda:0")
        moved = [g, dt.asarray(a).to_device("cuda:0"), g.to_device("cpu"),
                 g.to_device("cuda_host")]
        if N_GPUS > 1:
            moved.append(g.to_device("cuda:1"))
        for r in moved:
            assert r.strides == (1, 2)
            assert np.asarray(r.to_device("cpu")).astype(np.float64).tolist() == \
                a.astype(np.float64).tolist()
    strided = dt.asarray(np.arange(12.0).reshape(3, 4)[:, ::2], device="cuda:0")
    assert strided.strides == (2, 1)  # (neither order: C, as CuPy's)


def test_astype_of_a_dtype_packed_below_a_byte_to_itself_on_the_gpu_is_a_type_error(cupy):
    # (astype(x, x.dtype) of int4 raised the byte copy's BufferError on the GPU, where the
    # CPU's, pinned memory's and every other astype of a dtype held only say TypeError)
    from producers import FAKE_POINTER, Producer
    for code in ((0, 4, 1), (17, 4, 1)):  # (int4, float4_e2m1fn; the pointer is never read)
        for device in ((2, 0), (3, 0)):
            x = dt.asarray(Producer(data=FAKE_POINTER, device=device, shape=(4,), dtype=code))
            with pytest.raises(TypeError, match=f"cannot compute on dtype {x.dtype.name}"):
                dt.astype(x, x.dtype)
            assert dt.astype(x, x.dtype, copy=False) is x


def test_a_cast_into_pinned_memory_is_made_on_the_gpu_then_moved(cupy):
    # (cast by NumPy after the move, the result was pageable memory labelled cpu)
    g = dt.asarray(np.arange(6.0), device="cuda:0")
    for r in (dt.astype(g, dt.float32, device="cuda_host"),
              dt.asarray(g, dtype=dt.float32, device="cuda_host"),
              dt.astype(g, dt.float64, device="cuda_host")):
        assert str(r.device) == "cuda_host:0" and r.dtype in (dt.float32, dt.float64)
        assert np.asarray(r).tolist() == list(range(6))
    with pytest.raises(ValueError, match="copy=False"):  # (a dtype and a device asked)
        dt.asarray(g, dtype=dt.float64, device="cpu", copy=False)

# --- compute -----------------------------------------------------------------------------------

def test_compute_stays_on_the_device(cupy):
    x = dt.asarray(cupy.arange(10, dtype=cupy.float64))
    results = [dt.exp(x) + 1, dt.sum(x), dt.sort(-x), dt.unique_values(x), dt.where(x > 3, x, 0),
               dt.linalg.vector_norm(x), dt.fft.fft(dt.astype(x, dt.complex128)), dt.fft.rfft(x),
               dt.reshape(x, (2, 5)) @ dt.ones((5, 2), device=x.device),
               dt.cumulative_sum(x), dt.searchsorted(x, dt.asarray([2.5], device=x.device))]
    for r in results:
        assert r.device == x.device, r
    np.testing.assert_allclose(np.asarray(results[0].to_device("cpu")), np.exp(np.arange(10.0)) + 1)


def test_repr_copies_only_the_corners_it_prints(cupy):
    # repr copied the whole array to the host, as CuPy's does: a broadcast of 2**40 elements
    # was an 8 TiB copy (MemoryError), a large one seconds. It prints as the CPU's does.
    huge = dt.broadcast_to(dt.asarray([1.5], device="cuda:0"), (2**40,))
    assert repr(huge) == repr(dt.broadcast_to(dt.asarray([1.5]), (2**40,)))[:-1] + \
        ", device=cuda:0)"
    rng = np.random.default_rng(0)
    for shape, options in (((5000,), {}), ((3, 2000), {}), ((40, 50), {}), ((1001,), {}),
                           ((30, 40, 50), {"edgeitems": 1, "precision": 2}),
                           ((7, 7, 7, 7), {"threshold": 100}), ((3, 0, 2000), {}),
                           ((1001,), {"edgeitems": 0}), ((3, 2000), {"edgeitems": 0})):
        x = rng.standard_normal(shape) * 10.0 ** rng.integers(-5, 5, shape)
        with np.printoptions(**options):
            assert repr(dt.asarray(x, device="cuda:0")) == repr(dt.asarray(x))[:-1] + \
                ", device=cuda:0)", shape


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_cuda_agrees_with_the_cpu(cupy, case):
    # The same call on both devices (tests/device_cases.py): the same error class, or the same
    # dtype, shape and values, made on the GPU. (tests/test_device_cases.py checks each case
    # on the CPU in CI.)
    assert_same(case, outcome(case, "cpu"), outcome(case, "cuda:0"), "cuda:0")


@pytest.mark.skipif(N_GPUS < 2, reason="needs two GPUs")
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_second_gpu_agrees_while_the_first_is_current(cupy, case):
    # CuPy computes and allocates on its current device: every call on cuda:1 arrays must
    # run there, also while cuda:0 is current.
    with cupy.cuda.Device(0):
        assert_same(case, outcome(case, "cpu"), outcome(case, "cuda:1"), "cuda:1")


def test_index_arrays_of_other_libraries_on_a_gpu(cupy):
    # CuPy's index arrays index a CUDA array as ours do; NumPy's are CPU memory: the devices'
    # error, never a silent copy to the GPU
    x = dt.asarray(cupy.arange(6, dtype=cupy.int64))
    assert np.asarray(x[cupy.asarray([4, 1])].to_device("cpu")).tolist() == [4, 1]
    x[cupy.asarray([0])] = 9
    assert int(x[0]) == 9
    with pytest.raises(ValueError, match="different devices"):
        x[np.array([0, 2])]


def test_tolist_and_item_copy_to_the_host_as_cupy_does(cupy):
    c = cupy.arange(6, dtype=cupy.float32).reshape(2, 3)
    x = dt.asarray(c)
    assert x.tolist() == c.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert type(x.tolist()[1][2]) is float
    assert x[1:, 2:].item() == 5.0 and type(x[1:, 2:].item()) is float
    with pytest.raises(ValueError, match="one element"):
        x.item()


def test_where_cupy_departs_from_the_spec(cupy):
    x = dt.asarray(cupy.asarray([1.0, -2.0, 3.0]))
    # -0.0 scalars keep their sign (CuPy's asarray of 0.0 fills with a memset)
    assert float(dt.copysign(dt.ones((), device=x.device), -0.0)) == -1.0
    assert float((x / -0.0)[0]) == float("-inf")
    y = dt.zeros(2, device=x.device)
    y[0] = -0.0
    assert np.signbit(np.asarray(y.to_device("cpu")))[0]
    # clip propagates a NaN bound (CuPy's clip kernel ignores it)
    assert np.isnan(np.asarray(dt.clip(x, min=dt.asarray(float("nan"), device=x.device))
                               .to_device("cpu"))).all()
    # a sequence of CUDA arrays makes one CUDA array
    s = dt.asarray([x, x])
    assert s.shape == (2, 3) and s.device == x.device
    # solve broadcasts its stacks (CuPy's does not)
    a = dt.eye(3, device=x.device) * 2
    b = dt.ones((4, 3, 2), device=x.device)
    assert dt.linalg.solve(a, b).shape == (4, 3, 2)
    assert float(dt.sum(dt.linalg.solve(a, b))) == 12.0


def test_linspace_on_a_gpu_is_numpys_to_the_bit(cupy):
    # CuPy's own fuses start + i * step into one rounding (an FMA); dltensor's rounds each step
    # as NumPy does, and writes stop last (1e16 + (1.0 - 1e16) is 0.0), also for two values
    for args in ((1e16, 1.0, 2), (0, 10, 11), (-1, 1, 7), (0.1, 0.7, 13)):
        got = dt.linspace(*args, device="cuda:0")
        assert got.device == as_device("cuda:0")
        assert np.array_equal(np.asarray(got.to_device("cpu")), np.linspace(*args))


def test_default_device_cuda(cupy):
    try:
        dt.set_default_device("cuda:0")
        for x in (dt.zeros(3), dt.asarray([1.0, 2.0]), dt.arange(4), dt.eye(2), dt.linspace(0, 1, 5)):
            assert x.device == as_device("cuda:0")
        assert dt.__array_namespace_info__().default_device() == as_device("cuda:0")
        # arrays in a sequence decide its device, whatever the default (a GPU not here too)
        g, host = dt.asarray([1.0]), dt.asarray([2.0], device="cpu")
        dt.set_default_device(f"cuda:{N_GPUS}")
        assert dt.asarray([g, g]).device == as_device("cuda:0")
        assert dt.asarray([host, host]).device == as_device("cpu")
    finally:
        dt.set_default_device(None)


def test_numpy_scalars_are_made_on_the_default_device_as_python_scalars_are(cupy):
    # (asarray(np.float32(1)) stayed on the CPU, where [np.float32(1)] went to the default)
    try:
        dt.set_default_device("cuda:0")
        for s in (np.float32(1.5), np.int16(-3), np.bool_(True), np.complex64(1j)):
            for x in (dt.asarray(s), dt.asarray([s])):
                assert x.device == as_device("cuda:0") and x.dtype == dt.asarray(s,
                                                                                device="cpu").dtype
        assert dt.asarray(s, device="cpu").device == as_device("cpu")
        assert dt.asarray(np.array(1.5)).device == as_device("cpu")  # (an array's memory)
    finally:
        dt.set_default_device(None)


def test_devices_lists_every_gpu(cupy):
    devices = dt.__array_namespace_info__().devices()
    assert devices == (as_device("cpu"), *(as_device(f"cuda:{i}") for i in range(N_GPUS)))


# --- moves -------------------------------------------------------------------------------------

def test_moves_between_cpu_and_cuda(cupy):
    host = dt.arange(6.0)
    g = host.to_device("cuda:0")
    assert g.device == as_device("cuda:0")
    assert dt.asarray(host, device="cuda:0").device == g.device
    assert dt.from_dlpack(host, device="cuda:0").device == g.device
    assert g.to_device("cuda:0") is g
    with pytest.raises(BufferError, match="copy=False"):
        dt.from_dlpack(host, device="cuda:0", copy=False)
    with pytest.raises(BufferError, match="copy=False"):
        dt.from_dlpack(g, device="cpu", copy=False)
    np.testing.assert_array_equal(np.asarray(g.to_device("cpu")), np.arange(6.0))
    copied = dt.from_dlpack(g, device="cuda:0", copy=True)
    assert copied.data_ptr != g.data_ptr and copied.device == g.device
    # no copy into managed memory: the refusals name both devices
    with pytest.raises(BufferError, match="from cuda:0 to cuda_managed:0: it copies CUDA "):
        g.to_device("cuda_managed:0")
    with pytest.raises(BufferError, match="from cpu to cuda_managed:0"):
        host.to_device("cuda_managed:0")


def test_zero_d_and_empty_arrays_move(cupy):
    for host in (dt.asarray(2.5), dt.zeros((0, 3)), dt.reshape(dt.arange(6.0), (2, 3)).mT):
        g = host.to_device("cuda:0")
        assert g.shape == host.shape and g.device == as_device("cuda:0")
        back = g.to_device("cpu")
        assert back.shape == host.shape
        np.testing.assert_array_equal(np.asarray(back), np.asarray(host))
    try:
        dt.set_default_device("cuda:0")
        assert dt.asarray(2.0).shape == () and dt.asarray(2.0).device == as_device("cuda:0")
    finally:
        dt.set_default_device(None)


def test_dlpack_cpu_copy_is_flagged(cupy):
    g = dt.arange(5.0, device="cuda:0")
    cap = g.__dlpack__(max_version=(1, 0), dl_device=(1, 0))
    host = dt.from_dlpack(cap)
    assert host.device == as_device("cpu")
    assert host._tensor.flags & _dlpack.DLPACK_FLAG_BITMASK_IS_COPIED
    np.testing.assert_array_equal(np.asarray(host), np.arange(5.0))
    with pytest.raises(BufferError):
        g.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=False)
    assert np.from_dlpack(g, device="cpu").tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    # The spec: "when kDLCPU is in use, stream must be None" (any stream was taken)
    for stream, exc in ((1, BufferError), (0, BufferError), (-1, BufferError),
                        ("s", TypeError), (1.5, TypeError)):
        with pytest.raises(exc, match="stream must be None"):
            g.__dlpack__(max_version=(1, 0), dl_device=(1, 0), stream=stream)


@pytest.mark.skipif(N_GPUS < 2, reason="needs two GPUs")
def test_the_interface_of_an_array_on_another_gpu_names_that_gpus_stream(cupy):
    # CuPy's interface names the *current* GPU's current stream: read with cuda:0 current, a
    # cuda:1 array's would tell a reader to order against cuda:0's work
    x = dt.arange(4.0, device="cuda:1")
    with cupy.cuda.Device(1):
        stream = cupy.cuda.Stream(non_blocking=True)
        with stream:
            with cupy.cuda.Device(0):
                assert x.__cuda_array_interface__["stream"] == stream.ptr
    assert dt.zeros(0, device="cuda:1").__cuda_array_interface__["data"][0] == 0


@pytest.mark.skipif(N_GPUS < 2, reason="needs two GPUs")
def test_moves_between_gpus(cupy):
    a = dt.arange(8.0, device="cuda:0")
    b = a.to_device("cuda:1")
    assert b.device == as_device("cuda:1") and b._compute().device.id == 1
    np.testing.assert_array_equal(np.asarray(b.to_device("cpu")), np.arange(8.0))
    assert dt.exp(b).device == b.device


# --- streams -----------------------------------------------------------------------------------

def test_control_an_unordered_reader_reads_stale_values(cupy, torch):
    """The stream tests below mean something only if a reader NOT ordered after the spin reads
    the old values: here a bare capsule asked with stream=-1 (no synchronisation at all)."""
    # CuPy compiles a kernel on first use (0.1 s to seconds): _warm_up compiles those of every
    # stream test, with the same sizes (a sum of 8 elements is not the sum of N's kernel).
    _warm_up(cupy, torch)
    t = _settled(torch, 7.25)
    producer = torch.cuda.Stream()
    s = cupy.cuda.Stream(non_blocking=True)
    with torch.cuda.stream(producer):
        torch.cuda._sleep(SPIN)
        t.fill_(7.25)
        capsule = t.__dlpack__(stream=-1, max_version=(1, 0))
    with s:
        total = float(dt.sum(dt.from_dlpack(capsule)))
    torch.cuda.synchronize()
    assert total != 7.25 * N, "SPIN is too short for the stream tests to catch a missing wait"


def test_import_orders_the_consumer_stream_after_the_producer(cupy, torch):
    _warm_up(cupy, torch)
    t = _settled(torch, 7.25)
    producer = torch.cuda.Stream()  # (PyTorch's streams are non-blocking)
    s = cupy.cuda.Stream(non_blocking=True)
    with torch.cuda.stream(producer):
        torch.cuda._sleep(SPIN)
        t.fill_(7.25)
        # PyTorch orders the consumer after its *current* stream, the producer here;
        # dltensor asks with stream=s.ptr, so s waits for the fill (stream=None would order
        # only the legacy default stream, which non-blocking s does not wait for).
        with s:
            x = dt.asarray(t)
            total = float(dt.sum(x))
    assert total == 7.25 * N


def test_pytorch_cuda_tensors_come_in_through_its_c_exchange_api(cupy, torch, monkeypatch):
    # PyTorch's __dlpack__ costs ~20 us on a CUDA tensor (Python stream and event objects on
    # every call): dltensor takes the tensor through PyTorch's C exchange API instead and
    # orders the streams itself (the test above: a producer on a side stream).
    t = torch.arange(6.0, device="cuda").reshape(2, 3)

    def refuse(*args, **kwargs):
        raise AssertionError("torch.Tensor.__dlpack__ was called")
    monkeypatch.setattr(torch.Tensor, "__dlpack__", refuse)
    x, y = dt.asarray(t), dt.asarray(t.T)
    assert x.data_ptr == y.data_ptr == t.data_ptr() and x.device == dt.Device("cuda:0")
    assert (x.shape, y.shape, y.strides) == ((2, 3), (3, 2), (1, 3))
    np.testing.assert_array_equal(np.asarray(y.to_device("cpu")), np.arange(6.0).reshape(2, 3).T)
    monkeypatch.undo()
    # what the C path does not check goes through __dlpack__, which refuses it as before
    for refused in (torch.ones(2, device="cuda", requires_grad=True),
                    torch.tensor([1 + 2j], device="cuda").conj()):
        with pytest.raises((RuntimeError, BufferError)):
            dt.asarray(refused)


def test_export_orders_the_consumer_stream_after_dltensor(cupy, torch):
    _warm_up(cupy, torch)
    x = dt.zeros(N, device="cuda:0")
    cupy.cuda.Device(0).synchronize()
    s = cupy.cuda.Stream(non_blocking=True)
    consumer = torch.cuda.Stream()
    with s:
        with torch.cuda.stream(torch.cuda.ExternalStream(s.ptr)):
            torch.cuda._sleep(SPIN)
        y = x + 5  # queued on s after the spin
        with torch.cuda.stream(consumer):
            t = torch.from_dlpack(y)  # torch asks with stream=consumer: it waits for y
            total = t.sum()
    consumer.synchronize()
    assert total.item() == 5 * N


def test_cuda_array_interface_stream_is_honoured(cupy, torch):
    _warm_up(cupy, torch)
    t = _settled(torch, 3.5)
    producer = torch.cuda.Stream()
    with torch.cuda.stream(producer):
        torch.cuda._sleep(SPIN)
        t.fill_(3.5)

    class Producer:  # what numba's arrays say: the stream their work is queued on
        __cuda_array_interface__ = {"data": (t.data_ptr(), False), "shape": (N,),
                                    "typestr": "<f4", "strides": None, "version": 3,
                                    "stream": producer.cuda_stream}
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        total = float(dt.sum(dt.asarray(Producer())))
    assert total == 3.5 * N


def _spin_current_stream(cupy, torch):
    """Hold CuPy's current stream back (SPIN). Its null stream is the legacy default stream,
    PyTorch's default stream (PyTorch takes no ExternalStream(1))."""
    ptr = cupy.cuda.get_current_stream().ptr
    with torch.cuda.stream(torch.cuda.ExternalStream(ptr) if ptr else
                           torch.cuda.default_stream()):
        torch.cuda._sleep(SPIN)


@pytest.mark.parametrize("kind", ["cupy", "int", "torch"])
def test_to_device_on_a_stream(cupy, torch, kind):
    _warm_up(cupy, torch)
    g = dt.zeros(N, device="cuda:0")
    cupy.cuda.Device(0).synchronize()
    s = cupy.cuda.Stream(non_blocking=True)
    stream = {"cupy": s, "int": s.ptr, "torch": torch.cuda.Stream().cuda_stream}[kind]
    _spin_current_stream(cupy, torch)
    g2 = g + 2  # queued behind the spin: the copy on `stream` must wait for it
    host = g2.to_device("cpu", stream=stream)
    assert np.asarray(host).sum() == 2 * N
    back = host.to_device("cuda:0", stream=stream)  # and back, on the same stream
    assert float(dt.sum(back)) == 2 * N


def test_to_device_checks_its_stream_also_when_nothing_moves(cupy):
    # (a wrong type was a ValueError, and on the same device no stream was checked at all)
    g = dt.zeros(3, device="cuda:0")
    for stream in ("x", 1.5, True):
        with pytest.raises(TypeError, match="stream"):
            g.to_device("cuda:0", stream=stream)
        with pytest.raises(TypeError, match="stream"):
            g.to_device("cpu", stream=stream)
    for stream in (0, -1, 2**64):  # (2**64, no pointer: the simulator took it, CuPy its own)
        with pytest.raises(ValueError, match="stream"):
            g.to_device("cuda:0", stream=stream)
        with pytest.raises(ValueError, match="stream"):
            g.to_device("cpu", stream=stream)
    assert g.to_device("cuda:0", stream=cupy.cuda.Stream()) is g


def test_pinned_tensors_are_taken_as_cpu_memory(cupy, torch):
    p = torch.arange(8, dtype=torch.float32).pin_memory()
    for x in (dt.asarray(p), dt.from_dlpack(p, copy=False), dt.asarray(p[:0])):
        assert x.device.device_type in (1, 3)  # (PyTorch says kDLCUDAHost for pinned)
    x = dt.from_dlpack(p, copy=False)
    assert x.data_ptr == p.data_ptr() and (x + 1).device == as_device("cpu")
    g = x.to_device("cuda:0")
    assert g.device == as_device("cuda:0") and float(dt.sum(g)) == 28.0
    pinned = g.to_device(dt.Device(3, 0))  # a copy into pinned memory, as the label says
    assert pinned.device == dt.Device(3, 0)
    assert cupy.cuda.runtime.pointerGetAttributes(pinned.data_ptr).type == 1  # host, pinned


def test_dtypes_cupy_has_not_are_held_and_moved(cupy, torch):
    f8 = torch.arange(4, dtype=torch.float32, device="cuda").to(torch.float8_e4m3fn)
    try:
        f8.__dlpack__()
    except Exception as e:  # noqa: BLE001 (which error a PyTorch without it raises varies)
        pytest.skip(f"this PyTorch does not export float8 through DLPack ({e})")
    x = dt.asarray(f8)
    assert x.device == as_device("cuda:0") and x.data_ptr == f8.data_ptr()
    assert not hasattr(x, "__cuda_array_interface__")
    back = torch.from_dlpack(x)
    assert back.data_ptr() == f8.data_ptr() and back.dtype == torch.float8_e4m3fn
    pytest.importorskip("ml_dtypes")
    host = x.to_device("cpu")
    assert np.asarray(host).astype(np.float32).tolist() == [0.0, 1.0, 2.0, 3.0]
    again = host.to_device("cuda:0")
    assert torch.equal(torch.from_dlpack(again).float(), f8.float())
    copy = dt.asarray(x, copy=True)  # a float8 copy on the GPU: its bytes
    assert copy.data_ptr != x.data_ptr and copy.device == x.device
    assert torch.equal(torch.from_dlpack(copy).float(), f8.float())
    from dltensor._backends import cupy_backend
    assert cupy_backend.can_view(4, 16)  # CuPy computes on bfloat16 (it found ml_dtypes)
    bf = dt.asarray(torch.arange(4, dtype=torch.bfloat16, device="cuda"))
    assert float(dt.sum(bf)) == 6.0
    # (the spec's inf // 2 mended with CuPy's where, which has no bfloat16 loop: float32)
    q = dt.asarray(torch.tensor([math.inf, 3.0], dtype=torch.bfloat16, device="cuda")) // 2.0
    assert q.dtype == dt.bfloat16 and q.tolist() == [math.inf, 1.0]
    # (CuPy's argmax of bfloat16 is its float32 one, which keeps whichever NaN it compares
    # first; its product of vectors rounds each product to bfloat16: both as on the CPU)
    v = torch.zeros(1024, dtype=torch.bfloat16, device="cuda")
    v[[1, 512]] = math.nan
    assert int(dt.argmax(dt.asarray(v))) == 1 == int(dt.argmin(dt.asarray(v)))
    m, n = (dt.asarray(torch.tensor(t, dtype=torch.bfloat16, device="cuda"))
            for t in ([1.0, 1 + 2**-7], [2**-8, 1 + 2**-7]))
    assert float(m @ n) == float(m.to_device("cpu") @ n.to_device("cpu")) == 1.0234375
    # (read in CuPy 14.2's sources, unrun: its where, round, tril and triu have no bfloat16
    # loop, and took float32's; its remainder subtracted a quotient rounded to bfloat16; its
    # nextafter(+0, -0) is +0. Unsure: whether the GPU's float-to-bfloat16 conversion keeps a
    # NaN's sign, which copysign through float32 needs)
    def bf16(values):
        return dt.asarray(torch.tensor(values, dtype=torch.bfloat16, device="cuda"))
    c = dt.asarray(torch.tensor([True, False], device="cuda"))
    for got, want in ((dt.where(c, bf16([1.5, 2.0]), bf16([-0.0, 3.0])), [1.5, 3.0]),
                      (dt.round(bf16([2.5, -0.5, 3.5])), [2.0, -0.0, 4.0]),
                      (dt.tril(bf16([[1.0, 2.0], [3.0, 4.0]])), [[1.0, 0.0], [3.0, 4.0]]),
                      (dt.triu(bf16([[1.0, 2.0], [3.0, 4.0]])), [[1.0, 2.0], [0.0, 4.0]]),
                      (bf16([1000.0, 5.0, 0.0]) % bf16([3.0, math.inf, -2.0]), [1.0, 5.0, -0.0]),
                      (dt.nextafter(bf16([0.0]), bf16([-0.0])), [-0.0])):
        assert got.dtype == dt.bfloat16 and got.tolist() == want
        assert np.array_equal(np.signbit(np.asarray(got.to_device("cpu"), np.float32)),
                              np.signbit(np.asarray(want, np.float32)))
    assert dt.signbit(dt.copysign(bf16([math.nan]), bf16([-1.0]))).tolist() == [True]
    assert np.asarray(bf.to_device("cpu")).astype(np.float32).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_a_copy_of_a_gpu_producers_memory_is_made_here_in_stream_order(cupy):
    # PyTorch's __dlpack__(copy=True, stream=s) makes s wait, then clones on its own stream:
    # nothing ordered s after the clone. The memory is taken as it is and copied on CuPy's.
    asked = []

    class Recorder:
        def __init__(self, a):
            self.a = a

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

        def __dlpack__(self, **kwargs):
            asked.append(kwargs)
            return self.a.__dlpack__(**kwargs)

    c = cupy.arange(4, dtype=cupy.float32)
    x = dt.from_dlpack(Recorder(c), copy=True)
    assert asked and not any(k.get("copy") for k in asked), asked
    assert x.device == as_device("cuda:0") and x.data_ptr != c.data.ptr and not x.read_only
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize("computed", [False, True])
def test_copied_exports(cupy, computed):
    x = dt.asarray(cupy.arange(4, dtype=cupy.float32))
    if computed:  # (CuPy's own producer exports what CuPy computed: not for a copy)
        x = x + 0
    cap = x.__dlpack__(max_version=(1, 0), copy=True, stream=1)
    c = dt.from_dlpack(cap)
    assert c._tensor.flags & _dlpack.DLPACK_FLAG_BITMASK_IS_COPIED and c.data_ptr != x.data_ptr
    y = dt.asarray(cupy.arange(4, dtype=cupy.float32), copy=True)
    assert y.device == x.device and float(dt.sum(y)) == 6.0
    ro = dt.from_dlpack(dt.from_dlpack(x).__dlpack__(max_version=(1, 0)))  # writable
    assert not ro.read_only


def test_a_float8_array_exports_a_copy_of_its_bytes(cupy):
    # CuPy has no float8: __dlpack__(copy=True) refused what astype and from_dlpack(copy=True)
    # copy there, as bytes
    import ml_dtypes
    host = np.arange(12, dtype=ml_dtypes.float8_e4m3fn)
    x = dt.asarray(host, device="cuda:0")[::2]
    c = dt.from_dlpack(x.__dlpack__(max_version=(1, 0), copy=True, stream=1))
    assert c._tensor.flags & _dlpack.DLPACK_FLAG_BITMASK_IS_COPIED and c.data_ptr != x.data_ptr
    assert c.device == x.device and c.dtype == x.dtype and c.shape == (6,)
    assert np.asarray(c.to_device("cpu")).view(np.uint8).tolist() == \
        host[::2].view(np.uint8).tolist()


def test_exports_of_negative_strides_say_them(cupy):
    # CuPy 14.2's producer divides a byte stride by an unsigned itemsize (cupy#10172): a flip's
    # -1 was exported as 2**61 - 1 elements, which CuPy's own consumer wraps back and any other
    # reads as garbage (dltensor's refused it). Such arrays go through dltensor's producer.
    from producers import tensor_fields
    x = dt.flip(dt.reshape(dt.asarray(cupy.arange(6.0)), (2, 3)), axis=1)
    assert tensor_fields(x.__dlpack__(max_version=(1, 0), stream=1))["strides"] == (3, -1)
    for capsule in (x.__dlpack__(max_version=(1, 0), stream=1), x.__dlpack__(stream=1)):
        back = dt.asarray(capsule)  # (dltensor's own consumer)
        assert back.data_ptr == x.data_ptr
        np.testing.assert_array_equal(np.asarray(back.to_device("cpu")), [[2, 1, 0], [5, 4, 3]])
    np.testing.assert_array_equal(cupy.from_dlpack(x).get(), [[2, 1, 0], [5, 4, 3]])


def test_read_only_exports(cupy, torch):
    t = torch.arange(4.0, device="cuda")
    held = dt.from_dlpack(t.__dlpack__(max_version=(1, 0), stream=1))  # (a capsule: held)
    held._tensor.flags |= _dlpack.DLPACK_FLAG_BITMASK_READ_ONLY  # as a read-only producer says
    out = dt.from_dlpack(held.__dlpack__(max_version=(1, 0), stream=1))
    assert out.read_only and out.data_ptr == t.data_ptr()
    assert held.__cuda_array_interface__["data"] == (t.data_ptr(), True)
    with pytest.raises(BufferError):
        held.__dlpack__(stream=1)  # a legacy capsule cannot say read-only


@pytest.mark.parametrize("producer", ["cupy", "torch"])
def test_read_only_reaches_views_of_read_only_imports(cupy, request, producer):
    # CuPy arrays have no writeable flag: dltensor marks them (views of a read-only import,
    # broadcasts: the test below), and writes, in-place operators and exports all see it.
    t = cupy.arange(4.0) if producer == "cupy" else \
        request.getfixturevalue("torch").arange(4.0, device="cuda")
    held = dt.from_dlpack(t.__dlpack__(max_version=(1, 0), stream=1))  # (a capsule: imported)
    held._tensor.flags |= _dlpack.DLPACK_FLAG_BITMASK_READ_ONLY  # as a read-only producer says
    ro = dt.from_dlpack(held.__dlpack__(max_version=(1, 0), stream=1))
    for view in (ro[1:], dt.reshape(ro, (2, 2)), dt.flip(ro), ro[None, :].mT):
        assert view.read_only
        with pytest.raises(ValueError, match="read-only"):
            view[...] = 1.0
        with pytest.raises(ValueError, match="read-only"):
            view += 1.0
        cap = view.__dlpack__(max_version=(1, 0), stream=1)
        assert dt.from_dlpack(cap).read_only
    assert float(t.sum()) == 6.0  # nothing was written


def test_a_view_taken_while_another_thread_first_computes_a_read_only_import_is_read_only(
        cupy, monkeypatch):
    # The CuPy view was published before it was marked read-only: a view another thread took
    # meanwhile was writable, and wrote into the producer's read-only memory. A pause before
    # the mark makes the window wide enough to hit every time.
    import threading
    import time
    from dltensor import _array
    real, marking = _array.mark_read_only, threading.Event()

    def slow_mark(a):
        marking.set()
        time.sleep(0.05)
        real(a)

    t = cupy.arange(4.0)
    held = dt.from_dlpack(t.__dlpack__(max_version=(1, 0), stream=1))
    held._tensor.flags |= _dlpack.DLPACK_FLAG_BITMASK_READ_ONLY  # as a read-only producer says
    ro = dt.from_dlpack(held.__dlpack__(max_version=(1, 0), stream=1))
    monkeypatch.setattr(_array, "mark_read_only", slow_mark)
    first = threading.Thread(target=lambda: dt.sum(ro))
    first.start()
    assert marking.wait(10)
    view = ro[1:]
    try:
        assert view.read_only
        with pytest.raises(ValueError, match="read-only"):
            view[...] = 9.0
    finally:
        first.join()
    assert float(t.sum()) == 6.0  # nothing was written


def test_read_only_reaches_broadcasts_and_their_views(cupy):
    b = dt.broadcast_to(dt.ones(2, device="cuda:0"), (3, 2))
    assert b.read_only and not dt.ones(2, device="cuda:0").read_only
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 5.0
    # (b[0, ...], not b[0]: dltensor refuses fewer indices than axes without an ellipsis)
    for view in (b, b[0, ...], b.mT, dt.flip(b), list(b)[1],
                 dt.broadcast_arrays(b, b)[0][1:, ...]):
        assert view.read_only  # (a CuPy view's base is the root, x: marked as made)
        with pytest.raises(ValueError, match="read-only"):
            view[...] = 5.0
        # (not by CuPy's producer, whose flags say writable)
        assert dt.from_dlpack(view.__dlpack__(max_version=(1, 0), stream=1)).read_only


# --- the conformance suite with CUDA as the default device -------------------------------------

def test_conformance_suite_with_cuda_default():
    suite = os.environ.get("ARRAY_API_TESTS_DIR")
    if not suite:
        pytest.skip("ARRAY_API_TESTS_DIR names no array-api-tests checkout")
    script = Path(__file__).resolve().parents[1] / "conformance" / "run.sh"
    env = dict(os.environ, DLTENSOR_DEVICE="cuda:0")
    done = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True,
                          timeout=3600)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]


def test_max_dimensions_is_what_cupy_allows(cupy):
    # CuPy 13 allows 32 axes, CuPy 14 (cupy#8511) NumPy 2's 64: capabilities() says the least.
    n = dt.__array_namespace_info__().capabilities()["max dimensions"]
    assert dt.zeros((1,) * n, device="cuda:0").ndim == n
    with pytest.raises(ValueError):
        cupy.zeros((1,) * (n + 1))



@pytest.mark.parametrize("shapes", [((3, 2, 2), (2, 4)), ((5, 1, 2, 2), (3, 2, 4)),
                                    ((2, 2), (3, 2, 1))], ids=str)
def test_solve_broadcasts_stacks_of_matrices(cupy, shapes):
    # CuPy's solve takes stacks of one shape only; the spec broadcasts them
    rng = np.random.default_rng(7)
    a = rng.standard_normal(shapes[0]) + 3 * np.eye(2)
    b = rng.standard_normal(shapes[1])
    got = dt.linalg.solve(dt.asarray(a, device="cuda:0"), dt.asarray(b, device="cuda:0"))
    want = np.linalg.solve(a, b)
    assert got.shape == want.shape and got.device == as_device("cuda:0")
    np.testing.assert_allclose(np.asarray(got.to_device("cpu")), want, rtol=1e-12)


def test_solve_broadcasts_a_vector_against_a_stack(cupy):
    # CuPy's solve takes a vector only beside one matrix; the spec broadcasts it.
    a = np.eye(3) * np.arange(1.0, 3.0)[:, None, None] + 0.1
    b = np.array([1.0, 2.0, 3.0])
    want = np.linalg.solve(a, np.broadcast_to(b, (2, 3))[..., None])[..., 0]
    got = dt.linalg.solve(dt.asarray(a, device="cuda:0"), dt.asarray(b, device="cuda:0"))
    assert got.shape == (2, 3) and got.device == as_device("cuda:0")
    np.testing.assert_allclose(np.asarray(got.to_device("cpu")), want)


@pytest.mark.parametrize("limit", [1, 5, 16])
def test_cumulative_functions_in_parts_agree_with_the_cpu(cupy, monkeypatch, limit):
    # CuPy's scans take at most 2**30 elements at a time here (their kernels index by 32-bit
    # ints): the parts, made small, and their joins, against the CPU's one scan
    from dltensor._backends import cupy_backend
    monkeypatch.setattr(cupy_backend, "_SCAN_AT_ONCE", limit)
    if SIMULATED:  # (its scans wrap as CuPy's, at as many elements as the limit allows)
        monkeypatch.setattr(cupy._departures, "SCAN_INDEX_BITS", limit.bit_length() + 1)
    rng = np.random.default_rng(limit)
    for shape, axis in (((23,), None), ((4, 6), 0), ((4, 6), -1), ((3, 5, 4), 1), ((5, 0), 1)):
        for dtype, out in ((dt.int32, None), (dt.int8, dt.int64), (dt.bool, None),
                           (dt.float32, dt.float64), (dt.complex64, None)):
            for include_initial in (False, True):
                for f in (dt.cumulative_sum, dt.cumulative_prod):
                    x = rng.integers(0, 3, shape)
                    want, got = (f(dt.astype(dt.asarray(x, device=d), dtype), axis=axis,
                                   dtype=out, include_initial=include_initial)
                                 for d in ("cpu", "cuda:0"))
                    assert got.device == dt.Device("cuda:0") and got.dtype == want.dtype
                    assert np.array_equal(np.asarray(got.to_device("cpu")), np.asarray(want))


@pytest.mark.skipif(SIMULATED, reason="needs 40 GB of real GPU memory")
def test_a_cumulative_sum_past_2_32_elements(cupy):
    # (CuPy's scan of it, at once, indexed by 32-bit unsigned ints: they wrapped)
    n = 2**32 + 3
    if cupy.cuda.Device(0).mem_info[0] < 48 * 2**30:
        pytest.skip("needs 48 GiB of free GPU memory")
    total = dt.cumulative_sum(dt.ones(n, dtype=dt.int8, device="cuda:0"), dtype=dt.int64)
    got = np.asarray(dt.take(total, dt.asarray([0, 2**31, 2**32, n - 1], device="cuda:0"))
                     .to_device("cpu")).tolist()
    assert got == [1, 2**31 + 1, 2**32 + 1, n]


@pytest.mark.parametrize("limit", [3, 40])
def test_gathers_past_cupys_index_type_agree_with_the_cpu(cupy, monkeypatch, limit):
    # CuPy's take kernel multiplies the index count by the size after the axis in the
    # source's 32-bit index type: such gathers go along the first axis (limit made small)
    from dltensor._backends import cupy_backend
    monkeypatch.setattr(cupy_backend, "_INDEX_MAX", limit)
    if SIMULATED:  # (its gathers go wrong as CuPy's, past the same limit)
        monkeypatch.setattr(cupy._departures, "TAKE_INDEX_MAX", limit)
    x = dt.reshape(dt.arange(60.0), (3, 4, 5))
    i = dt.asarray([3, 0, -1, 1, 1, 2])
    keys = [(slice(None), i, ...), (slice(None), i, slice(1, 4)), (..., dt.asarray([4, 0, -2])),
            (slice(None), slice(None), dt.asarray([4, 0])), (dt.asarray([2, 0, -1, 1]), ...),
            (slice(1, 3), i, ...), (slice(None), dt.asarray([[0, 3], [2, 1]]), slice(None)),
            (slice(None), dt.asarray([[0], [3]]), dt.asarray([1, 4, 0])),
            (slice(None, None, -1), dt.asarray([1, 2]), dt.asarray([0, 4])),
            (..., dt.asarray([1, 2]), dt.asarray([[0], [4]]))]
    for key in keys:
        on_gpu = tuple(dt.asarray(k, device="cuda:0") if isinstance(k, dt.ndarray) else k
                       for k in key)
        got = dt.asarray(x, device="cuda:0")[on_gpu]
        assert np.array_equal(np.asarray(got.to_device("cpu")), np.asarray(x[key])), key
    matrix = dt.reshape(dt.arange(6.0), (3, 2))  # (a matrix too, and two counts)
    for source, counts, axis in ((matrix, [2, 3], 1), (matrix, [1, 0, 2], 0)):
        got = dt.repeat(dt.asarray(source, device="cuda:0"),
                        dt.asarray(counts, device="cuda:0"), axis=axis)
        assert np.array_equal(np.asarray(got.to_device("cpu")),
                              np.asarray(dt.repeat(source, dt.asarray(counts), axis=axis)))
        got = dt.take(dt.asarray(source, device="cuda:0"),
                      dt.asarray([1, 0, 1, 1], device="cuda:0"), axis=1)
        assert np.array_equal(np.asarray(got.to_device("cpu")),
                              np.asarray(dt.take(source, dt.asarray([1, 0, 1, 1]), axis=1)))
    for counts, axis in (([1, 0, 2, 1], 1), ([2, 1, 0, 3, 1], -1), ([1, 2, 0], 0)):
        for dtype in (dt.int8, dt.int64):
            got = dt.repeat(dt.asarray(x, device="cuda:0"),
                            dt.asarray(counts, dtype=dtype, device="cuda:0"), axis=axis)
            want = dt.repeat(x, dt.asarray(counts, dtype=dtype), axis=axis)
            assert np.array_equal(np.asarray(got.to_device("cpu")), np.asarray(want)), axis
    for axis in (0, 1, 2, -1):
        got = dt.take(dt.asarray(x, device="cuda:0"), dt.asarray([2, 0, 1], device="cuda:0"),
                      axis=axis)
        want = dt.take(x, dt.asarray([2, 0, 1]), axis=axis)
        assert np.array_equal(np.asarray(got.to_device("cpu")), np.asarray(want)), axis


@pytest.mark.parametrize("limit", [7, 15])
def test_triangles_past_cupys_int32_mask_agree_with_the_cpu(cupy, monkeypatch, limit):
    # CuPy's tril/triu mask counts rows (and row + k) in int32: matrices whose rows and
    # columns together pass it go by blocks (the limit made small)
    from dltensor._backends import cupy_backend
    monkeypatch.setattr(cupy_backend, "_INDEX_MAX", limit)
    if SIMULATED:  # (its masks wrap as CuPy's, past the same limit)
        monkeypatch.setattr(cupy._departures, "TRI_INDEX_MAX", limit)
    for shape in ((13, 3), (3, 13), (2, 9, 10), (17, 17)):
        x = dt.reshape(dt.arange(1.0, math.prod(shape) + 1.0), shape)
        for k in (0, 2, -3, 20, -20):
            for f in (dt.tril, dt.triu):
                got = f(dt.asarray(x, device="cuda:0"), k=k)
                assert np.array_equal(np.asarray(got.to_device("cpu")), np.asarray(f(x, k=k))), (
                    shape, k, f.__name__)


@pytest.mark.parametrize("limit", [5, 100])
def test_large_lone_masks_go_by_their_indices(cupy, monkeypatch, limit):
    # CuPy counts a lone mask's selection in a C int (OverflowError past 2**31 - 1): masks of
    # more elements than that go by their nonzero() indices (the limit made small)
    from dltensor._backends import cupy_backend
    monkeypatch.setattr(cupy_backend, "_INDEX_MAX", limit)
    if SIMULATED:  # (it counts as CuPy does, to the same limit)
        monkeypatch.setattr(cupy._departures, "MASK_COUNT_MAX", limit)
    x = dt.reshape(dt.arange(24.0), (4, 6))
    for mask, rest in ((x > 3.0, ()), (dt.asarray([True, False, True, True]), ()),
                       (dt.asarray([True, False, True, True]), (...,)), (x < -1.0, ()),
                       (dt.asarray([False, True, True, True]), (slice(None),))):
        on_gpu = dt.asarray(x, device="cuda:0")
        key, m = (mask, *rest), (dt.asarray(mask, device="cuda:0"), *rest)
        got = on_gpu[m]
        assert np.array_equal(np.asarray(got.to_device("cpu")), np.asarray(x[key]))
        want = dt.asarray(x, copy=True)
        want[key] = -1.0
        on_gpu[m] = -1.0
        assert np.array_equal(np.asarray(on_gpu.to_device("cpu")), np.asarray(want))
        want[key] = want[key] * 2
        on_gpu[m] = on_gpu[m] * 2
        assert np.array_equal(np.asarray(on_gpu.to_device("cpu")), np.asarray(want))


@pytest.mark.parametrize("rows, elements", [(4, 1000), (1000, 20), (3, 7)])
def test_integer_products_past_cupys_kernel_agree_with_the_cpu(cupy, monkeypatch, rows,
                                                                elements):
    # CuPy's integer matmul (a kernel of its own) launches at most 65,535 blocks of 128 rows
    # or columns and counts a matrix's elements in a C int: larger products go by blocks
    # (the limits made small)
    from dltensor._backends import cupy_departures
    monkeypatch.setattr(cupy_departures, "_INT_MATMUL_ROWS", rows)
    monkeypatch.setattr(cupy_departures, "_INT_MATMUL_ELEMENTS", elements)
    if SIMULATED:  # (its integer products fail as CuPy's, past the same limits)
        monkeypatch.setattr(cupy._departures, "INT_MATMUL_ROWS_MAX", rows)
        monkeypatch.setattr(cupy._departures, "INT_MATMUL_ELEMENTS_MAX", elements)
    rng = np.random.default_rng(rows)
    for s1, s2 in (((9, 5), (5, 7)), ((5,), (5, 9)), ((9, 5), (5,)), ((11,), (11,)),
                   ((2, 6, 5), (5, 3)), ((3, 1, 4, 9), (2, 9, 5))):
        for dtype in (dt.int8, dt.int64, dt.uint16):
            x1, x2 = (dt.astype(dt.asarray(rng.integers(-3, 4, s)), dtype) for s in (s1, s2))
            want = x1 @ x2
            got = dt.asarray(x1, device="cuda:0") @ dt.asarray(x2, device="cuda:0")
            assert got.dtype == want.dtype and np.array_equal(np.asarray(got.to_device("cpu")),
                                                              np.asarray(want)), (s1, s2, dtype)


def test_integer_products_just_past_cupys_grid_go_by_blocks(cupy):
    # dltensor's own limits, unpatched, within CuPy's: 8,388,600 rows (or columns) are more
    # than its grid of 65,535 blocks of 128 takes (8,388,480), fewer than 2**23 (8 MiB of int8)
    rows = 8_388_600
    v = (np.arange(rows) % 7 - 3).astype(np.int8)
    for s1, s2 in ((v[:, None], np.array([[1, -2]], np.int8)),
                   (np.array([[2], [-1]], np.int8), v[None, :])):
        want = np.matmul(s1, s2)
        got = dt.asarray(s1, device="cuda:0") @ dt.asarray(s2, device="cuda:0")
        assert got.shape == want.shape and np.array_equal(np.asarray(got.to_device("cpu")), want)


def test_integer_products_past_a_c_int_of_elements_go_by_blocks(cupy):
    # x1 of 2**31 + 1 elements (one row), past CuPy's int M, N, K: the contracted axis is
    # halved; broadcast (nothing allocated on the simulator; ~2 s of NumPy's int8 products)
    if not SIMULATED and _free_gib(cupy) < 8:  # (CuPy copies a broadcast operand)
        pytest.skip("needs 8 GiB of free GPU memory")
    k = 2**31 + 1
    one = dt.ones((1, 1), dtype=dt.int8, device="cuda:0")
    got = dt.broadcast_to(one, (1, k)) @ dt.broadcast_to(one, (k, 1))
    assert got.shape == (1, 1) and int(got[0, 0]) == k % 256 == 1  # (wrapped, as one sum)


def test_bfloat16_departures_compute_in_float32(cupy):
    # CuPy with ml_dtypes has bfloat16: its remainder subtracted a quotient rounded to
    # bfloat16 (1000 % 3 was 4), its vector dot added in bfloat16; dltensor's departures take
    # float32, as NumPy and ml_dtypes compute. (Called directly: the simulator, as CuPy
    # without ml_dtypes, takes no bfloat16 through DLPack, so dltensor holds it there.)
    from dltensor._backends import cupy_departures
    bf16 = np.dtype(pytest.importorskip("ml_dtypes").bfloat16)
    x, y = np.array([1000, 7, -5.5, 1], bf16), np.array([3, 2, 2, np.inf], bf16)
    try:
        cx, cy = cupy.asarray(x), cupy.asarray(y)
    except Exception:  # noqa: BLE001 (whatever CuPy says of a dtype it has not)
        pytest.skip("this CuPy makes no bfloat16 arrays")
    wide = x.astype(np.float32), y.astype(np.float32)
    for fn, want in ((cupy_departures.remainder, np.remainder(*wide)),
                     (cupy_departures.floor_divide, np.floor_divide(*wide))):
        got = cupy.asnumpy(fn(cupy, cx, cy))
        assert got.dtype == bf16 and np.array_equal(got.astype(np.float32),
                                                    want.astype(bf16).astype(np.float32)), fn
    v = np.array([256] + [1] * 8, bf16)  # (in bfloat16 256 + 1 is 256: 8 bits)
    got = cupy.asnumpy(cupy_departures.matmul(cupy, cupy.asarray(v), cupy.asarray(v * 0 + 1)))
    assert got.dtype == bf16 and float(got) == 264.0


def _thrust_divide(cupy, divide):
    """CuPy's complex division (thrust's, cupy/_core/include/cupy/complex/complex_inl.h): scaled
    by 1 / (|c| + |d|), NaN + NaN j for a zero or infinite divisor; real ones by ``divide``."""
    from dltensor._special_cases import from_parts

    def f(x1, x2, /, **kwargs):
        dtype = cupy.result_type(x1, x2)
        if dtype.kind != "c" or kwargs:
            return divide(x1, x2, **kwargs)
        z1, z2 = (cupy.asarray(v).astype(dtype) for v in (x1, x2))
        oos = divide(1.0, cupy.abs(z2.real) + cupy.abs(z2.imag))
        ars, ais, brs, bis = z1.real * oos, z1.imag * oos, z2.real * oos, z2.imag * oos
        oos = divide(1.0, brs * brs + bis * bis)
        return from_parts(cupy, (ars * brs + ais * bis) * oos, (ais * brs - ars * bis) * oos,
                          dtype)
    return f


def test_complex_division_is_numpys_where_cupys_departs(cupy, monkeypatch):
    # The simulator divides complex numbers as NumPy; made to divide as CuPy (thrust), the
    # device cases of complex division still agree: no path leaves them to CuPy's division.
    # (On a GPU, test_cuda_agrees_with_the_cpu runs them against CuPy's own.)
    if not SIMULATED:
        pytest.skip("CuPy divides as CuPy here")
    for name in ("divide", "true_divide"):
        monkeypatch.setattr(cupy, name, _thrust_divide(cupy, getattr(cupy, name)),
                            raising=False)
    assert np.isnan(complex(cupy.divide(cupy.asarray([1 + 1j]), cupy.asarray([0j]))[0]).real)
    for case in CASES:
        if case.id in ("complex-division-by-zero-and-infinity", "complex-reciprocal",
                       "complex-divided-by-a-real-array"):
            assert_same(case, outcome(case, "cpu"), outcome(case, "cuda:0"), "cuda:0")


def test_repeat_of_no_elements_checks_the_devices_of_its_counts(cupy):
    # (answered without the backend: the counts' device checked as for any other repeat)
    for xd, rd in (("cuda:0", "cpu"), ("cpu", "cuda:0")):
        with pytest.raises(ValueError, match="different devices"):
            dt.repeat(dt.zeros((3, 4, 0), device=xd), dt.asarray([1, 2, 3, 4], device=rd),
                      axis=1)
        for counts in ([2], 2):  # (one count: it was read from the other device)
            with pytest.raises(ValueError, match="different devices"):
                dt.repeat(dt.asarray([1.0, 2.0], device=xd), dt.asarray(counts, device=rd))


def test_imatmul_of_arrays_on_two_devices_says_so_before_the_shapes(cupy):
    # (the shape change refused before the product: not where the product refuses the devices)
    for xd, yd in (("cuda:0", "cpu"), ("cpu", "cuda:0")):
        x = dt.ones((2, 1), device=xd)
        with pytest.raises(ValueError, match="different devices"):
            x @= dt.ones((1, 2), device=yd)


def _free_gib(cupy) -> float:
    return cupy.cuda.Device(0).mem_info[0] / 2**30


@pytest.mark.skipif(SIMULATED, reason="needs real GPU memory")
def test_sizes_past_cupys_32_bit_indices(cupy):
    # The mends above at the sizes where CuPy 14.2's sources say its kernels go wrong (the
    # simulator tests check them at sizes made small): a take whose index count times the
    # size after the axis passes an int, an integer product of more rows than its grid
    # takes, a lone mask of more than 2**31 - 1 elements, tril of 2**31 rows
    if _free_gib(cupy) < 40:
        pytest.skip("needs 40 GiB of free GPU memory")
    x = dt.reshape(dt.arange(2 * 4 * 65536, dtype=dt.int32, device="cuda:0") % 127, (2, 4, 65536))
    x = dt.astype(x, dt.int8)
    i = dt.asarray(np.arange(32768) % 4, device="cuda:0")
    got = x[:, i, :]  # (2 * 32768 * 65536 = 2**32 elements)
    assert int(got[1, 32767, 65535]) == int(x[1, 3, 65535]) and int(got[1, 5, 7]) == \
        int(x[1, 1, 7])
    del got
    rows = dt.ones((10_000_000, 3), dtype=dt.int32, device="cuda:0")
    product = rows @ dt.asarray([1, 2, 3], dtype=dt.int32, device="cuda:0")
    assert product.shape == (10_000_000,) and int(dt.min(product)) == int(dt.max(product)) == 6
    del rows, product
    n = 2**31 + 3
    m = dt.ones(n, dtype=dt.bool, device="cuda:0")
    y = dt.zeros(n, dtype=dt.int8, device="cuda:0")
    y[m] = 1
    assert int(dt.sum(y, dtype=dt.int64)) == n and y[m].shape == (n,)
    del m, y
    t = dt.tril(dt.ones((2**31 + 5, 2), dtype=dt.int8, device="cuda:0"))
    assert int(t[2**31 + 4, 1]) == 1 and int(t[0, 1]) == 0 and int(
        dt.sum(t, dtype=dt.int64)) == 2 * (2**31 + 5) - 1
