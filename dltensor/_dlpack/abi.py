"""The DLPack 1.3 ABI as ctypes structures and enums.

Layouts follow dlpack.h exactly (64-bit); ``tests/dlpack/test_abi.py`` asserts every size and
offset. Nothing here knows about NumPy or any array library.
"""

from __future__ import annotations

import ctypes
import enum

__all__ = [
    "DLPACK_MAJOR_VERSION", "DLPACK_MINOR_VERSION",
    "DLDeviceType", "DLDataTypeCode", "DLDevice", "DLDataType", "DLTensor",
    "DLManagedTensor", "DLPackVersion", "DLManagedTensorVersioned",
    "DLPACK_FLAG_BITMASK_READ_ONLY", "DLPACK_FLAG_BITMASK_IS_COPIED",
    "DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED",
    "DELETER",
]

# The version this implementation speaks; we export 1.x and accept any 1.x.
DLPACK_MAJOR_VERSION = 1
DLPACK_MINOR_VERSION = 3


class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18


class DLDataTypeCode(enum.IntEnum):
    kDLInt = 0
    kDLUInt = 1
    kDLFloat = 2
    kDLOpaqueHandle = 3
    kDLBfloat = 4
    kDLComplex = 5
    kDLBool = 6
    kDLFloat8_e3m4 = 7
    kDLFloat8_e4m3 = 8
    kDLFloat8_e4m3b11fnuz = 9
    kDLFloat8_e4m3fn = 10
    kDLFloat8_e4m3fnuz = 11
    kDLFloat8_e5m2 = 12
    kDLFloat8_e5m2fnuz = 13
    kDLFloat8_e8m0fnu = 14
    kDLFloat6_e2m3fn = 15
    kDLFloat6_e3m2fn = 16
    kDLFloat4_e2m1fn = 17


DLPACK_FLAG_BITMASK_READ_ONLY = 1 << 0
DLPACK_FLAG_BITMASK_IS_COPIED = 1 << 1
DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED = 1 << 2


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    pass


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


# Deleters take the managed tensor's address; c_void_p keeps the call free of struct boxing.
DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

DLManagedTensor._fields_ = [
    ("dl_tensor", DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.c_void_p),
]

# Note: the versioned struct puts dl_tensor LAST.
DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", ctypes.c_void_p),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]
