"""CUDA hand-offs and call overhead (only where CuPy finds a device; skipped otherwise).

Hand-offs are timed as the Python call (CuPy and PyTorch may queue a stream wait, which is part
of the hand-off). Calls are timed with a device synchronize in the statement for every library,
so queued kernels cannot hide in the loop.
"""

from __future__ import annotations

import numpy as np

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
# The chain by parts, at 10 elements, to say where its time goes (dltensor's internals, named
# here only; a part whose name has moved is reported as not run). `asked` is what CuPy's
# from_dlpack passes __dlpack__, as recorded from one call.
PARTS = [
    ("dltensor.asarray(t)", "dlt.asarray(t)"),
    ("  PyTorch's device and flags", "where(t)"),
    ("  PyTorch's current_work_stream", "stream_of(2, 0)"),
    ("  CuPy's current stream", "gpus.consumer_stream(0)"),
    ("  exchange API take, CuPy's consumer, wrap, release", "adopted(gpus, take(t), 0)"),
    # The alternative to try (docs/devices.md, "Waiting for the next GPU"): PyTorch's C
    # exporter behind its __dlpack__, as CPU tensors come in, its capsule to CuPy's consumer
    ("  alternative: PyTorch's C exporter alone", "export(t)"),
    ("  alternative: its capsule through CuPy's consumer, release",
     "cp.from_dlpack(_Capsule(export(t), device))"),
    ("cupy.from_dlpack(xt)", "cp.from_dlpack(xt)"),
    ("  xt.__dlpack__(as CuPy asks), release", "xt.__dlpack__(**asked)"),
    ("  c.__dlpack__(as CuPy asks), release", "c.__dlpack__(**asked)"),
    ("  cupy.from_dlpack(c)", "cp.from_dlpack(c)"),
    ("the chain", "cp.from_dlpack(dlt.asarray(t))"),
]
CALLS = [("x + y", "x + y; sync()"), ("exp(x)", "ns.exp(x); sync()"),
         ("sum(x)", "ns.sum(x); sync()"),
         # (a Python scalar goes to CuPy 14.2 as a kernel argument, as with CuPy itself)
         ("x * 2.0", "x * 2.0; sync()")]
# Calls where dltensor mends CuPy's answer with kernels of its own (docs/devices.md), timed the
# same way, to tell what each mend costs; not part of the overhead target, which is about the
# calls where dltensor adds nothing but its dispatch. (m = x > 0.5, the same in both libraries)
MENDED = [("argmax(x)", "ns.argmax(x); sync()"),  # (+4 kernels: the first of several NaNs)
          ("x // y", "x // y; sync()"),  # (one kernel of dltensor's for CuPy's one)
          ("x[m] = 0.5", "x[m] = 0.5; sync()"),  # (a value fitting any selection: no count)
          ("x[m] = y[m]", "x[m] = y[m]; sync()"),  # (one count of the mask, a GPU sync)
          ("fft.irfft(z)", "ns.fft.irfft(z); sync()")]  # (a copy and one kernel more)


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
                cell[n] = {"skip": reason(e), "failed": True}
        for name, seconds in time_many(timed, settings).items():
            handoffs[name][n]["s"] = seconds
    try:  # (dltensor's internals, named: a rename must not cost the section's other figures)
        parts = _parts(settings, cp, dlt, torch) if torch_ok else {"skip": "torch without CUDA"}
    except Exception as e:
        parts = {"skip": reason(e)}
    calls, mended = {}, {}
    for n in OP_SIZES:
        log(f"  GPU calls at {n:.0e} elements ...")
        envs = call_envs(cp, dlt, n)
        _time_calls(CALLS, calls, n, envs, settings)
        _time_calls(MENDED, mended, n, envs, settings)
    return {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
            "handoffs": handoffs, "peers": {h[0]: h[3] for h in HANDOFFS if h[3]},
            "chain": CHAIN, "parts": parts,
            "calls": calls, "mended": mended}


def call_envs(cp, dlt, n: int) -> dict:
    """{library: the names CALLS and MENDED use}, over the same n random float32 values (z:
    complex64)."""
    # (made on the host and copied: the same values in every run, and no cuRAND needed)
    rng = np.random.default_rng(0)
    a, b = (cp.asarray(rng.random(n, dtype=np.float32)) for _ in range(2))
    x, y = dlt.asarray(a), dlt.asarray(b)
    sync = cp.cuda.get_current_stream().synchronize
    z = (a + 1j * b).astype(cp.complex64)
    return {"cupy": {"ns": cp, "x": a, "y": b, "m": a > 0.5, "z": z, "sync": sync},
            "dltensor": {"ns": dlt, "x": x, "y": y, "m": x > 0.5, "z": dlt.asarray(z),
                         "sync": sync}}


def _time_calls(rows: list, out: dict, n: int, envs: dict, settings: Settings) -> None:
    """Times each (call, statement) of ``rows`` in every library's env into out[call][n][lib]."""
    timed = {}
    for call, stmt in rows:
        row = out.setdefault(call, {}).setdefault(n, {})
        for lib, env in envs.items():
            try:
                exec(stmt, env)
                timed[call, lib] = (stmt, env)
            except Exception as e:
                row[lib] = reason(e)
    for (call, lib), seconds in time_many(timed, settings).items():
        out[call][n][lib] = seconds


class _Capsule:
    """A capsule made elsewhere, handed to a consumer that asks ``__dlpack__`` (CuPy's
    from_dlpack takes no bare capsule), with its tensor's device."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, **kwargs):
        return self.capsule


class _Asked:
    """Records the keywords a consumer passes __dlpack__, handing on ``x``'s capsule."""

    def __init__(self, x):
        self.x, self.asked = x, None

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()

    def __dlpack__(self, **kwargs):
        self.asked = kwargs
        return self.x.__dlpack__(**kwargs)


def _parts(settings: Settings, cp, dlt, torch) -> dict:
    """{part: seconds or a reason} for PARTS (see there)."""
    from dltensor import _dlpack
    from dltensor._interop import _torch_exchangeable, adopted
    from dltensor._moves import cuda_backend
    c, t = cp.zeros(10, cp.float32), torch.zeros(10, device="cuda")
    xt = dlt.asarray(t)
    spy = _Asked(xt)
    cp.from_dlpack(spy)
    env = {"cp": cp, "dlt": dlt, "c": c, "t": t, "xt": xt, "asked": spy.asked,
           "where": _torch_exchangeable, "gpus": cuda_backend(0), "adopted": adopted,
           "stream_of": _dlpack.current_stream_getter(type(t)),
           "take": _dlpack.managed_tensor_taker(type(t)), "_Capsule": _Capsule,
           "device": t.__dlpack_device__(),
           "export": getattr(torch._C, "_to_dlpack_versioned", None)}
    out, timed = {}, {}
    for name, stmt in PARTS:
        try:
            eval(stmt, env)
            timed[name] = (stmt, env)
        except Exception as e:
            out[name] = reason(e)
    out.update(time_many(timed, settings))
    return {"asked": repr(spy.asked), "seconds": out}
