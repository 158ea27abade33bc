"""The CuPy backend: compute views over CUDA memory, when CuPy and a GPU are present."""

from __future__ import annotations

import ctypes
import math
import struct
from types import ModuleType
from typing import Any

import numpy as np

from .. import _dlpack
from .._devices import check_stream
from .._dtypes import EXTENSION_FLOATS, dtype_from_dlpack
from . import NoDtypeError
from .cupy_departures import halves_in_float32

__all__ = ["missing_reason", "device_count", "namespace", "view", "can_view", "on",
           "run_on",
           "consumer_stream",
           "wait_for", "stream_for", "ordered_stream", "order_consumer", "device_of",
           "recorded", "synchronize", "copy", "max_ndim"]

_cupy: Any = None  # the cupy module once usable (no stubs)
_CUDA, _CUDA_HOST, _CUDA_MANAGED = (int(_dlpack.DLDeviceType.kDLCUDA),
                                    int(_dlpack.DLDeviceType.kDLCUDAHost),
                                    int(_dlpack.DLDeviceType.kDLCUDAManaged))
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
            _reason = (f"CuPy is not usable ({type(e).__name__}: {e}); pip install "
                       "'dltensor[cuda12]' or 'dltensor[cuda13]' for your CUDA")
    return _cupy


_count: list[int] = []  # the GPUs CuPy sees (CUDA_VISIBLE_DEVICES fixes them for the process)


def device_count() -> int:
    """How many GPUs CuPy sees (0 without a usable CuPy)."""
    if _load() is None:
        return 0
    if not _count:
        _count.append(_cupy.cuda.runtime.getDeviceCount())
    return _count[0]


def missing_reason(device_id: int) -> str:
    """Why dltensor cannot compute on GPU ``device_id`` through CuPy ("" where it can): no
    usable CuPy, or no such GPU here (a producer's tensor on it is then held, as any memory
    dltensor cannot reach, and creating arrays there is refused with this reason)."""
    n = device_count()
    if not n:
        return _reason or ""
    if device_id < n:
        return ""
    seen = "1 GPU here (cuda:0)" if n == 1 else f"{n} GPUs here (cuda:0 to cuda:{n - 1})"
    return f"CuPy sees {seen}"


def max_ndim() -> int:
    """The most axes a CuPy array may have: 64 since CuPy followed NumPy 2 (cupy#8511), 32
    before (CuPy 13; the extras ask for 14.2). Asked of CuPy itself, by an array of no
    elements."""
    try:
        _load().ndarray((0,) * 64)
    except ValueError:
        return 32
    return 64


_namespaces: dict[int, Any] = {}


def namespace(device_id: int = 0) -> Any:
    """array-api-compat's CuPy namespace, its functions run on GPU ``device_id`` (CuPy computes
    on its *current* device, which need not be the one an array is on)."""
    ns = _namespaces.get(device_id)
    if ns is None:
        import array_api_compat.cupy as compat
        ns = _namespaces[device_id] = _OnDevice(compat, device_id)
    return ns


class _OnDevice:
    """A namespace (or its linalg/fft) whose functions run with CuPy's current device set."""

    def __init__(self, ns: Any, device_id: int):
        self._ns, self._device_id = ns, device_id

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._ns, name)
        if isinstance(value, ModuleType):
            value = _OnDevice(value, self._device_id)
        elif callable(value) and not isinstance(value, type):
            departure = DEPARTURES.get(name)
            value = run_on(value if departure is None else departure(value), self._device_id)
        setattr(self, name, value)  # found once
        return value


def _in_numpys_order(argsort: bool) -> Any:
    """A wrapper of ``sort`` (or ``argsort``) sorting as NumPy does where CuPy's departs
    (cupy/cuda/cupy_thrust.cu):

    - a 1-D float array CuPy sorts by radix (thrust::less), which orders floats by their
      bits: NaNs with the sign bit first, and (where CUB does not equate them) -0.0 before
      0.0 whatever their order. The rows of a matrix it sorts with a comparator, stable and
      NaNs last, as NumPy does: so a 1-D float array goes to it as a one-row matrix (a
      merge sort: slower than radix on large arrays, and right).
    - complex arrays of more than one axis it sorts line by line with a comparator that
      takes every value with a NaN part for equal (real_less), where NumPy orders them
      R + NaN j, NaN + R j, NaN + NaN j, each by its other part; its 1-D sort has NumPy's
      order (complex_less). So all the elements are sorted in one line, then grouped back
      into their lines by a stable sort of the line numbers. (Read in CuPy 14.2's sources,
      unrun on a GPU.)"""
    def wrapper(fn: Any) -> Any:
        def sort(a: Any, /, **kwargs: Any) -> Any:
            if a.ndim == 1 and a.dtype.kind == "f" and kwargs.get("axis", -1) in (0, -1):
                kwargs["axis"] = -1
                return fn(a[None], **kwargs)[0]
            if a.ndim > 1 and a.dtype.kind == "c" and a.size:
                axis = kwargs.pop("axis", -1)
                if argsort:
                    return _complex_lines(a, axis, lambda v: fn(v, **kwargs))
                r = _cupy.take_along_axis(a, _complex_lines(
                    a, axis, lambda v: _cupy.argsort(v, kind="stable")), axis=axis)
                return _cupy.flip(r, axis=axis) if kwargs.get("descending") else r
            return fn(a, **kwargs)
        sort.__name__ = getattr(fn, "__name__", "sort")
        return sort
    return wrapper


def _complex_lines(a: Any, axis: int, argsort: Any) -> Any:
    """The indices along ``axis`` that sort each line of ``a``, by ``argsort`` of a 1-D
    array (stable)."""
    lines = _cupy.moveaxis(a, axis, -1)
    n = lines.shape[-1]
    order = argsort(lines.reshape(-1))
    order = order[_cupy.argsort(order // n, kind="stable")]  # (line by line, each in order)
    return _cupy.moveaxis((order % n).reshape(lines.shape), -1, axis)


def _first_nan(fn: Any) -> Any:
    """``argmax``/``argmin`` giving the first NaN's index, as NumPy's: CuPy's reduction of
    floats (my_argmax_float, cupy/_core/_routines_statistics.pyx) takes a NaN over a number,
    but of two NaNs whichever it compares first, which along an axis of several need not be
    the first (the index of a NaN at 512 for one at 1 in 1024). The first one is argmax of
    isnan, for argmin as well (of booleans, CuPy's keeps the first of equals): four more
    kernels, for floating dtypes only. (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    def f(a: Any, /, **kwargs: Any) -> Any:
        r = fn(a, **kwargs)
        if a.dtype.kind in "fc" or a.dtype in EXTENSION_FLOATS:  # (bfloat16: as float32)
            nan = _cupy.isnan(a)
            r = _cupy.where(_cupy.any(nan, axis=kwargs.get("axis"),
                                      keepdims=kwargs.get("keepdims", False)),
                            _cupy.argmax(nan, **kwargs), r)
        return r
    f.__name__ = getattr(fn, "__name__", "argmax")
    return f


def _no_identity(name: str) -> Any:
    """A wrapper of ``max``, ``min``, ``argmax`` or ``argmin`` refusing an empty axis with
    NumPy's ValueError (on the host, from the shape): CuPy's reduction returns a result of no
    elements before it looks for an identity (``if ret.size == 0: return ret``,
    cupy/_core/_reduction.pyx), so ``max(zeros((0, 0)), axis=0)`` was an empty array. (Read
    in CuPy 14.2's sources, unrun on a GPU.)"""
    words = (f"attempt to get {name} of an empty sequence" if name.startswith("arg") else
             f"zero-size array to reduction operation {name}imum which has no identity")

    def wrapper(fn: Any) -> Any:
        def f(a: Any, /, **kwargs: Any) -> Any:
            if a.size == 0:
                axis = kwargs.get("axis")
                axes = range(a.ndim) if axis is None else axis if type(axis) is tuple else (
                    axis,)
                if all(type(i) is int and -a.ndim <= i < a.ndim for i in axes) and len(
                        {i % a.ndim for i in axes}) == len(axes) and any(  # (else CuPy's
                        a.shape[i] == 0 for i in axes):  # AxisError, TypeError, ValueError)
                    raise ValueError(words)
            return fn(a, **kwargs)
        f.__name__ = name
        return f
    return wrapper


def _on_bits_of_bfloat16(fn: Any) -> Any:
    """``where``, ``tril`` or ``triu`` of bfloat16 arrays computed on their bits (unsigned
    views of them, the result viewed back): CuPy's where has no bfloat16 loop, so it took
    float32's and returned float32 (tril and triu are its where). Copying bits keeps every
    value as it is. (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    def f(*args: Any, **kwargs: Any) -> Any:
        if not any(getattr(a, "dtype", None) in EXTENSION_FLOATS for a in args):
            return fn(*args, **kwargs)
        dt = next(a.dtype for a in args if getattr(a, "dtype", None) in EXTENSION_FLOATS)
        bits = np.dtype(f"u{dt.itemsize}")
        return fn(*(a.view(bits) if getattr(a, "dtype", None) == dt else a for a in args),
                  **kwargs).view(dt)
    f.__name__ = getattr(fn, "__name__", "where")
    return f


def _positive_nans(fn: Any) -> Any:
    """``isin`` with the NaNs of its test elements made positive: CuPy's isin sorts them
    (``cupy.sort``: of 1-D floats a radix sort by their bits, NaNs with the sign bit first)
    and searches them as if NaNs came last, so a value sorted after such a NaN could go
    unfound (``isin([1.0, 2.0], [1.0, 2.0, -nan])`` was ``[False, True]``). Two kernels,
    for real floats only. (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    def isin(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        if getattr(x2, "dtype", None) is not None and x2.dtype.kind == "f":
            x2 = _cupy.where(_cupy.isnan(x2), x2.dtype.type(np.nan), x2)
        return fn(x1, x2, **kwargs)
    return isin


_SCAN_AT_ONCE = 1 << 30  # (the elements one of CuPy's scans is given: see _scans_in_parts)


def _scans_in_parts(op: str) -> Any:
    """``cumulative_sum`` (``op`` "sum") or ``cumulative_prod`` of more than 2**30 elements in
    parts of at most that many: CuPy's scans along an axis (``_batch_scan_op``,
    cupy/_core/_routines_math.pyx; array-api-compat always passes an axis) index a padded
    copy of up to twice the elements by 32-bit unsigned ints and take the axis's length as a
    C int, so past 2**32 padded elements the indices wrapped. Rows go in groups; an axis
    longer than that goes in pieces, each combined with the last results of the one before.
    (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    def wrapper(fn: Any) -> Any:
        def f(x: Any, /, *, axis: int | None = None, dtype: Any = None,
              include_initial: bool = False) -> Any:
            if x.size <= _SCAN_AT_ONCE or (x.ndim != 1 if axis is None else  # (the latter:
                                           not -x.ndim <= axis < x.ndim):  # its errors)
                return fn(x, axis=axis, dtype=dtype, include_initial=include_initial)
            axis = 0 if axis is None else axis % x.ndim
            lines = _cupy.moveaxis(x, axis, -1)
            shape, n = lines.shape, lines.shape[-1]
            lines = lines.reshape(-1, n)  # (a copy where it must be, as CuPy's scan makes)
            step, width = max(1, _SCAN_AT_ONCE // n), min(n, _SCAN_AT_ONCE)
            out: Any = None
            for i in range(0, lines.shape[0], step):
                last = None
                for j in range(0, n, width):
                    part = fn(lines[i:i + step, j:j + width], axis=1, dtype=dtype)
                    if last is not None:
                        part = part + last if op == "sum" else part * last
                    if out is None:
                        out = _cupy.empty(lines.shape, dtype=part.dtype)
                    out[i:i + step, j:j + width] = part
                    last = part[:, -1:]
            result = _cupy.moveaxis(out.reshape(shape), -1, axis)
            if include_initial:
                first = (_cupy.zeros if op == "sum" else _cupy.ones)(
                    shape[:axis] + (1,) + shape[axis:-1], dtype=result.dtype)
                result = _cupy.concatenate([first, result], axis=axis)
            return result
        f.__name__ = f"cumulative_{op}"
        return f
    return wrapper


_INDEX_MAX = (1 << 31) - 1  # (CuPy's 32-bit index type: see _wraps_a_take)


def _wraps_a_take(shape: tuple[int, ...], count: int, start: int, stop: int | None = None
                  ) -> bool:
    """Whether CuPy's take of ``count`` indices into axes ``start`` to ``stop`` (``start`` alone
    by default) of an array of ``shape`` multiplies past a 32-bit int: its kernel
    (``_take_kernel_core``, cupy/_core/_routines_indexing.pyx) divides by the index count
    times the size after those axes in the source's index type, 32-bit for one of at most
    2**31 bytes, wherever axes before them hold more than one element, and read wrong
    elements past it."""
    rest = shape[start + 1 if stop is None else stop:]
    return math.prod(shape[:start]) > 1 and count * math.prod(rest) > _INDEX_MAX


def _moved_first(a: Any, start: int, count: int) -> Any:
    """A C-contiguous copy of ``a`` with its ``count`` axes from ``start`` moved first, where a
    take along them needs no product that wraps (``_wraps_a_take``)."""
    return _cupy.ascontiguousarray(_cupy.moveaxis(a, tuple(range(start, start + count)),
                                                  tuple(range(count))))


def _moved_back(r: Any, start: int, count: int) -> Any:
    """``r``'s first ``count`` axes moved back to ``start`` (``_moved_first``'s inverse)."""
    return _cupy.moveaxis(r, tuple(range(count)), tuple(range(start, start + count)))


def _taken_along_the_first(a: Any, indices: tuple[Any, ...], start: int) -> Any:
    """``a`` indexed by the integer arrays ``indices`` at axes ``start`` on (and whole axes
    elsewhere), by the same take with those axes moved first (``_moved_first``)."""
    r = _moved_first(a, start, len(indices))[indices]
    return _moved_back(r, start, r.ndim - (a.ndim - len(indices)))  # (the indices' axes)


def _take_first(fn: Any) -> Any:
    """``take`` along an axis after the first, where CuPy's would multiply past its index type
    (``_wraps_a_take``), along the first. (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    def take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
        if axis is not None and x.ndim > 1 and -x.ndim <= axis < x.ndim and _wraps_a_take(
                x.shape, indices.size, axis % x.ndim):
            return _taken_along_the_first(x, (indices,), axis % x.ndim)
        return fn(x, indices, axis=axis)
    return take


def _by_indices(key: Any) -> Any:
    """A key that is one boolean CuPy array of more elements than a C int counts, as its
    nonzero() indices (None for any other key; a mask beside other entries reaches CuPy as
    indices already, ``_keys.backend_key``): CuPy counts a lone mask's selection in a C int
    (``_prepare_mask_indexing_single``, cupy/_core/_routines_indexing.pyx: ``cdef int
    n_true``), an OverflowError past 2**31 - 1; the indices count in int64, and their take
    along the first axes needs no product that wraps."""
    m = key[0] if type(key) is tuple and len(key) == 1 else key
    if not isinstance(m, _cupy.ndarray) or m.dtype != np.bool_ or m.size <= _INDEX_MAX:
        return None
    return m.nonzero()


def setitem(a: Any, key: Any, value: Any) -> None:
    """``a[key] = value``, a CuPy array and a backend key (a large lone mask by its indices:
    ``_by_indices``). (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    indices = _by_indices(key)
    a[key if indices is None else indices] = value


def _repeat_first(fn: Any) -> Any:
    """``repeat`` of array counts along an axis after the first, where CuPy's could multiply
    past its index type, along the first: CuPy's ends in a take along the axis
    (``_repeat_perelement``, cupy/_core/_routines_manipulation.pyx; ``_wraps_a_take``), of a
    total not known before it, so bounded here by the largest count. (Read in CuPy 14.2's
    sources, unrun on a GPU.)"""
    def repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        if axis is not None and x.ndim > 1 and -x.ndim <= axis < x.ndim and isinstance(
                repeats, _cupy.ndarray) and repeats.size > 1 and _wraps_a_take(
                x.shape, int(np.iinfo(repeats.dtype).max) * repeats.size, axis % x.ndim) and \
                _wraps_a_take(x.shape, int(repeats.max()) * repeats.size, axis % x.ndim):
            # (the largest count asked of the GPU only where the counts' dtype allows a wrap)
            return _moved_back(fn(_moved_first(x, axis % x.ndim, 1), repeats, axis=0),
                               axis % x.ndim, 1)
        return fn(x, repeats, axis=axis)
    return repeat


def getitem(a: Any, key: Any) -> Any:
    """``a[key]``, a CuPy array and a backend key; a key of slices and integer arrays next to
    each other (``x[:, i]``, ``x[..., i, j, 1:]``), whose take CuPy would compute past its
    index type (``_wraps_a_take``), is the slices' view taken with those axes first (arrays
    apart go first in CuPy's take too), and a large lone mask goes by its indices
    (``_by_indices``). (Read in CuPy 14.2's sources, unrun on a GPU.)"""
    indices = _by_indices(key)
    if indices is not None:
        return a[indices]
    if type(key) is tuple:
        at = [j for j, k in enumerate(key) if isinstance(k, _cupy.ndarray)]
        if at and at[-1] - at[0] == len(at) - 1 and at[0] and all(
                key[j].dtype.kind in "iu" for j in at):
            before, after = key[:at[0]], key[at[-1] + 1:]
            if all(k is Ellipsis or type(k) is slice for k in before + after):
                start = a.ndim - len(at) - len(after) if Ellipsis in before else at[0]
                arrays = tuple(key[j] for j in at)
                count = math.prod(np.broadcast_shapes(*(i.shape for i in arrays)))
                stop = start + len(at)
                if _wraps_a_take(a.shape, count, start, stop):  # (slices only shrink: the
                    view = a[before + (slice(None),) * len(at) + after]  # view, where it may)
                    if _wraps_a_take(view.shape, count, start, stop):
                        return _taken_along_the_first(view, arrays, start)
    return a[key]


def _triangles_in_blocks(fn: Any) -> Any:
    """``tril`` or ``triu`` of matrices whose rows and columns together pass 2**31, by blocks
    of at most 2**30 of each, each block's diagonal offset moved by its corner (and clipped to
    it, the same triangle): CuPy's mask takes the width and offset as int32 and a row as
    ``int row = i / m`` (cupy/_creation/matrix.py), so rows past 2**31 wrapped (tril zeroed
    them, triu kept them), and ``row + k`` with them. (Read in CuPy 14.2's sources, unrun on
    a GPU.)"""
    def f(x: Any, /, *, k: int = 0) -> Any:
        rows, cols = x.shape[-2:]
        if rows + cols <= _INDEX_MAX:
            return fn(x, k=k)
        block = (_INDEX_MAX + 1) // 2
        out = _cupy.empty_like(x)
        for r in range(0, rows, block):
            for c in range(0, cols, block):
                part = x[..., r:r + block, c:c + block]
                height, width = part.shape[-2:]
                out[..., r:r + block, c:c + block] = fn(part, k=min(max(k + r - c, -height),
                                                                      width))
        return out
    f.__name__ = getattr(fn, "__name__", "tril")
    return f


# Where CuPy's function departs from NumPy's in what the spec asks: name -> its wrapper.
DEPARTURES = {"sort": _in_numpys_order(argsort=False), "argsort": _in_numpys_order(argsort=True),
              "argmax": lambda fn: _first_nan(_no_identity("argmax")(fn)),
              "argmin": lambda fn: _first_nan(_no_identity("argmin")(fn)),
              "max": _no_identity("max"), "min": _no_identity("min"),
              "vecdot": halves_in_float32, "tensordot": halves_in_float32,
              "where": _on_bits_of_bfloat16,
              "tril": lambda fn: _on_bits_of_bfloat16(_triangles_in_blocks(fn)),
              "triu": lambda fn: _on_bits_of_bfloat16(_triangles_in_blocks(fn)),
              "isin": _positive_nans,
              "cumulative_sum": _scans_in_parts("sum"),
              "cumulative_prod": _scans_in_parts("prod"), "take": _take_first,
              "repeat": _repeat_first}


def run_on(fn: Any, device_id: int) -> Any:
    """``fn`` called with GPU ``device_id`` CuPy's current device."""
    device = on(device_id)

    def run(*args: Any, **kwargs: Any) -> Any:
        with device:
            return fn(*args, **kwargs)
    run.__name__ = getattr(fn, "__name__", "run")
    return run


_devices: dict[int, Any] = {}


def on(device_id: int) -> Any:
    """A context making GPU ``device_id`` CuPy's current device (one Device object per GPU:
    CuPy keeps the device stack per thread, so it is reentrant and shared safely)."""
    d = _devices.get(device_id)
    if d is None:
        d = _devices[device_id] = _load().cuda.Device(device_id)
    return d


# What CuPy's from_dlpack takes (cupy/_core/dlpack.pyx, v14): DLPack (code, bits).
_VIEWABLE = {(0, 8), (0, 16), (0, 32), (0, 64), (1, 8), (1, 16), (1, 32), (1, 64),
             (2, 16), (2, 32), (2, 64), (5, 64), (5, 128), (6, 8)}
_bfloat16: list[bool] = []


def can_view(code: int, bits: int) -> bool:
    """Whether CuPy's from_dlpack takes this DLPack dtype; others (float8, sub-byte ints) are
    held and handed on, not computed on."""
    if (code, bits) in _VIEWABLE:
        return True
    if (code, bits) == (4, 16):  # bfloat16: where CuPy found ml_dtypes (it keeps it there)
        if not _bfloat16:
            from importlib import import_module
            _bfloat16.append(getattr(import_module("cupy._core.dlpack"), "bfloat16", None)
                             is not None)
        return _bfloat16[0]
    return False


# A DLManagedTensorVersioned up to its dtype: version, manager_ctx, deleter, flags, data,
# device type and id, ndim, dtype
_HEADER = struct.Struct("<IIQQQQiiiBBH")


def adopt(address: int, device_id: int) -> Any:
    """CuPy's consumer takes an owning DLManagedTensorVersioned* of GPU ``device_id``'s memory
    (from a trusted C producer's exchange API, its stream already ordered): a CuPy array over
    it, whose memory calls the deleter, in C, once (numpy_backend.adopt's twin). The export of
    such an array is then CuPy's producer (0.4 us on an H200, where a managed tensor dltensor
    builds with ctypes took 4.3), and computing on it needs no view made. None, the tensor
    untouched, for what CuPy would take wrongly or refuse: read-only (CuPy ignores the flag),
    NULL data, dtypes it has not, another GPU's memory (the caller would label it ours), a
    major version other than 1 (whose fields past the version may lie elsewhere: our
    consumer's BufferError)."""
    major, _, _, _, flags, data, device_type, dev_id, _, code, bits, lanes = _HEADER.unpack(
        ctypes.string_at(address, _HEADER.size))
    if major != 1 or flags & _dlpack.DLPACK_FLAG_BITMASK_READ_ONLY or not data or lanes != 1 or \
            device_type != _dlpack.DLDeviceType.kDLCUDA or dev_id != device_id or \
            not can_view(code, bits):
        return None
    # (a capsule itself: CuPy 14 reads it as it is, with no stream asked and no device switch)
    return _load().from_dlpack(_dlpack.owning_capsule(address))


class _Export:
    """Hands CuPy one fresh capsule over a managed tensor we own (CuPy keeps it alive);
    ``code`` relabels its dtype (1, unsigned: a float8 tensor's bytes, which CuPy can copy)."""

    __slots__ = ("mt", "code")

    def __init__(self, mt: _dlpack.ManagedTensor, code: int | None = None):
        self.mt = mt
        self.code = mt.code if code is None else code

    def __dlpack_device__(self) -> tuple[int, int]:
        return (self.mt.device_type, self.mt.device_id)

    def __dlpack__(self, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: Any = None, copy: bool | None = None) -> object:
        # (stream: the import that made mt already ordered CuPy's stream after its producer)
        mt = self.mt
        return _dlpack.make_capsule(
            mt, data=mt.data or 0, byte_offset=mt.byte_offset,
            device=(mt.device_type, mt.device_id), dtype=(self.code, mt.bits, mt.lanes),
            shape=mt.shape, strides=mt.strides, flags=mt.flags,
            version=(1, 0) if max_version and max_version[0] >= 1 else None)


def device_of(ptr: int) -> int:
    """The GPU a device pointer belongs to (the current one for pinned and managed pointers,
    whose attributes say -1 or -2, and for 0, which an array of no elements may say), as
    CuPy's own UnownedMemory finds it. BufferError for host memory CUDA does not know: since
    CUDA 11 its attributes say so (type 0, cudaMemoryTypeUnregistered) where older CUDA
    raised."""
    cupy = _load()
    runtime = cupy.cuda.runtime
    current: int = runtime.getDevice()
    if not ptr:
        return current
    try:
        attributes = runtime.pointerGetAttributes(ptr)
    except runtime.CUDARuntimeError as e:
        raise BufferError(f"__cuda_array_interface__ data {ptr:#x} is not a CUDA pointer "
                          f"({e})") from None
    if attributes.type == 0:
        raise BufferError(f"__cuda_array_interface__ data {ptr:#x} is not a CUDA pointer "
                          "(host memory CUDA has not registered: pin it, or hand it over as a "
                          "CPU array)")
    device: int = attributes.device
    return device if device >= 0 else current


def view(mt: _dlpack.ManagedTensor, raw: bool = False) -> Any:
    """A CuPy array over a managed tensor's CUDA memory (CuPy ignores READ_ONLY); ``raw``: of
    its bytes, as unsigned integers of its dtype's width (for dtypes CuPy has not)."""
    if not raw and not can_view(mt.code, mt.bits):
        # (as the CPU says it for dtypes NumPy has not; CuPy's own words name a code number)
        # (a TypeError that is also a NoBackendError: memory held, the CPU's error first)
        raise NoDtypeError(f"dltensor cannot compute on dtype "
                           f"{dtype_from_dlpack(mt.code, mt.bits).name} on cuda:{mt.device_id} "
                           "(CuPy has not that dtype); it can still be held, moved with "
                           "to_device(), and handed on with from_dlpack()")
    cupy = _load()
    with cupy.cuda.Device(mt.device_id):
        return cupy.from_dlpack(_Export(mt, 1 if raw else None))


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
    (PyTorch's streams, cuda.core's). TypeError for what is none of these, ValueError for a
    handle that names no stream."""
    cupy = _load()
    # (an ExternalStream too, deprecated in CuPy 14 but made with its GPU: wrapped below by
    # from_external, its GPU became -1, unknown, and another GPU's was taken)
    if isinstance(stream, cupy.cuda.Stream) or isinstance(
            stream, getattr(cupy.cuda, "ExternalStream", cupy.cuda.Stream)):
        if stream.device_id not in (-1, device_id):
            # (-1: the null, per-thread and external streams, any GPU's.) Another GPU's stream
            # failed on a GPU, after the copy was queued: cudaEventRecord refuses an event and
            # a stream of different devices, and CuPy's `with stream:` a stream not current.
            raise ValueError(f"stream {stream!r} belongs to cuda:{stream.device_id}, but this "
                             f"copy is ordered on cuda:{device_id} (a copy to the host runs "
                             "on the source GPU, any other on the destination GPU)")
        return stream
    check_stream(stream)
    if isinstance(stream, int):
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
            current.wait_event(recorded(other))


def order_consumer(stream: int | None, device_id: int) -> None:
    """Make a DLPack consumer's ``stream`` wait for the work queued on CuPy's current stream
    on ``device_id``, as CuPy's own __dlpack__ does (None: the legacy default stream; -1: the
    consumer asked for no synchronisation)."""
    if stream == -1:
        return
    cupy = _load()
    current = cupy.cuda.get_current_stream(device_id)
    target = 1 if stream is None else stream
    if target == (current.ptr or 1):
        return  # (the common case, at no cost: no device switch, no event)
    with on(device_id):
        event = recorded(current)
        try:
            cupy.cuda.runtime.streamWaitEvent(target, event.ptr)
        except cupy.cuda.runtime.CUDARuntimeError:
            # A stream CUDA's runtime refuses here: JAX 0.11's on an H200 (2026-11-27) gave
            # cudaErrorContextIsDestroyed, though CuPy's own __dlpack__ got it through. The
            # host then waits for the work instead, which orders whatever the consumer queues
            # after this call, on any stream.
            event.synchronize()


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
            s.wait_event(recorded(current))
        return s


def copy(a: Any, src: tuple[int, int], dst: tuple[int, int], stream: Any) -> Any:
    """``a`` (a NumPy or CuPy array on DLPack device ``src``) copied to device ``dst`` (a GPU,
    or the host: ``(1, 0)``, or ``(3, 0)`` for pinned memory) by CuPy on ``stream`` (None:
    CuPy's current stream). The copy waits for the work queued on the source; a result on a
    GPU is ready for CuPy's current stream there, where dltensor computes next."""
    cupy = _load()
    # A Fortran-ordered array stays so, as cupy.asarray keeps a NumPy array's (order 'K') and
    # dltensor's other copies keep x's order; any other is copied in C order.
    order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    if dst[0] != _CUDA:  # to the host: returns once the copy is done
        s = ordered_stream(stream, src[1])
        with on(src[1]):
            # (pinned memory for cuda_host: what the label promises a GPU consumer)
            pinned = _empty_pinned(a, order) if dst[0] == _CUDA_HOST else None
            return a.get(stream=s, order=order, out=pinned, blocking=True)
    shape, pending = a.shape, None  # (ascontiguousarray makes a 0-d array 1-d)
    if src[0] == _CUDA:  # from another GPU: after the work queued there
        with on(src[1]):
            # CuPy copies only contiguous arrays between GPUs; this copy must precede the event
            if order == "C":
                a = cupy.ascontiguousarray(a)
            pending = recorded(cupy.cuda.get_current_stream())
    with on(dst[1]):
        # The result comes from the current stream's memory pool (where dltensor uses it
        # next), so the copy stream first waits for the current stream's earlier work on it.
        s = ordered_stream(stream, dst[1])
        out = cupy.empty(shape, a.dtype, order=order)
        if pending is None:
            out.set(a, stream=s)  # (set makes a host array contiguous itself)
        else:
            s.wait_event(pending)
            out.data.copy_from_device_async(a.data, a.nbytes, stream=s)
        current = cupy.cuda.get_current_stream()
        if s.ptr != current.ptr or pending is not None:
            done = recorded(s)
            if s.ptr != current.ptr:
                current.wait_event(done)
        if src[0] in (_CUDA_HOST, _CUDA_MANAGED):
            # From pinned (and managed) memory the copy is truly asynchronous: the source
            # (perhaps a temporary of PyTorch's caching host allocator) must outlive it.
            s.synchronize()
    if pending is not None:
        # The source GPU's pool may hand out `a` (a temporary, maybe) again at once: its
        # stream waits for the copy reading it.
        with on(src[1]):
            cupy.cuda.get_current_stream().wait_event(done)
    return out


def linalg_errors() -> Any:
    """A context in which CuPy's linalg raises LinAlgError where cuSOLVER reports a singular
    or indefinite matrix, as NumPy's does (its default, "ignore", returns what it computed)."""
    import cupyx
    return cupyx.errstate(linalg="raise")


def _empty_pinned(a: Any, order: str) -> Any:
    """A NumPy array in pinned host memory, of ``a``'s shape and dtype, in ``order``."""
    import cupyx
    return cupyx.empty_pinned(a.shape, a.dtype, order=order)


def synchronize(stream: int) -> None:
    """Wait on the host for the work queued on a stream handle (1: the legacy default)."""
    _load().cuda.runtime.streamSynchronize(stream)


def recorded(stream: Any) -> Any:
    """An event marking the work queued on ``stream`` so far (no timing: cheaper to wait on)."""
    event = _load().cuda.Event(disable_timing=True)
    event.record(stream)
    return event
