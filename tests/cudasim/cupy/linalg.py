"""cupy.linalg: NumPy's functions over the simulator's arrays; eig/eigvals complex for real
input, as CuPy 14's (cusolver's geev), where NumPy's are real when the eigenvalues are."""
import numpy as _np

from . import _module_getattr, _namespace_attr

# NumPy's that CuPy 14.2's cupy/linalg/__init__.py has not (array-api-compat supplies them)
_ABSENT = frozenset("diagonal matrix_norm multi_dot outer svdvals tensordot test trace vecdot "
                    "vector_norm".split())
__all__ = [n for n in dir(_np.linalg) if not n.startswith("_") and n not in _ABSENT]


def _complex(a):
    kind = "F" if a.dtype in (_np.float16, _np.float32, _np.complex64) else "D"
    return a.astype(kind)


def eig(a):
    w, v = _namespace_attr(_np.linalg, "eig")(a)
    return _complex(w), _complex(v)


def matrix_power(M, n):  # as CuPy 14.2's: Python ints only
    if not isinstance(n, int):
        raise TypeError("exponent must be an integer")
    return _namespace_attr(_np.linalg, "matrix_power")(M, n)


def eigvals(a):
    return _complex(_namespace_attr(_np.linalg, "eigvals")(a))


__getattr__ = _module_getattr(_np.linalg, globals(), _ABSENT)
