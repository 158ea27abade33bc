"""Shutdown: a process that exits while NumPy, PyTorch, unconsumed capsules, fake-device arrays
and daemon threads (idle, and busy exchanging tensors) still hold dltensor exports exits with
status 0 and prints nothing.

The scenario is ``reliability.workloads.hold_everything``. Here it runs in one fresh interpreter
and in 10 processes forked from one interpreter that imported NumPy, PyTorch and dltensor once
(a fresh interpreter costs ~3 s of imports); tests/reliability/soak.py runs it in 100 fresh
interpreters (docs/reliability.md records the count).
"""

import torch  # noqa: F401 - the scenario needs PyTorch: fail, not skip, without it

from reliability import workloads

RUNS = 10


def _report(results):
    bad = [r for r in results if not workloads.clean(r)]
    return f"{len(bad)} of {len(results)} exits were not clean; first: {bad[:1]}"


def test_exit_with_everything_held_in_a_fresh_interpreter():
    results = workloads.run_fresh(1)
    assert all(map(workloads.clean, results)), _report(results)


def test_exit_with_everything_held_10_times():
    results = workloads.run_forked(RUNS)
    assert len(results) == RUNS
    assert all(map(workloads.clean, results)), _report(results)
