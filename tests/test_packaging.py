"""Packaging: the wheel installs into a fresh virtual environment and works from there, and the
suite passes at the declared dependency floors, with the newest NumPy, and on the oldest
Python declared."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _venv(path: Path, *requirements: str, base: str = sys.executable,
          system_site_packages: bool = False) -> str:
    """A virtual environment made by ``base`` with ``requirements`` installed; its python."""
    subprocess.run([base, "-m", "venv", *(["--system-site-packages"] if system_site_packages
                                         else []), str(path)], check=True)
    python = str(path / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    *requirements], check=True)
    return python


def _tracked_copy(dest: Path) -> Path:
    """The project as git tracks it (the working tree's contents of its tracked files): a
    wheel built from it cannot take a module left untracked, or a stale one from build/."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if files.returncode:  # (not a git checkout: the tests of an sdist)
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns("build", "*.egg-info"))
        return dest
    for name in filter(None, files.stdout.decode().split("\0")):
        if (ROOT / name).is_file():  # (not one deleted but not yet committed)
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def test_wheel_installs_in_a_fresh_venv_and_works(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(wheels),
                    str(_tracked_copy(tmp_path / "src"))], check=True)
    (wheel,) = wheels.glob("dltensor-*.whl")
    import zipfile
    with zipfile.ZipFile(wheel) as z:  # (BSD-3-Clause asks the notice to go with it)
        names = z.namelist()
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert b"License-Expression: BSD-3-Clause" in metadata
    # Its runtime dependencies (numpy, array-api-compat) come from this interpreter's
    # site-packages, so the test needs no network; dltensor itself only from the wheel.
    python = _venv(tmp_path / "venv", "--no-deps", str(wheel), system_site_packages=True)
    code = """
import pathlib, sys
import dltensor as dt, numpy as np
assert pathlib.Path(dt.__file__).is_relative_to(pathlib.Path(sys.prefix)), dt.__file__
assert (pathlib.Path(dt.__file__).parent / "py.typed").is_file()
x = dt.asarray(np.arange(4.0))
assert float(dt.sum(dt.exp(x))) > 0 and dt.__array_api_version__ == "2025.12"
print(dt.__version__)
"""
    out = subprocess.run([python, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    import dltensor
    assert out.stdout.strip() == dltensor.__version__


def _declared_floors() -> dict[str, str]:
    """The lowest versions pyproject.toml says dltensor works with: {name: version}."""
    text = (ROOT / "pyproject.toml").read_text()
    deps = re.search(r"^dependencies = \[(.*?)\]", text, re.M | re.S)
    assert deps, "pyproject.toml lists no dependencies"
    floors = dict(re.findall(r'"([A-Za-z0-9_.-]+)>=([0-9.]+)"', deps.group(1)))
    assert set(floors) == {"numpy", "array-api-compat"}, floors
    return floors


def _release(version: str) -> tuple[int, ...]:
    """(1, 16) for "1.16" and "1.16.0" alike."""
    parts = [int(n) for n in version.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


# Everything but what needs other tools (Sphinx, mypy, a dask cluster, the example's clients)
# or builds environments of its own, and the shell scripts' tests (NumPy's version is nothing
# to them; one waits out a 40 s deadline).
_CORE_SUITE = ["tests", "--ignore=tests/test_packaging.py", "--ignore=tests/test_docs.py",
               "--ignore=tests/test_dask.py", "--ignore=tests/test_examples.py",
               "--ignore=tests/test_typing.py", "--ignore=tests/test_typing_user.py",
               "--ignore=tests/test_scripts.py"]


def _versions(python: str) -> list[str]:
    return subprocess.run(
        [python, "-c", "import numpy, array_api_compat as c; print(numpy.__version__, "
         "c.__version__)"], capture_output=True, text=True, check=True).stdout.split()


def _suite_passes(python: str, *args: str) -> None:
    # (2-4 minutes: a stall shows every thread's stack after 10, and fails after 30, not at
    # CI's 90-minute limit with nothing to read)
    try:
        done = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                               "-o", "faulthandler_timeout=600", *_CORE_SUITE, *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=1800,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired as e:
        out, err = (b.decode(errors="replace") if isinstance(b, bytes) else b or ""
                    for b in (e.stdout, e.stderr))
        pytest.fail(f"the suite ran past 30 minutes on {python}:\n{out[-4000:]}\n{err[-8000:]}")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_declared_minimum_versions_pass_the_tests(tmp_path):
    """numpy and array-api-compat at exactly the versions pyproject.toml promises: older NumPy
    imports writable DLPack memory read-only (fixed in 2.2.5), older array-api-compat lacks
    eig/eigvals and raises AttributeError where reshape(copy=False) must raise ValueError."""
    pins = [f"{name}=={version}" for name, version in _declared_floors().items()]
    # The rest (PyTorch, JAX, Hypothesis, ...) from this interpreter's site-packages; only the
    # two pins come from the package index (pip's cache, once fetched).
    python = _venv(tmp_path / "venv", *pins, system_site_packages=True)
    assert ([_release(v) for v in _versions(python)]
            == [_release(p.split("==")[1]) for p in pins])
    _suite_passes(python)


def _python_where(condition: str) -> str | None:
    """The newest interpreter for which ``condition`` (an expression over ``sys``) holds, from
    PATH or pyenv's versions, else None."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = [shutil.which(f"python3.{m}") for m in range(20, 9, -1)]
    found += sorted((str(p) for p in pyenv.glob("3.*/bin/python3")), reverse=True,
                    key=lambda p: [int(n) for n in re.findall(r"\d+", Path(p).parts[-3])])
    for python in filter(None, found):
        ok = subprocess.run([python, "-c", f"import sys, venv; assert {condition}"],
                            capture_output=True)
        if ok.returncode == 0:
            return python
    return None


# What needs PyTorch, whose CPU build is here for Python 3.11 only: left out on the others.
_WITHOUT_TORCH = [
    *(f"--ignore=tests/{m}.py" for m in ("test_interop", "test_leaks", "test_ownership",
                                          "test_readonly", "test_shutdown", "test_threads")),
    *(f"--deselect=tests/{t}" for t in (
        "dlpack/test_capsule.py::"
        "test_other_libraries_retyping_ctypes_pythonapi_does_not_break_dltensor",
        "test_main.py::test_data_pointer_asks_each_framework_and_numpy_for_the_rest",
        "test_main.py::test_devices_and_imports_say_what_is_missing",
        "test_main.py::test_report_prints_versions_devices_and_a_zero_copy_matrix",
        "test_main.py::test_json_report_has_the_same_facts",
        "test_main.py::test_a_torch_that_fails_to_count_its_gpus_is_a_line_of_the_report",
        "test_pickle.py::test_imported_and_strided_arrays_pickle",
        "test_pickle.py::test_bfloat16_pickles_with_ml_dtypes",
        "api/test_array_object.py::test_tolist_and_item_of_a_dtype_numpy_has_not_natively"))]
# What the core suite needs besides numpy and array-api-compat, in a venv of its own.
_TEST_NEEDS = ["pytest", "hypothesis", "psutil", "ml_dtypes", "array-api-strict"]


def test_the_newest_numpy_passes_the_tests(tmp_path):
    """The newest NumPy and array-api-compat on a newer Python, where a fresh install lands
    (NumPy 2.5 refused devices with another exception class than 2.4)."""
    base = _python_where("sys.version_info >= (3, 12)")
    if base is None:
        pytest.skip("no Python 3.12 or later besides this one")
    python = _venv(tmp_path / "venv", "numpy", "array-api-compat", *_TEST_NEEDS, base=base)
    assert _release(_versions(python)[0]) >= (2, 5), _versions(python)
    _suite_passes(python, *_WITHOUT_TORCH)


def test_the_oldest_python_passes_the_tests(tmp_path):
    """Python 3.10, the oldest pyproject.toml admits, with the newest NumPy it has (2.2):
    nothing of 3.11 (a `Self`, an `except*`, a TOML reader) has crept in."""
    base = _python_where("sys.version_info[:2] == (3, 10)")
    if base is None:
        pytest.skip("no Python 3.10 here")
    python = _venv(tmp_path / "venv", "numpy", "array-api-compat", *_TEST_NEEDS, base=base)
    _suite_passes(python, *_WITHOUT_TORCH)
