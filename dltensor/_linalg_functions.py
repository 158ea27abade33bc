"""The main namespace's linear algebra: ``matmul``, ``matrix_transpose``, ``tensordot``, ``vecdot``.

The backends compute; this module enforces the spec's dtype rules first (numeric operands, and
no promotion the spec does not define, such as int64 with uint64 or int with float), which NumPy
would otherwise answer with a float64 result. ``linalg.py`` builds on the helpers here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._array import held, inherit_read_only, ndarray, wrap
from ._dispatch import check_axis, check_device, namespace_for, shown, strict_int, wrap_result
from ._devices import CPU, CUDA_TYPE, Device
from ._dtypes import FROM_NUMPY, PROMOTION, no_promotion
from ._held import held_view
from ._elementwise import _matmul

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

_np_ndarray = np.ndarray
_np_vecdot: Any = np.vecdot  # (its stubs lack the gufunc's axis=)
# NumPy's function, without the __array_function__ dispatch in front of it
_np_tensordot = getattr(np.tensordot, "_implementation", np.tensordot)

NUMERIC = frozenset({"signed integer", "unsigned integer", "real floating", "complex floating"})
FLOATING = frozenset({"real floating", "complex floating"})
_KIND_WORDS = {NUMERIC: "numeric", FLOATING: "floating-point",
               frozenset({"complex floating"}): "complex floating-point",
               frozenset({"real floating"}): "real floating-point"}


def require(name: str, x: object, kinds: frozenset[Any]) -> None:
    """TypeError unless ``x`` is an ndarray whose dtype is of one of ``kinds``."""
    if type(x) is not ndarray:
        raise TypeError(f"{name} needs a dltensor array, not {type(x).__name__} "
                        "(convert it with dltensor.asarray)")
    if x.dtype.spec_kind not in kinds:
        raise TypeError(f"{name} needs a {_KIND_WORDS.get(kinds, 'numeric')} array, "
                        f"not {x.dtype.name}")


def require_pair(name: str, x1: ndarray, x2: ndarray, kinds: frozenset[Any] = NUMERIC
                 ) -> Device:
    """Check two operands' dtypes (and that the spec promotes them) and device; their device."""
    require(name, x1, kinds)
    require(name, x2, kinds)
    d1, d2 = x1.dtype, x2.dtype
    if d1 is not d2 and (d1, d2) not in PROMOTION:
        raise no_promotion(name, d1, d2)
    return check_device(x1, x2)


def vector_axis(name: str, x1: ndarray, x2: ndarray, axis: int) -> int:
    """The axis of vecdot's and cross's vectors, checked: the spec counts it from the end only
    (2023.12), a positive one being ambiguous once the arrays broadcast to more dimensions."""
    axis = strict_int(axis, f"{name}'s axis")
    n = min(x1.ndim, x2.ndim)
    if n == 0:
        raise ValueError(f"{name} takes arrays of at least one dimension, not 0-d ones")
    check_axis(name, axis, n)  # (NumPy's and array-api-strict's IndexError: AxisError is both)
    if axis >= 0:
        raise ValueError(f"{name}'s axis must be in [-{n}, -1], not {axis}")
    return axis


def matmul(x1: ndarray, x2: ndarray, /) -> ndarray:
    """The matrix product ``x1 @ x2`` (vectors promoted to matrices and back, as PEP 465 says)."""
    if type(x1) is not ndarray or type(x2) is not ndarray:
        raise TypeError(f"matmul needs two dltensor arrays, not {type(x1).__name__} and "
                        f"{type(x2).__name__}")
    # the @ operator's: one set of dtype and device rules, one fast path
    result: ndarray = _matmul(x1, x2)
    return result


def matrix_transpose(x: ndarray, /) -> ndarray:
    """``x`` with its last two axes swapped (a view)."""
    a = x._array if type(x) is ndarray else None
    if type(a) is _np_ndarray and a.ndim >= 2:  # (the view below, less its checks: NumPy's
        return wrap(a.swapaxes(-1, -2), x._device)  # views inherit read-only themselves)
    if type(x) is not ndarray:
        raise TypeError(f"matrix_transpose needs a dltensor array, not {type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose needs at least 2 dimensions, not {x.ndim}")
    if held(x):
        result: ndarray = held_view("matrix_transpose", x)
        return result
    a = x._compute()
    return wrap(inherit_read_only(a, a.swapaxes(-1, -2)), x._device)


def tensordot(x1: ndarray, x2: ndarray, /, *,
              axes: int | tuple[Sequence[int], Sequence[int]] = 2) -> ndarray:
    """The tensor contraction of ``x1`` and ``x2`` over ``axes``."""
    if type(x1) is ndarray and type(x2) is ndarray and x1._device is CPU and x2._device is CPU:
        a1, a2 = x1._array, x2._array
        if type(a1) is _np_ndarray and type(a2) is _np_ndarray and a1.dtype is a2.dtype and \
                FROM_NUMPY[a1.dtype].spec_kind in NUMERIC and _numpy_axes(axes, a1, a2):
            # (the common call: NumPy's own tensordot, which the delegate ends in, where the
            # checks below pass)
            r = _np_tensordot(a1, a2, axes=axes)
            return wrap(r if type(r) is _np_ndarray else np.asarray(r), CPU)
    dev = require_pair("tensordot", x1, x2)
    if not isinstance(axes, (tuple, list)):
        axes = strict_int(axes, "tensordot's axes (else a pair of axis sequences)")
        if axes < 0:
            raise ValueError(f"tensordot's axes must be nonnegative, not {axes}")
        if axes > min(x1.ndim, x2.ndim):  # (NumPy: IndexError; CuPy: ValueError for a 0-d one)
            raise ValueError(f"tensordot contracts {axes} axes, but the arrays have {x1.ndim} "
                             f"and {x2.ndim}")
    elif len(axes) != 2 or not all(isinstance(s, Sequence) for s in axes):
        raise TypeError(f"tensordot's axes must be an int or a pair of axis sequences, not "
                        f"{shown(axes)}")
    else:
        # NumPy counts each contracted axis by its own shape; the spec forbids broadcasting it.
        a1, a2 = (tuple(strict_int(i, "tensordot's axes") for i in s) for s in axes)
        axes = (a1, a2)  # (tuples: CuPy refuses a 0-d operand unless axes == ((), ()))
        if len(a1) != len(a2):
            raise ValueError(f"tensordot's axes must name as many axes of x1 as of x2, not "
                             f"{len(a1)} and {len(a2)}")
        for i, j in zip(a1, a2):
            check_axis("tensordot (x1)", i, x1.ndim)  # (NumPy: "tuple index out of range")
            check_axis("tensordot (x2)", j, x2.ndim)
            if x1.shape[i] != x2.shape[j]:
                raise ValueError(f"tensordot: axis {i} of x1 (size {x1.shape[i]}) and axis {j} "
                                 f"of x2 (size {x2.shape[j]}) differ; contracted axes do not "
                                 "broadcast")
    result: ndarray = wrap_result(
        namespace_for(dev).tensordot(x1._compute(), x2._compute(), axes=axes), dev)
    return result


def _numpy_axes(axes: Any, a1: np.ndarray[Any, Any], a2: np.ndarray[Any, Any]) -> bool:
    """Whether tensordot's ``axes`` for NumPy arrays ``a1`` and ``a2`` pass the checks of
    tensordot's checked path: a count of axes both have, or a pair of tuples of as many axes
    of each, of one length each to each."""
    if type(axes) is int:
        return 0 <= axes <= a1.ndim and axes <= a2.ndim
    if type(axes) is not tuple or len(axes) != 2 or type(axes[0]) is not tuple or \
            type(axes[1]) is not tuple or len(axes[0]) != len(axes[1]):
        return False
    n1, n2, s1, s2 = a1.ndim, a2.ndim, a1.shape, a2.shape
    for i, j in zip(*axes):
        if type(i) is not int or type(j) is not int or not -n1 <= i < n1 or \
                not -n2 <= j < n2 or s1[i] != s2[j]:
            return False
    return True


def vecdot(x1: ndarray, x2: ndarray, /, *, axis: int = -1) -> ndarray:
    """The dot product ``sum(conj(x1) * x2)`` of the vectors along ``axis`` (negative)."""
    if type(x1) is ndarray and type(x2) is ndarray and type(axis) is int and \
            x1._device is CPU and x2._device is CPU:
        a1, a2 = x1._array, x2._array
        if type(a1) is _np_ndarray and type(a2) is _np_ndarray and a1.dtype is a2.dtype and \
                FROM_NUMPY[a1.dtype].spec_kind in NUMERIC and \
                -min(a1.ndim, a2.ndim) <= axis < 0 and a1.shape[axis] == a2.shape[axis]:
            # (the common call: NumPy's own vecdot, where the checks below pass)
            r = _np_vecdot(a1, a2, axis=axis)
            return wrap(r if type(r) is _np_ndarray else np.asarray(r), CPU)
    dev = require_pair("vecdot", x1, x2)
    axis = vector_axis("vecdot", x1, x2, axis)
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: x1 and x2 have {x1.shape[axis]} and {x2.shape[axis]} "
                         f"elements along axis {axis}; the contracted axis does not broadcast")
    ns, arrays = namespace_for(dev), (x1._compute(), x2._compute())
    if max(x1.ndim, x2.ndim) >= 64 and dev.device_type == CUDA_TYPE:
        # array-api-compat's vecdot for CuPy multiplies x1[..., None, :] by x2[..., None]: 65
        # axes, past CuPy's 64 (IndexError; NumPy's own, the CPU's, takes 64). The other axes
        # folded into one.
        from ._indexing import along_axis
        folded = along_axis(ns, lambda a, b: ns.vecdot(a, b)[:, None], arrays, axis)
        vectors = ns.squeeze(folded, axis=axis)
    else:
        vectors = ns.vecdot(*arrays, axis=axis)
    result: ndarray = wrap_result(vectors, dev)
    return result
