"""The DLPack 1.3 C exchange API: taking a managed tensor from a producer without a capsule.

A type that offers it has a class attribute ``__dlpack_c_exchange_api__``, a capsule named
``dlpack_exchange_api`` over a static ``DLPackExchangeAPI`` struct of C function pointers.
``managed_tensor_from_py_object_no_sync`` hands over an owning ``DLManagedTensorVersioned*``
directly, skipping the Python-level ``__dlpack__`` call and the capsule (PyTorch's
``__dlpack__`` alone costs ~2 us; this ~0.7 us through ctypes).

"no_sync": the producer orders no stream. That is nothing on CPU memory; for device memory the
consumer orders its stream itself, after the producer's ``current_work_stream`` (what
``__dlpack__`` does inside the producer, at ~20 us for PyTorch's CUDA tensors).
"""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Callable
from typing import Any

from . import capsule as _cap

__all__ = ["managed_tensor_taker", "current_stream_getter"]

API_NAME = b"dlpack_exchange_api"
# DLPackExchangeAPIHeader {DLPackVersion version; prev_api*}, then the function pointers:
# managed_tensor_allocator, managed_tensor_from_py_object_no_sync,
# managed_tensor_to_py_object_no_sync, dltensor_from_py_object_no_sync, current_work_stream.
_API = struct.Struct("<IIQQQQQQ")
# int (*)(void* py_object, DLManagedTensorVersioned** out); -1 with a Python error set. Called
# as a Python-API function: the GIL stays held and a set error is raised here.
_FROM_PY_OBJECT = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
# int (*)(DLDeviceType, int32_t device_id, void** out_current_stream); likewise.
_CURRENT_WORK_STREAM = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_int32, ctypes.c_int32,
                                         ctypes.c_void_p)

# Out-slots kept between calls (making one costs ~0.3 us), each taken out of the pool for a
# call and put back after its read: another thread may run between a C call and the read of
# its slot, and so may, on this thread, a collection (Python 3.12+ runs one after any call)
# whose finalizer takes a tensor; each takes a slot of its own. (A list's pop and append are
# atomic; a threading.local's dict cost ~0.3 us more a call.)
_slots: list[tuple[ctypes.c_void_p, int]] = []


def _slot(slots: list[tuple[ctypes.c_void_p, int]]) -> tuple[ctypes.c_void_p, int]:
    try:
        return slots.pop()
    except IndexError:  # (none free: the first call, or as many at once as there are slots)
        out = ctypes.c_void_p()
        return (out, ctypes.addressof(out))


def _functions(tp: type) -> tuple[object, int, int] | None:
    """(the API's capsule, managed_tensor_from_py_object_no_sync, current_work_stream) of a type
    offering the C exchange API at major version 1; None for any other type."""
    api_capsule = getattr(tp, "__dlpack_c_exchange_api__", None)
    if not _cap.is_capsule(api_capsule) or not _cap.PyCapsule_IsValid(api_capsule, API_NAME):
        return None
    api = _cap.PyCapsule_GetPointer(api_capsule, API_NAME)
    major, _minor, _prev, _alloc, from_py, _to_py, _dltensor, stream = _API.unpack(
        ctypes.string_at(api, _API.size))
    return (api_capsule, from_py, stream) if major == 1 else None


def managed_tensor_taker(tp: type) -> Callable[[object], int] | None:
    """For a type offering the C exchange API (major 1), a function ``obj -> address`` of a new
    owning DLManagedTensorVersioned; None for any other type."""
    found = _functions(tp)
    if found is None or not found[1]:
        return None
    fn = _FROM_PY_OBJECT(found[1])

    def take(obj: object, fn: Any = fn, slots: Any = _slots) -> int:
        out, address = slot = _slot(slots)
        # (ctypes raises the producer's own error, PyTorch's RuntimeError; what its C path
        # does not check, requires_grad and conjugate views, the caller refuses first. A
        # failure that set none would leave the slot holding the last call's tensor, owned)
        if fn(id(obj), address):
            raise BufferError(f"{type(obj).__name__}'s C exchange API failed without an error")
        # c_void_p.value is None only for NULL; a producer that returned 0 set a pointer
        taken: int = out.value  # type: ignore[assignment]
        slots.append(slot)
        return taken

    # the struct and the ctypes function stay alive with it (a function attribute)
    take.keep = (found[0], fn)  # type: ignore[attr-defined]
    return take


def current_stream_getter(tp: type) -> Callable[[int, int], int] | None:
    """For a type offering the C exchange API with ``current_work_stream``, a function
    ``(device_type, device_id) -> stream handle`` of the stream the producer queues its work on
    there (0: the device's default stream, as CUDA's NULL handle); None for any other type."""
    found = _functions(tp)
    if found is None or not found[2]:
        return None
    fn = _CURRENT_WORK_STREAM(found[2])

    def current(device_type: int, device_id: int, fn: Any = fn, slots: Any = _slots) -> int:
        out, address = slot = _slot(slots)
        if fn(device_type, device_id, address):  # (ctypes raises the producer's error)
            raise BufferError("a C exchange API's current_work_stream failed without an error")
        stream = out.value or 0
        slots.append(slot)
        return stream

    current.keep = (found[0], fn)  # type: ignore[attr-defined]
    return current
