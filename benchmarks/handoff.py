"""Hand-off latency into and out of dltensor, against peers measured in the same run.

Every row hands one existing array over once (the statement in ``ROWS``); the result is dropped
inside the timed loop, so the consumer's release (the DLPack deleter) is timed too. Source arrays
are 64-byte aligned so that JAX, which copies less-aligned CPU memory, can share it as well.
"""

from __future__ import annotations

import importlib

import numpy as np

from ._timing import Settings, reason, time_many

SIZES = (10, 10**3, 10**5, 10**6, 10**8)
COPY_LIMIT = 10**6  # paths that copy are timed only up to this size (a 1e8 copy takes ~0.1 s)

# (row, statement, frameworks it needs, peer row its time is compared with, known to copy).
# Inputs: a = numpy, t = torch, j = jax (all over the same memory), x = dltensor.asarray(a).
ROWS = [
    ("dltensor.asarray(numpy)", "dlt.asarray(a)", ("numpy",), "torch.from_dlpack(numpy)", False),
    ("np.from_dlpack(dltensor)", "np.from_dlpack(x)", ("numpy",), "np.from_dlpack(numpy)", False),
    ("torch.from_dlpack(dltensor)", "torch.from_dlpack(x)", ("torch",), "torch.from_dlpack(numpy)",
     False),
    ("dltensor.asarray(torch)", "dlt.asarray(t)", ("torch",), "np.from_dlpack(torch)", False),
    ("dltensor.asarray(jax)", "dlt.asarray(j)", ("jax",), "np.from_dlpack(jax)", False),
    ("jnp.from_dlpack(dltensor)", "jnp.from_dlpack(x)", ("jax",), "jnp.from_dlpack(numpy)", False),
    # peers
    ("np.from_dlpack(numpy)", "np.from_dlpack(a)", ("numpy",), None, False),
    ("torch.from_dlpack(numpy)", "torch.from_dlpack(a)", ("torch",), None, False),
    ("np.from_dlpack(torch)", "np.from_dlpack(t)", ("torch",), None, False),
    ("np.from_dlpack(jax)", "np.from_dlpack(j)", ("jax",), None, False),
    ("jnp.from_dlpack(numpy)", "jnp.from_dlpack(a)", ("jax",), None, False),
    ("array_api_strict.asarray(numpy)", "xs.asarray(a)", ("array_api_strict",), None, False),
    ("pydlpack.asdlpack(numpy)", "asdlpack(a)", ("dlpack",), None, False),
    # copy baselines: what a hand-off costs when it is not zero-copy
    ("numpy.copy", "np.copy(a)", ("numpy",), None, True),
    ("torch.clone", "t.clone()", ("torch",), None, True),
]
DLTENSOR_ROWS = [r[0] for r in ROWS if "dltensor" in r[0]]
PEER_OF = {r[0]: r[3] for r in ROWS if r[3]}


def _frameworks() -> tuple[dict, dict]:
    """Importable frameworks (name -> module) and the reason each missing one is missing."""
    found, missing = {}, {}
    for name, module in (("numpy", "numpy"), ("torch", "torch"), ("jax", "jax.numpy"),
                         ("array_api_strict", "array_api_strict"), ("dlpack", "dlpack")):
        try:
            found[name] = importlib.import_module(module)
        except Exception as e:
            missing[name] = ("not installed (pip install pydlpack)" if name == "dlpack"
                             and isinstance(e, ImportError) else reason(e))
    return found, missing


def aligned_zeros(n: int, align: int = 64) -> np.ndarray:
    """float32 zeros whose first element sits on an ``align``-byte boundary."""
    base = np.zeros(n + align // 4, np.float32)
    skip = (-base.__array_interface__["data"][0] % align) // 4
    return base[skip:skip + n]


def _inputs(n: int, fw: dict) -> dict:
    import dltensor
    from dltensor.__main__ import data_pointer
    a = aligned_zeros(n)
    ns = {"np": np, "dlt": dltensor, "a": a, "x": dltensor.asarray(a)}
    if "torch" in fw:
        ns["torch"] = fw["torch"]
        ns["t"] = fw["torch"].from_numpy(a)
    if "jax" in fw:
        ns["jnp"] = fw["jax"]
        ns["j"] = fw["jax"].from_dlpack(a)
    if "array_api_strict" in fw:
        ns["xs"] = fw["array_api_strict"]
    if "dlpack" in fw:
        ns["asdlpack"] = fw["dlpack"].asdlpack
    ns["_pointer"] = data_pointer
    return ns


def run(settings: Settings, sizes=SIZES, log=print) -> dict:
    """``{"rows": {row: {size: cell}}, "missing": {...}}``; a cell holds seconds per hand-off
    and whether the result shares the source's memory, or the reason it was not measured."""
    fw, missing = _frameworks()
    if "torch" in fw:
        fw["torch"].set_num_threads(1)  # torch.clone on a busy machine: threads only add noise
    rows = {r[0]: {} for r in ROWS}
    todo = {}
    for n in sizes:
        ns = _inputs(n, fw)
        src = ns["_pointer"](ns["a"])
        for name, stmt, needs, _, copies in ROWS:
            lacking = [f for f in needs if f not in fw]
            if lacking:
                rows[name][n] = {"skip": f"{lacking[0]}: {missing[lacking[0]]}"}
            elif copies and n > COPY_LIMIT:
                rows[name][n] = {"skip": f"copy; timed only up to {COPY_LIMIT:.0e} elements"}
            else:
                rows[name][n] = cell = _check(stmt, ns, src, n)
                if "skip" not in cell:
                    todo[name, n] = (stmt, ns)
    log(f"  timing {len(todo)} hand-offs in interleaved rounds ...")
    for (name, n), s in time_many(todo, settings).items():
        rows[name][n]["s"] = s
    return {"sizes": list(sizes), "rows": rows, "missing": missing, "peers": PEER_OF}


def _check(stmt: str, ns: dict, src: int, n: int) -> dict:
    """Run a hand-off once, untimed: does it work, and does it share the source's memory?"""
    try:
        out = eval(stmt, ns)
        zero_copy = ns["_pointer"](out) == src
        del out
    except Exception as e:
        return {"skip": reason(e), "failed": True}
    if not zero_copy and n > COPY_LIMIT:
        return {"skip": f"copies; timed only up to {COPY_LIMIT:.0e} elements", "zero_copy": False}
    return {"zero_copy": zero_copy}


def seconds(result: dict, row: str, n: int) -> float | None:
    cell = result["rows"].get(row, {}).get(n, {})
    return cell.get("s")
