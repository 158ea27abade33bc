"""Started by tests/fakecuda/run.sh: CuPy's thrust module calls CUDA through a
runtime linked into it, which fakecuda cannot replace, so CuPy's sorting is
given a stand-in making thrust.pyx's own checks and sorting nothing (the
values are garbage, as after any kernel on fakecuda)."""
import types

import cupy._core._routines_sorting as _sorting
from cupy.cuda import common as _common


def _check(dtype, error):
    try:
        dtype_id = _common._get_dtype_id(dtype)
    except ValueError:
        raise error(f"Sorting {'keys' if error is TypeError else 'arrays'} "
                    f"with dtype '{dtype}' is not supported") from None
    if dtype_id == 8 and not _common._is_fp16_supported():
        raise RuntimeError(
            'either the GPU or the CUDA Toolkit does not support fp16')


def sort(dtype, data_start, keys_start, shape):
    _check(dtype, NotImplementedError)


def lexsort(dtype, idx_start, keys_start, k, n):
    _check(dtype, TypeError)


def argsort(dtype, idx_start, data_start, keys_start, shape):
    _check(dtype, NotImplementedError)


_sorting.thrust = types.SimpleNamespace(
    available=True, sort=sort, lexsort=lexsort, argsort=argsort)
