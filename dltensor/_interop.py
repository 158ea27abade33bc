"""Getting arrays in: ``from_dlpack`` and ``asarray``.

Everything that arrives becomes an ndarray without a copy when its memory can be shared: DLPack
producers and bare capsules, ``__cuda_array_interface__``, ``__array_interface__`` and the buffer
protocol. Python scalars and nested sequences are copied, as the spec says (_sequences.py);
moves to another device and copies are _moves.py's.
"""

from __future__ import annotations

import functools
import operator
import sys
from collections.abc import Callable, Mapping
from numbers import Integral
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from . import _dlpack
from ._array import CPU_READABLE, STREAMED_HOST, copy_flag, from_tensor, held_streams, ndarray
from ._array import guard_shared, wrap
from ._backends import backend_for
from ._dlpack.abi import DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION, DLDeviceType
from ._devices import CPU, CUDA_TYPE, Device, as_device, get_default_device
from ._dispatch import NULL_CONTEXT, native_dtype
from ._dtypes import FROM_NUMPY, PYTHON_SCALARS, DType, dtype_from_numpy, dtype_of_numpy
from ._dtypes import cast, refuse_complex_to_real
from ._moves import CopyError, cast_first, computed, copied, cuda_backend, move
from ._sequences import PYTHON_SEQUENCE_OR_SCALAR, from_python, has_buffer, python_importers

__all__ = ["asarray", "from_dlpack"]

_np_ndarray = np.ndarray
_SCALAR_CLASSES = (bool, int, float, complex)  # (for isinstance: NumPy's float64 is a float)


def from_dlpack(x: Any, /, *, device: Device | str | tuple[int, int] | None = None,
                copy: bool | None = None) -> ndarray:
    """Import any DLPack producer (or a bare DLPack capsule) without a copy.

    ``device`` moves the result there (copying); ``copy=True`` always copies, ``copy=False``
    never does and raises BufferError where a copy would be needed.
    """
    tp = type(x)
    # (a subclass by the dtype of its memory: one may say another, by a property)
    v = (x.view() if tp is _np_ndarray else x.view(_np_ndarray)) \
        if isinstance(x, _np_ndarray) else None
    if v is not None and (v.dtype in FROM_NUMPY or dtype_of_numpy(v.dtype)):
        # Taken as it is (NumPy's __dlpack__ cannot export ml_dtypes' bfloat16 or float8),
        # subclasses (memmap) as plain arrays; _finish, below, applies device= and copy=.
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
        if (own is None or own is CPU) and _on_host(x):
            # Host memory by the producer's cheap word (PyTorch's is_cpu): taken as it is and
            # copied here (~4.7 us; its copy through its Python __dlpack__ and
            # __dlpack_device__, then our consumer, took 22). What that import refuses, a zero
            # tensor with no memory, or a dtype NumPy cannot copy, the producer copies, below.
            try:
                return copied(_importer_for(tp)(x))
            except BufferError:
                pass
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
    # (the plain import, fast for NumPy, PyTorch and JAX; _finish moves and copies.) copy=False
    # is asked of a producer taken through __dlpack__: one too old to take it cannot promise it.
    # (A C exporter, a C exchange API, CuPy's view: each hands out the tensor itself.)
    taken = _importer_for(type(x))(x, False if copy is False else None)
    return taken if device is None else _finish(taken, None, device, copy)


def _on_host(x: Any) -> bool | None:
    """Whether producer ``x``'s cheap word (_HOST_PROBES) says its __dlpack_device__ would say
    the CPU; None for a producer with no such word."""
    probe = _for_type(_HOST_PROBES, _host_probe_by_type, type(x))
    return None if probe is None else bool(probe(x))


def _on_its_own(x: Any, device: Device) -> bool:
    """Whether producer ``x`` says its memory is on ``device``."""
    if device is CPU:  # (asked of PyTorch's is_cpu, ~0.1 us, where its __dlpack_device__ is 3.7)
        on_host = _on_host(x)
        if on_host is not None:
            return on_host
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
    if _on_host(x):
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
    gpus = cuda_backend(device_id) if device_type == CUDA_TYPE and type(device_id) is int and \
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
        raise BufferError(f"{type(x).__name__}.__dlpack__ returned an object of type "
                          f"{type(capsule).__name__}, not a DLPack capsule")
    return from_tensor(_dlpack.consume_capsule(capsule))


def _on_a_gpu_here(x: Any) -> bool:
    """Whether producer ``x``'s memory is on a CUDA GPU CuPy computes on."""
    try:
        device_type, device_id = x.__dlpack_device__()
    except Exception:
        return False  # (__dlpack__ says what is wrong, in the producer's words)
    return bool(device_type == CUDA_TYPE and cuda_backend(device_id) is not None)


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
            gpus = cuda_backend(device_id)
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


class _Importer(Protocol):
    # Imports x as it is, a view: copy=False to say that it must be one (a producer's
    # __dlpack__ is asked so), None that it need not.
    def __call__(self, x: Any, copy: bool | None = None, /) -> ndarray: ...


# The plain imports (no dtype or device asked), one function per exact type, found once.
_importers: dict[type, _Importer] = {
    ndarray: lambda x, copy=None: x,
    _dlpack.capsule._CapsuleType: lambda c, copy=None: from_tensor(_dlpack.consume_capsule(c)),
}


def _torch_exchangeable(t: Any) -> Device | int | None:
    # Where PyTorch's C exchange API (2.11+) may take `t` from: the CPU, or a GPU by index;
    # None for other devices (ROCm's tensors, which PyTorch also calls "cuda", among them) and
    # for what torch.Tensor.__dlpack__ refuses and the C path does not check: exporting a
    # conjugate view through it would hand out un-conjugated values (negative views: see
    # _torch_refusal).
    if t.requires_grad or t.is_conj() or t.is_neg():
        return None
    if t.is_cpu:
        # Its data pointer is what it exports: NULL for a zero tensor (NumPy would allocate)
        # and, such a tensor sliced, its offset (0xc: NumPy's read, a segmentation fault).
        # Those, and empty tensors, go through __dlpack__ and our consumer.
        try:
            return CPU if t.data_ptr() >= _dlpack.FIRST_PAGE else None
        except RuntimeError:  # (no storage: a fake or functional tensor's wrapper)
            return None
    # (get_device: the index, without a torch.device object)
    return t.get_device() if t.is_cuda and sys.modules["torch"].version.hip is None else None


def _jax_exchangeable(x: Any) -> Device | None:
    # The CPU for a JAX array on one CPU device; None else (a GPU's: __dlpack__ orders its
    # stream; sharded over several: JAX's exporter would hand out the first shard alone, where
    # __dlpack__ refuses). A deleted or donated array: its exporter raises, and __dlpack__
    # then says why in JAX's words.
    devices = x.sharding.device_set
    if len(devices) != 1:
        return None
    (d,) = devices
    return CPU if d.platform == "cpu" else None


def _torch_exporter() -> tuple[Callable[[Any], object], bool] | None:
    # PyTorch's C function behind __dlpack__: versioned capsules (2.4 and later).
    export = getattr(getattr(sys.modules.get("torch"), "_C", None), "_to_dlpack_versioned", None)
    return None if export is None else (export, True)


def _jax_exporter() -> tuple[Callable[[Any], object], bool] | None:
    # JAX's C function behind __dlpack__, and whether its capsules are versioned. Before 0.12
    # it makes legacy capsules, as __dlpack__ exports them. From jaxlib's C extension 496
    # (JAX 0.12) it takes max_version and makes versioned ones marked read-only, as
    # __dlpack__ then exports them (a JAX array is immutable), which NumPy's C consumer takes
    # (2.4 us an import with JAX 0.12.0.1, 8.3 through __dlpack__ and our consumer; NumPy's
    # own import 2.2). A JAX of 0.12 or later whose function does not take max_version would
    # export legacy capsules, saying writable what __dlpack__ says read-only: its arrays come
    # through __dlpack__.
    jaxlib = sys.modules.get("jaxlib._jax")
    export = getattr(jaxlib, "buffer_to_dlpack_managed_tensor", None)
    if export is None:
        return None
    extension = getattr(sys.modules.get("jax._src.lib"), "jaxlib_extension_version", 0)
    if type(extension) is int and extension >= 496:
        export, versioned = functools.partial(export, max_version=(
            DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION)), True
    else:
        try:
            version = tuple(int(p) for p in sys.modules["jax"].__version__.split(".")[:2])
        except (AttributeError, KeyError, ValueError):
            return None
        if version >= (0, 12):
            return None
        versioned = False
    # It exports the array's shard, as __dlpack__ does (addressable_data(0), 0.42 us; the
    # method behind it for a one-device array, which keeps the shard, 0.05): a hold taken on
    # the array itself aborts the process when the array is then deleted (jax.Array.delete:
    # "Non-zero type 1 hold on destruction"). A deleted array's shard raises, as the array
    # would.
    shard = getattr(getattr(jaxlib, "ArrayImpl", None), "_fully_replicated_shard", None)
    if shard is None:
        return (lambda x: export(x.addressable_data(0))), versioned
    return (lambda x: export(shard(x))), versioned


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
    "torch.Tensor": _torch_exchangeable, "jaxlib._jax.ArrayImpl": _jax_exchangeable}
# Where found, the C function behind such a producer's __dlpack__, making a capsule of a
# tensor (after the checks its guard made; no stream ordered), and whether that capsule is
# versioned. CPU tensors come through it: versioned capsules to NumPy's consumer, legacy ones
# (JAX's before 0.12) to ours, since NumPy imports those read-only (numpy#28600) and such an
# array could not go back to a JAX that asks for legacy capsules only. PyTorch's: 0.45 us a
# capsule, where its Python __dlpack__ costs 2 us and the exchange API through ctypes, with
# our capsule around its tensor, 1.7; JAX's 0.34 us, its __dlpack__ 1.6. Private to each
# producer, so looked up by name: without it CPU tensors go through __dlpack__.
_CPU_EXPORTS: dict[str, Callable[[], tuple[Callable[[Any], object], bool] | None]] = {
    "torch.Tensor": _torch_exporter, "jaxlib._jax.ArrayImpl": _jax_exporter}
# Producers whose __dlpack__ exports some tensors wrongly: what to refuse, and why.
_REFUSALS: dict[str, Callable[[Any], str | None]] = {"torch.Tensor": _torch_refusal}
_refusal_by_type: dict[type, Callable[[Any], str | None] | None] = {}
# Producers that say cheaply whether __dlpack_device__ would say the CPU, where it costs
# (PyTorch's is Python code: 3.7 us, is_cpu 0.1): from_dlpack(x, device="cpu") imports such a
# tensor as it is, with no ask for a host copy (13.8 us a call, from_dlpack(x) 5), and a copy
# of one is made here, from it as it is.
_HOST_PROBES: dict[str, Callable[[Any], bool]] = {
    "torch.Tensor": lambda t: bool(t.is_cpu),
    "jaxlib._jax.ArrayImpl": lambda x: _jax_exchangeable(x) is CPU}
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


def _importer_for(tp: type) -> _Importer:
    imp = _importers.get(tp)
    if imp is None:
        name = f"{tp.__module__}.{tp.__qualname__}"
        guard = _EXCHANGE_GUARDS.get(name)
        take = _dlpack.managed_tensor_taker(tp) if guard is not None else None
        found = _CPU_EXPORTS.get(name) if guard is not None else None
        export, versioned = (found and found()) or (None, True)
        if name == "cupy.ndarray":
            imp = _take_cupy
        elif guard is None or take is None and export is None:
            imp = _import_capsule
        else:
            imp = _exchange_importer(guard, export, versioned, take,
                                     _dlpack.current_stream_getter(tp))
        if not issubclass(tp, _np_ndarray) and hasattr(tp, "__dlpack__"):
            # (not NumPy's subclasses: asarray's fast path would then find __dlpack__'s
            # importer for them, which refuses the byte orders asarray converts; nor types
            # whose instances have __dlpack__ by instance: a proxy's __getattr__, a class
            # passed as an array, whose type is `type`)
            _remember(_importers, tp, imp)
    return imp


def _take_cupy(c: Any, copy: bool | None = None, /) -> ndarray:
    # CuPy's arrays are what dltensor computes with on CUDA: wrapped as they are (a view, so a
    # later reshape of `c` in place does not reach ours), as NumPy's are on the CPU. Their work
    # is queued on CuPy's current stream, where dltensor computes too: nothing to order.
    if c.dtype in FROM_NUMPY:
        return wrap(c.view(), as_device((DLDeviceType.kDLCUDA, c.device.id)))
    return _import_capsule(c, copy)


def _exchange_importer(where: Callable[[Any], Device | int | None],
                       export: Callable[[Any], object] | None, versioned: bool,
                       take: Callable[[object], int] | None,
                       stream_of: Callable[[int, int], int] | None) -> _Importer:
    # A trusted C producer's CPU tensor goes, as the versioned capsule its C exporter makes, to
    # NumPy's C consumer, which validates, owns and releases it in C (the array's managed
    # tensor then lives as the base of its NumPy view); a legacy capsule to ours. Its CUDA
    # tensor, when the producer says which stream its work is on, is taken through its C
    # exchange API and goes to CuPy's consumer (ours for what CuPy would not take) once
    # CuPy's current stream there is ordered after that one, as its __dlpack__ would order it
    # (7.6 us an import on the H200, from 50 us through PyTorch's __dlpack__, which makes
    # Python stream and event objects on every call).
    # Anything else (bfloat16, which NumPy refuses; no CuPy) comes through __dlpack__ and our
    # own consumer, which refuses it again, if it must, in the producer's words.
    adopt = backend_for(CPU).adopt

    def imp(x: Any, copy: bool | None = None, /) -> ndarray:
        device = where(x)
        if device is CPU:
            if export is not None:
                try:
                    capsule = export(x)
                except Exception:
                    capsule = None
                if capsule is not None and not versioned:
                    try:
                        return from_tensor(_dlpack.hold_capsule(capsule, False))
                    except ValueError:  # (a versioned one after all, which can say
                        pass            # read-only: NumPy's consumer honours that)
                if capsule is not None:
                    a = adopt(capsule)
                    if a is not None and a.size:  # (NumPy gives empty arrays a pointer of
                        return wrap(guard_shared(a))  # its own)
        elif isinstance(device, int) and take is not None and stream_of is not None and \
                "cupy" in sys.modules:
            gpus = cuda_backend(device)
            if gpus is not None:
                producer = stream_of(DLDeviceType.kDLCUDA, device) or 1  # (NULL: legacy default)
                if producer != gpus.consumer_stream(device):
                    gpus.wait_for(producer, device)
                try:
                    address = take(x)
                except Exception:
                    address = 0
                if address:
                    r = adopted(gpus, address, device)
                    if r is not None:
                        return r
        return _import_capsule(x, copy)
    return imp


def adopted(gpus: Any, address: int, device: int) -> ndarray | None:
    """An owning DLManagedTensorVersioned* of GPU ``device``'s memory, its producer's stream
    ordered: CuPy's array over it (exported by CuPy's producer, computed on as it is), or our
    consumer's where CuPy would not take it; None if CuPy refused it after all (released by
    then: the caller asks __dlpack__)."""
    try:
        a = gpus.adopt(address, device)
    except (BufferError, RuntimeError, TypeError, ValueError, NotImplementedError):
        return None
    if a is None:
        return from_tensor(_dlpack.own(address))
    return wrap(guard_shared(a), as_device((DLDeviceType.kDLCUDA, device)))


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
                # (a view's root may lie on pinned memory's capsule, which _numpys looks for;
                # an array that owns its memory, or the view of one, needs no look)
                root = obj.base
                if root is None or type(root) is _np_ndarray and root.base is None:
                    return wrap(obj.view())
                return _numpys(obj.view())
        else:
            imp = _importers.get(tp) or python_importers.get(tp)
            if imp is not None:
                return imp(obj)
    copy = copy_flag(copy)
    if dtype is not None and type(dtype) is not DType:
        raise TypeError(f"dtype must be a dltensor dtype such as dltensor.float32, not {dtype!r}")
    if device is not None:
        device = as_device(device)  # (see from_dlpack)
    if type(obj) in PYTHON_SEQUENCE_OR_SCALAR:  # (the commonest with a dtype or device: past
        return from_python(obj, dtype, device, copy)  # the protocols, none of which it has)
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
        x = from_dlpack(obj, device=CPU if device == CPU else None,
                        copy=False if copy is False else None)
        t = x._tensor
        if copy and t is not None and t.flags & _IS_COPIED and not t.read_only:
            copy = None  # (the producer's host copy, made for this call: no second one)
        return _finish(x, dtype, device, copy)
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
            has_buffer(obj):
        # (the C form of the interface too: taken for a sequence, it was copied to float64)
        src = _from_buffer(obj) if has_buffer(obj) else np.asarray(obj)
        return _finish(_from_numpy(src, _no_copy(copy)), dtype, device, copy)
    if hasattr(obj, "__array__") and not isinstance(obj, (list, tuple)):
        # An array of its own (h5py, zarr, xarray...): its dtype, not the defaults the spec
        # gives Python scalars; a copy only where NumPy's protocol says its __array__ made one.
        src = np.asarray(obj, copy=copy)  # (its __array__ makes the copy asked for, if any)
        return _finish(_from_numpy(src, _no_copy(copy)), dtype, device, None if copy else copy)
    return from_python(obj, dtype, device, copy)


def _no_copy(copy: bool | None) -> bool | None:
    """What _from_numpy gets when _finish will copy: never a copy, but copy=False still binds."""
    return False if copy is False else None


def _from_buffer(obj: Any) -> npt.NDArray[Any]:
    view = memoryview(obj)
    try:
        return np.asarray(view)
    except (ValueError, RuntimeError) as e:  # ('g', 'P', ctypes' '<u'...: the TypeError of
        # their NumPy dtypes; RuntimeError for a struct with no end padding, 'ic')
        if "format" not in str(e):
            raise
        raise TypeError(f"dltensor has no dtype for the buffer format {view.format!r}") from None


def _from_numpy(a: npt.NDArray[Any], copy: bool | None) -> ndarray:
    """Wrap a NumPy array (subclasses and non-native byte orders too)."""
    a = a.view(np.ndarray)  # (first: the dtype of the memory, whatever a subclass says)
    if a.dtype not in FROM_NUMPY:
        if a.dtype.kind in "biufc" and not a.dtype.isnative:
            if copy is False:
                raise ValueError(f"byte-swapped dtype {a.dtype} needs a copy to native order")
            return wrap(a.astype(a.dtype.newbyteorder("=")))
        dtype_from_numpy(a.dtype)  # raises the TypeError naming the dtype
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
_IS_COPIED = _dlpack.DLPACK_FLAG_BITMASK_IS_COPIED


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
    version = cai.get("version")  # (required since version 1; absent or None: read as 3)
    if version is not None and (isinstance(version, (bool, np.bool_)) or  # (read as shape's
            not isinstance(version, Integral) or int(version) not in (0, 1, 2, 3)):  # ints)
        raise BufferError(f"__cuda_array_interface__ version must be 0 to 3, not {version!r}")
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
    cupy_backend = cuda_backend()
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
