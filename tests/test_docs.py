"""The documentation builds without a warning, documents the whole namespace, and its code runs.

Every ```python block in docs/*.md and README.md runs here, in order, one namespace per page
(so a page reads as one session). A block that needs something this machine may lack says so
on the line before its fence, and is skipped only where that thing is missing:

    <!-- needs: gpu -->              CuPy and a CUDA device
    <!-- needs: gpu, numba -->       ... and an importable module
    <!-- needs: tensorflow -->       an importable module
    <!-- skip: why -->               never run here (say why; it must still compile)

Tracebacks point at the page's own line numbers. A `try:` with handlers and no `else:` shows
that something raises, so it fails here if nothing did.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import dltensor

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md")) + [ROOT / "README.md"]

_FENCE_OPEN = re.compile(r"^```python\s*$")
_MARKER = re.compile(r"^<!--\s*(needs|skip):\s*(.+?)\s*-->$")
_COMMENT = re.compile(r"^<!--.*-->$")


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the first line of code
    code: str
    needs: tuple[str, ...] = ()
    skip: str | None = None


def code_blocks(page: Path) -> list[Block]:
    """The ```python blocks of a markdown page, with the marker on the line before each."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if not _FENCE_OPEN.match(lines[i]):
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        assert end < len(lines), f"{page.name}:{i + 1}: unclosed ```python block"
        block = Block(page, start + 1, "\n".join(lines[start:end]) + "\n")
        prev = next((s.strip() for s in reversed(lines[:i]) if s.strip()), "")
        m = _MARKER.match(prev)
        if m and m.group(1) == "needs":
            block.needs = tuple(s.strip() for s in m.group(2).split(","))
        elif m:
            block.skip = m.group(2)
        else:
            assert not _COMMENT.match(prev), \
                f"{page.name}:{i}: unknown marker {prev!r}; use <!-- needs: ... --> or <!-- skip: ... -->"
        blocks.append(block)
        i = end + 1
    return blocks


def _cuda_available() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def _missing(needs: tuple[str, ...], gpu: bool) -> list[str]:
    missing = []
    for need in needs:
        if need == "gpu":
            if not gpu:
                missing.append("a CUDA GPU with CuPy (test_page_code_runs_on_a_gpu runs it)")
        elif importlib.util.find_spec(need) is None:
            missing.append(need)
        elif "gpu" in needs and _simulated():  # (numba's CUDA memory would be real)
            missing.append(f"{need} on a real GPU (CuPy is the CUDA simulator here)")
    return missing


def _simulated() -> bool:
    cupy = sys.modules.get("cupy")
    return getattr(cupy, "SIMULATOR", False)


PAGES_WITH_CODE = [p for p in PAGES if code_blocks(p)]


class _MustRaise(ast.NodeTransformer):
    """`try: f() / except E: print(e)` on a page says f raises: an `else:` fails if it did not."""

    def visit_Try(self, node: ast.Try) -> ast.Try:
        self.generic_visit(node)
        if node.handlers and not node.orelse and not node.finalbody:
            fail = ast.parse(f"raise AssertionError('the try at line {node.lineno} raised "
                             f"nothing: the page says it does')").body[0]
            node.orelse = [ast.copy_location(fail, node.body[-1])]
        return node


def _compile(block: Block):
    # Line numbers in tracebacks are the page's: pad the code down to where it sits.
    tree = ast.parse("\n" * (block.line - 1) + block.code, str(block.page))
    return compile(ast.fix_missing_locations(_MustRaise().visit(tree)), str(block.page), "exec")


def _run_page(page: Path, gpu: bool) -> None:
    namespace: dict = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    ran, skipped = 0, []
    for block in code_blocks(page):
        code = _compile(block)
        missing = _missing(block.needs, gpu)
        if block.skip or missing:
            skipped.append(f"line {block.line}: {block.skip or 'needs ' + ', '.join(missing)}")
            continue
        exec(code, namespace)
        ran += 1
    if not ran:
        pytest.skip("; ".join(skipped))


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda p: p.name)
def test_page_code_runs(page):
    _run_page(page, gpu=False)


@pytest.mark.gpu
@pytest.mark.skipif(not _cuda_available(), reason="needs CuPy and a CUDA device")
@pytest.mark.parametrize("page", [p for p in PAGES_WITH_CODE
                                  if any("gpu" in b.needs for b in code_blocks(p))],
                         ids=lambda p: p.name)
def test_page_code_runs_on_a_gpu(page):
    _run_page(page, gpu=True)  # (the whole page: its GPU blocks may use what the others made)


def test_markers_are_read():
    # The parser must see the markers the pages use, or a GPU block would run (and fail) on a
    # CPU machine, or a CPU block be skipped silently.
    blocks = {b.line: b for b in code_blocks(DOCS / "interop.md")}
    needs = [b.needs for b in blocks.values() if b.needs]
    assert ("gpu",) in needs and ("tensorflow",) in needs and ("gpu", "numba") in needs
    assert any(b.skip for b in code_blocks(DOCS / "serialization.md"))
    assert sum(1 for b in blocks.values() if not b.needs and not b.skip) >= 5


def test_a_try_on_a_page_must_raise():
    # A page's try/except says the call raises; one that stopped raising must fail the page.
    quiet = Block(DOCS / "x.md", 3, "try:\n    int('1')\nexcept ValueError as e:\n    print(e)\n")
    with pytest.raises(AssertionError, match="the try at line 3 raised nothing"):
        exec(_compile(quiet), {})
    loud = Block(DOCS / "x.md", 3, "try:\n    int('x')\nexcept ValueError as e:\n    pass\n")
    exec(_compile(loud), {})


def test_every_page_is_in_the_toctree():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        if page.stem != "index":
            assert re.search(rf"^{re.escape(page.stem)}$", index, re.M), \
                f"{page.name} is missing from the toctree in docs/index.md"


def _public_names() -> list[str]:
    """Every documented name: each namespace module's __all__, the extensions, and the rest."""
    names = {"dltensor.ndarray", "dltensor.asarray", "dltensor.from_dlpack", "dltensor.Device",
             "dltensor.DType", "dltensor.get_default_device", "dltensor.set_default_device"}
    for mod in ("_creation", "_dtype_functions", "_elementwise", "_indexing",
                "_linalg_functions", "_manipulation", "_searching", "_set", "_sorting",
                "_statistical", "_utility", "_info"):
        names.update(f"dltensor.{n}" for n in importlib.import_module(f"dltensor.{mod}").__all__)
    for ext in (dltensor.linalg, dltensor.fft):
        names.update(f"{ext.__name__}.{n}" for n in ext.__all__)
    return sorted(names)


def test_every_namespace_module_has_an_api_chapter():
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    chapters = set(re.findall(r"^```\{api-chapter\} (\S+)", api, re.M))
    star_imported = set(re.findall(r"^from \.(_\w+) import \*",
                                   (ROOT / "dltensor" / "__init__.py").read_text(), re.M))
    expected = {f"dltensor.{m}" for m in star_imported - {"_constants"}}
    expected |= {"dltensor.linalg", "dltensor.fft"}
    assert expected <= chapters, f"add an api-chapter for {sorted(expected - chapters)}"


@pytest.fixture(scope="module")
def html(tmp_path_factory) -> Path:
    """Build the docs exactly as CI does: sphinx-build -W (warnings are errors)."""
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    out = tmp_path_factory.mktemp("docs")
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
           "-d", str(out / "doctrees"), str(DOCS), str(out / "html")]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"sphinx-build -W failed:\n{p.stdout}\n{p.stderr}"
    return out / "html"


def test_docs_build_without_warnings(html):
    for page in PAGES[:-1]:
        assert (html / f"{page.stem}.html").is_file(), page.name


def test_api_reference_documents_the_whole_namespace(html):
    api = (html / "api.html").read_text(encoding="utf-8")
    documented = set(re.findall(r'id="(dltensor[\w.]*)"', api))
    missing = [n for n in _public_names() if n not in documented]
    assert not missing, f"not in the API reference: {missing}"
    # Each standard function links to its page in the standard.
    assert 'href="https://data-apis.org/array-api/2025.12/API_specification/generated/' \
           'array_api.asarray.html"' in api
    assert "extensions/generated/array_api.linalg.solve.html" in api
    # The array object's DLPack methods are documented, with dltensor's own attributes.
    public = [n for n in dir(dltensor.ndarray) if not n.startswith("_")]
    for member in ("__dlpack__", "__dlpack_device__", *public):
        assert f'id="dltensor.ndarray.{member}"' in api, member
