"""The array API element-wise functions and the ndarray operators, one table row per op.

Each row names the op, the dtypes it accepts (a spec category), the ufunc NumPy and CuPy both
have for it and, where NumPy departs from the spec's special cases for some dtype kinds, a
fix-up function ``fn(xp, *arrays)`` used for those kinds only (``_special_cases``; on CUDA,
``_backends.cupy_departures`` where CuPy departs from NumPy). Three factories (unary, binary,
in-place) turn rows into functions; the operator table installs them on ndarray.

Speed is the point of the factories' shape: for CPU arrays of one dtype (or one array and a
Python scalar that keeps its dtype) a call is a few attribute reads, one dict lookup and the
NumPy ufunc (about 0.3-0.4 us over NumPy itself, where array-api-strict spends 4-15 us).
Everything else (mixed dtypes, complex scalars, other devices, errors) goes through
``_operands``, which applies the spec's promotion table and scalar rules.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from types import MethodType
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias, cast

import numpy as np

from . import _special_cases as special
from ._array import CPU_READABLE, ndarray, read_only_error, wrap
from ._devices import CPU, CUDA_TYPE, Device
from ._backends import NoBackendError, cupy_departures
from ._dispatch import common_device, cpu_error_first, native_or_cpu_error, on
from ._dispatch import array_module, type_name, wrap_result
from ._dtype_functions import KEEPING_SCALARS, finfo, int_bounds, python_scalar, scalar_dtype
from ._dtype_functions import scalar_into
from ._manipulation import broadcast_of, by_the_first  # (ours: NumPy's stops at 32 dimensions)
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, NUMPY_PROMOTION, PROMOTION, PYTHON_SCALARS
from ._dtypes import DType, derived, no_promotion, numpy_rows

_np_ndarray = np.ndarray
_asarray = np.asarray
_new = object.__new__
# Operands an operator refuses itself rather than return NotImplemented: NumPy would then
# answer for them with "operand 'ndarray' does not support ufuncs", naming our type.
_NUMPY_TYPES = (np.ndarray, np.generic)
_FLOAT64 = np.dtype(np.float64)
# (the Python float bounds of clip past which a cast to these overflows)
_FLOAT_MAX = {np.dtype(t): float(np.finfo(t).max) for t in (np.float16, np.float32)}
# (the least magnitude of these that a Python float rounds to past zero, as half of it may not)
_FLOAT_TINY = {np.dtype(t): float(np.finfo(t).smallest_subnormal)
               for t in (np.float16, np.float32, np.float64)}
try:  # NumPy's clip ufunc, which np.clip reaches (for floats) through two Python layers
    from numpy._core.umath import clip as _clip_ufunc  # type: ignore[attr-defined]
except ImportError:  # (a NumPy that moved it)
    _clip_ufunc = np.clip
_CLIP_SCALARS = frozenset((int, float, type(None)))
_NUMPY_FLOATS = frozenset(_FLOAT_TINY)  # (ml_dtypes' float8_e5m2 is of kind "f" too)
_INT_RANGES = {np.dtype(t): int_bounds(np.dtype(t)) for t in (
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)}
_CLIP_BY_WHERE_MOST = 4096  # (clip's where's are the faster way up to about this size)

# --- dtype categories (NumPy dtypes, for one hash lookup per call) ---------------------------


def _of(*kinds: str) -> set[np.dtype[Any]]:
    # ml_dtypes' floats (bfloat16, float8...) compute like float16: real floating, one dtype
    # at a time (the spec's promotion table has no row for them).
    return {n for n, d in numpy_rows() if d.spec_kind in kinds or
            "real floating" in kinds and n in EXTENSION_FLOATS}


_CATEGORY_KINDS = {
    "bool": ("bool",),
    "integer": (_I := ("signed integer", "unsigned integer")),
    "integer or boolean": (*_I, "bool"),
    "real numeric": (*_I, "real floating"),
    "numeric": (*_I, "real floating", "complex floating"),
    "real floating-point": ("real floating",),
    "floating-point": ("real floating", "complex floating"),
    "complex floating-point": ("complex floating",),
    "all": ("bool", *_I, "real floating", "complex floating"),
}
CATEGORIES: dict[str, set[np.dtype[Any]]] = {c: set() for c in _CATEGORY_KINDS}


@derived
def _categories() -> None:
    for c, kinds in _CATEGORY_KINDS.items():
        CATEGORIES[c].update(_of(*kinds))


def _kind(d: np.dtype[Any]) -> str:
    """A dtype's kind for choosing fix-ups: NumPy's, but "F" for ml_dtypes' floats (NumPy says
    "V" of most, "f" of float8_e5m2), to which the "f" fix-ups apply too."""
    return "F" if d in EXTENSION_FLOATS else d.kind


def _function(ufunc: str, fix: _Fix | None, xp: ModuleType, kind: str) -> Callable[..., Any]:
    """The backend function computing an op for a dtype kind: the ufunc ``xp.<ufunc>``, or
    the row's fix-up ``fix = (kinds, fn(xp, *arrays))`` (or the first of several such) where
    NumPy departs from the spec for those kinds, or on CUDA one of
    ``cupy_departures.DEPARTURES`` where CuPy departs from NumPy."""
    # (bound as a method: calls cost ~70 ns less than through functools.partial)
    if xp is not np:
        cuda_fix = cupy_departures.DEPARTURES.get(ufunc)
        if cuda_fix and _for_kind(cuda_fix[0], kind):
            return MethodType(cuda_fix[1], xp)
    for kinds, fix_up in () if fix is None else (fix,) if isinstance(fix[0], str) else fix:
        if _for_kind(kinds, kind):
            return MethodType(fix_up, xp)
    fn: Callable[..., Any] = getattr(xp, ufunc)
    return fn


def _for_kind(kinds: str, kind: str) -> bool:
    return kind in kinds or kind == "F" and "f" in kinds  # (ml_dtypes' floats: "f" fix-ups)


def _type_error(name: str, category: str, x: object, unary: bool = False) -> TypeError:
    if unary and not isinstance(x, ndarray):
        return TypeError(f"{name} takes a dltensor array, not {type_name(x)}; convert it "
                         "with dltensor.asarray()")
    if type(x) in PYTHON_SCALARS:
        return TypeError(f"{name} needs at least one array argument, not only Python scalars")
    if isinstance(x, numbers.Number) and not isinstance(x, _NUMPY_TYPES):
        # (a Fraction, a Decimal: asarray refuses them too)
        return TypeError(f"{name} takes dltensor arrays and Python scalars, not "
                         f"{type_name(x)}; convert it to a Python int, float or complex")
    if not isinstance(x, ndarray):
        return TypeError(f"{name} takes dltensor arrays and Python scalars, not "
                         f"{type_name(x)}; convert it with dltensor.asarray()")
    return TypeError(f"{name} takes arrays of {category} dtypes, not {x.dtype.name}")


def _document(f: Callable[..., Any], name: str, category: str, binary: bool
              ) -> Callable[..., Any]:
    f.__name__ = f.__qualname__ = name
    operands = ("x1 and x2 (broadcast together; either may be a Python scalar)" if binary
                else "x")
    page = f"array.{name}" if name.startswith("__") else name
    f.__doc__ = (f"The array API's ``{name}`` of {operands}, element-wise, for arrays of "
                 f"{category} dtypes.\n\nSee https://data-apis.org/array-api/2025.12/"
                 f"API_specification/generated/array_api.{page}.html")
    return f


# --- binary functions --------------------------------------------------------------------


def _scalar_operand(name: str, category: str, x: Any, operator: bool) -> Any:
    """The Python scalar an operand that is not an array stands for (NumPy's number scalars
    too); NotImplemented for an operator meeting a foreign type; else TypeError."""
    if type(x) in PYTHON_SCALARS:
        return x
    scalar = python_scalar(x)
    if scalar is not None:
        return scalar
    if operator and (not isinstance(x, _NUMPY_TYPES) or isinstance(x, (str, bytes))):
        if (name == "__eq__" or name == "__ne__") and (
                _array_like(x) or isinstance(x, numbers.Number)):
            # (left to Python, == would compare identities: x == [1, 2] was False, a tensor
            # too, and x == Fraction(1, 2) of x holding 0.5 (NumPy: True), where + refuses them)
            raise _type_error(name, category, x)
        if name in _REPEATS and isinstance(x, Sequence):
            # (left to Python, a sequence is repeated by a 0-d integer array's __index__:
            # asarray(2) * [1, 2] was [1, 2, 1, 2], and a float array's error spoke of indices)
            raise _type_error(name, category, x)
        return NotImplemented  # (NumPy's str_ and bytes_ are left to Python, as str is)
    raise _type_error(name, category, x)


_REPEATS = frozenset(("__mul__", "__rmul__", "__imul__"))


def _array_like(x: Any) -> bool:
    """Whether ``x`` holds elements (a sequence, a buffer, another library's array; not a
    string, NumPy's str_ and bytes_ included)."""
    if isinstance(x, (str, bytes, type)):  # (np.float32 itself has __array__)
        return False
    return isinstance(x, (list, tuple, range, memoryview, bytearray)) or any(
        hasattr(x, p) for p in ("__dlpack__", "__array__", "__array_interface__",
                                "__cuda_array_interface__"))


_TRUE_DIVISIONS = frozenset({"divide", "__truediv__", "__rtruediv__", "__itruediv__"})


def _operands(name: str, category: str, x1: Any, x2: Any, operator: bool) -> Any:
    """Validate two operands: (backend x1, backend x2, result NumPy dtype, device), or
    NotImplemented for an operator meeting a foreign type. Raises TypeError for dtypes outside
    ``category`` or without a spec promotion, ValueError for arrays on different devices."""
    allowed = CATEGORIES[category]
    if isinstance(x1, ndarray):
        dev = x1._device
        if isinstance(x2, ndarray):
            if x2._device is not dev and x2._device != dev:
                try:
                    dev = common_device(dev, x2._device)
                except ValueError as e:
                    raise ValueError(f"{name}: {e}") from None
            a, b = x1._compute(), x2._compute()
            da, db = a.dtype, b.dtype
            if da not in allowed:
                raise _type_error(name, category, x1)
            if db not in allowed:
                raise _type_error(name, category, x2)
            rt = da if da is db or da == db else NUMPY_PROMOTION.get((da, db))
            if rt is None:
                raise no_promotion(name, FROM_NUMPY[da], FROM_NUMPY[db])
            return a, b, rt, dev
        scalar = _scalar_operand(name, category, x2, operator)
        if scalar is NotImplemented:
            return NotImplemented
        array, swap = x1, False
    elif isinstance(x2, ndarray):
        scalar = _scalar_operand(name, category, x1, operator)
        if scalar is NotImplemented:
            return NotImplemented
        array, swap = x2, True
    else:
        raise _type_error(name, category, x1 if type(x1) not in PYTHON_SCALARS else x2)
    a = array._compute()
    da = a.dtype
    if da not in allowed:
        raise _type_error(name, category, array)
    rt = scalar_dtype(scalar, da, name)
    if rt not in allowed:
        raise TypeError(f"{name} does not take a Python {type(scalar).__name__} (it would "
                        f"make the result {FROM_NUMPY[rt].name})")
    if type(a) is not _np_ndarray and rt is da and _weak(a, scalar):
        # (CuPy 14.2 takes it as NumPy 2 does, a kernel argument: no 0-d array to fill)
        scalar = special.for_kernel(scalar, da, name in _TRUE_DIVISIONS)
    elif da in EXTENSION_FLOATS or type(a) is not _np_ndarray:
        # ml_dtypes arrays treat Python scalars as float64, and CuPy before v14 promotes them
        # by value: make the scalar the 0-d array the spec describes.
        # (full, not asarray: CuPy's asarray of 0.0 fills with a memset, losing -0.0's sign;
        # and ml_dtypes converts no int past int64, so ints go as floats)
        if type(scalar) is int and da.kind in "iu" and name in _COMPARISONS and \
                not int_bounds(da)[0] <= scalar <= int_bounds(da)[1]:
            # Past every value of the dtype: each element compares with it as with the
            # infinity on its side (NumPy compares such ints so; CuPy's full refuses them)
            scalar = array_module(a).full((), np.inf if scalar > 0 else -np.inf)
        else:
            value = scalar
            scalar = array_module(a).full((), scalar_into(scalar, rt), dtype=rt)
            if rt in EXTENSION_FLOATS and name in _COMPARISONS and type(value) is not complex \
                    and value == value and scalar != scalar:
                # Past the range of a float8 with no infinity (float8_e4m3fn, and below 2**-127
                # for float8_e8m0fnu): the conversion made NaN, which no element is less than,
                # where 448 < 1e6. Compared as the infinity on its side, as ints above.
                scalar = np.full((), np.inf if value > finfo(FROM_NUMPY[rt]).max else -np.inf)
    return (scalar, a, rt, array._device) if swap else (a, scalar, rt, array._device)


# The dtypes whose arrays CuPy 14.2 combines with a Python scalar as NumPy 2 does: weakly, the
# scalar converted into the array's dtype on the host and passed to the kernel (NEP 50; CuPy's
# CScalar, apply_dtype), checked against CuPy 14.2's code. Not complex, whose real scalars
# the real-and-complex fix-up takes as 0-d arrays of their parts.
_WEAK_KINDS = {np.dtype(t): np.dtype(t).kind for t in (
    np.bool_, np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
    np.uint8, np.uint16, np.uint32, np.uint64)}
_WEAK_SCALARS = {"b": (bool,), "f": (float, int), "i": (int,), "u": (int,)}
_weak_cupy: dict[ModuleType, bool] = {}


def _weak(a: Any, scalar: Any) -> bool:
    """Whether a Python scalar can go to CuPy as it is beside CuPy array ``a`` (else a 0-d
    array): CuPy 14.2 or later, a dtype of _WEAK_KINDS, an int within the dtype (a bigger
    one goes the 0-d way, which refuses or compares it as NumPy does)."""
    kind = _WEAK_KINDS.get(a.dtype)
    if kind is None or type(scalar) not in _WEAK_SCALARS[kind]:
        return False
    xp = array_module(a)
    weak = _weak_cupy.get(xp)
    if weak is None:  # (14.0 and 14.1 make an int strong beside a uint64 array in comparisons)
        version = str(getattr(xp, "__version__", "0")).split(".")
        weak = _weak_cupy[xp] = tuple(int(v) for v in version[:2] if v.isdigit()) >= (14, 2)
    if not weak:
        return False
    if type(scalar) is int and kind in "iu":
        low, high = int_bounds(a.dtype)
        return low <= scalar <= high
    return True


def _binary_general(name: str, category: str, ufunc: str, fix: _Fix | None, x1: Any, x2: Any,
                    operator: bool) -> Any:
    anchor = x1 if isinstance(x1, ndarray) else x2
    try:
        if isinstance(anchor, ndarray) and anchor._device.device_type == CUDA_TYPE:
            with on(anchor._device):  # (CuPy computes, and converts scalars, on its GPU)
                return _binary(name, category, ufunc, fix, x1, x2, operator)
        return _binary(name, category, ufunc, fix, x1, x2, operator)
    except NoBackendError as e:  # held memory: the CPU's error first for bad operands
        raise cpu_error_first(lambda a, b: _binary(name, category, ufunc, fix, a, b, operator),
                              (x1, x2), {}, e, counts=False) from None


def _binary(name: str, category: str, ufunc: str, fix: _Fix | None, x1: Any, x2: Any,
            operator: bool) -> Any:
    ops = _operands(name, category, x1, x2, operator)
    if ops is NotImplemented:
        return ops
    a, b, rt, dev = ops
    xp = array_module(b if type(a) in PYTHON_SCALARS else a)
    return wrap_result(_function(ufunc, fix, xp, _kind(rt))(a, b), dev)


def _cpu_functions(category: str, ufunc: str, fix: _Fix | None, reflected: bool = False,
                   keep: Callable[[np.dtype[Any], Callable[..., Any]], bool] | None = None
                   ) -> dict[np.dtype[Any], Callable[..., Any]]:
    """A fast path's table: NumPy dtype of the category -> the function computing the op on
    the CPU (``x2 op x1``: ``reflected``), for those ``keep`` keeps; filled again when
    ml_dtypes' floats join the category."""
    fns: dict[np.dtype[Any], Callable[..., Any]] = {}

    @derived
    def fill() -> None:
        for d in CATEGORIES[category] - fns.keys():
            fn = _function(ufunc, fix, np, _kind(d))
            if reflected:
                fn = (lambda fn: lambda a, b: fn(b, a))(fn)
            if keep is None or keep(d, fn):
                fns[d] = fn
    return fns


def _make_binary(name: str, category: str, ufunc: str, fix: _Fix | None = None,
                 operator: bool = False, reflected: bool = False) -> Callable[..., Any]:
    """``f(x1, x2)``. An ``operator`` returns NotImplemented for foreign types; a
    ``reflected`` one (``__radd__``) computes ``x2 op x1``."""
    # The fast path's table, keyed by the NumPy dtype of x1: the function computing it (with
    # the Python scalar types that keep that dtype, KEEPING_SCALARS).
    fns = _cpu_functions(category, ufunc, fix, reflected)
    scalars: dict[np.dtype[Any], frozenset[type]] = {}  # (none for a dtype outside the category)
    derived(lambda: scalars.update((d, KEEPING_SCALARS[d]) for d in fns))
    # closure cells read faster than module globals on this path
    _ndarray, _cpu, np_array, new, asarray = ndarray, CPU, _np_ndarray, _new, _asarray
    gpu_fns: dict[np.dtype[Any], Callable[..., Any]] = {}  # (CuPy's, found on first use)
    true_divide = ufunc == "divide"  # (CuPy needs a big int as a float there: for_kernel)

    def gpu_fn(dt: np.dtype[Any], a: Any) -> Callable[..., Any]:
        fn = _function(ufunc, fix, array_module(a), _kind(dt))
        if reflected:
            fn = (lambda fn: lambda a, b: fn(b, a))(fn)
        gpu_fns[dt] = fn
        return fn

    def general(x1: Any, x2: Any) -> Any:
        if reflected:
            return _binary_general(name, category, ufunc, fix, x2, x1, operator)
        return _binary_general(name, category, ufunc, fix, x1, x2, operator)

    def f(x1: Any, x2: Any, /) -> Any:
        if type(x1) is _ndarray:
            a = x1._array
            if a is None:
                if x1._device is not _cpu:  # (the general path checks operands, then devices,
                    return general(x1, x2)  # before memory it may not compute on)
                a = x1._compute()
            dt = a.dtype
            t2 = type(x2)
            if t2 is _ndarray:
                b = x2._array
                if b is None:
                    if x2._device is not _cpu:
                        return general(x1, x2)
                    b = x2._compute()
                fn = fns.get(dt) if dt is b.dtype and x1._device is _cpu is x2._device else None
                if fn is None and dt is b.dtype and x1._device is x2._device and \
                        x1._device.device_type == CUDA_TYPE and dt in fns:
                    # Two arrays of one dtype on one GPU: what the general path does for them,
                    # less its checks (per-call overhead over CuPy is a target: within 2 us)
                    dev = x1._device
                    with on(dev):
                        return wrap((gpu_fns.get(dt) or gpu_fn(dt, a))(a, b), dev)
            else:
                b = x2
                fn = fns[dt] if t2 in scalars.get(dt, ()) and x1._device is _cpu else None
                if fn is None and x1._device.device_type == CUDA_TYPE and \
                        t2 in scalars.get(dt, ()) and _weak(a, b):
                    dev = x1._device  # (an array and a Python scalar CuPy takes as it is)
                    with on(dev):
                        fn = gpu_fns.get(dt) or gpu_fn(dt, a)
                        return wrap(fn(a, special.for_kernel(b, dt, true_divide)), dev)
            if fn is not None:
                r = fn(a, b)
                if type(r) is not np_array:  # NumPy returns 0-d results as scalars
                    r = asarray(r)
                o = new(_ndarray)
                o._array = r
                o._tensor = None
                o._device = _cpu
                return o
        return general(x1, x2)

    return _document(f, name, category, binary=True)


def _refuse_dtype_change(name: str, rt: DType, x: ndarray,
                         instead: str = "the binary operator") -> NoReturn:
    raise TypeError(f"{name}: the result would be {rt.name}, and an in-place operation cannot "
                    f"change the {x.dtype.name} array's dtype; use {instead} instead")


def _make_inplace(name: str, category: str, ufunc: str, fix: _Fix | None = None
                  ) -> Callable[..., Any]:
    """``x1 op= x2``: writes into x1's memory; refuses a result dtype other than x1's."""
    # The fast path's tables, as _make_binary's: for CPU arrays of one dtype (or one array and
    # a Python scalar that keeps its dtype) where the op is the plain ufunc, written into x1
    # by it (~0.5 us over NumPy, where the general way took 3-8 us). Not where a fix-up or
    # integer power computes a new array, nor a division of integers (refused below).
    fns = _cpu_functions(category, ufunc, fix, keep=lambda d, fn: type(fn) is not MethodType
                         and not (ufunc == "power" and d.kind == "i"))
    scalars = KEEPING_SCALARS
    _ndarray, _cpu = ndarray, CPU

    def f(self: ndarray, other: Any, /) -> Any:
        # (an import not yet computed on goes the general way, which checks the operands and
        # devices before memory it may not compute on, and makes its view for the next time)
        a = self._array
        fn = fns.get(a.dtype) if a is not None and self._device is _cpu else None
        if fn is not None:
            t = type(other)
            if t is _ndarray:
                b = other._array
                if b is None or b.dtype is not a.dtype or other._device is not _cpu:
                    fn = None
            elif t in scalars[a.dtype]:
                b = other
            else:
                fn = None
            if fn is not None:
                try:
                    fn(a, b, out=a)
                except ValueError:
                    if not a.flags.writeable:  # (NumPy's "output array is read-only")
                        raise read_only_error(self, name) from None
                    raise
                return self
        try:
            if self._device.device_type == CUDA_TYPE:
                with on(self._device):
                    return _inplace(self, other)
            return _inplace(self, other)
        except NoBackendError as e:  # held memory: the CPU's error first for bad operands
            raise cpu_error_first(f, (self, other), {}, e, counts=False) from None

    def _inplace(self: ndarray, other: Any) -> Any:
        if ufunc == "divide" and self.dtype.kind in "iu" and type(other) is not bool and \
                isinstance(other, numbers.Integral):
            # (before CUDA makes 300 an int8: an OverflowError)
            _refuse_dtype_change(name, FROM_NUMPY[_FLOAT64], self)
        ops = _operands(name, category, self, other, True)
        if ops is NotImplemented:
            if isinstance(other, numbers.Number):
                # Not Python's fallback, x = x op other: a Fraction's __rpow__ made a new
                # array and rebound x (read-only or not), its memory never written. (Any
                # other object's reflected operator is its own, as NumPy and PyTorch leave it.)
                raise _type_error(name, category, other)
            return ops
        a, b, rt, _ = ops
        if ufunc == "divide" and rt.kind in "iu":  # (integers divide into float64)
            rt = _FLOAT64
        if rt != a.dtype:
            _refuse_dtype_change(name, FROM_NUMPY[rt], self)
        if self.read_only:
            raise read_only_error(self, name)
        xp = array_module(a)
        fn = _function(ufunc, fix, xp, _kind(rt))
        # A fix-up computes a new array; so does an integer power, which NumPy refuses at the
        # first negative exponent, after writing the elements before it (x **= y would lose
        # them).
        if type(fn) is MethodType or ufunc == "power" and rt.kind == "i":
            # (the shapes decide it, before the work; copyto would drop leading length-1 axes)
            shape = broadcast_of(a.shape, np.shape(b))
            if shape != a.shape:
                raise ValueError(f"{name}: the result's shape {shape} is not the array's "
                                 f"{a.shape}; an in-place operation cannot change it")
            xp.copyto(a, fn(a, b))
        else:
            fn(a, b, out=a)
        return self

    f.__name__ = f.__qualname__ = name
    return f


# --- unary functions ---------------------------------------------------------------------


def _make_unary(name: str, category: str, ufunc: str, fix: _Fix | None = None
                ) -> Callable[..., Any]:
    fns = _cpu_functions(category, ufunc, fix)
    _ndarray, _cpu, np_array, new, asarray = ndarray, CPU, _np_ndarray, _new, _asarray
    gpu_fns: dict[np.dtype[Any], Callable[..., Any]] = {}  # (CuPy's, found on first use)

    def gpu_fn(dt: np.dtype[Any], a: Any) -> Callable[..., Any]:
        fn = gpu_fns[dt] = _function(ufunc, fix, array_module(a), _kind(dt))
        return fn

    def f(x: Any, /) -> Any:
        if isinstance(x, _ndarray):
            a = x._array
            if a is None:  # (held memory: the CPU's error for a bad dtype first)
                a = native_or_cpu_error(x, f, x)
            fn = fns.get(a.dtype)
            if fn is not None:
                if x._device is _cpu:
                    r = fn(a)
                    if type(r) is not np_array:
                        r = asarray(r)
                    o = new(_ndarray)
                    o._array = r
                    o._tensor = None
                    o._device = _cpu
                    return o
                dev = x._device
                if dev.device_type == CUDA_TYPE:
                    with on(dev):  # (CuPy's result is on its current GPU, x's)
                        return wrap((gpu_fns.get(a.dtype) or gpu_fn(a.dtype, a))(a), dev)
                return wrap_result(fn(a), dev)  # (pinned memory: NumPy's result is `cpu`)
        raise _type_error(name, category, x, unary=True)

    return _document(f, name, category, binary=False)


# --- the tables -----------------------------------------------------------------------------

# A row: (category, ufunc) or (category, ufunc, fix-up); the fix-up is (kinds, fn(xp, *arrays)),
# or a tuple of such, the first for a kind taken.
_Fix = tuple[str, Callable[..., Any]] | tuple[tuple[str, Callable[..., Any]], ...]
_Row = tuple[str, str] | tuple[str, str, _Fix]

# name: (dtype category, backend ufunc[, (dtype kinds, fix-up fn(xp, x)) where NumPy departs
# from the spec's special cases for those kinds])
UNARY: dict[str, _Row] = {
    "abs": ("numeric", "absolute"), "acos": ("floating-point", "arccos"),
    "acosh": ("floating-point", "arccosh", ("c", special.acosh)),
    "asin": ("floating-point", "arcsin"),
    "asinh": ("floating-point", "arcsinh"),
    "atan": ("floating-point", "arctan", ("c", special.odd_and_conjugate("arctan"))),
    "atanh": ("floating-point", "arctanh", ("c", special.odd_and_conjugate("arctanh"))),
    "bitwise_invert": ("integer or boolean", "invert"),
    "ceil": ("real numeric", "ceil"), "conj": ("numeric", "conjugate"),
    "cos": ("floating-point", "cos"), "cosh": ("floating-point", "cosh"),
    "exp": ("floating-point", "exp"), "expm1": ("floating-point", "expm1", ("c", special.expm1)),
    "floor": ("real numeric", "floor"), "imag": ("complex floating-point", "imag"),
    "isfinite": ("numeric", "isfinite"), "isinf": ("numeric", "isinf"),
    "isnan": ("numeric", "isnan"), "log": ("floating-point", "log"),
    "log1p": ("floating-point", "log1p", ("c", special.log1p)), "log2": ("floating-point", "log2"),
    "log10": ("floating-point", "log10"), "logical_not": ("bool", "logical_not"),
    "negative": ("numeric", "negative"), "positive": ("numeric", "positive"),
    "real": ("numeric", "real"),
    "reciprocal": ("floating-point", "reciprocal", ("c", special.reciprocal)),
    "round": ("numeric", "round"), "sign": ("numeric", "sign", ("cF", special.sign)),
    "signbit": ("real floating-point", "signbit"), "sin": ("floating-point", "sin"),
    "sinh": ("floating-point", "sinh"), "sqrt": ("floating-point", "sqrt"),
    "square": ("numeric", "square"), "tan": ("floating-point", "tan", ("c", special.tan)),
    "tanh": ("floating-point", "tanh", ("c", special.tanh)), "trunc": ("real numeric", "trunc"),
}

# name: (dtype category, backend ufunc[, (dtype kinds, fix-up fn(xp, x1, x2))]); the kind is
# that of the promoted dtype
# (add, subtract, multiply and divide (its own fix-up): with one real operand, each component
# computed with it)
_mixed = {name: ("c", special.real_and_complex(name)) for name in ("add", "subtract", "multiply")}
BINARY: dict[str, _Row] = {
    "add": ("numeric", "add", _mixed["add"]), "atan2": ("real floating-point", "arctan2"),
    "bitwise_and": ("integer or boolean", "bitwise_and"),
    "bitwise_left_shift": ("integer", "left_shift"),
    "bitwise_or": ("integer or boolean", "bitwise_or"),
    "bitwise_right_shift": ("integer", "right_shift"),
    "bitwise_xor": ("integer or boolean", "bitwise_xor"),
    "copysign": ("real floating-point", "copysign", ("F", special.in_float32("copysign"))),
    # (integers too, computed as NumPy does, in float64: the spec leaves their result dtype
    # to the library, and NumPy, CuPy, PyTorch and JAX all divide them; scikit-learn does so)
    "divide": ("numeric", "divide", ("ciu", special.divide)), "equal": ("all", "equal"),
    "floor_divide": ("real numeric", "floor_divide", ("f", special.floor_divide)),
    "greater": ("real numeric", "greater"), "greater_equal": ("real numeric", "greater_equal"),
    "hypot": ("real floating-point", "hypot"), "less": ("real numeric", "less"),
    "less_equal": ("real numeric", "less_equal"),
    "logaddexp": ("real floating-point", "logaddexp"), "logical_and": ("bool", "logical_and"),
    "logical_or": ("bool", "logical_or"), "logical_xor": ("bool", "logical_xor"),
    "maximum": ("real numeric", "maximum"), "minimum": ("real numeric", "minimum"),
    "multiply": ("numeric", "multiply", _mixed["multiply"]),
    "nextafter": ("real floating-point", "nextafter", ("f", special.nextafter)),
    "not_equal": ("all", "not_equal"), "pow": ("numeric", "power", ("f", special.power)),
    "remainder": ("real numeric", "remainder"),
    "subtract": ("numeric", "subtract", _mixed["subtract"]),
}

if TYPE_CHECKING:
    # What type checkers see of the functions the factories make below: the spec's signatures
    # (a Python scalar operand may be any of the types its function's union names).
    _Scalar: TypeAlias = ndarray | int | float | complex | bool
    _Numeric: TypeAlias = ndarray | int | float | complex
    _Real: TypeAlias = ndarray | int | float
    _IntBool: TypeAlias = ndarray | int | bool
    _Int: TypeAlias = ndarray | int
    _Bool: TypeAlias = ndarray | bool

    def abs(x: ndarray, /) -> ndarray: ...
    def acos(x: ndarray, /) -> ndarray: ...
    def acosh(x: ndarray, /) -> ndarray: ...
    def asin(x: ndarray, /) -> ndarray: ...
    def asinh(x: ndarray, /) -> ndarray: ...
    def atan(x: ndarray, /) -> ndarray: ...
    def atanh(x: ndarray, /) -> ndarray: ...
    def bitwise_invert(x: ndarray, /) -> ndarray: ...
    def ceil(x: ndarray, /) -> ndarray: ...
    def conj(x: ndarray, /) -> ndarray: ...
    def cos(x: ndarray, /) -> ndarray: ...
    def cosh(x: ndarray, /) -> ndarray: ...
    def exp(x: ndarray, /) -> ndarray: ...
    def expm1(x: ndarray, /) -> ndarray: ...
    def floor(x: ndarray, /) -> ndarray: ...
    def imag(x: ndarray, /) -> ndarray: ...
    def isfinite(x: ndarray, /) -> ndarray: ...
    def isinf(x: ndarray, /) -> ndarray: ...
    def isnan(x: ndarray, /) -> ndarray: ...
    def log(x: ndarray, /) -> ndarray: ...
    def log1p(x: ndarray, /) -> ndarray: ...
    def log2(x: ndarray, /) -> ndarray: ...
    def log10(x: ndarray, /) -> ndarray: ...
    def logical_not(x: ndarray, /) -> ndarray: ...
    def negative(x: ndarray, /) -> ndarray: ...
    def positive(x: ndarray, /) -> ndarray: ...
    def real(x: ndarray, /) -> ndarray: ...
    def reciprocal(x: ndarray, /) -> ndarray: ...
    def round(x: ndarray, /) -> ndarray: ...
    def sign(x: ndarray, /) -> ndarray: ...
    def signbit(x: ndarray, /) -> ndarray: ...
    def sin(x: ndarray, /) -> ndarray: ...
    def sinh(x: ndarray, /) -> ndarray: ...
    def sqrt(x: ndarray, /) -> ndarray: ...
    def square(x: ndarray, /) -> ndarray: ...
    def tan(x: ndarray, /) -> ndarray: ...
    def tanh(x: ndarray, /) -> ndarray: ...
    def trunc(x: ndarray, /) -> ndarray: ...
    def add(x1: _Numeric, x2: _Numeric, /) -> ndarray: ...
    def atan2(x1: _Real, x2: _Real, /) -> ndarray: ...
    def bitwise_and(x1: _IntBool, x2: _IntBool, /) -> ndarray: ...
    def bitwise_left_shift(x1: _Int, x2: _Int, /) -> ndarray: ...
    def bitwise_or(x1: _IntBool, x2: _IntBool, /) -> ndarray: ...
    def bitwise_right_shift(x1: _Int, x2: _Int, /) -> ndarray: ...
    def bitwise_xor(x1: _IntBool, x2: _IntBool, /) -> ndarray: ...
    def copysign(x1: _Real, x2: _Real, /) -> ndarray: ...
    def divide(x1: _Numeric, x2: _Numeric, /) -> ndarray: ...
    def equal(x1: _Scalar, x2: _Scalar, /) -> ndarray: ...
    def floor_divide(x1: _Real, x2: _Real, /) -> ndarray: ...
    def greater(x1: _Real, x2: _Real, /) -> ndarray: ...
    def greater_equal(x1: _Real, x2: _Real, /) -> ndarray: ...
    def hypot(x1: _Real, x2: _Real, /) -> ndarray: ...
    def less(x1: _Real, x2: _Real, /) -> ndarray: ...
    def less_equal(x1: _Real, x2: _Real, /) -> ndarray: ...
    def logaddexp(x1: _Real, x2: _Real, /) -> ndarray: ...
    def logical_and(x1: _Bool, x2: _Bool, /) -> ndarray: ...
    def logical_or(x1: _Bool, x2: _Bool, /) -> ndarray: ...
    def logical_xor(x1: _Bool, x2: _Bool, /) -> ndarray: ...
    def maximum(x1: _Real, x2: _Real, /) -> ndarray: ...
    def minimum(x1: _Real, x2: _Real, /) -> ndarray: ...
    def multiply(x1: _Numeric, x2: _Numeric, /) -> ndarray: ...
    def nextafter(x1: _Real, x2: _Real, /) -> ndarray: ...
    def not_equal(x1: _Scalar, x2: _Scalar, /) -> ndarray: ...
    def pow(x1: _Numeric, x2: _Numeric, /) -> ndarray: ...
    def remainder(x1: _Real, x2: _Real, /) -> ndarray: ...
    def subtract(x1: _Numeric, x2: _Numeric, /) -> ndarray: ...
else:
    for _name, _row in UNARY.items():
        globals()[_name] = _make_unary(_name, *_row)
    for _name, _row in BINARY.items():
        globals()[_name] = _make_binary(_name, *_row)


def clip(x: ndarray, /, min: int | float | ndarray | None = None,
         max: int | float | ndarray | None = None) -> ndarray:
    """``x`` clamped to ``[min, max]`` (either may be None); the result keeps ``x``'s dtype and
    is NaN where ``x``, ``min`` or ``max`` is NaN."""
    a = x._array if type(x) is ndarray else None
    if type(a) is _np_ndarray and type(min) in _CLIP_SCALARS and type(max) in _CLIP_SCALARS:
        # The common call, a NumPy array and Python bounds: NumPy's clip ufunc, where the
        # checks below pass, and np.clip would reach it through two layers (~2 us; for ints
        # ~9, asking iinfo twice). Float bounds: floats; int bounds: clamped to the dtype
        ints, r = _INT_RANGES.get(a.dtype), None
        if a.dtype in _NUMPY_FLOATS:
            r = _clip_ufunc(a, -math.inf if min is None else float(min),
                            math.inf if max is None else float(max))
        elif ints is not None and type(min) is not float and type(max) is not float:
            low, high = ints
            r = _clip_ufunc(a, low if min is None or min < low else high if min > high else min,
                            high if max is None or max > high else low if max < low else max)
        if r is not None:
            return wrap(r if type(r) is _np_ndarray else _asarray(r), CPU)  # (0-d: a scalar)
    if not isinstance(x, ndarray):
        raise _type_error("clip", "real numeric", x, unary=True)
    a = x._array
    if a is None:
        try:
            a = x._compute()
        except NoBackendError as e:  # held: devices, then the CPU's error for bad arguments
            for bound in (min, max):
                if isinstance(bound, ndarray) and bound._device != x._device:
                    common_device(x._device, bound._device)  # (ValueError: these never mix)
            raise cpu_error_first(clip, (x, min, max), {}, e, counts=False) from None
    dt = a.dtype
    if dt not in CATEGORIES["real numeric"]:
        raise _type_error("clip", "real numeric", x)
    lo, hi = _clip_bound("min", min, x, dt), _clip_bound("max", max, x, dt)
    xp = array_module(a)
    if xp is np:  # (no GPU to make current)
        r = _clipped(np, a, lo, hi, dt)
    else:
        with on(x._device):
            r = _clipped(xp, a, lo, hi, dt)
    result: ndarray = wrap_result(r, x._device)
    return result


def _clipped(xp: Any, a: Any, lo: Any, hi: Any, dt: np.dtype[Any]) -> Any:
    """Backend array ``a`` (of dtype ``dt``) clipped at clip's checked bounds."""
    if (lo is not None or hi is not None) and dt.kind in "iu" and (
            _wider(lo, dt) or _wider(hi, dt)):
        # An array bound of a wider integer dtype, clamped to x's range as the scalars
        # are: the result, cast back to x's dtype, would wrap (int8 clipped at 200: -56).
        lo, hi = (_clamped(xp, v, dt) if _wider(v, dt) else v for v in (lo, hi))
    if lo is None and hi is None:
        r = a.copy("K")
    elif dt not in EXTENSION_FLOATS and (  # (ml_dtypes' clip gave -0.0 the bound's zero)
            xp is np and (lo is None or type(lo) is float) and (hi is None or type(hi) is float)
            or dt.kind not in "fc"):
        if dt.kind == "f":  # (NumPy clips at one bound by maximum or minimum, which give
            # the bound for an equal x: -0.0 clipped at 0.0 became 0.0, unlike with two)
            lo, hi = (-np.inf if lo is None else lo), (np.inf if hi is None else hi)
        r = xp.clip(a, lo, hi)
    elif xp is np and dt not in EXTENSION_FLOATS and a.size > _CLIP_BY_WHERE_MOST:
        r = _clip_and_mend_zeros(a, lo, hi, dt)  # (a float array bound, on the CPU)
    else:
        r = _clip_by_where(xp, a, lo, hi, dt)
    return r if r.dtype == dt else r.astype(dt)


def _clip_by_where(xp: Any, a: Any, lo: Any, hi: Any, dt: np.dtype[Any]) -> Any:
    """Float clip as dltensor defines it: lo where x < lo, then hi where that > hi, else x
    kept, its zero's sign too, as NumPy's clip does with scalar bounds (with array bounds it
    gives an equal x the bound's zero, or not, as its strides fall; CuPy's ignores a NaN
    bound); NaN x or bound: NaN, as the spec says. (The result may be of a wider dtype.)"""
    r = a
    # (ml_dtypes' comparisons warn of NaN, and a float bound past float16's range of its cast)
    with special.quiet(xp):
        for bound, past in ((lo, xp.less), (hi, xp.greater)):
            if bound is None:
                continue
            if type(bound) is float and math.isnan(bound):
                # (r's shape: x's broadcast with an array min before, when max is NaN)
                r = xp.full(r.shape, math.nan, dtype=dt)
                continue
            r = xp.where(past(r, bound), bound, r)
            if type(bound) is not float:  # (an array bound: NaN where it is NaN)
                r = xp.where(xp.isnan(bound), bound, r)
    return r


def _clip_and_mend_zeros(a: Any, lo: Any, hi: Any, dt: np.dtype[Any]) -> Any:
    """``_clip_by_where``'s answer for NumPy arrays at about NumPy's clip's cost (its where's,
    each branching on a mask, were ~25x it at 1e6 elements). NumPy's clip gives NaN where x or
    a bound is NaN and elsewhere the same value, once rounded to x's dtype (rounding is
    monotone); only where it ties two zeros may it pick another's sign: x and min (x a zero),
    or x clipped at min and max (max a zero). Those are taken from ``_clip_by_where``, run
    over them alone."""
    huge = _FLOAT_MAX.get(dt)
    if huge is not None and any(type(b) is float and math.fabs(b) > huge for b in (lo, hi)):
        with np.errstate(over="ignore"):  # (1e10 for float16: inf, silently, as where casts it)
            r = np.clip(a, lo, hi)
    else:
        r = np.clip(a, lo, hi)
    r = np.asarray(r, dtype=dt)  # (0-d operands give a NumPy scalar; wider bounds, a wider r)
    if r.all():  # (no zero: 0.2 ms of 1e6 float64)
        return r
    tie = r == 0
    if type(hi) is float:  # (a Python float max that rounds to a zero in x's dtype ties as
        # that zero: clip(x, zeros, -5e-324) of float32 gave -0.0 where the where's keep 0.0)
        tie &= (a == 0) | (math.fabs(hi) < _FLOAT_TINY[dt])
    else:
        tie &= (a == 0) if hi is None else (a == 0) | (hi == 0)
    at = np.nonzero(tie)
    if not at[0].size:
        return r
    shape = r.shape
    x, lo, hi = (v if v is None or type(v) is float else np.broadcast_to(v, shape)[at]
                 for v in (a, lo, hi))
    r[at] = _clip_by_where(np, x, lo, hi, dt)
    return r


def _clip_bound(which: str, v: Any, x: ndarray, dt: np.dtype[Any]) -> Any:
    """A bound of clip as the backend takes it: None, a Python int or float within x's dtype,
    or a backend array whose dtype kind and device agree with x's."""
    if v is not None and not isinstance(v, ndarray) and type(v) not in PYTHON_SCALARS:
        v = python_scalar(v, v)
    if v is None:
        return None
    if type(v) in PYTHON_SCALARS:
        if type(v) is bool or type(v) is complex:
            raise TypeError(f"clip: {which} must be an int, a float or an array, "
                            f"not {type(v).__name__}")
        scalar_dtype(v, dt, "clip")  # a float bound on an int array: TypeError
        if dt.kind in "iu":
            # a bound outside the dtype's range clamps nothing (NumPy would overflow)
            low, high = int_bounds(dt)
            return low if v < low else high if v > high else v
        return scalar_into(v, dt)  # (a float, rounded once into ml_dtypes' floats)
    if not isinstance(v, ndarray):
        raise TypeError(f"clip: {which} must be an int, a float, an array or None, "
                        f"not {type(v).__name__}")
    _operands("clip", "real numeric", x, v, False)  # dtype kinds and device must agree
    return v._compute()


def _clamped(xp: Any, bound: Any, dtype: np.dtype[Any]) -> Any:
    """An integer bound array clamped to ``dtype``'s range, within its own dtype's (CuPy packs
    the limits into the bound's dtype: -128 for a uint8 bound was an OverflowError)."""
    (a_low, a_high), (b_low, b_high) = int_bounds(dtype), int_bounds(bound.dtype)
    return xp.clip(bound, max(a_low, b_low), min(a_high, b_high))


def _wider(bound: Any, dtype: np.dtype[Any]) -> bool:
    """Whether a clip bound is an array whose values ``dtype`` may not hold."""
    # (NumPy's dtypes of arrays are singletons, as the table's are: `is` compares them)
    return bound is not None and type(bound) not in PYTHON_SCALARS and \
        bound.dtype is not dtype and NUMPY_PROMOTION.get((dtype, bound.dtype)) is not dtype


# --- the operators on ndarray ------------------------------------------------------------------

# operator (dunder without underscores) -> function; each gets __op__, __rop__ and __iop__.
ARITHMETIC_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
}
# Python reflects comparisons itself (1 < x calls x.__gt__(1)).
COMPARISON_OPERATORS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
                        "gt": "greater", "ge": "greater_equal"}
_COMPARISONS = {*COMPARISON_OPERATORS.values(), *(f"__{op}__" for op in COMPARISON_OPERATORS)}
UNARY_OPERATORS = {"neg": "negative", "pos": "positive", "abs": "abs",
                   "invert": "bitwise_invert"}


# matmul's dtype, promotion and device rules are the element-wise ones; NumPy/CuPy check the
# shapes (ValueError). Python scalars are not operands of @ (the spec excludes it).
def _matmul_of_stacks(xp: Any, a: Any, b: Any) -> Any:
    if (a.ndim > 2 or b.ndim > 2) and not (a.size and b.size):
        r = by_the_first(MethodType(_matmul_of_stacks, xp), (a, b), (2, 2),
                         lambda r, shape: xp.broadcast_to(r, shape).copy())
        if r is not None:  # (a stack of empty matrices: NumPy loops over it)
            return r
    return xp.matmul(a, b)


def _matmul_extension_float(xp: Any, a: Any, b: Any) -> Any:
    r = _matmul_of_stacks(xp, a, b)  # NumPy has no loop for ml_dtypes' floats: float32,
    return r if r.dtype == a.dtype else r.astype(a.dtype)  # cast back


_MATMUL_FIX: _Fix = (("F", _matmul_extension_float), ("iufc", _matmul_of_stacks))
_matmul = _make_binary("__matmul__", "numeric", "matmul", _MATMUL_FIX, operator=True)
_imatmul = _make_binary("__imatmul__", "numeric", "matmul", _MATMUL_FIX, operator=True)


def _matmul_other(name: str, other: object) -> bool:
    """Whether ``other`` is an operand of @ (an array); NumPy's types are refused in our words
    (as by the element-wise operators), anything else is left to Python (NotImplemented)."""
    if isinstance(other, _NUMPY_TYPES):
        raise TypeError(f"{name} takes dltensor arrays, not {type_name(other)}; convert it "
                        "with dltensor.asarray()")
    return isinstance(other, ndarray)


def _matmul_operator(self: ndarray, other: object, /) -> Any:
    return _matmul(self, other) if _matmul_other("__matmul__", other) else NotImplemented


def _rmatmul_operator(self: ndarray, other: object, /) -> Any:
    return _matmul(other, self) if _matmul_other("__rmatmul__", other) else NotImplemented


def _refuse_shape_change(dtype: DType, shape: tuple[int, ...], x: ndarray) -> NoReturn:
    raise ValueError(f"__imatmul__: the result ({dtype.name}, shape {shape}) cannot be "
                     f"written into the {x.dtype.name} array of shape {x.shape}; use @ instead")


def _one_device(a: Device, b: Device) -> bool:
    """Whether arrays on ``a`` and ``b`` compute together (check_device's rule): one device,
    or CPU memory and pinned or managed memory, which NumPy reads as the CPU's."""
    return a == b or a.device_type in CPU_READABLE and b.device_type in CPU_READABLE


def _product_shape(s: tuple[int, ...], o: tuple[int, ...]) -> tuple[int, ...] | None:
    """The shape of ``x @ y`` for shapes ``s`` and ``o``; None where they do not multiply (the
    product's error says why)."""
    if not s or not o or s[-1] != o[-2 if len(o) > 1 else 0] or \
            any(1 != d != e != 1 for d, e in zip(s[-3::-1], o[-3::-1])):
        return None
    return broadcast_of(s[:-2], o[:-2]) + s[-2:-1] + o[-1:] if len(o) > 1 else s[:-1]


def _imatmul_operator(self: ndarray, other: object, /) -> Any:
    if not _matmul_other("__imatmul__", other):
        return NotImplemented
    o = cast(ndarray, other)
    rt = PROMOTION.get((self.dtype, o.dtype))
    if rt is not None and rt is not self.dtype:  # (the dtypes decide it: before the product)
        _refuse_dtype_change("__imatmul__", rt, self, "@")
    shape = _product_shape(self.shape, o.shape)
    if rt is self.dtype and rt.spec_kind != "bool" and shape is not None and \
            shape != self.shape and _one_device(self._device, o._device):  # (and the shapes,
        # where the product would refuse neither the dtype nor the devices: (n, 1) @= (1, n)
        # made n * n to refuse them)
        _refuse_shape_change(rt, shape, self)
    try:
        r = _imatmul(self, other)  # (its errors name @=, not @)
    except NoBackendError as e:  # held memory: the CPU's error first for bad operands
        raise cpu_error_first(_imatmul_operator, (self, other), {}, e) from None
    if r.dtype is not self.dtype:
        raise TypeError(f"__imatmul__: the result ({r.dtype.name}) cannot be written into the "
                        f"{self.dtype.name} array; use @ instead")
    if r.shape != self.shape:
        _refuse_shape_change(r.dtype, r.shape, self)
    if self.read_only:
        raise read_only_error(self, "__imatmul__")
    a = self._compute()
    with on(self._device):
        array_module(a).copyto(a, r._compute())
    return self


def _install() -> None:
    for op, fname in ARITHMETIC_OPERATORS.items():
        cat, ufunc, fix = (*BINARY[fname], None)[:3]
        setattr(ndarray, f"__{op}__", _make_binary(f"__{op}__", cat, ufunc, fix, True))
        setattr(ndarray, f"__r{op}__", _make_binary(f"__r{op}__", cat, ufunc, fix, True, True))
        setattr(ndarray, f"__i{op}__", _make_inplace(f"__i{op}__", cat, ufunc, fix))
    for op, fname in COMPARISON_OPERATORS.items():
        cat, ufunc, fix = (*BINARY[fname], None)[:3]
        setattr(ndarray, f"__{op}__", _make_binary(f"__{op}__", cat, ufunc, fix, operator=True))
    for op, fname in UNARY_OPERATORS.items():
        setattr(ndarray, f"__{op}__", globals()[fname])
    setattr(ndarray, "__matmul__", _matmul_operator)
    setattr(ndarray, "__rmatmul__", _rmatmul_operator)
    setattr(ndarray, "__imatmul__", _imatmul_operator)


_install()

if TYPE_CHECKING:
    # the same names, spelled out: type checkers read only a literal __all__
    __all__ = [
        "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil",
        "conj", "cos", "cosh", "exp", "expm1", "floor", "imag", "isfinite", "isinf", "isnan",
        "log", "log1p", "log2", "log10", "logical_not", "negative", "positive", "real",
        "reciprocal", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square", "tan",
        "tanh", "trunc", "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
        "bitwise_right_shift", "bitwise_xor", "copysign", "divide", "equal", "floor_divide",
        "greater", "greater_equal", "hypot", "less", "less_equal", "logaddexp", "logical_and",
        "logical_or", "logical_xor", "maximum", "minimum", "multiply", "nextafter",
        "not_equal", "pow", "remainder", "subtract", "clip"
    ]
else:
    __all__ = [*UNARY, *BINARY, "clip"]
