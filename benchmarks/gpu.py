"""CUDA hand-offs and call overhead (only where CuPy finds a device; skipped otherwise).

Hand-offs are timed as the Python call (CuPy and PyTorch may queue a stream wait, which is part
of the hand-off). Calls are timed with a device synchronize in the statement for every library,
so queued kernels cannot hide in the loop.
"""

from __future__ import annotations

from ._timing import Settings, reason, time_many

SIZES = (10, 10**6, 10**8)
OP_SIZES = (10, 10**6)

# (row, statement, source, peer): c = a CuPy array, t = a PyTorch CUDA tensor over its own
# memory, x = dltensor.asarray(c), xt = dltensor.asarray(t) (a managed tensor dltensor holds:
# the chain's second half); source is the array whose pointer the result must keep.
HANDOFFS = [
    ("dltensor.asarray(cupy)", "dlt.asarray(c)", "c", "cupy.from_dlpack(cupy)"),
    ("cupy.from_dlpack(dltensor)", "cp.from_dlpack(x)", "c", "cupy.from_dlpack(cupy)"),
    ("dltensor.asarray(torch) [cuda]", "dlt.asarray(t)", "t", "cupy.from_dlpack(torch)"),
    ("torch.from_dlpack(dltensor) [cuda]", "torch.from_dlpack(x)", "c",
     "torch.from_dlpack(cupy)"),
    ("cupy.from_dlpack(dltensor of torch)", "cp.from_dlpack(xt)", "t",
     "cupy.from_dlpack(cupy)"),
    ("torch -> dltensor -> cupy", "cp.from_dlpack(dlt.asarray(t))", "t",
     "cupy.from_dlpack(torch)"),
    ("cupy.from_dlpack(cupy)", "cp.from_dlpack(c)", "c", None),
    ("cupy.from_dlpack(torch)", "cp.from_dlpack(t)", "t", None),
    ("torch.from_dlpack(cupy)", "torch.from_dlpack(c)", "c", None),
]
CHAIN = "torch -> dltensor -> cupy"
CALLS = [("x + y", "x + y; sync()"), ("exp(x)", "ns.exp(x); sync()"),
         ("sum(x)", "ns.sum(x); sync()"),
         # (a Python scalar goes to CuPy 14.2 as a kernel argument, as with CuPy itself)
         ("x * 2.0", "x * 2.0; sync()")]


def available() -> str | None:
    """None when CuPy sees a CUDA device, else why the section is skipped."""
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return "CuPy finds no CUDA device"
    except Exception as e:
        return f"no CuPy/CUDA ({reason(e)})"
    return None


def run(settings: Settings, log=print) -> dict:
    why = available()
    if why:
        return {"skip": why}
    import cupy as cp

    import dltensor as dlt
    from dltensor.__main__ import data_pointer
    try:
        import torch
        torch_ok = torch.cuda.is_available()
    except Exception:
        torch, torch_ok = None, False
    sync = cp.cuda.get_current_stream().synchronize
    # Each size's hand-offs, and each size's calls on both libraries, are timed together in
    # interleaved rounds (time_many), as the CPU sections are: the GPU's clocks and the host's
    # load then fall on a statement and its peer alike (timed one after the other, CuPy's own
    # `x * 2.0` moved from 16.5 to 21 us between two runs on an H200).
    handoffs = {}
    for n in SIZES:
        log(f"  GPU hand-offs at {n:.0e} elements ...")
        c = cp.zeros(n, cp.float32)
        t = torch.zeros(n, device="cuda") if torch_ok else None
        env = {"cp": cp, "dlt": dlt, "torch": torch, "c": c, "x": dlt.asarray(c), "t": t,
               "xt": dlt.asarray(t) if torch_ok else None}
        timed = {}
        for name, stmt, source, _ in HANDOFFS:
            cell = handoffs.setdefault(name, {})
            if (source == "t" or "torch" in stmt) and not torch_ok:
                cell[n] = {"skip": "torch without CUDA"}
                continue
            try:
                cell[n] = {"zero_copy": data_pointer(eval(stmt, env)) == data_pointer(env[source])}
                timed[name] = (stmt, env)
            except Exception as e:
                cell[n] = {"skip": reason(e)}
        for name, seconds in time_many(timed, settings).items():
            handoffs[name][n]["s"] = seconds
    calls = {}
    for n in OP_SIZES:
        log(f"  GPU calls at {n:.0e} elements ...")
        a, b = cp.random.random(n, dtype=cp.float32), cp.random.random(n, dtype=cp.float32)
        envs = {"cupy": {"ns": cp, "x": a, "y": b, "sync": sync},
                "dltensor": {"ns": dlt, "x": dlt.asarray(a), "y": dlt.asarray(b), "sync": sync}}
        timed = {}
        for call, stmt in CALLS:
            row = calls.setdefault(call, {}).setdefault(n, {})
            for lib, env in envs.items():
                try:
                    exec(stmt, env)
                    timed[call, lib] = (stmt, env)
                except Exception as e:
                    row[lib] = reason(e)
        for (call, lib), seconds in time_many(timed, settings).items():
            calls[call][n][lib] = seconds
    return {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
            "handoffs": handoffs, "peers": {h[0]: h[3] for h in HANDOFFS if h[3]},
            "chain": CHAIN,
            "calls": calls}
