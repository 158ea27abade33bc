"""The CuPy backend: compute views over CUDA memory, when CuPy and a GPU are present."""

from __future__ import annotations

from typing import Any

from .. import _dlpack

__all__ = ["available", "missing_reason", "namespace", "view", "is_native", "consumer_stream",
           "wait_for", "stream_for", "ordered_stream", "device_of"]

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


def device_of(ptr: int) -> int:
    """The GPU a device pointer belongs to."""
    device: int = _load().cuda.runtime.pointerGetAttributes(ptr).device
    return device


def view(mt: _dlpack.ManagedTensor) -> Any:
    """A CuPy array over a managed tensor's CUDA memory (CuPy ignores READ_ONLY)."""
    cupy = _load()
    with cupy.cuda.Device(mt.device_id):
        return cupy.from_dlpack(_Export(mt))


# --- streams -----------------------------------------------------------------------------------
# DLPack and the CUDA array interface name streams by integers: 1 is the legacy default stream,
# 2 the per-thread default stream (both are also valid cudaStream_t handles), anything larger a
# cudaStream_t. dltensor computes on CuPy's current stream, so that is the stream it orders.


class _Handle:
    """A raw stream handle in the CUDA stream protocol (what Stream.from_external takes)."""

    __slots__ = ("ptr",)

    def __init__(self, ptr: int):
        self.ptr = ptr

    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, self.ptr)


def stream_for(stream: Any, device_id: int) -> Any:
    """A CuPy stream for a CuPy stream, a raw handle or any object with ``__cuda_stream__``
    (PyTorch's streams, cuda.core's). Raises ValueError for what is none of these."""
    cupy = _load()
    if isinstance(stream, cupy.cuda.Stream):  # (ExternalStream is one too)
        return stream
    if isinstance(stream, bool) or not (isinstance(stream, int) or
                                        hasattr(stream, "__cuda_stream__")):
        raise ValueError(f"stream must be a CuPy stream, an object with __cuda_stream__ or a "
                         f"cudaStream_t handle (an int), not {stream!r}")
    if isinstance(stream, int):
        if stream <= 0:
            raise ValueError(f"stream={stream} is not a CUDA stream (0 is ambiguous, -1 means "
                             "no synchronisation and names no stream)")
        stream = _Handle(stream)
    from_external = getattr(cupy.cuda.Stream, "from_external", None)
    if from_external is not None:  # CuPy >= 14 (ExternalStream is deprecated there)
        return from_external(stream)
    return cupy.cuda.ExternalStream(stream.__cuda_stream__()[1], device_id)


def consumer_stream(device_id: int) -> int:
    """The ``stream=`` dltensor passes a DLPack producer on ``device_id``: CuPy's current stream
    there, as cupy.from_dlpack passes it (its null stream is the legacy default, 1)."""
    ptr: int = _load().cuda.get_current_stream(device_id).ptr
    return ptr or 1


def wait_for(stream: Any, device_id: int) -> None:
    """Make CuPy's current stream on ``device_id`` wait for the work queued so far on ``stream``
    (the consumer's side of the CUDA array interface's ``stream`` key)."""
    cupy = _load()
    with cupy.cuda.Device(device_id):
        current = cupy.cuda.get_current_stream()
        other = stream_for(stream, device_id)
        if other.ptr != current.ptr:
            current.wait_event(other.record())


def ordered_stream(stream: Any, device_id: int) -> Any:
    """A CuPy stream for ``stream`` that first waits for the work queued on CuPy's current
    stream (a copy made on it then reads finished values); None gives the current stream."""
    cupy = _load()
    with cupy.cuda.Device(device_id):
        current = cupy.cuda.get_current_stream()
        if stream is None:
            return current
        s = stream_for(stream, device_id)
        if s.ptr != current.ptr:
            s.wait_event(current.record())
        return s
