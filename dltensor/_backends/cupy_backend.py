"""The CuPy backend: compute views over CUDA memory, when CuPy and a GPU are present."""

from __future__ import annotations

from typing import Any

from .. import _dlpack

__all__ = ["available", "missing_reason", "namespace", "view", "is_native"]

_cupy: Any = None  # the cupy module once usable (no stubs)
_reason: str | None = None


def _load() -> Any:
    global _cupy, _reason
    if _cupy is None and _reason is None:
        try:
            import cupy
            if cupy.cuda.runtime.getDeviceCount() < 1:
                _reason = "CuPy finds no CUDA device"
            else:
                _cupy = cupy
        except Exception as e:  # ImportError, or a CUDA driver error from a broken install
            _reason = f"CuPy is not usable ({type(e).__name__}: {e}); pip install dltensor[cuda12]"
    return _cupy


def available() -> bool:
    return _load() is not None


def missing_reason() -> str:
    _load()
    return _reason or ""


def namespace() -> Any:
    import array_api_compat.cupy as ns
    return ns


def native_type() -> Any:
    return _load().ndarray


def is_native(obj: object) -> bool:
    return _cupy is not None and type(obj) is _cupy.ndarray


class _Export:
    """Hands CuPy one fresh capsule over a managed tensor we own (CuPy keeps it alive)."""

    __slots__ = ("mt",)
    mt: _dlpack.ManagedTensor

    def __init__(self, mt: _dlpack.ManagedTensor):
        self.mt = mt

    def __dlpack_device__(self) -> tuple[int, int]:
        return (self.mt.device_type, self.mt.device_id)

    def __dlpack__(self, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: Any = None, copy: bool | None = None) -> object:
        mt = self.mt
        return _dlpack.make_capsule(
            mt, data=mt.data or 0, byte_offset=mt.byte_offset,
            device=(mt.device_type, mt.device_id), dtype=(mt.code, mt.bits, mt.lanes),
            shape=mt.shape, strides=mt.strides, flags=mt.flags,
            version=(1, 0) if max_version and max_version[0] >= 1 else None)


def view(mt: _dlpack.ManagedTensor) -> Any:
    """A CuPy array over a managed tensor's CUDA memory (CuPy ignores READ_ONLY)."""
    cupy = _load()
    with cupy.cuda.Device(mt.device_id):
        return cupy.from_dlpack(_Export(mt))
