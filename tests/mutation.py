"""Mutation testing by hand (not part of CI): do the tests fail when the code is wrong?

Changes one thing at a time in a module (a comparison flipped, ``and``/``or`` swapped, a
``not`` dropped, an integer constant plus one), runs a test command against each mutant in a
copy of the repository, and prints those the command still passes ("survivors"). Each survivor
is a test to write, or a change that is equivalent (docs/reliability.md, "Mutation testing").

    python tests/mutation.py dltensor/_keys.py "python -m pytest -q -x tests/api/test_indexing.py"
    python tests/mutation.py MODULE COMMAND --workers 2 --only LOG   # rerun a log's survivors
    python tests/mutation.py MODULE COMMAND --lines 120-140          # a change's lines only

The command runs in the copy with PYTHONPATH set to it (so the mutant is what it imports);
it must exit non-zero to kill a mutant. Source is rewritten with ast.unparse (comments go;
meaning stays).
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
        ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn,
        ast.NotIn: ast.In}
# (line, column, kind, which operator of a chain; for and/or, the column it ends at: a nested
# `a and b or c` starts both at one column, and each is a mutant of its own)
Site = tuple[int, int, str, int]


def sites(tree: ast.AST) -> list[Site]:
    out: list[Site] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            out += [(node.lineno, node.col_offset, "cmp", i)
                    for i, op in enumerate(node.ops) if type(op) in FLIP]
        elif isinstance(node, ast.BoolOp):
            out.append((node.lineno, node.col_offset, "bool", node.end_col_offset or 0))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node.lineno, node.col_offset, "not", 0))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            out.append((node.lineno, node.col_offset, "int", 0))
    return out


class _Mutate(ast.NodeTransformer):
    def __init__(self, site: Site):
        self.site = site

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        line, col, kind, i = self.site
        if getattr(node, "lineno", None) != line or getattr(node, "col_offset", None) != col:
            return node
        if kind == "cmp" and isinstance(node, ast.Compare):
            node.ops[i] = FLIP[type(node.ops[i])]()
        elif kind == "bool" and isinstance(node, ast.BoolOp) and node.end_col_offset == i:
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif kind == "not" and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return node.operand
        elif kind == "int" and isinstance(node, ast.Constant) and type(node.value) is int:
            node.value += 1
        return node


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("module", help="a path relative to the repository root")
    ap.add_argument("command", help="the test command, run with the copy as working directory")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", help="a log of an earlier run: rerun its survivors only")
    ap.add_argument("--lines", help="FIRST-LAST: only the sites on these lines (a change's)")
    args = ap.parse_args()
    source = open(os.path.join(ROOT, args.module)).read()
    tree, lines = ast.parse(source), source.splitlines()
    todo = sites(tree)
    if args.only:
        wanted = {ast.literal_eval(m) for m in
                  re.findall(r"SURVIVED (\(.*?\))", open(args.only).read())}
        todo = [s for s in todo if s in wanted]
    if args.lines:
        first, _, last = args.lines.partition("-")
        todo = [s for s in todo if int(first) <= s[0] <= int(last or first)]
    print(len(todo), "mutants", flush=True)
    survived: list[Site] = []
    lock = threading.Lock()

    def copy_of_the_repository() -> str:
        # (a folder of its own: two runs at once shared one; docs/ too, which tests read)
        where = tempfile.mkdtemp(prefix="dltensor-mutant-")
        shutil.copytree(ROOT, where, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
            ".git", "_build", "*.egg-info", "__pycache__", ".whl", ".aat"))
        return where

    def run(where: str, module_source: str) -> int:
        with open(os.path.join(where, args.module), "w") as f:
            f.write(module_source)
        # (no bytecode: a mutant of the same size written in the same second took the last
        # one's cached .pyc)
        return subprocess.run(args.command, shell=True, cwd=where, capture_output=True,
                              env=dict(os.environ, PYTHONPATH=where, PYTHONDONTWRITEBYTECODE="1"),
                              timeout=1800).returncode

    # The command must pass on the module unmutated (as unparsed): else every mutant "dies"
    where = copy_of_the_repository()
    baseline = run(where, ast.unparse(tree))
    shutil.rmtree(where, ignore_errors=True)
    if baseline:
        sys.exit(f"the command fails (exit {baseline}) on the unmutated module: no count")

    def work(w: int) -> None:
        where = copy_of_the_repository()
        for site in todo[w::args.workers]:
            if run(where, ast.unparse(_Mutate(site).visit(copy.deepcopy(tree)))) == 0:
                with lock:
                    survived.append(site)
                    print("SURVIVED", site, lines[site[0] - 1].strip()[:100], flush=True)
        shutil.rmtree(where, ignore_errors=True)

    failed: list[BaseException] = []

    def guarded(w: int) -> None:  # (a worker that dies would leave its mutants counted killed)
        try:
            work(w)
        except BaseException as e:
            failed.append(e)
            raise

    threads = [threading.Thread(target=guarded, args=(w,)) for w in range(args.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        sys.exit(f"a worker failed ({failed[0]!r}): no count")
    print(f"killed {len(todo) - len(survived)} survived {len(survived)}")
    sys.exit(0)


if __name__ == "__main__":
    main()
