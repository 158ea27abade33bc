"""Copies of arrays and moves between devices: the CPU, CUDA GPUs and pinned memory.

Every copy and move dltensor makes goes through here. CuPy copies to, from and between CUDA
GPUs; dtypes CuPy has not (float8) travel as their bytes and keep their DLPack type. Memory on
any other device is refused with BufferError, never read: dltensor holds it and hands it on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _dlpack
from ._array import CPU_READABLE, backend_pointer, element_strides, from_tensor, host_view
from ._array import ndarray, wrap
from ._backends import NoBackendError, backend_for, backend_or_none
from ._dlpack.abi import DLDeviceType
from ._devices import CPU, CUDA_TYPE, Device, as_device
from ._dispatch import fresh, on
from ._dtypes import EXTENSION_FLOATS, DType

__all__ = ["CopyError", "cuda_backend", "copied", "bytes_copied", "copy_of_native", "computed",
           "move", "cast_first"]


class CopyError(BufferError, ValueError):
    """A copy is needed and ``copy=False`` forbids it. Both classes, as the spec asks for both:
    BufferError in from_dlpack's ``copy`` text, ValueError in its ``device`` text and in
    asarray's."""


def cuda_backend(device_id: int = 0) -> Any:
    """The CuPy backend where it computes on GPU ``device_id``; None where it cannot (no CuPy,
    or no such GPU here: such memory is held, as on any device dltensor cannot reach)."""
    return backend_or_none(as_device((CUDA_TYPE, device_id)))  # (cached: ~0.1 us)


def copied(x: ndarray) -> ndarray:
    """A copy of ``x`` on its device (BufferError where dltensor cannot compute); a dtype CuPy
    has not (float8) is copied on the GPU as its bytes."""
    dev, dt = x._device, x.dtype
    raw = bytes_copied(x)
    if raw is not None:
        return raw
    if dt.numpy is None:  # (as on any device dltensor cannot compute on: the DLPack error)
        raise BufferError(f"dltensor cannot copy {dt.name} memory on {dev}: it holds that "
                          "dtype but cannot compute on it")
    try:
        return computed(x, copy_of_native)
    except NoBackendError as e:
        raise BufferError(f"cannot copy: {e}") from None


def bytes_copied(x: ndarray) -> ndarray | None:
    """A copy of ``x``, on a GPU whose CuPy has not its dtype (float8), made of its bytes; None
    for any other ``x`` (BufferError for elements packed below a byte there)."""
    dev, dt = x._device, x.dtype
    cupy_backend = cuda_backend(dev.device_id) if dev.device_type == DLDeviceType.kDLCUDA and \
        x._array is None else None
    if cupy_backend is None or cupy_backend.can_view(dt.code, dt.bits):
        return None
    if dt.bits % 8:
        raise BufferError(f"dltensor cannot copy {dt.name} memory on {dev}: its elements are "
                          "packed below a byte")
    with cupy_backend.on(dev.device_id):
        return _relabel(cupy_backend.view(x._tensor, raw=True).copy("K"), dt, dev)


def copy_of_native(a: Any) -> Any:
    """A copy in a's own memory order (order 'K', as NumPy's and CuPy's astype and NumPy's
    asarray copy; their copy() makes C order: a Fortran-order x's astype to its own dtype
    came back C-ordered, to another dtype Fortran-ordered)."""
    return a.copy("K")


def computed(x: ndarray, fn: Callable[[Any], Any]) -> ndarray:
    """``fn`` of x's backend array, as an array: on x's GPU for CUDA memory, and labelled
    ``cpu`` for NumPy's fresh memory (see _dispatch.fresh)."""
    dev = x._device
    if dev.device_type == DLDeviceType.kDLCUDA:
        with on(dev):
            return wrap(fn(x._compute()), dev)
    return wrap(fn(x._compute()), fresh(dev))


def move(x: ndarray, device: Device, *, stream: Any = None, copy: bool | None = None
         ) -> ndarray:
    """``x`` on ``device``: itself when it is there already, else a copy (or a view of the same
    memory between CPU-readable devices). ``copy=False`` refuses a copy with BufferError."""
    src = x._device
    if device == src:
        return copied(x) if copy else x
    if src.device_type in CPU_READABLE and device.device_type in CPU_READABLE:
        if device == CPU:  # pinned or managed memory is CPU memory already: a view, no copy
            return copied(host_view(x)) if copy else host_view(x)
    if copy is False:
        raise CopyError(f"moving an array from {src} to {device} needs a copy, "
                        "and copy=False forbids it")
    if 2 in (src.device_type, device.device_type) and \
            {src.device_type, device.device_type} <= CPU_READABLE | {2}:
        # Only CuPy copies to or from CUDA memory. Without it this is a refusal like any other
        # device's below, not the ImportError `import cupy` raised (tests/test_ndarray.py).
        try:  # (both ends, where both are GPUs: one may be a GPU this machine has not)
            cupy_backend = [backend_for(end) for end in (src, device)
                            if end.device_type == CUDA_TYPE][-1]
        except RuntimeError as e:
            raise BufferError(f"dltensor cannot move memory from {src} to {device}: {e}") \
                from None
        return _move_cuda(cupy_backend, x, device, stream)
    raise BufferError(f"dltensor cannot move memory from {src} to {device}: it can copy only "
                      f"between the CPU and CUDA and between CUDA GPUs; hand the array to a "
                      f"library that can with its from_dlpack()")


def _move_cuda(cupy_backend: Any, x: ndarray, device: Device, stream: Any) -> ndarray:
    """A copy from or to CUDA memory made by CuPy on ``stream`` (None: CuPy's current stream).
    The copy waits for the work queued on the source; a result on a GPU is ready for CuPy's
    current stream there, where dltensor computes next. Dtypes CuPy has not (float8) move as
    their bytes and keep their DLPack type."""
    src, dt = x._device, x.dtype
    raw = not cupy_backend.can_view(dt.code, dt.bits)
    if raw and dt.bits % 8:
        raise BufferError(f"dltensor cannot move {dt.name} memory between {src} and {device}: "
                          "its elements are packed below a byte")
    if raw and src.device_type == CUDA_TYPE and x._array is None:
        a = cupy_backend.view(x._tensor, raw=True)
    else:
        a = x._compute()
        if raw:
            a = a.view(f"u{dt.itemsize}")
    if device.device_type not in (CUDA_TYPE, DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost):
        raise BufferError(f"dltensor cannot copy memory from {src} to {device}: it copies "
                          "CUDA memory to the CPU, to CUDA GPUs and to pinned (cuda_host) "
                          "memory only")
    out = cupy_backend.copy(a, (src.device_type, src.device_id),
                            (device.device_type, device.device_id), stream)
    return _relabel(out, dt, device) if raw else wrap(out, device)


def _relabel(a: Any, dt: DType, device: Device) -> ndarray:
    """An array over the unsigned-integer array ``a`` (NumPy or CuPy, which it keeps alive)
    whose DLPack dtype is ``dt``: how bytes moved for a dtype CuPy has not become that dtype."""
    capsule = _dlpack.make_capsule(
        a, data=backend_pointer(a), byte_offset=0,
        device=(int(device.device_type), device.device_id),
        dtype=(dt.code, dt.bits, 1), shape=a.shape,
        strides=element_strides(a), flags=0)
    return from_tensor(_dlpack.consume_capsule(capsule))


def cast_first(x: ndarray, dtype: DType, device: Device) -> bool:
    """Whether ``x`` converted to ``dtype`` on its way to ``device`` is cast where it is, then
    moved: a dtype CuPy has not (float8, bfloat16) made, or read, on the CPU, as asarray of
    values makes it (cast on the GPU it was a TypeError: bfloat16 CPU weights asked as float32
    on cuda:0 too); into pinned memory, where NumPy's cast after the move would be pageable
    memory, labelled cpu."""
    return dtype is not x.dtype and (
        (dtype.numpy in EXTENSION_FLOATS or x.dtype.numpy in EXTENSION_FLOATS) and
        x._device.device_type in CPU_READABLE or
        device.device_type in CPU_READABLE and device is not CPU and
        backend_or_none(x._device) is not None)  # (held memory: the move's BufferError)
