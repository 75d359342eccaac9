"""Functional coverage of the instruction set, derived from the encoding table (DESIGN.md 7).

`Coverage` samples commit records (golden model alone or the testbench's scoreboard), saves and
merges counts as JSON; `write_reports` turns JSON files into the HTML page, the text summary and
the UCIS XML database. Only numpy is needed to sample; the report modules import their own
packages (pyucis) when called.
"""

from __future__ import annotations

from pathlib import Path

from .db import Coverage
from .model import Bin, Group, Model, Point, model


def write_reports(json_files: list[str | Path], outdir: str | Path) -> Coverage:
    """Merge coverage JSON files and write coverage.html, coverage.txt and coverage.ucis.xml."""
    from .report import write_all

    cov = Coverage()
    for path in json_files:
        cov.merge(Coverage.load(path))
    write_all(cov, Path(outdir))
    return cov


__all__ = ["Bin", "Coverage", "Group", "Model", "Point", "model", "write_reports"]
