"""Where CuPy 14.2's kernels depart from NumPy's, computed on NumPy arrays (the simulator's
functions and operators call these), so that dltensor's fixes for them run in CI."""
import operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index

def floor_divide(a, b):  # float: floor(a / b) (cupy/_core/_routines_math.pyx)
    q = _np.floor_divide(a, b)
    if q.dtype.kind == "f":
        q = _np.floor(_np.true_divide(a, b)).astype(q.dtype)
    return q


def remainder(a, b):  # float: a - floor(a / b) * b
    r = _np.remainder(a, b)
    if r.dtype.kind == "f":
        r = (a - _np.floor(_np.true_divide(a, b)) * b).astype(r.dtype)
    return r


def power(a, b):  # integers to negative powers: 0, or 1 / -1 for bases 1 / -1 (integral_power)
    kind = _np.result_type(a, b).kind if not isinstance(b, int) else _np.asarray(a).dtype.kind
    if kind == "c":  # complex: exp(w log z) (thrust's pow, cupy/complex/cpow.h), 1 for w == 0
        dt = _np.result_type(a, b)  # (_routines_math.pyx: in1 == T(0) ? T(1) : pow(in0, in1))
        a, b = _np.asarray(a, dt), _np.asarray(b, dt)
        return _np.where(b == 0, _np.ones((), dt), _np.exp(b * _np.log(a))).astype(dt)
    if kind not in "iu" or not _np.any(_np.asarray(b) < 0):
        return _np.power(a, b)
    r = _np.power(a, max(b, 0) if isinstance(b, int) else _np.maximum(b, 0))
    negative = _np.asarray(b) < 0
    odd = _np.asarray(b) % 2 == 1
    special = _np.where(_np.asarray(a) == -1, _np.where(odd, -1, 1),
                        _np.where(_np.asarray(a) == 1, 1, 0))
    return _np.where(negative, special, r).astype(r.dtype)


def log(a):
    """complex128: clog's log(hypot(x, y)) for the real part where neither part is past 5e307
    and one is past 1e50 or below 1e-50 (cupy/_core/include/cupy/complex/clog.h): inf past
    the largest float, a subnormal's few digits below the smallest normal."""
    a = _np.asarray(a)
    with _np.errstate(all="ignore"):
        r = _np.log(a)
        if a.dtype != _np.complex128:
            return r
        x, y = _np.abs(a.real), _np.abs(a.imag)
        big, small = _np.maximum(x, y), _np.minimum(x, y)
        by_hypot = _np.isfinite(a) & (big > 0) & (small <= 5e307) & (big != 1) & (
            (small < 1e-50) | (big > 1e50))
        if by_hypot.any():
            r = _np.array(r)
            r.real = _np.where(by_hypot, _np.log(_np.hypot(x, y)), r.real)
    return r


def log1p(a):  # complex: log(z + (1 + 0j)) (cupy/complex.cuh): -0j becomes +0j, no overflow
    a = _np.asarray(a)
    return log(a + _np.ones((), a.dtype)) if a.dtype.kind == "c" else _np.log1p(a)


def sqrt(a):
    """complex128: csqrt's scaling by 4 where both parts are at most twice the smallest normal
    (cupy/_core/include/cupy/complex/csqrt.h), then t = sqrt((|a| + hypot) / 2): few digits."""
    a = _np.asarray(a)
    r = _np.sqrt(a)
    if a.dtype != _np.complex128:
        return r
    low = 4.450147717014402766180465e-308
    tiny = _np.isfinite(a) & (a != 0) & (_np.abs(a.real) <= low) & (_np.abs(a.imag) <= low)
    if tiny.any():
        x, y = a.real * 4.0, a.imag * 4.0
        with _np.errstate(all="ignore"):
            t = _np.sqrt((_np.abs(x) + _np.hypot(x, y)) * 0.5)
            re = _np.where(x >= 0, t, _np.abs(y) / (2 * t)) * 0.5
            im = _np.where(x >= 0, y / (2 * t), _np.copysign(t, y)) * 0.5
        r = _np.array(r)
        r.real, r.imag = _np.where(tiny, re, r.real), _np.where(tiny, im, r.imag)
    return r


def sign(a):  # complex: a / abs(a) (cupy/_math/misc.py): inf + 1j is NaN + 0j
    a = _np.asarray(a)
    if a.dtype.kind != "c":
        return _np.sign(a)
    with _np.errstate(all="ignore"):
        m = _np.abs(a)
        r = _np.empty_like(a)
        r.real, r.imag = a.real / m, a.imag / m
    return _np.where(m == 0, _np.zeros((), a.dtype), r)


def half_dot(r, a, b):
    """``r``, a product of a and b, as CuPy 14.2's tensordot_core computes one of a single
    element (m == n == 1): float16 products added in float16 (``(a * b).sum()`` under CUB,
    else _tensordot_core_mul_sum; here added in order); of no elements 0."""
    if r.dtype == _np.float16 and r.size == 1 and a.size:
        r = _np.array(r)  # (a copy; NumPy's product of vectors is a scalar)
        r[...] = _np.cumsum(a.reshape(-1) * b.reshape(-1), dtype=_np.float16)[-1]
    return r


INT_MATMUL_ROWS_MAX = 65535 * 128  # (tests make these small, with dltensor's, to reach them)
INT_MATMUL_ELEMENTS_MAX = (1 << 31) - 1


def matmul(a, b):  # (matrices and vectors go to tensordot_core; stacks add in float32)
    a, b = _np.asarray(a), _np.asarray(b)
    r = _np.matmul(a, b)
    if a.dtype.kind in "iu":
        # CuPy's own integer kernel (_routines_linalg.pyx): a grid of ceil(rows / 128) by
        # ceil(columns / 128) blocks (launch error past 65,535 of them) and int M, N, K (the
        # elements of a matrix past a C int read wrongly: zeros here)
        m = 1 if a.ndim == 1 else a.shape[-2]
        k, n = a.shape[-1], 1 if b.ndim == 1 else b.shape[-1]
        if max(m, n) > INT_MATMUL_ROWS_MAX:
            raise RuntimeError("CUDA_ERROR_INVALID_VALUE: invalid argument")
        if max(m * k, k * n, m * n) > INT_MATMUL_ELEMENTS_MAX:
            return _np.zeros_like(r)
        return r
    return half_dot(r, a, b) if max(a.ndim, b.ndim) <= 2 else r


def dot(a, b):
    a, b = _np.asarray(a), _np.asarray(b)
    return half_dot(_np.dot(a, b), a, b)


def true_divide(a, b):  # beside uint64, a Python int past int64: CuPy's mixed loop 'Qq->d'
    # (cupy_true_divide lists 'qQ', 'Qq' before 'QQ') packs it into an int64
    for s, other in ((a, b), (b, a)):
        if type(s) is int and s >= 1 << 63 and _np.asarray(other).dtype == _np.uint64:
            raise OverflowError("Python int too large to convert to C long")
    return _np.true_divide(a, b)


def _shift_by_32_bits(op):
    """A 64-bit shift as CuPy's kernel (C's a << b, _routines_binary.pyx) compiles: PTX's
    shl.b64 (shr) takes the amount's low 32 bits, clamping those to 64 (NumPy clamps all)."""
    def shift(a, b):
        r = op(a, b)
        if r.dtype.kind in "iu" and r.dtype.itemsize == 8:
            low = (_np.asarray(b).astype(_np.uint64) & _np.uint64(0xFFFFFFFF)).astype(r.dtype)
            r = op(_np.asarray(a, r.dtype) if isinstance(a, int) else a, low)
        return r
    return shift


left_shift, right_shift = _shift_by_32_bits(_np.left_shift), _shift_by_32_bits(_np.right_shift)


# ufunc and operator names -> the function computing them as CuPy does
BY_NAME = {"divide": true_divide, "floor_divide": floor_divide, "remainder": remainder,
           "power": power, "sign": sign, "log": log, "log1p": log1p, "sqrt": sqrt,
           "truediv": true_divide, "floordiv": floor_divide, "mod": remainder, "pow": power,
           "matmul": matmul, "dot": dot, "left_shift": left_shift, "right_shift": right_shift,
           "lshift": left_shift, "rshift": right_shift}


def last_nan(fn):
    """argmax/argmin of floats as CuPy 14.2's reduction (my_argmax_float,
    cupy/_core/_routines_statistics.pyx): a NaN wins, and of two NaNs whichever it compares
    first, which along an axis of several need not be the first one (here: the last)."""
    def f(a, axis=None, out=None, *, keepdims=False):
        a = _np.asarray(a)
        r = fn(a, axis=axis, out=out, keepdims=keepdims)
        if a.dtype.kind in "fc" and a.size:
            nan = _np.isnan(a) if axis is not None else _np.isnan(a).reshape(-1)
            ax = 0 if axis is None else axis
            last = nan.shape[ax] - 1 - _np.argmax(_np.flip(nan, ax), axis=ax)
            has = _np.any(nan, axis=ax)
            r = _np.where(has, last, r.reshape(has.shape)).reshape(r.shape).astype(r.dtype)
        return r
    return f


def empty_reduced(fn, index):
    """max/min (``index`` False) or argmax/argmin as CuPy 14.2's reductions of no identity: a
    result of no elements returns before the identity is looked for (``if ret.size == 0:
    return ret``, cupy/_core/_reduction.pyx), so reducing an empty axis raised nothing where
    the result is empty too (max(zeros((0, 0)), axis=0): an empty array)."""
    def f(a, axis=None, out=None, *, keepdims=False):
        a = _np.asarray(a)
        if a.size == 0 and axis is not None:
            shape = _np.sum(a, axis=axis, keepdims=keepdims).shape
            if 0 in shape:
                return _np.empty(shape, _np.intp if index else a.dtype)
        return fn(a, axis=axis, out=out, keepdims=keepdims)
    return f


def transpose(a, axes=None):  # (_ndarray_transpose: an empty axes tuple is a.T)
    a = _np.asarray(a)
    return a.T if axes is not None and len(axes) == 0 else _np.transpose(a, axes)


def wrapped_indices(key, shape):
    """CuPy wraps out-of-bounds integer-array indices (i % n) where NumPy raises IndexError."""
    parts = key if isinstance(key, tuple) else (key,)
    consumed = sum(1 if not isinstance(k, _np.ndarray) or k.dtype != bool else k.ndim
                   for k in parts if k is not None and k is not Ellipsis)
    out, axis = [], 0
    for k in parts:
        if k is Ellipsis:
            axis += len(shape) - consumed
        elif k is None:
            pass
        elif isinstance(k, _np.ndarray) and k.dtype == bool:
            axis += k.ndim
        else:
            if isinstance(k, _np.ndarray) and k.dtype.kind in "iu" and axis < len(shape) \
                    and shape[axis]:
                k = k % shape[axis]
            axis += 1
        out.append(k)
    return tuple(out) if isinstance(key, tuple) else out[0]


def radix_order(fn, name):
    """sort/argsort of a 1-D float array by its bits, as CuPy's radix sort (thrust over CUB):
    NaNs with the sign bit first, -0.0 before 0.0 whatever their order; of complex arrays of
    more than one axis with every NaN-holding value equal, as CuPy's comparator of lines;
    otherwise NumPy's. Its axis is a C int (OverflowError past one: NumPy's argsort ValueError)."""
    def sort(a, axis=-1, kind=None, **kwargs):
        if axis is not None and not -2**31 <= axis < 2**31:
            raise OverflowError("value too large to convert to int")
        a = _np.asarray(a)
        if a.ndim > 1 and a.dtype.kind == "c" and axis is not None:
            # complex lines (tuple_less, then real_less): a value with a NaN part equals any
            # other such, after all the others, in a stable sort
            nan = _np.isnan(a)
            order = _np.lexsort((_np.where(nan, 0, a), nan), axis=axis)
            return _np.take_along_axis(a, order, axis) if name == "sort" else order
        if a.ndim != 1 or a.dtype.kind != "f" or axis not in (0, -1):
            return fn(a, axis=axis, kind=kind, **kwargs)
        nan, sign = _np.isnan(a), _np.signbit(a)
        group = _np.where(nan, _np.where(sign, 0, 2), 1)
        order = _np.lexsort((~sign, _np.where(nan, 0, a), group))
        return a[order] if name == "sort" else order
    return sort




def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True):
    """CuPy's unique of a flattened array (_unique_1d, cupy/_manipulation/add_remove.py): its
    argsort or sort (radix for floats: -0.0 before 0.0), then a new value wherever neighbours
    differ; so the zeros' index is a -0.0's. (axis= is NumPy's here.)"""
    if axis is not None:
        return _np.unique(ar, return_index, return_inverse, return_counts, axis=axis,
                          equal_nan=equal_nan)
    ar = _np.asarray(ar)
    flat = ar.reshape(-1)
    perm = radix_order(_np.argsort, "argsort")(flat, kind="stable")
    aux = flat[perm]
    mask = _np.empty(aux.shape, dtype=bool)
    mask[:1] = True
    mask[1:] = aux[1:] != aux[:-1]
    if equal_nan and aux.dtype.kind in "fc":
        mask[1:] &= ~_np.isnan(aux[:-1])
    ret = (aux[mask],)
    if return_index:
        ret += (perm[mask],)
    if return_inverse:
        inv = _np.empty(mask.shape, dtype=_np.intp)
        inv[perm] = _np.cumsum(mask) - 1
        ret += (inv.reshape(ar.shape),)
    if return_counts:
        ret += (_np.diff(_np.append(_np.nonzero(mask)[0], mask.size)),)
    return ret[0] if len(ret) == 1 else ret


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """CuPy's isin (in1d, cupy/_logic/truth.py): test_elements sorted (radix for 1-D floats:
    NaNs with the sign bit first), then each element's binary search (_exists_kernel,
    cupy/_sorting/search.py) with C's comparisons, which take a NaN as no smaller than any
    value: wherever one sorted first the search could stop short of a value it holds."""
    x, bins = _np.asarray(element), _np.asarray(test_elements).reshape(-1)
    if x.size == 0 or bins.size == 0:
        return _np.full(x.shape, invert, dtype=bool)
    bins = radix_order(_np.sort, "sort")(bins)
    n = bins.size
    flat = x.reshape(-1)
    with _np.errstate(invalid="ignore"):
        left, right = _np.zeros(flat.size, _np.int64), _np.full(flat.size, n - 1, _np.int64)
        while (left < right).any():
            m = left + (right - left) // 2
            go = (left < right) & (bins[m] < flat)  # (look right: bins[m] < x)
            stay = (left < right) & ~go
            left, right = _np.where(go, m + 1, left), _np.where(stay, m, right)
        found = (bins[right] == flat) & ~(flat > bins[n - 1])
    return (found != invert).reshape(x.shape)


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    """float32: the sum divided by N made a float32 first (_mean, cupy/_core/
    _routines_statistics.pyx: true_divide by a weak int; an ulp off NumPy's past 2**24)."""
    a = _np.asarray(a)
    if a.dtype != _np.float32 or dtype is not None or out is not None or not a.size:
        return _np.mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims)
    total = _np.asarray(_np.sum(a, axis=axis, keepdims=keepdims))
    return total / _np.float32(a.size // max(total.size, 1))


SCAN_INDEX_BITS = 32  # (tests make it small, with dltensor's parts, to reach the wrap)


def scan(fn):
    """cumsum/cumprod along an axis as CuPy 14.2's batch scan (_batch_scan_op,
    cupy/_core/_routines_math.pyx): lines padded to a power of two (or a multiple of its
    block of 512) and indexed by 32-bit unsigned ints, so where the padded elements pass
    2**32 the lines past the wrap are left as the input was, cast."""
    def f(a, axis=None, dtype=None, out=None):
        r = fn(a, axis=axis, dtype=dtype, out=out)
        a = _np.asarray(a)
        if axis is None or not a.size:
            return r
        n = a.shape[axis]
        pad = 1 << (n - 1).bit_length() if n <= 512 else -(-n // 512) * 512
        lines = a.size // n
        wrap = (1 << SCAN_INDEX_BITS) // pad  # (the first line past it)
        if lines <= wrap:
            return r
        r = _np.moveaxis(r, axis, -1).reshape(lines, n).copy()
        r[wrap:] = _np.moveaxis(a, axis, -1).reshape(lines, n)[wrap:]
        return _np.moveaxis(r.reshape(_np.moveaxis(a, axis, -1).shape), -1, axis)
    return f


REDUCTIONS = frozenset({"sum", "prod", "mean", "max", "min", "amax", "amin", "all", "any",
                        "count_nonzero", "var", "std"})


def reduction_axis(name, axis, shape):
    """``axis`` as CuPy 14.2's reductions read it (_get_axis, cupy/_core/_reduction.pyx): any
    sequence as a tuple of axes, any index (a bool too) as an int; var and std first index the
    shape with each (_var, cupy/_core/_routines_statistics.pyx: IndexError past it)."""
    if axis is None:
        return None
    if name in ("var", "std"):
        for ax in axis if isinstance(axis, tuple) else (axis,):
            shape[ax]
    if isinstance(axis, (list, tuple, _np.ndarray)):
        return tuple(int(operator.index(v)) for v in axis)
    return int(operator.index(axis))


TRI_INDEX_MAX = (1 << 31) - 1  # (tests make it small, with dltensor's, to reach the wrap)


def triangle(name):
    """tril/triu as CuPy 14.2's (cupy/_creation/matrix.py): a mask by a kernel of 'int32 m,
    int32 k' (OverflowError past them) computing ``int row = i / m`` and ``col <= row + k``,
    which wrap past TRI_INDEX_MAX."""
    def f(m, k=0):
        m = _np.asarray(m)
        rows, cols = m.shape[-2:]
        k = k if name == "tril" else k - 1
        n = TRI_INDEX_MAX + 1
        if not -n <= k < n or cols >= n:
            raise OverflowError("value too large to convert to int")

        def wrap(v):
            return (v + n) % (2 * n) - n
        mask = _np.arange(cols)[None, :] <= wrap(wrap(_np.arange(rows)[:, None]) + k)
        zero = m.dtype.type(0)
        return _np.where(mask, m, zero) if name == "tril" else _np.where(mask, zero, m)
    return f


MASK_COUNT_MAX = (1 << 31) - 1  # (tests make it small, with dltensor's, to reach it)


def count_lone_mask(parts):
    """CuPy 14.2 counts the selection of a key of one boolean array among slices in a C int
    (_getitem_mask_single and _scatter_op_mask_single's _prepare_mask_indexing_single,
    cupy/_core/_routines_indexing.pyx): OverflowError past MASK_COUNT_MAX."""
    masks = [k for k in parts if isinstance(k, _np.ndarray) and k.dtype == bool]
    if len(masks) == 1 and all(k is masks[0] or type(k) is slice or k is Ellipsis
                               for k in parts) and _np.count_nonzero(masks[0]) > MASK_COUNT_MAX:
        raise OverflowError("value too large to convert to int")


TAKE_INDEX_MAX = (1 << 31) - 1  # (tests make it small, with dltensor's, to reach the wrap)


def spoiled_gather(r, lead, count, rest):
    """``r``, a gather of ``count`` indices between ``lead`` and ``rest`` elements, as CuPy
    14.2's take kernel gives it (_take_kernel_core, cupy/_core/_routines_indexing.pyx): where
    count * rest passes its 32-bit index type and lead > 1, the blocks past the first read
    wrong elements (zeros here)."""
    if lead <= 1 or count * rest <= TAKE_INDEX_MAX or not r.size:
        return r
    r = _np.array(r, order="C")
    r.reshape(lead, -1)[1:] = 0
    return r


def repeat(a, repeats, axis=None):
    """CuPy's repeat of array counts along an axis: a take (_repeat_perelement), going wrong
    as its take does (spoiled_gather)."""
    r = _np.repeat(a, repeats, axis=axis)
    if axis is None or _np.ndim(repeats) == 0 or _np.size(repeats) == 1:
        return r
    a = _np.asarray(a)
    axis %= a.ndim
    return spoiled_gather(r, int(_np.prod(a.shape[:axis])), r.shape[axis],
                          int(_np.prod(a.shape[axis + 1:])))


def roll(a, shift, axis=None):
    """CuPy's roll (cupy/_manipulation/rearrange.py) adds the shifts as numpy.broadcast packs
    them, not as ints: one in [2**63, 2**64) a uint64 (float64 beside others), whose
    negation, a slice bound, wraps (ValueError: the slices' shapes differ); a float is no
    slice index (TypeError); int64 shifts of one axis add up in int64, which wraps."""
    if axis is None:
        return roll(_np.ravel(a), shift, 0).reshape(_np.shape(a))
    sums = {}
    for sh, ax in _np.broadcast(shift, axis):  # (the simulator's calls ignore its warnings)
        ax = normalize_axis_index(int(ax), _np.ndim(a))
        sums[ax] = sums.get(ax, 0) + sh
    for ax, offset in sums.items():
        offset %= _np.shape(a)[ax] or 1
        if offset and isinstance(offset, _np.floating):
            raise TypeError("slice indices must be integers or None or have an __index__ method")
        if offset and isinstance(offset, _np.unsignedinteger):
            raise ValueError("could not broadcast input array: the slices' shapes differ")
    return _np.roll(a, tuple(int(v) for v in sums.values()), tuple(sums))


def take(a, indices, axis=None, out=None):
    """CuPy's take wraps every index (i % n); a 0-d array is one element along any axis it
    takes (checked as of a 1-D one); its axis is a C int, so a Python bool is 0 or 1 there
    (NumPy's TypeError; a NumPy bool, a float or an array CuPy refuses too)."""
    if type(axis) is bool:
        axis = int(axis)
    if _np.ndim(a) == 0 and axis is not None:
        normalize_axis_index(axis, 1)  # (AxisError past it)
        a, axis = _np.reshape(a, (1,)), 0
    n = a.size if axis is None else a.shape[axis]
    if n:
        indices = _np.asarray(indices) % n
    r = _np.take(a, indices, axis=axis, out=out)
    if axis is None or out is not None:
        return r
    axis %= a.ndim
    return spoiled_gather(r, int(_np.prod(a.shape[:axis])), _np.size(indices),
                          int(_np.prod(a.shape[axis + 1:])))
