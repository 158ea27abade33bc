"""The wheel: builds, installs with pip into a fresh virtual environment, and works from there."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_installs_in_a_fresh_venv_and_works(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(wheels), str(ROOT)], check=True)
    (wheel,) = wheels.glob("dltensor-*.whl")
    # Its runtime dependencies (numpy, array-api-compat) come from this interpreter's
    # site-packages, so the test needs no network; dltensor itself only from the wheel.
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                   check=True)
    code = """
import pathlib, sys
import dltensor as dt, numpy as np
assert pathlib.Path(dt.__file__).is_relative_to(pathlib.Path(sys.prefix)), dt.__file__
assert (pathlib.Path(dt.__file__).parent / "py.typed").is_file()
x = dt.asarray(np.arange(4.0))
assert float(dt.sum(dt.exp(x))) > 0 and dt.__array_api_version__ == "2025.12"
print(dt.__version__)
"""
    out = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    import dltensor
    assert out.stdout.strip() == dltensor.__version__
