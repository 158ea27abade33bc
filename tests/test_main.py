"""``python -m dltensor``: the report runs, and its hand-off matrix tells the truth."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import dltensor
from dltensor import __main__ as report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(dltensor.__file__)))


def _run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get(
        "PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "dltensor", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=180)


def _matrix_row(text: str, source: str) -> dict[str, str]:
    """``{target: cell}`` for one source row of the printed matrix."""
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("source \\ target"))
    # Columns are left-aligned, so each starts where its name starts in the header.
    names = lines[header].split()[3:]
    starts = [lines[header].index(n) for n in names]
    row = next(line for line in lines[header + 2:] if line.split()[0] == source)
    ends = starts[1:] + [None]
    return {n: row[a:b].strip() for n, a, b in zip(names, starts, ends)}


def test_report_prints_versions_devices_and_a_zero_copy_matrix():
    proc = _run()
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert re.search(rf"^  dltensor +{re.escape(dltensor.__version__)}$", out, re.M)
    assert re.search(rf"^  numpy +{re.escape(np.__version__)}$", out, re.M)
    assert "cpu: NumPy computes here" in out
    row = _matrix_row(out, "numpy")
    assert row["numpy"].startswith("yes "), row
    assert row["torch"].startswith("yes "), row
    assert row["numpy"].endswith(" us") and float(row["numpy"].split()[1]) > 0


def test_json_report_has_the_same_facts():
    proc = _run("--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["versions"]["dltensor"] == dltensor.__version__
    cells = data["handoffs"]["matrix"]["numpy"]
    assert cells["numpy"]["zero_copy"] is True
    assert cells["torch"]["zero_copy"] is True
    assert cells["numpy"]["us"] > 0


def test_data_pointer_reads_each_framework_its_own_way():
    a = np.arange(4, dtype=np.float32)
    ptr = a.__array_interface__["data"][0]
    assert report.data_pointer(a) == ptr
    assert report.data_pointer(dltensor.asarray(a)) == ptr
    assert report.data_pointer(a[1:]) == ptr + 4  # an offset view is a different address


def test_a_refusing_target_and_a_missing_framework_are_reported_not_raised(monkeypatch):
    def refuse(x):
        raise BufferError("this consumer refuses everything")

    monkeypatch.setitem(report.FRAMEWORKS, "refuser",
                        ("numpy", report.FRAMEWORKS["numpy"][1], lambda m: refuse))
    monkeypatch.setitem(report.FRAMEWORKS, "absent",
                        ("no_such_framework_xyz", report.FRAMEWORKS["numpy"][1],
                         lambda m: m.from_dlpack))
    result = report.handoff_matrix(["numpy", "refuser", "absent"])
    assert result["unavailable"] == {"absent": "not installed"}
    assert result["matrix"]["numpy"]["numpy"]["zero_copy"] is True
    assert "BufferError: this consumer refuses everything" in \
        result["matrix"]["numpy"]["refuser"]["error"]
    text = report._format_matrix(result)
    assert "refused: BufferError" in text and "absent: not installed" in text


def test_a_gpu_framework_without_a_gpu_is_skipped_and_a_copying_jax_explained():
    # On a CPU-only machine torch[cuda] and jax[gpu] printed RuntimeErrors that read as
    # failures; and a NO* under JAX said nothing of why (its 64-byte alignment)
    result = report.handoff_matrix(["numpy", "torch[cuda]", "jax[gpu]", "jax"])
    for name, why in (("torch[cuda]", "skipped, this PyTorch sees no CUDA device"),
                      ("jax[gpu]", "skipped, this JAX sees no GPU")):
        if name not in result["matrix"]:  # (a machine with a GPU makes its row)
            assert result["unavailable"][name] in (why, "not installed")
    result["matrix"]["numpy"]["jax"] = {"zero_copy": False, "copied_by": "target", "us": 1.0}
    text = report._format_matrix(result)
    assert "NO*" in text and "64 bytes" in text


def test_data_pointer_asks_each_framework_and_numpy_for_the_rest():
    import array_api_strict as xs
    import jax.numpy as jnp
    import torch

    from producers import from_numpy
    a = np.arange(4, dtype=np.float32)
    t, j = torch.arange(4.0), jnp.arange(4.0)
    assert report.data_pointer(t) == t.data_ptr()
    assert report.data_pointer(j) == j.unsafe_buffer_pointer()
    s = xs.asarray(a)
    assert report.data_pointer(s) == report.data_pointer(s._array)
    # (any other DLPack producer: NumPy's import of it, which never copies)
    assert report.data_pointer(from_numpy(a)) == a.__array_interface__["data"][0]


def test_cells_say_who_copied_and_errors_are_cut_at_40_characters():
    copying = report._cell(np.arange(4.0), np.array)  # (the target copies; dltensor did not)
    assert copying["zero_copy"] is False and copying["copied_by"] == "target"
    assert report._format_cell(copying).startswith("NO* ")
    assert report._format_cell({"zero_copy": False, "copied_by": "dltensor", "us": 1.0}) \
        .startswith("NO  ")
    forty = "E" * 40
    assert report._format_cell({"error": forty}) == "refused: " + forty
    assert report._format_cell({"error": forty + "F"}) == "refused: " + "E" * 37 + "..."


def test_devices_and_imports_say_what_is_missing():
    import torch
    assert report._import("no_such_module_xyz").startswith("ModuleNotFoundError: ")
    lines = report.devices()
    if not torch.cuda.is_available():
        assert f"cuda (torch {torch.__version__}): none visible" in lines
    if not report._installed("cupy"):
        assert "cuda (CuPy): not installed" in lines


def test_a_checkout_without_package_metadata_is_reported_as_what_it_is(monkeypatch, tmp_path):
    # (devices() and versions() asked the package metadata, which a checkout lacks: a CuPy
    # checkout that fails to import was "not installed", a working one "missing")
    (tmp_path / "cupy.py").write_text("raise ImportError('libcuda.so.1: no such file')\n")
    (tmp_path / "jaxlib.py").write_text("__version__ = '0.0.dev0'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("cupy", "jaxlib"):  # (set first, so that undoing takes the fakes out too)
        monkeypatch.setitem(sys.modules, name, None)
        monkeypatch.delitem(sys.modules, name)
    from importlib import metadata

    def no_metadata(dist):
        raise metadata.PackageNotFoundError(dist)

    monkeypatch.setattr(metadata, "version", no_metadata)
    assert "cuda (CuPy): ImportError: libcuda.so.1: no such file" in report.devices()
    found = report.versions()
    assert found["jaxlib"] == "0.0.dev0"
    assert found["cupy"] == "fails to import (ImportError: libcuda.so.1: no such file)"


def test_a_framework_without_from_dlpack_is_unavailable_not_a_crash(monkeypatch):
    # (PyTorch before 1.10 and JAX before 0.4 have no top-level from_dlpack)
    monkeypatch.setitem(report.FRAMEWORKS, "old",
                        ("numpy", report.FRAMEWORKS["numpy"][1], lambda m: m.no_from_dlpack))
    result = report.handoff_matrix(["numpy", "old"])
    assert result["unavailable"]["old"].startswith("AttributeError: ")
    assert list(result["matrix"]) == ["numpy"] and list(result["matrix"]["numpy"]) == ["numpy"]


def test_a_bare_folder_named_like_a_framework_is_not_one(monkeypatch, tmp_path):
    # (python -m puts the current directory on the path: a folder "cupy" there is a namespace
    # package to find_spec, and the report said CuPy had no from_dlpack)
    (tmp_path / "bare_fw_xyz").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(report.FRAMEWORKS, "bare",
                        ("bare_fw_xyz", report.FRAMEWORKS["numpy"][1], lambda m: m.from_dlpack))
    assert report.handoff_matrix(["bare"])["unavailable"] == {"bare": "not installed"}


def test_a_framework_found_without_package_metadata_is_in_the_matrix(monkeypatch, tmp_path):
    # A checkout on the path has no dist-info: it is installed all the same
    (tmp_path / "checkout_fw_xyz.py").write_text("from numpy import from_dlpack, arange\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(report.FRAMEWORKS, "checkout",
                        ("checkout_fw_xyz", report.FRAMEWORKS["numpy"][1], lambda m: m.from_dlpack))
    result = report.handoff_matrix(["numpy", "checkout"])
    assert result["unavailable"] == {}
    assert result["matrix"]["checkout"]["numpy"]["zero_copy"] is True


def test_a_torch_that_fails_to_count_its_gpus_is_a_line_of_the_report(monkeypatch):
    import torch

    def broken(*args):
        raise RuntimeError("CUDA error: no kernel image")

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(torch.cuda, "get_device_name", broken)
    assert "cuda (torch): no device (RuntimeError: CUDA error: no kernel image)" in report.devices()


def test_versions_are_strings_and_variant_distributions_are_found(monkeypatch):
    import ml_dtypes
    from importlib import metadata
    monkeypatch.setattr(ml_dtypes, "__version__", b"0.7", raising=False)
    assert report.versions()["ml_dtypes"] == "b'0.7'"  # (json.dumps of bytes raised)

    def version(dist):
        if dist == "tensorflow-cpu":
            return "2.21.0"
        raise metadata.PackageNotFoundError(dist)

    monkeypatch.setattr(metadata, "version", version)
    assert report._dist_version("tensorflow") == "2.21.0"


def test_a_broken_package_is_named_even_on_an_ascii_stdout(tmp_path):
    # Its error (a path with a non-ASCII letter) is escaped, not a UnicodeEncodeError; the
    # versions say it is there and broken, not "missing"
    (tmp_path / "array_api_strict").mkdir()
    (tmp_path / "array_api_strict" / "__init__.py").write_text(
        'raise ImportError("cannot open /home/j\\u00f3zef/lib")\n')
    env = dict(os.environ, PYTHONIOENCODING="ascii",
               PYTHONPATH=os.pathsep.join([str(tmp_path), ROOT]))
    proc = subprocess.run([sys.executable, "-m", "dltensor"], capture_output=True, env=env,
                          cwd=ROOT, timeout=180)
    out = proc.stdout.decode("ascii")
    assert proc.returncode == 0, proc.stderr
    assert "array_api_strict  fails to import (ImportError: cannot open /home/j\\xf3zef/lib)" \
        in out
    assert "array_api_strict: ImportError: cannot open /home/j\\xf3zef/lib" in out


def test_the_report_runs_under_python_oo_and_a_closed_pipe_is_quiet():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get(
        "PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-OO", "-m", "dltensor", "--help"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and "--json" in proc.stdout, proc.stderr
    # (`python -m dltensor | head -1`: the reader has gone before the report is printed)
    reader = subprocess.Popen([sys.executable, "-m", "dltensor", "--json"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()
    _, err = reader.communicate(timeout=180)
    assert reader.returncode == 1 and b"Traceback" not in err and b"Exception" not in err, err
