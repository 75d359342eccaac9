"""Sphinx configuration of the manual (make docs builds it into build/docs/html, warnings as errors)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the generated reference pages import the project (golden, tb, randgen, scripts) and the local extensions
sys.path[:0] = [str(ROOT), str(ROOT / "docs" / "_ext")]

project = "G80 SM verification"
author = "the project's authors"
copyright = f"2026, {author}"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinxarg.ext", "sphinx.ext.graphviz", "g80docs"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
html_theme = "furo"
html_title = project
html_static_path = ["_static"]
exclude_patterns = ["_build"]
# pictures drawn from .dot sources ({graphviz} directive, Debian's graphviz) as SVG files beside the pages: no network
graphviz_output_format = "svg"
# the API pages document what a module defines, in source order, with the signature's type hints
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
# a method documents itself or not at all: docstrings inherited from pyuvm and cocotb are not in this manual's markup
autodoc_inherit_docstrings = False

