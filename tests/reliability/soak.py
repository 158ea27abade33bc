"""The long reliability runs, at the sizes docs/reliability.md quotes; prints the figures.

    python tests/reliability/soak.py            # full size: several minutes
    python tests/reliability/soak.py --quick    # every part, scaled down ~50x (a smoke test)
    python tests/reliability/soak.py --json out.json

Each part runs in its own interpreter, so a crash is counted (as a non-zero, signal or abort
exit) instead of ending the soak, and one part's memory cannot colour another's RSS figure.
Parts: the malformed-input catalogue and the property fuzzer (cases tried, crashes), a million
round trips with NumPy and with PyTorch (RSS growth, live_count drift), 8 threads exchanging
tensors for 10 s, and 100 fresh interpreters exiting while everything holds exports.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
sys.path[:0] = [ROOT, TESTS]

FULL = dict(round_trips=1_000_000, warmup=100_000, thread_seconds=10.0, threads=8,
            shutdown_runs=100, torch_busy_runs=10, fuzz_examples=20_000)
QUICK = dict(round_trips=20_000, warmup=2_000, thread_seconds=1.0, threads=8,
             shutdown_runs=4, torch_busy_runs=2, fuzz_examples=300)


def _child(code: str, env: dict | None = None, timeout: float = 3600) -> dict:
    """Run ``code`` in a fresh interpreter; its last stdout line is a JSON result."""
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", f"import sys; sys.path[:0] = [{ROOT!r}, "
                        f"{TESTS!r}]\n" + code], capture_output=True, text=True,
                       timeout=timeout, env={**os.environ, **(env or {})})
    out = dict(rc=r.returncode, wall_s=round(time.monotonic() - t0, 1))
    lines = r.stdout.strip().splitlines()
    try:
        out.update(json.loads(lines[-1]))
    except (IndexError, ValueError):
        out["stderr"] = r.stderr[-3000:]
    return out


def catalogue() -> dict:
    """The malformed-input catalogue, through pytest: cases and outcomes."""
    import test_malformed as M
    cases = dict(malformed_tensors=len(M.MALFORMED) + len(M.MALFORMED_MORE),
                 crash_prone_tensors=len(M.CRASHY), bad_inputs=len(M.BAD_INPUT),
                 valid_edge_cases=len(M.VALID))
    r = subprocess.run([sys.executable, "-m", "pytest", os.path.join(TESTS, "test_malformed.py"),
                        "-q", "-p", "no:cacheprovider", "-W", "ignore::DeprecationWarning"],
                       capture_output=True, text=True, cwd=ROOT, timeout=1800)
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-500:]
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|xfailed|error)", summary)}
    return dict(cases, rc=r.returncode, tests=counts, summary=summary)


def fuzz(examples: int) -> dict:
    code = ("import gc, json, test_fuzz as F\n"
            "gc.disable()\n"
            "F.test_accepted_descriptors_read_exactly_their_elements()\n"
            "F.test_defective_descriptors_are_refused_and_given_back()\n"
            "print(json.dumps(dict(F.STATS)))\n")
    r = _child(code, env={"DLTENSOR_FUZZ_EXAMPLES": str(examples)})
    r["examples_per_test"] = examples
    r["crashes"] = int(r["rc"] < 0)  # killed by a signal (SIGSEGV, SIGABRT)
    r["failures"] = int(r["rc"] > 0)  # a falsified property: the traceback is in stderr
    return r


def round_trips(kind: str, n: int, warmup: int) -> dict:
    return _child(f"import json; from reliability import workloads as W\n"
                  f"print(json.dumps(W.round_trips({kind!r}, {n}, {warmup})))")


def threads(n: int, seconds: float) -> dict:
    r = _child(f"import json; from reliability import workloads as W\n"
               f"r = W.exchange({n}, {seconds})\n"
               f"r['errors'] = r['errors'][:3]\n"
               f"print(json.dumps(r))")
    return r


def shutdown(runs: int, scenario: str) -> dict:
    from reliability import workloads as W
    t0 = time.monotonic()
    results = W.run_fresh(runs, scenario, parallel=2)
    bad = [r for r in results if not W.clean(r)]
    return dict(scenario=scenario, runs=runs, clean=runs - len(bad),
                exit_codes=sorted({str(r["rc"]) for r in results}),
                first_unclean=(bad[0]["stderr"][-300:] or bad[0]["stdout"][-300:]) if bad else None,
                wall_s=round(time.monotonic() - t0, 1))


PARTS = ("catalogue", "fuzz", "leaks", "threads", "shutdown")


def verdict(figures: dict, parts: list[str], size: dict) -> list[str]:
    """Why the parts run failed (none: PASS). Every part asked for must have run and passed
    on every figure it reports; a child's exit status counts wherever there is one."""
    failed = []

    def need(name: str, ok: bool, why: str) -> None:
        if not ok:
            failed.append(f"{name}: {why}")

    expected = {"catalogue": ["catalogue"], "fuzz": ["fuzz"], "threads": ["threads"],
                "leaks": ["round_trips_numpy", "round_trips_torch"],
                "shutdown": ["shutdown", "torch_busy_pure", "torch_busy_dltensor"]}
    for part in parts:
        for name in expected[part]:
            r = figures.get(name)
            if r is None:
                failed.append(f"{name}: did not run")
                continue
            if "rc" in r:
                need(name, r["rc"] == 0, f"exit status {r['rc']}")
            if name.startswith("round_trips_"):
                # A leak of one small object a round trip (16 bytes and more) shows at any size
                limit = min(1 << 20, 8 * size["round_trips"])
                need(name, r.get("rss_growth", 1 << 30) < limit,
                     f"RSS grew {r.get('rss_growth')} bytes (limit {limit})")
                need(name, r.get("live_count_drift") == 0,
                     f"live_count drift {r.get('live_count_drift')}")
            elif name == "threads":
                need(name, not r.get("errors"), f"errors {r.get('errors')}")
                need(name, r.get("exchanges", 0) > 0, "no exchanges")
                for key, want in (("live_count_drift", 0), ("test_producer_exports_alive", 0),
                                  ("shared_deleter_calls", 1)):
                    need(name, r.get(key) == want, f"{key} {r.get(key)} (want {want})")
            elif name == "shutdown":
                need(name, r["clean"] == r["runs"], f"{r['runs'] - r['clean']} unclean exits")
            elif name.startswith("torch_busy"):
                # (PyTorch aborts by itself there, SIGABRT: any other end is not its own)
                need(name, set(r["exit_codes"]) <= {"0", "-6"}, f"exit codes {r['exit_codes']}")
    return failed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="every part, scaled down")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--parts", default="catalogue,fuzz,leaks,threads,shutdown")
    args = ap.parse_args(argv)
    size = QUICK if args.quick else FULL
    parts = args.parts.split(",")
    if set(parts) - set(PARTS):  # (a misspelt part ran nothing, and passed)
        ap.error(f"unknown parts {sorted(set(parts) - set(PARTS))}; choose from {PARTS}")
    import numpy
    import torch
    figures = dict(python=platform.python_version(), numpy=numpy.__version__,
                   torch=torch.__version__, machine=f"{platform.machine()}, "
                   f"{os.cpu_count()} cores", size="quick" if args.quick else "full")

    def show(name, value):
        figures[name] = value
        print(f"{name}: {json.dumps(value)}", flush=True)

    if "catalogue" in parts:
        show("catalogue", catalogue())
    if "fuzz" in parts:
        show("fuzz", fuzz(size["fuzz_examples"]))
    if "leaks" in parts:
        for kind in ("numpy", "torch"):
            show(f"round_trips_{kind}", round_trips(kind, size["round_trips"], size["warmup"]))
    if "threads" in parts:
        show("threads", threads(size["threads"], size["thread_seconds"]))
    if "shutdown" in parts:
        show("shutdown", shutdown(size["shutdown_runs"], "hold_everything"))
        for s in ("torch_busy_pure", "torch_busy_dltensor"):
            show(s, shutdown(size["torch_busy_runs"], s))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    failed = verdict(figures, parts, size)
    for why in failed:
        print(f"FAIL: {why}", flush=True)
    ok = not failed
    print("PASS" if ok else "FAIL", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
