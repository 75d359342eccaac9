"""Functional coverage machinery, the same for every instruction set (DESIGN.md 7).

An ISA plugs in through its coverage module (golden/isas.py names it: golden/g80/coverage.py,
golden/lg/coverage.py), whose `CLASSES` are its models' Coverage subclasses, the ISA bins first.
Here: the model structure (model.py) and the points that follow from a table alone (derive.py),
counts with save, load and merge (db.py), the loop that runs programs with coverage (runs.py), and the
reports (HTML page, text summary, UCIS XML).
`write_reports` turns JSON files of one ISA into the reports. Only numpy is needed to sample; the
report modules import their own packages (pyucis) when called.
"""

from __future__ import annotations

import json
from pathlib import Path

from .db import Coverage
from .model import Bin, Group, Model, Point


def classes() -> dict[str, tuple[str, type[Coverage]]]:
    """Coverage file format -> (ISA name, its Coverage class), over every registered ISA that has
    coverage models (one whose model is still to come has none)."""
    from ..isas import ISAS

    out: dict[str, tuple[str, type[Coverage]]] = {}
    for isa in (isa for isa in ISAS.values() if isa.coverage_module):
        for cls in isa.coverage.CLASSES:
            out[cls.FORMAT] = (isa.name, cls)
    return out


def _read(path: str | Path) -> tuple[str, type[Coverage], dict]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    known = classes()
    fmt = data.get("format")
    if fmt not in known:
        raise ValueError(f"{path}: not a coverage file of this project (format {fmt!r}; known: {', '.join(sorted(known))})")
    isa, cls = known[fmt]
    return isa, cls, data


def load_any(path: str | Path) -> Coverage:
    """A coverage JSON file of any model of any ISA, by its format field."""
    _, cls, data = _read(path)
    return cls.from_json(data, str(path))


class Merged:
    """The counts of one ISA's models merged over a set of files: `isa` (the ISA bins) and, where
    the ISA has them, `cross` and `uarch` (None otherwise)."""

    def __init__(self, isa: str = "g80") -> None:
        from ..isas import get

        self.isa_name = isa
        kinds = get(isa).coverage.CLASSES
        self.models: list[Coverage] = [cls() for cls in kinds]
        self.isa: Coverage = self.models[0]
        self.cross: Coverage | None = self.models[1] if len(self.models) > 1 else None
        self.uarch: Coverage | None = self.models[2] if len(self.models) > 2 else None

    def add(self, path: str | Path) -> None:
        isa, cls, data = _read(path)
        if isa != self.isa_name:
            raise ValueError(f"{path}: {isa} coverage cannot merge with {self.isa_name} coverage (report one ISA at a time)")
        got = cls.from_json(data, str(path))
        mine = next(m for m in self.models if type(m) is cls)
        mine.merge(got)

    @classmethod
    def of(cls, files: list[str | Path]) -> Merged:
        isa = _read(files[0])[0] if files else "g80"
        m = cls(isa)
        for f in files:
            m.add(f)
        return m

    def present(self) -> list[tuple[str, Coverage]]:
        """(title, counts) of the models that have data."""
        titles = ("ISA bins", "architectural crosses", "micro-architecture")
        return [(t, c) for t, c in zip(titles, self.models, strict=False) if c.runs or c.samples or any(c.counts)]


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
    write_all(m.isa, Path(outdir), m.cross if m.cross is not None and (m.cross.runs or m.cross.samples) else None,
              CodeCoverage.load(code) if code else None, uarch=m.uarch if m.uarch is not None and m.uarch.runs else None,
              by_source=by_source)  # fmt: skip
    m.isa.cross = m.cross  # type: ignore[attr-defined]
    m.isa.uarch = m.uarch  # type: ignore[attr-defined]
    m.isa.by_source = by_source  # type: ignore[attr-defined]
    return m.isa


__all__ = ["Bin", "Coverage", "Group", "Merged", "Model", "Point", "classes", "load_any", "write_reports"]
