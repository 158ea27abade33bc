"""Resident memory a hand-off adds for a 200 MiB array (each case in a fresh interpreter).

A zero-copy hand-off should add only its bookkeeping (kilobytes); a copy adds the 200 MiB. Each
case runs in its own subprocess so earlier allocations and freed-but-kept pages do not blur it,
and runs once on a tiny array first so lazy imports are not counted.
"""

from __future__ import annotations

import json
import subprocess
import sys

from ._timing import child_env, installed

MIB = 2**20
SIZE_BYTES = 200 * MIB

# (case, frameworks needed, setup making the source from n float32 elements, hand-off expression)
CASES = [
    ("dltensor.asarray(numpy)", ("numpy",), "a = np.ones(n, np.float32)", "dlt.asarray(a)"),
    ("dltensor.asarray(numpy) + compute view", ("numpy",), "a = np.ones(n, np.float32)",
     "np.asarray(dlt.asarray(a))"),
    ("np.from_dlpack(dltensor)", ("numpy",), "x = dlt.asarray(np.ones(n, np.float32))",
     "np.from_dlpack(x)"),
    ("dltensor.asarray(torch)", ("torch",), "t = torch.ones(n)", "dlt.asarray(t)"),
    ("dltensor.asarray(torch) + compute view", ("torch",), "t = torch.ones(n)",
     "np.asarray(dlt.asarray(t))"),
    ("torch.from_dlpack(dltensor)", ("torch",), "x = dlt.asarray(np.ones(n, np.float32))",
     "torch.from_dlpack(x)"),
    ("dltensor.asarray(jax)", ("jax",), "j = jnp.ones(n, jnp.float32)", "dlt.asarray(j)"),
    # peers and the copy baseline
    ("np.from_dlpack(numpy)", ("numpy",), "a = np.ones(n, np.float32)", "np.from_dlpack(a)"),
    ("np.copy (copy baseline)", ("numpy",), "a = np.ones(n, np.float32)", "np.copy(a)"),
]
DLTENSOR_CASES = [c[0] for c in CASES if "dltensor" in c[0]]  # all zero-copy: the target applies
COPY_BASELINE = "np.copy (copy baseline)"  # (the target reads nothing unless this adds ~200 MiB)

_CHILD = """
import gc, json, numpy as np, psutil, dltensor as dlt
{imports}
proc = psutil.Process()
def make(n):
    {setup}
    return locals()
env = dict(globals()); env.update(make(16)); eval({stmt!r}, env)   # warm up lazy imports
env = dict(globals()); env.update(make({n}))
gc.collect()
before = proc.memory_info().rss
keep = eval({stmt!r}, env)
after = proc.memory_info().rss
print(json.dumps(after - before))
"""
_IMPORTS = {"numpy": "", "torch": "import torch", "jax": "import jax.numpy as jnp"}


def run(log=print) -> dict:
    """``{case: {"bytes": added RSS} or {"skip": reason}}``."""
    if not installed("psutil"):
        return {"skip": "psutil not installed (pip install psutil)"}
    env = child_env()
    out = {}
    for name, needs, setup, stmt in CASES:
        lacking = [f for f in needs if not installed(f)]
        if lacking:
            out[name] = {"skip": f"{lacking[0]} not installed"}
            continue
        log(f"  memory: {name} ...")
        code = _CHILD.format(imports="\n".join(_IMPORTS[f] for f in needs), setup=setup,
                             stmt=stmt, n=SIZE_BYTES // 4)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, timeout=300)
        if proc.returncode:
            last = (proc.stderr.strip().splitlines() or ["exit status %d" % proc.returncode])[-1]
            out[name] = {"skip": last[:80], "failed": True}
        else:
            out[name] = {"bytes": json.loads(proc.stdout.strip().splitlines()[-1])}
    return {"size_bytes": SIZE_BYTES, "cases": out}
