"""Time over NumPy's of the commonest call of each kind of the namespace, on small arrays.

``ops.py`` follows twelve calls across sizes and libraries against the project's targets; this
section is the wide view: some eighty calls (creation, element-wise functions and operators,
index reads and writes, manipulation, searching, sorting, sets, statistics, linear algebra,
FFTs, dtype functions) on 10 elements or 4x4 matrices, where a per-call overhead shows most.
Each row runs the SAME statement with ``ns`` bound to NumPy or to dltensor and the inputs as
NumPy's or dltensor's arrays; its result is checked against NumPy's once (a wrong one is
reported, not timed). No targets: it shows where the time over NumPy's still is, run against
run (the rows are the same), so that a slower path is seen the day it appears.
"""

from __future__ import annotations

import numpy as np

from ._timing import Settings, reason, time_many

LIBRARIES = ("numpy", "dltensor")

# (row, statement, what to check after it: an expression, or None for the statement's value)
CALLS: list[tuple[str, str, str | None]] = [
    # creation
    ("asarray(list of 10 floats)", "ns.asarray(L)", None),
    ("asarray(array)", "ns.asarray(x)", None),
    ("zeros(10)", "ns.zeros(10)", None),
    ("full((4,), 1.5)", "ns.full((4,), 1.5)", None),
    ("arange(10)", "ns.arange(10)", None),
    ("linspace(0, 1, 10)", "ns.linspace(0, 1, 10)", None),
    ("eye(4)", "ns.eye(4)", None),
    ("zeros_like(x)", "ns.zeros_like(x)", None),
    ("tril(A)", "ns.tril(A)", None),
    ("meshgrid(x, y)", "ns.meshgrid(x, y)", None),
    # element-wise functions and operators
    ("x + y", "x + y", None),
    ("x * 2.0", "x * 2.0", None),
    ("x / y", "x / y", None),
    ("x // y", "x // y", None),
    ("x ** 2", "x ** 2", None),
    ("x ** y", "x ** y", None),
    ("-x", "-x", None),
    ("abs(x)", "abs(x)", None),
    ("x < y", "x < y", None),
    ("x == y", "x == y", None),
    ("c & d", "c & d", None),
    ("exp(x)", "ns.exp(x)", None),
    ("sqrt(x)", "ns.sqrt(x)", None),
    ("sin(x)", "ns.sin(x)", None),
    ("log(x)", "ns.log(x)", None),
    ("maximum(x, y)", "ns.maximum(x, y)", None),
    ("isnan(x)", "ns.isnan(x)", None),
    ("round(x)", "ns.round(x)", None),
    ("sign(x)", "ns.sign(x)", None),
    ("clip(x, 0.2, 0.8)", "ns.clip(x, 0.2, 0.8)", None),
    ("where(c, x, y)", "ns.where(c, x, y)", None),
    ("x += y", "x.__iadd__(y)", "x"),  # (a method call: timeit runs it in a function)
    # indexing
    ("x[1:5]", "x[1:5]", None),
    ("x[3]", "x[3]", None),
    ("A[1, 2]", "A[1, 2]", None),
    ("A[:, 1]", "A[:, 1]", None),
    ("x[idx]", "x[idx]", None),
    ("x[c]", "x[c]", None),
    ("x[None, :]", "x[None, :]", None),
    ("x[3] = 0.5", "x[3] = 0.5", "x"),
    ("A[1, :] = y4", "A[1, :] = y4", "A"),
    ("x[c] = 0.5", "x[c] = 0.5", "x"),
    ("A.mT", "A.mT", None),
    # manipulation
    ("reshape(x, (2, 5))", "ns.reshape(x, (2, 5))", None),
    ("concat((x, y))", "ns.concat((x, y))", None),
    ("stack((x, y))", "ns.stack((x, y))", None),
    ("expand_dims(x, axis=0)", "ns.expand_dims(x, axis=0)", None),
    ("squeeze(X1, axis=0)", "ns.squeeze(X1, axis=0)", None),
    ("permute_dims(A, (1, 0))", "ns.permute_dims(A, (1, 0))", None),
    ("flip(x)", "ns.flip(x)", None),
    ("roll(x, 2)", "ns.roll(x, 2)", None),
    ("broadcast_to(y4, (4, 4))", "ns.broadcast_to(y4, (4, 4))", None),
    ("tile(y4, (2,))", "ns.tile(y4, (2,))", None),
    ("repeat(y4, 2)", "ns.repeat(y4, 2)", None),
    # searching, sorting, sets
    ("argmax(x)", "ns.argmax(x)", None),
    ("nonzero(c)", "ns.nonzero(c)", None),
    ("count_nonzero(c)", "ns.count_nonzero(c)", None),
    ("searchsorted(s, x)", "ns.searchsorted(s, x)", None),
    ("sort(x)", "ns.sort(x)", None),
    ("argsort(x)", "ns.argsort(x)", None),
    ("unique_values(x)", "ns.unique_values(x)", None),
    ("unique_counts(x)", "ns.unique_counts(x)", None),
    ("isin(x, y)", "ns.isin(x, y)", None),
    # statistics and utilities
    ("sum(x)", "ns.sum(x)", None),
    ("mean(x)", "ns.mean(x)", None),
    ("max(x)", "ns.max(x)", None),
    ("std(x)", "ns.std(x)", None),
    ("cumulative_sum(x)", "ns.cumulative_sum(x)", None),
    ("any(c)", "ns.any(c)", None),
    ("diff(x)", "ns.diff(x)", None),
    # linear algebra
    ("A @ B", "A @ B", None),
    ("tensordot(A, B, axes=1)", "ns.tensordot(A, B, axes=1)", None),
    ("vecdot(x, y)", "ns.vecdot(x, y)", None),
    ("linalg.inv(A)", "ns.linalg.inv(A)", None),
    ("linalg.det(A)", "ns.linalg.det(A)", None),
    ("linalg.solve(A, B)", "ns.linalg.solve(A, B)", None),
    ("linalg.svd(A)", "ns.linalg.svd(A)", None),
    ("linalg.vector_norm(x)", "ns.linalg.vector_norm(x)", None),
    ("linalg.matrix_norm(A)", "ns.linalg.matrix_norm(A)", None),
    # FFTs
    ("fft.fft(z)", "ns.fft.fft(z)", None),
    ("fft.rfft(x)", "ns.fft.rfft(x)", None),
    ("fft.fftshift(x)", "ns.fft.fftshift(x)", None),
    # dtypes and hand-offs
    ("astype(x, float32)", "ns.astype(x, ns.float32)", None),
    ("from_dlpack(x)", "ns.from_dlpack(x)", None),
]


def _inputs() -> dict:
    rng = np.random.default_rng(0)
    x, y = rng.random(10) + 0.1, rng.random(10) + 0.1
    return {"x": x, "y": y, "c": x > 0.5, "d": y > 0.5, "idx": rng.integers(0, 10, 4),
            "s": np.sort(rng.random(10)), "A": rng.random((4, 4)) + 4 * np.eye(4),
            "B": rng.random((4, 4)), "y4": rng.random(4), "X1": x.reshape(1, 10),
            "z": x + 1j * y, "L": x.tolist()}


def _env(lib: str, mod) -> dict:
    """Fresh inputs for ``lib``: NumPy's arrays, or dltensor's over copies of them."""
    env = {"ns": mod}
    for k, v in _inputs().items():
        env[k] = mod.asarray(v) if lib != "numpy" and isinstance(v, np.ndarray) else v
    return env


def _outcome(lib: str, mod, stmt: str, check: str | None):
    env = _env(lib, mod)
    if check is None:
        return eval(stmt, env)
    exec(stmt, env)
    return eval(check, env)


def _same(got, want) -> str | None:
    """None when ``got`` (a library's result) holds NumPy's values, else what differs."""
    if isinstance(want, tuple):  # (svd, meshgrid, nonzero, unique_counts)
        if not isinstance(got, tuple) or len(got) != len(want):
            return "wrong result: not the tuple NumPy gives"
        return next((p for p in map(_same, got, want) if p), None)
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape or g.dtype != w.dtype:
        return f"wrong result: {g.dtype}{list(g.shape)}, NumPy gives {w.dtype}{list(w.shape)}"
    if not np.allclose(g, w, rtol=1e-12, atol=1e-12, equal_nan=True):
        return "wrong result: values differ from NumPy's"
    return None


def run(settings: Settings, log=print) -> dict:
    """``{"times": {row: {lib: seconds or None}}, "errors": {"row|lib": reason}}``."""
    import dltensor
    mods = {"numpy": np, "dltensor": dltensor}
    log(f"  {len(CALLS)} calls on small arrays, NumPy and dltensor ...")
    times: dict[str, dict[str, float | None]] = {}
    errors: dict[str, str] = {}
    todo = {}
    for row, stmt, check in CALLS:
        times[row] = dict.fromkeys(LIBRARIES)
        try:
            want = _outcome("numpy", np, stmt, check)
        except Exception as e:  # (a NumPy without the call: the row is skipped)
            errors[f"{row}|numpy"] = reason(e)
            continue
        for lib, mod in mods.items():
            try:
                problem = _same(_outcome(lib, mod, stmt, check), want)
            except Exception as e:
                problem = reason(e)
            if problem:
                errors[f"{row}|{lib}"] = problem
            else:
                todo[row, lib] = (stmt, _env(lib, mod))
    for (row, lib), t in time_many(todo, settings).items():
        times[row][lib] = t
    return {"times": times, "errors": errors}


def ratios(result: dict) -> dict[str, float]:
    """``{row: dltensor's time / NumPy's}`` for the rows measured on both."""
    return {row: t["dltensor"] / t["numpy"] for row, t in result["times"].items()
            if t.get("dltensor") and t.get("numpy")}
