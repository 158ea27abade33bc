"""dltensor's CUDA path with CuPy's own complex functions, compiled on the host, beside its CPU
path at complex special values (tests/cupy_complex/check.py). Run where a CuPy source checkout
is named:

    CUPY_SOURCE=/path/to/cupy [CUPY_REF=v14.2.0] python -m pytest tests/test_cupy_complex.py
"""
import importlib.util
import math
import os
import pathlib
import shutil

import pytest

from dltensor._backends import cupy_departures

SOURCE, REF = os.environ.get("CUPY_SOURCE"), os.environ.get("CUPY_REF")
pytestmark = [
    pytest.mark.skipif(not SOURCE, reason="no CuPy source checkout named (CUPY_SOURCE, and "
                       "CUPY_REF for a git directory): CuPy's complex headers are not run"),
    pytest.mark.skipif(shutil.which("g++") is None,
                       reason="no g++ here to compile CuPy's complex headers"),
]


@pytest.fixture(scope="module")
def check():
    """check.py, and CuPy's complex kernels built from the checkout (once: ~1 s)."""
    path = pathlib.Path(__file__).parent / "cupy_complex" / "check.py"
    spec = importlib.util.spec_from_file_location("cupy_complex_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, module.build(SOURCE, REF)


def test_cudas_complex_functions_are_the_cpus_where_the_spec_decides(check):
    # (differences of rounding, flushed complex64 subnormals, fused products and the signs
    # the spec leaves open are allowed, and listed by check.py -v)
    module, lib = check
    unexpected = [d for d in module.compare(lib) if not d.reason]
    assert not unexpected, "\n".join(map(module.describe, unexpected))


def test_the_check_finds_a_cuda_fix_taken_away(check, monkeypatch):
    # (without dltensor's mend, CuPy's clog takes log(x * x + y * y) where a part is NaN:
    # log(inf + NaN j) is NaN + NaN j, the spec's +inf + NaN j)
    module, lib = check
    monkeypatch.delitem(cupy_departures.DEPARTURES, "log")
    unexpected = [d for d in module.compare(lib, ["log"]) if not d.reason]
    assert {(d.dtype, d.part) for d in unexpected} == {("complex64", "real"),
                                                       ("complex128", "real")}
    inf_nan = [d for d in unexpected if d.operands[0].real == math.inf and
               math.isnan(d.operands[0].imag)]
    assert len(inf_nan) == 2 and all(d.cpu == math.inf and math.isnan(d.cuda) for d in inf_nan)
