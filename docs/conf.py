"""Sphinx configuration for the dltensor documentation (pages in MyST markdown).

Build: ``sphinx-build -W -b html docs docs/_build/html`` (tests/test_docs.py runs exactly this).
The API reference is generated from docstrings by the ``api-chapter`` directive below: it lists
every name in a module's ``__all__``, so a function added to the namespace appears without
anyone editing the docs, and no stub files are written into the source tree.
"""

from __future__ import annotations

import importlib
import os
import sys

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)

import dltensor  # noqa: E402

project = "dltensor"
author = "the dltensor authors"
copyright = "the dltensor authors"
release = version = dltensor.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autosummary_generate = False  # the api-chapter directive documents on the page itself
add_module_names = False

html_theme = "alabaster"
html_title = f"dltensor {release}"
html_theme_options = {
    "description": "The array API tensor that array libraries hand each other, on DLPack",
    "fixed_sidebar": True,
}

SPEC = "https://data-apis.org/array-api/2025.12"
# Where the array API standard documents each public module's functions.
_SPEC_PAGES = {
    "dltensor": f"{SPEC}/API_specification/generated/array_api.{{name}}.html",
    "dltensor.linalg": f"{SPEC}/extensions/generated/array_api.linalg.{{name}}.html",
    "dltensor.fft": f"{SPEC}/extensions/generated/array_api.fft.{{name}}.html",
}
# Names in those modules that are dltensor's own, not the standard's.
_NOT_IN_SPEC = {"Device", "DType", "ndarray", "Array", "get_default_device",
                "set_default_device", "EighResult", "EigResult", "QRResult", "SlogdetResult",
                "SVDResult"}
# The array object's attributes and methods that the standard specifies.
_SPEC_ARRAY = {"dtype", "device", "shape", "ndim", "size", "T", "mT", "to_device",
               "__dlpack__", "__dlpack_device__", "__array_namespace__"}


class ApiChapter(SphinxDirective):
    """``{api-chapter} dltensor._creation``: a summary table and the docstring of every name in
    that module's ``__all__``, documented under the public name (``dltensor.arange``).

    Option ``:public:`` names the public module (default ``dltensor``).
    """

    required_arguments = 1
    option_spec = {"public": str}

    def run(self) -> list[nodes.Node]:
        module = importlib.import_module(self.arguments[0])
        public = self.options.get("public", "dltensor")
        names = list(module.__all__)
        lines = ["```{eval-rst}", f".. currentmodule:: {public}", "", ".. autosummary::", ""]
        lines += [f"   {n}" for n in names]
        lines.append("")
        for n in names:
            obj = getattr(module, n)
            kind = "autoclass" if isinstance(obj, type) else "autofunction"
            lines += [f".. {kind}:: {n}", ""]
        lines.append("```")
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source=self.get_source_info()[0]),
                                self.content_offset, container)
        return container.children


def _spec_page(what: str, name: str) -> str | None:
    """The standard's page documenting ``name`` (as autodoc names it), or None."""
    module, _, short = name.rpartition(".")
    if short == "__array_namespace_info__":
        return f"{SPEC}/API_specification/generated/array_api.info.{short}.html"
    if module == "dltensor.ndarray":
        return (f"{SPEC}/API_specification/generated/array_api.array.{short}.html"
                if short in _SPEC_ARRAY else None)
    page = _SPEC_PAGES.get(module)
    if page is None or short in _NOT_IN_SPEC or what not in ("function", "class"):
        return None
    return page.format(name=short)


def _link_spec(app, what, name, obj, options, lines) -> None:
    """End each standard function's docstring with a link to its page in the standard."""
    page = _spec_page(what, name)
    if page is None:
        return
    if lines and lines[-1].strip():
        lines.append("")
    lines.append(f"The array API standard: `{name.rpartition('.')[2]} <{page}>`__.")


def setup(app) -> None:
    app.add_directive("api-chapter", ApiChapter)
    app.connect("autodoc-process-docstring", _link_spec)
