"""A CUDA simulator for dltensor's tests: a stand-in for CuPy 14.2 whose "GPU" arrays are
NumPy arrays in host memory (as numba's NUMBA_ENABLE_CUDASIM is for numba).

It runs dltensor's CUDA code paths -- the dispatch to the CuPy backend, device contexts,
streams and events, DLPack capsules that say kDLCUDA, moves between CPU and GPUs -- on a
machine with no GPU, so that a slip in that glue shows up in CI rather than on the first GPU.
It is no evidence of what CuPy computes (NumPy computes here): that is checked on a GPU
(docs/devices.md). Where it can, it refuses what CuPy refuses, so that glue which works here
has a chance on the real thing:

- arrays refuse implicit conversion to NumPy (``np.asarray(x)``: TypeError) and NumPy arrays
  in their operations and functions (TypeError), as CuPy's do;
- a kernel on an array of GPU ``i`` while another GPU is current raises CuPy's ValueError;
  ``cuda.runtime.getDeviceCount()`` is 2 (``FAKE_CUPY_GPUS``), ``Device(n)`` for a GPU not
  there raises CUDARuntimeError;
- ``__dlpack__`` hands out NumPy's capsule relabelled ``(kDLCUDA, id)``; ``from_dlpack`` reads
  capsules itself (not through dltensor's reader), checks the device they claim against
  ``__dlpack_device__`` and keeps the capsule as the owner, so deleters run as with CuPy;
- ``ndarray.set``, ``MemoryPointer.copy_from_device_async``, streams (``Stream``,
  ``ExternalStream``, ``Stream.from_external``, ``get_current_stream``), ``Event`` and
  ``runtime.streamWaitEvent`` check their argument types, an event refuses to be recorded on
  another GPU's stream (CUDA's cudaErrorInvalidResourceHandle; default and external streams
  have no GPU, -1, as CuPy's); ordering calls are logged in ``cupy.cuda.LOG``;
- results are NumPy's but never warn (CuPy does not), except where CuPy 14.2's kernels
  depart from NumPy's and dltensor corrects them on CUDA: out-of-bounds integer-array indices
  (and ``take``'s) wrap around, float ``floor_divide``/``remainder`` are ``floor(a / b)`` and
  ``a - floor(a / b) * b``, integers to negative powers give 0 (1 and -1 for bases 1 and -1),
  1-D float arrays sort by their bits (NaNs with the sign bit first, -0.0 before 0.0; so
  ``isin`` searches past such NaNs and may miss a value),
  ``arange`` counts its length in float64 and casts its step to the dtype (a negative step
  for an unsigned dtype: OverflowError), ``linspace`` takes ``float()`` of its step (complex
  bounds: TypeError) and writes its ends by ``fill`` and setitem, ``linalg.matrix_power``
  takes Python ints only,
  ``linalg.eig``/``eigvals`` are complex for real input, ``linalg.solve`` broadcasts no stacks
  of matrices and divides by zero for a stack of no elements, a zero ``fill`` (so a scalar
  written through a basic key, or a 0-d array made from host data) is a memset that makes -0.0
  +0.0, a NumPy array written through a basic key is refused (ValueError), 64-bit shifts
  take the amount's low 32 bits, a uint64 array true-divided by a Python int past int64
  raises OverflowError, ``max``/``min``/``argmax``/``argmin`` of an empty axis whose result
  is empty return it (CuPy's names ``amax``/``amin``), and the complex-to-real FFTs read
  the imaginary parts of their zero-frequency and n // 2 terms (fft.py); ``x[0]`` is a 0-d
  view written through, and a 0-d array is no ``__index__``;
- ``ElementwiseKernel`` compiles its operation (CUDA C++ dltensor writes) with the host's C
  compiler and runs it over the arrays (``_kernel.py``), so that code runs as written.

Use: ``PYTHONPATH=tests/cudasim python -m pytest -m gpu tests`` (tests/test_cudasim.py does).
"""
import ctypes
import operator
import weakref

import numpy as _np

from . import _capsule, _departures, _kernel, cuda
from .cuda import _current_id

__version__ = "14.2.0"
SIMULATOR = True  # (tests that need real CUDA memory -- PyTorch's, JAX's, numba's -- skip)

_ranges = []


def _register(a, dev):
    # A range is "device memory" only while the NumPy buffer behind it lives: host memory
    # allocated later at a freed range's address must read as host memory again.
    if a.nbytes:
        start = a.__array_interface__["data"][0]
        root = a
        while isinstance(root.base, _np.ndarray):
            root = root.base
        try:
            alive = weakref.ref(root)
        except TypeError:
            alive = lambda: True  # noqa: E731 (a buffer NumPy does not own: kept as before)
        _ranges.append((start, start + a.nbytes, dev, alive))
        del _ranges[:-20000]


def _owner_of(ptr):
    for start, end, dev, alive in reversed(_ranges):
        if start <= ptr < end and alive() is not None:
            return dev
    return None


def _check_device(arrays):
    cur = _current_id()
    for a in arrays:
        if a._dev != cur:
            raise ValueError(f"Array device must be same as the current device: array device "
                             f"= {a._dev} while current = {cur}")


class _Memory:
    def __init__(self, a, dev):
        self.ptr = a.__array_interface__["data"][0]
        self.device_id = dev

    def copy_from_device_async(self, src, size, stream=None):
        if not isinstance(src, _Memory):
            raise TypeError("src must be a MemoryPointer")
        if stream is not None and not isinstance(stream, cuda._BaseStream):
            raise TypeError(f"stream must be a Stream, not {stream!r}")
        cuda.LOG.append(("copy_from_device_async", src.device_id, self.device_id,
                         None if stream is None else stream.ptr))
        if size:
            ctypes.memmove(self.ptr, src.ptr, size)

    def copy_from_host_async(self, ptr, size, stream=None):
        if size:
            ctypes.memmove(self.ptr, ptr, size)


class ndarray:
    """A "GPU" array: a NumPy array ``_a`` on simulated GPU ``_dev``; ``_base`` is the array
    that owns the memory of a view (CuPy's ``base`` is that root, not the next array up)."""

    __slots__ = ("_a", "_dev", "_base", "__weakref__")
    __array_priority__ = 100

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
        if memptr is not None or strides is not None:
            raise NotImplementedError("the simulator allocates its own memory")
        a = _np.empty(shape, dtype, order=order)
        self._a, self._dev, self._base = a, _current_id(), None
        _register(a, self._dev)

    # --- identity and metadata ---
    @property
    def shape(self):
        return self._a.shape

    @shape.setter
    def shape(self, shape):  # as CuPy's: in place where a view has that shape
        try:
            self._a = self._a.reshape(shape, copy=False)
        except ValueError:
            raise AttributeError("incompatible shape") from None

    dtype = property(lambda s: s._a.dtype)
    ndim = property(lambda s: s._a.ndim)
    size = property(lambda s: s._a.size)
    strides = property(lambda s: s._a.strides)
    itemsize = property(lambda s: s._a.itemsize)
    nbytes = property(lambda s: s._a.nbytes)
    flags = property(lambda s: s._a.flags)
    base = property(lambda s: s._base)
    data = property(lambda s: _Memory(s._a, s._dev))
    device = property(lambda s: cuda.Device(s._dev))
    T = property(lambda s: _view(s._a.T, s))
    mT = property(lambda s: _view(s._a.mT, s))
    real = property(lambda s: _view(s._a.real, s) if s._a.dtype.kind == "c" else s)
    imag = property(lambda s: _view(s._a.imag, s) if s._a.dtype.kind == "c"
                    else _fresh(_np.zeros_like(s._a), s._dev))

    @real.setter  # type: ignore[no-redef]
    def real(self, v):
        self._a.real = _unwrap(v)

    @imag.setter  # type: ignore[no-redef]
    def imag(self, v):
        self._a.imag = _unwrap(v)

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed. Please use "
                        "`.get()` to construct a NumPy array explicitly.")

    def get(self, stream=None, order="C", out=None, blocking=True):
        if stream is None:  # (as CuPy 14.2's: the *current* GPU's current stream)
            stream = cuda.get_current_stream()
        cuda.LOG.append(("get", self._dev, stream.ptr, stream._device()))
        return _np.array(self._a, order=order)

    def set(self, arr, stream=None):  # as CuPy 14.2's
        if not isinstance(arr, _np.ndarray):
            raise TypeError('Only numpy.ndarray can be set to cupy.ndarray')
        if self.dtype != arr.dtype:
            raise TypeError(f'{arr.dtype} array cannot be set to {self.dtype} array')
        if self.shape != arr.shape:
            raise ValueError(f'Shape mismatch. Old shape: {self.shape}, new shape: {arr.shape}')
        if not (self._a.flags.c_contiguous or self._a.flags.f_contiguous):
            raise RuntimeError('Cannot set to non-contiguous array')
        if stream is not None and not isinstance(stream, cuda._BaseStream):
            raise TypeError(f"stream must be a Stream, not {stream!r}")
        self._a[...] = arr

    def __repr__(self):
        return repr(self._a).replace("array(", "fakecupy(")

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __bool__(self):
        return bool(self._a)

    def __int__(self):
        return int(self._a)

    def __float__(self):
        return float(self._a)

    def __complex__(self):
        return complex(self._a)

    # (no __index__: CuPy 14.2's ndarray has none, so a 0-d array is no int to operator.index)

    def item(self):
        return self._a.item()

    def tolist(self):
        return self._a.tolist()

    def __getitem__(self, key):
        _c_slices(key)
        key = _unwrap_key(key)
        parts = key if isinstance(key, tuple) else (key,)
        if not any(isinstance(k, (_np.ndarray, list)) or k is Ellipsis for k in parts):
            key = (*parts, Ellipsis)  # (CuPy's x[0] is a 0-d view, written through)
        _departures.count_lone_mask(parts)
        if any(isinstance(k, (_np.ndarray, list)) for k in parts):
            _check_device([self])  # (index arrays and masks run kernels: take, scan)
        with _np.errstate(all="ignore"):
            r = self._a[_departures.wrapped_indices(key, self._a.shape)]
        at = [j for j, k in enumerate(parts) if isinstance(k, _np.ndarray) and
              k.dtype.kind in "iu"]
        if at and at[-1] - at[0] == len(at) - 1 and all(
                type(k) is slice or k is Ellipsis for j, k in enumerate(parts) if j not in at):
            # (integer arrays next to each other after basic slices: _take's gather from the
            # first of their axes; modelled for keys of slices and such arrays alone)
            before, after = parts[:at[0]], parts[at[-1] + 1:]
            view = self._a[before + (slice(None),) * len(at) + after]
            start = view.ndim - len(at) - len(after) if Ellipsis in before else at[0]
            count = int(_np.prod(_np.broadcast_shapes(*(parts[j].shape for j in at))))
            r = _departures.spoiled_gather(r, int(_np.prod(view.shape[:start])), count,
                                           int(_np.prod(view.shape[start + len(at):])))
        return _result(r, self)

    def __setitem__(self, key, value):
        _check_device([self])
        _c_slices(key)
        _c_scalars((value,))  # (_scatter_op copies a Python scalar by a kernel: a CScalar)
        key = _unwrap_key(key)
        parts = key if isinstance(key, tuple) else (key,)
        if not isinstance(value, ndarray) and not any(isinstance(k, _np.ndarray) for k in parts):
            if not any(k is Ellipsis for k in parts):
                parts = (*parts, Ellipsis)  # (a view also where every axis has an int)
            _view(self._a[parts], self).fill(value)  # (CuPy's _scatter_op: basic keys fill)
            return
        lone = key[0] if isinstance(key, tuple) and len(key) == 1 else key
        arrays = [k for k in parts if isinstance(k, _np.ndarray)]
        if len(arrays) == 1 and _np.may_share_memory(arrays[0], self._a):
            # (_scatter_op_single and _mask_single read one index array or mask in the kernel
            # that writes the target, in parallel: what a thread reads another may have
            # written. Several are reduced to new indices first.)
            raise RuntimeError("cudasim: a scatter whose index array shares memory with its "
                               "target races on a GPU")
        _departures.count_lone_mask(parts)
        if isinstance(lone, _np.ndarray) and lone.dtype == bool:
            if any(m not in (n, 0) for m, n in zip(lone.shape, self._a.shape)):
                raise IndexError("boolean index did not match indexed array")  # (_view_getitem)
            if not lone.any() or 0 in self._a.shape[lone.ndim:]:
                return  # (_scatter_op_mask_single: an empty selection, the value unbroadcast)
        self._a[_departures.wrapped_indices(key, self._a.shape)] = _unwrap(value, allow_numpy=True)

    def fill(self, value):  # as CuPy 14.2's: a zero is a memset (-0.0 becomes +0.0)
        _check_device([self])
        _c_scalars((value,))  # (else a copy kernel: a CScalar)
        if isinstance(value, ndarray):
            if value.shape != ():
                raise ValueError("non-scalar cupy.ndarray cannot be used for fill")
            value = value._a.astype(self.dtype)[()]
        else:
            value = _np.asarray(value, dtype=self.dtype)
            if value.shape != ():
                raise ValueError("non-scalar numpy.ndarray cannot be used for fill")
            value = value[()]
        self._a[...] = 0 if value == 0 and self._a.flags.c_contiguous else value

    def sort(self, axis=-1, kind=None):
        _check_device([self])
        self._a[...] = _departures.radix_order(_np.sort, "sort")(self._a, axis=axis, kind=kind)

    def argsort(self, axis=-1, kind=None):
        _check_device([self])
        order = _departures.radix_order(_np.argsort, "argsort")
        return _result(order(self._a, axis=axis, kind=kind), None)

    def take(self, indices, axis=None, out=None):
        _check_device([self])
        return _result(_take(self._a, indices, axis, out), None)

    def __getattr__(self, name):  # methods: run on NumPy's array, results wrapped
        if name.startswith("__"):
            raise AttributeError(name)
        fn = getattr(self._a, name)
        if not callable(fn):
            return _result(fn, self)

        def method(*args, **kwargs):
            _c_sizes(name, (self, *args), kwargs)
            if name in _departures.REDUCTIONS and kwargs.get("axis") is not None:
                kwargs["axis"] = _departures.reduction_axis(name, kwargs["axis"], self._a.shape)
            if name not in ("copy", "view", "get", "reshape", "transpose", "swapaxes", "ravel"):
                _check_device([self])
            with _np.errstate(all="ignore"):
                r = fn(*_unwrap(args), **_unwrap(kwargs))
            if name in ("reshape", "ravel") and r.size and not _np.shares_memory(r, self._a):
                _check_device([self])  # (a copy of a non-contiguous array: a kernel)
            return _result(r, self)
        return method

    def view(self, dtype=None):
        return _view(self._a.view() if dtype is None else self._a.view(dtype), self)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return diagonal(self, offset, axis1, axis2)

    def copy(self, order="C"):
        with cuda.Device(self._dev):
            return _fresh(self._a.copy(order=order), self._dev)

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        _check_device([self])
        r = self._a.astype(dtype, order=order, copy=copy)
        return self if r is self._a else _fresh(r, self._dev)

    # --- protocols ---
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        arrays = [a for a in inputs if isinstance(a, ndarray)]
        _check_device(arrays)
        out = kwargs.get("out")
        fn = getattr(ufunc, method)
        if method == "__call__" and not kwargs and ufunc.__name__ in _departures.BY_NAME:
            fn = _departures.BY_NAME[ufunc.__name__]
        with _np.errstate(all="ignore"):
            r = fn(*_unwrap(inputs), **_unwrap(kwargs))
        if out is not None:
            return out[0] if isinstance(out, tuple) and len(out) == 1 else out
        return _result(r, None)

    def __array_function__(self, func, types, args, kwargs):
        name = func.__name__
        mod = func.__module__ or ""
        ns = globals()
        if "linalg" in mod:
            from . import linalg as ns_mod
            ns = vars(ns_mod)
        elif "fft" in mod:
            from . import fft as ns_mod
            ns = vars(ns_mod)
        fn = ns.get(name) or _module_function(func)
        return fn(*args, **kwargs)

    def __dlpack_device__(self):
        return (2, self._dev)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if stream is not None and (not isinstance(stream, int) or isinstance(stream, bool)):
            raise TypeError(f"stream must be int or None, not {stream!r}")
        if stream == 0:
            raise ValueError("Stream 0 is not allowed (ambiguous)")
        cuda.LOG.append(("__dlpack__", stream))
        versioned = max_version is not None and max_version[0] >= 1
        to_cpu = dl_device is not None and tuple(dl_device) == (1, 0)
        if dl_device is not None and not to_cpu and tuple(dl_device) != (2, self._dev):
            raise BufferError(f"cannot export to {dl_device}")
        if copy is False and to_cpu:
            raise BufferError("a copy to the CPU is needed")
        if copy is True and not to_cpu:  # (as CuPy 14.2's: it copies to the CPU only)
            raise BufferError("copy=True only supported for copy to CPU.")
        # (a copy to the CPU is CuPy's get(stream=None): on the current GPU's current stream)
        a = self.get(order="A") if to_cpu else self._a
        if versioned:
            cap = a.__dlpack__(max_version=(1, 0), copy=False)
        else:
            if not a.flags.writeable:
                a = a.copy()
            cap = a.__dlpack__()
        if not to_cpu:
            _capsule.set_device(cap, versioned, 2, self._dev)
            _capsule.strides_as_cupy_14_2(cap, versioned)
        if to_cpu and versioned:
            _capsule.or_flags(cap, 2)  # DLPACK_FLAG_BITMASK_IS_COPIED
        return cap

    @property
    def __cuda_array_interface__(self):
        a = self._a
        # As CuPy: the *current* GPU's current stream (a reader asks on the array's GPU, or
        # orders against the wrong one), and no pointer for no elements
        return {"shape": a.shape, "typestr": a.dtype.str, "descr": a.dtype.descr,
                "data": (a.__array_interface__["data"][0] if a.size else 0, False),
                "version": 3, "strides": None if a.flags.c_contiguous else a.strides,
                "stream": cuda.get_current_stream().ptr or 1}


def _take(a, indices, axis=None, out=None):
    return _departures.take(a, _unwrap(indices, allow_numpy=True), axis, out)


def _c_scalars(args):
    """CuPy 14.2 packs a Python int into int64 or uint64 (CScalar) before anything else: one
    outside [-2**63, 2**64) is an OverflowError, also beside a float array."""
    for v in args:
        if type(v) is int and not -2 ** 63 <= v < 2 ** 64:
            raise OverflowError("Python int too large to convert to C long")


class WrappedSize(RuntimeError):
    """What the simulator raises where CuPy 14.2 computes a size or offset in C integers that
    wrap, and returns an array of the wrong size (a view past its memory) without an error."""


def _c_sizes(name, args, kwargs):
    """CuPy's sizes are C ssize_t products, unchecked (broadcast_to takes negative extents,
    reshape's known extents, tile's and repeat's results wrap), diagonal's offset is negated
    as a C ssize_t, and a slice's bounds are converted to it (OverflowError)."""
    def product(extents):
        n = 1
        for e in extents:
            n *= abs(e)
        return n
    a = args[0] if args else None
    shape = kwargs.get("shape", args[1] if len(args) > 1 else None)
    if name in ("zeros", "empty", "ones", "full"):
        shape = kwargs.get("shape", a)
    if isinstance(shape, int):
        shape = (shape,)
    if name in ("zeros", "empty", "ones", "full") and isinstance(shape, (tuple, list)) and \
            all(type(e) is int for e in shape):
        if any(not -(1 << 63) <= e < 1 << 63 for e in shape):
            raise OverflowError("Python int too large to convert to C ssize_t")
        if product(shape) >= 1 << 63:
            raise WrappedSize(f"{name}{tuple(shape)}: CuPy's size wraps")
    if name in ("broadcast_to", "reshape", "tile") and isinstance(shape, (tuple, list)) and \
            all(type(e) is int for e in shape):
        if name == "broadcast_to" and any(e < 0 for e in shape):
            raise WrappedSize(f"{name}{tuple(shape)}: CuPy makes an array of negative size")
        size = product(e for e in shape if e != -1)
        if name == "tile":
            size *= getattr(a, "size", 1)
        if size >= 1 << 63:
            raise WrappedSize(f"{name}{tuple(shape)}: CuPy's size wraps")
    if name == "repeat" and len(args) > 1 and type(args[1]) is int and \
            getattr(a, "size", 0) * abs(args[1]) >= 1 << 63:
        raise WrappedSize("repeat: CuPy's size wraps")
    if name in ("diagonal", "trace"):
        offset = kwargs.get("offset", args[1] if len(args) > 1 else 0)
        if type(offset) is int and not -(1 << 63) < offset < 1 << 63:
            raise WrappedSize(f"{name}: CuPy's offset {offset} wraps")


def _c_slices(key):
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, slice):
            for v in (k.start, k.stop, k.step):
                if type(v) is int and not -(1 << 63) <= v < 1 << 63:
                    raise OverflowError("Python int too large to convert to C ssize_t")


def _binary(name, reflected=False, inplace=False):
    base = name[1:] if inplace else name
    op = _departures.BY_NAME.get(base, getattr(operator, base))

    def f(self, other):
        _c_scalars((other,))
        if isinstance(other, _np.ndarray):
            raise TypeError(f"Unsupported type {type(other)}")
        if not isinstance(other, (ndarray, int, float, complex, bool, _np.generic)):
            return NotImplemented
        arrays = [self] + ([other] if isinstance(other, ndarray) else [])
        _check_device(arrays)
        o = _unwrap(other)
        if inplace:
            with _np.errstate(all="ignore"):
                r = op(self._a, o)
                if _np.result_type(r) != self.dtype and not _np.can_cast(
                        _np.result_type(r), self.dtype, "same_kind"):
                    raise TypeError(f"Cannot cast {_np.result_type(r)} to {self.dtype}")
                self._a[...] = r
            return self
        with _np.errstate(all="ignore"):
            r = op(o, self._a) if reflected else op(self._a, o)
        return _result(r, None)
    return f


for _n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_",
           "xor", "lshift", "rshift"):
    _d = _n.rstrip("_")
    setattr(ndarray, f"__{_d}__", _binary(_n))
    setattr(ndarray, f"__r{_d}__", _binary(_n, reflected=True))
    setattr(ndarray, f"__i{_d}__", _binary(f"i{_n}", inplace=True))
for _n in ("lt", "le", "eq", "ne", "gt", "ge"):
    setattr(ndarray, f"__{_n}__", _binary(_n))
for _n in ("neg", "pos", "abs", "invert"):
    def _u(self, _op=getattr(operator, _n)):
        _check_device([self])
        return _result(_op(self._a), None)
    setattr(ndarray, f"__{_n}__", _u)
ndarray.__hash__ = None


# --- wrapping -------------------------------------------------------------------------------


def _fresh(a, dev):
    r = object.__new__(ndarray)
    r._a, r._dev, r._base = a, dev, None
    _register(a, dev)
    return r


def _view(a, parent):
    r = object.__new__(ndarray)
    r._a, r._dev, r._base = a, parent._dev, parent._base if parent._base is not None else parent
    return r


def _result(r, parent, dev=None):
    if isinstance(r, tuple):
        return type(r)(*(_result(x, parent, dev) for x in r)) if hasattr(r, "_fields") \
            else tuple(_result(x, parent, dev) for x in r)
    if isinstance(r, list):
        return [_result(x, parent, dev) for x in r]
    if isinstance(r, _np.generic) and not isinstance(r, (_np.void,)):
        r = _np.asarray(r)
    if isinstance(r, _np.ndarray):
        if parent is not None and r.base is not None and _np.may_share_memory(r, parent._a):
            return _view(r, parent)
        return _fresh(r, parent._dev if parent is not None else
                      (_current_id() if dev is None else dev))
    return r


def _unwrap(x, allow_numpy=False):
    if isinstance(x, ndarray):
        return x._a
    if isinstance(x, _np.ndarray) and not allow_numpy:
        raise TypeError(f"Unsupported type {type(x)}")
    if isinstance(x, tuple):
        return type(x)(*(_unwrap(v) for v in x)) if hasattr(x, "_fields") \
            else tuple(_unwrap(v, allow_numpy) for v in x)
    if isinstance(x, list):
        return [_unwrap(v, allow_numpy) for v in x]
    if isinstance(x, dict):
        return {k: _unwrap(v, allow_numpy) for k, v in x.items()}
    return x


def _unwrap_key(key):
    return _unwrap(key, allow_numpy=True)


def _module_function(fn, name=None):
    numpy_fn = fn
    if (name or getattr(fn, "__name__", "")) in _departures.BY_NAME:
        dep = _departures.BY_NAME[name or fn.__name__]
        fn = lambda *a, **k: dep(*a) if not k else numpy_fn(*a, **k)  # noqa: E731
    elif name == "take":
        fn = _take
    elif name in ("transpose", "permute_dims"):  # (one function in CuPy 14.2)
        fn = _departures.transpose
    elif name in ("sort", "argsort"):
        fn = _departures.radix_order(numpy_fn, name)
    elif name in ("argmax", "argmin"):
        fn = _departures.last_nan(_departures.empty_reduced(numpy_fn, index=True))
    elif name in ("max", "min", "amax", "amin"):
        fn = _departures.empty_reduced(numpy_fn, index=False)
    elif name == "unique":
        fn = _departures.unique
    elif name == "isin":
        fn = _departures.isin
    elif name == "mean":
        fn = _departures.mean
    elif name == "repeat":
        fn = _departures.repeat
    elif name == "roll":
        fn = _departures.roll
    elif name in ("tril", "triu"):
        fn = _departures.triangle(name)
    elif name in ("cumsum", "cumprod"):
        fn = _departures.scan(numpy_fn)
    elif name == "count_nonzero":  # (a reduction: a 0-d array, where NumPy < 2.3 gave an int)
        fn = lambda *a, **k: _np.asarray(numpy_fn(*a, **k), dtype=_np.intp)  # noqa: E731

    # (kernels, and eye's diagonal(k), take a Python int as a C integer; roll and the like
    # compute with it in Python)
    c_ints = isinstance(numpy_fn, _np.ufunc) or name in ("full", "full_like", "clip", "where",
                                                         "eye")

    def f(*args, **kwargs):
        _c_sizes(name, args, kwargs)
        if name in _departures.REDUCTIONS and kwargs.get("axis") is not None and args and \
                isinstance(args[0], ndarray):
            kwargs["axis"] = _departures.reduction_axis(name, kwargs["axis"], args[0].shape)
        if name == "count_nonzero" and len(args) > 1 and args[1] is not None:  # (by position:
            args = (args[0], _departures.reduction_axis(name, args[1], args[0].shape),  # compat)
                    *args[2:])
        if c_ints:
            _c_scalars(args)
            _c_scalars(kwargs.values())
        if name == "clip" and args and isinstance(args[0], ndarray) and \
                args[0]._a.dtype.kind in "iu":  # (NEP 50's packing into the array's dtype,
            info = _np.iinfo(args[0]._a.dtype)  # where NumPy 2.4's clip takes any int)
            for v in (*args[1:], *kwargs.values()):
                if type(v) is int and not info.min <= v <= info.max:
                    raise OverflowError(f"Python integer {v} out of bounds for "
                                        f"{args[0]._a.dtype}")
        if name == "where" and args and not isinstance(args[0], ndarray):
            # (CuPy's where calls condition.astype('?'): a Python bool has none)
            raise AttributeError(f"'{type(args[0]).__name__}' object has no attribute 'astype'")
        found = []

        def collect(x):
            if isinstance(x, ndarray):
                found.append(x)
            elif isinstance(x, (tuple, list)):
                for v in x:
                    collect(v)
        collect(args)
        collect(list(kwargs.values()))
        _check_device(found)
        parent = found[0] if len(found) == 1 else None
        import warnings
        with _np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = fn(*_unwrap(args), **_unwrap(kwargs))
        if parent is not None and isinstance(r, _np.ndarray) and r.base is not None \
                and _np.may_share_memory(r, parent._a):
            return _view(r, parent)
        return _result(r, None)
    import functools
    try:
        f = functools.wraps(numpy_fn)(f)
    except Exception:
        pass
    f.__name__ = name or getattr(fn, "__name__", "f")
    f.__name__ = {"max": "amax", "min": "amin"}.get(f.__name__, f.__name__)  # (CuPy's names)
    return f


def _module_getattr(src, cache, absent=frozenset()):
    """A submodule's ``__getattr__``: ``src``'s functions (NumPy's ``linalg``, ``fft``) over the
    simulator's arrays, found once into ``cache``; the names CuPy has not (``absent``) are
    not there."""
    def __getattr__(name):
        if name.startswith("__") or not hasattr(src, name) or name in absent:
            raise AttributeError(name)
        value = cache[name] = _namespace_attr(src, name)
        return value
    return __getattr__


_PASS = (type, _np.dtype)


def _namespace_attr(src, name):
    value = getattr(src, name)
    if isinstance(value, _PASS) or not callable(value) or name in ("finfo", "iinfo", "dtype",
                                                                    "issubdtype", "isdtype",
                                                                    "result_type",
                                                                    "can_cast",
                                                                    "promote_types"):
        return value
    return _module_function(value, name)


# --- creation from host data -------------------------------------------------------------------


def asarray(a, dtype=None, order=None, *, blocking=False):
    if isinstance(a, ndarray):
        if a._dev != _current_id():
            return _fresh(_np.asarray(a._a, dtype=dtype, order=order).copy(), _current_id())
        r = _np.asarray(a._a, dtype=dtype, order=order)
        return a if r is a._a else _result(r, a)
    if hasattr(a, "__cuda_array_interface__"):
        return _from_cai(a)
    return _from_host(_np.array(a, dtype=dtype, order=order, copy=True))


def _from_host(a):
    """Host data made a device array as CuPy's core.array makes it: a 0-d one by fill()."""
    r = _fresh(a, _current_id())
    if a.ndim == 0:
        r.fill(a[()])
    return r


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    if isinstance(obj, ndarray):
        if copy is False:
            return asarray(obj, dtype)
        return _fresh(_np.array(obj._a, dtype=dtype, copy=True, order=order, ndmin=ndmin),
                      _current_id())
    if hasattr(obj, "__cuda_array_interface__"):
        r = _from_cai(obj)
        return r.copy() if copy else r
    return _from_host(_np.array(obj, dtype=dtype, copy=True, order=order, ndmin=ndmin))


def arange(start, stop=None, step=None, dtype=None):  # as CuPy 14.2's (cupy/_creation)
    if dtype is None:
        dtype = float if any(_np.dtype(type(v)).kind == "f" for v in (start, stop, step)
                             if v is not None) else int
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    size = int(_np.ceil((stop - start) / step))  # (counted in float64)
    if size <= 0:
        return _fresh(_np.empty((0,), dtype), _current_id())
    if _np.dtype(dtype) == bool:
        if size > 2:
            raise TypeError("arange() is only supported for booleans when the result has at "
                            "most length 2.")
        return array([start, start - step][:size], dtype=bool)
    typ = _np.dtype(dtype).type
    first, delta = typ(start), typ(step)  # (an unsigned dtype refuses a negative step here)
    i = _np.arange(size, dtype=_np.int64)  # out0 = in0 + i * in1, in the dtype
    with _np.errstate(all="ignore"):
        if _np.dtype(dtype).kind in "iu":  # (C's ptrdiff_t i times the dtype: in unsigned
            # long long for uint64, which wraps as it does, else in a 64-bit int)
            wide = _np.uint64 if _np.dtype(dtype) == _np.uint64 else _np.int64
            values = (i.astype(wide) * wide(delta) + wide(first)).astype(dtype)
        else:
            values = (i.astype(dtype) * delta + first).astype(dtype)
    return _fresh(values, _current_id())


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """As CuPy 14.2's for scalar bounds (_linspace_scalar): the step taken as float() (complex
    bounds: TypeError), a single value written by fill() and the last by setitem (a zero by
    memset: -0.0 becomes +0.0)."""
    if isinstance(start, ndarray) or isinstance(stop, ndarray) or axis != 0:
        return _module_function(_np.linspace, "linspace")(start, stop, num, endpoint,
                                                           retstep, dtype, axis)
    result_dtype = _np.result_type(start, stop, float(num))
    ret = ndarray((num,), result_dtype)
    div = (num - 1) if endpoint else num
    if div <= 0:
        if num > 0:
            ret.fill(start)
        step = float("nan")
    else:
        step = float(stop - start) / div
        stop = float(stop)
        i = _np.arange(num)
        with _np.errstate(all="ignore"):
            ret._a[...] = start + i * (stop - start) / div if step == 0.0 else start + i * step
        if endpoint:
            ret[-1] = stop
    if dtype is not None and _np.dtype(dtype).kind in "iu":
        ret._a[...] = _np.floor(ret._a)
    ret = ret.astype(result_dtype if dtype is None else dtype, copy=False)
    return (ret, step) if retstep else ret


def ascontiguousarray(a, dtype=None):
    r = _np.ascontiguousarray(_unwrap(a), dtype=dtype)
    return a if isinstance(a, ndarray) and r is a._a else _result(r, a if isinstance(a, ndarray)
                                                                   else None)


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    return a.get() if isinstance(a, ndarray) else _np.asarray(a)


def get_array_module(*args):
    import sys
    return sys.modules[__name__] if any(isinstance(a, ndarray) for a in args) else _np


def _from_cai(obj):
    cai = obj.__cuda_array_interface__

    class Holder:
        __array_interface__ = {"shape": cai["shape"], "typestr": cai["typestr"],
                               "data": cai["data"], "strides": cai.get("strides"),
                               "version": 3}
    a = _np.asarray(Holder()) if _np.prod(cai["shape"]) else _np.empty(cai["shape"],
                                                                        cai["typestr"])
    r = _fresh(a, _owner_of(cai["data"][0]) or _current_id())
    r._base = r
    return r


def from_dlpack(x, *, device=None, copy=None):
    """CuPy 14's consumer: asks a CUDA producer with the current stream, reads the capsule
    (validated independently of dltensor's own reader), keeps the capsule as the owner."""
    if not hasattr(x, "__dlpack_device__"):  # a capsule itself: taken as it is (CuPy 14)
        r = object.__new__(ndarray)
        r._a, r._dev = _capsule.take(x)
        r._base = None
        return r
    dev_type, dev_id = x.__dlpack_device__()
    if dev_type == 2:
        stream = cuda.get_current_stream(dev_id).ptr or 1
    elif dev_type in (1, 3, 13):
        stream = None
    else:
        raise BufferError(f"CuPy cannot import device type {dev_type}")
    try:
        cap = x.__dlpack__(stream=stream, max_version=(1, 0))
    except TypeError:
        cap = x.__dlpack__(stream=stream)
    a = _capsule.read(cap, (dev_type, dev_id))
    if dev_type != 2:  # host memory: copied to the current GPU
        return _fresh(a.copy(), _current_id())
    r = object.__new__(ndarray)
    r._a, r._dev, r._base = a, dev_id, None  # (the capsule, kept by a, owns the memory)
    return r


fromDlpack = from_dlpack


def reshape(a, newshape, order="C", *, copy=None):  # as CuPy 14.2's: it iterates the shape
    if isinstance(newshape, ndarray):
        raise TypeError("iteration over a 0-d array")
    kwargs = {} if copy is None else {"copy": copy}
    return _namespace_attr(_np, "reshape")(a, newshape, order=order, **kwargs)


def tensordot(a, b, axes=2):  # as CuPy 14.2's (cupy/linalg/_product.py)
    if (a.ndim == 0 or b.ndim == 0) and axes != 0 and axes != ((), ()):
        raise ValueError("An input is zero-dim while axes has dimensions")
    r = _namespace_attr(_np, "tensordot")(a, b, axes=axes)
    if r.size == 1 and (type(axes) is int or a.ndim == b.ndim == 1):  # (one element: a
        # vector dot, its products in the order of the arrays' elements)
        r = _result(_departures.half_dot(r._a, a._a, b._a), None)
    return r


class ElementwiseKernel:
    """CuPy's user-defined kernel: its operation compiled for the host (``_kernel``), run on
    the current GPU's arrays (another GPU's: CuPy's ValueError), results there."""

    def __init__(self, in_params, out_params, operation, name="kernel", options=(), **kwargs):
        if kwargs or not isinstance(options, tuple):
            raise NotImplementedError(f"the simulator's kernels take no {sorted(kwargs)}")
        self._kernel = _kernel.Kernel(in_params, out_params, operation, name, options)

    def __call__(self, *args):
        if not all(isinstance(a, ndarray) or type(a) in (bool, int, float) for a in args):
            raise NotImplementedError("the simulator's kernels take CuPy arrays and Python "
                                      "scalars only")
        arrays = [a for a in args if isinstance(a, ndarray)]
        _check_device(arrays)
        _c_scalars(args)  # (a Python int packed into a C integer)
        return _result(self._kernel(*(a._a if isinstance(a, ndarray) else a for a in args)),
                       None)

# Everything else: NumPy's function over the unwrapped arrays, its results wrapped.

# NumPy's names that CuPy 14.2's cupy/__init__.py does not export (array-api-compat and
# dltensor must do without them on CUDA: refused here as CuPy would, AttributeError)
NOT_IN_CUPY = frozenset("""
    False_ ScalarType True_ asmatrix block bmat busday_count busday_offset busdaycalendar bytes_
    char character clongdouble complex256 core ctypeslib datetime64 datetime_as_string
    datetime_data einsum_path emath errstate f2py flexible float128 frompyfunc fromregex
    geomspace get_include getbufsize geterr geterrcall histogram_bin_edges info insert is_busday
    isnat lib little_endian longdouble ma matrix matvec memmap nanpercentile nanquantile
    ndenumerate nditer nested_iters object_ polyder polydiv polyint rec recarray record
    sctypeDict setbufsize seterr seterrcall show_runtime spacing str_ strings test timedelta64
    typecodes typing unstack vecdot vecmat void""".split())


bool_ = _np.bool_
__all__ = [n for n in dir(_np) if not n.startswith("_") and n not in NOT_IN_CUPY and n not in
           ("testing", "linalg", "fft", "random", "ma", "lib", "ctypeslib", "char", "rec",
            "polynomial", "emath", "core", "typing", "f2py", "strings", "exceptions",
            "version", "matlib", "dtypes", "ndarray", "asarray", "array", "from_dlpack",
            "ascontiguousarray", "show_config", "show_runtime", "info", "test")]
__all__ += ["ndarray", "asarray", "array", "from_dlpack", "ascontiguousarray",
            "ElementwiseKernel"]


def diagonal(a, offset=0, axis1=0, axis2=1):
    """A writable view, as CuPy's (``_diagonal``: a view of new strides), where NumPy's is
    read-only."""
    r = _namespace_attr(_np, "diagonal")(a, offset, axis1, axis2)
    if a._a.flags.writeable and r._a.base is not None:
        r._a.flags.writeable = True
    return r


def broadcast_arrays(*args):
    """As CuPy's (``internal._broadcast_core``, shapes compared in Python): writable views up
    to CuPy's 64 dimensions, where NumPy's np.broadcast stops at 32."""
    nd = max((a.ndim for a in args), default=0)
    shape = [1] * nd
    for a in args:
        for i, e in enumerate(a.shape, nd - a.ndim):
            if e != 1 and shape[i] not in (1, e):
                raise ValueError("operands could not be broadcast together with shapes "
                                 + " ".join(str(x.shape) for x in args))
            shape[i] = e if e != 1 else shape[i]
    views = tuple(_namespace_attr(_np, "broadcast_to")(a, tuple(shape)) for a in args)
    for a, r in zip(args, views):
        r._a.flags.writeable = a._a.flags.writeable
    return views


def __getattr__(name):
    if name.startswith("__") or not hasattr(_np, name) or name in NOT_IN_CUPY or \
            name in ("linalg", "fft", "random", "testing"):
        raise AttributeError(f"module 'cupy' has no attribute {name!r}")
    value = _cache.get(name)
    if value is None:  # (not in globals(): names like bool would shadow the builtins here)
        value = _cache[name] = _namespace_attr(_np, name)
    return value


_cache = {}


from . import fft, linalg, random  # noqa: E402,F401
