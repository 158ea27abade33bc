"""Pickling and copying arrays: what multiprocessing, dask and joblib rely on.

CPU arrays pickle through NumPy. With protocol 5 the data goes out of band (one PickleBuffer,
no copy into the stream), so a pickle of a large array is a few hundred bytes of metadata.
Memory dltensor cannot read (held devices such as Metal) refuses to pickle, naming the device,
instead of copying across devices behind the caller's back.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import dltensor as dt
from dltensor._dtypes import dtype_from_dlpack
import producers as P

N = 1 << 20  # 8 MiB of float64: large enough that an in-band copy could not hide


def _cuda_available() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def _dumps5(x):
    buffers: list[pickle.PickleBuffer] = []
    stream = pickle.dumps(x, protocol=5, buffer_callback=buffers.append)
    return stream, buffers


def test_protocol_5_sends_the_data_out_of_band():
    a = np.arange(N, dtype=np.float64)
    x = dt.asarray(a)
    stream, buffers = _dumps5(x)
    assert len(buffers) == 1
    assert len(stream) < 1024, len(stream)        # metadata only: 8 MiB stayed out
    raw = buffers[0].raw()
    assert raw.nbytes == a.nbytes
    # Out of band means not copied: the buffer is the array's own memory.
    assert np.frombuffer(raw, dtype=np.float64).ctypes.data == a.ctypes.data
    y = pickle.loads(stream, buffers=buffers)
    assert type(y) is dt.ndarray
    assert y.shape == x.shape and y.dtype == dt.float64 and y.device == x.device
    np.testing.assert_array_equal(np.asarray(y), a)


def test_protocol_5_round_trip_through_bytes_is_independent():
    # What a process boundary does: the buffers are serialised, so the copy owns its memory.
    x = dt.reshape(dt.arange(24, dtype=dt.int32), (2, 3, 4))
    stream, buffers = _dumps5(x)
    y = pickle.loads(stream, buffers=[bytearray(b.raw()) for b in buffers])
    assert y.data_ptr != x.data_ptr
    assert bool(dt.all(y == x)) and y.dtype == dt.int32 and y.shape == (2, 3, 4)
    y[0, 0, 0] = 100
    assert int(x[0, 0, 0]) == 0


def test_read_only_survives_protocol_5():
    a = np.arange(10.0)
    a.flags.writeable = False
    x = dt.asarray(a)
    assert x.read_only
    stream, buffers = _dumps5(x)
    assert len(buffers) == 1
    y = pickle.loads(stream, buffers=buffers)
    assert y.read_only
    with pytest.raises(ValueError):
        y[0] = 1.0
    np.testing.assert_array_equal(np.asarray(y), a)


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
@pytest.mark.parametrize("dtype", [dt.bool, dt.int8, dt.uint16, dt.int64, dt.float32,
                                   dt.float64, dt.complex64, dt.complex128])
def test_in_band_protocols_keep_values_dtype_and_shape(protocol, dtype):
    x = dt.astype(dt.reshape(dt.arange(12), (3, 4)) % 3, dtype)
    y = pickle.loads(pickle.dumps(x, protocol=protocol))
    assert type(y) is dt.ndarray
    assert y.dtype == dtype and y.shape == (3, 4) and y.device == x.device
    assert y.data_ptr != x.data_ptr
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_imported_and_strided_arrays_pickle(protocol):
    import torch  # (CI has it: a failure, not a skip, without it)
    t = torch.arange(20, dtype=torch.float32).reshape(4, 5)
    x = dt.asarray(t)                 # owns a managed tensor, not a NumPy array
    for v in (x, x.mT, x[::2, 1:], dt.flip(x, axis=0)):
        y = pickle.loads(pickle.dumps(v, protocol=protocol))
        assert y.shape == v.shape and y.dtype == dt.float32
        np.testing.assert_array_equal(np.asarray(y), np.asarray(v))


def test_zero_dim_and_empty_arrays_pickle():
    for x in (dt.asarray(3.5), dt.zeros((0, 3)), dt.asarray(True)):
        y = pickle.loads(pickle.dumps(x, protocol=5))
        assert y.shape == x.shape and y.dtype == x.dtype
        np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


def test_bfloat16_pickles_with_ml_dtypes():
    pytest.importorskip("ml_dtypes")
    import torch
    x = dt.asarray(torch.tensor([1.5, -2.0, 3.0], dtype=torch.bfloat16))
    y = pickle.loads(pickle.dumps(x, protocol=5))
    assert y.dtype == dt.bfloat16
    assert torch.equal(torch.from_dlpack(y), torch.tensor([1.5, -2.0, 3.0], dtype=torch.bfloat16))


def test_copy_and_deepcopy():
    a = np.arange(6.0).reshape(2, 3)
    x = dt.asarray(a)
    c = copy.copy(x)
    d = copy.deepcopy(x)
    for y in (c, d):
        assert type(y) is dt.ndarray and y.dtype == x.dtype and y.shape == x.shape
        np.testing.assert_array_equal(np.asarray(y), a)
    # deepcopy owns its memory: writes do not reach the original, nor the reverse.
    assert d.data_ptr != x.data_ptr
    d[0, 0] = -1.0
    x[1, 1] = 99.0
    assert a[0, 0] == 0.0 and float(d[1, 1]) == 4.0
    # Inside containers, deepcopy keeps shared references shared (the memo).
    pair = copy.deepcopy([x, x])
    assert pair[0] is pair[1] and pair[0].data_ptr != x.data_ptr


def test_devices_and_dtypes_pickle():
    for obj in (dt.float32, dt.bfloat16, dt.int64, dt.Device(1, 0), dt.Device(2, 3)):
        assert pickle.loads(pickle.dumps(obj)) == obj
    assert pickle.loads(pickle.dumps(dt.float32)) is dt.float32
    # (a held width with no name of dltensor's pickled by name: KeyError)
    for code, bits in ((0, 4), (1, 2), (2, 8), (17, 4)):
        held = dtype_from_dlpack(code, bits)
        assert pickle.loads(pickle.dumps(held)) is held and copy.deepcopy(held) is held


@pytest.mark.parametrize("protocol", [2, 4, 5])
@pytest.mark.parametrize("device", [(P.METAL, 0), (P.ROCM, 1), (P.VULKAN, 0)])
def test_held_device_arrays_refuse_to_pickle(protocol, device):
    x = dt.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=device, shape=(4,),
                                  strides=(1,)))
    name = str(x.device)
    with pytest.raises(TypeError, match=name):
        pickle.dumps(x, protocol=protocol)
    # Refusing read nothing: the array is still held and hands on its memory untouched.
    assert x.data_ptr == P.FAKE_POINTER and str(x.device) == name


@pytest.mark.gpu
@pytest.mark.skipif(not _cuda_available(), reason="needs CuPy and a CUDA device")
def test_cuda_arrays_refuse_to_pickle_until_moved():
    x = dt.arange(8.0, device="cuda:0")
    with pytest.raises(TypeError, match="cuda:0"):
        pickle.dumps(x, protocol=5)
    stream, buffers = _dumps5(x.to_device("cpu"))   # the explicit move, then pickling works
    y = pickle.loads(stream, buffers=buffers)
    assert y.device == dt.Device(1, 0)
    np.testing.assert_array_equal(np.asarray(y), np.arange(8.0))


@pytest.mark.parametrize("protocol", [2, 5])
def test_dtypes_numpy_cannot_hold_refuse_to_pickle_naming_the_dtype(protocol):
    # float4 packs two elements a byte: CPU memory, but no NumPy dtype can carry it. The
    # refusal names the dtype, not a device ("cannot pickle an array on device cpu").
    a = np.arange(12, dtype=np.uint8)
    x = dt.from_dlpack(P.from_numpy(a, dtype=(17, 4, 1), shape=(3, 8), strides=(8, 1)))
    with pytest.raises(TypeError, match="float4_e2m1fn") as e:
        pickle.dumps(x, protocol=protocol)
    assert "device" not in str(e.value)
    assert x.data_ptr == a.ctypes.data  # still held
