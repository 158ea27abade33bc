"""cupy.linalg: NumPy's functions over the simulator's arrays; eig/eigvals complex for real
input, as CuPy 14's (cusolver's geev), where NumPy's are real when the eigenvalues are, but
of the input's dtype for no elements, and computed for input with infinities or NaNs;
the SVD family answers (NaN) for input with NaNs, where NumPy's LAPACK does not converge;
norms of no elements raise where CuPy's max, min and take(0) of nothing do (NumPy's max
takes initial=0); solve broadcasts no stacks."""
import numpy as _np

from . import _fresh, _module_getattr, _namespace_attr

# NumPy's that CuPy 14.2's cupy/linalg/__init__.py has not (array-api-compat supplies them)
_ABSENT = frozenset("diagonal matrix_norm multi_dot outer svdvals tensordot test trace vecdot "
                    "vector_norm".split())
__all__ = [n for n in dir(_np.linalg) if not n.startswith("_") and n not in _ABSENT]


def _complex(a):
    kind = "F" if a.dtype in (_np.float16, _np.float32, _np.complex64) else "D"
    return a.astype(kind)


def _of_nothing(a):  # (cupy/linalg/_eigenvalue.py: linalg_common_type's dtype, uncomputed)
    dt = a.dtype if a.dtype.kind in "fc" and a.dtype != _np.float16 else \
        _np.dtype(_np.float32) if a.dtype == _np.float16 else _np.dtype(_np.float64)
    return _np.empty(a.shape[:-1], dt), _np.empty(a.shape, dt)


def _per_matrix(f, a, bad):
    """``f(a)`` (a tuple too) with the matrices of ``a`` where ``bad`` (of its stack's shape)
    zeros in, and NaN out, as CuPy computes each matrix of a stack apart."""
    clean = _fresh(_np.where(bad[..., None, None], 0, a._a), a._dev)
    r = f(clean)

    def spoil(v):
        mask = bad.reshape(bad.shape + (1,) * (v.ndim - bad.ndim))
        return _fresh(_np.where(mask, _np.nan, v._a).astype(v._a.dtype), v._dev)
    return type(r)(*map(spoil, r)) if isinstance(r, tuple) else spoil(r)


def eig(a):
    if a._a.size == 0:
        return tuple(_fresh(r, a._dev) for r in _of_nothing(a._a))
    # (CuPy's geev computes with infinities and NaNs, which NumPy's eig refuses:
    # cupy/linalg/_eigenvalue.py checks no values)
    w, v = _per_matrix(_namespace_attr(_np.linalg, "eig"), a,
                       ~_np.isfinite(a._a).all(axis=(-2, -1)))
    return _complex(w), _complex(v)


def norm(x, ord=None, axis=None, keepdims=False):
    if x._a.size == 0 and axis is not None:
        axes = axis if isinstance(axis, tuple) else (axis,)
        if ord in ((_np.inf, -_np.inf) if len(axes) == 1 else (1, -1, _np.inf, -_np.inf)):
            raise ValueError("zero-size array to reduction operation cupy_max which has no "
                             "identity")
        if len(axes) == 2 and ord in (2, -2):
            raise IndexError("cannot do a non-empty take from an empty axes.")
    return _namespace_attr(_np.linalg, "norm")(x, ord=ord, axis=axis, keepdims=keepdims)


def matrix_power(M, n):  # as CuPy 14.2's: Python ints only
    if not isinstance(n, int):
        raise TypeError("exponent must be an integer")
    return _namespace_attr(_np.linalg, "matrix_power")(M, n)


def eigvals(a):
    if a._a.size == 0:
        return _fresh(_of_nothing(a._a)[0], a._dev)
    return _complex(_per_matrix(_namespace_attr(_np.linalg, "eigvals"), a,
                                ~_np.isfinite(a._a).all(axis=(-2, -1))))


def solve(a, b):
    # As CuPy 14.2's (dltensor works around both, linalg.solve): the stacks of a and b are not
    # broadcast (a vector b is, against a stack), and batched_gesv, for a stack, makes an
    # arange of each matrix's address whose step is 0 for matrices or right-hand sides of no
    # elements. (Its squareness checked first, as CuPy's _assert_stacked_square: LinAlgError.)
    if a.ndim >= 2 and a.shape[-1] != a.shape[-2]:
        raise _np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    if b.ndim > 1 and (a.ndim != b.ndim or a.shape[:-1] != b.shape[:-1]):
        raise ValueError("a must have (..., M, M) shape and b must have (..., M) or (..., M, K)")
    if a.ndim > 2 and (a.shape[-1] == 0 or b.ndim > 1 and b.shape[-1] == 0):
        raise ZeroDivisionError("step must not be zero")
    return _namespace_attr(_np.linalg, "solve")(a, b)


def _status_unchecked(f):
    """CuPy 14.2's ``f``, which checks cuSOLVER's status only under
    ``cupyx.errstate(linalg="raise")``: under its default, "ignore", a singular or indefinite
    matrix gives what was computed (NaN here) where NumPy raises LinAlgError."""
    def checked_only_if_asked(a, *args, **kwargs):
        try:
            return f(a, *args, **kwargs)
        except _np.linalg.LinAlgError:
            import cupyx
            if getattr(cupyx._config, "linalg", "ignore") == "raise" or a._a.ndim < 2 or \
                    a.shape[-1] != a.shape[-2]:
                raise
        n = a.shape[-1]  # (the shape and dtype of an answer: that of identity matrices)
        eye = _fresh(_np.broadcast_to(_np.eye(n, dtype=a._a.dtype), a.shape).copy(), a._dev)
        return f(eye, *args, **kwargs) * _np.nan

    checked_only_if_asked.__name__ = f.__name__
    return checked_only_if_asked


def _unconverged_nan(f):
    """CuPy 14.2's ``f`` of the SVD family, whose gesvd's status CuPy checks only under
    ``cupyx.errstate(linalg="raise")``: NumPy's LAPACK does not converge on a NaN
    (LinAlgError), where cuSOLVER's answers (NaN here)."""
    def unchecked(a, *args, **kwargs):
        try:
            return f(a, *args, **kwargs)
        except _np.linalg.LinAlgError as e:
            if "converge" not in str(e) or a._a.ndim < 2:
                raise
        return _per_matrix(lambda m: f(m, *args, **kwargs), a,
                           _np.isnan(a._a).any(axis=(-2, -1)))

    unchecked.__name__ = f.__name__
    return unchecked


svd, pinv = (_unconverged_nan(_namespace_attr(_np.linalg, n)) for n in ("svd", "pinv"))
norm = _unconverged_nan(norm)
inv = _status_unchecked(_namespace_attr(_np.linalg, "inv"))
cholesky = _status_unchecked(_namespace_attr(_np.linalg, "cholesky"))
solve, matrix_power = _status_unchecked(solve), _status_unchecked(matrix_power)


__getattr__ = _module_getattr(_np.linalg, globals(), _ABSENT)
