"""Writing the three reports of a (merged) coverage database into a directory."""

from __future__ import annotations

from pathlib import Path

from .code import CodeCoverage
from .cross import CrossCoverage
from .db import Coverage
from .report_html import render_html
from .report_text import render_text

HTML, TEXT, UCIS_XML, JSON, CROSS_JSON = "coverage.html", "coverage.txt", "coverage.ucis.xml", "coverage.json", "coverage.cross.json"


def write_all(cov: Coverage, outdir: Path, cross: CrossCoverage | None = None, code: CodeCoverage | None = None) -> dict[str, Path]:
    """coverage.html (self-contained), coverage.txt, coverage.ucis.xml (pyucis) and the merged
    coverage.json (and coverage.cross.json: the cross model's counts, a file of its own). `code`
    (RTL code coverage) goes into the HTML and text reports; the UCIS file holds the functional models."""
    from .ucis import write_ucis

    outdir.mkdir(parents=True, exist_ok=True)
    paths = {name: outdir / name for name in (HTML, TEXT, UCIS_XML, JSON)}
    paths[HTML].write_text(render_html(cov, cross, code), encoding="utf-8")
    paths[TEXT].write_text(render_text(cov, cross, code), encoding="utf-8")
    write_ucis(cov, paths[UCIS_XML], cross)
    cov.save(paths[JSON])
    if cross is not None:
        paths[CROSS_JSON] = outdir / CROSS_JSON
        cross.save(paths[CROSS_JSON])
    return paths
