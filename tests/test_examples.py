"""The scripts in examples/ are real clients of dltensor: each one runs here, as a user would.

Each script's ``main()`` asserts its own claims (pointer equality for zero-copy hand-offs,
results equal to NumPy's); the tests below import it, run it, and check what it returns. The
SciPy and scikit-learn examples need SCIPY_ARRAY_API=1 before SciPy is first imported, which
this process cannot promise (JAX imports SciPy), so they run in a fresh interpreter.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dltensor as dt

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"examples_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_in_fresh_interpreter(name: str, check: str) -> str:
    """Import examples/<name>.py in a new Python with SCIPY_ARRAY_API=1, run main(), then run
    ``check`` (Python code that sees ``result``, ``np`` and ``dt``); returns the output."""
    code = (
        "import importlib.util, numpy as np, dltensor as dt\n"
        f"spec = importlib.util.spec_from_file_location('ex', {str(EXAMPLES / name)!r} + '.py')\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "result = m.main()\n" + check
    )
    env = dict(os.environ, SCIPY_ARRAY_API="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    p = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, f"examples/{name}.py failed:\n{p.stdout}\n{p.stderr}"
    return p.stdout


def test_pipeline_torch_jax_numpy_shares_one_buffer():
    # (no skip without PyTorch or JAX: CI has both, and the example imports them)
    pointers = _load("pipeline_torch_jax_numpy").main()
    assert set(pointers) == {"torch", "dltensor", "jax", "numpy"}
    assert len(set(pointers.values())) == 1, pointers


def test_array_api_compat_finds_dltensor():
    result = _load("array_api_compat_namespace").main()
    assert result["namespace"] is dt
    assert isinstance(result["softmax"], dt.ndarray)


def test_sklearn_fits_on_dltensor_arrays():
    pytest.importorskip("sklearn")
    out = _run_in_fresh_interpreter("sklearn_array_api", (
        "assert type(result['pred']) is dt.ndarray and type(result['scores']) is dt.ndarray\n"
        "assert result['pred'].dtype == dt.int64 and result['scores'].shape == (300, 2)\n"
        "assert result['accuracy'] > 0.9 and type(result['accuracy']) is float\n"
        "assert result['folds'].shape == (3,) and (result['folds'] > 0.9).all()\n"
        "print('CHECKED')\n"))
    assert "CHECKED" in out and "LDA training accuracy" in out


def test_scipy_special_on_dltensor_arrays():
    pytest.importorskip("scipy")
    out = _run_in_fresh_interpreter("scipy_special", (
        "assert len(result) >= 10\n"
        "assert all(type(r) is dt.ndarray for r in result.values())\n"
        "np.testing.assert_allclose(np.asarray(result['erf'])[:1], [0.1124629160182849])\n"
        "print('CHECKED')\n"))
    assert "CHECKED" in out


def test_scipy_without_its_array_api_flag_answers_dltensor_with_numpy():
    # Why the examples set SCIPY_ARRAY_API: without it SciPy's ufuncs read a dltensor array as
    # NumPy's ufuncs do (through __array__, as they read PyTorch's or JAX's) and answer with a
    # NumPy array; with it, SciPy computes with dltensor's namespace and answers with ours.
    pytest.importorskip("scipy")
    env = {k: v for k, v in os.environ.items() if k != "SCIPY_ARRAY_API"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    code = ("import scipy.special, numpy as np, dltensor as dt\n"
            "r = scipy.special.erf(dt.asarray([1.0]))\n"
            "print(type(r).__module__, round(float(r[0]), 6))\n")
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and p.stdout.split() == ["numpy", "0.842701"], p.stderr


def test_every_example_is_tested():
    tested = {"pipeline_torch_jax_numpy", "array_api_compat_namespace", "sklearn_array_api",
              "scipy_special"}
    scripts = {p.stem for p in EXAMPLES.glob("*.py")}
    assert scripts == tested, f"add a test for: {sorted(scripts - tested)}"
    for name in scripts:
        text = (EXAMPLES / f"{name}.py").read_text()
        assert "def main(" in text and 'if __name__ == "__main__":' in text, name

