"""Functional coverage of the instruction set, derived from the encoding table (DESIGN.md 7).

`Coverage` samples commit records (golden model alone or the testbench's scoreboard), saves and
merges counts as JSON; `CrossCoverage` (cross.py) the architectural crosses, `UarchCoverage`
(uarch.py) the RTL's micro-architecture, sampled by the testbench; `write_reports` turns JSON files into the HTML page, the text summary and
the UCIS XML database. Only numpy is needed to sample; the report modules import their own
packages (pyucis) when called.
"""

from __future__ import annotations

from pathlib import Path

from .cross import CrossCoverage, cross_model
from .db import Coverage
from .model import Bin, Group, Model, Point, model
from .uarch import UarchCoverage, uarch_model


def load_any(path: str | Path) -> Coverage:
    """A coverage JSON file of any of the three models (ISA bins, crosses, micro-architecture), by its format field."""
    import json

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    fmt = data.get("format")
    cls = CrossCoverage if fmt == CrossCoverage.FORMAT else UarchCoverage if fmt == UarchCoverage.FORMAT else Coverage
    return cls.from_json(data, str(path))


class Merged:
    """The three models' counts merged over a set of files."""

    def __init__(self) -> None:
        self.isa, self.cross, self.uarch = Coverage(), CrossCoverage(), UarchCoverage()

    def add(self, path: str | Path) -> None:
        got = load_any(path)
        mine = self.cross if isinstance(got, CrossCoverage) else self.uarch if isinstance(got, UarchCoverage) else self.isa
        mine.merge(got)

    @classmethod
    def of(cls, files: list[str | Path]) -> Merged:
        m = cls()
        for f in files:
            m.add(f)
        return m

    def present(self) -> list[tuple[str, Coverage]]:
        """(title, counts) of the models that have data."""
        return [(t, c) for t, c in (("ISA bins", self.isa), ("architectural crosses", self.cross), ("micro-architecture", self.uarch))
                if c.runs or c.samples or any(c.counts)]  # fmt: skip


def write_reports(json_files: list[str | Path], outdir: str | Path, code: str | Path | None = None,
                  sources: dict[str, list[str | Path]] | None = None) -> Coverage:  # fmt: skip
    """Merge coverage JSON files (ISA, cross and micro-architecture models, kept apart) and write
    coverage.html, coverage.txt and coverage.ucis.xml; returns the ISA model's merged counts
    (`.cross`, `.uarch`: the other models'). `code`: a Verilator coverage.dat (merged runs) for
    the RTL code coverage section. `sources`: label -> the files of one source (directed, random),
    each merged alone for the "by source" table (the report is of all of them merged)."""
    from .code import CodeCoverage
    from .report import write_all

    m = Merged.of(json_files)
    by_source = {label: Merged.of(files) for label, files in (sources or {}).items()} if sources and len(sources) > 1 else None
    write_all(m.isa, Path(outdir), m.cross if m.cross.runs or m.cross.samples else None, CodeCoverage.load(code) if code else None,
              uarch=m.uarch if m.uarch.runs else None, by_source=by_source)  # fmt: skip
    m.isa.cross = m.cross  # type: ignore[attr-defined]
    m.isa.uarch = m.uarch  # type: ignore[attr-defined]
    m.isa.by_source = by_source  # type: ignore[attr-defined]
    return m.isa


__all__ = ["Bin", "Coverage", "CrossCoverage", "Group", "Merged", "Model", "Point", "UarchCoverage", "cross_model", "model", "uarch_model", "write_reports"]
