"""Layer 5's base: delegating an array API call to the backend of its arrays' device.

Each namespace module describes its functions (a table row each) and builds them with the
helpers here, so the unwrap / same-device check / call / wrap sequence is written once.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import math
import numbers
import operator
import reprlib
import sys
import threading
import warnings
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, TypeVar, cast

import numpy as np

from ._array import CPU_READABLE, held, inherit_read_only, ndarray, wrap
from ._backends import NoBackendError, backend_for, backend_or_none
from ._devices import CPU, CUDA_TYPE, Device, as_device
from ._dlpack.consume import ForkSafeLock
from ._dtypes import EXTENSION_FLOATS, DType, computable, extension_float
from ._held import VIEWS, held_view

__all__ = ["device_of", "namespace_for", "native", "wrap_result", "delegate", "delegate_first",
           "cpu_error_first", "native_or_cpu_error", "delegating", "reduction_axes",
           "check_c_int_axis", "native_dtype", "check_device", "common_device", "on",
           "NULL_CONTEXT", "fresh", "expect_array", "type_name", "axis_checked",
           "axis_past_c_int", "flag", "array_module"]

_np_ndarray, _np_generic, _np_asarray = np.ndarray, np.generic, np.asarray
AxisError = np.exceptions.AxisError  # (both an IndexError, as the spec asks, and a ValueError)
_F = TypeVar("_F", bound=Callable[..., Any])
_T = TypeVar("_T")


def check_device(*arrays: ndarray) -> Device:
    """The one device of the given arrays; ValueError when they are on different devices."""
    dev = arrays[0]._device
    for x in arrays[1:]:
        if x._device is not dev and x._device != dev:  # (devices are mostly the same object)
            dev = common_device(dev, x._device)
    return dev


def type_name(x: object) -> str:
    """The name of x's type for a message: ``numpy.ndarray``, not an ``ndarray`` like ours;
    ours by their public names (``dltensor.DType``, not ``dltensor._dtypes.DType``)."""
    t = type(x)
    if t is ndarray:
        return "dltensor.ndarray"
    if t.__module__ == "builtins":
        return t.__name__
    public = t.__module__.startswith("dltensor.") and getattr(
        sys.modules["dltensor"], t.__qualname__, None) is t
    return f"{'dltensor' if public else t.__module__}.{t.__qualname__}"


def expect_array(name: str, *xs: Any) -> None:
    """TypeError unless every ``x`` is a dltensor array, as the spec's ``array`` parameters
    are: NumPy would take a list, a scalar or None there and answer for something else."""
    for x in xs:
        if not isinstance(x, ndarray):
            raise TypeError(f"{name}() takes dltensor arrays, not {type_name(x)}; convert "
                            "with dltensor.asarray() first")


def common_device(a: Device, b: Device) -> Device:
    """The device two arrays on different devices compute on: the CPU when the CPU can read
    both (pinned and managed memory is CPU memory to NumPy, as PyTorch's pinned tensors are
    CPU tensors); else ValueError."""
    if a.device_type in CPU_READABLE and b.device_type in CPU_READABLE:
        return CPU
    raise ValueError(f"arrays are on different devices ({a} and {b}); move one with "
                     "to_device() first")


def device_of(args: Iterable[object]) -> Device:
    """The device of the ndarrays among ``args`` (CPU when there are none)."""
    arrays = [a for a in args if isinstance(a, ndarray)]
    return check_device(*arrays) if arrays else CPU


_namespaces: dict[Device, Any] = {}
# Devices each cache below keeps: a machine has a few dozen, but a producer may number pinned
# or managed memory as it likes (NumPy computes on every number), and each new number was kept
# for ever, in this cache and in every function's called on it.
_DEVICES_KEPT = 64


def _kept(cache: dict[Device, _T], device: Device, value: _T) -> _T:
    """``cache[device] = value`` while the cache holds fewer than _DEVICES_KEPT devices;
    ``value``."""
    if len(cache) < _DEVICES_KEPT:
        cache[device] = value
    return value


def namespace_for(device: Device) -> Any:
    """The array-api-compat namespace computing on ``device`` (raises for held devices)."""
    ns = _namespaces.get(device)
    if ns is None:
        ns = _kept(_namespaces, device, backend_for(device).namespace(device.device_id))
    return ns


def allocatable(device: Device) -> Device:
    """``device``, where dltensor can make new memory: NumPy computes on pinned and managed
    memory but allocates only pageable memory, which labelled so would be a silent change of
    the device asked for (NoBackendError); held devices raise as namespace_for does."""
    if device is CPU:  # (the commonest: two comparisons of Devices, Python calls, less)
        return device
    if device.device_type in CPU_READABLE and device != CPU:
        raise NoBackendError(f"dltensor cannot allocate {device} memory (NumPy allocates "
                             "pageable CPU memory); create on 'cpu' (a CUDA array goes to pinned "
                             "memory with to_device('cuda_host'))")
    if device != CPU:
        backend_for(device)
    return device


def diagonal_offset(offset: int, x: ndarray) -> int:
    """A diagonal's offset clipped to x's matrices: the same diagonal, or triangle, past them
    (NumPy takes a C int or long, OverflowError past it; CuPy a C ssize_t, whose -2**63
    negated wraps to a view past the matrix)."""
    rows, cols = x.shape[-2:] if x.ndim >= 2 else (0, 0)
    return max(-rows, min(offset, cols))


def within_largest(name: str, extents: Iterable[int], itemsize: int) -> None:
    """NumPy's ValueError for a shape past the largest array, found before the backend
    computes its size: CuPy does in C integers that wrap (a view past its memory, an array of
    0 elements) or raise OverflowError, and NumPy 2.4's repeat by 2**62 crashed."""
    extents = tuple(extents)
    if any(e >= 1 << 63 for e in extents) or math.prod(extents) * itemsize >= 1 << 63:
        raise ValueError(f"{name}: a result of shape {extents} is past the largest array")


def within_dimensions(name: str, ndim: int) -> None:
    """ValueError for a result of more axes than an array may have (NumPy 2's 64), in the words
    NumPy's zeros, reshape and expand_dims use (its stack raised IndexError, its tile spoke of
    ndmin)."""
    if ndim > 64:
        raise ValueError(f"{name}: maximum supported dimension for an ndarray is currently 64, "
                         f"found {ndim}")


NULL_CONTEXT = contextlib.nullcontext()
try:  # NumPy's C count_nonzero, which np.count_nonzero calls through a dispatcher
    from numpy._core.multiarray import count_nonzero as _c_count_nonzero
except ImportError:  # (a NumPy that moved it)
    _c_count_nonzero = np.count_nonzero
c_count_nonzero: Callable[..., Any] = _c_count_nonzero


def on(device: Device) -> contextlib.AbstractContextManager[Any]:
    """The context a backend call for ``device`` runs in: CuPy's current device made that GPU
    (CuPy computes and allocates on its current device); nothing for other devices."""
    ctx = _contexts.get(device)  # (found once: each GPU call asks, ~0.5 us the long way)
    if ctx is not None:
        return ctx
    if device.device_type == CUDA_TYPE:
        backend = backend_or_none(device)
        if backend is None:  # held: the call itself says it cannot compute (or NotImplemented)
            return NULL_CONTEXT
        ctx = _contexts[device] = cast(contextlib.AbstractContextManager[Any],
                                       backend.on(device.device_id))
        return ctx
    return NULL_CONTEXT


_contexts: dict[Device, contextlib.AbstractContextManager[Any]] = {}


def fresh(device: Device) -> Device:
    """The device of new memory a backend allocates for a call on ``device``: NumPy's is
    pageable CPU memory also when its inputs are pinned or managed (so labelled ``cpu``: a GPU
    consumer would take ``cuda_host`` memory for pinned)."""
    return CPU if device.device_type in CPU_READABLE else device


def array_module(a: Any) -> ModuleType:
    """The array module computing on a backend array: NumPy, or CuPy for CUDA arrays."""
    return np if type(a) is _np_ndarray else sys.modules[type(a).__module__.partition(".")[0]]


def native(x: Any) -> Any:
    """The backend array behind an ndarray; anything else is returned unchanged."""
    if type(x) is ndarray:
        a = x._array
        return a if a is not None else x._compute()
    return x


def wrap_result(r: Any, device: Device = CPU) -> Any:
    """Wrap what a backend call returned: arrays, NumPy scalars, and tuples/lists of them."""
    t = type(r)
    # NumPy's results are CPU memory, also when computed from pinned or managed memory, but
    # for views of that memory (flip, reshape, permute_dims...), which keep its device.
    if t is _np_ndarray:
        if device is CPU or r.base is None or device.device_type not in CPU_READABLE:
            return wrap(r, CPU)
        return wrap(r, CPU if _numpys_own(r) else device)
    if isinstance(r, np.generic):
        return wrap(np.asarray(r), CPU)
    if t is tuple or t is list or (isinstance(r, tuple) and hasattr(r, "_fields")):
        items = [wrap_result(e, device) for e in r]
        return t(*items) if hasattr(r, "_fields") else tuple(items)
    if t.__module__ == "cupy":
        # Labelled with the GPU CuPy made it on: the one it computed on, whatever was asked.
        gpu = r.data.device_id
        return wrap(r, device if device.device_type == CUDA_TYPE and gpu == device.device_id
                    else as_device((CUDA_TYPE, gpu)))
    return r


def _numpys_own(a: Any) -> bool:
    """Whether NumPy array ``a`` is (a view of) memory NumPy allocated, not memory another
    library's tensor lends it (pinned memory imported: its root owns no data)."""
    while type(a.base) is _np_ndarray:
        a = a.base
    return bool(a.flags.owndata)


class _NoStandIn(Exception):
    pass


_checking = threading.local()
# catch_warnings swaps the process-wide filter list in and back out: two checks on two threads
# interleaved so (A in, B in, A out, B out) left B's "ignore" there for good, silencing every
# warning of the process. One check at a time.
_checks = ForkSafeLock(threading.Lock)
# Held arrays up to this many elements get a CPU check (each stand-in exact and small, and the
# check's result at most its square: _amplifies); past it, or for a dtype NumPy has not, the
# refusal stands.
_CHECKED_SIZE = 1 << 10


def cpu_error_first(call: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                    refusal: NoBackendError, counts: bool = True) -> BaseException:
    """What a call on small held arrays raises: the CPU's error where the same call on CPU
    stand-ins (zeros of the held arrays' dtypes and shapes) raises one of an argument's kind
    (a bad axis, dtype or shape: TypeError, IndexError, ValueError, but not the LinAlgError
    of zeros' values), so a bad argument says what is wrong wherever its memory lives; else
    ``refusal``. Only run on the way to raising: a call computing never gets here.
    ``counts``: whether the call's ints may be counts that size its result (False for the
    element-wise operands and clip's bounds, values whose results are the arrays' shape)."""
    if getattr(_checking, "on", False) or _amplifies((args, kwargs), counts):
        # (a check within a check; counts, lengths or broadcasts that could make the check's
        # result large, repeat(x, 10**8), tile(x, (1000, 1000)), fftn(x, s=(1000, 1000, 8)),
        # clip of three vectors on three axes: refused as is; but an axis past a C int, which
        # counts as large there, is the CPU's AxisError: max(x, axis=2**31) was refused)
        return axis_past_c_int(getattr(call, "__name__", "?"), (), kwargs.get("axis")) \
            or refusal
    # (a dtype held on a GPU that computes on others: its arrays' neighbours there, a where's
    # condition, a take's indices, stand in too, or the check's error is their devices)
    devices = {v._device for v in _arrays((args, kwargs)) if held(v)}
    try:
        args = tuple(_stand_in(a, devices) for a in args)
        kwargs = {k: _stand_in(v, devices) for k, v in kwargs.items()}
    except _NoStandIn:
        return refusal
    _checking.on = True
    try:
        # (zeros: log(0) and mean of nothing warn; warnings are process-wide in Python < 3.14,
        # so another thread's are off for the microseconds of the check)
        with _checks.lock, warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            call(*args, **kwargs)
    except (NoBackendError, np.linalg.LinAlgError, MemoryError):
        return refusal
    except (TypeError, IndexError, ValueError, OverflowError) as e:  # (the CPU's own error)
        return e
    except Exception:
        return refusal
    finally:
        _checking.on = False
    return refusal


def native_or_cpu_error(x: ndarray, call: Callable[..., Any], /, *args: Any,
                        **kwargs: Any) -> Any:
    """``x``'s backend array; for held ``x``, what ``call(*args, **kwargs)`` should raise
    instead (see cpu_error_first)."""
    a = x._array
    if a is not None:
        return a
    try:
        return x._compute()
    except NoBackendError as e:
        raise cpu_error_first(call, args, kwargs, e) from None


def _amplifies(arguments: Any, counts: bool = True) -> bool:
    """Whether a call on these arguments could make a large result: a bound on its elements,
    the broadcast of every array's shape times every int (a repeat count, tile's reps, an fft
    length; none unless ``counts``), passes _CHECKED_SIZE ** 2."""
    ints: list[int] = []
    shapes: list[tuple[int, ...]] = []
    _scan(arguments, counts, ints, shapes)
    bound = 1
    for n in ints:
        bound *= max(n, 1)
        if bound > _CHECKED_SIZE ** 2:
            return True
    for extents in itertools.zip_longest(*(s[::-1] for s in shapes), fillvalue=1):
        bound *= max(extents)
        if bound > _CHECKED_SIZE ** 2:
            return True
    return False


def _scan(v: Any, counts: bool, ints: list[int], shapes: list[tuple[int, ...]]) -> None:
    """Collect the ints (where ``counts``) and the arrays' shapes in ``v``, nested containers
    too. (Not a closure of _amplifies: a nested function calling itself is a reference cycle,
    left for the collector by every refusal on held memory.)"""
    if isinstance(v, dict):
        v = tuple(v.values())
    if isinstance(v, (list, tuple)):
        for e in v:
            _scan(e, counts, ints, shapes)
    elif isinstance(v, ndarray):
        shapes.append(v.shape)
    elif counts and isinstance(v, int) and not isinstance(v, bool):
        ints.append(abs(v))


def _arrays(v: Any) -> Iterable[ndarray]:
    """The arrays in ``v``, nested containers too."""
    if isinstance(v, dict):
        v = tuple(v.values())
    if isinstance(v, (list, tuple)):
        for e in v:
            yield from _arrays(e)
    elif isinstance(v, ndarray):
        yield v


def _stand_in(v: Any, devices: set[Device]) -> Any:
    """A CPU array for a held one (zeros of its dtype and shape), and for one computed on
    beside held ones on their device (a copy of it); others as they are."""
    if isinstance(v, (list, tuple)):  # (a subclass, a namedtuple: as a plain one)
        return (list if isinstance(v, list) else tuple)(_stand_in(e, devices) for e in v)
    if not isinstance(v, ndarray):
        return v
    if not held(v):
        if v._device not in devices or v._device is CPU:
            return v
        if v.size > _CHECKED_SIZE:
            raise _NoStandIn
        a = v._compute()
        with on(v._device):  # (its values, copied to the host: a take's indices out of bounds)
            a = a.copy() if type(a) is _np_ndarray else a.get()
    elif v.dtype.numpy is None or v.size > _CHECKED_SIZE:
        raise _NoStandIn
    else:
        a = np.zeros(v.shape, v.dtype.numpy)
    a.flags.writeable = not v.read_only
    return wrap(a, CPU)


def undispatched(fn: Callable[..., Any]) -> Callable[..., Any]:
    """NumPy's function ``fn`` without the ``__array_function__`` dispatch in front of it
    (~0.2 us a call), which finds nothing to dispatch to: the delegates hand it NumPy arrays
    only. Any other function as it is."""
    return getattr(fn, "_implementation", fn)


def delegate(name: str, module_path: str = "") -> Callable[..., Any]:
    """A function that calls the backend namespace's ``name`` on unwrapped arguments.

    Arrays may be positional or keyword (none arrives inside a list: the functions of
    sequences of arrays, concat, stack, meshgrid, are written out); all must share one
    device, which the result stays on.
    """
    funcs: dict[Device, Callable[..., Any]] = {}  # (the backend's, looked up once a device)

    def f(*args: Any, **kwargs: Any) -> Any:
        arrays = [a for a in args if type(a) is ndarray]  # (every linalg and fft call)
        keyword_arrays = False
        for v in kwargs.values():
            if type(v) is ndarray:
                arrays.append(v)
                keyword_arrays = True
        dev = arrays[0]._device if len(arrays) == 1 else check_device(*arrays) if arrays else CPU
        try:
            fn = funcs.get(dev)
            if fn is None:
                ns = namespace_for(dev)
                fn = _kept(funcs, dev, undispatched(getattr(
                    getattr(ns, module_path) if module_path else ns, name)))
            nargs = [a._array if type(a) is ndarray and a._array is not None else native(a)
                     for a in args]
            if keyword_arrays:
                kwargs = {k: native(v) for k, v in kwargs.items()}
        except NoBackendError as e:
            raise cpu_error_first(f, args, kwargs, e) from None
        try:
            r = fn(*nargs, **kwargs)
        except (OverflowError, ValueError) as e:  # (see axis_past_c_int)
            raise axis_past_c_int(name, (), kwargs.get("axis")) or e
        if type(r) is _np_ndarray and dev is CPU:  # (pinned memory's views: wrap_result)
            return wrap(r, CPU)
        if isinstance(r, np.generic):  # (NumPy's reductions to a scalar: a 0-d array)
            return wrap(np.asarray(r), CPU)
        if arrays:  # (a CuPy view of a read-only array)
            inherit_read_only(native(arrays[0]), r)
        return wrap_result(r, dev)

    f.__name__ = f.__qualname__ = name
    return f


# The repr of a user's argument in an error message, at most a few levels deep (a list
# nested 10,000 deep raised RecursionError from its repr, where the TypeError was due) and
# long: the rest elided, as reprlib elides it.
_shower = reprlib.Repr()
_shower.maxlevel, _shower.maxother, _shower.maxstring = 4, 200, 200
_shower.maxlist = _shower.maxtuple = _shower.maxset = _shower.maxdict = 16
shown = _shower.repr


def strict_int(v: Any, what: str) -> int:
    """An int argument, Python's or NumPy's; TypeError naming ``what`` for a bool (NumPy reads
    True as 1), a float (NumPy truncates) or a string (NumPy parses). Of other libraries'
    arrays, 0-d integer ones only: PyTorch's __index__ answers for any one-element tensor, of
    any shape, a bool one too."""
    if type(v) is int:
        return v
    if isinstance(v, np.integer):
        return int(v)
    if not isinstance(v, (bool, np.bool_)) and not getattr(v, "ndim", 0) \
            and "bool" not in str(getattr(v, "dtype", "")):
        try:
            return operator.index(v)
        except TypeError:
            pass
    raise TypeError(f"{what} must be an int, not {shown(v)}")


def flag(name: str, what: str, v: Any) -> bool:
    """A parameter the spec types ``bool``: Python's or NumPy's bool, else TypeError (NumPy and
    CuPy read any object's truth: ``keepdims="no"`` kept the axes)."""
    if type(v) is bool:
        return v
    if isinstance(v, np.bool_):
        return bool(v)
    raise TypeError(f"{name}'s {what} must be a bool, not {shown(v)}")


def shape_tuple(name: str, shape: Any) -> tuple[int, ...]:
    """A shape given as an int or a sequence of ints (NumPy's too), as a tuple; TypeError for
    anything else, as the spec types it (NumPy iterates an array given as a shape, CuPy
    refuses it, each with its own error)."""
    try:
        if isinstance(shape, (tuple, list)):
            return tuple(map(_extent, shape))
        return (_extent(shape),)
    except TypeError:
        raise TypeError(f"{name} needs a shape: an int or a tuple of ints, not {shown(shape)}") \
            from None


def _extent(v: Any) -> int:
    if isinstance(v, (bool, np.bool_)):  # (zeros(True) was an array of shape (1,))
        raise TypeError
    return operator.index(v)


def real_number(name: str, what: str, v: Any) -> int | float:
    """A parameter the spec types ``int | float``, as the backends can take it: an int within
    int64 stays an int, any other real number (an int past int64, a Fraction, a NumPy float)
    becomes a float, since NumPy and CuPy take C numbers; one past the floats, the infinity
    on its side (var's correction of 10**400 is the spec's NaN, not an OverflowError);
    TypeError for a bool or a non-real."""
    if type(v) is int and -2**63 <= v < 2**63:
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
        raise TypeError(f"{name}'s {what} must be an int or a float, not {shown(v)}")
    try:
        return float(v)
    except OverflowError:  # (an int or a Fraction past 1.8e308)
        return math.inf if operator.gt(v, 0) else -math.inf  # (Real: no < for mypy)


def ints(name: str, what: str, value: Any, *, one: bool = True, many: bool = True,
         none: bool = False) -> Any:
    """An int (``one``) or tuple of ints (``many``; a list too, as NumPy and array-api-strict
    take one: SciPy passes them) parameter, or None (``none``), checked: NumPy would truncate
    1.9 to 1, parse "3", read a bool as 0 or 1, or None as every axis (TypeError for each, as
    the spec types these parameters)."""
    if value is None and none:
        return None
    try:
        if many and isinstance(value, (tuple, list)):
            return tuple(strict_int(v, what) for v in value)
        if one and value is not None:
            return strict_int(value, what)
    except TypeError:
        pass
    kinds = " or ".join(k for k, ok in (("an int", one), ("a tuple of ints", many),
                                         ("None", none)) if ok)
    raise TypeError(f"{name} needs {what} to be {kinds}, not {shown(value)}")


def check_axis(name: str, axis: int, ndim: int) -> None:
    """AxisError (NumPy's: a ValueError and an IndexError) for an int axis outside [-ndim, ndim),
    said before a backend does it in its own words (or a helper's: moveaxis's "source")."""
    if not -ndim <= axis < ndim:
        raise AxisError(f"{name}: axis {axis} is out of bounds for an array of dimension {ndim}")


def check_c_int_axis(name: str, axis: int, ndim: int) -> None:
    """AxisError for an int axis a backend would read as a C int: past one (NumPy's ValueError
    "won't fit into a C int" or OverflowError, CuPy's OverflowError) or the least, which is
    NumPy's NPY_RAVEL_AXIS (its argmax, argsort and repeat flattened x; permute_dims wrapped
    2**32 + 1 to 1). For functions that read no axis before the backend: one comparison."""
    if not -1 << 31 < axis < 1 << 31:
        check_axis(name, axis, ndim)


def reduction_axes(name: str, axis: Any, ndim: int) -> None:
    """A reduction's ``axis`` checked as NumPy's reductions check it, where a backend does not
    (TypeError unless None, an int or a tuple of ints; AxisError outside [-ndim, ndim)):
    CuPy's read any sequence as axes and a bool as an index (``_get_axis``,
    cupy/_core/_reduction.pyx: ``sum(x, axis=[0])`` and ``axis=True`` were sums), and its var
    and std index the shape with each axis first (an IndexError, not an AxisError)."""
    if axis is not None:
        for i in axis if type(axis) is tuple else (axis,):
            check_axis(name, strict_int(i, f"{name}'s axis (an int or a tuple of ints)"), ndim)


def refuse_axes_of_0d(name: str, axis: Any) -> None:
    """A 0-d array has no axes: the spec's valid axes are [-N, N), none for N = 0, and "an
    invalid axis must raise". NumPy's reductions read axis 0 and -1 of a 0-d array as the
    whole, as if it were 1-D; only None (or ()) is valid here."""
    if axis is not None and not (type(axis) is tuple and not axis):  # (axis != (): NumPy's
        # ints compare element-wise, np.int64(0) != () is an empty array)
        for i in axis if type(axis) is tuple else (axis,):  # (a wrong type first, as for N > 0)
            strict_int(i, f"{name}'s axis (an int or a tuple of ints)")
        raise AxisError(f"{name}: axis {axis} is out of bounds for an array of dimension 0")


# The functions of one array whose arguments after it, by position, are axes (roll's is a
# shift, reshape's, broadcast_to's and tile's are shapes or repetitions).
_AXES_BY_POSITION = frozenset({"squeeze", "moveaxis", "permute_dims", "expand_dims"})


def delegate_first(name: str, axis_at: int | None = None, axis_default: Any = None,
                   signature: inspect.Signature | None = None,
                   widen: Callable[..., Any] | None = None,
                   backend: Callable[[Any], Callable[..., Any]] | None = None
                   ) -> Callable[..., Any]:
    """``delegate(name)`` for functions whose only array is the first argument: no scanning of
    the other arguments, the backend function looked up once per device (~0.3 us, not ~2).
    For those with an ``axis`` parameter (``axis_at`` not None: its index in ``args`` when it
    may be passed by position, as squeeze's, else -1), a 0-d array refuses any axis but None.
    With the spec's ``signature``, calls outside it are refused (see ``_outside``); ``widen``
    (``_dtype_functions.in_float32``) computes ml_dtypes' floats in float32;
    ``backend`` makes the function called from the device's namespace, where the namespace's
    own (its ``name``) departs from the spec."""
    has_axis = axis_at is not None
    axis_at = -1 if axis_at is None else axis_at
    generic = delegate(name)
    funcs: dict[Device, Callable[..., Any]] = {}
    on_cpu: list[Callable[..., Any] | None] = [None]  # (funcs[CPU], found without hashing)
    n_args, keywords = _accepted(signature)
    flags = tuple(p.name for p in (signature.parameters.values() if signature else ())
                  if p.annotation == "bool" and p.kind is p.KEYWORD_ONLY)
    views_held = name in VIEWS  # (a metadata-only function: made on held memory too)
    axes_by_position = name in _AXES_BY_POSITION
    # (a reduction: its axis an int or a tuple of them, keyword-only, as the spec types it)
    reduces = signature is not None and "tuple" in str(getattr(
        signature.parameters.get("axis"), "annotation", ""))

    def f(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        n = len(args)
        if n > n_args or kwargs and keywords is not None and not keywords.issuperset(kwargs):
            raise _outside(name, signature, x, args, kwargs)
        if kwargs and flags:
            for k in flags:
                if k in kwargs and type(kwargs[k]) is not bool:
                    kwargs[k] = flag(name, k, kwargs[k])
        if type(x) is not ndarray:
            expect_array(name, x)
            return generic(x, *args, **kwargs)
        dev = x._device
        a = x._array
        if has_axis and (a.ndim if a is not None else x.ndim) == 0:
            refuse_axes_of_0d(name, args[axis_at] if 0 <= axis_at < len(args)
                              else kwargs.get("axis", axis_default))
        if a is None:
            if views_held and held(x):
                try:
                    return held_view(name, x, *args, **kwargs)
                except (OverflowError, ValueError) as e:  # (the CPU's, as below)
                    raise axis_past_c_int(name, args if axes_by_position else (),
                                          kwargs.get("axis")) or e
            a = native_or_cpu_error(x, f, x, *args, **kwargs)
        if widen is not None and a.dtype in EXTENSION_FLOATS:
            return widen(f, x, *args, **kwargs)
        if reduces and dev is not CPU and "axis" in kwargs:  # (NumPy checks its own)
            reduction_axes(name, kwargs["axis"], a.ndim)
        fn = on_cpu[0] if dev is CPU else funcs.get(dev)  # (a Device's hash: a Python call)
        if fn is None:
            ns = namespace_for(dev)
            # (a backend's OWN: a library's own function where the namespace's only wraps it)
            fn = _kept(funcs, dev, _run_on(backend(ns), dev) if backend is not None else
                      undispatched(getattr(backend_for(dev), "OWN", {}).get(name) or
                                   getattr(ns, name)))
            if dev is CPU:
                on_cpu[0] = fn
        try:
            r = fn(a, *args, **kwargs)
        except (OverflowError, ValueError) as e:  # (see axis_past_c_int)
            raise axis_past_c_int(name, args if axes_by_position else (), kwargs.get("axis")) \
                or e
        if type(r) is _np_ndarray and dev is CPU:  # (pinned memory's views: wrap_result)
            return wrap(r, CPU)
        if isinstance(r, _np_generic):  # (a full reduction's NumPy scalar: ~0.2 us saved)
            return wrap(_np_asarray(r), CPU)
        return wrap_result(inherit_read_only(a, r), dev)

    f.__name__ = f.__qualname__ = name
    return f


def axis_past_c_int(name: str, args: tuple[Any, ...], axis: Any) -> AxisError | None:
    """The AxisError for an axis past a C int, which the backends convert first: NumPy's
    ValueError ("integer won't fit into a C int") or OverflowError, by function, CuPy's
    OverflowError past a C long. No array has such an axis (the least C int neither: NumPy's
    NPY_RAVEL_AXIS), a wrong value as any other out of range. Called on the error path only,
    so that a call that raises nothing pays nothing. ``args``: the ints that reach the
    backend by position, where they are axes (squeeze's, moveaxis's; not roll's shift)."""
    for v in (*args, axis):
        for i in v if type(v) is tuple else (v,):
            if isinstance(i, (int, np.integer)) and not -1 << 31 < i < 1 << 31:
                return AxisError(f"{name}: axis {i} is out of bounds")
    return None


def axis_checked(f: _F) -> _F:
    """Decorator, for a function whose axis is keyword-only and reaches the backend by paths
    of its own: an axis past a C int an AxisError (see axis_past_c_int)."""
    @functools.wraps(f)
    def g(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except (OverflowError, ValueError) as e:
            raise axis_past_c_int(f.__name__, (), kwargs.get("axis")) or e

    return cast(_F, g)


def _run_on(fn: Callable[..., Any], device: Device) -> Callable[..., Any]:
    """``fn`` run on ``device``: a backend function of several calls, some (a copy, a setter)
    made on CuPy's current GPU, which need not be the arrays' (the namespace's own functions
    each set it)."""
    if device.device_type != CUDA_TYPE:
        return fn
    run: Callable[..., Any] = backend_for(device).run_on(fn, device.device_id)
    return run


def _accepted(signature: inspect.Signature | None) -> tuple[float, frozenset[str] | None]:
    """How many arguments may follow the first by position, and the keywords accepted (None:
    any, for dltensor's own calls, which pass no signature). Every parameter after the first
    has a default (``delegating`` asserts it), so no call is short of one."""
    params = list(signature.parameters.values())[1:] if signature else []
    if signature is None or any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return float("inf"), None
    return (sum(p.kind is not p.KEYWORD_ONLY for p in params),
            frozenset(p.name for p in params if p.kind is not p.POSITIONAL_ONLY))


def _outside(name: str, signature: inspect.Signature | None, x: Any, args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> TypeError:
    """The TypeError for a call outside the spec's signature: a keyword-only parameter given by
    position, or one of NumPy's own (``out=``, ``initial=``, ``where=``, ``kind=``), which the
    backend would take and answer for something else."""
    assert signature is not None  # (only calls checked against one get here)
    try:
        signature.bind(x, *args, **kwargs)
    except TypeError as e:
        plain = signature.replace(parameters=[p.replace(annotation=p.empty) for p in
                                              signature.parameters.values()],
                                  return_annotation=signature.empty)
        return TypeError(f"{name}() {e}; the array API's signature is {name}{plain}")
    raise AssertionError("a call refused by its signature's counts that binds to it")


def delegating(template: _F, widen: Callable[..., Any] | None = None,
               backend: Callable[[Any], Callable[..., Any]] | None = None) -> _F:
    """Decorator: ``delegate_first`` of the template's name, for a function of one array (its
    first parameter, positional-only) whose other parameters all have defaults, carrying the
    template's spec signature and docstring (callers and the conformance suite inspect them).
    The template's body is never called: an empty one, or a public function with a fast path
    whose checked path this is (``_checked_sort = delegating(sort, ...)``, after ``sort``).
    ``widen``: computing ml_dtypes' floats in float32, ``backend``: see ``delegate_first``
    (``functools.partial(delegating, widen=in_float32)`` as the decorator). Functions of
    several arrays are written out (concat, where) or call ``delegate``.
    """
    sig = inspect.signature(template)
    params = list(sig.parameters.values())
    assert (params and params[0].kind is params[0].POSITIONAL_ONLY
            and str(params[0].annotation) == "ndarray"
            and not any("ndarray" in str(p.annotation) or p.default is p.empty
                        for p in params[1:])), f"{template.__name__}: not a function of one array"
    axis = sig.parameters.get("axis")
    axis_at = None if axis is None else -1 if axis.kind is axis.KEYWORD_ONLY \
        else params.index(axis) - 1
    default = None if axis is None else axis.default
    f = delegate_first(template.__name__, axis_at, default, sig, widen, backend)
    setattr(f, "__signature__", sig)  # (a function attribute inspect reads)
    f.__doc__ = template.__doc__
    f.__module__ = template.__module__
    return cast(_F, f)  # with the template's signature


def native_dtype(dtype: DType | None, device: Device | None = None) -> np.dtype[Any] | None:
    """The backend (NumPy) dtype for a dltensor dtype; None stays None. With the ``device``
    arrays of it are to be made or computed on: TypeError where its backend has not the
    dtype (CuPy has no float8: such memory is held on a GPU, made on the CPU and moved)."""
    if dtype is None:
        return None
    if type(dtype) is not DType:
        raise TypeError(f"dtype must be a dltensor dtype such as dltensor.float32, not {dtype!r}")
    if computable(dtype) is None:
        hint = " (install ml_dtypes to compute on it)" if extension_float(dtype) else ""
        raise TypeError(f"dltensor cannot compute on dtype {dtype.name}{hint}")
    if device is not None and device.device_type == CUDA_TYPE:
        backend = backend_or_none(device)  # (None: the call itself says nothing computes there)
        if backend is not None and not backend.can_view(dtype.code, dtype.bits):
            raise TypeError(f"dltensor cannot make or compute {dtype.name} arrays on {device} "
                            "(CuPy has not that dtype); make them on the CPU and move them "
                            "with to_device(), where they are held and handed on")
    return dtype.numpy
