"""Random calls of every public function, operator and index form, each made on the CPU and on
a GPU and compared as tests/device_cases.py compares its cases: the same error class, or the
same dtypes, shapes, values and signed zeros, made on the GPU.

    python tests/device_sweep.py [--seed N] [--calls N] [--device cuda:1]

test_cudasim.py runs it on the CUDA simulator; on a GPU machine it runs against CuPy. It found
what the cases now hold (comparisons with ints past a dtype, clip's -0.0, setitem's order of
errors, take from no elements); the arguments are drawn so that most calls are valid. Where the
spec leaves a result open (eigenvectors' signs, which of two values written to one element
lands, ...), ALLOWED checks what it does fix and compares the rest.
"""

from __future__ import annotations

import argparse
import inspect
import operator
import random
import sys
import warnings
from typing import Any, Callable, Iterator

import numpy as np

import dltensor as dt
from device_cases import Case, Outcome, assert_same, outcome

nan = float("nan")
DATA = [  # arrays, drawn by index and made on each device from the same host data
    np.array([1.5, -2.0, 0.0, nan, -0.0, np.inf]),
    np.array([[1.0, 2.0, 3.0], [-4.0, 5.5, -0.0]], dtype=np.float32),
    np.array([3, -1, 0, 2]), np.array([[1, -2], [3, 4]], dtype=np.int8),
    np.array([0, 255, 3], dtype=np.uint8), np.array([True, False, True]),
    np.array([1 + 2j, -0j, complex(nan, 1), 3 - 1j]), np.array(2.5), np.array(3),
    np.zeros((0,)), np.zeros((0, 3)), np.array([[2.0, 1.0], [1.0, 3.0]]),
    np.arange(24.0).reshape(2, 3, 4), np.array([0, 1, 2, 1]), np.array([1.0, 2.0, 2.0, 5.0]),
    np.array([[1, 0, 2], [0, 3, 1]], dtype=np.int32),
]
SCALARS = [0, 1, -1, 2, 3, 1.5, -0.0, True, False, 300, nan, 1j,  # (300: past int8, uint8)
           2**70]  # (past int64 and uint64, which CuPy packs a Python int into)
KEYWORDS: dict[str, list[Any]] = {
    "axis": [None, 0, -1, 1, (0, 1), 5, (0,), ()], "keepdims": [True, False],
    "dtype": [None, dt.float32, dt.int64, dt.complex128, dt.bool, dt.uint8, dt.float64],
    "descending": [True, False], "stable": [True, False], "side": ["left", "right"],
    "copy": [None, True, False], "correction": [0, 1, 2.5], "include_initial": [True, False],
    "n": [1, 2, 0], "k": [0, 1, -1], "shift": [1, -2, (1, 2)], "repeats": [2, 0],
    "shape": [(4,), (2, 2), (-1,), (3, 1), ()], "decimals": [0, 1, -1],
    "min": [None, 0, 1.5, -1], "max": [None, 2, 0.5], "indexing": ["xy", "ij"],
    "num": [0, 1, 5], "endpoint": [True, False], "start": [0, 1], "stop": [5, -1],
    "step": [1, 2, -1], "fill_value": [0, 1.5, True, 1j], "offset": [0, 1, -1],
    "source": [0, -1], "destination": [1, 0], "axes": [((0,), (0,)), 1, 0, 2, (1, 0), (0, 1)],
    "ord": [None, 1, 2, -1, float("inf"), "fro", "nuc"], "s": [None, (4,), (-1,), (2, 3)],
    "norm": ["backward", "ortho", "forward"], "upper": [True, False], "rtol": [None, 1e-3],
    "full_matrices": [True, False], "mode": ["reduced", "complete"], "d": [1.0, 0.5],
}
ARRAY_KEYWORDS = ("x2", "indices", "min", "max", "prepend", "append")
SKIP = {"Array", "DType", "Device", "ndarray", "from_dlpack", "set_default_device",
        "get_default_device", "finfo", "iinfo", "can_cast", "result_type", "isdtype",
        "broadcast_shapes", "empty", "empty_like"}  # (no arrays, or no values to compare)
LISTS = {"concat", "stack", "broadcast_arrays", "meshgrid"}
OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor",
             "lshift", "rshift", "lt", "le", "eq", "ne", "gt", "ge", "matmul"]
KEYS = [0, -1, 5, slice(None, None, -1), (0, 0), (slice(1, None), None), Ellipsis, None,
        ("A", 13), ("A", 5), ("A", 2), (Ellipsis, 0), (0, ("A", 13)), ("A", 3),
        (Ellipsis, ("A", 5)), (slice(None), ("A", 5)), (("A", 5), Ellipsis), ([1, 0], Ellipsis),
        (Ellipsis, True), (0, False, Ellipsis), True]
Draw = tuple  # ("A", index into DATA) | ("S", scalar) | ("L", [draws]) | ("V", value)
#             | ("I", nested list, NumPy dtype name): an index array; else a key's tuple


def _tag(draw: Any) -> str | None:
    """A draw's kind, or None for a key's tuple (whose first index may be an int or a slice:
    comparing it with a kind's letter made every tuple key a TypeError on both devices)."""
    return draw[0] if isinstance(draw, tuple) and draw and type(draw[0]) is str else None


def _make(draw: Any, d: str) -> Any:
    tag = _tag(draw)
    if tag == "A":
        return dt.asarray(np.array(DATA[draw[1]]), device=d)
    if tag == "I":
        return dt.asarray(np.array(draw[1], dtype=draw[2]), device=d)
    if tag == "L":
        return [_make(e, d) for e in draw[1]]
    if tag in ("S", "V"):
        return draw[1]
    if isinstance(draw, tuple):  # an index key holding arrays
        return tuple(_make(e, d) if isinstance(e, tuple) else e for e in draw)
    return draw


def _operand(rng: random.Random) -> Draw:
    return ("A", rng.randrange(len(DATA))) if rng.random() < 0.8 else ("S", rng.choice(SCALARS))


def _functions() -> Iterator[tuple[str, Callable[..., Any], inspect.Signature]]:
    for prefix, module in (("", dt), ("linalg.", dt.linalg), ("fft.", dt.fft)):
        for name in sorted(dir(module)):
            fn = getattr(module, name)
            if name.startswith("_") or name in SKIP or not callable(fn) or \
                    isinstance(fn, type):
                continue
            try:
                yield prefix + name, fn, inspect.signature(fn)
            except (TypeError, ValueError):
                continue


def _function_call(rng: random.Random, name: str, fn: Callable[..., Any],
                   sig: inspect.Signature) -> Callable[[str], Any]:
    positional: list[Draw] = []
    keywords: dict[str, Draw] = {}
    for p in sig.parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            positional += [_operand(rng) for _ in range(rng.randrange(1, 4))]
        elif p.default is p.empty and p.kind != p.KEYWORD_ONLY:
            if name.split(".")[-1] in LISTS:
                positional.append(("L", [_operand(rng) for _ in range(rng.randrange(1, 4))]))
            elif KEYWORDS.get(p.name) and rng.random() < 0.7:
                positional.append(("V", rng.choice(KEYWORDS[p.name])))
            else:
                positional.append(_operand(rng))
        elif p.name != "device":
            if KEYWORDS.get(p.name) and rng.random() < 0.5:
                keywords[p.name] = ("V", rng.choice(KEYWORDS[p.name]))
            elif p.name in ARRAY_KEYWORDS and rng.random() < 0.3:
                keywords[p.name] = _operand(rng)
    on_device = "device" in sig.parameters

    def run(d: str) -> Any:
        kw = {k: _make(v, d) for k, v in keywords.items()}
        if on_device:
            kw["device"] = d
        return fn(*(_make(v, d) for v in positional), **kw)
    run.__doc__ = f"{name}(*{positional}, **{keywords})"
    run.draws = positional, keywords  # type: ignore[attr-defined]  (for ALLOWED, below)
    return run


def _operator_call(rng: random.Random) -> tuple[str, Callable[[str], Any]] | None:
    op = rng.choice(OPERATORS)
    x, y = _operand(rng), _operand(rng)
    if x[0] == "S" and y[0] == "S":
        return None
    inplace = x[0] == "A" and op not in ("lt", "le", "eq", "ne", "gt", "ge") and \
        rng.random() < 0.3
    f = getattr(operator, "i" + op.rstrip("_") if inplace else op)
    name = f.__name__

    def run(d: str) -> Any:
        return f(_make(x, d), _make(y, d))
    run.__doc__ = f"{name}({x}, {y})"
    run.draws = [x, y], {}  # type: ignore[attr-defined]
    return name, run


def _random_key(rng: random.Random, shape: tuple[int, ...]) -> Any:
    """A key for an array of ``shape``: ints, slices, None, an ellipsis, index arrays (of 1 or
    2 axes, now and then out of bounds), lists, masks (of 1 or 2 axes, now and then of
    another shape) and 0-d masks and bools, in any order."""
    key: list[Any] = []
    axis = 0
    for _ in range(rng.randint(1, len(shape) + 2)):
        side = shape[axis] if axis < len(shape) else 2
        kind = rng.choice(["int", "slice", "None", "...", "array", "list", "mask", "0-d"])
        if kind == "..." and Ellipsis not in key:
            key.append(Ellipsis)
        elif kind == "None":
            key.append(None)
        elif kind == "0-d":
            key.append(rng.choice([True, False, ("I", True, "bool")]))
        elif kind == "int":
            key.append(rng.randint(-side - 1, side))
            axis += 1
        elif kind == "slice":
            key.append(slice(rng.choice([None, 0, 1, -1]), rng.choice([None, 2, -1]),
                             rng.choice([None, 1, -1, 2])))
            axis += 1
        elif kind in ("array", "list"):
            hi = side - (rng.random() < 0.95)  # (now and then out of bounds)
            rows = rng.choice([None, 1, 2])
            n = rng.randint(0, 3)
            i = [rng.randint(-side, hi) if hi >= -side else 0 for _ in range(n * (rows or 1))]
            data = i if rows is None else [i[r * n:(r + 1) * n] for r in range(rows)]
            key.append(data if kind == "list" and rows is None else ("I", data, "int64"))
            axis += 1
        elif kind == "mask":
            two = rng.random() < 0.3 and axis + 1 < len(shape)
            sides = (side, shape[axis + 1]) if two else (side + (rng.random() < 0.05),)
            flat = [rng.random() < 0.5 for _ in range(int(np.prod(sides)))]
            key.append(("I", np.array(flat, dtype=bool).reshape(sides).tolist(), "bool"))
            axis += len(sides)
    return tuple(key)


def _index_call(rng: random.Random) -> tuple[str, Callable[[str], Any]]:
    x, key, value = ("A", rng.randrange(len(DATA))), rng.choice(KEYS), _operand(rng)
    if rng.random() < 0.6:  # (a key made for x's shape: the fixed ones mostly miss it)
        key = _random_key(rng, np.shape(DATA[x[1]]))
    setting = rng.random() < 0.4

    def run(d: str) -> Any:
        a = _make(x, d)
        if setting:
            a[_make(key, d)] = _make(value, d)
            return a
        return a[_make(key, d)]
    run.__doc__ = f"{x}[{key}]" + (f" = {value}" if setting else "")
    run.draws = x, key, value  # type: ignore[attr-defined]
    return ("setitem" if setting else "getitem"), run


def _draw(rng: random.Random, functions: list[tuple[str, Callable[..., Any], inspect.Signature]]
          ) -> tuple[str, Callable[[str], Any]] | None:
    r = rng.random()
    if r < 0.7:
        name, fn, sig = functions[rng.randrange(len(functions))]
        return name, _function_call(rng, name, fn, sig)
    if r < 0.85:
        return _operator_call(rng)
    return _index_call(rng)


# --- what the spec leaves open --------------------------------------------------------------------
# A call can be right on both devices and still differ where the array API leaves its result
# unspecified or implementation-defined (a run on an H200 with CuPy 14.2 found those below,
# none a fault of dltensor). ALLOWED names them: its function checks the GPU's answer for what
# the spec does fix (raising AssertionError where it is wrong) and gives back both answers
# with the free part made the CPU's, for assert_same to compare the rest as for any call.

def _host_draw(draw: Any) -> Any:
    """A draw as host data: what _make makes on a device, as NumPy arrays."""
    tag = _tag(draw)
    if tag == "A":
        return np.array(DATA[draw[1]])
    if tag == "I":
        return np.array(draw[1], dtype=draw[2])
    if tag in ("S", "V"):
        return draw[1]
    if tag == "L":
        return [_host_draw(e) for e in draw[1]]
    if isinstance(draw, tuple):
        return tuple(_host_draw(e) if isinstance(e, tuple) else e for e in draw)
    return draw


def _arrays(v: Any, n: int) -> list[Any] | None:
    """``v``'s ``n`` host arrays (dtype name, shape, values, device), or None if it is not."""
    def one(e: Any) -> bool:
        return isinstance(e, tuple) and len(e) == 4 and isinstance(e[2], np.ndarray)
    vs = [v] if one(v) else list(v) if isinstance(v, tuple) else []
    return vs if len(vs) == n and all(one(e) for e in vs) else None


def _with(v: tuple, values: np.ndarray) -> tuple:
    return (v[0], v[1], values, v[3])


def _mH(a: np.ndarray) -> np.ndarray:
    return np.conj(np.swapaxes(a, -1, -2))


def _close(got: np.ndarray, want: np.ndarray, scale: float, what: str) -> None:
    """Equal to rounding: 1000 ulps of ``scale`` (the decomposed matrix's largest element)."""
    tol = 1000 * float(np.finfo(got.dtype).eps) * max(1.0, scale)
    err = float(np.max(np.abs(got - want), initial=0.0))
    assert err <= tol, f"{what}: off by {err:.3g} (tolerance {tol:.3g})"


def _orthonormal(q: np.ndarray, what: str) -> None:
    eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    _close(_mH(q) @ q, eye, 1.0, f"{what}'s columns are not orthonormal")


def _scale(a: np.ndarray) -> float:
    return float(np.max(np.abs(a), initial=0.0))


def _factors(n: int, free: tuple[int, ...],
             check: Callable[[list[np.ndarray], list[np.ndarray]], None]) -> Callable:
    """A decomposition into ``n`` arrays, those at ``free`` not unique (each vector's sign or
    phase; a basis of a repeated eigenvalue's or a zero singular value's space): ``check(got,
    want)`` checks the GPU's factors as the spec defines them (what they are a decomposition
    of: the matrix the CPU's give back), and the CPU's free factors are then compared as the
    GPU's. The values (eigenvalues, singular values) stay compared as they are."""
    def allow(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
        w, g = _arrays(want, n), _arrays(got, n)
        if w is None or g is None or [e[:2] for e in w] != [e[:2] for e in g]:
            return want, got  # (assert_same says how they differ)
        check([e[2] for e in g], [e[2] for e in w])
        return want, tuple(_with(g[i], w[i][2]) if i in free else g[i] for i in range(n))
    return allow


def _eigh(g: list[np.ndarray], w: list[np.ndarray]) -> None:
    (gl, gv), (wl, wv) = g, w
    a = (wv * wl[..., None, :]) @ _mH(wv)
    _orthonormal(gv, "eigenvectors")
    _close((gv * gl[..., None, :]) @ _mH(gv), a, _scale(a), "V diag(w) V^H")


def _svd(g: list[np.ndarray], w: list[np.ndarray]) -> None:
    (gu, gs, gvh), (wu, ws, wvh) = g, w
    k = ws.shape[-1]  # (full_matrices: U's and Vh's vectors past k complete a basis)
    a = (wu[..., :, :k] * ws[..., None, :]) @ wvh[..., :k, :]
    _orthonormal(gu, "U")
    _orthonormal(_mH(gvh), "Vh^H")
    _close((gu[..., :, :k] * gs[..., None, :]) @ gvh[..., :k, :], a, _scale(a), "U diag(S) Vh")


def _qr(g: list[np.ndarray], w: list[np.ndarray]) -> None:
    (gq, gr), (wq, wr) = g, w
    a = wq @ wr
    _orthonormal(gq, "Q")
    _close(np.tril(gr, -1), np.zeros_like(gr), _scale(a), "R below its diagonal")
    _close(gq @ gr, a, _scale(a), "Q R")


def _by_eigenvalue(lam: np.ndarray) -> np.ndarray:
    """The order of each stack's eigenvalues by real, then imaginary part (rounded, so that
    values equal but for rounding take the same place on both devices)."""
    key = np.round(lam, 6)
    return np.lexsort((key.imag, key.real), axis=-1)


def _eig(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """eig's and eigvals': the eigenvalues in any order, eigenvectors of any phase."""
    n = 2 if _arrays(want, 1) is None else 1
    w, g = _arrays(want, n), _arrays(got, n)
    if w is None or g is None or [e[:2] for e in w] != [e[:2] for e in g] or not w[0][2].size:
        return want, got
    (wl, gl), wi, gi = (w[0][2], g[0][2]), _by_eigenvalue(w[0][2]), _by_eigenvalue(g[0][2])
    wl, gl = np.take_along_axis(wl, wi, -1), np.take_along_axis(gl, gi, -1)
    if n == 1:
        return _with(w[0], wl), _with(g[0], gl)
    wv = np.take_along_axis(w[1][2], wi[..., None, :], -1)
    gv = np.take_along_axis(g[1][2], gi[..., None, :], -1)
    a = (wv * wl[..., None, :]) @ np.linalg.pinv(wv)  # (NumPy's eigenvectors: of norm 1)
    _close(np.linalg.norm(gv, axis=-2), np.ones(gl.shape), 1.0, "eigenvectors' norms")
    _close(a @ gv, gv * gl[..., None, :], _scale(a), "A V - V diag(w)")
    return (_with(w[0], wl), w[1]), (_with(g[0], gl), _with(g[1], w[1][2]))


def _setitem(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """An element an integer index array names twice holds one of the values written there."""
    x, key, value = (_host_draw(d) for d in draws)
    w, g = _arrays(want, 1), _arrays(got, 1)
    if w is None or g is None or w[0][:2] != g[0][:2] or np.ndim(x) == 0:
        return want, got
    positions = np.arange(np.size(x)).reshape(np.shape(x))[key]  # where each value goes
    written = np.bincount(positions.ravel(), minlength=np.size(x))
    if not (written > 1).any():
        return want, got
    values = np.broadcast_to(np.asarray(value), positions.shape)
    wv, gv = w[0][2], g[0][2].copy()
    for p in np.flatnonzero(written > 1):
        candidates = np.asarray(values[positions == p]).astype(wv.dtype)
        here = gv.reshape(-1)[p]
        assert (candidates == here).any() or (np.isnan(here) & np.isnan(candidates)).any(), \
            f"element {p} holds {here!r}, none of the values written there: {candidates}"
        gv.reshape(-1)[p] = wv.reshape(-1)[p]
    return want, _with(g[0], gv)


def _zero_signs(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """maximum's and minimum's zero of either sign where the operands are zeros of both."""
    w, g = _arrays(want, 1), _arrays(got, 1)
    if w is None or g is None or w[0][:2] != g[0][:2] or w[0][2].dtype.kind != "f":
        return want, got
    # (as floats: a Python int past int64 is an object array to NumPy, and has no -0)
    a, b = (np.asarray(_host_draw(x)).astype(np.float64) for x in draws[0])
    either = (a == 0) & (b == 0) & (np.signbit(a) != np.signbit(b))
    either = np.broadcast_to(either, w[0][2].shape) & (g[0][2] == 0)
    return want, _with(g[0], np.where(either, w[0][2], g[0][2]))


def _sorted(a: np.ndarray) -> bool:
    """Sorted as sort sorts: ascending, NaNs last."""
    nan = np.isnan(a) if a.dtype.kind in "fc" else np.zeros(a.shape, bool)
    k = int((~nan).sum())
    return not nan[:k].any() and bool(np.all(a[:k][:-1] <= a[:k][1:]))


def _searchsorted(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """searchsorted into an x1 not sorted: any indices, of the dtype and shape the spec says."""
    x1 = np.asarray(_host_draw(draws[0][0]))
    w, g = _arrays(want, 1), _arrays(got, 1)
    if w is None or g is None or x1.ndim != 1 or _sorted(x1):
        return want, got
    return want, _with(g[0], w[0][2])


def _complex_pow(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """A complex power's exact zero (the real part of 1j ** 2) may come out as a rounding
    error of either sign (CuPy: exp(y log x)): the sign of such a zero is not compared; nor
    which infinities and NaNs make a result that is not finite on both devices ((-0j) ** -1:
    NumPy's NaN + NaN j, CuPy's inf + NaN j; the spec asks only "as if exp(y log x)"). The
    other values are compared, as for any call."""
    w, g = _arrays(want, 1), _arrays(got, 1)
    if w is None or g is None or w[0][:2] != g[0][:2] or w[0][2].dtype.kind != "c":
        return want, got
    wv, gv = w[0][2], g[0][2].copy()
    near = np.abs(gv - wv) <= 1e-12 + 1e-6 * np.abs(wv)  # (as assert_same compares values)
    fix = (wv.real == 0) & near
    gv.real[fix] = wv.real[fix]
    unbounded = ~np.isfinite(wv) & ~np.isfinite(gv)
    gv[unbounded] = wv[unbounded]
    return want, _with(g[0], gv)


def _transform_of_non_finite(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """An FFT of values holding a NaN or an infinity: which parts of its non-finite results
    are NaN (an H200, CuPy 14.2: cuFFT multiplies by twiddle factors where NumPy's pocketfft
    adds and subtracts, so NaN + 1j times -1j is NaN + NaN j on the GPU, -1 - NaN j... on the
    CPU, and a sum with it NaN in one part or both). An element not finite on both devices is
    taken as the same; one finite on either is compared, as for any call."""
    w, g = _arrays(want, 1), _arrays(got, 1)
    if w is None or g is None or w[0][:2] != g[0][:2] or \
            np.isfinite(np.asarray(_host_draw(draws[0][0]))).all():
        return want, got
    wv, gv = w[0][2], g[0][2].copy()
    unbounded = ~np.isfinite(wv) & ~np.isfinite(gv)
    gv[unbounded] = wv[unbounded]
    return want, _with(g[0], gv)


def _cast_past_the_dtype(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """A float cast to an integer dtype that cannot hold it: NaN and infinities (the spec:
    "not specified and implementation-dependent"), and values past the dtype's range (C's
    undefined behaviour, which NumPy keeps): on an H200 the GPU saturates (inf to int64 is
    2**63 - 1) where the CPU gives -2**63. Those elements are taken as the same."""
    w, g = _arrays(want, 1), _arrays(got, 1)
    x = np.asarray(_host_draw(draws[0][0])) if draws[0] else None
    if w is None or g is None or w[0][:2] != g[0][:2] or x is None or \
            x.dtype.kind not in "fc" or w[0][2].dtype.kind not in "iu" or x.shape != w[0][1]:
        return want, got
    past = _past(x, w[0][2].dtype)
    gv = g[0][2].copy()
    gv[past] = w[0][2][past]
    return want, _with(g[0], gv)


def _past(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Where float array ``x``'s values cast to integer ``dtype`` are not defined."""
    info = np.iinfo(dtype)
    with np.errstate(invalid="ignore"):
        t = np.trunc(x.real)
        past: np.ndarray = ~np.isfinite(t) | (t < info.min) | (t > info.max)
    return past


def _sum_of_a_cast_past_the_dtype(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """A sum or product of floats in an integer dtype (the spec: cast first) holding one the
    dtype cannot hold (see _cast_past_the_dtype): its values are not compared (an H200 summed
    -4.0 as uint8 0, the CPU as 252)."""
    w, g = _arrays(want, 1), _arrays(got, 1)
    x = np.asarray(_host_draw(draws[0][0])) if draws[0] else None
    if w is None or g is None or w[0][:2] != g[0][:2] or x is None or \
            x.dtype.kind not in "fc" or w[0][2].dtype.kind not in "iu" or \
            not _past(x, w[0][2].dtype).any():
        return want, got
    return want, _with(g[0], w[0][2])


def _zeros_let_through(want: Any, got: Any, let: Callable[[Any, Any], Any]
                       ) -> tuple[Any, Any]:
    """``got`` with its zeros (of either part) made ``want``'s where both are zero and
    ``let(want's part, got's part)`` says so."""
    w, g = _arrays(want, 1), _arrays(got, 1)
    if w is None or g is None or w[0][:2] != g[0][:2] or w[0][2].dtype.kind not in "fc":
        return want, got
    wv, gv = w[0][2], g[0][2].copy()
    for wp, gp in ((wv.real, gv.real), (wv.imag, gv.imag)) if wv.dtype.kind == "c" else \
            ((wv, gv),):
        both = (wp == 0) & (gp == 0) & let(wp, gp)
        gp[both] = wp[both]
    return want, _with(g[0], gv)


def _zero_signs_of_products(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """The sign of a zero (of either part) made by a sum of products: NumPy's BLAS starts its
    sums at +0, so tensordot(-0.0, 1.0, axes=0) is 0.0 there and -0.0 on an H200 (CuPy
    multiplies). Where both devices give a zero, its sign is not compared."""
    return _zeros_let_through(want, got, lambda w, g: True)


def _zero_signs_of_sums(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """Not the spec's leave but CuPy's shortfall: the spec's sum is successive adds, so a sum
    of -0.0s is -0.0, as the CPU's (NumPy's, started from -0.0); CuPy's sums start from +0.0
    and take no initial value. A +0.0 on the GPU where the CPU says -0.0 is let through."""
    return _zeros_let_through(want, got, lambda w, g: np.signbit(w) & ~np.signbit(g))


def _sum_allowances(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    return _zero_signs_of_sums(draws, *_sum_of_a_cast_past_the_dtype(draws, want, got))


def _special_complex_products(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    """CuPy's shortfall too: the spec's prod is successive multiplies, as the CPU's complex
    products are made; CuPy's start from 1+0j, whose product with z is not z where a part of
    z is infinite, NaN or zero. Where the CPU's product has such a part, the GPU's is let
    through."""
    w, g = _arrays(want, 1), _arrays(got, 1)
    if w is None or g is None or w[0][:2] != g[0][:2] or w[0][2].dtype.kind != "c":
        return want, got
    wv = w[0][2]
    special = ~np.isfinite(wv.real) | ~np.isfinite(wv.imag) | (wv.real == 0) | (wv.imag == 0)
    return want, _with(g[0], np.where(special, wv, g[0][2]))


def _prod_allowances(draws: Any, want: Any, got: Any) -> tuple[Any, Any]:
    return _special_complex_products(draws, *_sum_of_a_cast_past_the_dtype(draws, want, got))


_FFTS = ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft")
# name: (what the spec leaves open, the allowance)
ALLOWED: dict[str, tuple[str, Callable[[Any, Any, Any], tuple[Any, Any]]]] = {
    # (eigh's and eigvalsh's eigenvalues stay compared in order: dltensor says ascending)
    "linalg.eigh": ("each eigenvector's sign (phase), a repeated eigenvalue's basis",
                    _factors(2, (1,), _eigh)),
    "linalg.svd": ("each singular vector pair's sign (phase), a repeated or zero singular "
                   "value's basis", _factors(3, (0, 2), _svd)),
    "linalg.qr": ("the sign (phase) of each column of Q and row of R", _factors(2, (0, 1), _qr)),
    "linalg.eig": ("the eigenvalues' order, each eigenvector's phase", _eig),
    "linalg.eigvals": ("the eigenvalues' order", _eig),
    "setitem": ("which value lands where an index array names an element twice", _setitem),
    "maximum": ("the sign of the zero from zeros of both signs", _zero_signs),
    "minimum": ("the sign of the zero from zeros of both signs", _zero_signs),
    "searchsorted": ("the result for an x1 that is not sorted", _searchsorted),
    "pow": ("complex pow's accuracy: a zero's sign, non-finite results", _complex_pow),
    "ipow": ("complex pow's accuracy: a zero's sign, non-finite results", _complex_pow),
    "asarray": ("casts of floats an integer dtype cannot hold", _cast_past_the_dtype),
    "astype": ("casts of floats an integer dtype cannot hold", _cast_past_the_dtype),
    **{f"fft.{name}": ("which parts of a transform of non-finite values are NaN",
                       _transform_of_non_finite) for name in _FFTS},
    **{name: ("sums and products of floats cast to an integer dtype that cannot hold them",
              _sum_of_a_cast_past_the_dtype)
       for name in ("cumulative_sum", "cumulative_prod")},
    "prod": ("products of floats cast to an integer dtype that cannot hold them; CuPy's "
             "complex products of special values, from 1+0j", _prod_allowances),
    "sum": ("sums and products of floats cast to an integer dtype that cannot hold them; "
            "CuPy's +0.0 for a sum of -0.0s", _sum_allowances),
    "linalg.trace": ("CuPy's +0.0 for a sum of -0.0s", _zero_signs_of_sums),
    **{name: ("the sign of a zero made by a sum of products", _zero_signs_of_products)
       for name in ("tensordot", "linalg.tensordot", "vecdot", "linalg.vecdot", "matmul",
                    "linalg.matmul", "imatmul")},
}


def _allowed(case: Case, want: Outcome, got: Outcome) -> tuple[Outcome, Outcome]:
    w, g = ALLOWED[case.id][1](case.run.draws, want.value, got.value)  # type: ignore[attr-defined]
    return want._replace(value=w), got._replace(value=g)


def sweep(seed: int, calls: int, device: str, found: list[str] | None = None,
          echo: bool = False) -> list[str]:
    """The differences found in ``calls`` random calls: one line each, added to ``found`` (a
    sweep cut short keeps what it found there) and printed as found if ``echo``."""
    rng = random.Random(seed)
    functions = list(_functions())
    found = [] if found is None else found
    for i in range(calls):
        # Random arguments make most calls errors (an int to exp, shapes that do not
        # broadcast): a call the CPU refuses is drawn again, up to 4 times, 3 times in 4, so
        # that most calls compare values and some still compare errors.
        case = None
        try:
            for attempt in range(5):
                drawn = _draw(rng, functions)
                if drawn is not None:
                    case = Case(drawn[0], drawn[1])
                    want = outcome(case, "cpu")
                    if want.raised is None or attempt == 4 or rng.random() < 0.25:
                        break
            if case is None:
                continue
            if want.raised is None and any(
                    isinstance(v, tuple) and len(v) == 4 and getattr(v[2], "size", 0) > 10**6
                    for v in (want.value if isinstance(want.value, tuple) else ())):
                continue  # (a broadcast view too large to move to the host for comparing)
            got = outcome(case, device)
            if case.id in ALLOWED and want.raised is None and got.raised is None:
                want, got = _allowed(case, want, got)
            assert_same(case, want, got, device)
        except Exception as e:  # AssertionError: a difference; any other: a finding too
            found.append(f"{case.id}: {case.run.__doc__}: {type(e).__name__}: {e}"[:600])
            if echo:
                print(found[-1], flush=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--device", default="cuda:0")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    found: list[str] = []
    print(f"sweeping: {args.calls} calls on cpu and {args.device}", flush=True)
    interrupted = False
    try:
        sweep(args.seed, args.calls, args.device, found, echo=True)
    except KeyboardInterrupt:  # (.ci/gpu's deadline): the count of what was found so far
        interrupted = True
    print(f"{'interrupted: up to ' if interrupted else ''}{args.calls} calls on cpu and "
          f"{args.device}, seed {args.seed}: {len(found)} differences")
    return 1 if found or interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
