"""Writing the three reports of a (merged) coverage database into a directory."""

from __future__ import annotations

from pathlib import Path

from .code import CodeCoverage
from .db import Coverage
from .report_html import render_html
from .report_text import render_text
from .uarch import UarchCoverage

HTML, TEXT, UCIS_XML, JSON = "coverage.html", "coverage.txt", "coverage.ucis.xml", "coverage.json"
CROSS_JSON, UARCH_JSON = "coverage.cross.json", "coverage.uarch.json"


def write_all(cov: Coverage, outdir: Path, cross: Coverage | None = None, code: CodeCoverage | None = None,
              uarch: UarchCoverage | None = None, by_source: dict | None = None) -> dict[str, Path]:  # fmt: skip
    """coverage.html (self-contained), coverage.txt, coverage.ucis.xml (pyucis) and the merged
    coverage.json (and coverage.cross.json, coverage.uarch.json: the other models' counts, a file
    each). `code` (RTL code coverage) goes into the HTML and text reports; the UCIS file holds the
    functional models. `by_source`: label -> golden.coverage.Merged of that source alone."""
    from .ucis import write_ucis

    outdir.mkdir(parents=True, exist_ok=True)
    paths = {name: outdir / name for name in (HTML, TEXT, UCIS_XML, JSON)}
    paths[HTML].write_text(render_html(cov, cross, code, uarch, by_source), encoding="utf-8")
    paths[TEXT].write_text(render_text(cov, cross, code, uarch, by_source), encoding="utf-8")
    write_ucis(cov, paths[UCIS_XML], cross, uarch)
    cov.save(paths[JSON])
    for name, c in ((CROSS_JSON, cross), (UARCH_JSON, uarch)):
        if c is not None:
            paths[name] = outdir / name
            c.save(paths[name])
    return paths
