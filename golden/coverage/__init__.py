"""Functional coverage of the instruction set, derived from the encoding table (DESIGN.md 7).

`Coverage` samples commit records (golden model alone or the testbench's scoreboard), saves and
merges counts as JSON; `write_reports` turns JSON files into the HTML page, the text summary and
the UCIS XML database. Only numpy is needed to sample; the report modules import their own
packages (pyucis) when called.
"""

from __future__ import annotations

from pathlib import Path

from .cross import CrossCoverage, cross_model
from .db import Coverage
from .model import Bin, Group, Model, Point, model


def load_any(path: str | Path) -> Coverage:
    """A coverage JSON file of either model (the ISA bins or the crosses), by its format field."""
    import json

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    cls = CrossCoverage if data.get("format") == CrossCoverage.FORMAT else Coverage
    return cls.from_json(data, str(path))


def write_reports(json_files: list[str | Path], outdir: str | Path, code: str | Path | None = None) -> Coverage:
    """Merge coverage JSON files (ISA model and cross model, kept apart) and write coverage.html,
    coverage.txt and coverage.ucis.xml; returns the ISA model's merged counts (`.cross`: the crosses').
    `code`: a Verilator coverage.dat (merged runs) for the RTL code coverage section."""
    from .code import CodeCoverage
    from .report import write_all

    cov, cross = Coverage(), CrossCoverage()
    for path in json_files:
        got = load_any(path)
        (cross if isinstance(got, CrossCoverage) else cov).merge(got)
    write_all(cov, Path(outdir), cross if cross.runs or cross.samples else None, CodeCoverage.load(code) if code else None)
    cov.cross = cross  # type: ignore[attr-defined]
    return cov


__all__ = ["Bin", "Coverage", "CrossCoverage", "Group", "Model", "Point", "cross_model", "model", "write_reports"]
