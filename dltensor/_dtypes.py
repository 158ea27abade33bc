"""The dtype table: DLPack (code, bits) <-> dltensor dtype <-> NumPy dtype, and type promotion.

The 13 array API dtypes and float16 compute; bfloat16 and the float8 codes are held and handed
on, and compute on the CPU too when ml_dtypes is installed; the float6/float4 codes (and int4,
opaque handles) are only held and handed on.
"""

from __future__ import annotations

import builtins
import sys
import threading

from collections.abc import Callable
from typing import Any

import numpy as np

from ._dlpack.abi import DLDataTypeCode as C

__all__ = [
    "DType", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "bfloat16",
]

# DLPack type code -> NumPy's kind letter (codes not here are floats: bfloat16, float8...)
_NUMPY_KINDS = {int(C.kDLInt): "i", int(C.kDLUInt): "u", int(C.kDLFloat): "f",
                int(C.kDLComplex): "c", int(C.kDLBool): "b"}


class DType:
    """An array data type. Compares equal to itself and to NumPy's dtype and scalar type of it
    (not to another dltensor dtype, nor to a string); ``name`` is the spec's name.

    ``spec_kind`` is its kind as the spec's ``isdtype`` names them ("bool", "signed integer",
    "unsigned integer", "real floating", "complex floating"; None for a dtype outside the
    spec). ``kind`` is NumPy's one-letter code ("b", "i", "u", "f", "c"), as code written for
    NumPy's dtypes reads it (``x.dtype.kind in "fc"``; xarray, pandas): a float of ml_dtypes
    or one dltensor only holds is "f", as PyTorch and JAX call those floats."""

    __slots__ = ("name", "spec_kind", "kind", "code", "bits", "numpy", "_hash")
    name: str
    spec_kind: str | None
    kind: str
    code: int
    bits: int
    numpy: np.dtype[Any] | None
    _hash: int | None

    def __init__(self, name: str, spec_kind: str | None, code: int, bits: int,
                 numpy_dtype: np.dtype[Any] | None = None):
        self.name, self.spec_kind, self.code, self.bits = name, spec_kind, code, bits
        self.kind = _NUMPY_KINDS.get(code, "f")  # (DLPack's other codes are all floats)
        self.numpy = numpy_dtype  # the NumPy dtype computing on it, or None when held only
        # NumPy's dtype's, as it compares equal to it; ml_dtypes' floats' on the first hash,
        # which joins them (a hash never changes: a set or a dict may hold it)
        self._hash = None if code in _EXTENSION_CODES else \
            hash(numpy_dtype if numpy_dtype is not None else (code, bits))

    @property
    def itemsize(self) -> int:
        return max(self.bits, 8) // 8

    @property
    def __numpy_dtype__(self) -> np.dtype[Any]:
        """The NumPy dtype of it, which NumPy 2.4 and later read, so its functions take ours
        (``np.zeros(3, dtype=dt.float32)``; scikit-learn, told ``x.dtype.kind`` is "f", casts
        NumPy results to ``x.dtype``). Not a ``dtype`` attribute, which NumPy reads too: array
        API code takes ``getattr(x, "dtype", x)`` for the dtype of an array or a dtype (SciPy's
        ``xp_result_type``), and got NumPy's. AttributeError for a dtype only held."""
        npdt = computable(self)  # (bfloat16's, by its first ask, where ml_dtypes is)
        if npdt is None:
            raise AttributeError(f"{self.name} has no NumPy dtype (dltensor holds it only)")
        return npdt

    def __eq__(self, other: object) -> builtins.bool:
        # Itself; and NumPy's dtype or scalar type of it, as NumPy's dtypes compare with ours
        # (np.dtype("float32") == dltensor.float32 reads __numpy_dtype__): code written for
        # NumPy's arrays tests `x.dtype == np.float32`, which was False.
        if other is self or type(other) is DType:
            return other is self
        if self.numpy is not None and (isinstance(other, np.dtype) or isinstance(
                other, type) and issubclass(other, np.generic)):
            return builtins.bool(self.numpy == other)
        return NotImplemented

    def __hash__(self) -> int:  # (NumPy's dtype's, as it compares equal to it)
        h = self._hash
        return self._first_hash() if h is None else h

    def _first_hash(self) -> int:
        """bfloat16's or a float8's hash: NumPy's dtype's, which it gains here (see _join),
        where ml_dtypes is; else its DLPack type's."""
        npdt = computable(self)
        h = hash(npdt if npdt is not None else (self.code, self.bits))
        if npdt is not None or _joined:  # (not while a join under way in this thread runs)
            self._hash = h
        return h

    def __repr__(self) -> str:
        return f"dltensor.{self.name}"

    def __reduce__(self) -> tuple[Callable[[int, int], DType], tuple[int, int]]:
        # (by its DLPack type: held widths such as int4 have no row in the name table)
        return (dtype_from_dlpack, (self.code, self.bits))


# name, array API kind (None: not an array API dtype), DLPack code, bits, NumPy dtype
_TABLE = [
    ("bool", "bool", C.kDLBool, 8, np.dtype(np.bool_)),
    *[(f"int{b}", "signed integer", C.kDLInt, b, np.dtype(f"int{b}")) for b in (8, 16, 32, 64)],
    *[(f"uint{b}", "unsigned integer", C.kDLUInt, b, np.dtype(f"uint{b}")) for b in (8, 16, 32, 64)],
    *[(f"float{b}", "real floating", C.kDLFloat, b, np.dtype(f"float{b}")) for b in (16, 32, 64)],
    ("complex64", "complex floating", C.kDLComplex, 64, np.dtype(np.complex64)),
    ("complex128", "complex floating", C.kDLComplex, 128, np.dtype(np.complex128)),
    # Sub-byte types are held only: DLPack packs them, ml_dtypes pads them to a byte.
    ("float6_e2m3fn", None, C.kDLFloat6_e2m3fn, 6, None),
    ("float6_e3m2fn", None, C.kDLFloat6_e3m2fn, 6, None),
    ("float4_e2m1fn", None, C.kDLFloat4_e2m1fn, 4, None),
]
# ml_dtypes' floats: name, DLPack code, bits. Held-only dtypes until ml_dtypes is imported (by
# anyone: see _AfterImport) or one is first computed on (an array of one, or one given as a
# dtype=): then they gain their NumPy dtypes and join the tables, in place (see _join). Not
# with dltensor: importing ml_dtypes costs more than the rest of dltensor together (0.5 s of
# 0.56 s on the CI machine). Without ml_dtypes they stay held only.
_EXTENSION_ROWS = [("bfloat16", C.kDLBfloat, 16),
                   *[(c.name[3:].lower(), c, 8) for c in C if c.name.startswith("kDLFloat8")]]
_EXTENSION_CODES = frozenset(int(c) for _, c, _ in _EXTENSION_ROWS)

_BY_NAME: dict[str, DType] = {}
_BY_DLPACK: dict[tuple[int, int], DType] = {}
FROM_NUMPY: dict[np.dtype[Any], DType] = {}
# ml_dtypes' floats (bfloat16, float8) as NumPy dtypes: real floats with no kind of the spec's.
# (A set, grown in place when they join: other modules hold it.)
EXTENSION_FLOATS: set[np.dtype[Any]] = set()


def _publish(d: DType) -> None:
    _BY_NAME[d.name] = _BY_DLPACK[(d.code, d.bits)] = d
    if d.numpy is not None:
        FROM_NUMPY[d.numpy] = d
    globals()[d.name] = d


for _row in _TABLE:
    _publish(DType(_row[0], _row[1], int(_row[2]), _row[3], _row[4]))
for _name, _code, _bits in _EXTENSION_ROWS:
    _publish(DType(_name, None, int(_code), _bits))

# (declarations of the names the loop above defines, for type checkers)
bool: DType
int8: DType
int16: DType
int32: DType
int64: DType
uint8: DType
uint16: DType
uint32: DType
uint64: DType
float16: DType
float32: DType
float64: DType
complex64: DType
complex128: DType
bfloat16: DType

# The spec's 13 (float16 computes here but is not an array API dtype).
SPEC_DTYPES = tuple(d for d in _BY_NAME.values() if d.spec_kind is not None and d.name != "float16")


def dtype_from_dlpack(code: int, bits: int) -> DType:
    """The dtype for a DLPack (code, bits); widths with no table row get a held-only dtype."""
    d = _BY_DLPACK.get((code, bits))
    if d is None:
        d = _BY_DLPACK[(code, bits)] = DType(f"{C(code).name[3:].lower()}{bits}", None, code, bits)
    elif not _joined and code in _EXTENSION_CODES:
        join_extension_floats()  # (bfloat16 or float8, from PyTorch, JAX...: gains its NumPy dtype)
    return d


def extension_float(d: DType) -> builtins.bool:
    """Whether ``d`` is one of ml_dtypes' floats (bfloat16, float8), joined or not."""
    return d.code in _EXTENSION_CODES


def computable(d: DType) -> np.dtype[Any] | None:
    """``d.numpy``, the NumPy dtype computing on ``d``, after ml_dtypes' floats have joined
    where ``d`` is one of them (the first bfloat16 given as a dtype=); None for a dtype only
    held."""
    if not _joined and d.code in _EXTENSION_CODES:  # (waits for a join under way)
        join_extension_floats()
    return d.numpy


def dtype_of_numpy(dt: Any) -> DType | None:
    """FROM_NUMPY.get(dt), after waiting for ml_dtypes' floats to join where ml_dtypes is
    being imported (in another thread: NumPy knows its dtypes before the import returns and
    they have joined)."""
    d = FROM_NUMPY.get(dt)
    if d is None and not _joined and "ml_dtypes" in sys.modules:
        join_extension_floats()
        d = FROM_NUMPY.get(dt)
    return d


def dtype_from_numpy(dt: Any) -> DType:
    d = dtype_of_numpy(dt)
    if d is None:
        raise TypeError(f"dltensor has no dtype for NumPy dtype {dt!r}")
    return d


def numpy_rows() -> list[tuple[np.dtype[Any], DType]]:
    """FROM_NUMPY's items, for the builds ``derived`` registers: with ml_dtypes' floats while
    they join, before the lookups show them to other threads."""
    return [*FROM_NUMPY.items(), *((npdt, d) for d, npdt in _joining_rows)]


# --- ml_dtypes' floats, joining the tables ---------------------------------------------------
# The tables other modules draw from FROM_NUMPY (through numpy_rows) or EXTENSION_FLOATS are
# made by functions registered with `derived`, run again when ml_dtypes' floats join, so that
# the tables are the same whether ml_dtypes was imported before dltensor, after it, or by
# dltensor. What lets an array of one in (FROM_NUMPY, their DType's `numpy`) shows them last,
# once every table holds them: another thread that meets one earlier (NumPy knows them while
# ml_dtypes is still being imported) misses, and waits for the join, as one asking for their
# NumPy dtype (computable) does. Their DTypes are the same objects before and after
# (dltensor.bfloat16 is always there).

_derived: list[Callable[[], None]] = []
_lock = threading.RLock()
_joined = _joining = False
_joining_rows: list[tuple[DType, np.dtype[Any]]] = []


def derived(build: Callable[[], None]) -> Callable[[], None]:
    """Registers and runs ``build``, which fills tables drawn from FROM_NUMPY or
    EXTENSION_FLOATS; it runs again when ml_dtypes' floats join them, so it adds to its tables
    in place (other modules and closures hold them) and keeps what they hold."""
    with _lock:
        _derived.append(build)
        build()
    return build


def join_extension_floats() -> None:
    """Adds ml_dtypes' floats to the tables (once), importing ml_dtypes; without it they are
    held-only dtypes, as float4 is."""
    if _joined:
        return
    module: Any = None
    try:  # (outside the lock: the import may be under way in another thread, whose hook,
        # below, takes the lock to join them)
        import ml_dtypes as module
    except ImportError:
        pass
    _join(module)


def _join(ml_dtypes: Any) -> None:
    global _joined, _joining
    with _lock:  # (other threads wait here for whole tables; this one, if a build asks
        if _joined or _joining:  # again, goes on with them as they are)
            return
        _joining = True
        for name, _, _ in _EXTENSION_ROWS:
            t = getattr(ml_dtypes, name, None)
            if t is not None:
                _joining_rows.append((_BY_NAME[name], np.dtype(t)))
        EXTENSION_FLOATS.update(npdt for _, npdt in _joining_rows)
        for build in _derived:
            build()
        for d, npdt in _joining_rows:
            d.numpy = npdt
            _publish(d)
        _joining_rows.clear()
        _joined = True


class _AfterImport:
    """A finder first on sys.meta_path: the loader it finds for ml_dtypes, once it has run
    the module, joins ml_dtypes' floats to the tables, before the import returns and before
    another thread's import of it (which waits for the module) can make an array of one.
    (wrapt's post-import hooks work so.) It stays there, answering None: taken out, a finder
    list another thread is going through would skip one."""

    _looking = False  # (imports of one module take turns: no two threads here at once)

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "ml_dtypes" or _joined or cls._looking:
            return None
        cls._looking = True
        try:
            from importlib.util import find_spec
            spec = find_spec(name)  # (by the finders after this one)
        finally:
            cls._looking = False
        exec_module = getattr(getattr(spec, "loader", None), "exec_module", None)
        if exec_module is not None:
            def exec_and_join(module: Any) -> None:
                exec_module(module)
                if module.__name__ == "ml_dtypes":  # (a loader shared with its submodules,
                    _join(module)  # as PyInstaller's is, runs them here too)
            spec.loader.exec_module = exec_and_join  # type: ignore[union-attr,method-assign]
        return spec


if "ml_dtypes" in sys.modules:
    _join(sys.modules["ml_dtypes"])  # (imported before dltensor: its floats are here at once)
else:
    sys.meta_path.insert(0, _AfterImport)


# --- type promotion (the spec's table: no value-based casting, no mixing of kinds) ---------

def _build_promotion() -> dict[tuple[DType, DType], DType]:
    g = globals()
    signed = [g[f"int{b}"] for b in (8, 16, 32, 64)]
    unsigned = [g[f"uint{b}"] for b in (8, 16, 32, 64)]
    floats = [g["float16"], g["float32"], g["float64"]]
    table: dict[tuple[DType, DType], DType] = {(g["bool"], g["bool"]): g["bool"]}
    for group in (signed, unsigned):
        for i, a in enumerate(group):
            for j, b in enumerate(group):
                table[a, b] = group[max(i, j)]
    for u in unsigned[:3]:  # uint_n with int_m: the smallest signed type holding both
        for s in signed:
            r = next(t for t in signed if t.bits > u.bits and t.bits >= s.bits)
            table[u, s] = table[s, u] = r
    width = {**{f: f.bits for f in floats}, g["complex64"]: 32, g["complex128"]: 64}
    inexact = [*floats, g["complex64"], g["complex128"]]
    for a in inexact:
        for b in inexact:
            w = max(width[a], width[b])
            if a.spec_kind == b.spec_kind == "real floating":
                table[a, b] = next(f for f in floats if f.bits == w)
            else:
                table[a, b] = g["complex128"] if w == 64 else g["complex64"]
    return table


PROMOTION = _build_promotion()
# The same table keyed by NumPy dtypes, for the hot paths that hold NumPy arrays.
NUMPY_PROMOTION = {(a.numpy, b.numpy): r.numpy for (a, b), r in PROMOTION.items()}


def cast(a: Any, target: np.dtype[Any] | None) -> Any:
    """``a.astype(target)`` of a backend array; between two of ml_dtypes' floats through
    float32, which holds each exactly (ml_dtypes casts no float8 to float8_e8m0fnu and back,
    "according to the rule 'unsafe'"), and from bool so too (ml_dtypes read a bool's byte as
    its value: a True of byte 2, PyTorch's view of uint8 as bool, became 2, not 1)."""
    if target in EXTENSION_FLOATS and a.dtype != target and (
            a.dtype in EXTENSION_FLOATS or a.dtype.kind == "b"):
        return a.astype(np.float32).astype(target)
    return a.astype(target)


def numpy_kind(dt: np.dtype[Any]) -> str:
    """A NumPy dtype's kind, ml_dtypes' floats "f" (NumPy says "V" of most of them)."""
    return "f" if dt in EXTENSION_FLOATS else str(dt.kind)


INTEGER_KINDS = ("signed integer", "unsigned integer")
# The spec's Python scalars, "instances of bool, int, float, complex" (for `type(x) in` tests)
PYTHON_SCALARS: frozenset[type] = frozenset((builtins.bool, int, float, complex))  # (bool: ours)


def rounds_in_common(d1: np.dtype[Any], d2: np.dtype[Any]) -> builtins.bool:
    """Whether NumPy's common type of backend dtypes ``d1`` and ``d2`` rounds some of their
    values: a 64-bit integer beside a float or complex (float64 holds integers to 2**53), or
    beside an integer of the other signedness (their common type is float64)."""
    return np.result_type(d1, d2).kind in "fc" and (
        d1.kind in "iu" and d1.itemsize == 8 or d2.kind in "iu" and d2.itemsize == 8)


def no_promotion(name: str, *dtypes: DType) -> TypeError:
    """The one error for dtypes the spec's table does not promote together (``name``: the
    caller); it names the dtypes the user gave, not an intermediate of the promotion."""
    names = list(dict.fromkeys(d.name for d in dtypes))
    extension = [d.name for d in dtypes if d.code in _EXTENSION_CODES]
    why = ("it promotes no signed integer with uint64" if all(d.spec_kind in INTEGER_KINDS
                                                               for d in dtypes)
           else f"{extension[0]} is no dtype of its table" if extension
           else "it promotes no kind to another")
    return TypeError(f"{name}: {', '.join(names[:-1])} and {names[-1]} have no promotion in "
                     f"the array API ({why}); convert with astype()")


def refuse_complex_to_real(name: str, src: DType, dtype: DType) -> None:
    """TypeError for a cast of complex to a real dtype, which the spec's astype says should not
    be permitted (it would drop the imaginary parts; to bool is defined: 0 + 0j is False)."""
    if src.spec_kind == "complex floating" and \
            dtype.spec_kind not in ("complex floating", "bool"):
        raise TypeError(f"{name}: casting {src.name} to {dtype.name} would drop the imaginary "
                        "part; cast real(x) or imag(x) instead")
