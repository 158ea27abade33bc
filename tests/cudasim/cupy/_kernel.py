"""CuPy's ElementwiseKernel run on the host: the kernel's operation, CUDA C++ that dltensor
writes, compiled by the system's C compiler and looped over the broadcast NumPy arrays.

So the code dltensor gives CuPy as a kernel runs here as written, in IEEE arithmetic
(``tgmath.h`` stands in for CUDA's overloaded math functions: fmod, floor, copysign of a
float are float's). Not modelled: fused multiply-adds, which NVRTC forms by default from
``a * b + c`` (an operation free of them computes the same here as on a GPU), and CUDA-only
types (float16 and complex: dltensor widens or splits those before a kernel). Standalone
(no imports from the simulator), so tests can run a kernel over NumPy arrays directly.
"""
import ctypes
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

_CTYPES = {np.dtype(np.float32): "float", np.dtype(np.float64): "double",
           np.dtype(np.int64): "long long", np.dtype(np.uint64): "unsigned long long"}
_PARAM = re.compile(r"\s*(const\s+)?([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*")
_built = {}


def _params(text):
    params = []
    for p in text.split(","):
        m = _PARAM.fullmatch(p)
        if m is None or m.group(2) in np.sctypeDict:
            raise NotImplementedError(f"the simulator's kernels take 'T name' parameters "
                                      f"(one type placeholder), not {p!r}")
        params.append((m.group(2), m.group(3)))
    return params


class Kernel:
    """``Kernel(in_params, out_params, operation, name)(*arrays)``: NumPy arrays in (one
    dtype per type placeholder, as CuPy decides them; a Python scalar takes its placeholder's
    type from the arrays, as CuPy converts it), a tuple of NumPy arrays out (one output: the
    array)."""

    def __init__(self, in_params, out_params, operation, name="kernel", options=()):
        # (options, NVRTC's, are not read: the host compiles without contractions, as
        # --fmad=false asks of NVRTC)
        self.ins, self.outs = _params(in_params), _params(out_params)
        self.operation, self.name = operation, name

    def __call__(self, *arrays):
        if len(arrays) != len(self.ins):
            raise TypeError(f"Wrong number of arguments for {self.name!r}. It must be "
                            f"{len(self.ins)}, but given {len(arrays)}.")
        types = {}
        for (t, n), a in zip(self.ins, arrays):
            if type(a) in (bool, int, float):
                continue
            if not isinstance(a, np.ndarray):
                raise NotImplementedError(f"the simulator's kernels take arrays, not {a!r}")
            if types.setdefault(t, a.dtype) != a.dtype:  # (CuPy's words)
                raise TypeError(f"Type is mismatched. {n} {a.dtype.type} {types[t].type}")
        if any(t not in types for t, _ in self.ins):
            raise TypeError(f"Cannot determine the type of {sorted(t for t, _ in self.ins)}")
        arrays = [np.asarray(a, types[t]) for (t, _), a in zip(self.ins, arrays)]  # (scalars)
        missing = {t for t, _ in self.outs} - set(types)
        if missing:
            raise TypeError(f"Cannot determine the type of {sorted(missing)}")
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
        ins = [np.ascontiguousarray(np.broadcast_to(a, shape)) for a in arrays]
        outs = [np.empty(shape, types[t]) for t, _ in self.outs]
        fn = self._build({t: types[t] for t in sorted(types)})
        fn(*(a.ctypes.data_as(ctypes.c_void_p) for a in ins + outs), ctypes.c_ssize_t(
            int(np.prod(shape))))
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _build(self, types):
        key = (self.operation, str(self.ins), str(self.outs), tuple(types.items()))
        fn = _built.get(key)
        if fn is None:
            for t, dt in types.items():
                if dt not in _CTYPES:
                    raise NotImplementedError(f"the simulator's kernels take float32 and "
                                              f"float64, not {dt}")
            typedefs = "".join(f"typedef {_CTYPES[dt]} {t};\n" for t, dt in types.items())
            args = ", ".join([f"const {t} *_in_{n}" for t, n in self.ins] +
                             [f"{t} *_out_{n}" for t, n in self.outs] + ["ptrdiff_t _n"])
            ins = "".join(f"const {t} {n} = _in_{n}[_i];\n" for t, n in self.ins)
            outs = "".join(f"#define {n} (_out_{n}[_i])\n" for _, n in self.outs)
            source = (f"#include <stddef.h>\n#include <tgmath.h>\n{typedefs}"
                      f"void kernel({args}) {{\nfor (ptrdiff_t _i = 0; _i < _n; _i++) {{\n"
                      f"{ins}{outs}{{\n{self.operation}\n}}\n}}\n}}\n")
            # The library stays mapped once loaded, so its folder goes at once: thousands of
            # kernels a suite run would otherwise pile up in /tmp.
            with tempfile.TemporaryDirectory(prefix="cudasim-kernel-") as folder:
                c, so = os.path.join(folder, "k.c"), os.path.join(folder, "k.so")
                with open(c, "w") as f:
                    f.write(source)
                cc = os.environ.get("CC", "cc")
                if shutil.which(cc) is None:
                    raise RuntimeError(f"the CUDA simulator runs kernels with a C compiler: no "
                                       f"{cc!r} here (set CC)")
                done = subprocess.run([cc, "-std=c11", "-O2", "-ffp-contract=off", "-shared",
                                       "-fPIC", c, "-o", so, "-lm"], capture_output=True,
                                      text=True)
                if done.returncode:  # (as CuPy's CompileException: the source and the errors)
                    raise RuntimeError(f"kernel {self.name!r} does not compile:\n{source}\n"
                                       f"{done.stderr}")
                fn = _built[key] = ctypes.CDLL(so).kernel
            fn.restype = None
        return fn
