"""The scripts around the suite: conformance/run.sh, conformance/consumers.sh and .ci/gpu (whose
real run needs a GPU, and whose mistakes would cost a GPU session its few minutes)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(script: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("ARRAY_API_TESTS_DIR", "STEPS")}
    return subprocess.run(["bash", str(ROOT / script)], capture_output=True, text=True,
                          cwd=tmp_path, env={**base, **env}, timeout=600)


def test_conformance_says_plainly_when_no_suite_is_given(tmp_path):
    done = _run("conformance/run.sh", tmp_path)
    assert done.returncode == 0 and "not run" in done.stdout


def test_conformance_refuses_a_folder_that_is_not_the_suite(tmp_path):
    done = _run("conformance/run.sh", tmp_path, ARRAY_API_TESTS_DIR=str(tmp_path))
    assert done.returncode == 2 and "not an array-api-tests checkout" in done.stderr


def test_consumers_runs_scipys_array_api_tests_on_dltensor(tmp_path):
    # SciPy's tests of one module, with dltensor under array-api-strict's name: the stand-in
    # says it is dltensor, and SciPy's tests ran on it (which of them fail is SciPy's to
    # change from release to release: docs/interop.md keeps the figures).
    pytest.importorskip("scipy")
    done = _run("conformance/consumers.sh", tmp_path, SUITE="scipy.special.tests.test_logsumexp")
    assert "array_api_strict is dltensor" in done.stdout, done.stdout + done.stderr
    assert done.returncode in (0, 1) and re.search(r"\b[1-9]\d+ passed", done.stdout), done.stdout
    asked = re.search(r"SciPy's tests asked dltensor for (\d+) names", done.stdout)
    assert asked and int(asked.group(1)) > 100, done.stdout


def test_consumers_says_plainly_when_scipy_is_absent(tmp_path):
    done = _run("conformance/consumers.sh", tmp_path, PYTHON="false")
    assert done.returncode == 0 and "not run" in done.stdout


def test_gpu_checks_run_their_steps_and_summarise(tmp_path):
    # Without a GPU the GPU tests skip and the benchmark section says why; the summary has a
    # line per step, and the conformance step says it was not run. (On a GPU machine, whose
    # .ci/gpu runs this too, its GPU is hidden: the GPU tests are the script's own step.)
    results = tmp_path / "results"
    done = _run(".ci/gpu", tmp_path, RESULTS=str(results), CUDA_VISIBLE_DEVICES="",
                STEPS="gpu-tests benchmarks conformance")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = (results / "summary.txt").read_text().splitlines()
    assert [line.split()[0] for line in summary] == ["gpu-tests", "benchmarks", "conformance",
                                                     "all"]
    assert "exit 0" in summary[0] and "skipped" in summary[0]
    assert "exit 0" in summary[1] and "not run" in summary[2]
    assert (results / "gpu-tests.log").is_file() and list(results.glob("bench-*.json"))
    # (nothing else: the device tool brings back 8 files, and a marker file once took the
    # sweep log's place)
    assert not list(results.glob(".*")), list(results.glob(".*"))


def test_gpu_checks_keep_to_their_deadline(tmp_path):
    # A lent GPU gives a session minutes: with DEADLINE_S a step is cut to the time left, and
    # steps that find too little left are reported as not run, which fails the script.
    results = tmp_path / "results"
    done = _run(".ci/gpu", tmp_path, RESULTS=str(results), STEPS="environment sweep",
                DEADLINE_S="40", SWEEP_CALLS="100000000")
    assert done.returncode == 1, done.stdout + done.stderr
    summary = (results / "summary.txt").read_text().splitlines()
    assert [line.split()[0] for line in summary] == ["environment", "sweep", "all"]
    # the sweep, far too long for 40 s, was stopped at the deadline (timeout's status 124),
    # or found too little time left after the environment step
    assert "exit 124" in summary[1] or "not run" in summary[1]
    assert int(summary[2].split()[2].rstrip("s")) < 50


def test_gpu_checks_interrupt_a_step_again_when_its_sigint_was_lost(tmp_path):
    # Python drops a SIGINT that lands in a gc callback (hypothesis has one) or a ctypes
    # callback: the conformance step on a GPU ran on to the KILL, 30 s past its time, with no
    # report. A step that has not said KeyboardInterrupt 15 s on is sent a second one.
    (tmp_path / "drops_one.py").write_text(
        "import signal, time\n"
        "signal.signal(signal.SIGINT, lambda *a: signal.signal(signal.SIGINT,\n"
        "                                                      signal.default_int_handler))\n"
        "try:\n"
        "    time.sleep(600)\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped by the second SIGINT', flush=True)\n")
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\n[ "$1 $2" = "-m dltensor" ] && exec {sys.executable} '
                      f'{tmp_path / "drops_one.py"}\nexec {sys.executable} "$@"\n')
    python.chmod(0o755)
    results = tmp_path / "results"
    done = _run(".ci/gpu", tmp_path, RESULTS=str(results), STEPS="environment",
                DEADLINE_S="70", PYTHON=str(python))  # (35 s for the step, 35 kept back)
    summary = (results / "summary.txt").read_text().splitlines()
    assert "exit 124" in summary[0], done.stdout + done.stderr
    assert "stopped by the second SIGINT" in (results / "environment.log").read_text()


def test_gpu_checks_fail_when_a_step_fails(tmp_path):
    # The conformance step against a folder that is not the suite fails: so does the script,
    # after running the steps asked for.
    results = tmp_path / "results"
    done = _run(".ci/gpu", tmp_path, RESULTS=str(results), STEPS="conformance",
                ARRAY_API_TESTS_DIR=str(tmp_path))
    assert done.returncode == 1
    assert "exit 2" in (results / "summary.txt").read_text()


def test_gpu_prepare_needs_the_suite(tmp_path):
    # (its downloads need the package index: run by hand, docs/devices.md)
    for given in ({}, {"ARRAY_API_TESTS_DIR": str(tmp_path)}):
        done = _run(".ci/gpu-prepare", tmp_path, **given)
        assert done.returncode == 2 and "usage" in done.stderr


def test_gpu_scripts_take_relative_paths_from_where_they_are_run(tmp_path):
    # (both cd to the repository first: a relative suite was "usage", results went there)
    suite = tmp_path / "aat"
    (suite / "array-api" / "spec").mkdir(parents=True)
    (suite / "array_api_tests").mkdir()
    done = _run(".ci/gpu", tmp_path, RESULTS="res", STEPS="conformance",
                ARRAY_API_TESTS_DIR="aat", PYTHON="false")
    assert (tmp_path / "res" / "summary.txt").exists(), done.stdout + done.stderr
    assert "not an array-api-tests checkout" not in (tmp_path / "res" / "conformance.log"
                                                     ).read_text()
    prepare = ROOT / ".ci" / "gpu-prepare"
    done = subprocess.run(["bash", "-c", f'sed "s/^exclude=.*/exit 7/" "{prepare}" > p.sh && '
                           'bash p.sh aat'],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 7, done.stdout + done.stderr  # (past its check of the suite)


def test_conformance_xfails_hold_for_a_suite_inside_this_repository(tmp_path):
    # The GPU machines get the suite as .aat/ in this checkout: pytest took the xfails file's
    # path for a test path, found this repository's pyproject.toml above both, and made the
    # ids `.aat/array_api_tests/...`, which matched no line of the file (a stand-in suite here).
    import shutil
    import tempfile
    cache = ROOT / ".pytest_cache"  # (git-ignored)
    cache.mkdir(exist_ok=True)
    suite = Path(tempfile.mkdtemp(dir=cache))
    try:
        (suite / "array-api" / "spec").mkdir(parents=True)
        (suite / "array_api_tests").mkdir()
        (suite / "pytest.ini").write_text("[pytest]\n")
        (suite / "conftest.py").write_text(
            "import pytest\n"
            "def pytest_addoption(parser):\n"
            "    parser.addoption('--xfails-file')\n"
            "    parser.addoption('--max-examples')\n"
            "    parser.addoption('--disable-deadline', action='store_true')\n"
            "def pytest_collection_modifyitems(config, items):\n"
            "    ids = [l.strip() for l in open(config.getoption('--xfails-file'))\n"
            "           if l.strip() and not l.startswith('#')]\n"
            "    for item in items:\n"
            "        if item.nodeid in ids:\n"
            "            item.add_marker(pytest.mark.xfail(strict=True))\n")
        (suite / "array_api_tests" / "test_dlpack.py").write_text(
            "def test_dunder_dlpack():\n    assert False\n")
        done = _run("conformance/run.sh", tmp_path, ARRAY_API_TESTS_DIR=str(suite),
                    DLTENSOR_DEVICE="cuda:0")
        assert done.returncode == 0 and "1 xfailed" in done.stdout, done.stdout
    finally:
        shutil.rmtree(suite)


def test_conformance_runs_the_test_paths_it_is_given_alone(tmp_path):
    # (it always added array_api_tests/, so a path given ran the whole suite: a deep run of a
    # few files took --ignore for every other one)
    suite = tmp_path / "suite"
    (suite / "array-api" / "spec").mkdir(parents=True)
    (suite / "array_api_tests").mkdir()
    (suite / "conftest.py").write_text(
        "def pytest_addoption(parser):\n"
        "    for name in ('--xfails-file', '--max-examples'):\n"
        "        parser.addoption(name)\n"
        "    parser.addoption('--disable-deadline', action='store_true')\n")
    (suite / "array_api_tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    (suite / "array_api_tests" / "test_b.py").write_text("def test_b():\n    assert False\n")
    whole = _run("conformance/run.sh", tmp_path, ARRAY_API_TESTS_DIR=str(suite))
    assert whole.returncode == 1 and "1 failed, 1 passed" in whole.stdout, whole.stdout
    one = subprocess.run(["bash", str(ROOT / "conformance/run.sh"), "array_api_tests/test_a.py"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=600,
                         env={**os.environ, "ARRAY_API_TESTS_DIR": str(suite)})
    assert one.returncode == 0 and "1 passed" in one.stdout and "failed" not in one.stdout, \
        one.stdout + one.stderr
    # ... however the path is written: ./..., or absolute, through a symlink (with a space) to
    # the checkout or not (./ ran the whole suite; a symlinked absolute path loaded its
    # conftest.py twice)
    (tmp_path / "a link").symlink_to(suite)
    for checkout in (suite, tmp_path / "a link"):
        for path in ("./array_api_tests/test_a.py", f"{checkout}/array_api_tests/test_a.py",
                     f"{suite}/array_api_tests/test_a.py"):
            one = subprocess.run(["bash", str(ROOT / "conformance/run.sh"), path],
                                 capture_output=True, text=True, cwd=tmp_path, timeout=600,
                                 env={**os.environ, "ARRAY_API_TESTS_DIR": str(checkout)})
            assert one.returncode == 0 and "1 passed" in one.stdout, one.stdout + one.stderr
    # (a path after --ignore or --deselect, as pytest takes them, ran the checkout's own
    # meta_tests/ besides the suite: no test path is given)
    (suite / "meta_tests").mkdir()
    (suite / "meta_tests" / "test_meta.py").write_text("def test_m():\n    assert False\n")
    for option in ("--ignore", "--deselect"):
        less = subprocess.run(["bash", str(ROOT / "conformance/run.sh"), option,
                               "array_api_tests/test_b.py" + "::test_b" * (option[2] == "d")],
                              capture_output=True, text=True, cwd=tmp_path, timeout=600,
                              env={**os.environ, "ARRAY_API_TESTS_DIR": str(suite)})
        assert less.returncode == 0 and "1 passed" in less.stdout and \
            "failed" not in less.stdout, less.stdout + less.stderr


def test_the_gpu_benchmarks_calls_run_on_the_simulator():
    # every call of benchmarks/gpu.py, the mended ones too, runs on both libraries (a call
    # that raised would be reported as n/a on the GPU run, its figure lost)
    code = (
        "import cupy, dltensor\n"
        "from benchmarks import gpu\n"
        "envs = gpu.call_envs(cupy, dltensor, 10)\n"
        "for call, stmt in gpu.CALLS + gpu.MENDED:\n"
        "    for env in envs.values():\n"
        "        exec(stmt, env)\n"
        "print('calls ok', len(gpu.CALLS + gpu.MENDED))\n")
    done = _on_the_simulator(code)
    assert done.returncode == 0 and "calls ok 9" in done.stdout, done.stdout + done.stderr


def test_the_gpu_benchmarks_chain_by_parts_runs_on_the_simulator():
    # benchmarks/gpu.py names dltensor's internals to time the chain by parts; that code runs
    # only on a GPU with PyTorch's CUDA build, so here: the CUDA simulator, and PyTorch's CPU
    # tensors standing in for CUDA ones (every part must be timed, none refused).
    code = (
        "import torch, cupy, dltensor\n"
        "from benchmarks import gpu, _timing\n"
        "zeros = torch.zeros\n"
        "torch.zeros = lambda n, device=None: zeros(n)\n"
        "r = gpu._parts(_timing.Settings(True), cupy, dltensor, torch)\n"
        "bad = {k: v for k, v in r['seconds'].items() if not isinstance(v, float)}\n"
        "assert not bad and len(r['seconds']) == len(gpu.PARTS), (bad, r)\n"
        "print('parts ok')\n")
    done = _on_the_simulator(code)
    assert done.returncode == 0 and "parts ok" in done.stdout, done.stdout + done.stderr


def _on_the_simulator(code):
    """``code`` run by Python in the repository with the CUDA simulator as cupy."""
    # (the PYTHONPATH given kept after them: .ci/gpu's wheels on an offline GPU machine)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT / "tests" / "cudasim"), str(ROOT)] + os.environ.get("PYTHONPATH", "").split(
            os.pathsep)).rstrip(os.pathsep))
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_every_call_of_the_wide_benchmark_answers_as_numpy():
    # benchmarks/calls.py times each row only where dltensor's result holds NumPy's values,
    # dtype and shape (a wrong one is reported instead): every row must be timed
    sys.path.insert(0, str(ROOT))
    try:
        import numpy as np

        import dltensor
        from benchmarks import calls
    finally:
        sys.path.remove(str(ROOT))
    for row, stmt, check in calls.CALLS:
        want = calls._outcome("numpy", np, stmt, check)
        got = calls._outcome("dltensor", dltensor, stmt, check)
        assert calls._same(got, want) is None, row
    assert len({row for row, _, _ in calls.CALLS}) == len(calls.CALLS) > 80


def test_a_sweep_cut_short_says_what_it_found(tmp_path):
    # (.ci/gpu's deadline interrupts it: it printed nothing but a traceback, its findings lost)
    import signal
    import time
    sweep = subprocess.Popen([sys.executable, str(ROOT / "tests" / "device_sweep.py"),
                              "--calls", "10000000", "--device", "cpu"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(
                                 [str(ROOT), str(ROOT / "tests")])})
    import selectors
    ready = selectors.DefaultSelector()
    ready.register(sweep.stdout, selectors.EVENT_READ)
    if ready.select(timeout=120):  # (once into its loop: it says so first)
        assert sweep.stdout.readline().startswith("sweeping: ")
    time.sleep(1)
    sweep.send_signal(signal.SIGINT)
    out, err = sweep.communicate(timeout=60)
    assert sweep.returncode == 1 and "Traceback" not in err, err
    assert "interrupted: up to 10000000 calls on cpu and cpu, seed 0: 0 differences" in out, out
