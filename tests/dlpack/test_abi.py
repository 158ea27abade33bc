"""The DLPack 1.3 ABI: struct sizes and offsets, enum values, flags, and the struct formats the
consumer and producer use instead of ctypes on their hot paths."""

import ctypes
import os
import struct
import subprocess
import sys

import pytest

from dltensor._dlpack import abi, consume, produce

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SIZES = [
    (abi.DLDevice, 8), (abi.DLDataType, 4), (abi.DLPackVersion, 8), (abi.DLTensor, 48),
    (abi.DLManagedTensor, 64), (abi.DLManagedTensorVersioned, 80),
]

OFFSETS = [
    (abi.DLDevice, "device_type", 0), (abi.DLDevice, "device_id", 4),
    (abi.DLDataType, "code", 0), (abi.DLDataType, "bits", 1), (abi.DLDataType, "lanes", 2),
    (abi.DLPackVersion, "major", 0), (abi.DLPackVersion, "minor", 4),
    (abi.DLTensor, "data", 0), (abi.DLTensor, "device", 8), (abi.DLTensor, "ndim", 16),
    (abi.DLTensor, "dtype", 20), (abi.DLTensor, "shape", 24), (abi.DLTensor, "strides", 32),
    (abi.DLTensor, "byte_offset", 40),
    (abi.DLManagedTensor, "dl_tensor", 0), (abi.DLManagedTensor, "manager_ctx", 48),
    (abi.DLManagedTensor, "deleter", 56),
    (abi.DLManagedTensorVersioned, "version", 0),
    (abi.DLManagedTensorVersioned, "manager_ctx", 8),
    (abi.DLManagedTensorVersioned, "deleter", 16),
    (abi.DLManagedTensorVersioned, "flags", 24),
    (abi.DLManagedTensorVersioned, "dl_tensor", 32),
]

DEVICE_TYPES = {
    "kDLCPU": 1, "kDLCUDA": 2, "kDLCUDAHost": 3, "kDLOpenCL": 4, "kDLVulkan": 7, "kDLMetal": 8,
    "kDLVPI": 9, "kDLROCM": 10, "kDLROCMHost": 11, "kDLExtDev": 12, "kDLCUDAManaged": 13,
    "kDLOneAPI": 14, "kDLWebGPU": 15, "kDLHexagon": 16, "kDLMAIA": 17, "kDLTrn": 18,
}

TYPE_CODES = {
    "kDLInt": 0, "kDLUInt": 1, "kDLFloat": 2, "kDLOpaqueHandle": 3, "kDLBfloat": 4,
    "kDLComplex": 5, "kDLBool": 6, "kDLFloat8_e3m4": 7, "kDLFloat8_e4m3": 8,
    "kDLFloat8_e4m3b11fnuz": 9, "kDLFloat8_e4m3fn": 10, "kDLFloat8_e4m3fnuz": 11,
    "kDLFloat8_e5m2": 12, "kDLFloat8_e5m2fnuz": 13, "kDLFloat8_e8m0fnu": 14,
    "kDLFloat6_e2m3fn": 15, "kDLFloat6_e3m2fn": 16, "kDLFloat4_e2m1fn": 17,
}


@pytest.mark.parametrize("cls, size", SIZES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_struct_size(cls, size):
    assert ctypes.sizeof(cls) == size


@pytest.mark.parametrize("cls, field, offset", OFFSETS,
                         ids=[f"{c.__name__}.{f}" for c, f, _ in OFFSETS])
def test_field_offset(cls, field, offset):
    assert getattr(cls, field).offset == offset


def test_field_types():
    t = abi.DLTensor
    assert t.data.size == 8 and t.shape.size == 8 and t.strides.size == 8
    assert t.byte_offset.size == 8 and t.ndim.size == 4
    # byte_offset is unsigned, ndim signed (a negative ndim is a malformed tensor, not a huge one)
    assert abi.DLTensor(byte_offset=2**64 - 1).byte_offset == 2**64 - 1
    assert abi.DLTensor(ndim=-1).ndim == -1
    assert abi.DLDataType(lanes=65535).lanes == 65535
    assert abi.DLManagedTensorVersioned(flags=2**64 - 1).flags == 2**64 - 1


@pytest.mark.parametrize("name, value", DEVICE_TYPES.items())
def test_device_type(name, value):
    assert abi.DLDeviceType[name] == value
    assert abi.DLDeviceType(value).name == name


def test_device_types_complete():
    assert {d.name: int(d) for d in abi.DLDeviceType} == DEVICE_TYPES


@pytest.mark.parametrize("name, value", TYPE_CODES.items())
def test_type_code(name, value):
    assert abi.DLDataTypeCode[name] == value
    assert abi.DLDataTypeCode(value).name == name


def test_type_codes_complete():
    assert {c.name: int(c) for c in abi.DLDataTypeCode} == TYPE_CODES


def test_flags():
    assert abi.DLPACK_FLAG_BITMASK_READ_ONLY == 1
    assert abi.DLPACK_FLAG_BITMASK_IS_COPIED == 2
    assert abi.DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED == 4


def test_version():
    assert (abi.DLPACK_MAJOR_VERSION, abi.DLPACK_MINOR_VERSION) == (1, 3)


# --- the struct.Struct formats must read and write exactly the ctypes layouts ---------------

TENSOR = dict(data=0x1122334455667788, device=(13, 7), ndim=3, dtype=(5, 128, 1),
              shape=0x1000, strides=0x2000, byte_offset=0x0102030405060708)
TENSOR_FIELDS = (TENSOR["data"], *TENSOR["device"], TENSOR["ndim"], *TENSOR["dtype"],
                 TENSOR["shape"], TENSOR["strides"], TENSOR["byte_offset"])


def _tensor():
    t = abi.DLTensor()
    t.data = TENSOR["data"]
    t.device = abi.DLDevice(*TENSOR["device"])
    t.ndim = TENSOR["ndim"]
    t.dtype = abi.DLDataType(*TENSOR["dtype"])
    t.shape = ctypes.cast(TENSOR["shape"], ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(TENSOR["strides"], ctypes.POINTER(ctypes.c_int64))
    t.byte_offset = TENSOR["byte_offset"]
    return t


def _versioned():
    m = abi.DLManagedTensorVersioned()
    m.version = abi.DLPackVersion(1, 3)
    m.manager_ctx = 0xAAAA
    m.deleter = 0xBBBB
    m.flags = 0b101
    m.dl_tensor = _tensor()
    return m


def _legacy():
    m = abi.DLManagedTensor()
    m.dl_tensor = _tensor()
    m.manager_ctx = 0xAAAA
    m.deleter = 0xBBBB
    return m


VERSIONED_FIELDS = (1, 3, 0xAAAA, 0xBBBB, 0b101, *TENSOR_FIELDS)
LEGACY_FIELDS = (*TENSOR_FIELDS, 0xAAAA, 0xBBBB)


@pytest.mark.parametrize("fmt", [consume._VERSIONED, produce._HEADER_VERSIONED],
                         ids=["consume", "produce"])
def test_versioned_format_matches_ctypes(fmt):
    m = _versioned()
    assert fmt.size == ctypes.sizeof(m) == 80
    assert fmt.unpack(bytes(m)) == VERSIONED_FIELDS
    assert fmt.pack(*VERSIONED_FIELDS) == bytes(m)


@pytest.mark.parametrize("fmt", [consume._LEGACY, produce._HEADER_LEGACY],
                         ids=["consume", "produce"])
def test_legacy_format_matches_ctypes(fmt):
    m = _legacy()
    assert fmt.size == ctypes.sizeof(m) == 64
    assert fmt.unpack(bytes(m)) == LEGACY_FIELDS
    assert fmt.pack(*LEGACY_FIELDS) == bytes(m)


def test_formats_are_little_endian_and_unpadded():
    # '<' disables native alignment: the formats must spell every byte themselves.
    for fmt in (consume._VERSIONED, consume._LEGACY, produce._HEADER_VERSIONED,
                produce._HEADER_LEGACY):
        assert fmt.format.startswith("<")
    assert struct.calcsize("@P") == 8, "dltensor's layouts are the 64-bit ones"


# --- layer 1 knows nothing of NumPy ----------------------------------------------------------

_NO_NUMPY = r"""
import importlib, sys, types
root = sys.argv[1]
blocked = sys.argv[2] == "blocked"
if blocked:
    sys.modules["numpy"] = None  # any 'import numpy' now raises ImportError
# A stub parent package: dltensor/__init__.py imports NumPy, the layer below it must not.
pkg = types.ModuleType("dltensor")
pkg.__path__ = [root + "/dltensor"]
sys.modules["dltensor"] = pkg
dl = importlib.import_module("dltensor._dlpack")
if not blocked:
    assert "numpy" not in sys.modules, "dltensor._dlpack imported numpy"
# The layer works on its own: export some bytes and consume them again.
import ctypes
buf = (ctypes.c_int32 * 6)(*range(6))
owner = [buf]
cap = dl.make_capsule(owner, data=ctypes.addressof(buf), byte_offset=4, device=(1, 0),
                      dtype=(0, 32, 1), shape=(5,), strides=(1,))
mt = dl.consume_capsule(cap)
assert mt.shape == (5,) and mt.strides == (1,) and mt.pointer == ctypes.addressof(buf) + 4
assert dl.live_count() == 1
mt.release()
assert dl.live_count() == 0
assert sys.modules.get("numpy") is None
print("ok")
"""


@pytest.mark.parametrize("mode", ["blocked", "unblocked"])
def test_dlpack_layer_imports_no_numpy(mode):
    r = subprocess.run([sys.executable, "-c", _NO_NUMPY, ROOT, mode], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"
