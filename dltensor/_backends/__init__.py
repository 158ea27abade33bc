"""Layer 3: one small backend per compute library, chosen by the DLPack device type.

A backend turns a validated ManagedTensor into a zero-copy array of its library (a "compute
view") and names the array API namespace that computes on it (through array-api-compat). A device with no backend is held and handed on untouched.
"""

from __future__ import annotations

from types import ModuleType

from .._dlpack.abi import DLDeviceType
from .._devices import Device

__all__ = ["backend_for", "backend_or_none", "NoBackendError", "NoDtypeError"]


class NoBackendError(RuntimeError):
    """Raised when asked to compute on memory no installed backend can reach."""


class NoDtypeError(NoBackendError, TypeError):
    """Raised when asked to compute on a dtype the device's backend has not (float8 on CUDA):
    a TypeError, as such a refusal has always been, and memory held as any other device's, so
    a bad argument gets the CPU's error first (cpu_error_first) wherever NoBackendError does."""


# device type -> name of the backend module computing on it. CPU-readable memory (pinned and
# managed memory too) computes through NumPy; CUDA memory through CuPy.
_BY_DEVICE = {
    DLDeviceType.kDLCPU: "numpy",
    DLDeviceType.kDLCUDAHost: "numpy",
    DLDeviceType.kDLROCMHost: "numpy",
    DLDeviceType.kDLCUDAManaged: "numpy",
    DLDeviceType.kDLCUDA: "cupy",
}
_loaded: dict[str, ModuleType] = {}


def backend_or_none(device: Device) -> ModuleType | None:
    """``backend_for(device)``, or None where nothing computes there: memory dltensor holds."""
    if device.device_type not in _BY_DEVICE:
        return None  # (at no cost: no error made and caught on every export of held memory)
    try:
        return backend_for(device)
    except NoBackendError:
        return None


def backend_for(device: Device) -> ModuleType:
    """The backend module that computes on ``device``; NoBackendError when there is none."""
    name = _BY_DEVICE.get(device.device_type)
    if name is not None:
        b = _loaded.get(name)
        if b is None:
            from importlib import import_module
            b = _loaded[name] = import_module(f"{__name__}.{name}_backend")
        reason = b.missing_reason(device.device_id)
        if not reason:
            return b
        raise NoBackendError(
            f"dltensor cannot compute on device {device}: {reason}; hand the array "
            "to a library that can with its from_dlpack()")
    raise NoBackendError(
        f"dltensor cannot compute on device {device}: it holds and hands on such memory but "
        "has no backend for it; hand the array to a library that can with its from_dlpack()")
