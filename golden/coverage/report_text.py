"""The text summary: figures overall, per family and per form, the holes, the exclusions."""

from __future__ import annotations

from collections import defaultdict

from .db import Coverage, Figures
from .model import Bin


def _fig(f: Figures) -> str:
    if not f.reachable:
        return f"    all {f.total} bins excluded"
    return f"{f.hit:5d} / {f.reachable:5d}  {f.percent:5.1f}%"


def holes_by_point(bins: list[Bin]) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for b in bins:
        out[(b.group, b.point)].append(b.name)
    return out


def exclusions_by_reason(cov: Coverage) -> dict[str, list[Bin]]:
    out: dict[str, list[Bin]] = defaultdict(list)
    for b in cov.model.bins:
        if b.excluded:
            out[b.excluded].append(b)
    return dict(sorted(out.items(), key=lambda kv: -len(kv[1])))


def render_text(cov: Coverage) -> str:
    m = cov.model
    o = cov.overall()
    lines = [
        "G80 SM_1.0 functional coverage (model derived from golden/isa/table.py)",
        f"runs merged: {len(cov.runs)}; commit records sampled: {cov.samples}",
        f"bins: {o.total} total, {o.excluded} excluded (impossible, with a reason), {o.reachable} reachable",
        f"overall: {o.hit} of {o.reachable} reachable bins hit = {o.percent:.1f}%",
        "",
        "per family                   hit / reach.      %",
    ]
    for fam, f in cov.by_family().items():
        lines.append(f"  {fam:<24} {_fig(f)}")
    lines += ["", "per form (group)   family       hit / reach.      %"]
    for g in m.groups:
        f = cov.figures([b for p in g.points for b in p.bins])
        lines.append(f"  {g.name:<16} {g.family:<10} {_fig(f)}")
    holes = cov.holes()
    lines += ["", f"holes: {len(holes)} reachable bins never hit"]
    for (group, point), names in holes_by_point(holes).items():
        lines.append(f"  {group}/{point}: {', '.join(names)}")
    bad = cov.excluded_hit()
    if bad:
        lines += ["", f"WARNING: {len(bad)} excluded bins were hit (their exclusion reason is wrong):"]
        lines += [f"  {b.key} ({cov.counts[b.index]} hits): {b.excluded}" for b in bad]
    lines += ["", "exclusions (reason: bins)"]
    for reason, bins in exclusions_by_reason(cov).items():
        shown = ", ".join(b.key for b in bins[:6]) + (f", ... ({len(bins) - 6} more)" if len(bins) > 6 else "")
        lines.append(f"  [{len(bins)}] {reason}")
        lines.append(f"      {shown}")
    if cov.runs:
        lines += ["", "runs:"] + [f"  {r}" for r in cov.runs]
    return "\n".join(lines) + "\n"
