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


# what closes a hole of the micro-architecture model (uarch.py), by category
CLOSE_UARCH = {
    "issue": "blocks of several warps keep 3+ ready; one warp alone gives 1; back-to-back commits need ready warps "
             "with one-pass instructions (a wider NUM_SP) or a retire in the cycle after a take",
    "barrier": "a block of several warps where some reach BAR.SYNC while others still run (unequal work before the barrier)",
    "sequencer": "a program that takes that path: global/local access (X_MEM, X_MEMWAIT, X_MARK), control (X_CTRL), "
                 "an exit or join that leaves no thread active (X_UNWIND)",
    "SFU": "an SFU or RRO instruction",
    "memory": "loads from many lanes in flight (longer memory latency), back-pressure (ready probability < 1), "
              "local memory accesses, loads whose latencies differ (the memory agent answers in any order unless MEM_ORDER=request)",
    "launch": "a grid with more blocks than fit in one round (registers, shared memory, warps, MAX_BLOCKS)",
}

TITLES = {"uarch": "Micro-architecture of the RTL (golden/coverage/uarch.py, sampled by VPI: tb/coverage_uarch.py)"}  # the crosses' title is their Coverage's TITLE


def render_model_text(cov: Coverage, title: str, close: dict[str, str], what: str = "commit records") -> list[str]:
    """One model's section: figures per category, the 10 largest holes with what would close them,
    every hole, excluded bins that were hit, the exclusions with their reasons."""
    o = cov.overall()
    lines = [
        "",
        "=" * 100,
        title,
        f"runs merged: {len(cov.runs)}; {what} sampled: {cov.samples}" if what else f"runs merged: {len(cov.runs)}",
        f"bins: {o.total} total, {o.excluded} excluded, {o.reachable} reachable; hit {o.hit} = {o.percent:.1f}%",
        "",
        "per category                 bins  excl.   hit / reach.      %",
    ]
    cats: dict[str, list[Bin]] = defaultdict(list)
    for p in cov.model.points():
        cats[p.category].extend(p.bins)
    for cat, bins in cats.items():
        f = cov.figures(bins)
        lines.append(f"  {cat:<24} {f.total:6d} {f.excluded:6d} {_fig(f)}")
    lines += ["", "10 largest holes (points with the most reachable bins never hit) and what would close them"]
    for group, point, cat, names in largest_holes(cov):
        shown = ", ".join(names[:8]) + (f", ... ({len(names) - 8} more)" if len(names) > 8 else "")
        lines.append(f"  {group}/{point}: {len(names)} holes: {shown}")
        lines.append(f"      close with: {close.get(cat, '')}")
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
    return lines


def render_cross_text(cross: Coverage) -> list[str]:
    return render_model_text(cross, cross.TITLE, CLOSE)


def render_uarch_text(u: Coverage) -> list[str]:
    lines = render_model_text(u, TITLES["uarch"], CLOSE_UARCH, what="")
    skipped = getattr(u, "skipped", {})
    if skipped:
        lines += ["", "points not sampled in some runs (the sampler's reason)"]
        lines += [f"  {key}: {'; '.join(reasons)}" for key, reasons in sorted(skipped.items())]
    checks = getattr(u, "checks", {})
    lines += ["", "sampler cross-check (sampled by VPI vs an independent count from commit records / the memory agent)"]
    for name, (sampled, independent) in sorted(checks.items()):
        lines.append(f"  {'ok  ' if sampled == independent else 'FAIL'} {name}: {sampled} vs {independent}")
    return lines


def render_sources_text(by_source: dict) -> list[str]:
    """Overall figures of each model for each source alone (directed, random) and merged."""
    lines = ["", "coverage by source (each source merged alone; the report below is of all of them)"]
    titles = ["ISA bins", "architectural crosses", "micro-architecture"]
    lines.append(f"  {'source':<12}" + "".join(f"{t:>30}" for t in titles))
    for label, m in by_source.items():
        cells = []
        for cov in (m.isa, m.cross, m.uarch):  # an ISA without crosses or a micro-architecture model has None
            if cov is None or not (cov.runs or cov.samples):
                cells.append("-")
                continue
            o = cov.overall()
            cells.append(f"{o.hit}/{o.reachable} = {o.percent:5.1f}%")
        lines.append(f"  {label:<12}" + "".join(f"{c:>30}" for c in cells))
    return lines


def render_text(cov: Coverage, cross: Coverage | None = None, code: CodeCoverage | None = None, uarch: Coverage | None = None,
                by_source: dict | None = None) -> str:  # fmt: skip
    m = cov.model
    o = cov.overall()
    lines = [
        f"{cov.TITLE} (model derived from {cov.SOURCE})",
        f"runs merged: {len(cov.runs)}; commit records sampled: {cov.samples}",
        f"bins: {o.total} total, {o.excluded} excluded (impossible, with a reason), {o.reachable} reachable",
        f"overall: {o.hit} of {o.reachable} reachable bins hit = {o.percent:.1f}%",
    ]
    if cross is not None:
        x = cross.overall()
        lines.append(f"architectural crosses: {x.hit} of {x.reachable} reachable bins hit = {x.percent:.1f}% ({x.total} bins, {x.excluded} excluded)")
    if uarch is not None:
        u = uarch.overall()
        lines.append(f"micro-architecture: {u.hit} of {u.reachable} reachable bins hit = {u.percent:.1f}% ({u.total} bins, {u.excluded} excluded)")
    if code is not None:
        lines.append("RTL code coverage: " + ", ".join(f"{k} {c}/{t} = {100.0 * c / t:.1f}%" for k, (c, t) in sorted(code.totals().items()) if t))
    if by_source:
        lines += render_sources_text(by_source)
    lines += ["", "per family                   hit / reach.      %"]
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
    if uarch is not None:
        lines += render_uarch_text(uarch)
    if code is not None:
        lines += render_code_text(code, ROOT)
    if cov.runs:
        lines += ["", "runs:"] + [f"  {r}" for r in cov.runs]
    return "\n".join(lines) + "\n"
