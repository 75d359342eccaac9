"""The HTML report: one self-contained page (inline CSS, the heat map as inline SVG, no scripts,
no external resources), readable offline."""

from __future__ import annotations

from html import escape

from .code import CodeCoverage, code_section_html
from .db import Coverage, Figures
from .model import Group
from .report_text import CLOSE, CLOSE_UARCH, ROOT, exclusions_by_reason, holes_by_point, largest_holes

CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1500px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: flex; gap: 1em; flex-wrap: wrap; }
.card { border: 1px solid #ccc; border-radius: 6px; padding: 0.6em 1em; min-width: 9em; }
.card b { font-size: 1.6em; display: block; }
.bar { width: 160px; height: 10px; background: #eee; display: inline-block; }
.bar span { display: block; height: 10px; }
.chip { display: inline-block; margin: 1px 2px; padding: 0 4px; border-radius: 3px; font-family: monospace; font-size: 0.95em; }
.hit { background: #c8ecc8; } .hole { background: #f6b8b8; font-weight: bold; } .excl { background: #e4e4e4; color: #777; text-decoration: line-through; }
.warn { background: #fff0c0; border: 1px solid #d0a000; padding: 0.5em; }
details { margin: 2px 0; } summary { cursor: pointer; }
.small { font-size: 0.85em; color: #555; }
td.reason { min-width: 26em; }
"""


def _color(percent: float | None) -> str:
    if percent is None:
        return "#e8e8e8"
    hue = int(120 * percent / 100)  # red 0% .. green 100%
    return f"hsl({hue}, 70%, {78 if percent < 100 else 70}%)"


def _bar(f: Figures) -> str:
    return f'<span class="bar"><span style="width:{f.percent:.0f}%;background:{_color(f.percent)}"></span></span>'


def heat_map_svg(cov: Coverage) -> str:
    """Rows: forms and global groups; columns: categories of points; cell: % of reachable bins hit."""
    groups = cov.model.groups
    row_h, col_w, left, top = 15, 78, 150, 24
    categories = cov.model.categories
    width = left + col_w * len(categories) + 10
    height = top + row_h * len(groups) + 10
    out = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" font-family="sans-serif" font-size="10">',
           '<title>form x category coverage heat map</title>']  # fmt: skip
    for j, cat in enumerate(categories):
        x = left + j * col_w + col_w / 2
        out.append(f'<text x="{x:.0f}" y="{top - 8}" text-anchor="middle" font-weight="bold">{escape(cat)}</text>')
    for i, g in enumerate(groups):
        y = top + i * row_h
        out.append(f'<text x="{left - 6}" y="{y + 11}" text-anchor="end">{escape(g.name)} <tspan fill="#888">{escape(g.family)}</tspan></text>')
        for j, cat in enumerate(categories):
            bins = [b for p in g.points if p.category == cat for b in p.bins]
            f = cov.figures(bins)
            pct = f.percent if f.reachable else None
            x = left + j * col_w
            tip = f"{g.name} {cat}: {f.hit}/{f.reachable} reachable bins hit, {f.excluded} excluded" if bins else f"{g.name} {cat}: no bins"
            out.append(f'<rect x="{x}" y="{y}" width="{col_w - 2}" height="{row_h - 2}" fill="{_color(pct)}"><title>{escape(tip)}</title></rect>')
            if pct is not None:
                out.append(f'<text x="{x + col_w / 2 - 1:.0f}" y="{y + 10}" text-anchor="middle">{pct:.0f}%</text>')
            elif bins:
                out.append(f'<text x="{x + col_w / 2 - 1:.0f}" y="{y + 10}" text-anchor="middle" fill="#999">excl.</text>')
    out.append("</svg>")
    return "\n".join(out)


def _group_section(cov: Coverage, g: Group) -> str:
    f = cov.figures([b for p in g.points for b in p.bins])
    rows = []
    for p in g.points:
        pf = cov.figures(p.bins)
        chips = []
        for b in p.bins:
            n = cov.counts[b.index]
            if b.excluded:
                cls, tip = "excl", f"excluded: {b.excluded}" + (f" (HIT {n} times!)" if n else "")
            else:
                cls, tip = ("hit" if n else "hole"), f"{n} hits"
            chips.append(f'<span class="chip {cls}" title="{escape(tip)}">{escape(b.name)}{f" {n}" if n else ""}</span>')
        rows.append(f"<tr><td>{escape(p.name)}</td><td>{escape(p.category)}</td><td class='num'>{pf.hit}/{pf.reachable}</td><td>{''.join(chips)}</td></tr>")
    doc = f' <span class="small">{escape(g.doc)}</span>' if g.doc else ""
    figure = f"{_bar(f)} {f.hit}/{f.reachable} = {f.percent:.1f}%" if f.reachable else "all bins excluded"
    return (f'<details><summary><b>{escape(g.name)}</b> ({escape(g.family)}) {figure}{doc}</summary>'
            f"<table><tr><th>point</th><th>category</th><th>hit</th><th>bins (count; grey = excluded, hover for the reason)</th></tr>"
            + "".join(rows) + "</table></details>")  # fmt: skip


def model_section(cov: Coverage, anchor: str, title: str, blurb: str, close: dict[str, str], what: str = "commits sampled",
                  short: str = "Cross") -> list[str]:  # fmt: skip
    """One model's section (the crosses, the micro-architecture): figures per category, the largest
    holes with what would close them, every group's points, the exclusions with their reasons."""
    o = cov.overall()
    holes = cov.holes()
    parts = [
        f'<h2 id="{anchor}">{escape(title)}</h2>',
        f'<p class="small">{escape(blurb)}</p>',
        '<div class="cards">',
        f'<div class="card"><b>{o.percent:.1f}%</b>{o.hit} / {o.reachable} reachable bins</div>',
        f'<div class="card"><b>{o.total}</b>bins</div>',
        f'<div class="card"><b>{o.excluded}</b>excluded (with a reason)</div>',
        f'<div class="card"><b>{len(holes)}</b>holes</div>',
        f'<div class="card"><b>{cov.samples if what else len(cov.runs)}</b>{escape(what or "runs")}</div>',
        "</div>",
    ]
    bad = cov.excluded_hit()
    if bad:
        items = "".join(f"<li>{escape(b.key)}: {cov.counts[b.index]} hits; reason given: {escape(b.excluded or '')}</li>" for b in bad)
        parts.append(f'<div class="warn"><b>{len(bad)} excluded bins were hit</b> (the exclusion is wrong):<ul>{items}</ul></div>')
    parts.append("<table><tr><th>category</th><th>bins</th><th>excluded</th><th>hit / reachable</th><th>%</th><th></th></tr>")
    cats: dict[str, list] = {}
    for p in cov.model.points():
        cats.setdefault(p.category, []).extend(p.bins)
    for cat, bins in cats.items():
        f = cov.figures(bins)
        parts.append(f"<tr><td>{escape(cat)}</td><td class='num'>{f.total}</td><td class='num'>{f.excluded}</td>"
                     f"<td class='num'>{f.hit} / {f.reachable}</td><td class='num'>{f.percent:.1f}</td><td>{_bar(f)}</td></tr>")  # fmt: skip
    parts.append("</table>")
    parts.append("<h3>Largest holes</h3><table><tr><th>group / point</th><th>holes</th><th>what would close them</th><th>bins never hit</th></tr>")
    for group, point, cat, names in largest_holes(cov, 10):
        chips = "".join(f'<span class="chip hole">{escape(n)}</span>' for n in names)
        parts.append(f"<tr><td>{escape(group)} / {escape(point)}</td><td class='num'>{len(names)}</td><td>{escape(close.get(cat, ''))}</td><td>{chips}</td></tr>")
    parts.append("</table><h3>Per group</h3>")
    parts.extend(_group_section(cov, g) for g in cov.model.groups if g.points)
    parts.append(f"<h3>{escape(short)} exclusions</h3><table><tr><th>reason</th><th>bins</th></tr>")
    for reason, bins in exclusions_by_reason(cov).items():
        listed = ", ".join(escape(b.key) for b in bins)
        parts.append(f"<tr><td class='reason'>{escape(reason)}</td><td><details><summary>{len(bins)} bins</summary>{listed}</details></td></tr>")
    parts.append("</table>")
    return parts


def cross_section(cross: Coverage) -> list[str]:
    return model_section(cross, "crosses", "Architectural crosses",
                         f"A second model ({cross.SOURCE}, counted apart from the bins above): each source operand's "
                         "value class alone and x the modifiers that matter, RAW/WAW distances and half-register aliasing, result class x flags, "
                         "guard condition x outcome, lanes x SIMT depth x top stack entry.", CLOSE)  # fmt: skip


def uarch_section(u: Coverage) -> list[str]:
    parts = model_section(u, "uarch", "Micro-architecture of the RTL",
                          "A third model (golden/coverage/uarch.py), sampled from the RTL hierarchy by VPI once a clock in the coverage runs "
                          "(tb/coverage_uarch.py): ready warps at issue, commit gaps, barrier waits, every state and transition of the execute "
                          "sequencer (states from rtl/sm_defs.vh, transitions derived from rtl/sm_exec_ctrl.v), SFU sub-steps, the memory "
                          "port (request kinds, loads outstanding, back-pressure, response order), rounds of blocks.", CLOSE_UARCH, what="",
                          short="Micro-architecture")  # fmt: skip
    skipped = getattr(u, "skipped", {})
    if skipped:
        rows = "".join(f"<tr><td>{escape(k)}</td><td>{escape('; '.join(v))}</td></tr>" for k, v in sorted(skipped.items()))
        parts.append(f'<h3>Points not sampled in some runs</h3><table><tr><th>point</th><th>reason</th></tr>{rows}</table>')
    checks = getattr(u, "checks", {})
    if checks:
        rows = "".join(f"<tr><td>{'ok' if a == b else '<b>FAIL</b>'}</td><td>{escape(k)}</td><td class='num'>{a}</td><td class='num'>{b}</td></tr>"
                       for k, (a, b) in sorted(checks.items()))  # fmt: skip
        parts.append('<h3>Sampler cross-check</h3><p class="small">What the VPI sampler counted against an independent count '
                     "from the commit records the scoreboard compared and from the memory agent, summed over the runs.</p>"
                     f"<table><tr><th></th><th>count</th><th>sampled</th><th>independent</th></tr>{rows}</table>")  # fmt: skip
    return parts


def sources_section(by_source: dict) -> list[str]:
    parts = ['<h2 id="sources">Coverage by source</h2><p class="small">Each source merged alone; the rest of the page is of all of them merged.</p>',
             "<table><tr><th>source</th><th>runs</th><th>ISA bins</th><th>architectural crosses</th><th>micro-architecture</th></tr>"]  # fmt: skip
    for label, m in by_source.items():
        cells = []
        for cov in (m.isa, m.cross, m.uarch):  # an ISA without crosses or a micro-architecture model has None
            if cov is None or not (cov.runs or cov.samples):
                cells.append("<td>-</td>")
                continue
            o = cov.overall()
            cells.append(f"<td class='num'>{o.hit} / {o.reachable} = {o.percent:.1f}%</td>")
        parts.append(f"<tr><td>{escape(label)}</td><td class='num'>{len(m.isa.runs)}</td>{''.join(cells)}</tr>")
    parts.append("</table>")
    return parts


def render_html(cov: Coverage, cross: Coverage | None = None, code: CodeCoverage | None = None, uarch: Coverage | None = None,
                by_source: dict | None = None) -> str:  # fmt: skip
    m = cov.model
    o = cov.overall()
    holes = cov.holes()
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(cov.TITLE)}</title>',
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(cov.TITLE)}</h1>",
        f'<p class="small">Coverage model derived from the encoding table ({escape(cov.SOURCE)}): {cov.DESCRIPTION}</p>',
        '<div class="cards">',
        f'<div class="card"><b>{o.percent:.1f}%</b>overall ({o.hit} / {o.reachable} reachable bins)</div>',
        f'<div class="card"><b>{o.total}</b>bins in the model</div>',
        f'<div class="card"><b>{o.excluded}</b>bins excluded (with a reason)</div>',
        f'<div class="card"><b>{len(holes)}</b>holes</div>',
        f'<div class="card"><b>{len(cov.runs)}</b>runs, {cov.samples} commits sampled</div>',
        "</div>",
    ]
    links = [("families", "ISA bins")] + ([("crosses", "architectural crosses")] if cross is not None else [])
    links += ([("uarch", "micro-architecture")] if uarch is not None else []) + ([("code", "RTL code coverage")] if code is not None else [])
    parts.append('<p>Sections: ' + " | ".join(f'<a href="#{a}">{escape(t)}</a>' for a, t in links) + "</p>")
    if by_source:
        parts.extend(sources_section(by_source))
    bad = cov.excluded_hit()
    if bad:
        items = "".join(f"<li>{escape(b.key)}: {cov.counts[b.index]} hits; reason given: {escape(b.excluded or '')}</li>" for b in bad)
        parts.append(f'<div class="warn"><b>{len(bad)} excluded bins were hit</b> (the exclusion is wrong):<ul>{items}</ul></div>')
    parts.append('<h2 id="families">Per family</h2><table><tr><th>family</th><th>hit / reachable</th><th>%</th><th></th><th>excluded</th></tr>')
    for fam, f in cov.by_family().items():
        parts.append(f"<tr><td>{escape(fam)}</td><td class='num'>{f.hit} / {f.reachable}</td><td class='num'>{f.percent:.1f}</td><td>{_bar(f)}</td><td class='num'>{f.excluded}</td></tr>")
    parts.append("</table>")
    parts.append('<h2 id="heatmap">Heat map: form x category</h2>')
    parts.append('<p class="small">Percentage of the reachable bins of each category hit; grey: no bins of that kind '
                 "(or all excluded). Hover a cell for the figures.</p>")
    parts.append(heat_map_svg(cov))
    parts.append(f'<h2 id="holes">Holes ({len(holes)})</h2>')
    if holes:
        parts.append("<table><tr><th>group / point</th><th>bins never hit</th></tr>")
        for (group, point), names in holes_by_point(holes).items():
            chips = "".join(f'<span class="chip hole">{escape(n)}</span>' for n in names)
            parts.append(f"<tr><td>{escape(group)} / {escape(point)}</td><td>{chips}</td></tr>")
        parts.append("</table>")
    else:
        parts.append("<p>None: every reachable bin was hit.</p>")
    parts.append('<h2 id="forms">Per form</h2>')
    parts.extend(_group_section(cov, g) for g in m.groups)
    parts.append('<h2 id="exclusions">Exclusions</h2><table><tr><th>reason</th><th>bins</th></tr>')
    for reason, bins in exclusions_by_reason(cov).items():
        listed = ", ".join(escape(b.key) for b in bins)
        parts.append(f"<tr><td class='reason'>{escape(reason)}</td><td><details><summary>{len(bins)} bins</summary>{listed}</details></td></tr>")
    parts.append("</table>")
    if cross is not None:
        parts.extend(cross_section(cross))
    if uarch is not None:
        parts.extend(uarch_section(uarch))
    if code is not None:
        parts.extend(code_section_html(code, ROOT))
    if cov.runs:
        runs = "".join(f"<li>{escape(r)}</li>" for r in cov.runs)
        parts.append(f"<h2>Runs</h2><details><summary>{len(cov.runs)} runs</summary><ul>{runs}</ul></details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
