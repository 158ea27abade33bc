"""Run every benchmark section, print ratio tables with PASS/FAIL targets, save JSON and a plot.

    python -m benchmarks            # full run (a few minutes)
    python -m benchmarks --quick    # fast pass (well under a minute plus the memory subprocesses)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from . import calls, gpu, handoff, imports, memory, ops
from ._timing import Settings, geomean, ratio, table, us, verdict

SECTIONS = ("handoff", "memory", "imports", "ops", "calls", "gpu")
RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
MIB = 2**20


def _size(n: int) -> str:
    return "10" if n == 10 else f"1e{len(str(n)) - 1}"


# --- hand-offs ---------------------------------------------------------------------------------

def report_handoff(res: dict) -> list[tuple[str, str, bool | None]]:
    sizes = res["sizes"]
    notes: list[str] = []  # why cells are n/a, printed once each as numbered footnotes

    def skipped(why: str) -> str:
        if why not in notes:
            notes.append(why)
        return f"n/a [{notes.index(why) + 1}]"

    rows = []
    for name, cells in res["rows"].items():
        out = [name]
        for n in sizes:
            c = cells.get(n, {})
            out.append(us(c["s"]) + ("" if c["zero_copy"] else " (copy)") if "s" in c
                       else skipped(c.get("skip", "not measured")))
        rows.append(out)
    print(table(["hand-off latency (per call)"] + [_size(n) for n in sizes], rows))
    for i, why in enumerate(notes, 1):
        print(f"  [{i}] {why}")
    if any("s" in c for c in res["rows"].get("pydlpack.asdlpack(numpy)", {}).values()):
        print("  pydlpack keeps every asdlpack() object nobody consumed in a cache, and prints "
              "'objects have leaked' at exit for them")
    print()
    rows = []
    for name in handoff.DLTENSOR_ROWS:
        peer = res["peers"][name]
        ratios = [_ratio(handoff.seconds(res, name, n), handoff.seconds(res, peer, n))
                  for n in sizes]
        flat = _ratio(handoff.seconds(res, name, sizes[-1]), handoff.seconds(res, name, sizes[0]))
        rows.append([name, peer] + [ratio(r) for r in ratios] + [ratio(flat)])
    print(table(["dltensor row / peer row (time ratio)", "peer"] + [_size(n) for n in sizes]
                + [f"{_size(sizes[-1])}/{_size(sizes[0])}"], rows))
    return _handoff_targets(res)


def _ratio(a, b):
    return None if a is None or b is None else a / b


def _worst(res, fn) -> float | None:
    vals = [fn(n) for n in res["sizes"]]
    vals = [v for v in vals if v is not None]
    return max(vals) if vals else None


def _fault(res: dict, row: str) -> str | None:
    """Why a dltensor hand-off fails its targets whatever its times: it copied, or raised, at
    some size (a size it was not timed at drops out of the worst-size ratios)."""
    for n, c in res["rows"].get(row, {}).items():
        if c.get("zero_copy") is False:
            return f"COPIED at {_size(n)}"
        if c.get("failed"):
            return f"failed at {_size(n)}: {c['skip'][:40]}"
    return None


def _handoff_targets(res: dict) -> list[tuple[str, str, bool | None]]:
    s = lambda row, n: handoff.seconds(res, row, n)  # noqa: E731
    out = []  # (target, measured, verdict, the dltensor row it is about)
    t = _worst(res, lambda n: s("dltensor.asarray(numpy)", n))
    out.append(("dltensor.asarray(numpy) <= 1 us (worst size)", us(t), _le(t, 1e-6),
                "dltensor.asarray(numpy)"))
    r = _worst(res, lambda n: _ratio(s("dltensor.asarray(numpy)", n),
                                         s("torch.from_dlpack(numpy)", n)))
    out.append(("dltensor.asarray(numpy) <= torch.from_dlpack(numpy)", ratio(r), _le(r, 1.0),
                "dltensor.asarray(numpy)"))
    t = _worst(res, lambda n: s("np.from_dlpack(dltensor)", n))
    out.append(("np.from_dlpack(dltensor) <= 1 us (worst size)", us(t), _le(t, 1e-6),
                "np.from_dlpack(dltensor)"))
    r = _worst(res, lambda n: _ratio(s("torch.from_dlpack(dltensor)", n),
                                         s("torch.from_dlpack(numpy)", n)))
    out.append(("torch.from_dlpack(dltensor) <= 1.5x torch.from_dlpack(numpy)", ratio(r),
                _le(r, 1.5), "torch.from_dlpack(dltensor)"))
    # Issue 6: within 2x of NumPy's own hand-off, both ways; PyTorch in faster than NumPy's
    # consumer; at least 10x faster than pydlpack and array-api-strict.
    for row in ("dltensor.asarray(numpy)", "np.from_dlpack(dltensor)"):
        r = _worst(res, lambda n, row=row: _ratio(s(row, n), s("np.from_dlpack(numpy)", n)))
        out.append((f"{row} <= 2x np.from_dlpack(numpy)", ratio(r), _le(r, 2.0), row))
    r = _worst(res, lambda n: _ratio(s("dltensor.asarray(torch)", n),
                                         s("np.from_dlpack(torch)", n)))
    out.append(("dltensor.asarray(torch) < np.from_dlpack(torch)", ratio(r),
                None if r is None else r < 1.0, "dltensor.asarray(torch)"))
    for peer in ("pydlpack.asdlpack(numpy)", "array_api_strict.asarray(numpy)"):
        r = _worst(res, lambda n, peer=peer: _ratio(s("dltensor.asarray(numpy)", n), s(peer, n)))
        out.append((f"dltensor.asarray(numpy) >= 10x faster than {peer}", ratio(r),
                    _le(r, 0.1), "dltensor.asarray(numpy)"))
    lo = res["sizes"][0]
    for row in handoff.DLTENSOR_ROWS:  # (every size against the smallest: a spike between
        r = _worst(res, lambda n, row=row: _ratio(s(row, n), s(row, lo)))  # counts too)
        out.append((f"flat: {row}, every size <= 1.2x at {_size(lo)}", ratio(r), _le(r, 1.2),
                    row))
    faults = {row: _fault(res, row) for row in handoff.DLTENSOR_ROWS}
    return [(name, value, ok) if faults[row] is None else (name, faults[row], False)
            for name, value, ok, row in out]


def _le(value, limit) -> bool | None:
    return None if value is None else value <= limit


# --- memory ------------------------------------------------------------------------------------

def report_memory(res: dict) -> list[tuple[str, str, bool | None]]:
    if "skip" in res:
        print(f"memory: skipped: {res['skip']}")
        return [("200 MiB zero-copy import adds < 1 MiB RSS", "n/a", None)]
    rows = [[name, f"{c['bytes'] / MIB:.2f} MiB" if "bytes" in c else f"n/a ({c['skip']})"]
            for name, c in res["cases"].items()]
    print(table([f"RSS added by a {res['size_bytes'] // MIB} MiB hand-off", "added"], rows))
    name = "200 MiB zero-copy import adds < 1 MiB RSS (worst dltensor case)"
    # A dltensor case that crashed fails; else blind unless the copy baseline shows its 200 MiB
    failed = [n for n in memory.DLTENSOR_CASES if res["cases"][n].get("failed")]
    if failed:
        return [(name, f"{failed[0]} failed", False)]
    copied = res["cases"].get(memory.COPY_BASELINE, {}).get("bytes")
    if copied is None or copied < res["size_bytes"] // 2:
        return [(name, f"n/a (the copy baseline added {_mib(copied)})", None)]
    worst = [res["cases"][n].get("bytes") for n in memory.DLTENSOR_CASES]
    worst = max((b for b in worst if b is not None), default=None)
    return [(name, "n/a" if worst is None else f"{worst / MIB:.2f} MiB",
             None if worst is None else worst < MIB)]


def _mib(b: int | None) -> str:
    return "nothing measured" if b is None else f"{b / MIB:.2f} MiB"


# --- imports -----------------------------------------------------------------------------------

def report_imports(res: dict) -> list[tuple[str, str, bool | None]]:
    cases = res["cases"]
    numpy_s = cases["import numpy"].get("s")
    rows = [[stmt, f"{c['s'] * 1e3:.0f} ms" if "s" in c else f"n/a ({c['skip']})",
             ratio(_ratio(c.get("s"), numpy_s)),
             ", ".join(m for m in c.get("imported", ()) if m in imports.LAZY) or "-"]
            for stmt, c in cases.items()]
    print(table([f"import in a fresh interpreter (min of {res['rounds']})", "time",
                 "/ import numpy", "also imported (of the lazy ones)"], rows))
    own = cases["import dltensor"]
    r = _ratio(own.get("s"), numpy_s)
    eager = [m for m in own.get("imported", ()) if m in imports.LAZY]
    return [("import dltensor <= 2x import numpy (NumPy is its one eager dependency)",
             "n/a" if r is None else f"{r:.2f}x", _le(r, 2.0)),
            ("import dltensor imports none of " + ", ".join(imports.LAZY),
             ", ".join(eager) or "none", None if "s" not in own else not eager)]


# --- array API calls ---------------------------------------------------------------------------

def report_ops(res: dict) -> list[tuple[str, str, bool | None]]:
    libs = ("dltensor", "array_api_compat.numpy", "array_api_strict", ops.AGAIN)
    short = {"dltensor": "dltensor", "array_api_compat.numpy": "compat", "array_api_strict":
             "strict", ops.AGAIN: "numpy again"}
    for n in [m for m in res["sizes"] if m < 10**6]:
        rows = []
        for call in res["times"][n]:
            cells = [call, us(res["times"][n][call].get("numpy"))]
            for lib in libs:
                o = ops.overhead(res, n, call, lib)
                cells.append(_op_err(res, n, call, lib) if o is None else
                             "~0" if o <= ops.OVERHEAD_FLOOR_S else f"+{us(o)}")
            d, st = ops.overhead(res, n, call, "dltensor"), ops.overhead(res, n, call, libs[2])
            cells.append(ratio(_ratio(st, d)))
            rows.append(cells)
        print(table([f"overhead over numpy at {_size(n)} elems", "numpy"]
                    + [f"+{short[lib]}" for lib in libs] + ["strict/dltensor"], rows))
        print()
    big = max(res["sizes"])
    rows = []
    for call in res["times"][big]:
        rows.append([call, us(res["times"][big][call].get("numpy"))]
                    + [ratio(ops.time_ratio(res, big, call, lib))
                       if ops.time_ratio(res, big, call, lib) is not None
                       else _op_err(res, big, call, lib) for lib in libs])
    print(table([f"time / numpy's at {_size(big)} elems", "numpy"] + [short[lib] for lib in libs],
                rows))
    fixed = [c for c in res["times"][big] if not ops.scales(res, c)]
    if fixed:
        print(f"  O(1) calls (numpy < 10 us at {_size(big)}; their cost is the overhead above, "
              f"not counted in the 1.05x target): {', '.join(fixed)}")
    errs = res["errors"]
    if errs:
        print("failed calls:")
        for key, why in sorted(errs.items()):
            n, call, lib = key.split("|")
            print(f"  {lib} {call} at {_size(int(n))}: {why}")
    return _ops_targets(res)


def _op_err(res, n, call, lib) -> str:
    return "n/a" if lib in res["missing"] else "n/a (failed)"


def _ops_targets(res: dict) -> list[tuple[str, str, bool | None]]:
    small, big = min(res["sizes"]), max(res["sizes"])
    calls = list(res["times"][small])
    d = [ops.overhead(res, small, c, "dltensor") for c in calls]
    st = [ops.overhead(res, small, c, "array_api_strict") for c in calls]
    # (a call dltensor failed at any size fails all three: left out, the rest carry them)
    missing = sum(any(res["times"][n][c].get("dltensor") is None for n in res["sizes"])
                  for c in calls)
    note = f" ({missing} of {len(calls)} calls failed)" if missing else ""
    g_d = geomean(d)
    pairs = [(a, b) for a, b in zip(d, st) if a is not None and b is not None]
    g_ratio = geomean([b / a for a, b in pairs]) if pairs else float("nan")
    scaling = [c for c in calls if ops.scales(res, c)]
    r_big = geomean([ops.time_ratio(res, big, c, "dltensor") for c in scaling])
    noise = geomean([max(r, 1 / r) for r in (ops.time_ratio(res, big, c, ops.AGAIN)
                                            for c in scaling) if r])
    ok = lambda v, good: False if missing else None if v != v else good(v)  # noqa: E731
    each_fast = sum(v is not None and v < 1e-6 for v in d)
    each_4x = sum(b / a >= 4 for a, b in pairs)
    return [
        (f"op overhead at {_size(small)} elems < 1 us (geomean){note}",
         f"{us(g_d)} ({each_fast}/{len(calls)} calls < 1 us)" if g_d == g_d else "n/a",
         ok(g_d, lambda v: v < 1e-6)),
        (f"op overhead >= 4x less than array_api_strict's on every call{note}",
         f"{each_4x}/{len(pairs)} calls >= 4x (geomean {ratio(g_ratio)})",
         ok(g_ratio, lambda v: each_4x == len(pairs))),  # (a call strict failed: its own)
        (f"op time at {_size(big)} elems <= 1.05x numpy (geomean of the {len(scaling)} calls "
         f"doing O(n) work)", f"{ratio(r_big)} (numpy vs itself: {ratio(noise)})",
         ok(r_big, lambda v: v <= 1.05)),
    ]


# --- GPU ---------------------------------------------------------------------------------------

def report_gpu(res: dict) -> list:
    if "skip" in res:
        print(f"GPU: skipped: {res['skip']}")
        return []
    print(f"GPU: {res['device']}")
    sizes = sorted({n for cells in res["handoffs"].values() for n in cells})
    rows = []
    for name, cells in res["handoffs"].items():
        peer = res["peers"].get(name)
        row = [name]
        for n in sizes:
            c = cells.get(n, {})
            if "s" not in c:
                row.append(f"n/a ({c.get('skip', 'not run')[:30]})")
                continue
            pc = res["handoffs"].get(peer, {}).get(n, {}) if peer else {}
            rel = f" ({ratio(c['s'] / pc['s'])})" if "s" in pc else ""
            row.append(us(c["s"]) + ("" if c["zero_copy"] else " copy") + rel)
        rows.append(row)
    print(table(["GPU hand-off (ratio to peer)"] + [_size(n) for n in sizes], rows))
    for key, head in (("calls", "GPU call (with sync)"), ("mended", "call dltensor mends")):
        rows = []
        for call, by_n in res.get(key, {}).items():
            for n, t in by_n.items():
                d, c = t.get("dltensor"), t.get("cupy")
                ok = isinstance(d, float) and isinstance(c, float)
                rows.append([f"{call} @ {_size(n)}",
                             us(c) if isinstance(c, float) else f"n/a ({str(c)[:30]})",
                             us(d) if isinstance(d, float) else f"n/a ({str(d)[:30]})",
                             ratio(d / c) if ok else "n/a"])
        print(table([head, "cupy", "dltensor", "ratio"], rows))
    parts = res.get("parts", {})
    if "seconds" in parts:
        print(f"(xt = dltensor.asarray(t); CuPy asks {parts['asked']})")
        print(table(["the chain by parts, 10 elements", "time"],
                    [[name, us(v) if isinstance(v, float) else f"n/a ({v[:40]})"]
                     for name, v in parts["seconds"].items()]))
    elif parts:
        print(f"the chain by parts: not run: {parts.get('skip')}")
    cells = res["handoffs"].get(res["chain"], {})
    chain = [c for c in cells.values() if "s" in c]
    worst = max((c["s"] for c in chain), default=float("nan"))
    kept = all(c["zero_copy"] for c in chain)
    smallest = [t for by_n in res["calls"].values() for n, t in by_n.items() if n == min(by_n)]
    extra = [t["dltensor"] - t["cupy"] for t in smallest
             if isinstance(t.get("dltensor"), float) and isinstance(t.get("cupy"), float)]
    # (a size or call dltensor failed at fails the target, all of them too: not dropped)
    chain_failed = sum(bool(c.get("failed")) for c in cells.values())
    calls_failed = sum(not isinstance(t.get("dltensor"), float) for t in smallest)
    over = max(extra, default=float("nan"))
    return [
        (f"{res['chain']} keeps the pointer, < 5 us (worst size)",
         f"failed at {chain_failed} sizes" if chain_failed else
         f"{us(worst)}, {'same pointer' if kept else 'COPIED'}" if chain else "n/a",
         False if chain_failed else None if not chain else kept and worst < 5e-6),
        ("per-call overhead over CuPy within 2 us (worst call, smallest size)",
         f"{calls_failed} calls failed" if calls_failed else us(over) if extra else "n/a",
         False if calls_failed else None if not extra else over <= 2e-6),
    ]


# --- the wide view: many calls on small arrays -----------------------------------------------

def report_calls(res: dict) -> list[tuple[str, str, bool | None]]:
    rows = []
    for row, t in res["times"].items():
        n, d = t.get("numpy"), t.get("dltensor")
        why = res["errors"].get(f"{row}|dltensor") or res["errors"].get(f"{row}|numpy")
        rows.append([row, us(n), us(d) if why is None else f"n/a ({why[:40]})",
                     ratio(d / n) if n and d else "n/a",
                     f"+{us(d - n)}" if n and d and d > n else ("~0" if n and d else "")])
    print(table(["call on 10 elements / 4x4", "numpy", "dltensor", "ratio", "overhead"], rows))
    r = sorted(calls.ratios(res).values())
    over = sorted(t["dltensor"] - t["numpy"] for t in res["times"].values()
                  if t.get("dltensor") and t.get("numpy"))
    if r:
        print(f"{len(r)} calls: median {ratio(r[len(r) // 2])} NumPy's time (geometric mean "
              f"{ratio(geomean(r))}), median overhead {us(max(over[len(over) // 2], 0))}; "
              f"{sum(v > 2 for v in r)} above 2x")
    return []  # (no targets: the wide view is read run against run)


# --- plot and driver ---------------------------------------------------------------------------

def plot(res: dict, path: str) -> str:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:
        return "plot skipped: matplotlib is not installed (pip install matplotlib)"
    fig, ax = plt.subplots(figsize=(9, 6))
    colors = plt.get_cmap("tab20").colors  # 20 distinct colours: one per row
    for i, (name, cells) in enumerate(res["rows"].items()):
        pts = [(n, c["s"] * 1e6) for n, c in cells.items() if "s" in c]
        if pts:
            style = "-o" if "dltensor" in name else "--."
            ax.plot(*zip(*pts), style, label=name, color=colors[i % 20],
                    linewidth=2 if "dltensor" in name else 1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("elements (float32)")
    ax.set_ylabel("latency per hand-off (us)")
    ax.set_title("DLPack hand-off latency (solid: through dltensor)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return f"plot: {path}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections to run (default: {','.join(SECTIONS)})")
    args = parser.parse_args(argv)
    sections = [s for s in args.only.split(",") if s]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}; choose from {SECTIONS}")
    settings = Settings(args.quick)
    from dltensor.__main__ import versions
    started = time.perf_counter()
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731 progress only
    results = {"settings": {"quick": args.quick, "method": settings.method()},
               "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
               "versions": versions()}
    targets = []
    for section, runner, reporter in (
            ("handoff", lambda: handoff.run(settings, log=log), report_handoff),
            ("memory", lambda: memory.run(log=log), report_memory),
            ("imports", lambda: imports.run(args.quick, log=log), report_imports),
            ("ops", lambda: ops.run(settings, log=log), report_ops),
            ("calls", lambda: calls.run(settings, log=log), report_calls),
            ("gpu", lambda: gpu.run(settings, log=log), report_gpu)):
        if section not in sections:
            continue
        results[section] = res = runner()
        print()
        targets += reporter(res)
    print(f"\ntiming: {settings.method()}; ratios compare libraries measured in this run")
    print("versions: " + ", ".join(f"{k} {v}" for k, v in results["versions"].items()
                                   if v != "missing"))
    if targets:
        print()
        print(table(["target", "measured", "verdict"],
                    [[name, value, verdict(ok)] for name, value, ok in targets]))
    results["targets"] = [{"target": n, "measured": v, "verdict": verdict(ok)}
                          for n, v, ok in targets]
    os.makedirs(RESULTS_DIR, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(RESULTS_DIR, f"bench-{stamp}{'-quick' if args.quick else ''}.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1, default=str)
    print(f"\nresults: {path}")
    if "handoff" in results:
        print(plot(results["handoff"], path[:-5] + "-handoff.png"))
    print(f"(took {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
