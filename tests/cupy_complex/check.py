"""dltensor's CUDA path beside its CPU path at complex special values, with CuPy's own complex
functions, compiled on the host from a CuPy source checkout that is not part of this repository:

    CUPY_SOURCE=/path/to/cupy python tests/cupy_complex/check.py [-v]
    CUPY_SOURCE=/path/to/cupy.git CUPY_REF=v14.2.0 python tests/cupy_complex/check.py

CUPY_SOURCE is a work tree (its files as they are) or, with CUPY_REF, any git directory, a bare
mirror too. Its complex headers (cupy/_core/include/cupy/complex.cuh and complex/*.h, thrust's,
from FreeBSD's msun) are compiled with harness.cpp (the operations of CuPy 14.2's complex
ufuncs) by g++ in a temporary folder; nothing of CuPy's is copied here.

dltensor's CUDA dispatch (``_elementwise._function``, as a CuPy array meets it) then runs over
NumPy arrays standing in for CuPy's: the complex ufuncs and operators they meet are that
build's, dltensor's own ElementwiseKernels the CUDA simulator's, compiled by the C compiler
(tests/cudasim/cupy/_kernel.py), the rest NumPy's. At every pair of special values (every pair
of pairs for the binary functions) a part of the result that differs from dltensor's CPU path is
reported, and is allowed where it is
  rounding  finite, of one sign, within ULPS (the host's libm stands in for CUDA's libdevice,
            and NumPy's complex functions are not thrust's);
  flushed   complex64's: zero on one path, on the other under twice the smallest normal (CuPy
            compiles its kernels with -ftz=true: a subnormal is zero, maybe then scaled, as
            log2's by 1 / ln 2);
  fused     a part a * c - b * d or a * d + b * c of a complex product (multiply, square) off by
            no more than its products' rounding, or anything where a product of finite parts
            overflows (inf - inf is NaN; fused, the sum may be finite): NumPy's SIMD loops
            fuse one product into the sum where the CPU has FMA (NVRTC fuses by default: a
            question for a GPU run);
  open      a sign the spec leaves open (OPEN_SIGNS).
The exit status is 1 when anything else differs.
"""
import argparse
import ctypes
import functools
import importlib.util
import io
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import types
import warnings
from typing import NamedTuple

import numpy as np

import dltensor
from dltensor import _elementwise as ew

HERE = pathlib.Path(__file__).resolve().parent
HEADERS = ("cupy/_core/include/cupy/complex.cuh", "cupy/_core/include/cupy/complex")
# (namespace.h includes CCCL's config header for these two lines only)
_THRUST_CONFIG = ("#pragma once\n#define THRUST_NAMESPACE_BEGIN namespace thrust {\n"
                  "#define THRUST_NAMESPACE_END }\n")

UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
         "expm1", "log", "log1p", "log2", "log10", "reciprocal", "sign", "sin", "sinh", "sqrt",
         "square", "tan", "tanh"]
# (not pow: the spec's complex pow is exp(x2 * log(x1)), CuPy's, where NumPy's is its own
# products or C's cpow; dltensor's CUDA power takes NumPy's branches in a kernel, tested to the
# bit in tests/api/test_elementwise.py)
BINARY = ["add", "subtract", "multiply", "divide"]

ULPS = 4  # (the report gives the largest: 2 in complex64, 3 in complex128 with CuPy 14.2)

# The signs the spec leaves open, in its words (a = real(x_i), b = imag(x_i)), as
# {function: [(a's class, b's class, the parts whose sign is open)]}. A class without a sign
# takes both: the spec states its cases for b >= 0, exp(conj(x)) == conj(exp(x)) giving b < 0,
# and for a >= 0 where the function is odd (sinh, asinh) or even (cosh).
OPEN_SIGNS = {
    "exp": [
        # "If a is -infinity and b is +infinity, the result is 0 + 0j (signs of real and
        # imaginary components are unspecified)."
        ("-inf", "inf", "real imag"),
        # "If a is +infinity and b is +infinity, the result is infinity + NaN j (sign of real
        # component is unspecified)."
        ("+inf", "inf", "real"),
        # "If a is -infinity and b is NaN, the result is 0 + 0j (signs of real and imaginary
        # components are unspecified)."
        ("-inf", "nan", "real imag"),
        # "If a is +infinity and b is NaN, the result is infinity + NaN j (sign of real
        # component is unspecified)."
        ("+inf", "nan", "real"),
    ],
    "sinh": [
        # "If a is +0 and b is +infinity, the result is 0 + NaN j (sign of the real component
        # is unspecified)."
        ("0", "inf", "real"),
        # "If a is +0 and b is NaN, the result is 0 + NaN j (sign of the real component is
        # unspecified)."
        ("0", "nan", "real"),
        # "If a is +infinity and b is +infinity, the result is infinity + NaN j (sign of the
        # real component is unspecified)."
        ("inf", "inf", "real"),
        # "If a is +infinity and b is NaN, the result is infinity + NaN j (sign of the real
        # component is unspecified)."
        ("inf", "nan", "real"),
    ],
    "cosh": [
        # "If a is +0 and b is +infinity, the result is NaN + 0j (sign of the imaginary
        # component is unspecified)."
        ("0", "inf", "imag"),
        # "If a is +0 and b is NaN, the result is NaN + 0j (sign of the imaginary component is
        # unspecified)."
        ("0", "nan", "imag"),
        # "If a is +infinity and b is +infinity, the result is +infinity + NaN j (sign of the
        # real component is unspecified)."
        ("inf", "inf", "real"),
        # "If a is NaN and b is either +0 or -0, the result is NaN + 0j (sign of the imaginary
        # component is unspecified)."
        ("nan", "0", "imag"),
    ],
    "asinh": [
        # "If a is NaN and b is +infinity, the result is ±infinity + NaN j (sign of the real
        # component is unspecified)."
        ("nan", "inf", "real"),
    ],
}
# "For complex floating-point operands, special cases must be handled as if the operation is
# implemented as -1j * sinh(x*1j)" (sin), "cosh(x*1j)" (cos), "-1j * asinh(x*1j)" (asin):
# function: (the function at x*1j, whether -1j * swaps the parts)
ROTATED = {"sin": ("sinh", True), "cos": ("cosh", False), "asin": ("asinh", True)}
_CLASSES = {"0": lambda v: v == 0, "inf": np.isinf, "+inf": lambda v: v == np.inf,
            "-inf": lambda v: v == -np.inf, "nan": np.isnan}

FUSED = {"multiply", "square"}  # (their parts are a * c - b * d and a * d + b * c)


def build(source, ref=None):
    """CuPy's complex kernels: harness.cpp over the checkout's headers, compiled and loaded."""
    if shutil.which("g++") is None:
        raise RuntimeError("no g++ here to compile CuPy's complex headers")
    with tempfile.TemporaryDirectory(prefix="cupy-complex-") as tmp:
        tmp = pathlib.Path(tmp)
        if ref:
            tar = subprocess.run(["git", "-C", str(source), "archive", ref, *HEADERS],
                                 capture_output=True)
            if tar.returncode:
                raise RuntimeError(f"no CuPy complex headers in {source} at {ref}: "
                                   f"{tar.stderr.decode().strip()}")
            with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as t:
                for member in filter(tarfile.TarInfo.isfile, t.getmembers()):
                    path = tmp / "cupy" / member.name  # (git's names: relative, plain files)
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(t.extractfile(member).read())
            include = tmp / "cupy" / "cupy" / "_core" / "include"
        else:
            include = pathlib.Path(source) / "cupy" / "_core" / "include"
            if not (include / "cupy" / "complex.cuh").is_file():
                raise RuntimeError(f"{source} is no CuPy work tree (no {HEADERS[0]}); for a git "
                                   "directory name the commit too (CUPY_REF)")
        config = tmp / "stub" / "thrust" / "detail" / "config"
        config.mkdir(parents=True)
        (config / "namespace.h").write_text(_THRUST_CONFIG)
        so = tmp / "libcupy_complex.so"
        done = subprocess.run(["g++", "-std=c++17", "-O2", "-ffp-contract=off", "-fPIC",
                               "-shared", f"-I{include}", f"-I{tmp / 'stub'}",
                               str(HERE / "harness.cpp"), "-o", str(so)],
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"CuPy's complex headers do not compile here:\n{done.stderr}")
        lib = ctypes.CDLL(str(so))  # (mapped, it outlives its folder)
    lib.cupy_unary.argtypes = [ctypes.c_char_p, ctypes.c_int] + [ctypes.c_void_p] * 2 + [
        ctypes.c_long]
    lib.cupy_binary.argtypes = [ctypes.c_char_p, ctypes.c_int] + [ctypes.c_void_p] * 3 + [
        ctypes.c_long]
    return lib


# --- NumPy arrays standing in for CuPy's ---------------------------------------------------

_KERNELS = {"absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh",
            "conjugate", "cos", "cosh", "exp", "expm1", "log", "log10", "log1p", "log2",
            "negative", "positive", "reciprocal", "sign", "sin", "sinh", "sqrt", "square", "tan",
            "tanh", "add", "subtract", "multiply", "divide", "power"}
_NUMPYS = {"equal", "not_equal", "isnan", "isinf", "isfinite"}  # (one meaning in both)


class Device(np.ndarray):
    """A NumPy array standing for a CuPy one: a ufunc with a complex operand is CuPy's kernel
    (``lib``'s), as are its operators; any other is NumPy's."""
    lib = None

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [x.view(np.ndarray) if isinstance(x, Device) else x for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(o.view(np.ndarray) for o in kwargs["out"])
        name = ufunc.__name__
        if method == "__call__" and name not in _NUMPYS and np.result_type(*plain).kind == "c":
            if name not in _KERNELS or kwargs:
                raise NotImplementedError(f"CuPy's complex {name} ({kwargs or 'no options'}) "
                                          "has no kernel in harness.cpp")
            return on_device(_kernel(self.lib, name, np.result_type(*plain), plain))
        return on_device(getattr(ufunc, method)(*plain, **kwargs))


def _kernel(lib, name, dtype, operands):
    shape = np.broadcast_shapes(*(np.shape(v) for v in operands))
    arrays = [np.ascontiguousarray(np.broadcast_to(np.asarray(v, dtype), shape))
              for v in operands]
    out = np.empty(shape, dtype)
    pointers = [a.ctypes.data for a in arrays + [out]]
    call = lib.cupy_unary if len(arrays) == 1 else lib.cupy_binary
    if call(name.encode(), int(dtype == np.complex128), *pointers, out.size):
        raise NotImplementedError(f"no {name} in harness.cpp")
    return out.real.copy() if name == "absolute" else out  # (CuPy's 'F->f')


def on_device(r):
    if isinstance(r, tuple):
        return tuple(on_device(v) for v in r)
    if isinstance(r, np.generic):  # (CuPy's results are 0-d arrays)
        r = np.asarray(r)
    return r.view(Device) if isinstance(r, np.ndarray) and not isinstance(r, Device) else r


@functools.cache
def _simulator_kernel():
    path = HERE.parent / "cudasim" / "cupy" / "_kernel.py"
    spec = importlib.util.spec_from_file_location("_host_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Kernel


class CuPy(types.ModuleType):
    """An array module for dltensor's CUDA dispatch: NumPy's functions, their results Device
    arrays, and the CUDA simulator's ElementwiseKernel."""

    def __init__(self):
        super().__init__("cupy_on_the_host")
        self.ElementwiseKernel = _simulator_kernel()

    def __getattr__(self, name):
        f = getattr(np, name)
        if isinstance(f, np.ufunc):  # (NumPy arrays and scalars in: routed as Device arrays)
            return lambda *args, **kwargs: f(*(on_device(a) for a in args), **kwargs)
        if callable(f) and not isinstance(f, type):
            return lambda *args, **kwargs: on_device(f(*args, **kwargs))
        return f


# --- the comparison ------------------------------------------------------------------------

class Difference(NamedTuple):
    function: str
    dtype: str
    operands: tuple  # (complex scalars of the dtype)
    part: str  # "real" or "imag"
    cpu: np.generic
    cuda: np.generic
    reason: str  # "rounding", "flushed", "fused" or "open"; "" where nothing allows it


def special_values(dtype):
    """Every pair of signed zeros, ±1, 0.5, -2.5, a tiny normal, ± a number past half the
    largest (its square overflows, and |z + 1| may), ±infinity and NaN, as complex numbers of
    ``dtype``."""
    part = np.finfo(dtype).dtype
    tiny, big = (1e-300, 1e308) if part == np.float64 else (1e-30, 3e38)
    v = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, tiny, big, -big, np.inf, -np.inf, np.nan],
                 part)
    z = np.empty(v.size ** 2, dtype)
    z.real, z.imag = np.repeat(v, v.size), np.tile(v, v.size)
    return z


def open_signs(name, z):
    """Per element of ``z``, whether the spec leaves the sign of f(z)'s real, imaginary part
    open."""
    if name in ROTATED:
        base, swap = ROTATED[name]
        w = np.empty_like(z)
        w.real, w.imag = -z.imag, z.real  # (x*1j, exactly)
        real, imag = open_signs(base, w)
        return (imag, real) if swap else (real, imag)
    real, imag = np.zeros(z.shape, bool), np.zeros(z.shape, bool)
    for a, b, parts in OPEN_SIGNS.get(name, ()):
        at = _CLASSES[a](z.real) & _CLASSES[b](z.imag)
        real |= at if "real" in parts else False
        imag |= at if "imag" in parts else False
    return real, imag


def fusing(x, y):
    """Per part of x * y (the real a * c - b * d, the imaginary a * d + b * c): how far fusing
    may move it (an ulp of each product, whose rounding a fused one skips), and whether a
    product of finite parts overflows (where a fused one need not)."""
    def part(p, q, r, s):
        products = (p * q, r * s)
        slack = sum(np.spacing(np.abs(v)) for v in products)
        over = [np.isfinite(u) & np.isfinite(v) & np.isinf(u * v) for u, v in ((p, q), (r, s))]
        return slack, over[0] | over[1]
    return (part(x.real, y.real, x.imag, y.imag), part(x.real, y.imag, x.imag, y.real))


def _reasons(dtype, c, g, open_sign, fused):
    """Per element of one part (the CPU's ``c``, CUDA's ``g``): None where they are equal (NaNs
    of either sign), else what allows the difference ("" for nothing). ``open_sign``: where
    its sign is open; ``fused``: None, or the part's slack and overflow (fusing)."""
    bits = np.dtype(f"i{c.dtype.itemsize}")
    ic, ig = c.view(bits).astype(np.int64), g.view(bits).astype(np.int64)
    nan_c, nan_g = np.isnan(c), np.isnan(g)
    one_sign = np.signbit(c) == np.signbit(g)
    tiny = np.finfo(c.dtype).tiny
    finite = np.isfinite(c) & np.isfinite(g)
    rounding = finite & (c != 0) & (g != 0) & one_sign & (np.abs(ic - ig) <= ULPS)
    flushed = (dtype == np.complex64) & one_sign & (
        (c == 0) & (np.abs(g) < 2 * tiny) | (g == 0) & (np.abs(c) < 2 * tiny))
    if fused is not None:
        slack, over = fused
        fused = finite & (np.abs(c.astype(float) - g) <= slack) | over
    else:
        fused = False
    opened = open_sign & ~nan_c & ~nan_g & (np.abs(c) == np.abs(g))
    why = np.full(c.shape, "", object)
    for allowed, reason in ((rounding, "rounding"), (flushed, "flushed"), (fused, "fused"),
                            (opened, "open")):  # (the last that applies named)
        why[np.broadcast_to(allowed, c.shape)] = reason
    why[nan_c & nan_g | (ic == ig)] = None
    return why


def cpu(name, *operands):
    return np.asarray(getattr(dltensor, name)(*(dltensor.asarray(a) for a in operands)))


def cuda(xp, name, *operands):
    row = (ew.UNARY if len(operands) == 1 else ew.BINARY)[name]
    fn = ew._function(row[1], row[2] if len(row) > 2 else None, xp, ew._kind(operands[0].dtype))
    return np.asarray(fn(*(a.view(Device) for a in operands))).view(np.ndarray)


def compare(lib, functions=None):
    """Every part where dltensor's CUDA path (CuPy's kernels ``lib``) and its CPU path differ,
    for ``functions`` (default UNARY and BINARY), complex64 and complex128."""
    Device.lib, xp, found = lib, CuPy(), []
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for dtype in map(np.dtype, (np.complex64, np.complex128)):
            z = special_values(dtype)
            for name in functions or UNARY + BINARY:
                operands = (z,) if name in UNARY else (np.repeat(z, z.size), np.tile(z, z.size))
                c, g = cpu(name, *operands), cuda(xp, name, *operands)
                assert c.dtype == g.dtype and c.shape == g.shape, (name, c.dtype, g.dtype)
                open_sign = open_signs(name, z) if name in UNARY else (False, False)
                fused = fusing(*(operands * 2)[:2]) if name in FUSED else (None, None)
                parts = ("real", "imag") if c.dtype.kind == "c" else ("real",)
                for i, part in enumerate(parts):
                    why = _reasons(dtype, getattr(c, part), getattr(g, part), open_sign[i],
                                   fused[i])
                    for k in np.flatnonzero(why != None):  # noqa: E711 (element-wise)
                        found.append(Difference(name, dtype.name,
                                                tuple(o[k] for o in operands), part,
                                                getattr(c, part)[k], getattr(g, part)[k],
                                                why[k]))
    return found


def _value(v):
    return f"({v.real}, {v.imag})" if np.iscomplexobj(v) else str(v)


def describe(d):
    operands = ", ".join(_value(o) for o in d.operands)
    return (f"{d.function}({operands}) {d.dtype} {d.part}: CPU {_value(d.cpu)}, "
            f"CUDA {_value(d.cuda)}{f'  [{d.reason}]' if d.reason else ''}")


def report(found, functions, verbose=False):
    """The report: per function and dtype, differences by reason, then the unexpected ones."""
    reasons = ("rounding", "flushed", "fused", "open", "")
    counts = {}
    for d in found:
        counts.setdefault((d.function, d.dtype), dict.fromkeys(reasons, 0))[d.reason] += 1
    lines = [f"{'function':10} {'dtype':10} " + " ".join(f"{r or 'unexpected':>10}"
                                                     for r in reasons)]
    lines += [f"{f:10} {t:10} " + " ".join(f"{n[r]:10}" for r in reasons)
              for (f, t), n in counts.items()]
    same = [f for f in functions if not any(f == g for g, _ in counts)]
    lines.append(f"equal in both dtypes: {', '.join(same) or 'none'}")
    worst = {}
    for d in found:
        if d.reason == "rounding":
            bits = np.dtype(f"i{d.cpu.dtype.itemsize}")
            n = abs(int(d.cpu.view(bits)) - int(d.cuda.view(bits)))
            worst[d.dtype] = max(worst.get(d.dtype, 0), n)
    lines.append("largest rounding difference (ulp): " + ", ".join(
        f"{t} {n}" for t, n in worst.items()) + f" (allowed {ULPS})")
    lines += [describe(d) for d in found if verbose or not d.reason]
    unexpected = sum(not d.reason for d in found)
    lines.append(f"{unexpected} unexpected difference{'s' * (unexpected != 1)}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list the allowed differences too")
    args = parser.parse_args(argv)
    source, ref = os.environ.get("CUPY_SOURCE"), os.environ.get("CUPY_REF")
    if not source:
        print("cupy_complex: no CuPy checkout given (set CUPY_SOURCE, and CUPY_REF for a git "
              "directory); not run.")
        return 0
    print(f"CuPy's complex headers from {source}{f' at {ref}' if ref else ''}; dltensor from "
          f"{pathlib.Path(dltensor.__file__).parent}")
    found = compare(build(source, ref))
    print(report(found, UNARY + BINARY, args.verbose))
    return 1 if any(not d.reason for d in found) else 0


if __name__ == "__main__":
    sys.exit(main())
