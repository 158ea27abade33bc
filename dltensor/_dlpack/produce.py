"""Producing DLPack: a fresh managed tensor and capsule for every export.

Each export allocates one block (struct, then shape, then strides) with ``PyMem_Malloc`` and
holds one reference to an owner object through ``manager_ctx``; the deleter frees the block and
drops that reference. So an array can be exported any number of times and every export keeps
the memory alive on its own.

Why C release functions: a consumer that refuses a capsule (NumPy, numpy#32697) destroys it with
its own exception still set. A capsule destructor or deleter written in Python (a ctypes
callback) cannot run then without turning that exception into SystemError. So when a C pair
with the contract "deleter: PyMem_Free(self); Py_DECREF(manager_ctx)" and "capsule destructor:
call the deleter of an unused capsule" is registered with :func:`use_c_release`, exports use it
and no Python code runs when a capsule or tensor dies. Without one, a Python fallback is used.
"""

from __future__ import annotations

import ctypes
import struct

from . import capsule as _cap
from .abi import DELETER, DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION, DLManagedTensor
from .abi import DLManagedTensorVersioned

__all__ = ["make_capsule", "owning_capsule", "releasing_capsule", "use_c_release",
           "c_release_in_use"]

_HEADER_VERSIONED = struct.Struct("<IIQQQQiiiBBHQQQ")  # 80 bytes, dl_tensor last
_HEADER_LEGACY = struct.Struct("<QiiiBBHQQQQQ")  # 64 bytes, dl_tensor first
# The whole block, header then shape then strides, one Struct per (versioned, ndim): one pack
# call per export (made on first use).
_BLOCKS: dict[tuple[bool, int], struct.Struct] = {}


def _block(versioned: bool, ndim: int) -> struct.Struct:
    s = _BLOCKS.get((versioned, ndim))
    if s is None:
        header = _HEADER_VERSIONED if versioned else _HEADER_LEGACY
        s = _BLOCKS[versioned, ndim] = struct.Struct(f"{header.format}{2 * ndim}q")
    return s

# (capsule destructor, deleter) addresses for versioned and legacy tensors, or None.
_c_release: dict[bool, tuple[int, int]] = {}


# The C capsule destructors (versioned, legacy), kept apart from _c_release (which tests clear
# to force the Python fallback): owning_capsule's and releasing_capsule's capsules die through
# them. Their deleter is a producer's, and NumPy destroys a capsule it refuses (bfloat16) with
# its error set, where the Python destructor cannot run (SystemError, and the tensor leaked).
_c_destructors: dict[bool, int] = {}


def use_c_release(versioned: bool, capsule_destructor: int, deleter: int) -> None:
    """Register C functions that release exports (see the module docstring for the contract)."""
    _c_release[versioned] = (capsule_destructor, deleter)
    _c_destructors[versioned] = capsule_destructor


def releasing_capsule(address: int, versioned: bool) -> object:
    """A private, unconsumed capsule over a managed tensor someone owns, whose destructor
    calls the tensor's deleter as the capsule is freed (the owner's to keep)."""
    return _cap.PyCapsule_New(address, _cap.CAPSULE_NAME_VERSIONED if versioned
                              else _cap.CAPSULE_NAME,
                              _c_destructors.get(versioned, _PY_DESTRUCTOR))


def c_release_in_use(versioned: bool = True) -> bool:
    return versioned in _c_release


# --- Python fallback: holders kept in a dict keyed by the managed tensor's address ----------

# No lock: one store and one pop, each atomic (under the GIL, and per dict in free-threaded
# builds). A lock here was a hazard: from Python 3.12 a collection may run inside it, whose
# released imports call _py_deleter on the same thread, which waited for itself; and a fork
# or an exit while another thread held it left it held for good.
_holders: dict[int, object] = {}
_DELETER_AT = {_cap.CAPSULE_NAME_VERSIONED: DLManagedTensorVersioned.deleter.offset,
               _cap.CAPSULE_NAME: DLManagedTensor.deleter.offset}


@DELETER  # type: ignore[untyped-decorator]  # ctypes' stubs type no callback factory
def _py_deleter(address: int) -> None:  # (used only without the C pair: tests force it)
    owner = _holders.pop(address, None)
    _cap.PyMem_Free(address)
    # (its last reference may be this one: an owner holding an export of its own, an array
    # imported from one, releases that through this deleter as it goes)
    del owner


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)  # type: ignore[untyped-decorator]  # (as above)
def _py_capsule_destructor(capsule_address: int) -> None:  # (see _py_deleter)
    # The capsule is being deallocated: touch it only through raw pointers, never as an object.
    name = ctypes.string_at(_cap.PyCapsule_GetName_at(capsule_address))
    if name not in (_cap.CAPSULE_NAME, _cap.CAPSULE_NAME_VERSIONED):
        return  # consumed: the consumer owns the deleter call
    address = _cap.PyCapsule_GetPointer_at(capsule_address, name)
    deleter = ctypes.c_void_p.from_address(address + _DELETER_AT[name]).value
    if deleter:
        DELETER(deleter)(address)


# (c_void_p.value is typed Optional; a function's address is never NULL)
_PY_DESTRUCTOR: int = ctypes.cast(  # type: ignore[assignment]
    _py_capsule_destructor, ctypes.c_void_p).value
_PY_DELETER: int = ctypes.cast(_py_deleter, ctypes.c_void_p).value  # type: ignore[assignment]


def owning_capsule(address: int) -> object:
    """A versioned capsule over a DLManagedTensorVersioned* someone handed us (a C exchange
    API's), for a consumer to take: its deleter runs once, by the consumer, or by the capsule
    when it dies unconsumed."""
    return releasing_capsule(address, True)


def make_capsule(owner: object, *, data: int, byte_offset: int, device: tuple[int, int],
                 dtype: tuple[int, int, int], shape: tuple[int, ...],
                 strides: tuple[int, ...], flags: int = 0,
                 version: tuple[int, int] | None = (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION)
                 ) -> object:
    """A new capsule over a new managed tensor describing memory that ``owner`` keeps alive.

    ``version`` None makes a legacy ``dltensor`` capsule (which cannot carry ``flags``).
    """
    versioned = version is not None
    ndim = len(shape)
    block = _block(versioned, ndim)
    nbytes = block.size  # (the header, then ndim shape and ndim stride int64s)
    address = _cap.PyMem_Malloc(nbytes)
    if not address:
        raise MemoryError("could not allocate a DLPack managed tensor")
    shape_p = address + nbytes - 16 * ndim if ndim else 0
    strides_p = shape_p + 8 * ndim if ndim else 0
    c_pair = _c_release.get(versioned)
    destructor, deleter = c_pair if c_pair is not None else (_PY_DESTRUCTOR, _PY_DELETER)
    ctx = id(owner) if c_pair is not None else 0
    tensor = (data, device[0], device[1], ndim, dtype[0], dtype[1], dtype[2],
              shape_p, strides_p, byte_offset)
    try:  # (packed before the owner is held: a field that does not fit loses nothing)
        if len(strides) != ndim:
            raise struct.error(f"{ndim} dimensions but {len(strides)} strides")
        if version is not None:  # (versioned)
            packed = block.pack(version[0], version[1], ctx, deleter, flags, *tensor, *shape,
                                *strides)
        else:
            packed = block.pack(*tensor, ctx, deleter, *shape, *strides)
    except struct.error as e:
        _cap.PyMem_Free(address)
        raise BufferError(f"this tensor cannot be described in DLPack: {e}") from None
    if c_pair is not None:
        _cap.Py_IncRef(owner)
    else:
        _holders[address] = owner
    ctypes.memmove(address, packed, nbytes)
    name = _cap.CAPSULE_NAME_VERSIONED if versioned else _cap.CAPSULE_NAME
    try:
        return _cap.PyCapsule_New(address, name, destructor)
    except BaseException:  # pragma: no cover - only on allocation failure
        DELETER(deleter)(address)
        raise
