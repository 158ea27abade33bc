"""Consuming DLPack: negotiate with a producer, validate every field, own the managed tensor.

A :class:`ManagedTensor` is the one place ownership lives: it took a managed tensor from a
capsule (renaming the capsule to ``used_*``) and calls its deleter exactly once, when it is
released or garbage collected. Everything it reports was copied out of the C struct and checked
before anyone may use it.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import itertools
import os
import struct
import threading
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

from . import capsule as _cap
from .produce import releasing_capsule
from .abi import (
    DELETER,
    DLPACK_FLAG_BITMASK_READ_ONLY,
    DLPACK_MAJOR_VERSION,
    DLPACK_MINOR_VERSION,
    DLDataTypeCode,
    DLDeviceType,
    DLManagedTensor,
    DLManagedTensorVersioned,
)

__all__ = ["FIRST_PAGE", "HOST_READABLE", "ManagedTensor", "compact_strides", "shares_memory", "consume_capsule", "hold_capsule", "own", "request_capsule", "taking_capsule", "valid_bits", "live_count",
           "PreDLPack1Producer"]


class PreDLPack1Producer(BufferError):
    """A producer too old (before the 2023.12 standard) to take ``dl_device`` or ``copy``."""


# DLTensor: data, device_type, device_id, ndim, code, bits, lanes, shape*, strides*, byte_offset.
_DLTENSOR = "QiiiBBHQQQ"
_VERSIONED = struct.Struct("<IIQQQ" + _DLTENSOR)  # version, manager_ctx, deleter, flags, dl_tensor
_LEGACY = struct.Struct("<" + _DLTENSOR + "QQ")  # dl_tensor, manager_ctx, deleter

# Device types whose data pointer is an address, so that a view may move it (on OpenCL,
# Vulkan, Metal, WebGPU it is a buffer handle: views there move byte_offset only):
# CPU, CUDA, CUDA host, ROCm, ROCm host, CUDA managed, oneAPI (USM pointers).
_ADDRESSES = frozenset((1, 2, 3, 10, 11, 13, 14))
# Memory the host reads (CPU, CUDA and ROCm pinned, CUDA managed), and the first page of the
# address space, where no allocation lies on any system (Linux's mmap_min_addr is 4096 or
# more): a tensor with no memory and an offset says its offset as its address (PyTorch's
# zero tensors sliced), and reading it there was a segmentation fault.
HOST_READABLE = frozenset((DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost,
                           DLDeviceType.kDLROCMHost, DLDeviceType.kDLCUDAManaged))
FIRST_PAGE = 4096

_MAX_NDIM = 64  # NumPy's limit; no producer makes more and it bounds what we read
_INT64_MAX = (1 << 63) - 1
_DEVICE_TYPES = frozenset(int(d) for d in DLDeviceType)

_FLOAT8 = range(DLDataTypeCode.kDLFloat8_e3m4, DLDataTypeCode.kDLFloat8_e8m0fnu + 1)
_FLOAT6 = (DLDataTypeCode.kDLFloat6_e2m3fn, DLDataTypeCode.kDLFloat6_e3m2fn)


def valid_bits(code: int, bits: int) -> bool:
    """Whether ``bits`` is a width DLPack allows for type ``code``."""
    if code in (DLDataTypeCode.kDLInt, DLDataTypeCode.kDLUInt):
        return bits in (1, 2, 4, 8, 16, 32, 64)
    if code == DLDataTypeCode.kDLFloat:
        return bits in (16, 32, 64)
    if code == DLDataTypeCode.kDLBfloat:
        return bits == 16
    if code == DLDataTypeCode.kDLComplex:
        return bits in (64, 128)
    if code == DLDataTypeCode.kDLBool:
        return bits == 8
    if code == DLDataTypeCode.kDLOpaqueHandle:
        return bits in (8, 16, 32, 64)
    if code in _FLOAT8:
        return bits == 8
    if code in _FLOAT6:
        return bits == 6
    if code == DLDataTypeCode.kDLFloat4_e2m1fn:
        return bits == 4
    return False


# Owned and released ManagedTensors, for leak tests. itertools.count, not `_live += 1`: its
# next() is one C call, so no thread switch can fall between a load and a store (3.10 can
# switch there) and the count stays exact with threads.
_owned = itertools.count()
_released = itertools.count()
class ForkSafeLock:
    """``lock``, a ``factory()`` lock, made anew in a child forked while another thread held
    it: that thread is not there to release it, and every taker would wait forever. Taken as
    ``with x.lock:`` (the with statement keeps the object it acquired for its release)."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self.lock = factory()
        if hasattr(os, "register_at_fork"):  # (not on Windows, which does not fork)
            os.register_at_fork(after_in_child=lambda: setattr(self, "lock", factory()))


# Held while a capsule is taken (see consume_capsule): three C calls, never a conversion;
# re-entrant, so that a finalizer that runs on this thread meanwhile and takes a capsule cannot
# deadlock.
_taking = ForkSafeLock(threading.RLock)


def _value(counter: itertools.count[int]) -> int:
    return int(repr(counter)[6:-1])  # "count(N)": reads it without advancing it


def compact_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Row-major strides, in elements, of a compact tensor of ``shape``."""
    rev: list[int] = []
    acc = 1
    for s in reversed(shape):
        rev.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(rev))


def shares_memory(shape: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """Whether two elements of a tensor lie at one address: a stride of 0 along an axis of
    more than one element, in a tensor with elements (as PyTorch finds internal overlap)."""
    return 0 not in shape and any(st == 0 and s > 1 for s, st in zip(shape, strides))


def live_count() -> int:
    """How many consumed managed tensors are still owned (not yet deleted); not those whose
    capsule releases them (hold_capsule)."""
    return _value(_owned) - _value(_released)


# One ctypes function object per distinct deleter address (producers have a handful): making
# one costs ~0.6 us, so never per tensor.
_deleter_fns: dict[int, Callable[[int], None]] = {}


def _call_deleter(deleter: int, address: int, _fns: dict[int, Callable[[int], None]] = _deleter_fns,
                  _proto: Any = DELETER) -> None:
    if deleter:
        fn = _fns.get(deleter)
        if fn is None:
            fn = _fns[deleter] = _proto(deleter)
        fn(address)


# A deleter never runs inside a garbage collection. The collector runs every finalizer of the
# garbage it found, in any order, before it frees anything: a deleter run from ours freed
# memory that another finalizer there still read (a __del__, a generator's finally: a
# segmentation fault, or another array's values), or kept alive for good by storing the
# array. So a tensor finalized in a collection hands its deleter to a capsule it keeps
# (releasing_capsule), which calls it in C as the tensor is truly freed: once every finalizer
# has run, or when what took it back lets it go (a weak reference's callback, the first try,
# ran before a later collection's finalizers). A capsule is no container the collector
# tracks, so it is never garbage before its tensor. Only a flag: were a "stop" missed (a
# callback removed meanwhile), tensors would go through their capsules, as surely. (A
# producer's deleter written in Python, a ctypes callback, cannot run from that C destructor
# while an exception unwinds; __del__ can, the usual way.)
_collecting = [False]


def _collected(phase: str, info: dict[str, int]) -> None:
    _collecting[0] = phase == "start"


gc.callbacks.append(_collected)
if hasattr(os, "register_at_fork"):  # (a child forked while another thread collected)
    os.register_at_fork(after_in_child=lambda: _collected("stop", {}))


class ManagedTensor:
    """One consumed DLManagedTensor(Versioned), validated, whose deleter runs exactly once."""

    __slots__ = (
        "address", "versioned", "version", "flags", "data", "byte_offset",
        "device_type", "device_id", "code", "bits", "lanes", "shape", "strides",
        "_deleter", "base", "capsule", "__weakref__",
    )
    # (declarations for the slots above; own() fills them)
    address: int
    versioned: bool
    version: tuple[int, int]
    flags: int
    data: int
    byte_offset: int
    device_type: int
    device_id: int
    code: int
    bits: int
    lanes: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    _deleter: int | None
    base: ManagedTensor | None  # (a view's: the tensor whose memory it describes; set by view)
    capsule: object  # (the capsule whose destructor releases the tensor: hold_capsule's, or
    # one made as it was finalized in a garbage collection)

    def view(self, shape: tuple[int, ...], strides: tuple[int, ...], offset: int = 0,
             read_only: bool = False) -> ManagedTensor:
        """Another description of this tensor's memory (a transpose, a slice: some of its
        elements, maybe in another order, the first ``offset`` bytes on; ``read_only`` for a
        broadcast, whose elements share memory), with no deleter of its own: it keeps this
        one, whose deleter runs once both are gone. Pure metadata, so memory on any device can
        be viewed without a read. The offset goes into ``byte_offset``, not ``data``, which
        on some devices (OpenCL, Vulkan) is a handle rather than an address; a view before
        ``data`` (unsigned ``byte_offset`` cannot say it) moves ``data`` where it is one."""
        byte_offset = self.byte_offset + offset
        data = self.data
        if byte_offset < 0:  # (DLPack's is unsigned: only a producer's negative strides lead here)
            if self.device_type not in _ADDRESSES or data + byte_offset < 0:
                raise BufferError(f"a view {-byte_offset} bytes before this tensor's data "
                                  f"pointer cannot be described on "
                                  f"{DLDeviceType(self.device_type).name} (its data pointer "
                                  "is a buffer handle, not an address)")
            # (CuPy exports x[::-1] so: data at element 0, negative strides, byte_offset 0)
            data, byte_offset = data + byte_offset, 0
        if byte_offset > _INT64_MAX:  # (what consumers, dltensor's own among them, accept)
            raise BufferError(f"a view {byte_offset} bytes past this tensor's data pointer "
                              "cannot be described")
        v: ManagedTensor = _new(ManagedTensor)
        for name in ("address", "versioned", "version", "flags",
                     "device_type", "device_id", "code", "bits", "lanes"):
            setattr(v, name, getattr(self, name))
        v.data = data
        if read_only:
            v.flags |= DLPACK_FLAG_BITMASK_READ_ONLY
        v.byte_offset, v.shape, v.strides, v._deleter = byte_offset, shape, strides, None
        v.base = getattr(self, "base", None) or self  # (own() leaves an import's unset)
        return v

    @property
    def read_only(self) -> bool:
        return bool(self.flags & DLPACK_FLAG_BITMASK_READ_ONLY)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def pointer(self) -> int:
        """Address of element 0 (``data + byte_offset``)."""
        return (self.data or 0) + self.byte_offset

    def release(self, _call: Callable[[int, int], None] = _call_deleter,
                _count: itertools.count[int] = _released) -> None:
        """Call the producer's deleter now (once; later calls do nothing)."""
        deleter, self._deleter = self._deleter, None
        if deleter is not None:
            next(_count)
            _call(deleter, self.address)

    def __del__(self, _fns: dict[int, Callable[[int], None]] = _deleter_fns,
                _call: Callable[[int, int], None] = _call_deleter,
                _count: itertools.count[int] = _released,
                _collecting: list[bool] = _collecting,
                _releasing: Callable[[int, bool], object] = releasing_capsule) -> None:
        # Python saves any in-flight exception around __del__, so a deleter run from a
        # consumer's error path cannot clobber that consumer's exception. (release() inlined:
        # this runs once per imported tensor.) Everything it uses is bound here: at shutdown
        # this module's globals may be None before the last arrays go, and a global read
        # here raised after the deleter was taken, which then never ran.
        deleter = getattr(self, "_deleter", None)
        if deleter is not None and _collecting[0]:
            self._deleter = None
            next(_count)
            self.capsule = _releasing(self.address, self.versioned)  # (see _collecting)
        elif deleter is not None:
            self._deleter = None
            next(_count)
            fn = _fns.get(deleter)
            if fn is not None:
                fn(self.address)
            else:
                _call(deleter, self.address)

    def __repr__(self) -> str:
        kind = "versioned %d.%d" % self.version if self.versioned else "legacy"
        return (f"<ManagedTensor {kind} device=({self.device_type}, {self.device_id}) "
                f"dtype=({self.code}, {self.bits}, {self.lanes}) shape={self.shape} "
                f"strides={self.strides} flags={self.flags:#x}>")


def _fail(msg: str, deleter: int, address: int, borrowed: bool = False) -> BufferError:
    """Give an owned, refused tensor back to its producer and make the error to raise."""
    if not borrowed:
        _call_deleter(deleter, address)
    return BufferError(msg)


_is_valid = _cap.PyCapsule_IsValid
_get_pointer = _cap.PyCapsule_GetPointer
_set_name = _cap.PyCapsule_SetName
# All of memory as one ctypes char array: slicing it copies bytes out in ~0.08 us where
# ctypes.string_at (a Python-level wrapper) takes ~0.5 us. Creating it touches nothing.
# (Any: ctypes' stubs say slicing a c_char array gives a list; it gives bytes.)
_MEMORY_END = 1 << 62
_MEMORY: Any = (ctypes.c_char * _MEMORY_END).from_address(0)
_CapsuleType = _cap._CapsuleType
_V_NAME, _V_USED = _cap.CAPSULE_NAME_VERSIONED, _cap.USED_CAPSULE_NAME_VERSIONED
_L_NAME, _L_USED = _cap.CAPSULE_NAME, _cap.USED_CAPSULE_NAME
_BEING_TAKEN = b"dltensor_being_taken"  # (a capsule's name while a block decides: see below)


def consume_capsule(capsule: object) -> ManagedTensor:
    """Take ownership of the managed tensor in a DLPack capsule, validating every field.

    Raises TypeError for a non-capsule and BufferError for anything DLPack-level. After the
    capsule is renamed the deleter is called exactly once on every path, errors included.
    """
    # Check, read and rename are three C calls, and another thread may run between any two:
    # two dltensor threads taking one capsule would then both own it (deleter called twice).
    # NumPy's and PyTorch's consumers do all three in one C call; from Python only a lock can.
    with _taking.lock:
        address, versioned, used = _locate(capsule)
        # From here on the tensor is ours: the capsule no longer calls the deleter.
        if _set_name(capsule, used) != 0:  # pragma: no cover - only fails on a bad capsule
            raise BufferError("could not take ownership of the DLPack capsule")
    return own(address, versioned)


def _locate(capsule: object) -> tuple[int, bool, bytes]:
    """The managed tensor's address in an unconsumed DLPack capsule, whether it is versioned,
    and the name that marks the capsule consumed (call with _taking held)."""
    if type(capsule) is not _CapsuleType:
        raise TypeError(f"expected a DLPack PyCapsule, got {type(capsule).__name__}")
    try:
        if _is_valid(capsule, _V_NAME):  # (IsValid guarantees a non-NULL pointer)
            return _get_pointer(capsule, _V_NAME), True, _V_USED
        if _is_valid(capsule, _L_NAME):
            return _get_pointer(capsule, _L_NAME), False, _L_USED
    except ValueError:  # (renamed between the two calls: by another library's consumer on
        # another thread, or from 3.12 by a finalizer on this one)
        raise BufferError("this DLPack capsule was consumed meanwhile; hand each capsule to "
                          "one consumer") from None
    name = _cap.capsule_name(capsule)
    if name == _BEING_TAKEN:
        raise BufferError("this DLPack capsule is being taken by another thread")
    if name in (_L_USED, _V_USED):
        raise BufferError("this DLPack capsule was already consumed; "
                          "ask the producer for a new one")
    raise BufferError(f"not a DLPack capsule (its name is {name!r})")


@contextlib.contextmanager
def taking_capsule(capsule: object) -> Iterator[ManagedTensor]:
    """The tensor in a DLPack capsule, validated, for a block that may still refuse it.

    The capsule is consumed (the tensor owned by the ManagedTensor given to the block) when the
    block ends, and left as it was, for its holder to use again, when the block or the
    validation raises: a refused request (a dtype or device that would need a copy under
    ``copy=False``, say) loses nothing. Meanwhile the capsule is named as being taken, so
    that no other thread can take, and free, the tensor while the block reads it; the lock
    is held only to rename it (a block may copy or convert gigabytes).
    """
    with _taking.lock:
        address, versioned, used = _locate(capsule)
        if _set_name(capsule, _BEING_TAKEN) != 0:  # pragma: no cover - a bad capsule
            raise BufferError("could not take the DLPack capsule")
    try:
        mt = own(address, versioned, borrowed=True)  # (its deleter the capsule's until the
        yield mt                                      # block succeeds)
    except BaseException:
        _set_name(capsule, _V_NAME if versioned else _L_NAME)  # (as it was, to use again)
        raise
    deleter = _deleter_of(mt)
    if _set_name(capsule, used) != 0:  # pragma: no cover - only fails on a bad capsule
        raise BufferError("could not take ownership of the DLPack capsule")
    if deleter:
        next(_owned)
        mt._deleter = deleter


def hold_capsule(capsule: object, versioned: bool) -> ManagedTensor:
    """The tensor in an unconsumed capsule that only the caller holds (a trusted exporter made
    it for this import and gave it to no one else), validated, and the capsule kept by it, not
    renamed: the capsule's own destructor (the producer's, in C) calls the deleter, once, when
    the tensor goes. consume_capsule's lock, rename and Python deleter call are ~1 us an
    import; a capsule someone else may hold must be consumed so, that no one takes it twice.
    Such a tensor is not counted by live_count (it counts deleters left for us to call); a
    refused one is released with its capsule. TypeError or ValueError for a capsule that is
    not DLPack's of that kind."""
    address = _get_pointer(capsule, _V_NAME if versioned else _L_NAME)
    mt = own(address, versioned, borrowed=True)  # (its deleter the capsule's to call)
    mt.capsule = capsule
    return mt


def own(address: int, versioned: bool = True, borrowed: bool = False) -> ManagedTensor:
    """Own the managed tensor at ``address`` (already taken from its capsule or exchange API).

    Validates every field; on any refusal the deleter is called (once) before raising, unless
    the tensor is ``borrowed``: still its capsule's, which calls it (see taking_capsule), and
    returned with no deleter of its own.
    """
    # One read of the whole struct: 80 bytes is the 1.x layout, and any later major version
    # only grows it, so this reads no further than the producer allocated.
    if address >= _MEMORY_END - 80:  # (_MEMORY's slice there is short: struct.error)
        raise BufferError(f"a managed tensor at {address:#x} lies past the address space")
    if versioned:
        (major, minor, _ctx, deleter, flags, data, dev_type, dev_id, ndim, code, bits, lanes,
         shape_p, strides_p, byte_offset) = _VERSIONED.unpack(_MEMORY[address:address + 80])
        if major != DLPACK_MAJOR_VERSION:
            # The spec: on an unknown major version call the deleter and touch nothing else.
            raise _fail(f"unsupported DLPack version {major}.{minor} "
                        f"(dltensor reads {DLPACK_MAJOR_VERSION}.x)", deleter, address, borrowed)
    else:
        (data, dev_type, dev_id, ndim, code, bits, lanes, shape_p, strides_p, byte_offset,
         _ctx, deleter) = _LEGACY.unpack(_MEMORY[address:address + 64])
        major = minor = flags = 0
    try:
        shape, strides = _validate(data, dev_type, dev_id, ndim, code, bits, lanes, shape_p,
                                   strides_p, byte_offset)
    except BufferError as e:
        raise _fail(str(e), deleter, address, borrowed) from None
    except struct.error:  # (a read of shape or strides past _MEMORY's end came short)
        raise _fail(f"DLTensor's shape or strides pointer ({shape_p:#x}, {strides_p:#x}) lies "
                    "past the address space", deleter, address, borrowed) from None
    if 0 in strides and shares_memory(shape, strides):
        # Elements sharing memory (PyTorch's expand exports a stride of 0) are read-only, as
        # view()'s broadcasts are: a write of several values there keeps only the last one
        # (PyTorch refuses in-place writes into them). Re-exported so: the flag is the memory's.
        flags |= DLPACK_FLAG_BITMASK_READ_ONLY
    mt = _new(ManagedTensor)
    mt.address, mt.versioned, mt.version, mt.flags = address, versioned, (major, minor), flags
    mt.data, mt.byte_offset = data, byte_offset
    mt.device_type, mt.device_id = dev_type, dev_id
    mt.code, mt.bits, mt.lanes = code, bits, lanes
    mt.shape, mt.strides = shape, strides
    # (a borrowed tensor is never armed: were it dropped before its caller decided, by an
    # exception between two statements, its deleter would run here and again in its capsule)
    if deleter and not borrowed:
        next(_owned)
        mt._deleter = deleter
    else:
        mt._deleter = None
    return mt


_DELETER = struct.Struct("<Q")
_DELETER_OFFSET = {True: DLManagedTensorVersioned.deleter.offset,
                   False: DLManagedTensor.deleter.offset}


def _deleter_of(mt: ManagedTensor) -> int:
    """The deleter of ``mt``'s managed tensor, read again from its struct."""
    at = mt.address + _DELETER_OFFSET[mt.versioned]
    deleter: int = _DELETER.unpack(_MEMORY[at:at + 8])[0]
    return deleter


_new = object.__new__
# Structs reading ndim int64s (shape, strides) or 2*ndim (both, when they sit back to back).
_INT64S = [struct.Struct(f"<{n}q") for n in range(2 * _MAX_NDIM + 1)]
_VALID_DTYPES = frozenset((int(c), b) for c in DLDataTypeCode for b in range(256)
                          if valid_bits(c, b))


def _validate(data: int, dev_type: int, dev_id: int, ndim: int, code: int, bits: int, lanes: int,
              shape_p: int, strides_p: int, byte_offset: int
              ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Check one DLTensor's fields; return (shape, strides) as tuples of ints."""
    if ((dev_type, code, bits, lanes) not in _VALID_KINDS or dev_id < 0
            or not 0 <= ndim <= _MAX_NDIM or byte_offset > _INT64_MAX):
        _refuse_header(dev_type, dev_id, ndim, code, bits, lanes, byte_offset)
    if ndim == 0:
        if not data:  # (one element: PyTorch's zero tensors export NULL, which NumPy allocates)
            raise BufferError("DLTensor has elements but a NULL data pointer")
        _within_memory(data + byte_offset, dev_type, 0, 0, bits)
        return (), ()
    if not shape_p:
        raise BufferError(f"DLTensor has ndim={ndim} but a NULL shape pointer")
    n8 = 8 * ndim
    fmt = _INT64S[ndim]
    gap = strides_p - shape_p
    if 0 < gap <= 4096:
        # One read for both (NumPy and our producer put strides right after shape; PyTorch a
        # few bytes on). Every byte in between lies on shape's page or strides' page, so the
        # read touches no memory that is not mapped.
        raw = _MEMORY[shape_p:strides_p + n8]
        shape, strides = fmt.unpack_from(raw), fmt.unpack_from(raw, gap)
    else:
        shape = fmt.unpack(_MEMORY[shape_p:shape_p + n8])
        if strides_p:
            strides = fmt.unpack(_MEMORY[strides_p:strides_p + n8])
        else:  # before DLPack 1.2, NULL strides meant compact row-major
            strides = compact_strides(shape)
            if strides[0] > _INT64_MAX:  # (an empty tensor, else its size says so below)
                raise BufferError(f"shape {shape} is too large for int64 strides")
    if ndim == 1:
        # The commonest import, a vector, accepted without the loop below (~0.4 us of its 1
        # us) where it passes the strictest of its checks on any device: its elements, from
        # `start` past the first page, span `span` bytes within int64 and end within the
        # address space. Anything else, or any doubt, is the general path's to accept or to
        # refuse in its words.
        s, st = shape[0], strides[0]
        if s > 0 and st >= 0 and data:
            start, item = data + byte_offset, (bits // 8 if bits > 8 else 1)
            span = st * (s - 1) * item
            if FIRST_PAGE <= start and span <= _INT64_MAX and start + span + item <= 1 << 64:
                return shape, strides
    size = 1
    low = high = 0  # the elements furthest before and after element 0, in elements
    for s, st in zip(shape, strides):
        if s < 0:
            raise BufferError(f"negative extent in shape {shape}")
        size *= s
        if s:
            if st > 0:
                high += st * (s - 1)
            else:
                low += st * (s - 1)
    if size:
        if size > _INT64_MAX:
            raise BufferError(f"shape {shape} has more elements than fit in int64")
        # The furthest element, in bytes, must be addressable (checked for NULL strides too:
        # 2**62 float64 elements fit int64 but their bytes do not).
        if ((high - low) * (bits if bits > 8 else 8)) // 8 > _INT64_MAX:
            raise BufferError(f"strides {strides} overflow the address space")
        if not data:
            raise BufferError("DLTensor has elements but a NULL data pointer")
        _within_memory(data + byte_offset, dev_type, low, high, bits)
    return shape, strides


def _within_memory(start: int, dev_type: int, low: int, high: int, bits: int) -> None:
    """BufferError unless every element's bytes, ``low`` to ``high`` elements from element 0 at
    address ``start``, lie in the address space: past it NumPy and CuPy take no pointer (an
    OverflowError at the first computation, not at the import)."""
    size = bits // 8 if bits > 8 else 1
    if dev_type in _ADDRESSES and not (0 <= start + low * size
                                       and start + (high + 1) * size <= 1 << 64):
        raise BufferError(f"the elements at address {start:#x} (element offsets {low} to "
                          f"{high}) lie outside the 64-bit address space")
    if dev_type in HOST_READABLE and start + low * size < FIRST_PAGE:
        raise BufferError(f"the elements at address {start:#x} lie in the first page of memory, "
                          "where nothing is allocated (a tensor with no memory but an offset "
                          "says its offset as its address)")


# Every (device type, dtype code, bits, lanes) accepted: one set lookup checks all four.
_VALID_KINDS = frozenset((d, c, b, 1) for d in _DEVICE_TYPES for (c, b) in _VALID_DTYPES)


def _refuse_header(dev_type: int, dev_id: int, ndim: int, code: int, bits: int, lanes: int,
                   byte_offset: int) -> NoReturn:
    """Raise the BufferError saying which header field _validate's fast check refused."""
    if dev_type not in _DEVICE_TYPES:
        raise BufferError(f"unknown DLPack device type {dev_type}")
    if dev_id < 0:
        raise BufferError(f"invalid DLPack device id {dev_id}")
    if code not in DLDataTypeCode._value2member_map_:
        raise BufferError(f"unknown DLPack dtype code {code}")
    if lanes != 1:
        raise BufferError(f"vector dtypes (lanes={lanes}) are not supported")
    if (code, bits) not in _VALID_DTYPES:
        raise BufferError(f"dltensor has no {bits}-bit {DLDataTypeCode(code).name} dtype (lanes=1)")
    if not 0 <= ndim <= _MAX_NDIM:
        raise BufferError(f"invalid ndim {ndim} (must be 0..{_MAX_NDIM})")
    raise BufferError(f"invalid byte_offset {byte_offset}")


def request_capsule(x: Any, *,
                    max_version: tuple[int, int] = (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION),
                    stream: Any = None, dl_device: tuple[int, int] | None = None,
                    copy: bool | None = None) -> object:
    """Ask a producer for a capsule the way the array API standard says a consumer should.

    Asks with ``max_version`` (and the other 2023.12 keywords) first; a producer too old to take
    them raises TypeError and is asked again without them. The caller dispatches on the name of
    the capsule that actually came back. ``stream`` is always passed, None too: PyTorch takes
    a missing stream as -1 (no ordering at all), not as the spec's legacy default stream.
    """
    kwargs: dict[str, Any] = {"max_version": max_version, "stream": stream}
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    if copy is not None:
        kwargs["copy"] = copy
    try:
        return x.__dlpack__(**kwargs)
    except TypeError as e:
        if dl_device is not None or copy is not None:
            # An old producer cannot honour these; asking without them would be a lie. (Its
            # words said too: a TypeError of another cause read as this one.)
            raise PreDLPack1Producer(
                f"{type(x).__name__}.__dlpack__ does not take dl_device/copy (a pre-2023.12 "
                f"producer: it raised TypeError: {e}); call from_dlpack without device= and "
                "copy=") from None
        # (Producers this old predate PyTorch's -1 default; some take no stream at all.)
        return x.__dlpack__(stream=stream) if stream is not None else x.__dlpack__()
