"""The HTML report of a campaign database: one self-contained file (inline CSS and SVG, no script,
nothing fetched), written beside the database as report.html.

Error margins: statistical fault injection (Leveugle, Calvez, Maistri, Vanhauwaert, "Statistical
fault injection: quantified error and confidence", DATE 2009) draws n faults from a population of
N = state bits x reference cycles; for a rate p measured on n faults the margin at confidence t
(1.96 for 95 %) is e = t * sqrt(p (1 - p) / n * (N - n) / (N - 1)), and the sample size for a
margin e is n = N / (1 + e^2 (N - 1) / (t^2 p (1 - p))), p = 0.5 when nothing is known.
"""

from __future__ import annotations

import html
import math
from collections import Counter, defaultdict
from pathlib import Path

from .classify import GROUPS, OUTCOMES
from .db import CampaignDB

T95 = 1.96
COLOURS = {"masked": "#4caf50", "masked_slower": "#a5d6a7", "sdc": "#e53935", "cfe": "#fb8c00", "due": "#8e24aa", "hang": "#546e7a", "error": "#000000"}
LABELS = {"masked": "masked", "masked_slower": "masked, slower", "sdc": "SDC", "cfe": "control-flow error", "due": "DUE", "hang": "hang",
          "error": "testbench error"}  # fmt: skip


def margin(p: float, n: int, population: int, t: float = T95) -> float:
    """Leveugle et al.'s error margin of a rate p measured on n of `population` faults."""
    if n <= 0:
        return 1.0
    fpc = (population - n) / (population - 1) if population > 1 else 0.0
    return t * math.sqrt(max(p * (1 - p), 0.0) / n * max(fpc, 0.0))


def sample_size(e: float, population: int, p: float = 0.5, t: float = T95) -> int:
    """Leveugle et al.'s faults needed for margin e at confidence t (p = 0.5: the worst case)."""
    return math.ceil(population / (1 + e * e * (population - 1) / (t * t * p * (1 - p))))


def _esc(x: object) -> str:
    return html.escape(str(x))


def _bars(per_unit: dict[str, Counter], width: int = 560) -> str:
    """Stacked horizontal bars, one per unit, each outcome's share of the unit's faults."""
    row, label_w = 22, 110
    units = sorted(per_unit)
    h = row * len(units) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + width + 120}" height="{h}" role="img" aria-label="outcomes per unit">']
    for i, unit in enumerate(units):
        c = per_unit[unit]
        total = sum(c.values())
        y = i * row + 4
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end" font-size="12">{_esc(unit)}</text>')
        x = float(label_w)
        for outcome in OUTCOMES:
            if c[outcome]:
                w = width * c[outcome] / total
                parts.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row - 6}" fill="{COLOURS[outcome]}">'
                             f"<title>{_esc(unit)}: {LABELS[outcome]} {c[outcome]} of {total}</title></rect>")  # fmt: skip
                x += w
        parts.append(f'<text x="{label_w + width + 6}" y="{y + 14}" font-size="12">{total}</text>')
    x = float(label_w)
    for outcome in OUTCOMES:
        parts.append(f'<rect x="{x}" y="{h - 18}" width="10" height="10" fill="{COLOURS[outcome]}"/>'
                     f'<text x="{x + 14}" y="{h - 9}" font-size="11">{LABELS[outcome]}</text>')  # fmt: skip
        x += 14 + 7 * len(LABELS[outcome]) + 12
    parts.append("</svg>")
    return "".join(parts)


def _table(head: list[str], rows: list[list[object]]) -> str:
    out = ["<table><tr>", *(f"<th>{_esc(h)}</th>" for h in head), "</tr>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{_esc(x)}</td>" for x in r) + "</tr>")
    out.append("</table>")
    return "".join(out)


FAILING = ("sdc", "cfe", "due", "hang")  # the outcomes a fault is listed for (with its rerun command)
# failing faults the page lists per outcome, with their rerun commands: a campaign of 10^5 faults and more
# fails thousands of times, and a page of every one of them is too heavy to open; the rest are a query away
LISTED = 50


def _campaign(db: CampaignDB) -> dict:
    """The figures of an open campaign database, aggregated by SQLite: a campaign of 10^5 to 10^6
    faults is never loaded into Python a row at a time."""
    meta, units = db.meta(), db.units()
    planned = db.planned()
    ref = int(meta["ref_cycles"])
    population = int(meta["state_bits"]) * ref
    stop_mode = meta.get("stop", "early")
    per_unit: dict[str, Counter] = {}
    for unit, outcome, count in db.con.execute("SELECT unit, outcome, COUNT(*) FROM faults WHERE outcome IS NOT NULL GROUP BY unit, outcome"):
        per_unit.setdefault(unit, Counter())[outcome] = count
    counts: Counter = Counter()
    for c in per_unit.values():
        counts.update(c)
    n = sum(counts.values())
    rates = {o: (counts[o], counts[o] / n if n else 0.0, margin(counts[o] / n if n else 0.0, n, population)) for o in OUTCOMES}
    # kernel cycles simulated after the injection (before it every run is the fault-free one); a
    # database without the `simulated` column's values counts `cycles`
    (simulated, full, stopped, early_cycles, seu, wall, stopped_wall, masked_full, masked_full_wall) = db.con.execute(
        """SELECT COALESCE(SUM(COALESCE(simulated, cycles) - cycle), 0), COALESCE(SUM(:ref - cycle), 0),
                  COALESCE(SUM(stopped IS NOT NULL), 0), COALESCE(SUM(:ref - stopped), 0), COALESCE(SUM(model = 'seu'), 0),
                  TOTAL(wall_s), TOTAL(CASE WHEN stopped IS NOT NULL THEN wall_s END),
                  COALESCE(SUM(outcome = 'masked' AND (stopped IS NULL OR :mode != 'early')), 0),
                  TOTAL(CASE WHEN outcome = 'masked' AND (stopped IS NULL OR :mode != 'early') THEN wall_s END)
           FROM faults WHERE outcome IS NOT NULL""",
        {"ref": ref, "mode": stop_mode},
    ).fetchone()
    # verify: each converged run must end masked, in the reference's cycles
    unsound = [r[0] for r in db.con.execute("SELECT id FROM faults WHERE outcome IS NOT NULL AND stopped IS NOT NULL "
                                            "AND (outcome != 'masked' OR cycles IS NOT ?) ORDER BY id", (ref,))]  # fmt: skip
    mean_full_wall = masked_full_wall / masked_full if masked_full else None
    # early: the stopped runs' wall time against as many masked runs to the end (their mean)
    not_spent = stopped * mean_full_wall - stopped_wall if mean_full_wall else 0.0
    campaign_wall = float(meta.get("campaign_wall_s", 0.0) or 0.0)
    early = {"mode": stop_mode, "stopped": stopped, "unsound": unsound, "seu": seu, "masked": counts["masked"], "cycles": early_cycles,
             # the share of the cycles simulated after the injections that the early stop saves (would save, verify)
             "cycles_saving": early_cycles / (simulated + early_cycles) if stop_mode == "early" and simulated + early_cycles else
             (early_cycles / simulated if simulated else 0.0),
             "wall_saving": not_spent / (wall + not_spent) if stop_mode == "early" and stopped and mean_full_wall else None}  # fmt: skip
    return {"meta": meta, "units": units, "per_unit": per_unit, "n": n, "planned": planned, "population": population, "counts": counts,
            "rates": rates, "cycles_saving": 1 - (simulated / full) if full else 0.0, "early": early,
            "wall_saving": 1 - wall / (n * mean_full_wall) if mean_full_wall and n else None,
            "faults_per_minute": 60 * int(meta.get("wall_faults", 0) or 0) / campaign_wall if campaign_wall else None,
            "mean_wall_s": wall / n if n else 0.0, "process_s": float(meta.get("ref_process_s", 0.0))}  # fmt: skip


def summary(db_path: Path) -> dict:
    """The figures of a campaign (outcome counts overall and per unit, rates with margins, speed,
    saving), for the report and the CLI."""
    db = CampaignDB(db_path, create=False)
    try:
        return _campaign(db)
    finally:
        db.close()


def early_stop_text(e: dict) -> str:
    """The early stop's figures in a sentence (report and CLI)."""
    if e["mode"] == "off":
        return "Early stop of converged runs: off."
    if not e["seu"]:
        return "Early stop of converged runs: none (stuck-at faults are never stopped early: the held bit can differ again later)."
    if e["mode"] == "verify":
        sound = "all of them ended masked in the reference's cycle count" if not e["unsound"] else f"NOT masked at the end: faults {e['unsound']}"
        return (f"Early stop, verify mode: {e['stopped']} of {e['seu']} SEU runs ({e['masked']} masked in all) had converged to the fault-free "
                f"run at a checkpoint and were run on to the end anyway: {sound}; stopping them would have saved {100 * e['cycles_saving']:.1f} % "
                "of the cycles simulated after the injections.")  # fmt: skip
    wall = f" and {100 * e['wall_saving']:.1f} % of the wall time" if e["wall_saving"] is not None else ""
    return (f"Early stop: {e['stopped']} of {e['seu']} SEU runs ({e['masked']} masked in all) converged to the fault-free run at a checkpoint and "
            f"stopped there as masked, saving {100 * e['cycles_saving']:.1f} % of the cycles simulated after the injections{wall} "
            "against running them to the end.")  # fmt: skip


def text_summary(db_path: Path) -> str:
    """The outcome table (with margins), outcomes per unit, speed and savings, as plain text."""
    s = summary(db_path)
    meta, n = s["meta"], s["n"]
    lines = [f"{meta['command']}: {n} of {s['planned']} faults, reference {meta['ref_cycles']} cycles, {int(meta['state_bits']):,} state bits",
             f"{'outcome':<20}{'faults':>7}{'rate':>9}  margin (95 %, Leveugle et al.)"]  # fmt: skip
    for o, (c, p, e) in s["rates"].items():
        if c or o != "error":
            lines.append(f"{LABELS[o]:<20}{c:>7}{100 * p:>8.1f}%  ± {100 * e:.1f} %")
    per_unit = s["per_unit"]
    shown = [o for o in OUTCOMES if s["counts"][o]]
    wide = max([12, *(len(u) + 1 for u in per_unit)])
    lines.append(f"{'unit':<{wide}}{'faults':>7}" + "".join(f"{LABELS[o]:>{max(16, len(LABELS[o]) + 2)}}" for o in shown))
    for unit in sorted(per_unit):
        c = per_unit[unit]
        total = sum(c.values())
        population = s["units"].get(unit, (0, 0))[1] * int(meta["ref_cycles"])  # the unit's own: its bits x cycles
        cells = "".join(f"{c[o]:>{max(7, len(LABELS[o]) - 7)}} ±{100 * margin(c[o] / total, total, population):5.1f} %" for o in shown)
        lines.append(f"{unit:<{wide}}{total:>7}{cells}")
    fpm = s["faults_per_minute"]
    lines.append(f"speed: {f'{fpm:.0f} faults per minute' if fpm else 'n/a'} ({meta.get('jobs', 1)} simulator processes), "
                 f"{1000 * s['mean_wall_s']:.0f} ms per fault in the simulator process")  # fmt: skip
    lines.append(f"stopping at the first divergence (and the early stop): {100 * s['cycles_saving']:.1f} % fewer cycles after the injections than every run to the end")
    lines.append(early_stop_text(s["early"]))
    return "\n".join(lines)


def _tables(db: CampaignDB, s: dict) -> dict:
    """The page's tables beyond the summary, each aggregated by SQLite and bounded in size whatever
    the campaign's: the worst sites, outcomes per opcode, the groups, and the first failing faults of
    each outcome."""
    out_of = ", ".join(f"'{o}'" for o in FAILING)
    worst = db.con.execute(
        f"""SELECT site, COUNT(*) AS total, SUM(outcome IN ({out_of})) AS failing, {", ".join(f"SUM(outcome = '{o}')" for o in FAILING)}
            FROM faults WHERE outcome IS NOT NULL GROUP BY site HAVING failing > 0 ORDER BY failing DESC, total DESC, site LIMIT 15"""
    ).fetchall()
    # one row per distinct instruction text (a program's instructions: hundreds at most), folded to its opcode here
    per_insn: dict[str, Counter] = defaultdict(Counter)
    for insn, outcome, count in db.con.execute("SELECT insn, outcome, COUNT(*) FROM faults WHERE outcome IS NOT NULL AND insn IS NOT NULL "
                                               "AND insn != '' GROUP BY insn, outcome"):  # fmt: skip
        words = insn.split()
        if words:
            per_insn[words[0]][outcome] += count
    groups = Counter(dict(db.con.execute("SELECT grp, COUNT(*) FROM faults WHERE outcome IS NOT NULL AND grp IS NOT NULL GROUP BY grp")))
    listed = {o: db.con.execute("SELECT id, site, word, bit, cycle, outcome, grp, field, warp, pc, insn, div_cycle FROM faults "
                                "WHERE outcome = ? ORDER BY id LIMIT ?", (o, LISTED)).fetchall()
              for o in FAILING if s["counts"][o]}  # fmt: skip
    return {"worst": worst, "per_insn": per_insn, "groups": groups, "listed": listed}


def write_report(db_path: Path, out: Path | None = None) -> Path:
    """The HTML page of a campaign database (report.html beside it unless `out`); its size does not
    grow with the campaign's: every table is an aggregate, and the failing faults listed are the
    first LISTED of each outcome, with the sqlite3 query that gives the others."""
    from .campaign import rerun_command, shown_path

    db = CampaignDB(db_path, create=False)
    try:
        s = _campaign(db)
        t = _tables(db, s)
    finally:
        db.close()
    meta, n = s["meta"], s["n"]
    out = out or Path(db_path).with_name("report.html")
    # every unit of the campaign has its bar and its row, those no fault has hit yet too
    per_unit: dict[str, Counter] = {u: s["per_unit"].get(u, Counter()) for u in sorted({*s["units"], *s["per_unit"]})}
    outcome_rows = [[LABELS[o], c, f"{100 * p:.1f} %", f"± {100 * e:.1f} %"] for o, (c, p, e) in s["rates"].items() if c or o != "error"]

    def with_margin(u: str, o: str, bits: int) -> str:  # a unit's count, and its rate's margin in the unit's own population
        total = sum(per_unit[u].values())
        if not per_unit[u][o]:
            return "0"
        return f"{per_unit[u][o]} (± {100 * margin(per_unit[u][o] / total, total, bits * int(meta['ref_cycles'])):.1f} %)"

    unit_rows = [[u, sites, bits, sum(per_unit[u].values()), *(with_margin(u, o, bits) for o in OUTCOMES[:-1])] for u, (sites, bits) in s["units"].items()]
    worst_rows = [[site, total, failing, f"{100 * failing / total:.0f} %", ", ".join(f"{LABELS[o]} {c}" for o, c in zip(FAILING, by, strict=True) if c)]
                  for site, total, failing, *by in t["worst"]]  # fmt: skip
    per_insn = t["per_insn"]
    insn_rows = [[op, sum(c.values()), *(c[o] for o in FAILING)] for op, c in sorted(per_insn.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))]
    group_rows = [[g, t["groups"][g]] for g in GROUPS]
    shown = shown_path(Path(db_path))
    listed_parts = []
    for o, rows in t["listed"].items():
        more = s["counts"][o] - len(rows)
        query = (f"sqlite3 {shown} \"SELECT id, site, word, bit, cycle, field, insn FROM faults WHERE outcome = '{o}' "
                 f'ORDER BY id LIMIT -1 OFFSET {len(rows)}"')  # fmt: skip
        head = f"<h3>{LABELS[o]}: {s['counts'][o]:,} fault{'s' if s['counts'][o] != 1 else ''}</h3>\n"
        if more:
            head += f"<p>The first {len(rows)} by id; the {more:,} others: <code>{_esc(query)}</code></p>\n"
        fault_rows = [[i, site, word, bit, cycle, LABELS[outcome], grp or "", field or "", "" if warp is None else warp, "" if pc is None else f"{pc:#06x}",
                       insn or "", "" if div is None else div, rerun_command(Path(db_path), i)]
                      for i, site, word, bit, cycle, outcome, grp, field, warp, pc, insn, div in rows]  # fmt: skip
        listed_parts.append(head + _table(["id", "site", "word", "bit", "cycle", "outcome", "group", "field", "warp", "PC", "instruction",
                                                           "divergence cycle", "rerun"], fault_rows))  # fmt: skip
    listed = "\n".join(listed_parts) or "<p>None.</p>"
    fpm = s["faults_per_minute"]
    ws = s["wall_saving"]
    e1 = sample_size(0.01, s["population"]) if s["population"] else 0
    body = f"""<!doctype html><html><head><meta charset="utf-8"><title>Fault campaign: {_esc(meta["command"])}</title>
<style>body{{font-family:sans-serif;margin:1.5em;max-width:1200px}} table{{border-collapse:collapse;margin:.5em 0 1.5em}}
td,th{{border:1px solid #bbb;padding:2px 6px;font-size:13px;text-align:left}} th{{background:#eee}} code{{background:#f4f4f4}}
h3{{font-size:15px}}</style></head><body>
<h1>Fault campaign: {_esc(meta["test"])} on {_esc(meta["sim"])}, {_esc(meta["model"])}</h1>
<p><code>{_esc(meta["command"])}</code><br>target <code>{_esc(meta["target"])}</code>: {int(meta["state_bits"]):,} state bits;
seed {meta["seed"]}; NUM_SP {meta["num_sp"]}; {n} of {s["planned"]} faults done.<br>
Reference (fault-free) run: {meta["ref_cycles"]} kernel cycles, {meta["ref_commits"]} commits compared in lock-step, final memory equal to the golden model's.<br>
Speed: {f"{fpm:.0f} faults per minute" if fpm else "n/a"} ({meta.get("jobs", 1)} simulator process(es)), {1000 * s["mean_wall_s"]:.0f} ms per fault on average
inside the simulator process, against {s["process_s"]:.1f} s for the reference run as a simulator process of its own (what a process per fault would cost).
Stopping at the first divergence simulated {100 * s["cycles_saving"]:.0f} % fewer cycles after the injections than running every fault to the
end{f", and took {100 * ws:.0f} % less time than as many runs to the end (the masked runs' mean)" if ws is not None else ""}.<br>
{_esc(early_stop_text(s["early"]))}</p>
<h2>Outcomes</h2>
<p>Margins at 95 % confidence after Leveugle et al. (DATE 2009), population N = state bits x reference cycles = {s["population"]:,};
a margin of ± 1 % at p = 0.5 needs {e1:,} faults. Per unit, the margin of each rate is in its unit's own population (its bits x cycles).
The formula is the normal approximation: a count of 0 has no margin in it (the 95 % upper bound of such a rate is about 3/n, n the faults in the unit).</p>
{_table(["outcome", "faults", "rate", "margin (95 %)"], outcome_rows)}
<h2>Outcomes per unit</h2>
{_bars(per_unit)}
{_table(["unit", "state variables", "state bits", "faults", *(LABELS[o] for o in OUTCOMES[:-1])], unit_rows)}
<h2>Instruction-level groups (failing faults, by the first differing commit field)</h2>
{_table(["group", "faults"], group_rows)}
<h2>Vulnerability per instruction (the first divergent instruction's opcode)</h2>
{_table(["opcode", "faults", *(LABELS[o] for o in FAILING)], insn_rows)}
<h2>Worst sites</h2>
{_table(["site", "faults", "failing", "rate", "outcomes"], worst_rows)}
<h2>Failing faults (the first {LISTED} of each outcome) and the command that reruns each with waveforms</h2>
<p>Any fault of the database reruns with <code>{_esc(rerun_command(Path(db_path), 0)).replace(" ID=0", " ID=&lt;id&gt;")}</code>;
every column of every fault is in the database ({_esc(shown)}, table <code>faults</code>).</p>
{listed}
</body></html>
"""
    out.write_text(body, encoding="utf-8")
    return out
