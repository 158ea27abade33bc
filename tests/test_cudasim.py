"""dltensor's CUDA paths on a machine without a GPU: the ``gpu`` tests run against
tests/cudasim, a simulator of CuPy 14.2 over NumPy (as numba's CUDA simulator is for numba).

It checks the glue no CPU test reaches (dispatch to the CuPy backend, CuPy's current device
around every call, capsules that say kDLCUDA read by a consumer that is not dltensor's, moves
between the CPU and two GPUs, the argument types of stream and event calls) and dltensor's
fixes where CuPy's kernels depart from NumPy's (the simulator departs as CuPy does). What CuPy
computes is checked only on a GPU (.ci/gpu, docs/devices.md): a pass here is no such evidence.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIMULATOR = ROOT / "tests" / "cudasim"


def _env(*first: Path) -> dict[str, str]:
    """This environment with the simulator (and ``first``) ahead on the import path."""
    env = dict(os.environ)
    env.pop("ARRAY_API_TESTS_DIR", None)  # (the conformance run has a test of its own)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(SIMULATOR), *map(str, first), str(ROOT)] +
        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    # A run that stalls (once, in CI's Python 3.13 venv, 2026-11-29: these runs take 10-60 s
    # and none stalled in 40 reruns) has every thread's stack printed after 240 s by pytest's
    # faulthandler, and that is what the failure shows.
    try:
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "-o", "faulthandler_timeout=240",
                               "-W", "error::pytest.PytestUnraisableExceptionWarning", *args],
                              cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired as e:
        out, err = (b.decode(errors="replace") if isinstance(b, bytes) else b or ""
                    for b in (e.stdout, e.stderr))
        pytest.fail(f"pytest {' '.join(args)} ran past 900 s:\n{out[-2000:]}\n{err[-8000:]}")


def _passed(r: subprocess.CompletedProcess[str]) -> int:
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    m = re.search(r"(\d+) passed", r.stdout)
    return int(m.group(1)) if m else 0


def test_the_simulator_is_the_cupy_these_runs_import():
    r = subprocess.run([sys.executable, "-c", "import cupy; print(cupy.__file__)"],
                       env=_env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and Path(r.stdout.strip()).is_relative_to(SIMULATOR), r


def test_the_gpu_tests_pass_on_the_simulator():
    # test_gpu.py's device cases (each call on the CPU and on cuda:0, and on cuda:1 while
    # cuda:0 is current), chains, moves and refusals; the docs' GPU examples; pickling. Those
    # needing PyTorch or JAX with CUDA, or numba, skip; the stream-ordering checks that read
    # the simulator's log run instead.
    # (the docs' pages also run PyTorch and JAX, which test_packaging's bare venvs lack)
    docs = ["tests/test_docs.py"] if all(find_spec(m) for m in ("torch", "jax")) else []
    r = _pytest("-m", "gpu", "-rs", "tests/test_gpu.py", "tests/test_pickle.py",
                "tests/test_cudasim_streams.py", *docs)
    assert _passed(r) >= 175, r.stdout[-3000:]


def test_the_held_device_tests_pass_where_cupy_is_installed():
    # Tests not marked gpu stand for a machine without CuPy (their producers claim CUDA over
    # pointers no one may touch): conftest.py hides an installed CuPy from them, as on the GPU
    # machines' run of the whole suite. Without that, these crashed or failed there.
    r = _pytest("-m", "not gpu", "tests/test_devices.py", "tests/test_held_views.py",
                "tests/test_ndarray.py", "tests/test_malformed.py")
    assert _passed(r) >= 300, r.stdout[-3000:]


def test_random_calls_agree_between_the_cpu_and_the_simulated_gpus():
    # tests/device_sweep.py: random calls of every public function, operator and index form,
    # compared between the CPU and cuda:0, and cuda:1 while cuda:0 is current (the second
    # GPU's calls must run there: the simulator refuses kernels from another current device)
    for device, seed in (("cuda:0", 0), ("cuda:1", 1)):
        r = subprocess.run([sys.executable, str(ROOT / "tests" / "device_sweep.py"), "--seed",
                            str(seed), "--calls", "15000", "--device", device], cwd=ROOT,
                           env=_env(ROOT / "tests"), capture_output=True, text=True,
                           timeout=900)
        assert r.returncode == 0 and " 0 differences" in r.stdout, r.stdout[-6000:] + r.stderr
