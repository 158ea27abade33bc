"""Arrays of Python scalars and nested sequences: what ``asarray`` copies, as the spec says.

NumPy reads the values; where what it makes departs from the spec, it is mended here: the
spec's default dtypes (int64 for ints alone, float64 with floats, complex128 with complex),
ints past int64 (OverflowError, not NumPy's uint64, float64 or objects), strings (TypeError),
arrays inside a sequence (their dtype and device win) and other libraries' arrays NumPy
cannot read (taken through DLPack).
"""

from __future__ import annotations

import array
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ._array import ndarray, wrap
from ._backends import backend_for
from ._devices import CPU, Device, as_device, get_default_device
from ._dispatch import allocatable, native_dtype
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, PYTHON_SCALARS, DType, cast
from ._dtypes import dtype_from_numpy, refuse_complex_to_real
from ._moves import move

__all__ = ["from_python", "python_importers", "PYTHON_SEQUENCE_OR_SCALAR", "has_buffer"]


# The spec's default dtypes for Python scalars and sequences of them.
_DEFAULT_FOR_KIND = {"b": np.dtype(np.bool_), "i": np.dtype(np.int64), "u": np.dtype(np.int64),
                     "f": np.dtype(np.float64), "c": np.dtype(np.complex128)}


def _scalar_importer(npdt: np.dtype[Any]) -> Callable[[Any], ndarray]:
    """asarray of a Python scalar of one type, on the CPU as default device: its 0-d array in
    the spec's default dtype for it, made directly (the general path tries every protocol
    first: ~4.5 us, where NumPy takes 0.1). Elsewhere, and for ints past int64, the general
    path (which moves, or raises OverflowError)."""
    int_range = npdt.kind == "i"

    def imp(v: Any) -> ndarray:
        if (int_range and not -_INT64_END <= v < _INT64_END) or get_default_device() is not CPU:
            return from_python(v, None, None, None)
        return wrap(np.array(v, dtype=npdt))
    return imp


_INT64_END = 1 << 63
# asarray's plain imports of what offers no protocol (from_dlpack refuses these); nested
# sequences go straight to their path.
python_importers: dict[type, Callable[[Any], ndarray]] = {
    tp: _scalar_importer(_DEFAULT_FOR_KIND[np.dtype(tp).kind])
    for tp in (bool, int, float, complex)}


def _from_flat(v: list[Any] | tuple[Any, ...]) -> ndarray:
    """asarray of a list or tuple, nothing asked for: its commonest, a flat sequence of Python
    numbers of one type, is NumPy's array of them where that is in the default dtype of their
    kind (from_python's checks pass: ~1 us of them); anything else from_python's."""
    npdt = _FLAT_DTYPES.get(type(v[0])) if v else None  # (rows: at once from_python's)
    if npdt is not None and len(set(map(type, v))) == 1 and get_default_device() is CPU:
        a = np.array(v) if npdt is _INT64 else np.array(v, dtype=npdt)
        if a.dtype is npdt:  # (ints past int64: NumPy's uint64, float64 or objects)
            return wrap(a)
    return from_python(v, None, None, None)


_INT64 = _DEFAULT_FOR_KIND["i"]
_FLAT_DTYPES = {tp: _DEFAULT_FOR_KIND[np.dtype(tp).kind] for tp in (bool, int, float, complex)}
python_importers[list] = python_importers[tuple] = _from_flat
PYTHON_SEQUENCE_OR_SCALAR = frozenset((list, tuple, bool, int, float, complex))


def has_buffer(obj: Any) -> bool:
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def from_python(obj: Any, dtype: DType | None, device: Device | str | tuple[int, int] | None,
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
    if unusual and _any_leaf(obj, _stringy):
        # (bytes too, in a sequence: NumPy parsed [b"12"] with dtype=int64 as 12)
        raise TypeError(_NOT_STRINGS)
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
            if a.dtype.kind in "USMm":  # (NumPy would parse [np.array(["12"])] as 12)
                raise TypeError(_NOT_STRINGS if a.dtype.kind in "US" else
                                f"dltensor arrays hold numbers, not {a.dtype.name} values")
            src = FROM_NUMPY.get(a.dtype)
            if src is not None:
                refuse_complex_to_real("asarray", src, dtype)
            if npdt is not None and npdt.kind in "iu":  # (Python ints beside them must fit)
                info = np.iinfo(npdt)
                for e in _leaves(obj):
                    if isinstance(e, int) and not info.min <= e <= info.max:  # (and IntEnum)
                        raise OverflowError(f"Python integer {e} out of bounds for {npdt}")
            # Made in the dtype asked for, not cast from NumPy's common one: that rounds
            # int64 beside uint64 or a float to float64 (2**62 + 1 became 2**62), wrapped
            # uint64's 2**64 - 1 to 0, and made 0 of a record. Our arrays as NumPy's, whose
            # casts NumPy makes (ours it reads as 0-d through __float__: rounded twice into
            # float32). ml_dtypes' floats through cast, which takes one into another through
            # float32 (an int past 2**53 may round twice there: NumPy's common dtype first).
            a = cast(a, npdt) if npdt in EXTENSION_FLOATS else \
                np.asarray(_as_numpy(obj), dtype=npdt)
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
                return from_python(_as_numpy(obj), dtype, device, copy)
            if not _holds_foreign(obj):
                if dtype is not None and type(e) is TypeError and \
                        any(type(v) is complex for v in _leaves(obj)):
                    # (NumPy says "float() argument must be ... not 'complex'")
                    refuse_complex_to_real("asarray", FROM_NUMPY[np.dtype(np.complex128)],
                                           dtype)
                if type(e) is RuntimeError and "buffer format" in str(e):  # (a struct of no
                    raise TypeError(f"dltensor has no dtype for a buffer in this "  # padding,
                                    f"{type(obj).__name__}: {e}") from None  # as _from_buffer)
                raise  # (nothing on a device NumPy cannot read: NumPy's own error stands)
            # CPU arrays NumPy's protocols refuse (PyTorch's bfloat16 .numpy()): through DLPack
            return from_python(_foreign_taken(obj), dtype, device, copy)
        obj = _foreign_taken(obj)
        if len(devices) != 1:
            raise ValueError(f"cannot make one array of arrays on different devices "
                             f"({', '.join(sorted(map(str, devices)))})") from None
        where = devices.pop()
        if device is None or dev == where:  # (no move asked for: on held memory, the error
            backend_for(where)              # of any other call that would compute there)
        return from_python(_on_host(obj), dtype, where if device is None else device, copy)
    except ValueError as e:
        if _holds_foreign(obj):  # (NumPy saw DLPack-only arrays as objects of no shape)
            return from_python(_foreign_taken(obj), dtype, device, copy)
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
            raise TypeError(_NOT_STRINGS if a.dtype.kind in "US"
                            else f"cannot make an array of {type(obj).__name__} "
                            f"(NumPy sees dtype {a.dtype})")
        if a.dtype != default and (plain or not _holds_arrays(obj)):
            a = a.astype(default)
        elif not a.dtype.isnative:  # (NumPy keeps the byte order of a sequence of one such
            a = a.astype(a.dtype.newbyteorder("="))  # array, [big-endian]: KeyError in wrap)
        if a.dtype != default:  # (the arrays' own dtype, kept: refused here if dltensor has
            dtype_from_numpy(a.dtype)  # none, [longdouble(1)], not by the array's .dtype)
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


_NOT_STRINGS = "dltensor arrays hold numbers, not strings"


def _stringy(e: Any, depth: int = 0) -> bool:
    """Whether ``e`` is a string, or a sequence _any_leaf does not walk (a UserList, a deque)
    holding one: NumPy reads those too, and parsed UserList(["12"]) with dtype=int64 as 12."""
    tp = type(e)
    if tp is float or tp is int or tp is complex or tp is bool:  # (the commonest: no ABC check)
        return False
    if isinstance(e, (str, bytes)):
        return True
    return depth < _DEEPEST and not isinstance(e, (range, bytearray, memoryview, array.array)) \
        and isinstance(e, Sequence) and any(_stringy(v, depth + 1) for v in e)


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
    from ._interop import asarray  # (asarray, which reads sequences here, imports this module)
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
        or not isinstance(obj, (bytes, str)) and has_buffer(obj))
