"""The NumPy backend: compute views over CPU-readable memory."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _dlpack
from .._dtypes import dtype_from_dlpack

__all__ = ["missing_reason", "namespace", "view"]


def missing_reason(device_id: int) -> str:
    """Why NumPy cannot compute on this CPU-readable memory: never (its device ids number
    the same host memory)."""
    return ""


_ns: Any = None  # array_api_compat.numpy


def namespace(device_id: int = 0) -> Any:
    """array-api-compat's NumPy namespace (imported on first use: it costs ~50 ms)."""
    global _ns
    if _ns is None:
        import array_api_compat.numpy as ns
        _ns = ns
    return _ns


# NumPy 2's own functions where array-api-compat's only pass the arguments on (permute_dims
# through its decorator adding xp=): ~0.3 us a call less. Read by _dispatch.delegate_first.
# (Not count_nonzero: NumPy before 2.3 answers a whole array's count as a Python int, which
# array-api-compat makes the 0-d array the spec asks for.) max and min: np.max's Python layer
# (~1.5 us) ends in the same maximum.reduce as the methods' (NaN, errors, keepdims alike).
OWN = {"permute_dims": np.ndarray.transpose, "max": np.ndarray.max, "min": np.ndarray.min}


def max_ndim() -> int:
    """NumPy 2's cap on axes (NPY_MAXDIMS)."""
    return 64


def can_view(code: int, bits: int) -> bool:
    """Whether view() takes this DLPack dtype (ml_dtypes' too, when installed)."""
    return dtype_from_dlpack(code, bits).numpy is not None


class _Interface:
    """Carries ``__array_interface__`` to NumPy and, as the view's base, keeps the owner alive."""

    __slots__ = ("__array_interface__", "owner")

    def __init__(self, interface: dict[str, Any], owner: object):
        self.__array_interface__ = interface
        self.owner = owner


def _byte_stride(stride: int, extent: int, itemsize: int) -> int:
    # The stride of an axis of extent 1 is never used and may be any int64, which in bytes can
    # overflow NumPy's C long: then 0. (Others are bounded by the tensor's checked span.)
    st = stride * itemsize
    return st if extent != 1 or -(1 << 63) <= st < 1 << 63 else 0


def view(mt: _dlpack.ManagedTensor) -> npt.NDArray[Any]:
    """A NumPy array over a managed tensor's memory, read-only if the tensor is."""
    described = _described.get((mt.code, mt.bits))
    if described is None:
        described = _describe(mt.code, mt.bits)
    npdt, typestr, itemsize, native = described
    shape = mt.shape
    if 0 in shape:
        # NumPy refuses a NULL data pointer; an empty array has no memory to share anyway.
        a = np.empty(shape, npdt)
        a.flags.writeable = not mt.read_only
        return a
    # (an axis of extent 1 may have any stride, which in bytes could overflow NumPy's C long)
    strides = tuple([st * itemsize for st in mt.strides]) if 1 not in shape else \
        tuple(map(_byte_stride, mt.strides, shape, (itemsize,) * len(shape)))
    a = np.asarray(_Interface({"version": 3, "data": (mt.pointer, mt.read_only),
                               "shape": shape, "strides": strides, "typestr": typestr}, mt))
    return a if native else a.view(npdt)


# (code, bits) -> (NumPy dtype, the typestr NumPy is told, itemsize, whether that typestr is the
# dtype's own), for view(): found once a dtype.
_described: dict[tuple[int, int], tuple[np.dtype[Any], str, int, bool]] = {}


def _describe(code: int, bits: int) -> tuple[np.dtype[Any], str, int, bool]:
    dt = dtype_from_dlpack(code, bits)
    npdt = dt.numpy
    if npdt is None or bits % 8:
        hint = " (install ml_dtypes to compute on it)" if dt.spec_kind is None and bits >= 8 \
            and code != _dlpack.DLDataTypeCode.kDLOpaqueHandle else ""  # (its floats)
        raise TypeError(f"dltensor cannot compute on dtype {dt.name}{hint}; it can still be "
                        "held and handed on with from_dlpack()")
    # Extension dtypes (ml_dtypes) have no typestr: described as same-size unsigned, then
    # viewed. Not by NumPy kind: ml_dtypes' float8 types say kind 'f' but have no typestr.
    native = dt.spec_kind is not None
    typestr = npdt.str if native else f"<u{npdt.itemsize}"
    _described[(code, bits)] = found = (npdt, typestr, npdt.itemsize, native)
    return found


def _interface(mt: _dlpack.ManagedTensor, data: int, typestr: str, itemsize: int
               ) -> dict[str, Any]:
    """The ``__array_interface__`` describing ``mt``'s elements as ``typestr`` at ``data``."""
    return {
        "version": 3,
        "data": (data, mt.read_only),
        "shape": mt.shape,
        "strides": tuple(map(_byte_stride, mt.strides, mt.shape, (itemsize,) * len(mt.shape))),
        "typestr": typestr,
    }


# Where stand_in puts its elements: an address no process has mapped (non-canonical on x86-64,
# past AArch64's 52 bits). Nothing may read there (StandIn keeps NumPy's scalars from doing
# so); were anything to, the process would die of a segmentation fault at once rather than
# read another allocation's bytes: a tripwire, not a protection.
NOWHERE = 1 << 62


class StandIn(np.ndarray):
    """A NumPy array whose indexing never makes a NumPy scalar, which NumPy would fill by
    reading the element (``s[0]`` of 1-D ``s``, ``s[()]`` of 0-d, iteration): a 0-d view
    instead. NumPy's view functions index and iterate (flip of 0-d, unstack of 1-D)."""

    def __getitem__(self, key: Any) -> Any:
        if type(key) is not tuple:
            key = (key,)
        if not any(k is Ellipsis for k in key):
            key += (Ellipsis,)
        return super().__getitem__(key)


def stand_in(mt: _dlpack.ManagedTensor) -> StandIn:
    """A NumPy array with ``mt``'s shape and strides, of opaque (void) elements of its size,
    at NOWHERE: NumPy's view functions applied to it say, by the view's shape, strides and
    address, how to view ``mt``'s memory (dltensor/_held.py) without reading any of it."""
    itemsize = mt.bits * mt.lanes // 8
    interface = _interface(mt, NOWHERE, f"|V{itemsize}", itemsize)
    interface["data"] = (NOWHERE, False)  # (a view's read-only flag is the tensor's own)
    if mt.size == 0:  # (no element to address: compact strides, as view() gives; a producer's
        # may be any int64, past what NumPy takes in bytes)
        interface["strides"] = None
    s: StandIn = np.asarray(_Interface(interface, None)).view(StandIn)
    return s


class _Handoff:
    """Gives NumPy's from_dlpack one capsule we made, once."""

    __slots__ = ("capsule",)
    capsule: Any  # a PyCapsule (NumPy's stubs want typing_extensions.CapsuleType)

    def __dlpack__(self, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: Any = None, copy: bool | None = None) -> Any:
        capsule, self.capsule = self.capsule, None
        return capsule


def adopt(capsule: object) -> npt.NDArray[Any] | None:
    """NumPy's C consumer takes a versioned capsule a trusted C producer made with no Python
    (PyTorch's exporter behind its ``__dlpack__``): a NumPy array over it, whose base calls the
    deleter, in C, once. None when NumPy refuses it (a dtype it lacks); the capsule releases the
    tensor then. The caller has checked the data pointer: NumPy reads NULL as "allocate"
    (uninitialised values) and reads an address in the first page (a segmentation fault).
    """
    h = _Handoff()
    h.capsule = capsule
    try:
        return np.from_dlpack(h)
    except (BufferError, RuntimeError, TypeError, ValueError):
        return None  # the capsule dies unconsumed: its destructor calls the deleter


def harvest_c_release() -> None:
    """Lend NumPy's own C deleters to the DLPack producer (see _dlpack/produce.py for why).

    NumPy's exported tensors are one PyMem_Malloc block released by a deleter that frees it and
    drops ``manager_ctx``; its capsule destructor calls the deleter of an unused capsule. That
    is exactly the contract the producer needs, with no Python code on a consumer's error path.
    """
    from .._dlpack import capsule as cap
    for versioned, struct in ((True, _dlpack.DLManagedTensorVersioned),
                              (False, _dlpack.DLManagedTensor)):
        offset = struct.deleter.offset
        c = np.empty(1).__dlpack__(max_version=(1, 0) if versioned else None)
        name = cap.capsule_name(c)
        address = cap.PyCapsule_GetPointer(c, name)
        deleter = ctypes.c_void_p.from_address(address + offset).value
        assert deleter is not None  # (NumPy's exports always carry a deleter)
        destructor = cap.PyCapsule_GetDestructor(c)
        _dlpack.use_c_release(versioned, destructor, deleter)


harvest_c_release()
