"""Per-call overhead of array API calls: dltensor vs array-api-compat vs array-api-strict.

Each call is timed on every library with the SAME statement (``ns`` bound to the library's
namespace, ``x``/``y``/... to its arrays); raw NumPy on NumPy arrays is the floor, so a library's
overhead is its time minus NumPy's. Every result is checked against NumPy's once, so a fast but
wrong call shows up as "wrong result" instead of a good number.
"""

from __future__ import annotations

import importlib
import math

import numpy as np

from ._timing import Settings, reason, time_many

SIZES = (10, 10**3, 10**6)
LIBRARIES = ("numpy", "dltensor", "array_api_compat.numpy", "array_api_strict")
# NumPy timed a second time as if it were another library: how far apart two measurements of
# the very same call land in this run is the noise floor every ratio should be read against.
AGAIN = "numpy (again)"
OVERHEAD_FLOOR_S = 1e-8  # an overhead below timing noise counts as 10 ns (keeps ratios finite)

# (call, statement): one table row per call.
CALLS = [
    ("x + y", "x + y"),
    ("exp(x)", "ns.exp(x)"),
    ("sum(x)", "ns.sum(x)"),
    ("x < y", "x < y"),
    ("x[1:5]", "x[1:5]"),
    ("x[int_index_array]", "x[idx]"),
    ("reshape(x, (2, -1))", "ns.reshape(x, (2, -1))"),
    ("matmul (2-D, sqrt(n) square)", "ns.matmul(A, B)"),
    ("zeros(n)", "ns.zeros(n, dtype=ns.float32)"),
    ("asarray(x)", "ns.asarray(x)"),
    ("mean(x)", "ns.mean(x)"),
    ("where(c, x, y)", "ns.where(c, x, y)"),
]


def _numpy_inputs(n: int) -> dict:
    rng = np.random.default_rng(0)
    k = max(1, math.isqrt(n))
    return {"n": n, "x": rng.random(n, np.float32), "y": rng.random(n, np.float32),
            "c": rng.random(n) < 0.5, "idx": rng.integers(0, n, n),
            "A": rng.random((k, k), np.float32), "B": rng.random((k, k), np.float32)}


def _namespaces() -> tuple[dict, dict]:
    found, missing = {}, {}
    for lib in LIBRARIES:
        try:
            found[lib] = importlib.import_module(lib)
        except Exception as e:
            missing[lib] = reason(e)
    found[AGAIN] = np
    return found, missing


def _convert(lib: str, mod, a: np.ndarray):
    if lib == "dltensor":
        return mod.asarray(a)
    if lib == "array_api_strict":
        return mod.asarray(a)
    return a


def _to_numpy(r) -> np.ndarray:
    try:
        return np.from_dlpack(r)
    except Exception:
        return np.asarray(r)


def _check(result, expected) -> str | None:
    """None when ``result`` matches NumPy's ``expected``, else what is wrong."""
    got = _to_numpy(result)
    exp = np.asarray(expected)
    if got.shape != exp.shape:
        return f"wrong result: shape {got.shape}, NumPy gives {exp.shape}"
    if got.dtype != exp.dtype and not (exp.dtype.kind == got.dtype.kind == "f"):
        return f"wrong result: dtype {got.dtype}, NumPy gives {exp.dtype}"
    if not np.allclose(got, exp, rtol=1e-4, atol=1e-5 * max(1.0, float(np.abs(exp).max(
            initial=0)))):
        return "wrong result: values differ from NumPy's"
    return None


def run(settings: Settings, sizes=SIZES, log=print) -> dict:
    """``{"times": {size: {call: {lib: seconds or None}}}, "errors": {...}, "missing": ...}``."""
    mods, missing = _namespaces()
    times, errors = {}, {}
    for n in sizes:
        log(f"  array API calls at {n:.0e} elements ...")
        base = _numpy_inputs(n)
        envs = {lib: {"ns": mod, **{k: _convert(lib, mod, v) if isinstance(v, np.ndarray)
                                   else v for k, v in base.items()}}
                for lib, mod in mods.items() if _convertible(lib, mod, errors, n)}
        times[n] = {}
        todo = {}
        for call, stmt in CALLS:
            times[n][call] = row = {}
            try:
                expected = eval(stmt, dict(envs["numpy"]))
            except Exception as e:  # pragma: no cover - NumPy is the reference
                errors[(n, call, "numpy")] = reason(e)
                continue
            for lib, env in envs.items():
                try:
                    problem = _check(eval(stmt, env), expected)
                except Exception as e:
                    problem = reason(e)
                row[lib] = None
                if problem:
                    errors[(n, call, lib)] = problem
                else:
                    todo[call, lib] = (stmt, env)
        for (call, lib), t in time_many(todo, settings).items():
            times[n][call][lib] = t
    return {"sizes": list(sizes), "times": times, "missing": missing,
            "errors": {f"{n}|{call}|{lib}": e for (n, call, lib), e in errors.items()}}


def _convertible(lib, mod, errors, n) -> bool:
    try:
        _convert(lib, mod, np.zeros(2, np.float32))
        return True
    except Exception as e:
        errors[(n, "asarray", lib)] = reason(e)
        return False


def overhead(result: dict, n: int, call: str, lib: str) -> float | None:
    """Seconds ``lib`` adds to raw NumPy's time for ``call`` (floored at 10 ns)."""
    row = result["times"][n][call]
    t, base = row.get(lib), row.get("numpy")
    if t is None or base is None:
        return None
    return max(t - base, OVERHEAD_FLOOR_S)


def scales(result: dict, call: str) -> bool:
    """Whether ``call``'s work grows with the array (NumPy needs >= 10 us at the largest size);
    O(1) calls such as slicing never amortize a per-call overhead, so a time ratio says nothing."""
    t = result["times"][max(result["sizes"])][call].get("numpy")
    return t is not None and t >= 1e-5


def time_ratio(result: dict, n: int, call: str, lib: str) -> float | None:
    row = result["times"][n][call]
    t, base = row.get(lib), row.get("numpy")
    return None if t is None or base is None else t / base


def error(result: dict, n: int, call: str, lib: str) -> str | None:
    return result["errors"].get(f"{n}|{call}|{lib}")
