"""The coverage database in UCIS XML (pyucis), the interchange format coverage tools read.

One instance `sm1_isa`; one covergroup per form of the encoding table (and the global GUARD and
SIMT groups); one coverpoint per point; one bin per bin, excluded bins as UCIS ignore bins.
pyucis is imported here only: sampling needs numpy alone.
"""

from __future__ import annotations

from pathlib import Path

from .db import Coverage

INSTANCE = "sm1_isa"
CROSS_INSTANCE = "sm1_isa_cross"  # the cross model (cross.py): keys read back as "sm1_isa_cross:GROUP/POINT/BIN"
UARCH_INSTANCE = "sm1_uarch"  # the micro-architecture model (uarch.py): "sm1_uarch:GROUP/POINT/BIN"


def to_ucis(cov: Coverage, test_name: str = "regression", cross: Coverage | None = None, uarch: Coverage | None = None):  # -> ucis.UCIS
    from ucis import (
        UCIS_DU_MODULE,
        UCIS_ENABLED_BRANCH,
        UCIS_ENABLED_COND,
        UCIS_ENABLED_EXPR,
        UCIS_ENABLED_FSM,
        UCIS_ENABLED_STMT,
        UCIS_ENABLED_TOGGLE,
        UCIS_HISTORYNODE_TEST,
        UCIS_INST_ONCE,
        UCIS_INSTANCE,
        UCIS_OTHER,
        UCIS_SCOPE_UNDER_DU,
        UCIS_VLOG,
    )
    from ucis.cover_type_t import CoverTypeT
    from ucis.mem.mem_factory import MemFactory
    from ucis.source_info import SourceInfo

    db = MemFactory.create()
    fh = db.createFileHandle(cov.SOURCE, ".")
    node = db.createHistoryNode(None, test_name, test_name, UCIS_HISTORYNODE_TEST)
    node.setDate("20000101000000")  # pyucis writes it as a date; the runs are listed in the HTML/text reports
    node.setTestStatus(True)
    node.setVendorTool(cov.FORMAT)
    node.setComment(f"{len(cov.runs)} runs merged, {cov.samples} commit records sampled")
    enabled = UCIS_ENABLED_STMT | UCIS_ENABLED_BRANCH | UCIS_ENABLED_COND | UCIS_ENABLED_EXPR | UCIS_ENABLED_FSM | UCIS_ENABLED_TOGGLE
    for name, c in ((cov.UCIS_INSTANCE or INSTANCE, cov), (CROSS_INSTANCE, cross), (UARCH_INSTANCE, uarch)):
        if c is None:
            continue
        du = db.createScope(name, SourceInfo(fh, 1, 0), 1, UCIS_OTHER, UCIS_DU_MODULE, enabled | UCIS_INST_ONCE | UCIS_SCOPE_UNDER_DU)
        inst = db.createInstance(name, None, 1, UCIS_OTHER, UCIS_INSTANCE, du, UCIS_INST_ONCE)
        c.flush()
        counts = c.counts
        for line, g in enumerate(c.model.groups, start=1):
            if not g.points:  # the cross model has no points for forms that never commit; UCIS wants a coverpoint
                continue
            cg = inst.createCovergroup(g.name, SourceInfo(fh, line, 0), 1, UCIS_OTHER)
            for p in g.points:
                cp = cg.createCoverpoint(p.name, SourceInfo(fh, line, 0), 1, UCIS_VLOG)
                for b in p.bins:
                    kind = CoverTypeT.IGNOREBIN if b.excluded else CoverTypeT.CVGBIN
                    cp.createBin(b.name, SourceInfo(fh, line, 0), 1, counts[b.index], b.name, kind)
    return db


def write_ucis(cov: Coverage, path: str | Path, cross: Coverage | None = None, uarch: Coverage | None = None) -> None:
    from ucis.xml.xml_factory import XmlFactory

    XmlFactory.write(to_ucis(cov, cross=cross, uarch=uarch), str(path))


def read_ucis(path: str | Path) -> dict[str, tuple[int, bool]]:
    """bin key -> (count, excluded) of a UCIS XML file, read back with pyucis."""
    from ucis.cover_type_t import CoverTypeT
    from ucis.scope_type_t import ScopeTypeT
    from ucis.xml.xml_factory import XmlFactory

    db = XmlFactory.read(str(path))
    out: dict[str, tuple[int, bool]] = {}
    for inst in db.scopes(ScopeTypeT.INSTANCE):
        prefix = "" if inst.getScopeName() == INSTANCE else f"{inst.getScopeName()}:"
        for cg in inst.scopes(ScopeTypeT.COVERGROUP):
            for cp in cg.scopes(ScopeTypeT.COVERPOINT):
                for item in cp.coverItems(CoverTypeT.CVGBIN | CoverTypeT.IGNOREBIN | CoverTypeT.ILLEGALBIN):
                    data = item.getCoverData()
                    key = f"{prefix}{cg.getScopeName()}/{cp.getScopeName()}/{item.getName()}"
                    out[key] = (int(data.data), data.type == CoverTypeT.IGNOREBIN)
    return out
