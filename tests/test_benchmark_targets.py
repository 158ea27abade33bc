"""The benchmarks' verdicts: a copy, a failure or a blind measurement never reads PASS.

Made-up results, so no timing runs here; each case was a PASS (or n/a where it must FAIL)
before the harness was mended.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks import handoff, memory, ops  # noqa: E402
from benchmarks import run as R  # noqa: E402

US = 1e-6
SIZES = [10, 10**5, 10**8]


def _handoffs(**override):
    """dltensor's rows 0.3 us at every size, peers 1 us (10 us the slow ones), all shared;
    ``override``: row -> {size: cell}."""
    def t(row):
        return 0.3 if "dltensor" in row else 10 if row.startswith(("pydl", "array_api")) else 1

    rows = {r[0]: {n: {"zero_copy": True, "s": t(r[0]) * US} for n in SIZES}
            for r in handoff.ROWS}
    for row, cells in override.items():
        rows[row].update(cells)
    return {"sizes": SIZES, "rows": rows, "missing": {}, "peers": handoff.PEER_OF}


def _verdicts(targets, about):
    return {ok for name, _, ok in targets if name.startswith(about)}


def test_all_good_hand_offs_pass():
    assert {ok for _, _, ok in R._handoff_targets(_handoffs())} == {True}


def test_a_copying_or_failing_hand_off_fails_its_targets_at_any_size():
    # (a copy above 1e6 was a skipped cell: dropped from the worst size, flat read n/a)
    copy = {"skip": "copies; timed only up to 1e+06 elements", "zero_copy": False}
    for cell in (copy, {"zero_copy": False, "s": 0.3 * US},
                 {"skip": "ValueError: boom", "failed": True}):
        targets = R._handoff_targets(_handoffs(**{"dltensor.asarray(numpy)": {10**8: cell}}))
        assert _verdicts(targets, "dltensor.asarray(numpy)") == {False}
        assert _verdicts(targets, "flat: dltensor.asarray(numpy)") == {False}
        assert _verdicts(targets, "np.from_dlpack(dltensor)") == {True}


def test_flat_means_every_size_and_faster_than_is_strict():
    spike = _handoffs(**{"dltensor.asarray(jax)": {10**5: {"zero_copy": True, "s": 9 * US}}})
    assert _verdicts(R._handoff_targets(spike), "flat: dltensor.asarray(jax)") == {False}
    tie = _handoffs(**{"dltensor.asarray(torch)": {n: {"zero_copy": True, "s": 1.0 * US}
                                                   for n in SIZES}})
    assert _verdicts(R._handoff_targets(tie), "dltensor.asarray(torch) <") == {False}


def _ops(rows):
    """rows: call -> (numpy, dltensor, strict) seconds at 10 elements."""
    t = {10: {}, 10**6: {}}
    for call, (n, d, s) in rows.items():
        t[10][call] = {"numpy": n, "dltensor": d, "array_api_strict": s}
        t[10**6][call] = {"numpy": 1e-3, "dltensor": 1e-3, "array_api_strict": 1e-3,
                          ops.AGAIN: 1e-3}
    return {"sizes": [10, 10**6], "times": t, "errors": {}, "missing": {}}


def test_the_strict_ratio_holds_on_every_call_and_a_failed_call_fails():
    good = {f"call{i}": (1 * US, 1.1 * US, 2 * US) for i in range(12)}
    assert [ok for _, _, ok in R._ops_targets(_ops(good))] == [True, True, True]
    # eleven calls at 2.8x and one at ~0 overhead (floored: 400x) made a geomean over 4x
    slow = {f"call{i}": (1 * US, 1.5 * US, 2.4 * US) for i in range(11)}
    slow["sum(x)"] = (2 * US, 2 * US, 6 * US)
    assert R._ops_targets(_ops(slow))[1][2] is False
    failed = dict(good, call0=(1 * US, None, 2 * US))
    assert [ok for _, _, ok in R._ops_targets(_ops(failed))] == [False, False, False]
    res = _ops(good)  # (failed at the large size only, or on every call)
    res["times"][10**6]["call3"]["dltensor"] = None
    assert [ok for _, _, ok in R._ops_targets(res)] == [False, False, False]
    every = {c: (1 * US, None, 2 * US) for c in good}
    assert [ok for _, _, ok in R._ops_targets(_ops(every))] == [False, False, False]
    # (a call array-api-strict failed is its own: the ratio holds on the others)
    assert R._ops_targets(_ops(dict(good, call0=(1 * US, 1.1 * US, None))))[1][2] is True


def _memory(**cases):
    out = {name: {"bytes": 10_000} for name in memory.DLTENSOR_CASES}
    out[memory.COPY_BASELINE] = {"bytes": memory.SIZE_BYTES}
    out.update(cases)
    return {"size_bytes": memory.SIZE_BYTES, "cases": out}


def test_memory_fails_a_crashed_case_and_is_blind_without_its_baseline():
    assert R.report_memory(_memory())[0][2] is True
    crashed = {"skip": "Segmentation fault", "failed": True}
    assert R.report_memory(_memory(**{memory.DLTENSOR_CASES[0]: crashed}))[0][2] is False
    blind = _memory(**{memory.COPY_BASELINE: {"bytes": 0}})
    assert R.report_memory(blind)[0][2] is None
    blind["cases"][memory.DLTENSOR_CASES[0]] = crashed
    assert R.report_memory(blind)[0][2] is False


def _gpu(chain_cells, call_cells):
    return {"device": "sim", "chain": "chain", "peers": {},
            "handoffs": {"chain": chain_cells}, "calls": {"x + y": call_cells}, "parts": {}}


def test_gpu_targets_fail_where_dltensor_raised():
    fine = {n: {"zero_copy": True, "s": 4 * US} for n in SIZES}
    call = {10: {"cupy": 10 * US, "dltensor": 11 * US}}
    assert [ok for _, _, ok in R.report_gpu(_gpu(fine, call))] == [True, True]
    failed = {"skip": "CUDARuntimeError", "failed": True}
    broken_chain = {**fine, 10**8: failed}
    assert R.report_gpu(_gpu(broken_chain, call))[0][2] is False
    assert R.report_gpu(_gpu({n: failed for n in SIZES}, call))[0][2] is False
    no_torch_cuda = {n: {"skip": "torch without CUDA"} for n in SIZES}
    assert R.report_gpu(_gpu(no_torch_cuda, call))[0][2] is None
    all_failed = {10: {"cupy": 10 * US, "dltensor": "TypeError: boom"}}
    assert R.report_gpu(_gpu(fine, all_failed))[1][2] is False
    broken_call = {10: {"cupy": 10 * US, "dltensor": "TypeError: boom"},
                   10**5: {"cupy": 10 * US, "dltensor": 11 * US}}
    res = _gpu(fine, call)
    res["calls"]["exp(x)"] = broken_call
    assert R.report_gpu(res)[1][2] is False
