"""User code type-checks against dltensor under ``mypy --strict``: the element-wise functions
and the ndarray operators, which are made at run time, are declared for type checkers."""

import ast
import inspect
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("mypy")

import dltensor  # noqa: E402
from dltensor import _elementwise  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

USER_PROGRAM = '''
import copy

import dltensor
from dltensor import ndarray

x = dltensor.asarray([1.0, 2.0])
y: ndarray = dltensor.exp(x) + 1
y = 2 * y - x / 3 ** x
y += 1
y = -y @ x + abs(x)
y = dltensor.add(x, 1.5) + dltensor.equal(x, True)
y = dltensor.clip(x, min=0, max=x)
y = dltensor.round(x) % 2 // 1
i = dltensor.asarray([1, 2])
i = (i << 1 | i & 3 ^ ~i) >> 1
m: ndarray = x == y
m = (x != 1) & (x < y) | (x >= 2.0)
z: ndarray = x[0:1]
z = x[..., None, 0]
z = x[(slice(None), i)]
z = x[[1, 0], ...]
x[0] = 3.0
x[i > 1] = y
b: bool = bool(x[0] > 0)
n: int = int(i[0]) + i[1].__index__() + len(range(i[0]))
f: float = float(x[0])
c: complex = complex(x[0])
w: ndarray = x.T.mT
for row in x:
    z = row
z = copy.copy(x) + copy.deepcopy(x)
'''


def _mypy(*files: pathlib.Path) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` on user files, finding this checkout's dltensor (the repository root
    first on MYPYPATH, the project's mypy settings from pyproject.toml)."""
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", *map(str, files)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def _installed() -> list[str]:
    """The ndarray attributes _elementwise.py and _indexing.py install at import."""
    names = []
    for name, value in vars(dltensor.ndarray).items():
        fn = value.fget if isinstance(value, property) else value
        if getattr(fn, "__module__", "").startswith(("dltensor._elementwise",
                                                      "dltensor._indexing",
                                                      "dltensor._linalg_functions")):
            names.append(name)
    return names


def test_user_program_type_checks(tmp_path):
    # Every function in the element-wise __all__ and every attribute installed on ndarray at
    # run time is referenced too, so one missing from the declarations fails here.
    refs = [f"_f{k} = dltensor.{name}" for k, name in enumerate(_elementwise.__all__)]
    refs += [f"_a{k} = x.{name}" for k, name in enumerate(_installed())]
    assert len(refs) > 67 + 40  # the introspection found what it looks for
    program = tmp_path / "user_program.py"
    program.write_text(USER_PROGRAM + "\n".join(refs) + "\n")
    r = _mypy(program)
    assert r.returncode == 0, f"mypy --strict on user code failed:\n{r.stdout}{r.stderr}"


def test_wrong_arguments_fail_type_checking(tmp_path):
    # each line must be an error: the declarations are what mypy sees, not Any
    bad_lines = textwrap.dedent('''
        import dltensor
        x = dltensor.asarray([1.0])
        dltensor.exp("a string")
        dltensor.add(x, "a string")
        x + "a string"
        x @ 2
        s: str = x[0]
        dltensor.clip(x, min=1j)
        dltensor.no_such_function(x)
    ''').strip().splitlines()
    program = tmp_path / "bad_program.py"
    program.write_text("\n".join(bad_lines) + "\n")
    r = _mypy(program)
    assert r.returncode == 1, r.stdout + r.stderr
    for number, line in enumerate(bad_lines[2:], start=3):
        assert f"bad_program.py:{number}: error" in r.stdout, f"no error for {line!r}:\n{r.stdout}"


def test_declared_functions_are_the_run_time_ones():
    # the TYPE_CHECKING declarations name exactly the functions the factories make
    tree = ast.parse(inspect.getsource(_elementwise))
    declared = {node.name for block in tree.body
                if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
                for node in block.body if isinstance(node, ast.FunctionDef)}
    assert declared == set(_elementwise.UNARY) | set(_elementwise.BINARY)
    assert "exp" not in vars(dltensor.ndarray) and callable(dltensor.exp)


def test_declarations_define_nothing_at_run_time():
    # the class body's TYPE_CHECKING block is skipped: the operators are the installed ones
    assert dltensor.ndarray.__add__.__module__ == "dltensor._elementwise"
    assert dltensor.ndarray.__getitem__.__module__ == "dltensor._indexing"
    assert isinstance(vars(dltensor.ndarray)["T"], property)
    x = dltensor.asarray([1.0, 2.0])
    assert float((x + x)[1]) == 4.0
