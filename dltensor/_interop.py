"""Getting arrays in and between devices: ``from_dlpack``, ``asarray`` and device moves.

Everything that arrives becomes an ndarray without a copy when its memory can be shared: DLPack
producers and bare capsules, ``__cuda_array_interface__``, ``__array_interface__`` and the buffer
protocol. Python scalars and nested sequences are copied, as the spec says.
"""

from __future__ import annotations

import array
import operator
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _dlpack
from ._array import CPU_READABLE, backend_pointer, copy_flag, element_strides, from_tensor
from ._array import STREAMED_HOST, held_streams
from ._array import host_view, ndarray, wrap
from ._backends import NoBackendError, backend_for, backend_or_none
from ._dlpack.abi import DLDeviceType
from ._devices import CPU, CUDA_TYPE, Device, as_device, get_default_device
from ._dispatch import NULL_CONTEXT, allocatable, fresh, native_dtype, on
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, PYTHON_SCALARS, DType, dtype_from_numpy
from ._dtypes import cast, refuse_complex_to_real

__all__ = ["asarray", "from_dlpack", "move", "copied", "computed", "cast_first", "CopyError"]

_np_ndarray = np.ndarray
# The spec's default dtypes for Python scalars and sequences of them.
_SCALAR_CLASSES = tuple(PYTHON_SCALARS)  # (for isinstance: NumPy's float64 is a float)
_DEFAULT_FOR_KIND = {"b": np.dtype(np.bool_), "i": np.dtype(np.int64), "u": np.dtype(np.int64),
                     "f": np.dtype(np.float64), "c": np.dtype(np.complex128)}


def from_dlpack(x: Any, /, *, device: Device | str | tuple[int, int] | None = None,
                copy: bool | None = None) -> ndarray:
    """Import any DLPack producer (or a bare DLPack capsule) without a copy.

    ``device`` moves the result there (copying); ``copy=True`` always copies, ``copy=False``
    never does and raises BufferError where a copy would be needed.
    """
    tp = type(x)
    if isinstance(x, _np_ndarray) and x.dtype in FROM_NUMPY:
        # Taken as it is (NumPy's __dlpack__ cannot export ml_dtypes' bfloat16 or float8),
        # subclasses (memmap) as plain arrays; _finish, below, applies device= and copy=.
        v = x.view() if tp is _np_ndarray else x.view(_np_ndarray)
        taken = wrap(v) if x.base is None else _numpys(v)
        if device is None and copy is None:
            return taken
        x = taken
    elif device is None and copy is None:
        imp = _importers.get(tp)
        if imp is not None:
            return imp(x)
    copy = copy_flag(copy)  # (checked before any producer sees it)
    if device is not None:
        device = as_device(device)  # (a bad one refused before a capsule is consumed)
    if isinstance(x, ndarray):
        return _finish(x, None, device, copy)
    if _dlpack.is_capsule(x):
        return _finish_capsule(x, None, device, copy)
    if not hasattr(x, "__dlpack__"):
        raise NoDLPackError(f"from_dlpack needs an object with __dlpack__ or a DLPack capsule, "
                            f"not {type(x).__name__}")
    own = device if device is not None and copy and _on_its_own(x, device) else None
    if own is not None:
        device = None  # (a copy on its own device is its producer's to make, as without one)
    if device is None and copy is None:
        return _importer_for(type(x))(x)
    if device is None and copy:
        if _on_a_gpu_here(x):
            # A GPU producer's copy is its own to order, and PyTorch's is not: its __dlpack__
            # makes the consumer's stream wait, then clones on its own. Taken as it is (in
            # order), the memory is copied here, on CuPy's stream.
            return copied(_importer_for(type(x))(x))
        try:
            out = _import_capsule(x, True)
        except (BufferError, NotImplementedError):
            # A producer that copies only across devices (CuPy), or not this dtype (PyTorch's
            # uint1..uint7 and int1..int7: "copy_kernel" not implemented): take its memory and
            # copy it here, but for a copy asked on pinned memory's own device, which NumPy's
            # pageable memory is not (refused, as _finish refuses it)
            if own is not None and own.device_type in CPU_READABLE and own is not CPU:
                raise BufferError(f"dltensor cannot allocate {own} memory for a copy (NumPy "
                                  "allocates pageable CPU memory); ask for device='cpu'") \
                    from None
            return copied(_importer_for(type(x))(x))
        if own is not None and out._device != own and own.device_type in CPU_READABLE:
            # (its copy elsewhere, pageable host memory for pinned: not the device asked)
            raise BufferError(f"the producer's copy is on {out._device}, not on {own} as "
                              "asked; ask for device='cpu' or no device")
        # A copy asked for is the caller's to write, but a producer may mark even its copies
        # read-only (JAX 0.12 marks every export so): then it is copied once more, here.
        return copied(out) if out.read_only else out
    if device is CPU:  # (as_device's one CPU)
        host = _host_copy(x, copy)
        if host is not None:
            return host
    if device is None:
        return _import_capsule(x, copy)
    # (the plain import, fast for NumPy and PyTorch; _finish moves and copies.) copy=False is
    # asked of a producer taken through __dlpack__, as without device=: one too old to take it
    # cannot promise it. (The C exchange API hands out the tensor itself.)
    imp = _importer_for(type(x))
    return _finish(_import_capsule(x, False) if copy is False and imp is _import_capsule
                   else imp(x), None, device, copy)


def _on_its_own(x: Any, device: Device) -> bool:
    """Whether producer ``x`` says its memory is on ``device``."""
    try:
        return as_device(x.__dlpack_device__()) == device
    except Exception:
        return False  # __dlpack__ says what is wrong, later, in the producer's words


def _host_copy(x: Any, copy: bool | None) -> ndarray | None:
    """``x`` copied to the CPU by its producer, asked with ``dl_device`` as the standard
    provides since 2023.12 (NumPy's from_dlpack asks so too): a ROCm or Metal library can copy
    memory that dltensor can only hold. None where ``x`` is host memory already, or where its
    producer cannot or will not copy: it is then imported and moved here, or refused."""
    if copy is False:  # (a view, or a refusal: move's)
        return None
    on_host = _for_type(_HOST_PROBES, _host_probe_by_type, type(x))
    if on_host is not None and on_host(x):
        return None
    try:
        device_type, device_id = x.__dlpack_device__()
        if device_type in CPU_READABLE:
            return None
    except Exception:
        return None  # __dlpack__ says what is wrong, below, in the producer's words
    _refuse_known_bad(x)
    # Asked on the producer's GPU, as imports are (_request): CuPy copies on the *current*
    # GPU's current stream (get(stream=None)), which for an array on another GPU is not
    # where its work is queued; PyTorch refuses a tensor not on the current GPU.
    gpus = _gpus(device_id) if device_type == CUDA_TYPE and type(device_id) is int and \
        0 <= device_id < 1 << 31 else None
    try:
        with gpus.on(device_id) if gpus is not None else NULL_CONTEXT:
            capsule = _dlpack.request_capsule(x, dl_device=(DLDeviceType.kDLCPU, 0), copy=copy)
    except MemoryError:  # (CuPy's OutOfMemoryError too) the spec: propagated, as NumPy does
        raise
    except Exception:  # a refusal, in each library's words: BufferError, NotImplementedError
        return None    # (PyTorch), RuntimeError (JAX): imported and moved here instead
    if not _dlpack.is_capsule(capsule):
        return None
    out = from_tensor(_dlpack.consume_capsule(capsule))
    if out._device != CPU:  # a producer that ignored dl_device: moved (or refused) here
        return _finish(out, None, CPU, copy)
    # A copy asked for is the caller's to write (see from_dlpack's copy=True).
    return copied(out) if copy and out.read_only else out


def _refuse_known_bad(x: Any) -> None:
    """BufferError for what a producer's __dlpack__ would export wrongly (see _REFUSALS; its
    subclasses too: a torch.Tensor subclass keeps its type through PyTorch's operations)."""
    tp = type(x)
    refusal = _for_type(_REFUSALS, _refusal_by_type, tp)
    if refusal is not None:
        why = refusal(x)
        if why is not None:
            raise BufferError(f"dltensor cannot take this {tp.__name__}: {why}")


def _exports_with_a_copy(x: Any) -> bool:
    """Whether ``x`` exports when a copy is allowed (on an error path: a refusal under
    copy=False is then about the copy). The capsule is dropped unconsumed: its destructor
    releases it, as the protocol says."""
    try:
        return _dlpack.is_capsule(_request(x, None))
    except Exception:
        return False


class NoDLPackError(TypeError, AttributeError):
    """from_dlpack's argument has no ``__dlpack__``: a wrong type, and the AttributeError the
    spec names for it (as NumPy's from_dlpack raises)."""


class CopyError(BufferError, ValueError):
    """A copy is needed and ``copy=False`` forbids it. Both classes, as the spec asks for both:
    BufferError in from_dlpack's ``copy`` text, ValueError in its ``device`` text and in
    asarray's."""


def _import_capsule(x: Any, copy: bool | None = None) -> ndarray:
    """Import a DLPack producer through its ``__dlpack__`` (the standard's consumer recipe).
    The producer's own errors propagate as they are (out of memory, a deleted array), as the
    spec asks of from_dlpack."""
    _refuse_known_bad(x)
    try:
        capsule = _request(x, copy)
    except BufferError as e:
        if copy is False and not isinstance(e, (ValueError, _dlpack.PreDLPack1Producer)) and \
                _exports_with_a_copy(x):
            # Refused under copy=False, given with copying allowed: the copy it needs (the
            # spec's reason for this error), in the producer's words.
            raise CopyError(str(e)) from e
        raise
    except RecursionError:  # (its __dlpack__ asked dltensor for itself, and so on)
        raise BufferError(f"{type(x).__name__}.__dlpack__ recursed without end") from None
    if not _dlpack.is_capsule(capsule):
        raise BufferError(f"{type(x).__name__}.__dlpack__ returned a "
                          f"{type(capsule).__name__}, not a DLPack capsule")
    return from_tensor(_dlpack.consume_capsule(capsule))


def _gpus(device_id: int = 0) -> Any:
    """The CuPy backend where it computes on GPU ``device_id``; None where it cannot (no CuPy,
    or no such GPU here: such memory is held, as on any device dltensor cannot reach)."""
    return backend_or_none(as_device((CUDA_TYPE, device_id)))  # (cached: ~0.1 us)


def _on_a_gpu_here(x: Any) -> bool:
    """Whether producer ``x``'s memory is on a CUDA GPU CuPy computes on."""
    try:
        device_type, device_id = x.__dlpack_device__()
    except Exception:
        return False  # (__dlpack__ says what is wrong, in the producer's words)
    return bool(device_type == CUDA_TYPE and _gpus(device_id) is not None)


def _request(x: Any, copy: bool | None) -> object:
    """``x.__dlpack__`` asked the way cupy.from_dlpack asks: for CUDA memory, on the producer's
    GPU (PyTorch refuses to export from another) with CuPy's current stream there, since that
    is where dltensor will compute on it. CPU producers, and every producer while CuPy is not
    even imported (then no stream of the process can be CuPy's), are asked with stream=None,
    the spec's legacy default, at no cost (JAX's __dlpack_device__ alone is ~1 us)."""
    if "cupy" in sys.modules:
        try:
            device_type, device_id = x.__dlpack_device__()
        except Exception:
            device_type = device_id = None  # __dlpack__ then says what is wrong, in its words
        gpus = None
        if (device_type == DLDeviceType.kDLCUDA or device_type in STREAMED_HOST) and \
                type(device_id) is int and device_id >= 0:  # (else the consumer says what)
            gpus = _gpus(device_id)
        if gpus is not None and device_type in STREAMED_HOST:
            # Pinned or managed memory NumPy will read on the host. A managed tensor's
            # producer orders the legacy default stream after its work; pinned tensors take
            # no stream (PyTorch's are CPU tensors to it, and it refuses one, as JAX knows).
            # Either way the host then waits for the legacy default stream of that GPU, where
            # the managed producer ordered its work; for pinned memory that covers work on
            # blocking streams only (PyTorch orders nothing for pinned tensors, and its
            # torch.cuda.Stream()s do not sync with the legacy stream).
            capsule = None
            with gpus.on(device_id):
                if device_type == DLDeviceType.kDLCUDAManaged:
                    try:
                        capsule = _dlpack.request_capsule(x, copy=copy, stream=1)
                    except (AssertionError, BufferError, ValueError):
                        pass
                if capsule is None:
                    capsule = _dlpack.request_capsule(x, copy=copy)
                gpus.synchronize(1)
            return capsule
        if gpus is not None:  # CUDA memory on a GPU CuPy computes on
            with gpus.on(device_id):
                stream = gpus.consumer_stream(device_id)
                try:
                    return _dlpack.request_capsule(x, copy=copy, stream=stream)
                except BufferError:
                    if stream != 2:
                        raise
                # PyTorch refuses the per-thread default stream (CuPy's under
                # CUPY_CUDA_PER_THREAD_DEFAULT_STREAM=1); that stream waits for the legacy
                # default one, so asking for the latter orders it too.
                return _dlpack.request_capsule(x, copy=copy, stream=1)
    # (held memory, never computed on: the spec's default is all one can say)
    return _dlpack.request_capsule(x, copy=copy)


# The plain imports (no dtype, device or copy asked), one function per exact type, found once.
_importers: dict[type, Callable[[Any], ndarray]] = {
    ndarray: lambda x: x,
    _dlpack.capsule._CapsuleType: lambda c: from_tensor(_dlpack.consume_capsule(c)),
}


def _scalar_importer(npdt: np.dtype[Any]) -> Callable[[Any], ndarray]:
    """asarray of a Python scalar of one type, on the CPU as default device: its 0-d array in
    the spec's default dtype for it, made directly (the general path tries every protocol
    first: ~4.5 us, where NumPy takes 0.1). Elsewhere, and for ints past int64, the general
    path (which moves, or raises OverflowError)."""
    int_range = npdt.kind == "i"

    def imp(v: Any) -> ndarray:
        if (int_range and not -_INT64_END <= v < _INT64_END) or get_default_device() is not CPU:
            return _from_python(v, None, None, None)
        return wrap(np.array(v, dtype=npdt))
    return imp


_INT64_END = 1 << 63
# asarray's plain imports of what offers no protocol (from_dlpack refuses these); nested
# sequences go straight to their path.
_python_importers: dict[type, Callable[[Any], ndarray]] = {
    tp: _scalar_importer(_DEFAULT_FOR_KIND[np.dtype(tp).kind])
    for tp in (bool, int, float, complex)}
_python_importers[list] = _python_importers[tuple] = lambda v: _from_python(v, None, None, None)
_PYTHON_SEQUENCE_OR_SCALAR = frozenset((list, tuple, bool, int, float, complex))


def _torch_exchangeable(t: Any) -> Device | int | None:
    # Where PyTorch's C exchange API (2.11+) may take `t` from: the CPU, or a GPU by index;
    # None for other devices (ROCm's tensors, which PyTorch also calls "cuda", among them) and
    # for what torch.Tensor.__dlpack__ refuses and the C path does not check: exporting a
    # conjugate view through it would hand out un-conjugated values (negative views: see
    # _torch_refusal).
    if t.requires_grad or t.is_conj() or t.is_neg():
        return None
    if t.is_cpu:
        return CPU
    # (get_device: the index, without a torch.device object)
    return t.get_device() if t.is_cuda and sys.modules["torch"].version.hip is None else None


def _torch_refusal(t: Any) -> str | None:
    # torch.Tensor.__dlpack__ refuses conjugate views but exports negative ones (z.conj().imag)
    # as their memory, whose values are the view's negated: wrong signs, silently (NumPy's
    # from_dlpack reads them so). Refused here as PyTorch refuses conjugate views.
    if t.is_neg():
        return ("a negative view (its memory holds its values negated, which DLPack cannot "
                "say); call .resolve_neg() on it first")
    if t.is_nested:  # (its __dlpack__ fails with "Internal error: ... Please file an issue")
        return ("a nested tensor (tensors of different shapes, which one DLPack tensor cannot "
                "describe); take its tensors with .unbind(), or .to_padded_tensor(0)")
    return None


# Producers whose C exchange API (DLPack 1.3) is used, each with where it may take a tensor from
# (the CPU, a CUDA GPU's index, or None: through __dlpack__, which makes checks the C path
# skips). Any other type goes through __dlpack__.
_EXCHANGE_GUARDS: dict[str, Callable[[Any], Device | int | None]] = {
    "torch.Tensor": _torch_exchangeable}
# Producers whose __dlpack__ exports some tensors wrongly: what to refuse, and why.
_REFUSALS: dict[str, Callable[[Any], str | None]] = {"torch.Tensor": _torch_refusal}
_refusal_by_type: dict[type, Callable[[Any], str | None] | None] = {}
# Producers that say cheaply whether a tensor is in host memory, where __dlpack_device__ costs
# (PyTorch's is Python code: 3.7 us, is_cpu 0.1): from_dlpack(x, device="cpu") imports such a
# tensor as it is, with no ask for a host copy (13.8 us a call, from_dlpack(x) 5).
_HOST_PROBES: dict[str, Callable[[Any], bool]] = {"torch.Tensor": lambda t: bool(t.is_cpu)}
_host_probe_by_type: dict[type, Callable[[Any], bool] | None] = {}
_UNKNOWN: Any = object()
_TYPES_KEPT = 256


def _for_type(table: dict[str, Any], cache: dict[type, Any], tp: type) -> Any:
    """``table``'s entry for type ``tp`` or its nearest base named there (a torch.Tensor
    subclass keeps its type through PyTorch's operations), None for none; found once a type."""
    found = cache.get(tp, _UNKNOWN)
    if found is _UNKNOWN:
        found = next((table[n] for n in (f"{c.__module__}.{c.__qualname__}"
                                          for c in tp.__mro__) if n in table), None)
        _remember(cache, tp, found)
    return found


def _remember(cache: dict[type, Any], tp: type, value: Any) -> None:
    """``cache[tp] = value`` in a cache of at most _TYPES_KEPT types, each kept alive by its
    entry: when full, the one learned first goes (a class made per call was kept for ever;
    nor may such classes crowd out the types in use now)."""
    if len(cache) >= _TYPES_KEPT:
        # (a copy of the keys: another thread may insert meanwhile; the two built-in
        # importers stay.) As many go as it is over: threads that found it full at once each
        # dropped the same one and each added theirs, and it grew without bound
        old = [k for k in list(cache) if k is not ndarray
               and k is not _dlpack.capsule._CapsuleType]
        for k in old[:len(cache) - _TYPES_KEPT + 1]:
            cache.pop(k, None)
    cache[tp] = value


def _importer_for(tp: type) -> Callable[[Any], ndarray]:
    imp = _importers.get(tp)
    if imp is None:
        # Not NumPy's C consumer, though it is faster for JAX: it imports legacy capsules
        # read-only (numpy#28600), and the array could then not go back to JAX, which asks for
        # legacy capsules only.
        name = f"{tp.__module__}.{tp.__qualname__}"
        guard = _EXCHANGE_GUARDS.get(name)
        take = _dlpack.managed_tensor_taker(tp) if guard is not None else None
        if name == "cupy.ndarray":
            imp = _take_cupy
        elif take is None or guard is None:  # (take implies guard: the second for mypy)
            imp = _import_capsule
        else:
            imp = _exchange_importer(take, guard, _dlpack.current_stream_getter(tp))
        if not issubclass(tp, _np_ndarray) and hasattr(tp, "__dlpack__"):
            # (not NumPy's subclasses: asarray's fast path would then find __dlpack__'s
            # importer for them, which refuses the byte orders asarray converts; nor types
            # whose instances have __dlpack__ by instance: a proxy's __getattr__, a class
            # passed as an array, whose type is `type`)
            _remember(_importers, tp, imp)
    return imp


def _take_cupy(c: Any) -> ndarray:
    # CuPy's arrays are what dltensor computes with on CUDA: wrapped as they are (a view, so a
    # later reshape of `c` in place does not reach ours), as NumPy's are on the CPU. Their work
    # is queued on CuPy's current stream, where dltensor computes too: nothing to order.
    if c.dtype in FROM_NUMPY:
        return wrap(c.view(), as_device((DLDeviceType.kDLCUDA, c.device.id)))
    return _import_capsule(c)


def _exchange_importer(take: Callable[[object], int], where: Callable[[Any], Device | int | None],
                       stream_of: Callable[[int, int], int] | None) -> Callable[[Any], ndarray]:
    # A trusted C producer's CPU tensor goes to NumPy's C consumer, which validates, owns and
    # releases it in C (~1 us less than ours in Python; the array's managed tensor then lives
    # as the base of its NumPy view). Its CUDA tensor, when the producer says which stream
    # its work is on, comes to our consumer once CuPy's current stream there is ordered after
    # that one, as its __dlpack__ would order it (11.6 us an import on the H200, from 50 us
    # through PyTorch's __dlpack__, which makes Python stream and event objects on every call).
    # Anything else (bfloat16, which NumPy refuses; no CuPy) comes through __dlpack__ and our
    # own consumer.
    adopt = backend_for(CPU).adopt

    def taken(x: Any) -> int:
        try:
            return take(x)
        except Exception:
            return 0  # __dlpack__ (imp's last line) refuses it again, in the producer's words

    def imp(x: Any) -> ndarray:
        device = where(x)
        if device is CPU:
            address = taken(x)
            if address:
                a = adopt(address)
                if a is not None and a.size:  # (NumPy gives empty arrays a pointer of its own)
                    return wrap(a)
        elif isinstance(device, int) and stream_of is not None and "cupy" in sys.modules:
            gpus = _gpus(device)
            if gpus is not None:
                producer = stream_of(DLDeviceType.kDLCUDA, device) or 1  # (NULL: legacy default)
                if producer != gpus.consumer_stream(device):
                    gpus.wait_for(producer, device)
                address = taken(x)
                if address:
                    return from_tensor(_dlpack.own(address))
        return _import_capsule(x)
    return imp


def asarray(obj: Any, /, *, dtype: DType | None = None,
            device: Device | str | tuple[int, int] | None = None,
            copy: bool | None = None) -> ndarray:
    """An ndarray from any array, DLPack capsule, buffer, scalar or nested sequence.

    Shares memory whenever it can (``copy=None``), always copies with ``copy=True`` and raises
    ValueError with ``copy=False`` where a copy cannot be avoided.
    """
    if dtype is None and device is None and copy is None:
        tp = type(obj)
        if tp is _np_ndarray:
            if obj.dtype in FROM_NUMPY:
                # (a view's root may lie on pinned memory's capsule: _numpys)
                return wrap(obj.view()) if obj.base is None else _numpys(obj.view())
        else:
            imp = _importers.get(tp) or _python_importers.get(tp)
            if imp is not None:
                return imp(obj)
    copy = copy_flag(copy)
    if dtype is not None and type(dtype) is not DType:
        raise TypeError(f"dtype must be a dltensor dtype such as dltensor.float32, not {dtype!r}")
    if device is not None:
        device = as_device(device)  # (see from_dlpack)
    if type(obj) in _PYTHON_SEQUENCE_OR_SCALAR:  # (the commonest with a dtype or device: past
        return _from_python(obj, dtype, device, copy)  # the protocols, none of which it has)
    if isinstance(obj, ndarray):
        return _finish(obj, dtype, device, copy)
    if isinstance(obj, _np_ndarray):
        # _finish makes the one copy: `copy and False` handed it False after a copy, so a dtype
        # change under copy=True raised ValueError (tests/test_interop.py).
        return _finish(_from_numpy(obj, _no_copy(copy)), dtype, device, copy)
    if _dlpack.is_capsule(obj):
        return _finish_capsule(obj, dtype, device, copy)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, _SCALAR_CLASSES):
        if dtype is None:
            return from_dlpack(obj, device=device, copy=copy)
        # The producer copies only when nothing else will; _finish honours `copy` (it used to
        # be dropped when dtype was given: no copy, or a ValueError). A host copy the producer
        # can make is still asked for (see from_dlpack).
        return _finish(from_dlpack(obj, device=CPU if device == CPU else None,
                                   copy=False if copy is False else None), dtype, device, copy)
    if isinstance(obj, np.generic):
        # Before the buffer check: datetime64 scalars export raw bytes ('B') through it.
        if copy is False:  # (an array of a NumPy scalar is a copy of it, as NumPy says)
            raise ValueError("copy=False: a NumPy scalar must be copied into an array")
        # A scalar, as a Python one or a list of it (made on the default device), not an array
        # (whose memory's device is kept): CuPy and PyTorch put it on their default device too
        if device is None:
            device = get_default_device()
            if device is CPU:  # (made there already: _finish's device checks cost ~1 us)
                device = None
        return _finish(_from_numpy(np.asarray(obj), None), dtype, device, copy)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return _finish(_from_cuda_array_interface(obj, cai), dtype, device, copy)
    if hasattr(obj, "__array_interface__") or hasattr(obj, "__array_struct__") or \
            _has_buffer(obj):
        # (the C form of the interface too: taken for a sequence, it was copied to float64)
        src = _from_buffer(obj) if _has_buffer(obj) else np.asarray(obj)
        return _finish(_from_numpy(src, _no_copy(copy)), dtype, device, copy)
    if hasattr(obj, "__array__") and not isinstance(obj, (list, tuple)):
        # An array of its own (h5py, zarr, xarray...): its dtype, not the defaults the spec
        # gives Python scalars; a copy only where NumPy's protocol says its __array__ made one.
        src = np.asarray(obj, copy=copy)  # (its __array__ makes the copy asked for, if any)
        return _finish(_from_numpy(src, _no_copy(copy)), dtype, device, None if copy else copy)
    return _from_python(obj, dtype, device, copy)


def _no_copy(copy: bool | None) -> bool | None:
    """What _from_numpy gets when _finish will copy: never a copy, but copy=False still binds."""
    return False if copy is False else None


def _from_buffer(obj: Any) -> npt.NDArray[Any]:
    view = memoryview(obj)
    try:
        return np.asarray(view)
    except ValueError as e:  # ('g', 'P', ctypes' '<u'...: the TypeError of their NumPy dtypes)
        if "format" not in str(e):
            raise
        raise TypeError(f"dltensor has no dtype for the buffer format {view.format!r}") from None


def _has_buffer(obj: Any) -> bool:
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def _from_numpy(a: npt.NDArray[Any], copy: bool | None) -> ndarray:
    """Wrap a NumPy array (subclasses and non-native byte orders too)."""
    if a.dtype not in FROM_NUMPY:
        if a.dtype.kind in "biufc" and not a.dtype.isnative:
            if copy is False:
                raise ValueError(f"byte-swapped dtype {a.dtype} needs a copy to native order")
            return wrap(a.astype(a.dtype.newbyteorder("=")))
        dtype_from_numpy(a.dtype)  # raises the TypeError naming the dtype
    a = a.view(np.ndarray)
    return wrap(a.copy("K")) if copy else _numpys(a)


def _numpys(a: npt.NDArray[Any]) -> ndarray:
    """A view ``a`` of a NumPy array, taken as it is: on the CPU, or on the device NumPy says
    its memory is, where np.from_dlpack made it of pinned or managed memory (NumPy's exports
    of it say cuda_host: labelled cpu, dltensor passed them on as a cpu array's). NumPy asked
    only where the root of ``a`` lies on a capsule, as np.from_dlpack's arrays do."""
    base: Any = a.base
    while type(base) is _np_ndarray:
        base = base.base
    if type(base) is not _CAPSULE:
        return wrap(a)
    device = a.__dlpack_device__()
    return wrap(a) if device[0] == 1 else wrap(a, as_device(device))


_CAPSULE = type(np.empty(0).__dlpack__())


def _from_python(obj: Any, dtype: DType | None, device: Device | str | tuple[int, int] | None,
                 copy: bool | None) -> ndarray:
    if copy is False:
        raise ValueError("copy=False: a Python scalar or sequence must be copied into an array")
    # (one walk for the rare: strings, and ints past int64, which NumPy makes uint64, float64
    # or objects; looked at closely only where found). Lists of Python numbers, and rows of
    # them, are looked at once, at C speed: NumPy's dtype for them says if an int is past int64.
    numbers = _number_kinds(obj) if type(obj) is list or type(obj) is tuple else None  # (no
    # call for a scalar: ~0.07 us of asarray(1.5, dtype=float32)'s 2)
    plain = numbers is not None
    unusual = not plain and _any_unusual(obj)
    if unusual and _any_leaf(obj, lambda e: isinstance(e, (str, bytes))):
        # (bytes too, in a sequence: NumPy parsed [b"12"] with dtype=int64 as 12)
        raise TypeError("dltensor arrays hold numbers, not strings")
    npdt = native_dtype(dtype)  # (TypeError for a dtype held only: int4, float4...)
    # (new memory there, as zeros() makes: NoBackendError as it raises; with no device asked,
    # checked once the result is made, as arrays in obj may decide it)
    dev = None if device is None else allocatable(as_device(device))
    try:
        if dtype is None:
            a = np.asarray(obj)
            if a.dtype == object and _holds_foreign(obj):
                # (objects offering DLPack alone: NumPy holds them as objects, raising nothing)
                raise TypeError(f"NumPy cannot read the arrays in this {type(obj).__name__}")
        elif not plain and _holds_arrays(obj):  # (cast as astype casts them: complex ones
            # not to reals)
            a = np.asarray(obj)
            src = FROM_NUMPY.get(a.dtype)
            if src is not None:
                refuse_complex_to_real("asarray", src, dtype)
            if npdt is not None and npdt.kind in "iu":  # (Python ints beside them must fit)
                info = np.iinfo(npdt)
                for e in _leaves(obj):
                    if isinstance(e, int) and not info.min <= e <= info.max:  # (and IntEnum)
                        raise OverflowError(f"Python integer {e} out of bounds for {npdt}")
            a = cast(a, npdt)
        else:
            a = _asarray_in(obj, npdt)
    except (BufferError, TypeError, RuntimeError) as e:
        # A sequence holding arrays NumPy cannot read (CUDA: ours raise BufferError, CuPy's
        # and PyTorch's TypeError; PyTorch's needing grad, RuntimeError): built from their
        # host copies and placed on their device, where a sequence of arrays belongs.
        devices = _devices_in(obj)
        if not devices - {CPU}:
            if type(e) is TypeError and _any_leaf(obj, lambda v: isinstance(v, ndarray)):
                # NumPy joins 0-d arrays of ml_dtypes' floats given as NumPy arrays, not
                # through __array__ ("expected number, got ndarray")
                return _from_python(_as_numpy(obj), dtype, device, copy)
            if not _holds_foreign(obj):
                if dtype is not None and type(e) is TypeError and \
                        any(type(v) is complex for v in _leaves(obj)):
                    # (NumPy says "float() argument must be ... not 'complex'")
                    refuse_complex_to_real("asarray", FROM_NUMPY[np.dtype(np.complex128)],
                                           dtype)
                raise  # (nothing on a device NumPy cannot read: NumPy's own error stands)
            # CPU arrays NumPy's protocols refuse (PyTorch's bfloat16 .numpy()): through DLPack
            return _from_python(_foreign_taken(obj), dtype, device, copy)
        obj = _foreign_taken(obj)
        if len(devices) != 1:
            raise ValueError(f"cannot make one array of arrays on different devices "
                             f"({', '.join(sorted(map(str, devices)))})") from None
        where = devices.pop()
        if device is None or dev == where:  # (no move asked for: on held memory, the error
            backend_for(where)              # of any other call that would compute there)
        return _from_python(_on_host(obj), dtype, where if device is None else device, copy)
    except ValueError as e:
        if _holds_foreign(obj):  # (NumPy saw DLPack-only arrays as objects of no shape)
            return _from_python(_foreign_taken(obj), dtype, device, copy)
        raise ValueError(f"cannot make an array from this {type(obj).__name__}: {e}") from None
    if dtype is None:
        if numbers is not None:  # (ints alone are int64 to NumPy but for one past it:
            # uint64, float64 or objects; with floats, float64 whatever the ints; no number,
            # float64 too: looked at again, asarray([]) took 4.2 us, not 2.3)
            unusual = a.dtype.kind == "O" or a.dtype.kind in "uf" and bool(numbers) and \
                numbers <= _INTS
        if unusual and a.dtype.kind in "uOf" and (plain or not _holds_arrays(obj)):
            # Ints beyond int64: NumPy makes uint64, float64 or objects of them. The spec says
            # int64 for ints alone, too small for them; with floats, float64 or complex128.
            # (subclasses as their Python type: an IntFlag of bit 63 wrapped to a negative)
            kinds = {next((k for k in _PY_KINDS if isinstance(e, k)), type(e))
                     for e in _leaves(obj)}
            if kinds <= {bool, int}:
                big = next((e for e in _leaves(obj) if not -2 ** 63 <= e < 2 ** 63), None)
                if big is not None:  # (else uint8 from buffers, say: no int past int64)
                    raise OverflowError(f"Python integer {big} is out of bounds for int64, "
                                        "the default integer dtype; give dtype= (uint64?) or "
                                        "use floats")
            if a.dtype.kind == "O" and kinds <= {bool, int, float, complex}:
                a = np.asarray(obj, dtype=np.complex128 if complex in kinds else np.float64)
        default = _DEFAULT_FOR_KIND.get(a.dtype.kind)
        if default is None and a.dtype in EXTENSION_FLOATS and _holds_arrays(obj):
            default = a.dtype  # (arrays or scalars of an ml_dtypes float: NumPy's kind 'V')
        if default is None:
            raise TypeError(f"cannot make an array of {type(obj).__name__} "
                            f"(NumPy sees dtype {a.dtype})")
        if a.dtype != default and (plain or not _holds_arrays(obj)):
            a = a.astype(default)
        elif not a.dtype.isnative:  # (NumPy keeps the byte order of a sequence of one such
            a = a.astype(a.dtype.newbyteorder("="))  # array, [big-endian]: KeyError in wrap)
    # Non-array input lands on the default device, as the spec says (and zeros() does); host
    # arrays in a sequence keep the result on the CPU (the spec: "the device of the input
    # array(s), if any"; no copy to the default device).
    x = wrap(a)
    if dev is None:
        dev = get_default_device()
        if dev is not CPU and not plain and _holds_arrays(obj) and _devices_in(obj):
            return x
        dev = allocatable(dev)
    return x if dev is CPU else move(x, dev, copy=None)


def _asarray_in(obj: Any, npdt: Any) -> npt.NDArray[Any]:
    """NumPy's array of a scalar or sequence in ``npdt``; ints past int64 reach ml_dtypes'
    floats through float64 (ml_dtypes converts no such int: "expected number, got int")."""
    try:
        return np.asarray(obj, dtype=npdt)
    except TypeError:
        if npdt not in EXTENSION_FLOATS:
            raise
        return np.asarray(obj, dtype=np.float64).astype(npdt)


def _any_unusual(obj: Any) -> bool:
    """_any_leaf(obj, _unusual), at C speed for a flat list or tuple of Python numbers, the
    commonest sequence (a call per element cost ~0.5 us per 10)."""
    if type(obj) is list or type(obj) is tuple:
        kinds = set(map(type, obj))
        if kinds <= _NO_INTS:
            return False
        if kinds <= _REALS:  # (a NaN makes min or max NaN, never a wrong int: unusual then)
            return not (-_INT64_END <= min(obj) and max(obj) < _INT64_END)
    return _any_leaf(obj, _unusual)


_NO_INTS, _REALS = frozenset({float, bool, complex}), frozenset({int, float, bool})
_PY_KINDS = (bool, int, float, complex)  # (bool first: it is an int)


def _number_kinds(obj: Any, depth: int = 0) -> set[type] | None:
    """The types of the numbers in ``obj`` where it is a list or tuple of Python numbers, or of
    rows of them (nested), the commonest sequences (nothing in them is an array or a string);
    else None. One C-speed look per row, where _any_unusual's and _holds_arrays' walks made a
    call per element of nested lists (asarray of a 1000 x 1000 list of floats took 7x NumPy's
    time, of a list of 1e6 ints with a dtype 10x)."""
    if (type(obj) is not list and type(obj) is not tuple) or depth >= _DEEPEST:
        return None
    kinds = set(map(type, obj))
    if kinds <= PYTHON_SCALARS:
        return kinds
    if not kinds <= _ROWS:
        return None
    found: set[type] = set()
    for e in obj:
        row = _number_kinds(e, depth + 1)
        if row is None:
            return None
        found |= row
    return found


_ROWS, _INTS = frozenset({list, tuple}), frozenset({int, bool})


def _unusual(e: Any) -> bool:
    """A string, an int past int64, or a sequence _any_leaf does not walk (a range...)."""
    tp = type(e)
    if tp is float or tp is bool or tp is complex:
        return False
    if tp is int or isinstance(e, int):  # (an int subclass too: IntFlag, IntEnum)
        return not -_INT64_END <= e < _INT64_END
    return isinstance(e, (str, Sequence))


def _leaves(obj: Any) -> list[Any]:
    """The scalars of a scalar or nested sequence (any Sequence NumPy reads as one, such as
    a range: a check of lists and tuples alone let range(2**63, ...) wrap to negatives)."""
    if isinstance(obj, (list, tuple, range)) or (isinstance(obj, Sequence) and not isinstance(
            obj, (str, bytes, bytearray, memoryview, array.array))):
        return [e for item in obj for e in _leaves(item)]
    return [obj]


def _devices_in(obj: Any, depth: int = 0) -> set[Device]:
    """The devices of the arrays in a nested sequence (ours, and other libraries' as they say,
    before anything is imported)."""
    if isinstance(obj, ndarray):
        return {obj._device}
    if isinstance(obj, (list, tuple)):
        return set().union(*(_devices_in(e, depth + 1) for e in obj)) \
            if obj and depth < _DEEPEST else set()
    if isinstance(obj, np.ndarray):
        return {CPU}
    if hasattr(obj, "__dlpack_device__"):
        try:
            return {as_device(tuple(obj.__dlpack_device__()))}
        except Exception:
            return set()  # (NumPy's error about the sequence stands)
    return set()


def _any_leaf(obj: Any, test: Callable[[Any], bool], depth: int = 0) -> bool:
    """Whether ``test`` holds for any element of a nested list or tuple (``obj`` itself when it
    is none), looking no deeper than _DEEPEST."""
    if not isinstance(obj, (list, tuple)):
        return test(obj)
    if depth >= _DEEPEST:
        return False
    for e in obj:  # (a loop, not any() of a generator: a list of 1e4 floats is walked often)
        if isinstance(e, (list, tuple)):
            if _any_leaf(e, test, depth + 1):
                return True
        elif test(e):
            return True
    return False


def _each_leaf(obj: Any, f: Callable[[Any], Any]) -> Any:
    """A nested list or tuple as lists, ``f`` applied to each element (``obj`` itself when it
    is none)."""
    if isinstance(obj, (list, tuple)):
        return [_each_leaf(e, f) for e in obj]
    return f(obj)


def _is_foreign(obj: Any) -> bool:
    return hasattr(obj, "__dlpack_device__") and not isinstance(obj, (ndarray, np.ndarray))


def _holds_foreign(obj: Any) -> bool:
    """Whether a nested sequence holds another library's DLPack array."""
    return _any_leaf(obj, _is_foreign)


def _foreign_taken(obj: Any) -> Any:
    """A nested sequence with each other library's DLPack array in it taken as an ndarray."""
    return _each_leaf(obj, lambda e: asarray(e) if _is_foreign(e) else e)


def _as_numpy(obj: Any) -> Any:
    """A nested sequence with each of our (CPU) arrays in it as its NumPy array."""
    return _each_leaf(obj, lambda e: e._compute() if isinstance(e, ndarray) else e)


def _on_host(obj: Any) -> Any:
    """A nested sequence with each ndarray in it copied to the CPU."""
    return _each_leaf(obj, lambda e: e.to_device(CPU) if isinstance(e, ndarray) else e)


_DEEPEST = 64  # nesting past NumPy's most dimensions (or a list holding itself): NumPy's
# own ValueError then, not a RecursionError of the scans below


def _holds_arrays(obj: Any) -> bool:
    """Whether a sequence holds arrays, whose dtype (not the scalar default) must win."""
    return _any_leaf(obj, _is_array)


def _is_array(obj: Any) -> bool:
    # (other libraries' arrays too: a list of float32 PyTorch tensors made float64)
    # (and buffers, which NumPy reads with their own dtype: a list of a bytearray is uint8)
    # (and what offers NumPy's array interface, or a buffer: ctypes arrays; not bytes, which
    # NumPy reads as strings)
    return type(obj) not in PYTHON_SCALARS and (
        isinstance(obj, (ndarray, np.ndarray, np.generic, bytearray, memoryview, array.array))
        or hasattr(obj, "__dlpack__") or hasattr(obj, "__array__")
        or hasattr(obj, "__array_interface__") or hasattr(obj, "__array_struct__")
        or not isinstance(obj, (bytes, str)) and _has_buffer(obj))


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


def _finish(x: ndarray, dtype: DType | None, device: Device | str | tuple[int, int] | None,
            copy: bool | None) -> ndarray:
    """Apply the dtype, device and copy requests to an imported array."""
    if device is not None:
        dev = as_device(device)
        if dev != x._device:
            src = x._device.device_type
            if dtype is not None and copy is not False and cast_first(x, dtype, dev):
                refuse_complex_to_real("asarray", x.dtype, dtype)
                made = native_dtype(dtype, x._device)
                x, dtype, copy = computed(x, lambda a: cast(a, made)), None, None
            moved = move(x, dev, copy=copy)
            if copy or not (dev is CPU and src in CPU_READABLE):  # (pinned to the CPU: a
                copy = None  # view, unless copied; else the move copied)
            x = moved
        elif dev.device_type in CPU_READABLE and dev is not CPU and (
                copy or dtype is not None and dtype is not x.dtype):
            # New memory asked for on x's own pinned (managed) device, which NumPy cannot
            # allocate: refused, as exports refuse it (asked with no device=, the copy is
            # labelled the CPU it is on)
            raise BufferError(f"dltensor cannot allocate {dev} memory for a copy (NumPy "
                              "allocates pageable CPU memory); ask for device='cpu'")
    if dtype is not None and dtype is not x.dtype:
        refuse_complex_to_real("asarray", x.dtype, dtype)  # (as astype and lists of complex)
        # (TypeError for a dtype held only, int4, float4..., or one x's backend has not)
        target = native_dtype(dtype, x._device)
        if copy is False:
            raise ValueError(f"converting {x.dtype.name} to {dtype.name} needs a copy, "
                             "and copy=False forbids it")
        return computed(x, lambda a: cast(a, target))
    if copy:
        return copied(x)
    return x


def _finish_capsule(capsule: Any, dtype: DType | None,
                    device: Device | str | tuple[int, int] | None, copy: bool | None) -> ndarray:
    """_finish for a bare capsule's tensor. The capsule is consumed only when that succeeds:
    its holder keeps a capsule refused for the dtype, device or copy asked for (a producer's
    would be asked again; a bare capsule cannot be)."""
    with _dlpack.taking_capsule(capsule) as tensor:
        return _finish(from_tensor(tensor), dtype, device, copy)


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
    cupy_backend = _gpus(dev.device_id) if dev.device_type == DLDeviceType.kDLCUDA and \
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


def _cai_ints(cai: dict[str, Any], key: str) -> tuple[int, ...]:
    value = cai[key]
    try:  # (a list, NumPy's ints: taken, as CuPy and numba take them)
        if isinstance(value, (tuple, list)) and \
                not any(isinstance(v, (bool, np.bool_)) for v in value):
            return tuple(operator.index(v) for v in value)
    except TypeError:
        pass
    raise BufferError(f"__cuda_array_interface__ {key} must be a tuple of ints, not {value!r}")


def _from_cuda_array_interface(obj: object, cai: dict[str, Any]) -> ndarray:
    """Zero-copy import of ``__cuda_array_interface__`` v3 (held when CuPy cannot compute).

    A ``stream`` in it is where the memory's pending work is queued: with CuPy, CuPy's current
    stream is made to wait for it; without, the array keeps it and hands it on in its own
    interface, as it found it."""
    if type(cai) is not dict and not isinstance(cai, Mapping):  # (an int raised TypeError)
        raise BufferError(f"__cuda_array_interface__ must be a dict, not {type(cai).__name__}")
    missing = [key for key in ("shape", "typestr", "data") if key not in cai]
    if missing:
        raise BufferError(f"__cuda_array_interface__ lacks {', '.join(map(repr, missing))}, "
                          "which version 3 requires")
    if cai.get("mask") is not None:
        raise BufferError("__cuda_array_interface__ with a mask is not supported")
    stream = cai.get("stream")
    # (version 3: None, 1, 2 or a cudaStream_t, 0 disallowed; a negative value or one past 64
    # bits names no stream: with CuPy it was CuPy's ValueError, without it was kept and handed
    # on in this array's own interface)
    if stream is not None and (isinstance(stream, bool) or not isinstance(stream, int) or
                               not 0 < stream < 1 << 64):
        raise BufferError(f"__cuda_array_interface__ stream must be None, 1, 2 or a stream "
                          f"handle (0 is disallowed), not {stream!r}")
    typestr = cai["typestr"]
    try:  # (a malformed field is the interface's fault: BufferError; a dtype dltensor has
        # not, TypeError below. NumPy's parser raises SyntaxError and ValueError too, and
        # reads a control character as a type number: chr(1) is int8)
        npdt = np.dtype(typestr) if type(typestr) is str and typestr.isprintable() else None
    except (TypeError, ValueError, SyntaxError):
        npdt = None
    if npdt is None:
        raise BufferError("__cuda_array_interface__ typestr must be a type string such as "
                          f"'<f4', not {typestr!r}")
    dt = dtype_from_numpy(npdt)
    shape = _cai_ints(cai, "shape")
    if any(n < 0 for n in shape):
        raise BufferError(f"__cuda_array_interface__ shape has a negative extent: {shape}")
    data = cai["data"]
    if type(data) is not tuple or len(data) != 2 or type(data[0]) is not int or \
            not 0 <= data[0] < 2**64 or not (data[1] is None or isinstance(
                data[1], (int, np.bool_, np.integer))):  # (read by its truth, as NumPy reads
        # it; CuPy and numba ignore it: a string is no flag)
        raise BufferError(f"__cuda_array_interface__ data must be a (pointer, read-only) tuple, "
                          f"not {data!r}")
    ptr, read_only = data
    if cai.get("strides") is None:
        strides = _dlpack.compact_strides(shape)
    else:
        byte_strides = _cai_ints(cai, "strides")
        if len(byte_strides) != len(shape):
            raise BufferError(f"__cuda_array_interface__ has {len(shape)} extents but "
                              f"{len(byte_strides)} strides")
        if any(s % npdt.itemsize for s in byte_strides):
            raise BufferError("__cuda_array_interface__ strides are not a multiple of the itemsize")
        strides = tuple(s // npdt.itemsize for s in byte_strides)
    cupy_backend = _gpus()
    device_id = cupy_backend.device_of(ptr) if cupy_backend is not None else 0
    capsule = _dlpack.make_capsule(
        obj, data=ptr or 0, byte_offset=0, device=(CUDA_TYPE, device_id),
        dtype=(dt.code, dt.bits, 1), shape=shape, strides=strides,
        flags=_dlpack.DLPACK_FLAG_BITMASK_READ_ONLY if read_only else 0)
    x = from_tensor(_dlpack.consume_capsule(capsule))
    if stream is not None:
        if cupy_backend is not None:
            cupy_backend.wait_for(stream, device_id)
        else:
            held_streams[x._tensor] = stream
    return x
