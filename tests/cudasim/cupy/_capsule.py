"""DLPack capsules for the simulator, read and relabelled with ctypes of its own (not dltensor's
reader: a fault shared by both would go unseen)."""
import ctypes

import numpy as _np

_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_GetPointer.restype, _GetPointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_IsValid = ctypes.pythonapi.PyCapsule_IsValid
_IsValid.restype, _IsValid.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
_SetName = ctypes.pythonapi.PyCapsule_SetName
_SetName.restype, _SetName.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_KINDS = {0: "i", 1: "u", 2: "f", 5: "c", 6: "b"}  # DLPack type codes CuPy takes
_CUPY_DTYPES = {(0, 8), (0, 16), (0, 32), (0, 64), (1, 8), (1, 16), (1, 32), (1, 64), (2, 16),
                (2, 32), (2, 64), (5, 64), (5, 128), (6, 8)}  # (code, bits), as CuPy 14.2's


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


def set_device(cap, versioned, device_type, device_id):
    """Relabel a fresh capsule's device (NumPy's, made "GPU" memory)."""
    p = _GetPointer(cap, b"dltensor_versioned" if versioned else b"dltensor")
    device = _DLDevice.from_address(p + (40 if versioned else 8))
    device.device_type, device.device_id = device_type, device_id


def strides_as_cupy_14_2(cap, versioned):
    """CuPy 14.2's producer divides each byte stride by an unsigned itemsize (cupy#10172, fixed
    after 14.2): a negative stride of -1 float64 is written 2**61 - 1. Its own consumer
    multiplies back with a wrap to -8 (see _array); other consumers read garbage."""
    p = _GetPointer(cap, b"dltensor_versioned" if versioned else b"dltensor")
    t = _DLTensor.from_address(p + (32 if versioned else 0))
    size = t.dtype.bits // 8
    for i in range(t.ndim if t.strides else 0):
        if t.strides[i] < 0:
            t.strides[i] = (t.strides[i] * size % 2**64) // size


def or_flags(cap, bit):
    p = _GetPointer(cap, b"dltensor_versioned")
    ctypes.c_uint64.from_address(p + 24).value |= bit


class _Taken:
    """A managed tensor taken from its capsule, as CuPy's DLPackMemory holds it: the deleter runs
    when this dies (at once where CuPy then refuses the tensor)."""

    def __init__(self, p, deleter_at):
        self.p, self.deleter_at = p, deleter_at

    def __del__(self):
        deleter = ctypes.c_void_p.from_address(self.p + self.deleter_at).value
        if deleter:
            _DELETER(deleter)(self.p)


# (name, its used name, the DLTensor's and the deleter's offsets); the names live as long as the
# module: a capsule keeps the pointer SetName is given, not a copy
_TAKES = ((b"dltensor_versioned", b"used_dltensor_versioned", 32, 16),
          (b"dltensor", b"used_dltensor", 0, 56))


def take(cap):
    """A CUDA array's NumPy array over a capsule given to from_dlpack itself, as CuPy 14.2's
    DLPackMemory takes it: renamed used_* first (the capsule then releases nothing, and a second
    take is CuPy's ValueError), then its version, device and dtype checked with CuPy's errors;
    the array keeps the taken tensor, whose deleter runs when it dies, or at once on a refusal.
    Returns (array, device id)."""
    for name, used, at, deleter_at in _TAKES:
        if _IsValid(cap, name):
            p = _GetPointer(cap, name)
            _SetName(cap, used)
            taken = _Taken(p, deleter_at)
            if at and ctypes.c_uint32.from_address(p).value > 1:
                raise BufferError("DLPack exported too new major version.")
            t = _DLTensor.from_address(p + at)
            break
    else:
        raise ValueError("A DLPack tensor object cannot be consumed multiple times (or object "
                         f"was not a DLPack capsule). Got: {cap!r}")
    if t.device.device_type not in (2, 13):
        raise RuntimeError("CuPy is built against CUDA, different from the backend that backs "
                           "the incoming DLPack tensor")
    if t.dtype.lanes != 1:
        raise ValueError(f"vector dtypes (lanes={t.dtype.lanes}) is not supported")
    if (t.dtype.code, t.dtype.bits) not in _CUPY_DTYPES:
        raise TypeError(f"Unsupported dtype. dtype code: {t.dtype.code}")
    return _array(t, taken), t.device.device_id


def read(cap, device):
    """A NumPy array over a capsule's memory, which it keeps alive (CuPy ignores READ_ONLY).
    Refuses what CuPy 14.2's from_dlpack refuses."""
    if _IsValid(cap, b"dltensor_versioned"):
        p = _GetPointer(cap, b"dltensor_versioned")
        major = ctypes.c_uint32.from_address(p).value
        if major != 1:
            raise BufferError(f"DLPack version {major} unsupported")
        t = _DLTensor.from_address(p + 32)
    elif _IsValid(cap, b"dltensor"):
        t = _DLTensor.from_address(_GetPointer(cap, b"dltensor"))
    else:
        raise TypeError("not a DLPack capsule (or one already consumed)")
    if (t.device.device_type, t.device.device_id) != tuple(device):
        raise BufferError(f"capsule device {(t.device.device_type, t.device.device_id)} is not "
                          f"__dlpack_device__ {tuple(device)}")
    kind = _KINDS.get(t.dtype.code)
    if kind is None or t.dtype.lanes != 1:
        raise BufferError(f"CuPy does not support dtype {(t.dtype.code, t.dtype.bits)}")
    return _array(t, cap)


def _array(t, owner):
    """A NumPy array over DLTensor ``t``'s memory, which ``owner`` keeps alive."""
    dtype = _np.dtype(f"{_KINDS[t.dtype.code]}{t.dtype.bits // 8}")
    if t.ndim and not t.shape:
        raise BufferError("NULL shape")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = None if not t.strides else tuple(  # (CuPy's int64 product: it wraps)
        (t.strides[i] * dtype.itemsize + 2**63) % 2**64 - 2**63 for i in range(t.ndim))
    size = int(_np.prod(shape)) if shape else 1
    if size and not t.data:
        raise BufferError("NULL data with elements")
    if size == 0:
        return _np.empty(shape, dtype)

    class Holder:
        __array_interface__ = {"shape": shape, "typestr": dtype.str,
                               "data": ((t.data or 0) + t.byte_offset, False),
                               "strides": strides, "version": 3}
        capsule = owner
    return _np.asarray(Holder())
