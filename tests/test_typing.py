"""The package type-checks under ``mypy --strict`` (settings in pyproject.toml's [tool.mypy])."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mypy")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean():
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "dltensor"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"mypy --strict dltensor failed:\n{r.stdout}{r.stderr}"
