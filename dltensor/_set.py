"""Set functions (array API 2025.12, "Set Functions").

The unique_* functions call the library's ``unique`` with ``equal_nan=False``: as the spec
says, every NaN is a distinct value. Results are named tuples with the spec's field names.
``isin``'s commonest calls on the CPU are NumPy's own isin, called directly.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np

from ._array import ndarray, wrap
from ._devices import CPU
from ._dispatch import array_module, device_of, expect_array, flag, namespace_for, native, on
from ._dispatch import wrap_result
from ._dtype_functions import KEEPING_SCALARS, in_float32, int_bounds, python_scalar
from ._dtype_functions import scalar_dtype
from ._dtypes import EXTENSION_FLOATS, numpy_kind, rounds_in_common
from ._searching import _host_scalar, scalar_array

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]


class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


_R = TypeVar("_R")
_np_unique: Callable[..., Any] = np.unique  # (its overloads take literal flags only)
_np_isin: Callable[..., Any] = np.isin
_np_ndarray = np.ndarray


def _unique(x: ndarray, name: str, result_type: Callable[..., _R], index: bool = False,
            inverse: bool = False, counts: bool = False) -> _R:
    """The library's ``unique`` with ``equal_nan=False`` and the results asked for, the inverse
    indices shaped like ``x`` (array-api-compat's unique_* do the same, but look at unique's
    signature on every call: ~10 us of 12)."""
    expect_array(name, x)
    dev = x._device
    a = native(x)
    if a.dtype in EXTENSION_FLOATS:
        wide: _R = in_float32(_unique, x, name, result_type, index, inverse, counts)
        return wide
    if type(a) is np.ndarray:  # (NumPy's results are the CPU's, and no GPU is made current)
        # Without indices NumPy sorts by an unstable sort, whose order among equal values is
        # chance: the inverse indices of float NaNs came out as neither unique_all's nor a
        # GPU's, and so did the sign of a complex value's zero part (unique_values of 1+0j
        # and 1-0j kept either past 16 elements: any value may have one). So its stable sort,
        # whose first occurrences are x's (a zero of x's first zero's sign, NaNs in x's
        # order): on small arrays always (it costs less than a look for NaNs and -0.0 parts,
        # and than mending the zero's sign after), and always for complex unique_values
        # (NumPy's own, by hashing, took three times as long on 10**6 distinct values);
        # past them only where a look finds NaNs, or complex -0.0 parts (the stable sort and
        # its indices took twice as long on 10**4 to 10**6 values: equal values are equal
        # bits without them, and which one is kept does not matter).
        kind = a.dtype.kind
        if index or kind not in "fc":
            stable = False
        elif a.size <= (_LOOK_ABOVE if kind == "c" else _FLOATS_SORTED_UP_TO):
            stable = True
        elif kind == "c":
            stable = not (inverse or counts) or _odd_parts(a)
        else:
            stable = bool(np.isnan(a).any())
        r = _np_unique(a, return_index=index or stable, return_inverse=inverse,
                       return_counts=counts, equal_nan=False)
        if stable:
            r = r[0] if not (inverse or counts) else (r[0], *r[2:])
        elif not index and kind == "f":  # (stable: the first zero's sign already)
            _first_zero(a, r if type(r) is np.ndarray else r[0])
        if not (index or inverse or counts):
            return result_type(wrap(r, CPU))
        # (NumPy's unique copies x first: its results are its own memory, the CPU's)
        return result_type(*[wrap(v, CPU)
                             for v in (_inverse_shaped(r, a, index) if inverse else r)])
    unique, keywords = _library_unique(a)
    with on(dev):  # (CuPy computes on its current GPU)
        if a.dtype.kind == "f":
            r = _by_first_occurrences(unique, keywords, a, index, inverse, counts)
        else:
            r = unique(a, return_index=index, return_inverse=inverse,
                       return_counts=counts, **keywords)
    if not (index or inverse or counts):
        return result_type(wrap_result(r, dev))
    return result_type(*[wrap_result(v, dev)
                         for v in (_inverse_shaped(r, a, index) if inverse else r)])


def _inverse_shaped(r: tuple[Any, ...], a: Any, index: bool) -> tuple[Any, ...]:
    """A unique's results with its inverse indices shaped like ``a``: NumPy 2.0-2.1 and CuPy
    give them flat (numpy/numpy#20638)."""
    return (*r[:1 + index], r[1 + index].reshape(a.shape), *r[2 + index:])


_LOOK_ABOVE = 1024  # (elements: on fewer, NumPy's stable sort of complex numbers costs less)
_FLOATS_SORTED_UP_TO = 256  # (of real floats: past it NumPy's hashing unique_values costs less)


def _odd_parts(a: np.ndarray[Any, Any]) -> bool:
    """Whether complex ``a`` has a part that is NaN (each such value distinct, their order an
    unstable sort's chance) or -0.0 (such a value equal to one of other bits, +0.0's; as an
    integer -0.0 is the least of its width)."""
    bits = np.dtype(f"i{a.itemsize // 2}")
    least = np.iinfo(bits).min
    return any(bool((part.view(bits) == least).any() or np.isnan(part).any())
               for part in (a.real, a.imag))


def _first_zero(a: np.ndarray[Any, Any], values: np.ndarray[Any, Any]) -> None:
    """NumPy's unique ``values`` of floats ``a`` with their zero (if any) of a's first zero's
    sign, as unique_all's, and as on a GPU (below): without indices NumPy sorts by an unstable
    sort, so which of 0.0 and -0.0 it kept was chance (unique_values([0.5, 0.5, 0.0, -0.0])
    was -0.0, unique_all's 0.0)."""
    i = values.searchsorted(0)  # (NaNs sort last)
    if i < values.size and values[i] == 0:
        values[i] = a[np.unravel_index(np.argmax(a == 0), a.shape)]


def _by_first_occurrences(unique: Callable[..., Any], keywords: dict[str, bool], a: Any,
                          index: bool, inverse: bool, counts: bool) -> Any:
    """CuPy's unique of floats as NumPy's: CuPy sorts them by their bits, -0.0 before 0.0
    and NaNs with the sign bit first, so the zeros' first occurrence was a -0.0's (their
    value its sign), and such NaNs came before every value, where NumPy's come last. Of
    ``a + 0.0`` (one zero) with every NaN positive (the sum need not clear a NaN's sign) the
    first occurrences are right (its sort is stable), and give the values."""
    flat = a.reshape(-1)
    xp = array_module(a)
    key = xp.where(xp.isnan(flat), a.dtype.type(np.nan), flat + 0.0)
    r = unique(key, return_index=True, return_inverse=inverse, return_counts=counts,
               **keywords)
    values = flat[r[1]]  # (-0.0 where a -0.0 came first, and NaNs as they were)
    if not (index or inverse or counts):
        return values
    return (values, *r[1:]) if index else (values, *r[2:])


_uniques: dict[type, tuple[Callable[..., Any], dict[str, bool]]] = {}


def _library_unique(a: Any) -> tuple[Callable[..., Any], dict[str, bool]]:
    """The unique of ``a``'s library (CuPy's; NumPy's is called directly), with
    ``equal_nan=False`` where it takes it (every NaN is distinct, as the spec says): found
    once per array type."""
    found = _uniques.get(type(a))
    if found is None:
        lib = array_module(a)
        keywords = {"equal_nan": False} if "equal_nan" in inspect.signature(
            lib.unique).parameters else {}
        found = _uniques[type(a)] = (lib.unique, keywords)
    return found


def unique_all(x: ndarray, /) -> UniqueAllResult:
    """The unique elements of ``x`` with first-occurrence indices, inverse indices (shaped like
    ``x``) and counts."""
    return _unique(x, "unique_all", UniqueAllResult, index=True, inverse=True, counts=True)


def unique_counts(x: ndarray, /) -> UniqueCountsResult:
    """The unique elements of ``x`` and how often each occurs."""
    return _unique(x, "unique_counts", UniqueCountsResult, counts=True)


def unique_inverse(x: ndarray, /) -> UniqueInverseResult:
    """The unique elements of ``x`` and the indices (shaped like ``x``) that rebuild ``x``."""
    return _unique(x, "unique_inverse", UniqueInverseResult, inverse=True)


def unique_values(x: ndarray, /) -> ndarray:
    """The unique elements of ``x``, sorted (each NaN counted as distinct)."""
    values: ndarray = _unique(x, "unique_values", lambda v: v)
    return values


def isin(x1: ndarray | int, x2: ndarray | int, /, *, invert: bool = False) -> ndarray:
    """Whether each element of ``x1`` is among the elements of ``x2`` (the reverse when
    ``invert``); a 0-d result for a scalar ``x1``."""
    if (invert is False or invert is True) and type(x1) is ndarray and x1._device is CPU:
        # The commonest calls, on the CPU: NumPy's own isin of two NumPy arrays of one dtype,
        # or of one and a Python scalar of a kind that keeps its dtype, made as the checked
        # path below makes it, without its checks (~4 us of them)
        n1 = x1._array
        if type(n1) is _np_ndarray:
            if type(x2) is ndarray:
                n2 = x2._array if x2._device is CPU else None
                if type(n2) is _np_ndarray and n2.dtype is n1.dtype and \
                        n1.dtype not in EXTENSION_FLOATS:
                    return wrap(_np_isin(n1, n2, invert=invert), CPU)
            else:
                n2 = _as_checked(x2, n1.dtype)
                if n2 is not None:
                    return wrap(_np_isin(n1, n2, invert=invert), CPU)
    elif (invert is False or invert is True) and type(x2) is ndarray and x2._device is CPU:
        n2 = x2._array
        if type(n2) is _np_ndarray:
            n1 = _as_checked(x1, n2.dtype)
            if n1 is not None:
                return wrap(_np_isin(n1, n2, invert=invert), CPU)
    return _checked_isin(x1, x2, invert)


def _checked_isin(x1: Any, x2: Any, invert: Any) -> ndarray:
    """isin, every argument checked (any call the fast path above leaves)."""
    if not (isinstance(x1, ndarray) or isinstance(x2, ndarray)):
        raise TypeError("isin needs at least one of x1 and x2 to be an array")
    invert = flag("isin", "invert", invert)
    a1, a2 = (x if isinstance(x, ndarray) else python_scalar(x) for x in (x1, x2))
    for a, x in ((a1, x1), (a2, x2)):
        if a is None:
            raise TypeError(f"isin takes arrays and Python scalars, not {type(x).__name__}")
    dev = device_of((a1, a2))
    ns = namespace_for(dev)
    n1, n2 = native(a1), native(a2)
    # A scalar takes a floating array's dtype, as in equal() (isin is value equality, "see
    # equal"): 0.1 is not in float64 terms among float32 0.1s, and 2049 is float16's 2048
    # (NumPy's isin compares an int exactly: 2049 was not among float16 2049s, which equal()
    # found); beside an integer array a float is a float64 or complex128 0-d array (CuPy's
    # isin takes no Python float). An int beside an integer array compares exactly; past the
    # dtype (NumPy compares it as an object; CuPy takes an int as a C integer) it equals no
    # element.
    a1, a2 = _past_c(a1, n2), _past_c(a2, n1)
    for scalar in (a1, a2):
        if scalar is _NONE_EQUAL:
            with on(dev):
                shape = () if scalar is a1 else n1.shape
                out: ndarray = wrap_result(ns.full(shape, invert, dtype=ns.bool_), dev)
            return out
    if type(a1) in (float, complex):
        n1 = scalar_array(ns, dev, a1, _scalar_dtype(a1, n2.dtype))
    elif type(a2) in (float, complex):
        n2 = scalar_array(ns, dev, a2, _scalar_dtype(a2, n1.dtype))
    with on(dev):  # ml_dtypes' floats in float32, which holds each exactly (NumPy's isin sorts
        # with their loops, which misorder NaN: 1.0 was not found beside a NaN)
        n1, n2 = (n.astype(np.float32) if getattr(n, "dtype", None) in EXTENSION_FLOATS else n
                  for n in (n1, n2))
        beyond = None
        if hasattr(n1, "dtype") and hasattr(n2, "dtype") and n1.dtype != n2.dtype and (
                type(n1) is not np.ndarray or rounds_in_common(n1.dtype, n2.dtype)):
            n1, n2, beyond = _comparable(ns, n1, n2)  # (NumPy's own where its common type is exact)
        r = ns.isin(n1, n2, invert=invert)
        if beyond is not None:  # (x1's values no element of x2 can equal)
            r = r | beyond if invert else r & ~beyond
    result: ndarray = wrap_result(r, dev)
    return result


def _as_checked(value: Any, dtype: np.dtype[Any]) -> Any:
    """A Python scalar beside a NumPy array of ``dtype`` as isin's checked path hands it to
    NumPy, where it keeps the dtype: an int within an integer dtype, a bool beside bools, as
    they are; an int or a float beside floats as a 0-d array of their dtype (an int past
    float64's range: None, as for every other call, which the checked path answers)."""
    t = type(value)
    if t not in KEEPING_SCALARS.get(dtype, ()):  # (none for ml_dtypes' floats)
        return None
    if dtype.kind in "fc":
        try:
            return _host_scalar(value, dtype)
        except OverflowError:
            return None
    if t is int:
        low, high = int_bounds(dtype)
        return value if low <= value <= high else None
    return value


def _comparable(ns: Any, n1: Any, n2: Any) -> tuple[Any, Any, Any]:
    """Backend arrays of two dtypes as isin can compare them, and a mask of x1's elements
    that equal none of x2's (or None). CuPy compares ``bins[i] == x`` in C++ with each
    array's own type: a complex one with a real one fails to compile, an int64 with a float32
    is compared in float32, and a signed int with an unsigned one of its width or wider in
    the unsigned type (-1 was found among uint64 2**64 - 1s). NumPy's (sorting) takes the
    unique elements of x1 in its own dtype, then sorts them with x2's in their result type,
    where two of them may round to one float and count as found: int64 2**53 was among
    float64 0.0..19.0, because 2**53 + 1 was beside it. So both take NumPy's result
    type first; but signed with unsigned integers (whose result type may be float64, inexact past
    2**53) both go to int64, which wraps uint64's values past it to negatives: those of x1,
    and x1's own negatives, equal no element of x2 (whose negatives are those of one
    signedness only), and are masked. A 64-bit integer beside a float goes the other way, as
    searchsorted compares them: the floats that equal an integer of its dtype as that dtype,
    the others equal to no integer (float64 2**53 was among int64 2**53 + 1s)."""
    kinds = {n1.dtype.kind, n2.dtype.kind}
    if kinds == {"i", "u"}:
        n1, n2 = n1.astype(np.int64, copy=False), n2.astype(np.int64, copy=False)
        return n1, n2, n1 < 0
    if rounds_in_common(n1.dtype, n2.dtype):  # (an int64 or uint64 beside a float or complex)
        if n1.dtype.kind in "iu":
            v2, equal_one = _as_integers(ns, n2, n1.dtype)
            return n1, v2[equal_one], None
        v1, equal_one = _as_integers(ns, n1, n2.dtype)
        return v1, n2, ~equal_one
    rt = np.result_type(n1.dtype, n2.dtype)
    return n1.astype(rt, copy=False), n2.astype(rt, copy=False), None


def _as_integers(ns: Any, n: Any, dtype: np.dtype[Any]) -> tuple[Any, Any]:
    """Float or complex ``n`` as integer ``dtype`` where an element equals an integer of it
    (integral, real, within its range: NaN and the infinities are not), and the mask of
    those; the others are 0."""
    # (in float64, which holds every float's value: float16 has no 2**63, the bound, to
    # compare with, and its -inf passed as one)
    real = (n.real if n.dtype.kind == "c" else n).astype(np.float64, copy=False)
    bits = dtype.itemsize * 8
    low, high = (0.0, 2.0 ** bits) if dtype.kind == "u" else (-2.0 ** (bits - 1), 2.0 ** (bits - 1))
    ok = (ns.floor(real) == real) & (real >= low) & (real < high)  # (exact: powers of two)
    if n.dtype.kind == "c":
        ok &= n.imag == 0
    return ns.where(ok, real, 0).astype(dtype), ok


_NONE_EQUAL = object()


def _past_c(value: Any, other: Any) -> Any:
    """An int scalar as isin compares it beside backend array ``other``: beside integers,
    itself, or _NONE_EQUAL past their dtype; beside floats, a float (which takes their dtype,
    as in equal()), or _NONE_EQUAL past float64's; beside bools, itself, or _NONE_EQUAL past
    the C integers."""
    if type(value) is not int:
        return value
    kind = numpy_kind(other.dtype)
    if kind in "iu":
        low, high = int_bounds(other.dtype)
        return value if low <= value <= high else _NONE_EQUAL
    if kind in "fc":
        try:
            return float(value)
        except OverflowError:
            return _NONE_EQUAL
    return value if -2 ** 63 <= value < 2 ** 64 else _NONE_EQUAL


def _scalar_dtype(value: Any, array_dtype: Any) -> Any:
    if numpy_kind(array_dtype) in "fc":
        return scalar_dtype(value, array_dtype, "isin")
    return np.dtype(type(value))
