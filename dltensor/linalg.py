"""The array API's linear algebra extension (2025.12), computed by the arrays' backend.

Each function checks the dtypes the spec names for it (floating-point for the decompositions,
numeric for products; array_api_strict accepts the same), then calls array-api-compat's
``linalg`` for the arrays' device, so results stay on that device. Hand-written beyond that:
``cross``, ``outer``, ``vecdot`` and ``tensordot`` check the shapes NumPy would otherwise accept
with another meaning (2-vectors, n-D outer operands, broadcast contracted axes), and ``trace``
takes a dltensor dtype.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Literal, NamedTuple

import numpy as np

from ._array import held, ndarray, wrap
from ._creation import empty, eye, zeros
from ._backends import NoBackendError, backend_or_none
from ._devices import CPU, CUDA_TYPE, Device
from ._dtype_functions import in_float32, result_type
from ._dispatch import axis_checked, cpu_error_first, delegate, diagonal_offset, flag, ints
from ._dispatch import check_device, fresh, namespace_for, native, native_dtype, on, real_number
from ._dispatch import c_count_nonzero, shown, strict_int, wrap_result
from ._moves import copied
from ._manipulation import broadcast_of, broadcast_to, by_the_first  # (ours: NumPy's stop at 32)
from ._manipulation import reshape
from ._statistical import numpy_sum, sum as _sum
from . import _dtypes
from ._dtypes import EXTENSION_FLOATS, FROM_NUMPY, DType, float16, int64, refuse_complex_to_real
from ._linalg_functions import (FLOATING, NUMERIC, matmul, matrix_transpose, require,
                                require_pair, tensordot, vecdot, vector_axis)

__all__ = [
    "cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "eig", "eigvals", "inv",
    "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv",
    "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
    "EighResult", "EigResult", "QRResult", "SlogdetResult", "SVDResult",
]


class EighResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class EigResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class QRResult(NamedTuple):
    Q: ndarray
    R: ndarray


class SlogdetResult(NamedTuple):
    sign: ndarray
    logabsdet: ndarray


class SVDResult(NamedTuple):
    U: ndarray
    S: ndarray
    Vh: ndarray


# The backend's linalg functions, called once this module has checked the arguments.
_backend = {name: delegate(name, "linalg") for name in (
    "cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "eig", "eigvals", "inv",
    "matrix_norm", "matrix_power", "outer", "pinv", "qr", "slogdet", "solve",
    "svd", "svdvals", "vector_norm")}


# On the CPU, NumPy 2's own: array-api-compat's wrappers of these only rename their results
# (~1 us), and the delegate's walk of its named tuples cost ~1.5 us more.
_ON_NUMPY: dict[str, Any] = {name: getattr(np.linalg, name) for name in (
    "det", "eigh", "eigvalsh", "inv", "matrix_norm", "qr", "slogdet", "svd", "svdvals",
    "vector_norm")}
# (array-api-compat's: the spec's default rtol is max(M, N) * eps, NumPy's rcond 1e-15)
_ON_NUMPY["pinv"] = lambda a, rtol: np.linalg.pinv(
    a, rcond=max(a.shape[-2:]) * np.finfo(a.dtype).eps if rtol is None else native(rtol))

_np_ndarray = np.ndarray


def _all_finite(a: Any) -> bool:
    """Whether NumPy array ``a`` holds no NaN or infinity: its finite elements counted, in C
    (np.isfinite(a).all() goes through .all()'s Python layer: ~1.2 us more on a 4x4)."""
    return bool(c_count_nonzero(np.isfinite(a)) == a.size)


# The dtypes NumPy's LAPACK computes in (their fast paths'), and the eps of their real ones
_LAPACK = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))
_EPS: dict[np.dtype[Any], Any] = {np.dtype(t): np.finfo(t).eps
                                  for t in (np.float32, np.float64)}


# Functions of each matrix alone (their arguments besides x are no arrays): a stack of more
# than 32 axes is folded into one, as NumPy's linalg gufuncs stop short of 64 (eigh's at 64,
# svd's at 63: "too many dimensions for generalized ufunc").
_PER_MATRIX = frozenset({"cholesky", "det", "eigh", "eigvalsh", "eig", "eigvals", "inv",
                         "matrix_norm", "pinv", "qr", "slogdet", "svd", "svdvals"})


def _matrices(name: str, x: ndarray) -> None:
    # (before the backend: NumPy raised LinAlgError or AxisError, CuPy ValueError or AxisError)
    if x.ndim < 2:
        raise ValueError(f"{name} needs at least 2 dimensions (a stack of matrices), "
                         f"not {x.ndim}")


def _on_host(name: str, x: ndarray, shape: tuple[int, ...], **kwargs: Any) -> Any:
    """``name`` of zeros of ``shape`` on the CPU, the (small) results then on x's GPU: for an
    ``x`` of no elements, whose answers CuPy departs from (below)."""
    namespace_for(x._device)  # (held: NoBackendError, as for any other call)
    return _moved(_backend[name](zeros(shape, dtype=x.dtype, device="cpu"), **kwargs), x)


def _moved(r: Any, x: ndarray) -> Any:
    """``r``, a result (or tuple of results) computed on the CPU, on x's device."""
    if x._device.device_type != CUDA_TYPE:
        return r
    from ._moves import move
    return tuple(move(a, x._device) for a in r) if isinstance(r, tuple) else move(r, x._device)


def _norm_of_nothing(name: str, x: ndarray, **kwargs: Any) -> Any:
    """A norm of no elements, the same on every device and NumPy version: a norm that is a
    maximum over no elements is 0 (NumPy 2.3's max takes initial=0; older NumPy, and CuPy's
    max, min and take(0) of nothing, raised), one that is a minimum NumPy's ValueError.
    Computed over zeros with the axes the maximum runs over made one zero long, and those any
    other norm runs over at most one: the same answer, where a long one beside an empty one
    made its length in zeros or sums (2**40: a MemoryError for a result of one)."""
    ord, shape = kwargs["ord"], list(x.shape)
    if name == "vector_norm":
        axis = kwargs["axis"]
        axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
        maximum = ord == math.inf
    else:
        axes, maximum = (-2, -1), ord in (1, 2, math.inf)
    for a in axes if all(-x.ndim <= a < x.ndim for a in axes) else ():
        shape[a] = 1 if maximum else min(shape[a], 1)  # (out of bounds: the backend's error)
    return _on_host(name, x, tuple(shape), **kwargs)


def _spread(r: ndarray, shape: tuple[int, ...]) -> ndarray:
    """One matrix's result ``r`` for each of a stack of ``shape`` (by_the_first), new memory."""
    return copied(broadcast_to(r, shape))


def _with_the_long_axis(r: Any, n: int, ndim: int) -> Any:
    """Results ``r`` of qr, svd or solve for matrices of no rows (right-hand sides of none)
    whose long other axis was cut to one, as empty arrays with that axis ``n`` long again in
    the ``ndim``-D results (matrices: not svd's S); None where one holds elements (a complete
    Q, a full U or Vh: NumPy's to make). NumPy's take time and memory for the long axis: qr
    of (0, 2**30) took 20 s, solve 4 s."""
    rs = r if isinstance(r, tuple) else (r,)
    if any(a.size for a in rs):
        return None
    out = tuple(empty(a.shape[:-2] + tuple(n if k == 1 else k for k in a.shape[-2:]),
                      dtype=a.dtype, device=a.device) if a.ndim == ndim else a for a in rs)
    return out if isinstance(r, tuple) else out[0]


def _lapack_dtype(name: str, x: ndarray) -> None:
    # NumPy's LAPACK has no float16: refused always, where CuPy computes some of these and
    # NumPy answered for no elements
    if x.dtype.name == "float16":
        raise TypeError(f"{name} needs float32 or float64 (float16 is not an array API dtype); "
                        "astype(x, float32) first")


_NORMS = ("vector_norm", "matrix_norm")


# What the checks of _floating leave to NumPy's own on the CPU, for its fast path: the
# functions array-api-compat's wrappers of only rename, and its cholesky (the upper factor the
# lower's conjugate transpose, as on a GPU: NumPy's upper=True has +0.0 imaginary parts where
# that has -0.0)
_ON_NUMPY_FAST = {**_ON_NUMPY, "cholesky": lambda a, upper: (
    np.linalg.cholesky(a).mT.conj() if upper else np.linalg.cholesky(a))}


def _floating(name: str, x: ndarray, **kwargs: Any) -> Any:
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and a.dtype in _LAPACK and a.size and (
            2 <= a.ndim <= 32 or name == "vector_norm") and type(kwargs.get("rtol")) is not ndarray:
        fast = _ON_NUMPY_FAST.get(name)
        # (the common call: NumPy's own, where each check below passes; ~5-15 us less)
        if fast is not None and (not _of_an_svd(name, kwargs.get("ord"))
                                 or _all_finite(a)):
            r = fast(a, **kwargs)
            return tuple(map(wrap_result, r)) if isinstance(r, tuple) else wrap_result(r)
    require(name, x, FLOATING)
    if name in _NORMS and x.dtype is float16 and not held(x):  # (held: the CPU's errors first)
        # in float32, as float16 sums are: NumPy's norms square and add in float16 (300 and
        # 400 made inf, 4096 ones 2048)
        return in_float32(lambda y: _floating(name, y, **kwargs), x)
    if name in _PER_MATRIX:
        _matrices(name, x)
        if name != "matrix_norm":
            _lapack_dtype(name, x)
    if x.size == 0 and name in _PER_MATRIX and not held(x) and \
            not any(type(v) is ndarray for v in kwargs.values()):  # (pinv's rtol array: rare)
        r = by_the_first(lambda y: _floating(name, y, **kwargs), (x,), (2,), _spread)
        if r is None and name in ("qr", "svd") and 0 in x.shape[-2:] and max(x.shape[-2:]) > 1:
            r = _with_the_long_axis(_floating(name, x[..., :1, :1], **kwargs),
                                    max(x.shape[-2:]), x.ndim)
        elif r is None and name == "qr" and 0 in x.shape[:-2]:  # (a stack of none: NumPy's
            # took 33 s at (0, 3, 2**30))
            m, n = x.shape[-2:]
            k = m if kwargs["mode"] == "complete" else min(m, n)
            r = tuple(empty(x.shape[:-2] + s, dtype=x.dtype, device=fresh(x._device))
                      for s in ((m, k), (k, n)))
        if r is not None:
            return r
    if x.size == 0:
        try:
            if name in _NORMS:
                return _norm_of_nothing(name, x, **kwargs)
            if name in ("eig", "eigvals") and x._device.device_type == CUDA_TYPE:  # (CuPy's:
                return _on_host(name, x, x.shape, **kwargs)                        # real)
            if name == "svdvals" and 0 in x.shape[-2:]:  # (none, however long the other
                # axis: NumPy's SVD of (0, 2**30) took 2 s, and memory for the axis)
                return _on_host(name, x, x.shape[:-2] + tuple(min(n, 1) for n in x.shape[-2:]))
        except NoBackendError as e:  # held memory: the CPU's error first for bad arguments
            raise cpu_error_first(lambda y: _floating(name, y, **kwargs), (x,), {}, e) from None
    if _of_an_svd(name, kwargs.get("ord")) and x._device.device_type != CUDA_TYPE \
            and not held(x) and not _all_finite(x._compute()):
        raise np.linalg.LinAlgError(_SVD_OF_NAN)  # (_of_an_svd; on a GPU, _refuse_as_numpy)
    if x.ndim > 32 and name in _PER_MATRIX:
        # (NumPy's gufuncs stop at 32 axes: the stack folded into one, an array rtol with it)
        batch = x.shape[:-2]
        n = math.prod(batch)
        kwargs = {k: reshape(broadcast_to(v, batch), (n,)) if isinstance(v, ndarray) else v
                  for k, v in kwargs.items()}
        r = _call(name, x._device, reshape(x, (n,) + x.shape[-2:]), **kwargs)
        return tuple(reshape(a, batch + a.shape[1:]) for a in r) if isinstance(r, tuple) \
            else reshape(r, batch + r.shape[1:])
    numpys = _ON_NUMPY.get(name) if x._device is CPU else None
    if numpys is not None:
        if type(kwargs.get("rtol")) is ndarray:  # (pinv's: the delegate below checks it)
            check_device(x, kwargs["rtol"])
        r = numpys(x._compute(), **kwargs)
        return tuple(map(wrap_result, r)) if isinstance(r, tuple) else wrap_result(r)
    return _call(name, x._device, x, **kwargs)


_SINGULAR_RAISES = frozenset({"cholesky", "inv", "matrix_power", "solve"})
_NOT_FINITE = "Array must not contain infs or NaNs"  # (eig's and eigvals')
_SVD_OF_NAN = "SVD did not converge"


def _of_an_svd(name: str, ord: Any) -> bool:
    """Whether ``name`` (with matrix_norm's ``ord``) takes an SVD, whose input NumPy 2.5
    refuses where it is not finite (LinAlgError), as dltensor does on every NumPy and device:
    NumPy 2.4 refused NaN and took infinities, on which LAPACK's xBDSQR, under the SVD that
    computes vectors, loops forever for some matrices (numpy/numpy#32591,
    Reference-LAPACK/lapack#1409: svd of [[inf, 1, 1], [1, 1, 1], [1, 1, 1]] never
    returned), and gave NaN singular values of others. One pass over x: little beside the SVD.
    (matrix_rank takes svdvals.)"""
    return name in ("svd", "svdvals", "pinv") or name == "matrix_norm" and ord in (2, -2, "nuc")


def _call(name: str, device: Device, *args: Any, **kwargs: Any) -> Any:
    """The backend's ``name``; on a GPU, for the functions whose singular (or indefinite)
    matrices are NumPy's LinAlgError, with CuPy raising it too: CuPy checks cuSOLVER's status
    only under ``cupyx.errstate(linalg="raise")`` (its default, "ignore", returns what it
    computed; read in CuPy 14.2's sources, not yet run on a GPU)."""
    if device.device_type == CUDA_TYPE:
        _refuse_as_numpy(name, args[0], kwargs.get("ord"))
        if name in _SINGULAR_RAISES:
            backend = backend_or_none(device)
            if backend is not None:
                with backend.linalg_errors():
                    return _backend[name](*args, **kwargs)
    return _backend[name](*args, **kwargs)


def _refuse_as_numpy(name: str, x: ndarray, ord: Any) -> None:
    """On a GPU, NumPy's LinAlgError for the input it refuses: infinities and NaNs in eig and
    eigvals (array-api-compat's NumPy ones check) and in the SVD family (_of_an_svd). CuPy
    checks neither, and answers what cuSOLVER computed (CuPy 14.2's sources, unrun on a GPU):
    one reduction more, and a GPU sync."""
    svd = _of_an_svd(name, ord)
    if (svd or name in ("eig", "eigvals")) and not held(x):  # (held: the CPU's errors first)
        a, ns = native(x), namespace_for(x._device)
        with on(x._device):
            bad = ns.any(~ns.isfinite(a))
        if bool(bad):
            raise np.linalg.LinAlgError(_SVD_OF_NAN if svd else _NOT_FINITE)


def cholesky(x: ndarray, /, *, upper: bool = False) -> ndarray:
    """The Cholesky factor of each Hermitian positive-definite matrix (lower unless ``upper``)."""
    result: ndarray = _floating("cholesky", x, upper=flag("cholesky", "upper", upper))
    return result


def cross(x1: ndarray, x2: ndarray, /, *, axis: int = -1) -> ndarray:
    """The cross product of the 3-element vectors along ``axis`` (negative)."""
    if type(x1) is ndarray and type(x2) is ndarray and type(axis) is int and \
            x1._device is CPU and x2._device is CPU:
        a1, a2 = x1._array, x2._array
        if type(a1) is _np_ndarray and type(a2) is _np_ndarray and a1.dtype is a2.dtype and \
                FROM_NUMPY[a1.dtype].spec_kind in NUMERIC and \
                -min(a1.ndim, a2.ndim) <= axis < 0 and a1.shape[axis] == 3 == a2.shape[axis] \
                and max(a1.ndim, a2.ndim) <= 32:
            # (the common call: NumPy's own cross, where the checks below pass)
            return wrap(np.cross(a1, a2, axis=axis), CPU)
    require_pair("cross", x1, x2)
    axis = vector_axis("cross", x1, x2, axis)
    # NumPy also takes 2-element vectors; the spec defines only 3, and no broadcasting of them.
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross needs 3 elements along axis {axis} in both arrays, not "
                         f"{x1.shape[axis]} and {x2.shape[axis]}")
    if max(x1.ndim, x2.ndim) > 32:  # (NumPy's cross broadcasts with np.broadcast: 32 at most)
        from ._indexing import along_axis
        dev = x1._device
        ns = namespace_for(dev)
        folded: ndarray = wrap_result(along_axis(ns, lambda a, b: ns.linalg.cross(a, b, axis=-1),
                                                 (x1._compute(), x2._compute()), axis), dev)
        return folded
    result: ndarray = _backend["cross"](x1, x2, axis=axis)
    return result


def det(x: ndarray, /) -> ndarray:
    """The determinant of each square matrix in ``x``."""
    result: ndarray = _floating("det", x)
    return result


def diagonal(x: ndarray, /, *, offset: int = 0) -> ndarray:
    """The ``offset`` diagonal of each matrix (the last two axes) of ``x``."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and type(offset) is int and a.ndim >= 2:
        # (the commonest call: NumPy's own view, which the delegate below ends in)
        result = wrap(a.diagonal(diagonal_offset(offset, x), -2, -1), CPU)
    else:
        if type(x) is not ndarray:
            raise TypeError(f"diagonal needs a dltensor array, not {type(x).__name__}")
        _matrices("diagonal", x)
        offset = diagonal_offset(strict_int(offset, "diagonal's offset"), x)
        result = _backend["diagonal"](x, offset=offset)
    a = result._array
    if type(a) is np.ndarray and not a.flags.writeable and not x.read_only:
        # NumPy's diagonal is a read-only view; dltensor's read-only means memory its producer
        # marked so. A writable view of x, as PyTorch's diagonal is.
        try:
            a.flags.writeable = True
        except ValueError:  # pragma: no cover - a base NumPy will not let write
            pass
    return result


def eigh(x: ndarray, /) -> EighResult:
    """Eigenvalues (ascending) and eigenvectors of each Hermitian matrix."""
    return EighResult(*_floating("eigh", x))


def eigvalsh(x: ndarray, /) -> ndarray:
    """Eigenvalues (ascending) of each Hermitian matrix."""
    result: ndarray = _floating("eigvalsh", x)
    return result


def eig(x: ndarray, /) -> EigResult:
    """Eigenvalues and eigenvectors of each square matrix (complex for real input too)."""
    return EigResult(*_floating("eig", x))


def eigvals(x: ndarray, /) -> ndarray:
    """Eigenvalues of each square matrix (complex for real input too)."""
    result: ndarray = _floating("eigvals", x)
    return result


def inv(x: ndarray, /) -> ndarray:
    """The inverse of each square matrix."""
    result: ndarray = _floating("inv", x)
    return result


def matrix_norm(x: ndarray, /, *, keepdims: bool = False,
                ord: int | float | Literal["fro", "nuc"] | None = "fro") -> ndarray:
    """The ``ord`` norm of each matrix (real-valued for complex input)."""
    if ord is not None and not isinstance(ord, str) and (
            isinstance(ord, (bool, np.bool_)) or not isinstance(ord, numbers.Real)):
        # (NumPy reads True as 1, and an array as its truth value)
        raise TypeError(f"matrix_norm's ord must be an int, a float, 'fro' or 'nuc', not {ord!r}")
    result: ndarray = _floating("matrix_norm", x, ord=ord,
                                keepdims=flag("matrix_norm", "keepdims", keepdims))
    return result


def matrix_power(x: ndarray, n: int, /) -> ndarray:
    """Each square matrix raised to the integer power ``n`` (negative: of its inverse)."""
    require("matrix_power", x, FLOATING)
    n = strict_int(n, "matrix_power's n")  # (CuPy takes only Python ints)
    if n == 1 or n < 0:
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise np.linalg.LinAlgError(f"matrix_power needs square matrices, not shape "
                                        f"{x.shape}")  # (as NumPy and CuPy for other n)
    if n == 1:  # NumPy returns x itself, not a new array (and checks nothing of its shape)
        namespace_for(x._device)  # (held memory: NoBackendError, as for any other n, not
        return copied(x)          # copied's BufferError, a copy's)
    if n < 0:  # (NumPy's abs(n) is an int64's: -2**63 stayed negative, and it returned None)
        _lapack_dtype("matrix_power", x)
        return inv(x) if n == -1 else matrix_power(inv(x), -n)
    if x.size == 0 and not held(x):
        powers: ndarray | None = by_the_first(lambda y: matrix_power(y, n), (x,), (2,), _spread)
        if powers is not None:
            return powers
    result: ndarray = _call("matrix_power", x._device, x, n)
    return result


def matrix_rank(x: ndarray, /, *, rtol: float | ndarray | None = None) -> ndarray:
    """The rank of each matrix: its singular values above ``rtol`` times the largest."""
    a = x._array if type(x) is ndarray and x._device is CPU and rtol is None else None
    if type(a) is _np_ndarray and a.dtype in _LAPACK and a.size and 2 <= a.ndim <= 32 and \
            _all_finite(a):
        # (the common call: the checked path's calls below, less its checks, which pass)
        s = np.linalg.svdvals(a)
        r = np.count_nonzero(s > s.max(axis=-1, keepdims=True) * max(a.shape[-2:]) *
                             _EPS[s.dtype], axis=-1)
        return wrap(r if type(r) is _np_ndarray else np.asarray(r), CPU)
    require("matrix_rank", x, FLOATING)
    _matrices("matrix_rank", x)
    _lapack_dtype("matrix_rank", x)
    rtol = _rtol("matrix_rank", rtol, x)
    if isinstance(rtol, ndarray):  # (before the answer for no elements, which read no rtol)
        check_device(x, rtol)
    if 0 in x.shape[-2:]:
        # No singular values, rank 0 (array-api-compat takes the largest of none and raises)
        batch = x.shape[:-2]
        if isinstance(rtol, ndarray):
            batch = broadcast_of(batch, rtol.shape)
        return zeros(batch, dtype=int64, device=fresh(x._device))
    # array-api-compat's own, without its per-call lookups (~25 us over NumPy's SVD)
    singular = svdvals(x)
    dev = singular._device
    s, ns = native(singular), namespace_for(dev)
    with on(dev):
        largest = s.max(axis=-1, keepdims=True)
        tol = largest * max(x.shape[-2:]) * np.finfo(s.dtype).eps if rtol is None else \
            largest * (native(rtol) if isinstance(rtol, ndarray) else ns.asarray(rtol))[..., None]
        result: ndarray = wrap_result(ns.count_nonzero(s > tol, axis=-1), dev)
    return result


def outer(x1: ndarray, x2: ndarray, /) -> ndarray:
    """The outer product of two vectors."""
    if type(x1) is ndarray and type(x2) is ndarray and x1._device is CPU and x2._device is CPU:
        a1, a2 = x1._array, x2._array
        if type(a1) is _np_ndarray and type(a2) is _np_ndarray and a1.dtype is a2.dtype and \
                a1.ndim == 1 == a2.ndim and FROM_NUMPY[a1.dtype].spec_kind in NUMERIC:
            # (the common call: the checks below pass; NumPy's own, which the delegate ends in
            # through array-api-compat's wrapper. Not multiply.outer: of other strides, complex
            # products by another loop, an ulp apart)
            return wrap(np.outer(a1, a2), CPU)
    require_pair("outer", x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:  # NumPy would flatten n-D operands
        raise ValueError(f"outer needs two 1-D arrays, not {x1.ndim}-D and {x2.ndim}-D")
    result: ndarray = _backend["outer"](x1, x2)
    return result


def pinv(x: ndarray, /, *, rtol: float | ndarray | None = None) -> ndarray:
    """The Moore-Penrose pseudo-inverse of each matrix."""
    result: ndarray = _floating("pinv", x, rtol=_rtol("pinv", rtol, x))
    return result


def _rtol(name: str, rtol: Any, x: Any) -> Any:
    """A relative tolerance as the spec types it: a real number, or an array of a real
    floating-point dtype (NumPy took 1j as 0 and bools as 0 and 1). A number is x's real
    floating dtype's, as the spec reads it ("a zero-dimensional array" of that dtype): as a
    float64 its cut of float32 singular values fell elsewhere (matrix_rank(diag([1, 0.1])
    in float32, rtol=0.1) was 2, with rtol a float32 array 1)."""
    if rtol is None:
        return rtol
    if isinstance(rtol, numbers.Real) and not isinstance(rtol, (bool, np.bool_)):
        real = _REAL_OF.get(x.dtype) if type(x) is ndarray else None
        if real is None:
            return float(rtol)  # (an int past int64 or a Fraction: CuPy takes C numbers)
        with np.errstate(over="ignore"):  # (past float32: inf, as the array would be)
            return real(float(rtol))
    if isinstance(rtol, ndarray) and rtol.dtype.spec_kind == "real floating":
        return rtol
    raise TypeError(f"{name}'s rtol must be a real number or an array of a real floating-point "
                    f"dtype, not {rtol!r}")


_REAL_OF: dict[DType, type[np.floating[Any]]] = {
    _dtypes.float32: np.float32, _dtypes.complex64: np.float32,
    _dtypes.float64: np.float64, _dtypes.complex128: np.float64}


def qr(x: ndarray, /, *, mode: Literal["reduced", "complete"] = "reduced") -> QRResult:
    """The QR decomposition of each matrix."""
    if mode not in ("reduced", "complete"):  # (NumPy's 'raw' and 'r' are not a Q and an R)
        raise ValueError(f"qr's mode must be 'reduced' or 'complete', not {mode!r}")
    return QRResult(*_floating("qr", x, mode=mode))


def slogdet(x: ndarray, /) -> SlogdetResult:
    """Sign and natural log of the absolute determinant of each square matrix."""
    return SlogdetResult(*_floating("slogdet", x))


def solve(x1: ndarray, x2: ndarray, /) -> ndarray:
    """The solution of ``x1 @ out = x2`` (``x2`` is a vector only when it is 1-D)."""
    if type(x1) is ndarray and type(x2) is ndarray and x1._device is CPU and x2._device is CPU:
        a1, a2 = x1._array, x2._array
        if type(a1) is _np_ndarray and type(a2) is _np_ndarray and a1.dtype is a2.dtype and \
                a1.dtype in _LAPACK and a1.size and a2.size and a1.ndim >= 2 and \
                a1.shape[-1] == a1.shape[-2]:
            # (the common call: NumPy 2's own solve, which array-api-compat's copies, where
            # the checks below pass)
            return wrap(np.linalg.solve(a1, a2), CPU)
    dev = require_pair("solve", x1, x2, FLOATING)
    for x in (x1, x2):  # (as its kin: NumPy's and CuPy's refusals are in other words)
        _lapack_dtype("solve", x)
    if x1.size == 0 and not held(x1) and not held(x2):  # (x1 of elements: each matrix's
        # factorisation is NumPy's to refuse, where singular)
        solved: ndarray | None = by_the_first(solve, (x1, x2), (2, 1 if x2.ndim == 1 else 2),
                                              _spread)
        if solved is None and x1.shape[-2:] == (0, 0) and x2.ndim > 1 and x2.shape[-2] == 0 \
                and x2.shape[-1] > 1:
            one = solve(x1, x2[..., :1])
            solved = _with_the_long_axis(one, x2.shape[-1], one.ndim)
        if solved is not None:
            return solved
    if x1.size and x2.size == 0 and x2.ndim > 1 and x1.ndim > 1 and \
            x1.shape[-1] == x1.shape[-2] and not held(x1):
        # No right-hand sides for matrices of elements: NumPy 2.4 factorises each (LinAlgError
        # where one is singular), 2.2 and CuPy's path below none; each factorised here (and
        # by NumPy 2.4 again: a rare call)
        try:
            stack = broadcast_of(x1.shape[:-2], x2.shape[:-2])
        except ValueError:
            stack = (0,)  # (the backend's error below)
        if math.prod(stack):
            _call("solve", dev, x1, zeros(x1.shape[:-1] + (1,), dtype=x1.dtype,
                                          device=fresh(dev)))  # (pinned memory: the CPU's)
            if x2.shape[-2:] == (x1.shape[-1], 0):  # (then nothing to solve: NumPy's loop
                # over the broadcast stack took 12 s for an x2 of (2**26, 3, 0))
                return empty(stack + x2.shape[-2:], dtype=result_type(x1, x2),
                             device=fresh(dev))
    if dev.device_type == CUDA_TYPE and (x1.size == 0 or x2.size == 0) and x1.ndim >= 2 \
            and x1.shape[-1] == x1.shape[-2]:
        # A solution of no elements: CuPy's batched_gesv makes an arange of each matrix's
        # address, whose step is 0 for no right-hand sides (ZeroDivisionError). NumPy's answer
        # (its shape, dtype and checks) for identity matrices of x1's shape, on x1's GPU.
        identities = broadcast_to(eye(x1.shape[-1], dtype=x1.dtype, device="cpu"), x1.shape)
        r: ndarray = _moved(_backend["solve"](identities, zeros(x2.shape, dtype=x2.dtype,
                                                                device="cpu")), x1)
        return r
    # (a 1-D x2 beside a stack: CuPy 14 broadcasts it itself, and refuses a stack of copies)
    if dev.device_type == CUDA_TYPE and x2.ndim > 1 and x1.shape[:-2] != x2.shape[:-2]:
        # CuPy's solve does not broadcast the stacks of matrices (the spec does)
        try:
            batch = broadcast_of(x1.shape[:-2], x2.shape[:-2])
        except ValueError as e:
            raise ValueError(f"solve: the stacks of x1 {x1.shape} and x2 {x2.shape} do not "
                             f"broadcast ({e})") from None
        x1 = broadcast_to(x1, batch + x1.shape[-2:])
        x2 = broadcast_to(x2, batch + x2.shape[-2:])
    result: ndarray = _call("solve", dev, x1, x2)
    return result


def svd(x: ndarray, /, *, full_matrices: bool = True) -> SVDResult:
    """The singular value decomposition ``U @ diag(S) @ Vh`` of each matrix."""
    return SVDResult(*_floating("svd", x, full_matrices=flag("svd", "full_matrices",
                                                               full_matrices)))


def svdvals(x: ndarray, /) -> ndarray:
    """The singular values of each matrix, largest first."""
    result: ndarray = _floating("svdvals", x)
    return result


def trace(x: ndarray, /, *, offset: int = 0, dtype: DType | None = None) -> ndarray:
    """The sum of the ``offset`` diagonal of each matrix (small integers sum in 64 bits)."""
    a = x._array if type(x) is ndarray else None
    if dtype is None and type(a) is np.ndarray and type(offset) is int and a.ndim >= 2 and \
            a.dtype.kind in "iufc" and a.dtype is not _FLOAT16 and \
            a.dtype not in EXTENSION_FLOATS and -a.shape[-2] <= offset <= a.shape[-1]:
        # The commonest call: NumPy's own sum of the diagonal, as sum makes it (~2.5 us of
        # checks below, each passed; not for ml_dtypes' float8_e5m2, whose NumPy kind is "f"
        # too: refused below as every extension float is, where NumPy added it in float8)
        return wrap(np.asarray(numpy_sum(a.diagonal(offset, -2, -1), axis=-1)), CPU)
    require("trace", x, NUMERIC)
    _matrices("trace", x)
    native_dtype(dtype)  # (TypeError for a held-only dtype, as sum's)
    if dtype is not None:
        refuse_complex_to_real("trace", x.dtype, dtype)  # (as sum does: the spec's casting)
    # The diagonal's sum, as sum makes it: the spec's trace is successive adds of it, as its
    # sum is (-0.0 on a diagonal of -0.0s, where NumPy's trace starts from +0.0); 16-bit floats
    # cast to dtype= and added in float32 (1000 bfloat16 ones made 256; added first, 3 times
    # bfloat16(1 + 2**-8) was 3.0156, not 3; NumPy adds a float16 diagonal that is not its
    # innermost axis in float16, which stalls at 2048)
    summed: ndarray = _sum(diagonal(x, offset=strict_int(offset, "trace's offset")), axis=-1,
                           dtype=dtype)
    return summed


_FLOAT16 = np.dtype(np.float16)


@axis_checked
def vector_norm(x: ndarray, /, *, axis: int | tuple[int, ...] | None = None,
                keepdims: bool = False, ord: int | float = 2) -> ndarray:
    """The ``ord`` norm of the vectors along ``axis`` (all elements when None)."""
    a = x._array if type(x) is ndarray and x._device is CPU else None
    if type(a) is _np_ndarray and a.dtype in _LAPACK and a.size and \
            (keepdims is False or keepdims is True) and \
            (type(ord) is int and -1 << 63 <= ord < 1 << 63 or type(ord) is float) and \
            (axis is None or type(axis) is int and -a.ndim <= axis < a.ndim):
        # (the commonest calls: NumPy's own, as _floating calls it where the checks below
        # pass, less them: ~1.5 us)
        norm: ndarray = wrap_result(_ON_NUMPY["vector_norm"](a, axis=axis, ord=ord,
                                                             keepdims=keepdims))
        return norm
    # (NumPy took a list as ord; its ** of an int past int64 was a TypeError)
    ord = real_number("vector_norm", "ord", ord)
    if isinstance(axis, list):  # (a reduction's axes: NumPy's and array-api-strict's TypeError)
        raise TypeError(f"vector_norm needs axis to be an int, a tuple of ints or None, not "
                        f"{shown(axis)}")
    axis = ints("vector_norm", "axis", axis, none=True)
    result: ndarray = _floating("vector_norm", x, axis=axis, ord=ord,
                                keepdims=flag("vector_norm", "keepdims", keepdims))
    return result


def __dir__() -> list[str]:  # the extension's names, not the helpers imported to build it
    return sorted(__all__)
