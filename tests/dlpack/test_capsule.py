"""The Python C API calls dltensor makes are its own, typed once, immune to other libraries."""

import subprocess
import sys


def test_other_libraries_retyping_ctypes_pythonapi_does_not_break_dltensor():
    # pydlpack (and others) set argtypes on the shared ctypes.pythonapi function objects;
    # dltensor's calls use private function objects, so a hand-off still works.
    code = """
import ctypes
for name in ("PyCapsule_New", "PyCapsule_GetPointer", "PyCapsule_SetName", "PyCapsule_IsValid",
             "PyCapsule_GetName", "Py_IncRef", "PyMem_Malloc"):
    getattr(ctypes.pythonapi, name).argtypes = [ctypes.c_int]
    getattr(ctypes.pythonapi, name).restype = ctypes.c_int
import numpy as np, torch, dltensor as dt
sys_ok = []
t = torch.arange(6.0)
x = dt.asarray(t)
assert x.data_ptr == t.data_ptr()
y = dt.from_dlpack(t.__dlpack__(max_version=(1, 0)))
assert y.data_ptr == t.data_ptr()
m = dt.from_dlpack(dt.asarray(np.arange(3.0)).__dlpack__(max_version=(1, 0)))
assert float(dt.sum(m)) == 3.0
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
