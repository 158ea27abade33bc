"""Random calls of every public function, operator and index form, each made on the CPU and on
a GPU and compared as tests/device_cases.py compares its cases: the same error class, or the
same dtypes, shapes, values and signed zeros, made on the GPU.

    python tests/device_sweep.py [--seed N] [--calls N] [--device cuda:1]

test_cudasim.py runs it on the CUDA simulator; on a GPU machine it runs against CuPy. It found
what the cases now hold (comparisons with ints past a dtype, clip's -0.0, setitem's order of
errors, take from no elements); the arguments are drawn so that most calls are valid.
"""

from __future__ import annotations

import argparse
import inspect
import operator
import random
import sys
import warnings
from typing import Any, Callable, Iterator

import numpy as np

import dltensor as dt
from device_cases import Case, assert_same, outcome

nan = float("nan")
DATA = [  # arrays, drawn by index and made on each device from the same host data
    np.array([1.5, -2.0, 0.0, nan, -0.0, np.inf]),
    np.array([[1.0, 2.0, 3.0], [-4.0, 5.5, -0.0]], dtype=np.float32),
    np.array([3, -1, 0, 2]), np.array([[1, -2], [3, 4]], dtype=np.int8),
    np.array([0, 255, 3], dtype=np.uint8), np.array([True, False, True]),
    np.array([1 + 2j, -0j, complex(nan, 1), 3 - 1j]), np.array(2.5), np.array(3),
    np.zeros((0,)), np.zeros((0, 3)), np.array([[2.0, 1.0], [1.0, 3.0]]),
    np.arange(24.0).reshape(2, 3, 4), np.array([0, 1, 2, 1]), np.array([1.0, 2.0, 2.0, 5.0]),
    np.array([[1, 0, 2], [0, 3, 1]], dtype=np.int32),
]
SCALARS = [0, 1, -1, 2, 3, 1.5, -0.0, True, False, 300, nan, 1j,  # (300: past int8, uint8)
           2**70]  # (past int64 and uint64, which CuPy packs a Python int into)
KEYWORDS: dict[str, list[Any]] = {
    "axis": [None, 0, -1, 1, (0, 1), 5, (0,), ()], "keepdims": [True, False],
    "dtype": [None, dt.float32, dt.int64, dt.complex128, dt.bool, dt.uint8, dt.float64],
    "descending": [True, False], "stable": [True, False], "side": ["left", "right"],
    "copy": [None, True, False], "correction": [0, 1, 2.5], "include_initial": [True, False],
    "n": [1, 2, 0], "k": [0, 1, -1], "shift": [1, -2, (1, 2)], "repeats": [2, 0],
    "shape": [(4,), (2, 2), (-1,), (3, 1), ()], "decimals": [0, 1, -1],
    "min": [None, 0, 1.5, -1], "max": [None, 2, 0.5], "indexing": ["xy", "ij"],
    "num": [0, 1, 5], "endpoint": [True, False], "start": [0, 1], "stop": [5, -1],
    "step": [1, 2, -1], "fill_value": [0, 1.5, True, 1j], "offset": [0, 1, -1],
    "source": [0, -1], "destination": [1, 0], "axes": [((0,), (0,)), 1, 0, 2, (1, 0), (0, 1)],
    "ord": [None, 1, 2, -1, float("inf"), "fro", "nuc"], "s": [None, (4,), (-1,), (2, 3)],
    "norm": ["backward", "ortho", "forward"], "upper": [True, False], "rtol": [None, 1e-3],
    "full_matrices": [True, False], "mode": ["reduced", "complete"], "d": [1.0, 0.5],
}
ARRAY_KEYWORDS = ("x2", "indices", "min", "max", "prepend", "append")
SKIP = {"Array", "DType", "Device", "ndarray", "from_dlpack", "set_default_device",
        "get_default_device", "finfo", "iinfo", "can_cast", "result_type", "isdtype",
        "broadcast_shapes", "empty", "empty_like"}  # (no arrays, or no values to compare)
LISTS = {"concat", "stack", "broadcast_arrays", "meshgrid"}
OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor",
             "lshift", "rshift", "lt", "le", "eq", "ne", "gt", "ge", "matmul"]
KEYS = [0, -1, 5, slice(None, None, -1), (0, 0), (slice(1, None), None), Ellipsis, None,
        ("A", 13), ("A", 5), ("A", 2), (Ellipsis, 0), (0, ("A", 13)), ("A", 3)]
Draw = tuple  # ("A", index into DATA) | ("S", scalar) | ("L", [draws]) | ("V", value)


def _make(draw: Any, d: str) -> Any:
    if isinstance(draw, tuple) and draw and draw[0] == "A":
        return dt.asarray(np.array(DATA[draw[1]]), device=d)
    if isinstance(draw, tuple) and draw and draw[0] == "L":
        return [_make(e, d) for e in draw[1]]
    if isinstance(draw, tuple) and draw and draw[0] in "SV":
        return draw[1]
    if isinstance(draw, tuple):  # an index key holding arrays
        return tuple(_make(e, d) if isinstance(e, tuple) else e for e in draw)
    return draw


def _operand(rng: random.Random) -> Draw:
    return ("A", rng.randrange(len(DATA))) if rng.random() < 0.8 else ("S", rng.choice(SCALARS))


def _functions() -> Iterator[tuple[str, Callable[..., Any], inspect.Signature]]:
    for prefix, module in (("", dt), ("linalg.", dt.linalg), ("fft.", dt.fft)):
        for name in sorted(dir(module)):
            fn = getattr(module, name)
            if name.startswith("_") or name in SKIP or not callable(fn) or \
                    isinstance(fn, type):
                continue
            try:
                yield prefix + name, fn, inspect.signature(fn)
            except (TypeError, ValueError):
                continue


def _function_call(rng: random.Random, name: str, fn: Callable[..., Any],
                   sig: inspect.Signature) -> Callable[[str], Any]:
    positional: list[Draw] = []
    keywords: dict[str, Draw] = {}
    for p in sig.parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            positional += [_operand(rng) for _ in range(rng.randrange(1, 4))]
        elif p.default is p.empty and p.kind != p.KEYWORD_ONLY:
            if name.split(".")[-1] in LISTS:
                positional.append(("L", [_operand(rng) for _ in range(rng.randrange(1, 4))]))
            elif KEYWORDS.get(p.name) and rng.random() < 0.7:
                positional.append(("V", rng.choice(KEYWORDS[p.name])))
            else:
                positional.append(_operand(rng))
        elif p.name != "device":
            if KEYWORDS.get(p.name) and rng.random() < 0.5:
                keywords[p.name] = ("V", rng.choice(KEYWORDS[p.name]))
            elif p.name in ARRAY_KEYWORDS and rng.random() < 0.3:
                keywords[p.name] = _operand(rng)
    on_device = "device" in sig.parameters

    def run(d: str) -> Any:
        kw = {k: _make(v, d) for k, v in keywords.items()}
        if on_device:
            kw["device"] = d
        return fn(*(_make(v, d) for v in positional), **kw)
    run.__doc__ = f"{name}(*{positional}, **{keywords})"
    return run


def _operator_call(rng: random.Random) -> tuple[str, Callable[[str], Any]] | None:
    op = rng.choice(OPERATORS)
    x, y = _operand(rng), _operand(rng)
    if x[0] == "S" and y[0] == "S":
        return None
    inplace = x[0] == "A" and op not in ("lt", "le", "eq", "ne", "gt", "ge") and \
        rng.random() < 0.3
    f = getattr(operator, "i" + op.rstrip("_") if inplace else op)
    name = f.__name__

    def run(d: str) -> Any:
        return f(_make(x, d), _make(y, d))
    run.__doc__ = f"{name}({x}, {y})"
    return name, run


def _index_call(rng: random.Random) -> tuple[str, Callable[[str], Any]]:
    x, key, value = ("A", rng.randrange(len(DATA))), rng.choice(KEYS), _operand(rng)
    setting = rng.random() < 0.4

    def run(d: str) -> Any:
        a = _make(x, d)
        if setting:
            a[_make(key, d)] = _make(value, d)
            return a
        return a[_make(key, d)]
    run.__doc__ = f"{x}[{key}]" + (f" = {value}" if setting else "")
    return ("setitem" if setting else "getitem"), run


def _draw(rng: random.Random, functions: list[tuple[str, Callable[..., Any], inspect.Signature]]
          ) -> tuple[str, Callable[[str], Any]] | None:
    r = rng.random()
    if r < 0.7:
        name, fn, sig = functions[rng.randrange(len(functions))]
        return name, _function_call(rng, name, fn, sig)
    if r < 0.85:
        return _operator_call(rng)
    return _index_call(rng)


def sweep(seed: int, calls: int, device: str) -> list[str]:
    """The differences found in ``calls`` random calls: one line each."""
    rng = random.Random(seed)
    functions = list(_functions())
    found = []
    for i in range(calls):
        # Random arguments make most calls errors (an int to exp, shapes that do not
        # broadcast): a call the CPU refuses is drawn again, up to 4 times, 3 times in 4, so
        # that most calls compare values and some still compare errors.
        case = None
        try:
            for attempt in range(5):
                drawn = _draw(rng, functions)
                if drawn is not None:
                    case = Case(drawn[0], drawn[1])
                    want = outcome(case, "cpu")
                    if want.raised is None or attempt == 4 or rng.random() < 0.25:
                        break
            if case is None:
                continue
            if want.raised is None and any(
                    isinstance(v, tuple) and len(v) == 4 and getattr(v[2], "size", 0) > 10**6
                    for v in (want.value if isinstance(want.value, tuple) else ())):
                continue  # (a broadcast view too large to move to the host for comparing)
            got = outcome(case, device)
            assert_same(case, want, got, device)
        except Exception as e:  # AssertionError: a difference; any other: a finding too
            found.append(f"{case.id}: {case.run.__doc__}: {type(e).__name__}: {e}"[:600])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--device", default="cuda:0")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    found = sweep(args.seed, args.calls, args.device)
    print(f"{args.calls} calls on cpu and {args.device}, seed {args.seed}: "
          f"{len(found)} differences")
    print("\n".join(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
