"""A DLPack producer built by hand with ctypes, for tests.

:class:`Producer` makes a fresh ``DLManagedTensor`` or ``DLManagedTensorVersioned`` on every
``__dlpack__`` call, with every field configurable (version, device, dtype code/bits/lanes,
ndim, shape/strides including NULL, byte_offset, flags), over a real buffer or over a fake
pointer for devices this machine lacks (CUDA, ROCm, Metal, Vulkan: NEVER dereference those).
Its deleter counts its calls per tensor, so tests can assert "exactly once".

The structs are declared here again, independently of ``dltensor._dlpack.abi``, so that a
mistake there cannot hide itself by being shared with the test producer.

Also here: producers whose ``__dlpack__`` raises, raises TypeError whatever it is asked,
returns something that is not a capsule, or whose ``__dlpack_device__`` lies.
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np

__all__ = [
    "Producer", "Export", "from_numpy", "FAKE_POINTER", "exports_alive",
    "RaisingProducer", "AlwaysTypeErrorProducer", "OldProducer", "NonCapsuleProducer",
    "capsule_struct", "capsule_flags", "capsule_name", "capsule_pointer",
    "CPU", "CUDA", "CUDA_HOST", "VULKAN", "METAL", "ROCM", "ROCM_HOST", "CUDA_MANAGED",
    "READ_ONLY", "IS_COPIED", "CapsuleHolder", "ExchangeAPI", "EXCHANGE_FROM_PY",
    "EXCHANGE_STREAM",
]

CPU, CUDA, CUDA_HOST, VULKAN, METAL, ROCM, ROCM_HOST, CUDA_MANAGED = 1, 2, 3, 7, 8, 10, 11, 13
READ_ONLY, IS_COPIED = 1, 2
# Looks like a device address; nothing may ever read from it.
FAKE_POINTER = 0x7F00DEAD0000


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32),
                ("dtype", _DType), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("byte_offset", ctypes.c_uint64)]


class _Legacy(ctypes.Structure):
    _fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class _Version(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _Versioned(ctypes.Structure):
    _fields_ = [("version", _Version), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64),
                ("dl_tensor", _Tensor)]


_api = ctypes.pythonapi
_PyCapsule_New = _api.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_PyCapsule_GetName = _api.PyCapsule_GetName
_PyCapsule_GetName.restype = ctypes.c_void_p
_PyCapsule_GetName.argtypes = [ctypes.py_object]
_PyCapsule_GetPointer = _api.PyCapsule_GetPointer
_PyCapsule_GetPointer.restype = ctypes.c_void_p
_PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The capsule destructor sees a capsule whose refcount is 0: only raw pointers may touch it.
_raw_get_name = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(
    ("PyCapsule_GetName", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _api))

_NAMES = {True: b"dltensor_versioned", False: b"dltensor"}
_live: dict[int, Export] = {}  # managed tensor address -> its Export, until the deleter runs
# Re-entrant: from Python 3.12 a collection may run inside it (after any call), and a
# collected import of another export calls _deleter on this thread (a plain Lock waited
# for itself: test runs on Python 3.13 hung, once in many).
_lock = threading.RLock()


class Export:
    """One managed tensor the test producer made; ``deleter_calls`` counts its deleter's runs."""

    def __init__(self, struct, versioned: bool, keep: tuple):
        self.struct = struct
        self.address = ctypes.addressof(struct)
        self.versioned = versioned
        self.keep = keep  # shape/strides arrays and the buffer, alive until the deleter runs
        self.deleter_calls = 0

    def __repr__(self):
        return f"<Export {'versioned' if self.versioned else 'legacy'} " \
               f"deleter_calls={self.deleter_calls}>"


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _deleter(address):
    # Runs from C (any consumer's release); a deleter must never raise, and at interpreter
    # shutdown the dict may already be gone.
    try:
        with _lock:
            e = _live.pop(address, None) or _done.get(address)
        if e is not None:
            e.deleter_calls += 1
            _done[address] = e
    except Exception:  # pragma: no cover
        pass


# Exports whose deleter already ran, so a second (buggy) call is still counted.
_done: dict[int, Export] = {}


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    # The spec's contract: an unconsumed capsule calls the tensor's deleter; a consumed
    # ("used_*") one leaves it to the consumer.
    try:
        name = ctypes.string_at(_raw_get_name(capsule))
        if name not in (b"dltensor", b"dltensor_versioned"):
            return
        address = _raw_get_pointer(capsule, name)
        offset = 16 if name == b"dltensor_versioned" else 56
        deleter = ctypes.c_void_p.from_address(address + offset).value
        if deleter:
            ctypes.CFUNCTYPE(None, ctypes.c_void_p)(deleter)(address)
    except Exception:  # pragma: no cover
        pass


_DELETER_ADDRESS = ctypes.cast(_deleter, ctypes.c_void_p).value
_DESTRUCTOR_ADDRESS = ctypes.cast(_capsule_destructor, ctypes.c_void_p).value


def exports_alive() -> int:
    """How many test-producer tensors are still waiting for their deleter."""
    return len(_live)


def make_capsule(*, data: int, device=(CPU, 0), dtype=(2, 32, 1), shape=(), strides=None,
                 byte_offset: int = 0, flags: int = 0, versioned: bool = True,
                 version=(1, 3), ndim: int | None = None, null_shape: bool = False,
                 null_strides: bool = False, deleter: bool = True, keep=(),
                 name: bytes | None = None) -> tuple[object, Export]:
    """A capsule over a freshly built managed tensor, and the Export that counts its deleter."""
    shape = tuple(shape)
    ndim = len(shape) if ndim is None else ndim
    shape_arr = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    strides_arr = None if strides is None else (ctypes.c_int64 * max(len(strides), 1))(*strides)
    t = _Tensor()
    t.data = data or None
    t.device = _Device(*device)
    t.ndim = ndim
    t.dtype = _DType(*dtype)
    t.shape = None if null_shape else ctypes.addressof(shape_arr)
    t.strides = None if (null_strides or strides_arr is None) else ctypes.addressof(strides_arr)
    t.byte_offset = byte_offset
    if versioned:
        m = _Versioned()
        m.version = _Version(*version)
        m.flags = flags
    else:
        m = _Legacy()
    m.dl_tensor = t
    m.manager_ctx = None
    m.deleter = _DELETER_ADDRESS if deleter else None
    e = Export(m, versioned, (shape_arr, strides_arr, keep))
    with _lock:
        _live[e.address] = e
    cap = _PyCapsule_New(e.address, name or _NAMES[versioned], _DESTRUCTOR_ADDRESS)
    return cap, e


class Producer:
    """An object with ``__dlpack__``/``__dlpack_device__`` whose every field is configurable.

    ``versioned``: "auto" (versioned iff ``max_version[0] >= 1``, as the spec says), True or
    False. ``buffer`` keeps real memory alive; ``data`` is the pointer (default: the buffer's).
    ``dlpack_device`` overrides what ``__dlpack_device__`` says (to make it lie). ``host``, a
    NumPy array, is what a copy to the CPU (``dl_device=(1, 0)``) gives, as a GPU library's
    device-to-host copy would: a fresh copy of it each time, flagged IS_COPIED.
    """

    def __init__(self, buffer=None, *, data=None, device=(CPU, 0), dtype=(2, 32, 1),
                 shape=(), strides=None, byte_offset=0, flags=0, versioned="auto",
                 version=(1, 3), ndim=None, null_shape=False, null_strides=False,
                 deleter=True, dlpack_device=None, name=None, host=None):
        if data is None:
            data = 0 if buffer is None else _address(buffer)
        self.buffer = buffer
        self.fields = dict(data=data, device=device, dtype=dtype, shape=shape, strides=strides,
                           byte_offset=byte_offset, flags=flags, version=version, ndim=ndim,
                           null_shape=null_shape, null_strides=null_strides, deleter=deleter,
                           name=name)
        self.versioned = versioned
        self.dlpack_device = dlpack_device
        self.host = host
        self.exports: list[Export] = []
        self.requests: list[dict] = []  # the keywords each __dlpack__ call got

    @property
    def deleter_calls(self) -> int:
        """Deleter calls over every tensor this producer exported."""
        return sum(e.deleter_calls for e in self.exports)

    def __dlpack_device__(self):
        return self.dlpack_device or tuple(self.fields["device"])

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.requests.append(dict(stream=stream, max_version=max_version, dl_device=dl_device,
                                  copy=copy))
        if self.host is not None and dl_device is not None and tuple(dl_device) == (CPU, 0) \
                and tuple(self.fields["device"]) != (CPU, 0):
            if copy is False:
                raise BufferError("a copy to the CPU is a copy, and copy=False forbids it")
            return self._export_host_copy(max_version)
        if copy is True:
            raise BufferError("the test producer never copies")
        if dl_device is not None and tuple(dl_device) != tuple(self.fields["device"]):
            raise BufferError("the test producer cannot move memory")
        versioned = self.versioned
        if versioned == "auto":
            versioned = max_version is not None and max_version[0] >= 1
        cap, e = make_capsule(versioned=versioned, keep=(self.buffer,), **self.fields)
        self.exports.append(e)
        return cap

    def _export_host_copy(self, max_version):
        versioned = max_version is not None and max_version[0] >= 1
        a = self.host.copy()
        fields = from_numpy(a).fields
        fields.update(flags=IS_COPIED if versioned else 0, version=self.fields["version"])
        cap, e = make_capsule(versioned=versioned, keep=(a,), **fields)
        self.exports.append(e)
        return cap


def _address(buffer) -> int:
    if isinstance(buffer, np.ndarray):
        return buffer.__array_interface__["data"][0]
    return ctypes.addressof(ctypes.c_char.from_buffer(buffer))


_CODES = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}


def from_numpy(a: np.ndarray, **overrides) -> Producer:
    """A test producer describing NumPy array ``a``'s memory (fields overridable)."""
    if a.dtype.kind in _CODES:
        dtype = (_CODES[a.dtype.kind], a.dtype.itemsize * 8, 1)
    elif a.dtype.name == "bfloat16":
        dtype = (4, 16, 1)
    else:
        raise TypeError(a.dtype)
    base = a.__array_interface__["data"][0]
    fields = dict(buffer=a, data=base, dtype=dtype, shape=a.shape,
                  strides=tuple(s // a.itemsize for s in a.strides))
    fields.update(overrides)
    return Producer(**fields)


# --- capsule inspection ---------------------------------------------------------------------

def capsule_name(capsule) -> bytes:
    return ctypes.string_at(_PyCapsule_GetName(capsule))


def capsule_pointer(capsule) -> int:
    return _PyCapsule_GetPointer(capsule, capsule_name(capsule))


def capsule_struct(capsule):
    """The managed tensor a capsule holds, read as a ctypes struct (a view, not a copy)."""
    versioned = capsule_name(capsule).endswith(b"versioned")
    cls = _Versioned if versioned else _Legacy
    return cls.from_address(capsule_pointer(capsule))


def capsule_flags(capsule) -> int:
    return capsule_struct(capsule).flags


def tensor_fields(capsule) -> dict:
    """data, device, dtype, shape, strides, byte_offset of a capsule's DLTensor."""
    t = capsule_struct(capsule).dl_tensor
    n = t.ndim
    shape = tuple((ctypes.c_int64 * n).from_address(t.shape)) if n and t.shape else ()
    strides = tuple((ctypes.c_int64 * n).from_address(t.strides)) if n and t.strides else None
    return dict(data=t.data or 0, device=(t.device.device_type, t.device.device_id),
                dtype=(t.dtype.code, t.dtype.bits, t.dtype.lanes), ndim=n, shape=shape,
                strides=strides, byte_offset=t.byte_offset)


# --- misbehaving producers --------------------------------------------------------------------

class RaisingProducer:
    """``__dlpack__`` raises the given exception."""

    def __init__(self, exc: BaseException):
        self.exc = exc
        self.calls = 0

    def __dlpack_device__(self):
        return (CPU, 0)

    def __dlpack__(self, **kwargs):
        self.calls += 1
        # A fresh one each time: raising the stored one would tie its traceback (and every
        # frame in it) to this producer, a cycle only the collector frees.
        raise type(self.exc)(*self.exc.args)


class AlwaysTypeErrorProducer(RaisingProducer):
    """``__dlpack__`` raises TypeError whatever it is asked (a consumer must not loop)."""

    def __init__(self):
        super().__init__(TypeError("nope"))


class OldProducer(Producer):
    """A pre-2023.12 producer: ``__dlpack__(stream=None)`` only, legacy capsules only."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("versioned", False)
        super().__init__(*args, **kwargs)

    def __dlpack__(self, stream=None):
        return super().__dlpack__(stream=stream)


class NonCapsuleProducer:
    """``__dlpack__`` returns something that is not a capsule."""

    def __init__(self, value=b"dltensor"):
        self.value = value

    def __dlpack_device__(self):
        return (CPU, 0)

    def __dlpack__(self, **kwargs):
        return self.value


# --- more misbehaving producers (tests/test_malformed.py's catalogue) -------------------------

__all__ += ["ReentrantProducer", "DeviceRaisingProducer", "NotCallableProducer",
            "SameCapsuleProducer"]


class ReentrantProducer:
    """``__dlpack__`` hands itself to ``consumer`` again: recursion without end."""

    def __init__(self, consumer):
        self.consumer = consumer
        self.calls = 0

    def __dlpack_device__(self):
        return (CPU, 0)

    def __dlpack__(self, **kwargs):
        self.calls += 1
        return self.consumer(self)


class DeviceRaisingProducer(Producer):
    """A valid ``__dlpack__`` with a ``__dlpack_device__`` that raises (a consumer that needs
    no device query must not make one)."""

    def __dlpack_device__(self):
        raise RuntimeError("__dlpack_device__ must not be needed")


class NotCallableProducer:
    """``__dlpack__`` is there, but is not a method."""

    __dlpack__ = None

    def __dlpack_device__(self):
        return (CPU, 0)


class SameCapsuleProducer(Producer):
    """Returns one and the same capsule from every ``__dlpack__`` call (consumed after the
    first consumer took it)."""

    def __dlpack__(self, **kwargs):
        if not self.exports:
            self._capsule = super().__dlpack__(**kwargs)
        return self._capsule


class CapsuleHolder:
    """Hands one given capsule to a consumer's from_dlpack (which wants an object, not a
    capsule), claiming the CPU."""

    def __init__(self, cap):
        self.cap = cap

    def __dlpack__(self, **kw):
        return self.cap

    def __dlpack_device__(self):
        return (1, 0)


# --- the C exchange API (DLPack 1.3's __dlpack_c_exchange_api__), as PyTorch offers it -------

class ExchangeAPI(ctypes.Structure):
    """DLPackExchangeAPI: its header (major, minor, prev), then the function pointers."""
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("prev", ctypes.c_void_p),
                ("allocator", ctypes.c_void_p), ("from_py", ctypes.c_void_p),
                ("to_py", ctypes.c_void_p), ("dltensor_from_py", ctypes.c_void_p),
                ("current_work_stream", ctypes.c_void_p)]


# int (*)(void* py_object, DLManagedTensorVersioned** out)
EXCHANGE_FROM_PY = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
# int (*)(DLDeviceType, int32_t device_id, void** out_current_stream)
EXCHANGE_STREAM = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_int32, ctypes.c_int32,
                                    ctypes.c_void_p)
