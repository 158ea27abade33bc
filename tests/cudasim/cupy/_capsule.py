"""DLPack capsules for the simulator, read and relabelled with ctypes of its own (not dltensor's
reader: a fault shared by both would go unseen)."""
import ctypes

import numpy as _np

_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_GetPointer.restype, _GetPointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_IsValid = ctypes.pythonapi.PyCapsule_IsValid
_IsValid.restype, _IsValid.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
_KINDS = {0: "i", 1: "u", 2: "f", 5: "c", 6: "b"}  # DLPack type codes CuPy takes


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


def or_flags(cap, bit):
    p = _GetPointer(cap, b"dltensor_versioned")
    ctypes.c_uint64.from_address(p + 24).value |= bit


def device(cap):
    """The (device type, id) a capsule's tensor says, as CuPy reads a capsule given itself."""
    for name, at in ((b"dltensor_versioned", 32), (b"dltensor", 0)):
        if _IsValid(cap, name):
            t = _DLTensor.from_address(_GetPointer(cap, name) + at)
            return t.device.device_type, t.device.device_id
    raise ValueError("A DLPack tensor object cannot be consumed multiple times (or object was "
                     "not a DLPack capsule)")


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
    dtype = _np.dtype(f"{kind}{t.dtype.bits // 8}")
    if t.ndim and not t.shape:
        raise BufferError("NULL shape")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = None if not t.strides else tuple(t.strides[i] * dtype.itemsize
                                               for i in range(t.ndim))
    size = int(_np.prod(shape)) if shape else 1
    if size and not t.data:
        raise BufferError("NULL data with elements")
    if size == 0:
        return _np.empty(shape, dtype)

    class Holder:
        __array_interface__ = {"shape": shape, "typestr": dtype.str,
                               "data": ((t.data or 0) + t.byte_offset, False),
                               "strides": strides, "version": 3}
        capsule = cap
    return _np.asarray(Holder())
