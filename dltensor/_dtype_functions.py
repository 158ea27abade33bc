"""The array API data type functions: astype, can_cast, finfo, iinfo, isdtype, result_type.

Promotion follows the spec's table (``_dtypes.PROMOTION``), never NumPy's wider one: no
int64 + uint64 -> float64, no mixing of kinds. The Python-scalar rules (2024.12) live here
too, as one table keyed by NumPy dtype, because the element-wise functions share them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from . import _dtypes
from ._array import ndarray, wrap
from ._devices import CPU, Device
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, PROMOTION, PYTHON_SCALARS, DType, derived
from ._dtypes import computable, numpy_rows
from ._dtypes import refuse_complex_to_real
from ._dispatch import allocatable, flag, native_dtype
from ._moves import bytes_copied, cast_first, computed, copy_of_native, move

_np_ndarray = np.ndarray

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


# --- Python scalars with arrays (spec: "Mixing arrays with Python scalars") -----------------
# NumPy dtype -> the Python scalar types that may meet an array of it. A bool meets only bool
# arrays; an int any numeric array; a float only floating arrays; a complex only floating
# arrays, which it turns complex (COMPLEX_OF). int with float and complex with int are left
# to implementations by the spec: dltensor refuses them (TypeError), as array-api-strict does.
_FLOATING_KINDS = ("real floating", "complex floating")
SCALAR_TYPES: dict[np.dtype[Any], frozenset[type]] = {}
# The Python scalars that join an array of each NumPy dtype without changing it, for the fast
# paths of operators and where: not complex, which may make a float array complex; none for
# ml_dtypes' floats, whose scalars need converting (the general way).
KEEPING_SCALARS: dict[np.dtype[Any], frozenset[type]] = {}


@derived
def _scalar_types() -> None:
    for npdt, d in numpy_rows():
        if npdt in EXTENSION_FLOATS:  # (ml_dtypes' floats: a complex goes into the complex
            # dtype of the same precision, which they lack)
            SCALAR_TYPES[npdt], KEEPING_SCALARS[npdt] = frozenset({int, float}), frozenset()
            continue
        kind = d.spec_kind
        types = SCALAR_TYPES[npdt] = frozenset(
            {bool} if kind == "bool" else
            {int, float, complex} if kind in _FLOATING_KINDS else
            {int} if kind is not None else ())
        KEEPING_SCALARS[npdt] = types - {complex}
# the complex dtype a Python complex turns a floating array into (the same precision)
COMPLEX_OF = {np.dtype(a): np.dtype(b) for a, b in (
    ("float16", "complex64"), ("float32", "complex64"), ("float64", "complex128"),
    ("complex64", "complex64"), ("complex128", "complex128"))}


@functools.cache
def int_bounds(npdt: np.dtype[Any]) -> tuple[int, int]:
    """The least and greatest Python int an integer dtype holds."""
    info = np.iinfo(npdt)
    return int(info.min), int(info.max)


_REAL, _IMAG = complex.real, complex.imag  # (the values a complex holds, descriptors)


def python_scalar(x: object, default: Any = None) -> Any:
    """``x`` as a plain Python scalar, else ``default``. The spec's scalars are "instances of bool,
    int, float, complex" (NumPy's float64 and complex128 are, an IntEnum too); NumPy's other
    number scalars (int64 from an argmax, float32 from a sum) count as well, as in PyTorch.
    All are weak: they take the array's dtype."""
    if isinstance(x, np.generic):
        if x.dtype in EXTENSION_FLOATS:  # (ml_dtypes' floats: NumPy says kind "V" of most)
            return float(x)
        return x.item() if x.dtype.kind in "biufc" else default
    if isinstance(x, (bool, complex)):  # (bool: not subclassable; complex before float)
        # (a subclass by the value it holds, as NumPy and asarray read it: not its __complex__)
        return x if type(x) is bool or type(x) is complex else \
            complex(_REAL.__get__(x), _IMAG.__get__(x))
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return float(x)
    return default


def scalar_dtype(scalar: object, dt: np.dtype[Any], where: str) -> np.dtype[Any]:
    """The NumPy dtype a Python scalar takes next to an array of dtype ``dt`` (TypeError when
    the spec allows no such mix); ``where`` names the caller for the message."""
    t = type(scalar)
    if t not in PYTHON_SCALARS:
        t = type(python_scalar(scalar, scalar))
    if t in SCALAR_TYPES.get(dt, ()):
        return dt if t is not complex else _complex_of(dt, where)
    if t not in PYTHON_SCALARS:
        raise TypeError(f"{where} takes arrays and Python scalars (bool, int, float, complex), "
                        f"not {t.__name__}")
    raise TypeError(f"{where}: cannot combine a Python {t.__name__} with an array of dtype "
                    f"{FROM_NUMPY[dt].name} (the array API allows {_allowed_text(dt)}); "
                    "convert one of them with astype() or asarray()")


def _complex_of(dt: np.dtype, where: str) -> np.dtype:
    c = COMPLEX_OF.get(dt)
    if c is None:
        raise TypeError(f"{where}: cannot combine a Python complex with an array of dtype "
                        f"{FROM_NUMPY[dt].name}")
    return c


def _allowed_text(dt: np.dtype) -> str:
    names = sorted(t.__name__ for t in SCALAR_TYPES.get(dt, ()))
    return "only Python " + "/".join(names) + " scalars there" if names else "no Python scalars"


# --- astype and can_cast -------------------------------------------------------------------

def _check_dtype(dtype: object, where: str) -> DType:
    if type(dtype) is not DType:
        raise TypeError(f"{where}: expected a dltensor dtype such as dltensor.float32, "
                        f"not {dtype!r}")
    return dtype


def _dtype_of(arg: object, where: str) -> DType:
    if type(arg) is ndarray or isinstance(arg, ndarray):
        return arg.dtype
    return _check_dtype(arg, where)


def astype(x: ndarray, dtype: DType, /, *, copy: bool = True,
           device: Device | str | tuple[int, int] | None = None) -> ndarray:
    """``x`` converted to ``dtype`` (and moved to ``device``), irrespective of promotion rules.

    With ``copy=False`` and nothing to change, ``x`` itself is returned. Casting complex to a
    real dtype is refused (TypeError), as the spec asks: take ``real(x)`` or ``imag(x)`` first.
    """
    a = x._array if type(x) is ndarray and device is None and type(copy) is bool else None
    if type(a) is _np_ndarray and x._device is CPU and type(dtype) is DType:
        # The common call, a NumPy array on the CPU: NumPy's own cast, where the checks below
        # pass (the complex to real refusal, ml_dtypes' floats and dtypes NumPy has not aside)
        src = FROM_NUMPY[a.dtype]
        if dtype is src:
            return wrap(a.copy("K"), CPU) if copy else x  # (x's layout kept, as NumPy's)
        target = dtype.numpy
        if target is not None and src.spec_kind != "complex floating" and \
                target not in EXTENSION_FLOATS and src.numpy not in EXTENSION_FLOATS:
            return wrap(a.astype(target), CPU)
    if not isinstance(x, ndarray):
        raise TypeError(f"astype takes a dltensor array, not {type(x).__name__}")
    _check_dtype(dtype, "astype")
    if type(copy) is not bool:  # (None, "if needed", is asarray's, not astype's)
        copy = flag("astype", "copy", copy)
    src = x.dtype
    refuse_complex_to_real("astype", src, dtype)
    if device is not None:
        from ._devices import as_device
        dev = as_device(device)
        if dev != x._device:
            if cast_first(x, dtype, dev):
                return move(astype(x, dtype), dev)
            # A copy on the new device (pinned or managed memory to the CPU: a view unless
            # asked, as a dtype change copies anyway): no second copy needed below.
            x = move(x, dev, copy=True if copy and dtype is src else None)
            copy = False
        elif copy or dtype is not src:
            allocatable(dev)  # (new memory on x's pinned device, asked for: NumPy's is not)
    if dtype is src and not copy:
        return x
    if dtype is src:  # (a dtype CuPy has not, float8, is copied as its bytes, as asarray's;
        # int4's, packed below a byte, is the TypeError below, as on the CPU: not BufferError)
        raw = bytes_copied(x) if src.bits % 8 == 0 else None
        return computed(x, copy_of_native) if raw is None else raw
    # (TypeError for a dtype held only, int4, float4..., or one x's backend has not)
    target = native_dtype(dtype, x._device)
    return computed(x, lambda a: _dtypes.cast(a, target))


def in_float32(f: Callable[..., Any], x: ndarray, *args: Any, **kwargs: Any) -> Any:
    """``f(x, *args, **kwargs)`` with ``x`` (an ml_dtypes float, or float16 for running sums)
    as float32, its float32 results cast back (a ``dtype=`` asked for is kept).

    Callers check the dtype on the backend array they hold. NumPy's loops for these dtypes
    accumulate in the dtype itself (the bfloat16 sum of 1000 ones was 256; float16 running
    sums stall at 2048) and order NaN as no float (sort, unique_* and searchsorted gave
    unsorted, duplicated or wrong answers). float32 holds every value of them exactly, so only
    the final rounding differs."""
    asked = kwargs.get("dtype")
    if asked is x.dtype:  # (x's own dtype: the default, computed in float32)
        kwargs["dtype"] = asked = None
    r = f(astype(x, _dtypes.float32), *args, **kwargs)
    return r if asked is not None else _narrowed(r, x.dtype)


def _narrowed(r: Any, dtype: DType) -> Any:
    """Results computed in float32 back in ``dtype`` (indices and counts as they are)."""
    if isinstance(r, tuple):
        items = [_narrowed(e, dtype) for e in r]
        return type(r)(*items) if hasattr(r, "_fields") else tuple(items)
    return astype(r, dtype) if r.dtype is _dtypes.float32 else r


def scalar_into(value: Any, dtype: Any) -> Any:
    """A Python scalar as a backend takes it into NumPy dtype ``dtype``: an int as a float for
    floating and complex dtypes, as NumPy converts it (CuPy packs it into int64 or uint64
    first, and past them raises). For ml_dtypes' floats, the float of the value rounded once
    into the dtype: their conversions of a Python scalar (np.full's, an operand's) take a
    float through float32 and an int through a float, rounding twice (bfloat16 of 2**24 +
    2**16 + 1 was 2**24, of 0x1.0100000001010p-1 0.5), and take no int past int64."""
    dt = np.dtype(dtype)
    if dt in EXTENSION_FLOATS and (type(value) is float or type(value) is int):
        if type(value) is int and not -1 << 63 <= value < 1 << 64:
            value = float(value)  # (an array of it would hold objects)
        with np.errstate(all="ignore"):  # (past the dtype: inf or NaN, as the op then says)
            return float(np.asarray(value).astype(dt))  # (NumPy's casts round once)
    return float(value) if type(value) is int and dt.kind in "fc" else value


def can_cast(from_: DType | ndarray, to: DType, /) -> bool:
    """Whether ``from_`` (a dtype or an array's dtype) promotes to ``to`` by the spec's table."""
    if type(from_) is DType and type(to) is DType:  # (the commonest: no checks to call)
        return from_ is to or PROMOTION.get((from_, to)) is to
    f = _dtype_of(from_, "can_cast")
    _check_dtype(to, "can_cast")
    return f is to or PROMOTION.get((f, to)) is to


# --- finfo and iinfo -----------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class finfo_object:
    """Machine limits of a floating-point dtype (values as Python floats, as the spec says)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


@dataclass(frozen=True, eq=False)
class iinfo_object:
    """Machine limits of an integer dtype (values as Python ints)."""

    bits: int
    max: int
    min: int
    dtype: DType


_finfo_cache: dict[DType, finfo_object] = {}
_iinfo_cache: dict[DType, iinfo_object] = {}
_REAL_OF = {_dtypes.complex64: _dtypes.float32, _dtypes.complex128: _dtypes.float64}


def finfo(type: DType | ndarray, /) -> finfo_object:
    """Limits of a floating-point dtype; for complex dtypes, those of its real component."""
    if type.__class__ is DType:  # (a dtype asked before: no checks to call)
        info = _finfo_cache.get(type)
        if info is not None:
            return info
    dt = _dtype_of(type, "finfo")
    info = _finfo_cache.get(dt)
    if info is None:
        real = _REAL_OF.get(dt, dt)
        fi = np.finfo(real.numpy) if real.spec_kind == "real floating" else _ml_finfo(real)
        if fi is None and real.kind == "f":  # (bfloat16 without ml_dtypes)
            raise TypeError(f"finfo: dltensor has no limits of {dt.name} (install ml_dtypes "
                            "to compute on it)")
        if fi is None:
            raise ValueError(f"finfo takes a floating-point dtype, not {dt.name}; "
                            "use iinfo for integers")
        info = _finfo_cache[dt] = finfo_object(
            int(fi.bits), float(fi.eps), float(fi.max), float(fi.min),
            float(fi.smallest_normal), real)
    return info


def iinfo(type: DType | ndarray, /) -> iinfo_object:
    """Limits of an integer dtype."""
    if type.__class__ is DType:  # (as finfo)
        cached = _iinfo_cache.get(type)
        if cached is not None:
            return cached
    dt = _dtype_of(type, "iinfo")
    info = _iinfo_cache.get(dt)
    if info is None:
        if dt.kind not in ("i", "u"):
            raise ValueError(f"iinfo takes an integer dtype, not {dt.name}; "
                            "use finfo for floating-point dtypes")
        # (from the width: the held ones, int4 and the like, have no NumPy dtype to ask)
        b = dt.bits
        low, high = (0, (1 << b) - 1) if dt.kind == "u" else (-1 << b - 1, (1 << b - 1) - 1)
        info = _iinfo_cache[dt] = iinfo_object(b, high, low, dt)
    return info


def _ml_finfo(dt: DType) -> Any:
    """ml_dtypes' finfo of a float outside the spec (bfloat16, float8, and the float6 and
    float4 dltensor only holds: their limits are the format's, computed on or not); None for
    any other dtype."""
    if dt.kind != "f":
        return None
    try:
        import ml_dtypes
    except ImportError:
        return None
    t = getattr(ml_dtypes, dt.name, None)
    return None if t is None else ml_dtypes.finfo(t)  # type: ignore[no-untyped-call]


# --- isdtype and result_type ----------------------------------------------------------------

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("signed integer",),
    "unsigned integer": ("unsigned integer",),
    "integral": ("signed integer", "unsigned integer"),
    "real floating": ("real floating",),
    "complex floating": ("complex floating",),
    "numeric": ("signed integer", "unsigned integer", "real floating", "complex floating"),
}


def isdtype(dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> bool:
    """Whether ``dtype`` is ``kind``: a dtype, a kind name ("integral", "numeric", ...) or a
    tuple of those (any of them)."""
    if type(dtype) is DType and type(kind) is str:  # (the commonest: a kind's name)
        kinds = _KINDS.get(kind)
        if kinds is not None:
            return dtype.spec_kind in kinds
    _check_dtype(dtype, "isdtype")
    if isinstance(kind, tuple):  # (each kind checked, not only those up to the first match)
        matches = [_isdtype_one(dtype, k) for k in kind]
        return any(matches)
    return _isdtype_one(dtype, kind)


def _isdtype_one(dtype: DType, kind: object) -> bool:
    if type(kind) is DType:
        return dtype is kind
    if isinstance(kind, str):  # (a StrEnum's member too, as NumPy takes it)
        kinds = _KINDS.get(kind)
        if kinds is None:
            raise ValueError(f"isdtype: unknown kind {kind!r}; expected one of "
                             f"{', '.join(map(repr, _KINDS))}")
        return dtype.spec_kind in kinds
    raise TypeError(f"isdtype: kind must be a dtype, a kind name or a tuple of them, "
                    f"not {type(kind).__name__}")


def result_type(*arrays_and_dtypes: ndarray | DType | bool | int | float | complex) -> DType:
    """The dtype the spec's promotion gives these arrays, dtypes and Python scalars.

    Scalars are weak: they take the dtype the arrays and dtypes promote to (a complex scalar
    makes a real floating dtype complex), and are refused where the spec allows no mix.
    """
    result = None
    scalars = []
    given: list[DType] = []
    for a in cast(tuple[Any, ...], arrays_and_dtypes):
        t = type(a)
        if t is DType:  # (dtypes and arrays, the common arguments, told first)
            dt = a
        elif t is ndarray:
            dt = a.dtype
        else:
            if t not in PYTHON_SCALARS:
                a = python_scalar(a, a)
            if type(a) in PYTHON_SCALARS:
                scalars.append(a)
                continue
            if type(a) is not DType and not isinstance(a, ndarray):
                raise TypeError(f"result_type takes dltensor arrays, dltensor dtypes and "
                                f"Python scalars, not {a!r}")
            dt = _dtype_of(a, "result_type")
        given.append(dt)
        if result is None or result is dt:
            result = dt
        else:
            result = PROMOTION.get((result, dt))
            if result is None:  # (naming the dtypes given, not an intermediate)
                raise _dtypes.no_promotion("result_type", *given)
    if result is None:
        # (no parentheses: SciPy's tests match a library's own message as a regex)
        raise ValueError("result_type needs at least one array or dtype; scalars alone have "
                         "no dtype")
    if scalars:
        npdt = computable(result)
        if npdt is None:
            raise TypeError(f"result_type: Python scalars cannot be combined with {result.name}")
        for s in scalars:
            npdt = scalar_dtype(s, npdt, "result_type")
            if type(s) is int and npdt.kind in "iu":  # as the operators check: it must fit
                low, high = int_bounds(npdt)
                if not low <= s <= high:
                    raise OverflowError(f"Python integer {s} is out of bounds for "
                                        f"{FROM_NUMPY[npdt].name}")
        result = FROM_NUMPY[npdt]
    return result
