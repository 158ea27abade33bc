"""dltensor's own CuPy kernels (``cupy_departures.KERNELS``) compiled by nvcc as CuPy 14 wraps
an ElementwiseKernel (``_get_elementwise_kernel_code``: each parameter a reference into its
array, declared in the loop beside the operation) over CuPy's own headers, for each C type the
kernel's ``T`` takes: a kernel that does not compile would otherwise fail only on a GPU. Run
where nvcc and a CuPy source checkout are:

    CUPY_SOURCE=/path/to/cupy [CUPY_REF=v14.2.0] python -m pytest tests/test_cupy_kernels.py
"""
import io
import os
import pathlib
import shutil
import subprocess
import tarfile

import pytest

from dltensor._backends.cupy_departures import KERNELS

SOURCE, REF = os.environ.get("CUPY_SOURCE"), os.environ.get("CUPY_REF")
NVCC = shutil.which("nvcc")
pytestmark = [
    pytest.mark.skipif(not SOURCE, reason="no CuPy source checkout named (CUPY_SOURCE, and "
                       "CUPY_REF for a git directory): dltensor's kernels are not compiled"),
    pytest.mark.skipif(NVCC is None, reason="no nvcc here to compile dltensor's CuPy kernels"),
]
INCLUDE = "cupy/_core/include"
CASES = [(name, ctype) for name, row in KERNELS.items() for ctype in row[4]]


@pytest.fixture(scope="module")
def include(tmp_path_factory):
    """CuPy's headers: the work tree's, or (CUPY_REF) the commit's."""
    if not REF:
        path = pathlib.Path(SOURCE) / INCLUDE
        assert (path / "cupy" / "carray.cuh").is_file(), f"{SOURCE} is no CuPy work tree"
        return path
    tar = subprocess.run(["git", "-C", SOURCE, "archive", REF, INCLUDE], capture_output=True)
    assert tar.returncode == 0, tar.stderr.decode()
    root = tmp_path_factory.mktemp("cupy")
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as t:
        t.extractall(root, filter="data")
    return root / INCLUDE


def _source(name: str, ctype: str) -> str:
    ins, outs, code, _, _ = KERNELS[name]
    params = [(p.split()[1], p.split()[0] == "T") for p in f"{ins}, {outs}".split(",")]
    assert all(typed for _, typed in params), f"{name}: every parameter of type T"
    refs = [f"{'const ' if i < len(ins.split(',')) else ''}T &{n} = _raw_{n}[_ind.get()];"
            for i, (n, _) in enumerate(params)]
    arrays = ", ".join(f"CArray<T, 1, true, true> _raw_{n}" for n, _ in params)
    body = "\n".join(refs + [code])
    return f"""#include <cupy/complex.cuh>
#include <cupy/carray.cuh>
#include <cupy/atomics.cuh>
#include <cupy/math_constants.h>
typedef {ctype} T;
extern "C" __global__ void {name}({arrays}, CIndexer<1, true> _ind) {{
  #pragma unroll 1
  CUPY_FOR(i, _ind.size()) {{
    _ind.set(i);
    {body};
  }}
}}
"""


@pytest.mark.parametrize("name, ctype", CASES, ids=[f"{n}-{t.replace(' ', '_')}" for n, t in CASES])
def test_each_kernel_compiles_for_the_gpu_as_cupy_wraps_it(name, ctype, include, tmp_path):
    src = tmp_path / f"{name}.cu"
    src.write_text(_source(name, ctype))
    options = KERNELS[name][3]
    done = subprocess.run([NVCC, "-arch=sm_90", "-std=c++17", *options, f"-I{include}", "-c",
                           str(src), "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
