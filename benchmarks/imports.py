"""Time to import each library in a fresh interpreter, and what it imports besides.

``import dltensor`` carries NumPy's own import (its one eager dependency); everything else it
may use (array-api-compat, ml_dtypes, CuPy, the frameworks) is imported on first need. Each
statement runs in its own interpreter ``rounds`` times, interleaved with the others so outside
load lands on all alike, and the minimum is kept. Bytecode is written and used, as an installed
package has it: a first untimed round writes dltensor's (PYTHONDONTWRITEBYTECODE, set on the
CI machines, would have every import compile each module from source: 0.12-0.17 s of
dltensor's 0.14-0.19 s there).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

from ._timing import child_env, installed

# (statement, module it needs installed)
CASES = [
    ("import numpy", "numpy"),
    ("import dltensor", "dltensor"),
    ("import array_api_compat.numpy", "array_api_compat"),
    ("import array_api_strict", "array_api_strict"),
    ("import ml_dtypes", "ml_dtypes"),
    ("import torch", "torch"),
    ("import jax.numpy", "jax"),
]
# Imported on first need, never by ``import dltensor``: a row of the report lists any it took.
LAZY = ("array_api_compat", "ml_dtypes", "cupy", "torch", "jax", "tensorflow")

_CHILD = """
import sys, time, json
before = set(sys.modules)
t = time.perf_counter()
{stmt}
s = time.perf_counter() - t
print(json.dumps([s, sorted({{m.split(".")[0] for m in set(sys.modules) - before}})]))
"""


def run(quick: bool, log=print) -> dict:
    """``{statement: {"s": best seconds, "imported": [top-level modules]} or {"skip": why}}``."""
    env = child_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out: dict[str, dict] = {stmt: {"skip": f"{need} not installed"} for stmt, need in CASES
                            if not installed(need)}
    todo = [stmt for stmt, _ in CASES if stmt not in out]
    rounds = 3 if quick else 7
    for i in range(rounds + 1):
        log(f"  imports: round {i} of {rounds} ..." if i else "  imports: writing bytecode ...")
        for stmt in random.sample(todo, len(todo)):
            proc = subprocess.run([sys.executable, "-c", _CHILD.format(stmt=stmt)],
                                  capture_output=True, text=True, env=env, timeout=300)
            if proc.returncode:
                last = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
                out[stmt] = {"skip": last[:80]}
                todo.remove(stmt)
                continue
            s, imported = json.loads(proc.stdout.strip().splitlines()[-1])
            if not i:
                continue
            best = out.setdefault(stmt, {"s": s, "imported": imported})
            best["s"] = min(best["s"], s)
    return {"rounds": rounds, "cases": {stmt: out[stmt] for stmt, _ in CASES}}
