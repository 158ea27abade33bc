"""Device objects built from DLPack's ``(device_type, device_id)``."""

from __future__ import annotations

import operator
import os
import threading
from typing import Any, cast

from ._dlpack.abi import DLDeviceType

__all__ = ["Device", "as_device", "CPU", "CUDA_TYPE", "set_default_device", "get_default_device"]

# Printed names, from DLPack's enum names: kDLCUDAHost -> "cuda_host", kDLROCM -> "rocm".
_NAMES = {
    1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi",
    10: "rocm", 11: "rocm_host", 12: "ext_dev", 13: "cuda_managed", 14: "oneapi", 15: "webgpu",
    16: "hexagon", 17: "maia", 18: "trn",
}
_TYPES = {v: k for k, v in _NAMES.items()}
_TYPES["gpu"] = 2  # CuPy's and JAX's word for a CUDA device
# The device type CuPy computes on: calls for it run with CuPy's current GPU made the arrays'
# (dispatch.on), and CuPy's departures from the spec are mended for it alone.
CUDA_TYPE = DLDeviceType.kDLCUDA


class Device:
    """A DLPack device: ``Device(DLDeviceType.kDLCUDA, 1)`` prints as ``cuda:1``, and is
    ``Device("cuda:1")`` too. Immutable (hashable, and shared by every array on it)."""

    __slots__ = ("device_type", "device_id", "_hash", "_name")
    device_type: DLDeviceType
    device_id: int
    _hash: int
    _name: str  # (its str, made once: error messages and a CPU array's CAI probe say it)

    def __init__(self, device_type: int | str, device_id: int | None = None):
        if isinstance(device_type, str) and device_id is None:  # (as its repr says it)
            device_type, device_id = _parse(device_type)
        elif device_id is None:
            device_id = 0
        for v in (device_type, device_id):
            if isinstance(v, bool) or not hasattr(v, "__index__"):
                raise TypeError(f"a device is a (device_type, device_id) pair of ints, "
                                f"not ({device_type!r}, {device_id!r})")
        kind = DLDeviceType(operator.index(cast(int, device_type)))
        if not 0 <= device_id < 1 << 31:  # (DLPack's device_id is an int32_t)
            raise ValueError(f"a device id is an int in [0, 2**31), not {device_id!r}")
        # One CPU: DLPack producers may number it (some report the NUMA node), but its memory
        # is all one to NumPy, and "cpu:1" must not be a device nothing can move to.
        number = 0 if kind == DLDeviceType.kDLCPU else operator.index(device_id)
        text = _NAMES[kind] if kind == DLDeviceType.kDLCPU else f"{_NAMES[kind]}:{number}"
        for name, value in (("device_type", kind), ("device_id", number),
                            ("_hash", hash((int(kind), number))), ("_name", text)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Device objects are immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Device objects are immutable: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        if other is self:  # (the commonest: devices come from as_device's cache, one CPU)
            return True
        if type(other) is Device:
            return self._hash == other._hash and self.device_type == other.device_type \
                and self.device_id == other.device_id
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Device({str(self)!r})"

    def __str__(self) -> str:
        return self._name

    def __dlpack_device__(self) -> tuple[DLDeviceType, int]:
        return (self.device_type, self.device_id)

    def __reduce__(self) -> tuple[type[Device], tuple[int, int]]:
        return (Device, (int(self.device_type), self.device_id))


def _parse(device: str) -> tuple[int, int]:
    name, colon, index = device.strip().lower().partition(":")
    # (an index is ASCII digits: "cuda:" is no device, nor is "cuda:\u0663", int() took it)
    if name not in _TYPES or colon and not (index.isascii() and index.isdigit()):
        raise ValueError(f"unknown device {device!r}; expected a name like 'cpu', 'cuda:0', "
                         f"'rocm:1' (known names: {', '.join(_NAMES.values())})")
    return _TYPES[name], int(index or 0)


CPU = Device(DLDeviceType.kDLCPU, 0)
_cache: dict[object, Device] = {"cpu": CPU, (1, 0): CPU}
_INTS = (int, DLDeviceType)


def as_device(device: object) -> Device:
    """A Device from a Device, a ``(device_type, device_id)`` pair or a string like ``"cuda:1"``."""
    if type(device) is Device:
        return CPU if device == CPU else device
    # Strings and pairs of ints are cached (a pair like (1, 0.0) equals (1, 0): not those).
    cached = type(device) is str or (type(device) is tuple and len(device) == 2
                                     and type(device[0]) in _INTS and type(device[1]) is int)
    d = _cache.get(device) if cached else None
    if d is not None:
        return d
    if isinstance(device, tuple) and len(device) == 2:
        d = _from_pair(device)
    elif isinstance(device, str):
        d = Device(*_parse(device))
    elif hasattr(device, "__dlpack_device__"):
        d = _from_pair(device.__dlpack_device__())
    else:
        raise TypeError(f"a device must be a dltensor Device, a (device_type, device_id) pair "
                        f"or a string like 'cuda:0', not {type(device).__name__}")
    if d == CPU:
        return CPU  # the one CPU object: the fast paths test `device is CPU`
    if cached and len(_cache) < 256:  # (arrays with __dlpack_device__ come and go: not cached)
        _cache[device] = d
    return d


def _from_pair(pair: Any) -> Device:
    # Two ints: Device()'s own forms ("cuda:1",), (2,), ("cuda:1", None) and (2, None) are
    # not DLPack pairs (Device() checks the two are ints).
    if not (isinstance(pair, tuple) and len(pair) == 2) or isinstance(pair[0], str) \
            or pair[1] is None:
        raise TypeError(f"a device is a (device_type, device_id) pair of ints, not {pair!r}")
    return Device(*pair)


_default: Device | None = None
_default_lock = threading.Lock()


def get_default_device() -> Device:
    """The device new arrays are made on: set_default_device(), else $DLTENSOR_DEVICE, else cpu."""
    global _default
    d = _default
    if d is None:
        named = os.environ.get("DLTENSOR_DEVICE", "cpu")
        try:
            d = as_device(named)
        except ValueError as e:
            raise ValueError(f"$DLTENSOR_DEVICE is {named!r}: {e}") from None
        with _default_lock:  # (published only if no thread set one meanwhile: never undone)
            if _default is None:
                _default = d
            d = _default
    return d


def set_default_device(device: object) -> None:
    """Choose the device creation functions use when given no ``device=`` (None resets)."""
    global _default
    d = None if device is None else as_device(device)
    with _default_lock:
        _default = d


def check_stream(stream: object) -> None:
    """TypeError for a CUDA ``stream`` argument that is no object with ``__cuda_stream__`` and
    no cudaStream_t handle (an int), ValueError for a handle that names no stream (0 is
    ambiguous, -1 asks for no synchronisation, a pointer has 64 bits): as CuPy's streams are
    taken, and as held CUDA memory takes them without CuPy. (A CuPy stream, checked first by
    the backend, has it.)"""
    if isinstance(stream, bool) or not (isinstance(stream, int) or
                                        hasattr(stream, "__cuda_stream__")):
        raise TypeError(f"stream must be a CuPy stream, an object with __cuda_stream__ or a "
                        f"cudaStream_t handle (an int), not {stream!r}")
    if isinstance(stream, int) and not 0 < stream < 1 << 64:
        raise ValueError(f"stream={stream} is not a CUDA stream (0 is ambiguous, -1 means "
                         "no synchronisation and names no stream, a handle is below 2**64)")
