"""Writing the three reports of a (merged) coverage database into a directory."""

from __future__ import annotations

from pathlib import Path

from .db import Coverage
from .report_html import render_html
from .report_text import render_text

HTML, TEXT, UCIS_XML, JSON = "coverage.html", "coverage.txt", "coverage.ucis.xml", "coverage.json"


def write_all(cov: Coverage, outdir: Path) -> dict[str, Path]:
    """coverage.html (self-contained), coverage.txt, coverage.ucis.xml (pyucis) and the merged coverage.json."""
    from .ucis import write_ucis

    outdir.mkdir(parents=True, exist_ok=True)
    paths = {name: outdir / name for name in (HTML, TEXT, UCIS_XML, JSON)}
    paths[HTML].write_text(render_html(cov), encoding="utf-8")
    paths[TEXT].write_text(render_text(cov), encoding="utf-8")
    write_ucis(cov, paths[UCIS_XML])
    cov.save(paths[JSON])
    return paths
