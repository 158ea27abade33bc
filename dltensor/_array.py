"""Layer 4: the ndarray, which owns one DLPack managed tensor.

An ndarray is one of two things, fixed at birth:

* imported: ``_tensor`` is the ManagedTensor it consumed (its deleter runs once, when the array,
  every view of it and every export of it are gone); ``_array`` is a zero-copy compute view made
  from it on first use, and stays None on a device no backend computes on;
* computed: ``_array`` is a backend array (NumPy or CuPy) that a backend call returned, and
  ``_tensor`` is None: an export is the backend's own producer's where it can make it (NumPy's
  dtypes; CuPy's writable arrays), else dltensor's own (see ``_export``).

Operators, indexing and the array API methods are installed by the namespace modules above this
one (a new op is one table row there); this module holds what every array has.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, SupportsIndex

import numpy as np
import numpy.typing as npt

from . import _dlpack
from ._backends import backend_for, backend_or_none
from ._devices import CPU, CUDA_TYPE, Device, as_device, check_stream
from ._dlpack.abi import (
    DLPACK_FLAG_BITMASK_IS_COPIED,
    DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED,
    DLPACK_FLAG_BITMASK_READ_ONLY,
    DLDeviceType,
)
from ._dtypes import FROM_NUMPY, DType, computable, dtype_from_dlpack

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import EllipsisType

__all__ = ["ndarray", "wrap", "from_tensor"]

_new = object.__new__
_CPU_DLPACK_DEVICE = (DLDeviceType.kDLCPU, 0)
# NumPy exports these itself; ml_dtypes' are exported by our producer (NumPy 2.4 has no codes).
_NUMPY_EXPORTS = frozenset(d.numpy for d in FROM_NUMPY.values() if d.spec_kind is not None)
# (the 2025.12 namespace holds the earlier ones' functions: asked for those, as NumPy and
# array-api-strict answer, a consumer gets it)
_API_VERSIONS = (None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12")
# Stream values the standard disallows: 0 on CUDA (ambiguous), 1 and 2 on ROCm (CUDA's
# legacy and per-thread default streams have no ROCm meaning).
_FORBIDDEN_STREAMS = {DLDeviceType.kDLCUDA: (0,), DLDeviceType.kDLROCM: (1, 2)}
# Pinned and managed memory, which GPUs write on streams: CuPy's consumer passes its stream for
# these, and dltensor orders the host after a producer's (NumPy queues no work there).
STREAMED_HOST = (DLDeviceType.kDLCUDAHost, DLDeviceType.kDLCUDAManaged)
# Held CUDA memory whose pending work is queued on a stream its producer named (from a
# __cuda_array_interface__ read without CuPy): handed on in this array's own interface.
held_streams: weakref.WeakKeyDictionary[_dlpack.ManagedTensor, int] = \
    weakref.WeakKeyDictionary()
# Memory the CPU can read: NumPy computes on it, and a DLPack stream means nothing there
# (the ABI layer's set, whose first page it refuses).
CPU_READABLE = _dlpack.HOST_READABLE
# Load the NumPy backend now, not on first compute: importing it lends NumPy's C deleters to
# the producer. Without them an export made before any compute (say of memory on a held
# device) used the Python fallback, and a consumer refusing it (np.from_dlpack) raised
# SystemError and leaked the tensor (numpy#32697; tests/test_ownership.py).
_cpu_backend = backend_for(CPU)


class _Native(Protocol):
    """What ndarray reads of a backend array (a NumPy or CuPy array): for annotations only."""

    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def ndim(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def itemsize(self) -> int: ...
    @property
    def strides(self) -> tuple[int, ...]: ...


class ndarray:
    """An n-dimensional array over memory on any DLPack device.

    Make one with :func:`dltensor.asarray` or :func:`dltensor.from_dlpack`; hand it to any
    DLPack consumer (``numpy.from_dlpack``, ``torch.from_dlpack``, ...) without a copy.
    """

    __slots__ = ("_array", "_tensor", "_device", "__weakref__")
    _array: Any  # a NumPy or CuPy array, or None until first compute
    # The ManagedTensor, or None for a computed array. Any: "_array is None implies _tensor is
    # set" cannot be stated, so the hot properties annotate their local instead (no cost).
    _tensor: Any
    _device: Device

    # NumPy defers its operators with one of ours on the right to our reflected ones, as it
    # does for PyTorch's tensors (np.ones(2) + x: our TypeError; np.float64(2) * x: ours); its
    # functions, ufuncs included, read ours through __array__ and answer with NumPy arrays.
    __array_priority__ = 1000
    # Unhashable, as NumPy's arrays are: == is element-wise (attached after the class is made,
    # so Python does not drop object's __hash__ by itself).
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("dltensor.ndarray cannot be constructed directly; use dltensor.asarray() "
                        "or dltensor.from_dlpack()")

    # --- the compute view ------------------------------------------------------------------

    def _compute(self) -> Any:
        """The backend array computing on this memory (made on first use, zero-copy)."""
        a = self._array
        if a is None:
            t = self._tensor
            a = backend_for(self._device).view(t)
            if t.read_only and type(a) is not np.ndarray:  # (NumPy's views say it themselves)
                mark_read_only(a if a.base is None else a.base)
            # (published once marked: another thread's view of it, taken meanwhile, was
            # writable into read-only memory)
            self._array = a
        return a

    # --- attributes --------------------------------------------------------------------------

    @property
    def dtype(self) -> DType:
        a = self._array
        if a is not None:
            return FROM_NUMPY[a.dtype]
        t: _dlpack.ManagedTensor = self._tensor
        return dtype_from_dlpack(t.code, t.bits)

    @property
    def __numpy_dtype__(self) -> np.dtype[Any]:
        """The NumPy dtype of the elements, which NumPy 2.4+ asks of an object that is not its
        array (``np.result_type(x)``), as it reads ``x.dtype`` of array-likes whose dtype is
        NumPy's (pandas, h5py). JAX's ``jnp.asarray(x)`` asks NumPy so: without this, NumPy
        took ``x.dtype`` (a dtype it reads since 2.4) for an array's and refused it with a
        ValueError, which JAX does not catch. AttributeError for a dtype only held."""
        a = self._array
        return a.dtype if a is not None else self.dtype.__numpy_dtype__

    @property
    def device(self) -> Device:
        return self._device

    @property
    def shape(self) -> tuple[int, ...]:
        a: _Native | None = self._array
        return a.shape if a is not None else self._tensor.shape

    @property
    def ndim(self) -> int:
        a: _Native | None = self._array
        return a.ndim if a is not None else len(self._tensor.shape)

    @property
    def size(self) -> int:
        a: _Native | None = self._array
        return a.size if a is not None else self._tensor.size

    @property
    def itemsize(self) -> int:
        """Bytes an element takes, as NumPy, CuPy and PyTorch say (1 for the sub-byte dtypes
        dltensor holds, which DLPack packs unless flagged padded: ``nbytes`` counts packed
        ones by their bits)."""
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes the elements take: ``size`` elements of ``itemsize``, as NumPy counts them
        (not the span of a strided or broadcast view's memory)."""
        bits, t = self.dtype.bits, self._tensor
        if bits < 8 and t is not None and t.flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED:
            bits = 8  # (a padded sub-byte element takes a byte)
        return (self.size * bits + 7) // 8

    @property
    def strides(self) -> tuple[int, ...]:
        """Strides in elements, as DLPack and PyTorch count them (NumPy counts bytes); an
        array whose strides are not whole elements (a packed record's field) has none."""
        t: _dlpack.ManagedTensor | None = self._tensor
        if t is not None:
            return t.strides
        try:
            return element_strides(self._array)
        except BufferError as e:  # (an AttributeError: hasattr and inspect must not raise)
            raise AttributeError(f"this array has no strides in elements: {e}") from None

    @property
    def read_only(self) -> bool:
        """Whether the memory may not be written (DLPack's READ_ONLY flag)."""
        t: _dlpack.ManagedTensor | None = self._tensor
        if t is not None:
            return t.read_only
        return _array_read_only(self._array)

    @property
    def data_ptr(self) -> int:
        """Address of the first element (for checking zero-copy; never dereference it)."""
        t: _dlpack.ManagedTensor | None = self._tensor
        if t is not None:
            return t.pointer
        return backend_pointer(self._array)

    def __repr__(self) -> str:
        dt = self.dtype
        if held(self):
            return (f"dltensor.ndarray(<{self._device} memory>, shape={self.shape}, "
                    f"dtype={dt.name}, device={self._device})")
        # An empty array prints as [] whatever its shape, a summarised one as its corners: say
        # the shape, as NumPy 2.2 does (under its printoptions: threshold, legacy)
        opts = np.get_printoptions()
        summarised = self.size > opts["threshold"] and opts["legacy"] is False
        if self.size == 0:
            body = "[]"  # (no view needed: NumPy cannot make one of (2**62, 0))
        else:
            edge, cut = opts["edgeitems"], False
            try:
                a = self._compute()
            except ValueError:  # (a broadcast past what NumPy views, 2**62 floats of stride
                # 0: each such axis cut to the 2 * edge + 1 elements printed, all alike;
                # printed summarised, with the shape, whatever the print options)
                t = self._tensor
                a = from_tensor(t.view(tuple(min(n, 2 * edge + 1) if st == 0 else n for n, st
                                             in zip(t.shape, t.strides)), t.strides))._compute()
                summarised = cut = True
            # (not for edgeitems 0: NumPy then formats the whole array and prints its last
            # elements, as a[-0:] is all of it)
            gpu = summarised and (cut or not isinstance(a, np.ndarray)) and edge > 0
            body = np.array2string(_host(a, edge if gpu else None),
                                   threshold=0 if gpu else None, separator=", ",
                                   prefix="dltensor.ndarray(")
        dev = "" if self._device == CPU else f", device={self._device}"
        shape = f", shape={self.shape}" if summarised or self.size == 0 and self.shape != (0,) \
            else ""
        return f"dltensor.ndarray({body}{shape}, dtype={dt.name}{dev})"

    __str__ = __repr__

    # --- the array API protocol methods ---------------------------------------------------------

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        if api_version not in _API_VERSIONS:
            if not isinstance(api_version, str):
                raise TypeError(f"api_version must be a str such as '2025.12' or None, not "
                                f"{api_version!r}")
            raise ValueError(f"dltensor implements array API versions 2021.12 to 2025.12, "
                             f"not {api_version!r}")
        import dltensor
        return dltensor

    def __dlpack_device__(self, /) -> tuple[DLDeviceType, int]:
        d = self._device
        return _CPU_DLPACK_DEVICE if d is CPU else (d.device_type, d.device_id)

    def __dlpack__(self, /, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:
        """Export as a DLPack capsule (a fresh managed tensor on every call).

        Versioned when ``max_version[0] >= 1``, legacy otherwise; READ_ONLY set for read-only
        arrays (a legacy request for one raises BufferError, as it could not say so).
        ``copy=True`` copies and sets IS_COPIED; ``copy=False`` raises BufferError where a copy
        would be needed, as do an unsupported ``dl_device`` and a ``stream`` on the CPU.
        """
        if stream is None and dl_device is None and copy is None and self._device is CPU:
            # NumPy's own producer: C speed, right flags, and its manager_ctx keeps this view
            # (and through its base our managed tensor) alive. (What consumers ask: NumPy
            # passes dl_device=None, copy=None; the rest goes through _export. A max_version
            # NumPy refuses gets _export's words; a negative one both read alike.) A tensor
            # not computed on yet gets its NumPy view made first, as the first computation
            # makes it (~1.6 us, once; our producer's ctypes export is ~4 us every time),
            # where NumPy has its dtype; an empty one is exported as it is, its pointer kept.
            a = self._array
            if a is None:
                t = self._tensor
                if t.size and backend_for(CPU).can_view(t.code, t.bits):
                    try:
                        a = self._compute()
                    except ValueError:  # (a broadcast past what NumPy views: 2**62 floats of
                        pass            # strides 0, "array is too big"; ours describes it)
            if a is not None:
                try:
                    return a.__dlpack__(max_version=max_version)
                except (BufferError, TypeError, OverflowError):
                    pass  # an ml_dtypes dtype, read-only for a legacy request, (2**70, 0)
        return _export(self, stream, max_version, dl_device, copy)

    def to_device(self, device: Device | str | tuple[int, int], /, *, stream: Any = None
                  ) -> ndarray:
        """This array on ``device``: itself when already there, else a copy (a view for pinned
        or managed memory to the CPU; on ``stream`` when given: a CuPy stream, an object with
        ``__cuda_stream__`` or a raw handle, of the source GPU for a copy to the host and of
        the destination GPU otherwise)."""
        device = as_device(device)
        if stream is None and device == self._device:  # (before the import below: ~0.5 us)
            return self
        from ._moves import move
        if stream is not None and DLDeviceType.kDLCUDA not in (self._device.device_type,
                                                               device.device_type):
            raise ValueError(f"stream must be None for a move from {self._device} to {device}: "
                             f"streams order work on CUDA devices only, not {stream!r}")
        if stream is not None and device == self._device:  # (no move: checked as for one)
            backend = backend_or_none(device)  # (None for held memory: nothing to order)
            if backend is not None:
                backend.stream_for(stream, device.device_id)
            else:  # (held CUDA memory, no CuPy: the value checked as with it; "x", 1.5 and 0
                check_stream(stream)  # were taken, where with CuPy they are refused)
        return move(self, device, stream=stream, copy=None)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """CUDA Array Interface v3 (numba, older libraries), for CUDA memory only."""
        dev = self._device
        if dev.device_type != CUDA_TYPE:  # (libraries probe every array for it: PyTorch's asarray)
            raise AttributeError(f"__cuda_array_interface__ is only for CUDA memory, not "
                                 f"{dev._name}")
        t: _dlpack.ManagedTensor | None = self._tensor
        read_only = self.read_only  # (not t's alone: CuPy's views of read-only memory)
        if _computable(self):
            from ._dispatch import on
            with on(dev):  # (CuPy names the current stream of the *current* device)
                cai: dict[str, Any] = self._compute().__cuda_array_interface__
            # CuPy's, with its stream; CuPy's arrays are all writable to it
            return dict(cai, data=(cai["data"][0], True)) if read_only else cai
        if t is None:  # (a computed array is computable)
            raise AttributeError("__cuda_array_interface__: no CuPy to describe this array")
        dt = dtype_from_dlpack(t.code, t.bits)
        if dt.numpy is None or dt.spec_kind is None:  # (ml_dtypes' float8_e5m2 says '<f1': no)
            raise AttributeError(f"__cuda_array_interface__ cannot describe dtype {dt.name}")
        itemsize = dt.numpy.itemsize
        return {
            "shape": t.shape, "typestr": dt.numpy.str, "version": 3,
            "data": (t.pointer if t.size else 0, read_only),  # (0 for no elements, as v3 says)
            "strides": tuple(s * itemsize for s in t.strides),
            # Held memory: dltensor queued no work on it. A producer's stream read from its
            # own interface is handed on; a DLPack producer was asked to order the legacy
            # default stream (1), so a consumer syncing on that is ordered after its work.
            "stream": held_streams.get(t, 1),
        }

    def __reduce_ex__(self, protocol: SupportsIndex
                      ) -> tuple[Callable[[npt.NDArray[Any]], ndarray], tuple[Any]]:
        """Pickle CPU memory through NumPy: with protocol 5 its buffer goes out of band, so
        ``pickle.dumps(x, protocol=5, buffer_callback=...)`` copies nothing into the stream."""
        dev = self._device
        if dev.device_type in CPU_READABLE:
            try:
                return (_unpickle, (self._compute(),))
            except TypeError as e:  # a dtype NumPy has not (float4, or bfloat16 sans ml_dtypes)
                raise TypeError(f"cannot pickle this array: {e}") from None
        raise TypeError(f"cannot pickle an array on device {dev}: dltensor never copies "
                        f"across devices silently; {_to_cpu_hint(dev, 'pickle')}")

    def __array__(self, dtype: npt.DTypeLike | DType | None = None, copy: bool | None = None
                  ) -> npt.NDArray[Any]:
        """A NumPy view (CPU-readable memory only: dltensor never copies across devices)."""
        if self._device.device_type not in CPU_READABLE:
            raise BufferError(f"array is on device {self._device}; NumPy reads only CPU memory: "
                              f"{_to_cpu_hint(self._device, 'read')}")
        if copy is not None and type(copy) is not bool:  # (as __dlpack__ checks it)
            copy = copy_flag(copy)
        if dtype is not None and isinstance(dtype, DType):  # (called directly with ours)
            if computable(dtype) is None:
                raise TypeError(f"NumPy has no dtype {dtype.name}")
            dtype = dtype.numpy
        a: npt.NDArray[Any] = self._compute()
        if dtype is not None and a.dtype != dtype:
            if copy is False:
                raise ValueError("a dtype change needs a copy, and copy=False forbids it")
            return a.astype(dtype)
        # A view, not the array dltensor computes with: its holder may reshape it in place or
        # flip its writeable flag, which must reach neither this array's shape nor its
        # read-only state (as np.from_dlpack's and torch's .numpy() arrays are their own).
        out: npt.NDArray[Any] = a.copy("K") if copy else a.view()
        return out

    if TYPE_CHECKING:
        # What type checkers see of the operators and methods _elementwise.py and _indexing.py
        # install at import (the spec's signatures); at run time this block defines nothing.
        def __add__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __radd__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __iadd__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __sub__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __rsub__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __isub__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __mul__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __rmul__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __imul__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __truediv__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __rtruediv__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __itruediv__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __floordiv__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __rfloordiv__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __ifloordiv__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __mod__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __rmod__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __imod__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __pow__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __rpow__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __ipow__(self, other: ndarray | int | float | complex, /) -> ndarray: ...
        def __and__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __rand__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __iand__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __or__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __ror__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __ior__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __xor__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __rxor__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __ixor__(self, other: ndarray | int | bool, /) -> ndarray: ...
        def __lshift__(self, other: ndarray | int, /) -> ndarray: ...
        def __rlshift__(self, other: ndarray | int, /) -> ndarray: ...
        def __ilshift__(self, other: ndarray | int, /) -> ndarray: ...
        def __rshift__(self, other: ndarray | int, /) -> ndarray: ...
        def __rrshift__(self, other: ndarray | int, /) -> ndarray: ...
        def __irshift__(self, other: ndarray | int, /) -> ndarray: ...
        def __matmul__(self, other: ndarray, /) -> ndarray: ...
        def __rmatmul__(self, other: ndarray, /) -> ndarray: ...
        def __imatmul__(self, other: ndarray, /) -> ndarray: ...

        # element-wise comparisons: an array, where object's __eq__ returns a bool
        def __eq__(  # type: ignore[override]
                self, other: ndarray | int | float | complex | bool, /) -> ndarray: ...
        def __ne__(  # type: ignore[override]
                self, other: ndarray | int | float | complex | bool, /) -> ndarray: ...
        def __lt__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __le__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __gt__(self, other: ndarray | int | float, /) -> ndarray: ...
        def __ge__(self, other: ndarray | int | float, /) -> ndarray: ...

        def __neg__(self, /) -> ndarray: ...
        def __pos__(self, /) -> ndarray: ...
        def __abs__(self, /) -> ndarray: ...
        def __invert__(self, /) -> ndarray: ...

        # (lists are index arrays, as in NumPy)
        def __getitem__(self, key: int | slice | EllipsisType | None | ndarray | list[Any] |
                        tuple[int | slice | EllipsisType | ndarray | list[Any] | None, ...],
                        /) -> ndarray: ...
        def __setitem__(self, key: int | slice | EllipsisType | ndarray | list[Any] | tuple[
                int | slice | EllipsisType | ndarray | list[Any], ...],
                value: ndarray | int | float | complex | bool, /) -> None: ...
        def __iter__(self, /) -> Iterator[ndarray]: ...
        def __reversed__(self, /) -> Iterator[ndarray]: ...
        def __len__(self, /) -> int: ...
        def __contains__(self, value: object, /) -> bool: ...
        def __format__(self, spec: str, /) -> str: ...
        def __bool__(self, /) -> bool: ...
        def __int__(self, /) -> int: ...
        def __float__(self, /) -> float: ...
        def __complex__(self, /) -> complex: ...
        def __index__(self, /) -> int: ...
        def tolist(self, /) -> Any: ...
        def item(self, /) -> bool | int | float | complex: ...
        def __copy__(self) -> ndarray: ...
        def __deepcopy__(self, memo: object) -> ndarray: ...
        @property
        def mT(self) -> ndarray: ...
        @property
        def T(self) -> ndarray: ...


def copy_flag(copy: object) -> bool | None:
    """``copy=`` as the spec takes it: None, True or False (NumPy's bools too), never a truthy
    1 or "yes" that would reach a producer as is (tests/test_malformed.py)."""
    if copy is None or type(copy) is bool:
        return copy
    if type(copy) is np.bool_:
        return bool(copy)
    raise TypeError(f"copy must be True, False or None, not {copy!r}")


def _unpickle(a: npt.NDArray[Any]) -> ndarray:
    return wrap(a)


def _computable(x: ndarray) -> bool:
    backend = backend_or_none(x._device)
    if backend is None:
        return False
    t = x._tensor
    return t is None or bool(backend.can_view(t.code, t.bits))


def read_only_error(x: ndarray, op: str = "") -> ValueError:
    """ValueError for a write into read-only ``x`` (operation ``op``), saying why it is: its
    producer's flag, or a view of such memory or of a broadcast, whose elements share memory."""
    t, a = x._tensor, x._array
    if _dlpack.shares_memory(*((t.shape, t.strides) if t is not None else (a.shape, a.strides))):
        why = ("its elements share memory: a stride of 0 along an axis of more than one "
               "element, a broadcast")
    elif getattr(t, "base", None) is None if t is not None else _adopted_read_only(a):
        why = "its producer exported it so"
    else:
        why = "read-only memory, or a view of read-only memory"
    copy = (f"a library that computes on {x._device} memory can copy it (its "
            "from_dlpack(x, copy=True))" if held(x) else  # (a copy is a computation there)
            "write into a copy: dltensor.asarray(x, copy=True)")
    return ValueError(f"{op + ': ' if op else ''}this array is read-only ({why}); {copy}")


def _adopted_read_only(a: Any) -> bool:
    """Whether NumPy array ``a`` views a producer's export flagged read-only that NumPy's own
    consumer took (a JAX array's): the root of its views is NumPy's read-only array of a
    versioned capsule, which it names so (NumPy makes every legacy import read-only: no
    producer said so)."""
    if type(a) is not np.ndarray:
        return False
    while type(a.base) is np.ndarray:
        a = a.base
    return _dlpack.is_capsule(a.base) and not a.flags.writeable and \
        _dlpack.capsule.capsule_name(a.base) == b"numpy_dltensor_versioned" and \
        not _dlpack.shares_memory(a.shape, a.strides)  # (guard_shared's mark, not its word)


def held(x: ndarray) -> bool:
    """Whether ``x`` is memory dltensor holds but cannot compute on (a device with no backend,
    a dtype its backend has not); False for an array computed on already."""
    if x._array is not None:
        return False
    if x._device is CPU:  # (the commonest: told without finding the backend)
        t = x._tensor
        return not _cpu_backend.can_view(t.code, t.bits)
    return not _computable(x)


def _host(a: Any, edge: int | None = None) -> npt.NDArray[Any]:
    """A NumPy array for printing (CuPy arrays are copied to the host for repr only, on
    their own GPU's current stream). With ``edge``, of a summarised GPU array only what NumPy
    prints: along each axis longer than 2 * edge its first and last ``edge`` elements, and
    one between for NumPy to summarise as "..." (printed with threshold 0, it formats those
    alone, as it formats the original's corners). The whole array was copied, as CuPy's repr
    copies it (PyTorch's copies the corners)."""
    if isinstance(a, np.ndarray):
        return a
    with backend_for(Device(DLDeviceType.kDLCUDA, a.data.device_id)).on(a.data.device_id):
        if edge is not None:
            import cupy
            for axis, n in enumerate(a.shape):
                if n > 2 * edge:  # (slices joined: a take of a broadcast array copied it all)
                    before = (slice(None),) * axis
                    a = cupy.concatenate([a[before + (slice(start, stop),)] for start, stop in
                                          ((0, edge), (n // 2, n // 2 + 1), (n - edge, n))],
                                         axis=axis)
        host: npt.NDArray[Any] = a.get()
        return host


def wrap(a: Any, device: Device = CPU) -> ndarray:
    """An ndarray around a backend array a backend call returned."""
    x = _new(ndarray)
    x._array = a
    x._tensor = None
    x._device = device
    return x


def from_tensor(mt: _dlpack.ManagedTensor) -> ndarray:
    """An ndarray that owns a consumed managed tensor."""
    x = _new(ndarray)
    x._array = None
    x._tensor = mt
    # Any CPU id is the CPU (DLPack says 0; a producer saying otherwise means nothing else).
    x._device = CPU if mt.device_type == 1 else as_device((mt.device_type, mt.device_id))
    return x


def host_view(x: ndarray) -> ndarray:
    """``x``, on pinned or managed memory, as the CPU's: the same memory relabelled, read by
    no one (so dtypes NumPy has not, float4 or opaque handles, are relabelled too)."""
    t = x._tensor
    if t is None or x._array is not None:
        return wrap(x._compute(), CPU)
    v = t.view(t.shape, t.strides)
    v.device_type, v.device_id = int(DLDeviceType.kDLCPU), 0
    return from_tensor(v)


# The flags an export carries over from the tensor it re-exports: what the memory *is*.
_CARRIED_FLAGS = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED


def _describe(x: ndarray) -> tuple[object, int, int, tuple[int, int, int], tuple[int, ...],
                                   tuple[int, ...], int]:
    """(owner, data, byte_offset, dtype code/bits/lanes, shape, strides, flags) to export."""
    t: _dlpack.ManagedTensor | None = x._tensor
    if t is not None:
        # (PADDED means something for elements below a byte only: dropped for the others)
        flags = t.flags & (_CARRIED_FLAGS if t.bits < 8 else DLPACK_FLAG_BITMASK_READ_ONLY)
        return t, t.data or 0, t.byte_offset, (t.code, t.bits, t.lanes), t.shape, t.strides, \
            flags
    a = x._array
    dt = FROM_NUMPY[a.dtype]
    return a, backend_pointer(a), 0, (dt.code, dt.bits, 1), a.shape, element_strides(a), \
        DLPACK_FLAG_BITMASK_READ_ONLY if _array_read_only(a) else 0


def backend_pointer(a: Any) -> int:
    """The address of a backend array's first element: NumPy's, or CuPy's."""
    ptr: int = a.__array_interface__["data"][0] if isinstance(a, np.ndarray) else a.data.ptr
    return ptr


def element_strides(a: Any) -> tuple[int, ...]:
    """A backend array's strides in elements, as DLPack counts them. BufferError for a stride
    of part of an element (a field of a packed record, 12 bytes for float64): no DLPack tensor
    has such a layout (NumPy's producer refuses it too), and a stride rounded down read other
    memory."""
    n = a.itemsize
    for s in a.strides:
        if s % n:
            raise BufferError(f"strides of {a.strides} bytes are not whole {n}-byte elements, "
                              "which DLPack cannot describe; make a compact copy with "
                              "dltensor.asarray(x, copy=True)")
    return tuple(s // n for s in a.strides)


def _to_cpu_hint(device: Device, what: str) -> str:
    """How to get memory on ``device`` to the CPU, to ``what`` it there: a move where dltensor
    has a backend for it (CuPy for CUDA), else only its producer or another library can."""
    if backend_or_none(device) is not None:
        return f"{what} x.to_device('cpu')"
    return ("dltensor cannot read this memory (no backend for it); ask its producer for a "
            "host copy (dltensor.from_dlpack(producer, device='cpu') does), or hand it to a "
            "library that can read it with its from_dlpack()")


def _array_read_only(a: Any) -> bool:
    if type(a) is np.ndarray:
        return not a.flags.writeable
    # (one truth test in the common case: no CuPy array marked)
    return bool(_READ_ONLY) and (id(a) in _READ_ONLY or id(a.base) in _READ_ONLY)


# CuPy arrays have no writeable flag: the ones dltensor made read-only, by id, each dropped
# when its array dies (its weakref's callback runs before an id can be reused). A CuPy view's
# base is the root array, so views of a marked root (a read-only import) are read-only; views
# of a marked view (a broadcast) are marked as dltensor makes them (inherit_read_only).
_READ_ONLY: dict[int, weakref.ref[Any]] = {}


def inherit_read_only(source: Any, result: Any) -> Any:
    """``result``, a backend array a call made from ``source``: marked read-only when it is a
    CuPy view of a read-only ``source`` (NumPy's views carry the flag themselves). A CuPy
    view's base is the array owning the memory: ``source``'s own root, where it is a view of
    it, not a new array some call made and took a view of (reshape(copy=True), tile, roll:
    the caller's to write)."""
    if _READ_ONLY and type(result) is not np.ndarray:
        base = getattr(result, "base", None)
        if base is not None and (base is source or base is getattr(source, "base", None)) \
                and _array_read_only(source):
            mark_read_only(result)
    return result


def guard_shared(a: Any) -> Any:
    """Backend array ``a``, an import, marked read-only where its elements share memory (a
    producer's broadcast: PyTorch's expand), as dltensor's broadcasts are and as _dlpack's
    consumer flags such tensors: a write of several values there keeps only the last."""
    st = a.strides
    if 0 in st and _dlpack.shares_memory(a.shape, st):
        mark_read_only(a)
    return a


def mark_read_only(a: Any) -> None:
    """Make a backend array read-only: NumPy's flag, or for CuPy's the table above."""
    if type(a) is np.ndarray:
        a.flags.writeable = False
        return
    key = id(a)

    def forget(_: object) -> None:
        _READ_ONLY.pop(key, None)
    _READ_ONLY[key] = weakref.ref(a, forget)


def _export(x: ndarray, stream: Any, max_version: tuple[int, int] | None,
            dl_device: tuple[int, int] | None, copy: bool | None) -> Any:
    """Every export NumPy's producer does not make: other devices, extension dtypes, copies."""
    copy = copy_flag(copy)
    if type(max_version) is tuple and len(max_version) == 2 and type(max_version[0]) is int \
            and type(max_version[1]) is int and 1 <= max_version[0] < 1 << 31 \
            and 0 <= max_version[1] < 1 << 31:
        pass  # (what consumers ask, taken as it is: the checks cost ~0.5 us an export)
    elif max_version is not None:
        max_version = _version_asked(max_version)
    dev = x._device
    if dl_device is not None:
        try:
            if not isinstance(dl_device, tuple):
                raise TypeError  # (the spec's Tuple[Enum, int], as NumPy's producer asks)
            dl_type, dl_id = map(operator.index, dl_device)
        except (TypeError, ValueError):
            raise TypeError(f"dl_device must be a (device_type, device_id) pair of ints, "
                            f"not {dl_device!r}") from None
        if (dl_type, dl_id) != (dev.device_type, dev.device_id):
            return _export_to(x, (dl_type, dl_id), stream, max_version, copy)
    if dev.device_type in CPU_READABLE:
        _check_host_stream(dev, stream)
        a = x._array
        if dev is CPU and a is not None and a.dtype in _NUMPY_EXPORTS:
            return a.__dlpack__(max_version=max_version, copy=copy)  # NumPy's producer again
        if copy and dl_device is not None and dev is not CPU:
            # Asked for a copy on x's own (pinned, managed) device, which NumPy cannot
            # allocate. (Asked with no dl_device, the copy is labelled the CPU it is on, as
            # NumPy's from_dlpack(x, copy=True) takes it.)
            raise BufferError(f"dltensor cannot allocate {dev} memory for a copy (NumPy "
                              "allocates pageable CPU memory); ask with dl_device=(1, 0)")
    else:
        if stream is not None and dev.device_type in _FORBIDDEN_STREAMS:  # CUDA and ROCm
            _check_stream(dev, stream, _FORBIDDEN_STREAMS[dev.device_type])
        backend = backend_or_none(dev)
        if backend is not None:
            # CUDA memory with CuPy: its work is on CuPy's current stream (an import ordered
            # that stream after the producer's), so the consumer's stream must wait for it.
            a = x._array
            if a is not None and not copy and not x.read_only and min(a.strides, default=0) >= 0:
                # CuPy's producer, for what CuPy computed (its flags say writable, so not for
                # read-only arrays), recording on this GPU's current stream; not for a negative
                # stride, which CuPy 14.2 divides by an unsigned itemsize (cupy#10172: -8 bytes
                # of float64 became 2**61 - 1 elements; a flip's export read garbage)
                with backend.on(dev.device_id):
                    return a.__dlpack__(stream=stream, max_version=max_version)
            if copy:
                copied = _copy_for_export(x)
                backend.order_consumer(stream, dev.device_id)
                return _make(copied, max_version, extra_flags=DLPACK_FLAG_BITMASK_IS_COPIED)
            backend.order_consumer(stream, dev.device_id)
            return _make(x, max_version)
    # Held memory: dltensor never queued work on it, so there is nothing to order a
    # consumer's stream after (a stream read from a __cuda_array_interface__ is handed on in
    # this array's own interface, not here: see docs/devices.md).
    if copy:
        return _make(_copy_for_export(x), max_version, extra_flags=DLPACK_FLAG_BITMASK_IS_COPIED)
    return _make(x, max_version)


def _version_asked(max_version: Any) -> tuple[int, int]:
    """A consumer's max_version other than a plain (major >= 1, minor) pair: TypeError for what
    is no pair of ints; a newer version gets ours, 1.x (NumPy's producer takes C ints only),
    and a negative number is read as NumPy's producer reads it, on every path: a major below
    1 asks for a legacy capsule, a minor below 0 for 1.0."""
    try:
        if not isinstance(max_version, tuple):
            raise TypeError
        major, minor = map(operator.index, max_version)
    except (TypeError, ValueError):
        raise TypeError(f"max_version must be a (major, minor) tuple of ints, "
                        f"not {max_version!r}") from None
    return max(0, min(major, (1 << 31) - 1)), max(0, min(minor, (1 << 31) - 1))


def _export_to(x: ndarray, dl_device: tuple[int, int], stream: Any,
               max_version: tuple[int, int] | None, copy: bool | None) -> Any:
    """An export to a device other than x's: to the CPU only, a copy, or for memory the CPU
    reads (pinned, managed) the same pointer relabelled."""
    dev = x._device
    if dl_device == (1, 0):
        # (the spec: "when kDLCPU is in use, stream must be None", from a GPU too)
        _check_host_stream(dev, stream, to_cpu=True)
        if dev.device_type in CPU_READABLE:
            # It used to be refused under copy=False and flagged IS_COPIED without a copy
            # (test_ndarray.py).
            host = _copy_for_export(host_view(x)) if copy else host_view(x)
            return _make(host, max_version,
                         extra_flags=DLPACK_FLAG_BITMASK_IS_COPIED if copy else 0)
    if copy is False:
        raise BufferError(f"exporting to device {dl_device} needs a copy from {dev}, "
                          "and copy=False forbids it")
    if dl_device != (1, 0):
        raise BufferError(f"cannot export {dev} memory to device {dl_device}: dltensor "
                          "copies an export only to the CPU, (kDLCPU, 0); move it with a "
                          "library that reaches both devices")
    return _make(x.to_device(CPU), max_version, extra_flags=DLPACK_FLAG_BITMASK_IS_COPIED)


def _check_host_stream(dev: Device, stream: Any, to_cpu: bool = False) -> None:
    """Streams for CPU-readable memory: None, or (not for an export to the CPU, where the spec
    asks None) a CUDA stream int for pinned and managed memory, which a GPU consumer reads on
    its stream. TypeError for what is no int, as for CUDA memory."""
    if stream is None:
        return
    if dev.device_type in STREAMED_HOST and not to_cpu:
        _check_stream(dev, stream, (0,))  # (0: CUDA's rule)
        return
    where = f"memory on {dev}{' exported to the CPU' if to_cpu else ''}"
    if type(stream) is not int:
        raise TypeError(f"stream must be None for {where}, not {type(stream).__name__}")
    raise BufferError(f"stream must be None for {where}, not {stream!r}")


def _check_stream(dev: Device, stream: Any, forbidden: tuple[int, ...]) -> None:
    """A stream value as the spec's ``__dlpack__`` takes it: an int (TypeError), -1 or a
    handle (ValueError), none the device's rules forbid (BufferError)."""
    if type(stream) is not int:
        raise TypeError(f"stream must be None or an int for memory on {dev}, "
                        f"not {type(stream).__name__}")
    if not -1 <= stream < 1 << 64:
        raise ValueError(f"stream must be -1 or a stream handle (below 2**64) for memory on "
                         f"{dev}, not {stream!r}")  # (which values a device forbids: below)
    if stream in forbidden:
        raise BufferError(f"stream={stream!r} is not allowed for memory on {dev} (the array "
                          "API standard's __dlpack__ stream rules)")


def _copy_for_export(x: ndarray) -> ndarray:
    from ._moves import bytes_copied  # (float8 on a GPU, whose CuPy has it not: its bytes,
    copied = bytes_copied(x)  # as astype and from_dlpack(copy=True) copy it there)
    if copied is not None:
        return copied
    if not _computable(x):
        raise BufferError(f"dltensor cannot copy this {x.dtype.name} memory on device "
                          f"{x._device} (it cannot compute on it); export without copy=True")
    from ._dispatch import on
    with on(x._device):
        a = x._compute().copy("K")
    return wrap(a, CPU if isinstance(a, np.ndarray) else x._device)


def _make(x: ndarray, max_version: tuple[int, int] | None, extra_flags: int = 0) -> object:
    owner, data, offset, dtype, shape, strides, flags = _describe(x)
    versioned = max_version is not None and max_version[0] >= 1
    if flags & DLPACK_FLAG_BITMASK_READ_ONLY and not versioned:
        raise BufferError("this array is read-only and a legacy DLPack capsule cannot say so; "
                          "ask with max_version=(1, 0)" + (" or copy=True" if _computable(x)
                                                            else ""))
    version = (1, min(max_version[1], _dlpack.DLPACK_MINOR_VERSION)
               if max_version[0] == 1 else _dlpack.DLPACK_MINOR_VERSION) \
        if versioned and max_version is not None else None  # (versioned implies not None)
    if flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED and (version or (0, 0)) < (1, 1):
        # Sub-byte elements are packed unless this flag (DLPack 1.1) says each fills a byte: a
        # consumer that cannot be told would read every byte as several elements.
        raise BufferError(f"this {x.dtype.name} tensor stores one element per byte, which only "
                          "a DLPack 1.1 capsule can say; ask with max_version=(1, 1)")
    flags |= extra_flags
    dev = x._device
    return _dlpack.make_capsule(owner, data=data, byte_offset=offset,
                                device=(int(dev.device_type), dev.device_id), dtype=dtype,
                                shape=shape, strides=strides, flags=flags, version=version)
