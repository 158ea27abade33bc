"""``python -m dltensor``: versions, devices, and a live hand-off matrix through dltensor.

Each matrix cell hands an array from the row's framework to ``dltensor.asarray`` and then to the
column's framework's ``from_dlpack``, says whether the memory was shared (by comparing data
pointers, not by trusting flags) and how long the two steps took together.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

import numpy as np

import dltensor

__all__ = ["main", "versions", "devices", "handoff_matrix", "data_pointer", "FRAMEWORKS"]

# Distribution names as their modules spell them, in the order the report lists them.
_VERSIONED = ("numpy", "array_api_compat", "torch", "jax", "jaxlib", "cupy", "array_api_strict",
              "tensorflow", "ml_dtypes")
_N = 1024            # elements per hand-off: small, so the time is the per-call overhead
_REPEATS = 7         # the time shown is the median of these
_TARGET_S = 0.004    # each repeat runs the hand-off this long (so 16 cells stay well under 1 s)
# What a broken install may raise, at import or in its from_dlpack: the report goes on.
_FAULTS = (Exception, SystemExit)
# Distributions that install one module under other names.
_DISTRIBUTIONS = {"cupy": ("cupy", "cupy-cuda12x", "cupy-cuda13x", "cupy-cuda11x"),
                  "tensorflow": ("tensorflow", "tensorflow-cpu", "tensorflow-intel",
                                 "tensorflow-macos", "tf-nightly")}


def _import(name: str) -> ModuleType | str:
    """The module, or the reason it cannot be used (a string)."""
    try:
        return importlib.import_module(name)
    except _FAULTS as e:  # a broken install must not break the report
        return _reason(e)


def _reason(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}".splitlines()[0]


def _installed(name: str) -> bool:
    """Whether a top-level module can be found, without importing it (a checkout counts; a
    bare folder of that name, a namespace package to Python, does not)."""
    try:
        spec = importlib.util.find_spec(name)
    except _FAULTS:  # (a module in sys.modules without __spec__, say)
        return name in sys.modules
    return spec is not None and spec.origin is not None


def versions() -> dict[str, str]:
    """Python's, dltensor's and every installed dependency's version ("missing" if absent)."""
    out = {"python": platform.python_version(), "dltensor": dltensor.__version__}
    for name in _VERSIONED:
        if name in ("jax", "tensorflow", "torch", "cupy", "jaxlib") and name not in sys.modules:
            # Importing these costs seconds; the version from the package metadata is free
            # (a checkout has none: imported, as the rest are).
            out[name] = _dist_version(name)
            if out[name] != "missing" or not _installed(name):
                continue
        mod = _import(name)
        if isinstance(mod, str):  # absent, or there and broken: say which
            out[name] = f"fails to import ({mod})" if _installed(name) else "missing"
        else:
            out[name] = str(getattr(mod, "__version__", "?"))
    return out


def _dist_version(name: str) -> str:
    from importlib import metadata
    for dist in _DISTRIBUTIONS.get(name, (name,)):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return "missing"


def devices() -> list[str]:
    """Lines describing the devices dltensor can hold or compute on."""
    lines = ["cpu: NumPy computes here"]
    cupy = _import("cupy") if _installed("cupy") else "not installed"
    if isinstance(cupy, str):
        lines.append(f"cuda (CuPy): {cupy}")
    else:
        try:
            for i in range(cupy.cuda.runtime.getDeviceCount()):
                name = cupy.cuda.runtime.getDeviceProperties(i)["name"].decode()
                lines.append(f"cuda:{i} (CuPy): {name}")
        except Exception as e:
            lines.append(f"cuda (CuPy): no device ({type(e).__name__}: {e})")
    if "torch" in sys.modules or _installed("torch"):
        torch = _import("torch")
        if not isinstance(torch, str):
            try:
                n = torch.cuda.device_count() if torch.cuda.is_available() else 0
                lines += [f"cuda:{i} (torch): {torch.cuda.get_device_name(i)}"
                          for i in range(n)]  # (all or none)
            except _FAULTS as e:
                n = -1
                lines.append(f"cuda (torch): no device ({_reason(e)})")
            if not n:
                lines.append(f"cuda (torch {getattr(torch, '__version__', '?')}): none visible")
    return lines


# --- the frameworks of the matrix: how each makes an array, imports one, finds its pointer --------

def _np_make(_: Any, n: int) -> Any:
    return np.arange(n, dtype=np.float32)


def _torch_make(torch: Any, n: int) -> Any:
    return torch.arange(n, dtype=torch.float32)


def _jax_make(jnp: Any, n: int) -> Any:
    import jax
    return jax.device_put(jnp.arange(n, dtype=jnp.float32), jax.devices("cpu")[0])


class _NoDevice(RuntimeError):
    """A framework that is installed but sees no device of the kind asked: a skip, not a fault."""


def _torch_cuda_make(torch: Any, n: int) -> Any:
    if not torch.cuda.is_available():
        raise _NoDevice("this PyTorch sees no CUDA device")
    return torch.arange(n, dtype=torch.float32, device="cuda")


def _jax_gpu_make(jnp: Any, n: int) -> Any:
    import jax
    try:
        gpu = jax.devices("gpu")[0]
    except RuntimeError:  # ("Unknown backend: 'gpu' requested, but no platforms ...")
        raise _NoDevice("this JAX sees no GPU") from None
    return jax.device_put(jnp.arange(n, dtype=jnp.float32), gpu)


def _strict_make(xs: Any, n: int) -> Any:
    return xs.arange(n, dtype=xs.float32)


def _cupy_make(cp: Any, n: int) -> Any:
    return cp.arange(n, dtype=cp.float32)


# name -> (module to import, make(module, n), from_dlpack(module)); a table row per framework.
FRAMEWORKS: dict[str, tuple[str, Callable[[Any, int], Any], Callable[[Any], Any]]] = {
    "numpy": ("numpy", _np_make, lambda m: m.from_dlpack),
    "torch": ("torch", _torch_make, lambda m: m.from_dlpack),
    "jax": ("jax.numpy", _jax_make, lambda m: m.from_dlpack),
    "array_api_strict": ("array_api_strict", _strict_make, lambda m: m.from_dlpack),
    "cupy": ("cupy", _cupy_make, lambda m: m.from_dlpack),
    "torch[cuda]": ("torch", _torch_cuda_make, lambda m: m.from_dlpack),
    "jax[gpu]": ("jax.numpy", _jax_gpu_make, lambda m: m.from_dlpack),
}


def data_pointer(obj: Any) -> int:
    """The address of an array's first element, read the way its own framework reports it."""
    if isinstance(obj, dltensor.ndarray):
        return obj.data_ptr
    ptr: int  # (each framework's own report of it)
    if isinstance(obj, np.ndarray):
        ptr = obj.__array_interface__["data"][0]
        return ptr
    mod = type(obj).__module__.split(".")[0]
    if mod == "torch":
        ptr = obj.data_ptr()
    elif mod in ("jax", "jaxlib"):
        ptr = obj.unsafe_buffer_pointer()
    elif mod == "array_api_strict":
        ptr = data_pointer(obj._array)
    elif mod == "cupy":
        ptr = obj.data.ptr
    else:
        # Anything else that speaks DLPack on the CPU: ask NumPy, which never copies an import.
        ptr = np.from_dlpack(obj).__array_interface__["data"][0]
    return ptr


def _median_time(fn: Callable[[Any], object], arg: Any) -> float:
    """Median seconds per call of ``fn(arg)`` over _REPEATS loops of about _TARGET_S each."""
    def loop(number: int) -> float:
        t0 = time.perf_counter()
        for _ in range(number):
            fn(arg)
        return time.perf_counter() - t0

    number = 1
    while loop(number) < _TARGET_S / 8 and number < 1 << 16:
        number *= 4
    # The loop length from the best of three runs: one slow (cold, or interrupted) run would
    # make every repeat a single call.
    per_call = min(loop(number) for _ in range(3)) / number
    number = max(1, round(_TARGET_S / per_call))
    return statistics.median(loop(number) / number for _ in range(_REPEATS))


def _cell(src: Any, target_from_dlpack: Callable[[Any], Any]) -> dict[str, Any]:
    """Hand ``src`` through dltensor to a target; report zero-copy and the time per hand-off."""
    asarray = dltensor.asarray

    def handoff(a: Any) -> Any:
        return target_from_dlpack(asarray(a))

    try:
        mid = asarray(src)
        out = target_from_dlpack(mid)
        src_ptr = data_pointer(src)
        cell: dict[str, Any] = {"zero_copy": data_pointer(out) == src_ptr}
        if not cell["zero_copy"]:
            # Say who copied: a target that copies (JAX wants 64-byte alignment) is no fault
            # of dltensor's.
            cell["copied_by"] = "dltensor" if data_pointer(mid) != src_ptr else "target"
        cell["us"] = _median_time(handoff, src) * 1e6
        return cell
    except _FAULTS as e:
        return {"error": _reason(e)}


def handoff_matrix(names: Iterable[str] | None = None) -> dict[str, Any]:
    """``{source: {target: cell}}`` for every pair of the frameworks that import here.

    A framework that is missing or fails to make an array appears in ``"unavailable"`` with the
    reason, instead of a row and a column.
    """
    consumers: dict[str, Callable[[Any], Any]] = {}
    arrays: dict[str, Any] = {}
    unavailable: dict[str, str] = {}
    for name in names or FRAMEWORKS:
        module_name, make, from_dlpack = FRAMEWORKS[name]
        if not _installed(module_name.split(".")[0]):
            unavailable[name] = "not installed"
            continue
        mod = _import(module_name)
        if isinstance(mod, str):
            unavailable[name] = mod
            continue
        try:
            consume = from_dlpack(mod)  # (an old PyTorch or JAX has none)
            arrays[name] = make(mod, _N)
            consumers[name] = consume
        except _NoDevice as e:
            unavailable[name] = f"skipped, {e}"
        except _FAULTS as e:  # e.g. CuPy installed without a CUDA device
            unavailable[name] = _reason(e)
    matrix: dict[str, dict[str, dict[str, Any]]] = {}
    for src in arrays:
        matrix[src] = {dst: _cell(arrays[src], consume) for dst, consume in consumers.items()}
    return {"elements": _N, "dtype": "float32", "repeats": _REPEATS, "matrix": matrix,
            "unavailable": unavailable}


def _format_cell(cell: dict[str, Any]) -> str:
    if "error" in cell:
        err: str = cell["error"]
        return "refused: " + (err if len(err) <= 40 else err[:37] + "...")
    mark = "yes " if cell["zero_copy"] else ("NO* " if cell["copied_by"] == "target" else "NO  ")
    return f"{mark}{cell['us']:7.2f} us"


def _format_matrix(result: dict[str, Any]) -> str:
    matrix = result["matrix"]
    names = list(matrix)
    header = ["source \\ target"] + names
    rows = [[src] + [_format_cell(matrix[src][dst]) for dst in names] for src in names]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    copied = {dst for row in matrix.values() for dst, c in row.items()
              if c.get("copied_by") == "target"}
    if copied:
        lines.append("NO*: dltensor shared the memory; the target's from_dlpack copied it")
    if copied & {"jax", "jax[gpu]"}:
        lines.append("     (JAX copies CPU memory not aligned to 64 bytes: NumPy aligns to 16, "
                     "so its arrays' cells change from run to run)")
    lines += [f"{name}: {why}" for name, why in result["unavailable"].items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the report (``--json`` prints the same facts as one JSON object)."""
    script = os.path.basename(sys.argv[0])  # (the entry point's, else python -m's)
    parser = argparse.ArgumentParser(
        prog=script if script == "dltensor-report" else "python -m dltensor",
        description="versions, devices, and a live hand-off matrix through dltensor")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    args = parser.parse_args(argv)
    out: Any = sys.stdout  # (a text file, or whatever a program put there)
    errors = getattr(out, "errors", None) if hasattr(out, "reconfigure") else None
    if errors is not None:  # (other libraries' errors may not be ASCII)
        out.reconfigure(errors="backslashreplace")
    try:
        _print(args.json)
        sys.stdout.flush()  # (here, not at exit, where a closed pipe prints a traceback)
    except BrokenPipeError:  # (`python -m dltensor | head -1`): quietly, as pip does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        if errors is not None and not out.closed:  # (main() called in a program)
            out.reconfigure(errors=errors)
    return 0


def _print(as_json: bool) -> None:
    started = time.perf_counter()
    matrix = handoff_matrix()  # first: it imports the frameworks whose versions follow
    report: dict[str, Any] = {"versions": versions(), "devices": devices(), "handoffs": matrix}
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print("dltensor report")
    print("\nversions")
    width = max(map(len, report["versions"]))
    for name, version in report["versions"].items():
        print(f"  {name.ljust(width)}  {version}")
    print("\ndevices")
    for line in report["devices"]:
        print(f"  {line}")
    print(f"\nhand-offs: source array -> dltensor.asarray -> target from_dlpack "
          f"({_N} float32 elements)")
    print("cell: zero-copy (data pointers equal) and median time per hand-off of "
          f"{_REPEATS} repeats")
    print(_format_matrix(matrix))
    print(f"\n(report took {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
