"""The text summary: figures overall, per family and per form, the holes, the exclusions."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .code import CodeCoverage, render_code_text
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


ROOT = Path(__file__).resolve().parents[2]  # RTL sources in code coverage are shown relative to it

# what closes a hole, by the category of its point (cross.py)
CLOSE = {
    "value": "a directed program (or generator knob) feeding that value class to the operand",
    "value x modifier": "the value class with that modifier spelling: a directed program over the modifier x value table",
    "RAW": "a read of a register written that many instructions earlier by the same warp (scheduling knob)",
    "WAW": "a destination rewritten that many instructions later by the same warp",
    "half alias": "a half-register read/write pattern over the same register (RnL/RnH vs Rn)",
    "result x flags": "an instruction with a $c write producing that result class",
    "guard": "a guarded instruction whose $c flags make the condition true/false",
    "SIMT": "that lane pattern at that stack depth under that entry kind (divergence / loops / calls)",
}


def largest_holes(cov: Coverage, n: int = 10) -> list[tuple[str, str, str, list[str]]]:
    """The n points with the most reachable bins never hit: (group, point, category, bins)."""
    holes = {(b.group, b.point): b for b in cov.holes()}
    by_point = holes_by_point(cov.holes())
    cats = {(p.group, p.name): p.category for p in cov.model.points()}
    ranked = sorted(by_point.items(), key=lambda kv: -len(kv[1]))[:n]
    return [(g, pt, cats[(g, pt)], names) for (g, pt), names in ranked if (g, pt) in holes]


def render_cross_text(cross: Coverage) -> list[str]:
    o = cross.overall()
    lines = [
        "",
        "=" * 100,
        "Architectural crosses (golden/coverage/cross.py: operand values x modifiers, hazards, result x flags, guard x flags, SIMT)",
        f"runs merged: {len(cross.runs)}; commit records sampled: {cross.samples}",
        f"bins: {o.total} total, {o.excluded} excluded, {o.reachable} reachable; hit {o.hit} = {o.percent:.1f}%",
        "",
        "per category                 bins  excl.   hit / reach.      %",
    ]
    cats: dict[str, list[Bin]] = defaultdict(list)
    for p in cross.model.points():
        cats[p.category].extend(p.bins)
    for cat, bins in cats.items():
        f = cross.figures(bins)
        lines.append(f"  {cat:<24} {f.total:6d} {f.excluded:6d} {_fig(f)}")
    lines += ["", "10 largest holes (points with the most reachable bins never hit) and what would close them"]
    for group, point, cat, names in largest_holes(cross):
        shown = ", ".join(names[:8]) + (f", ... ({len(names) - 8} more)" if len(names) > 8 else "")
        lines.append(f"  {group}/{point}: {len(names)} holes: {shown}")
        lines.append(f"      close with: {CLOSE.get(cat, '')}")
    holes = cross.holes()
    lines += ["", f"holes: {len(holes)} reachable bins never hit"]
    for (group, point), names in holes_by_point(holes).items():
        lines.append(f"  {group}/{point}: {', '.join(names)}")
    bad = cross.excluded_hit()
    if bad:
        lines += ["", f"WARNING: {len(bad)} excluded cross bins were hit (their exclusion reason is wrong):"]
        lines += [f"  {b.key} ({cross.counts[b.index]} hits): {b.excluded}" for b in bad]
    lines += ["", "exclusions (reason: bins)"]
    for reason, bins in exclusions_by_reason(cross).items():
        shown = ", ".join(b.key for b in bins[:6]) + (f", ... ({len(bins) - 6} more)" if len(bins) > 6 else "")
        lines.append(f"  [{len(bins)}] {reason}")
        lines.append(f"      {shown}")
    return lines


def render_text(cov: Coverage, cross: Coverage | None = None, code: CodeCoverage | None = None) -> str:
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
    if cross is not None:
        lines += render_cross_text(cross)
    if code is not None:
        lines += render_code_text(code, ROOT)
    if cov.runs:
        lines += ["", "runs:"] + [f"  {r}" for r in cov.runs]
    return "\n".join(lines) + "\n"
