"""The fault-campaign report (tb/faults/report.py) on synthetic databases whose figures the test
knows from the rows it wrote: the aggregated tables, the bounded list of failing faults and the
sqlite3 query that gives the others, and the benchmark script that times a large database."""

from __future__ import annotations

import html
import random
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tb.faults.db import CampaignDB, Fault
from tb.faults.report import LISTED, summary, text_summary, write_report
from tb.runner import ROOT

REF = 500
UNITS = {"u_alpha": (4, 3000), "u_beta": (2, 800), "u_gamma": (7, 120), "u_idle": (1, 64)}  # u_idle: a unit no fault hits
SITES = {"u_alpha": ["u_alpha.a0", "u_alpha.a1", "u_alpha.a2", "u_alpha.a3"], "u_beta": ["u_beta.b0", "u_beta.b1"],
         "u_gamma": [f"u_gamma.g{i}" for i in range(7)]}  # fmt: skip
OPCODES = ["IADD R1, R1, R2", "IMAD R3, R0, R1, R2", "GLD.U32 R4, global14[R3]", "BRA 0x58", "FMUL R6, R5, R5"]
FAILING = ("sdc", "cfe", "due", "hang")
LABELS = {"masked": "masked", "masked_slower": "masked, slower", "sdc": "SDC", "cfe": "control-flow error", "due": "DUE", "hang": "hang",
          "error": "testbench error"}  # fmt: skip


def _rows(n: int, seed: int, outcomes: dict[str, int]) -> list[dict]:
    """n fault rows of known content: outcome `o` exactly outcomes[o] times (the rest masked), in a shuffled order."""
    rng = random.Random(seed)
    kinds = [o for o, k in outcomes.items() for _ in range(k)]
    kinds += ["masked"] * (n - len(kinds))
    rng.shuffle(kinds)
    rows = []
    for i, outcome in enumerate(kinds):
        unit = rng.choice(sorted(SITES))
        row = {"id": i, "unit": unit, "site": rng.choice(SITES[unit]), "word": rng.randrange(16), "bit": rng.randrange(32), "cycle": rng.randrange(REF),
               "model": "seu" if i % 5 else "stuck1", "outcome": outcome, "grp": "", "field": "", "insn": None, "stopped": None, "warp": None, "pc": None,
               "div_cycle": None, "wall_s": round(rng.uniform(0.01, 0.05), 4)}  # fmt: skip
        if outcome in FAILING:
            div = min(row["cycle"] + rng.randrange(1, 30), REF - 1)
            row.update(grp=rng.choice(["operation", "operand", "order", "management", "memory"]), field="gpr", warp=rng.randrange(4), pc=8 * rng.randrange(9),
                       insn=rng.choice(OPCODES), div_cycle=div, cycles=div, simulated=div)  # fmt: skip
        elif outcome == "masked_slower":
            row.update(cycles=REF + 3, simulated=REF + 3)
        else:
            row.update(cycles=REF, simulated=REF)
            if row["model"] == "seu" and rng.random() < 0.2 and row["cycle"] < REF - 50:
                row.update(stopped=row["cycle"] + 20, simulated=row["cycle"] + 20)
        rows.append(row)
    return rows


def _database(path: Path, rows: list[dict], pending: int = 0) -> Path:
    """A campaign database of `rows` (and `pending` planned faults not run yet), through CampaignDB's own calls."""
    db = CampaignDB(path)
    db.set_meta(test="vecadd", sim="verilator", model="seu", target="*", seed=1, n=len(rows) + pending, num_sp=8, command="make faults TEST=vecadd",
                watchdog=2000, state_bits=sum(b for _, b in UNITS.values()), ref_cycles=REF, ref_commits=40, ref_wall_s=0.1, ref_process_s=2.0,
                stop="early", jobs=2, wall_faults=len(rows), campaign_wall_s=60.0)  # fmt: skip
    db.set_units(UNITS)
    planned = [Fault(r["id"], r["site"], r["unit"], r["word"], r["bit"], r["cycle"], r["model"]) for r in rows]
    db.plan(planned + [Fault(len(rows) + k, "u_alpha.a0", "u_alpha", 0, 0, 1, "seu") for k in range(pending)])
    skip = {"id", "site", "unit", "word", "bit", "cycle", "model"}
    with db.con:  # one transaction: record() on its own commits every fault
        for r in rows:
            keys = [k for k in r if k not in skip]
            db.con.execute(f"UPDATE faults SET {', '.join(k + ' = ?' for k in keys)} WHERE id = ?", [*(r[k] for k in keys), r["id"]])
    db.close()
    return path


class _Tables(HTMLParser):
    """Every table of a page as lists of cell texts, with the h3 heading and paragraph before each."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[str]]]] = []
        self.heading = ""
        self.text: list[str] = []
        self.cell: list[str] | None = None
        self.in_h3 = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self.tables.append((self.heading, []))
        elif tag == "tr":
            self.tables[-1][1].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "h3":
            self.in_h3, self.heading = True, ""
        elif tag == "h2":
            self.heading = ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][1][-1].append("".join(self.cell))
            self.cell = None
        elif tag == "h3":
            self.in_h3 = False

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        elif self.in_h3:
            self.heading += data


def _table(page: str, first_header: str) -> list[list[str]]:
    p = _Tables()
    p.feed(page)
    found = [rows for _, rows in p.tables if rows and rows[0][0] == first_header]
    assert len(found) == 1, first_header
    return found[0][1:]


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    # SDC and control-flow errors beyond the page's bound, DUE and hangs within it
    rows = _rows(4000, 7, {"sdc": 180, "cfe": 70, "due": 20, "hang": 9, "masked_slower": 60, "error": 3})
    return _database(tmp_path_factory.mktemp("report") / "campaign.sqlite", rows, pending=25), rows


def test_summary_counts(campaign: tuple[Path, list[dict]]) -> None:
    db, rows = campaign
    s = summary(db)
    assert (s["n"], s["planned"]) == (4000, 4025)
    assert s["counts"] == Counter(r["outcome"] for r in rows)
    assert s["per_unit"] == {u: Counter(r["outcome"] for r in rows if r["unit"] == u) for u in {r["unit"] for r in rows}}
    for o, (count, rate, _) in s["rates"].items():
        assert (count, rate) == (sum(r["outcome"] == o for r in rows), pytest.approx(sum(r["outcome"] == o for r in rows) / 4000))
    stopped = [r for r in rows if r["stopped"] is not None]
    e = s["early"]
    masked = sum(r["outcome"] == "masked" for r in rows)
    assert (e["stopped"], e["seu"], e["masked"], e["unsound"]) == (len(stopped), sum(r["model"] == "seu" for r in rows), masked, [])
    assert e["cycles"] == sum(REF - r["stopped"] for r in stopped)
    simulated = sum(r["simulated"] - r["cycle"] for r in rows)
    assert e["cycles_saving"] == pytest.approx(e["cycles"] / (simulated + e["cycles"]))
    assert s["cycles_saving"] == pytest.approx(1 - simulated / sum(REF - r["cycle"] for r in rows))
    full = [r["wall_s"] for r in rows if r["outcome"] == "masked" and r["stopped"] is None]
    mean_full, wall = sum(full) / len(full), sum(r["wall_s"] for r in rows)
    spared = sum(mean_full - r["wall_s"] for r in stopped)
    assert e["wall_saving"] == pytest.approx(spared / (wall + spared))
    assert s["wall_saving"] == pytest.approx(1 - wall / (4000 * mean_full))
    assert s["mean_wall_s"] == pytest.approx(wall / 4000)


def test_text_report_per_unit(campaign: tuple[Path, list[dict]]) -> None:
    db, rows = campaign
    lines = text_summary(db).splitlines()
    assert lines[0] == f"make faults TEST=vecadd: 4000 of 4025 faults, reference {REF} cycles, 3,984 state bits"
    for o, n in Counter(r["outcome"] for r in rows).items():
        assert re.search(rf"^{re.escape(LABELS[o])} +{n} ", "\n".join(lines), re.M), o
    for unit in SITES:
        mine = Counter(r["outcome"] for r in rows if r["unit"] == unit)
        line = next(x for x in lines if x.startswith(unit + " "))
        # the unit's faults, then the count (and margin) of each outcome the campaign has, in the header's order
        assert int(line.split()[1]) == sum(mine.values()), line
        assert [int(x) for x in re.findall(r"(\d+) ±", line)] == [mine[o] for o in LABELS if any(r["outcome"] == o for r in rows)], line
    assert not any(line.startswith("u_idle") for line in lines)  # the text table lists the units with faults


def test_page_tables(campaign: tuple[Path, list[dict]]) -> None:
    db, rows = campaign
    page = write_report(db, db.with_name("page.html")).read_text(encoding="utf-8")
    units = {r[0]: r for r in _table(page, "unit")}
    assert set(units) == set(UNITS)
    for u, (sites, bits) in UNITS.items():
        mine = Counter(r["outcome"] for r in rows if r["unit"] == u)
        assert units[u][1:4] == [str(sites), str(bits), str(sum(mine.values()))]
        assert [int(c.split()[0]) for c in units[u][4:]] == [mine[o] for o in ("masked", "masked_slower", "sdc", "cfe", "due", "hang")]
    assert {g: int(n) for g, n in _table(page, "group")} == dict(Counter(r["grp"] for r in rows if r["grp"]))
    per_op: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        if r["insn"]:
            per_op[r["insn"].split()[0]][r["outcome"]] += 1
    ops = _table(page, "opcode")
    assert {op: [int(x) for x in rest] for op, *rest in ops} == {op: [sum(c.values()), *(c[o] for o in FAILING)] for op, c in per_op.items()}
    assert [int(r[1]) for r in ops] == sorted((int(r[1]) for r in ops), reverse=True)
    # the worst sites: most failing faults first, then most faults, then by name; 15 at most
    per_site: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        per_site[r["site"]][r["outcome"]] += 1
    ranked = sorted(per_site, key=lambda s: (-sum(per_site[s][o] for o in FAILING), -sum(per_site[s].values()), s))[:15]
    worst = _table(page, "site")
    assert [w[0] for w in worst] == [s for s in ranked if sum(per_site[s][o] for o in FAILING)]
    for site, total, failing, _, detail in worst:
        c = per_site[site]
        assert (int(total), int(failing)) == (sum(c.values()), sum(c[o] for o in FAILING))
        assert detail == ", ".join(f"{LABELS[o]} {c[o]}" for o in FAILING if c[o])


def test_page_lists_a_bounded_number_of_faults_and_the_query_for_the_rest(campaign: tuple[Path, list[dict]]) -> None:
    db, rows = campaign
    assert 10 <= LISTED <= 100  # a page a browser opens at once, whatever the campaign's size
    page = write_report(db, db.with_name("page.html")).read_text(encoding="utf-8")
    p = _Tables()
    p.feed(page)
    listed = {heading: t[1:] for heading, t in p.tables if t and t[0][0] == "id"}
    failing_ids = {o: [r["id"] for r in rows if r["outcome"] == o] for o in FAILING}
    assert len(listed) == 4
    for o, ids in failing_ids.items():
        shown = listed[f"{LABELS[o]}: {len(ids):,} faults"]
        assert [int(r[0]) for r in shown] == ids[:LISTED], o
        assert all(r[5] == LABELS[o] and r[-1] == f"make faults-rerun DB={db} ID={r[0]}" for r in shown)
    assert page.count("make faults-rerun DB=") == sum(min(LISTED, len(ids)) for ids in failing_ids.values()) + 1  # and the general form
    # each outcome beyond the bound names the query that lists the others: run it
    queries = re.findall(r"the (\S+) others: <code>(sqlite3 [^<]*)</code>", page)
    assert sorted(int(n.replace(",", "")) for n, _ in queries) == sorted(len(ids) - LISTED for ids in failing_ids.values() if len(ids) > LISTED)
    for n, command in queries:
        argv = shlex.split(html.unescape(command))
        if shutil.which("sqlite3"):
            out = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
        else:  # the same SQL through Python's sqlite3
            out = ["|".join(map(str, r)) for r in sqlite3.connect(argv[1]).execute(argv[2])]
        o = re.search(r"outcome = '(\w+)'", argv[2])
        assert o is not None and argv[1] == str(db)
        assert [int(line.split("|")[0]) for line in out] == failing_ids[o.group(1)][LISTED:]
        assert len(out) == int(n.replace(",", ""))


def test_small_campaign_lists_every_failing_fault(tmp_path: Path) -> None:
    rows = _rows(300, 3, {"sdc": 4, "hang": 1})
    page = write_report(_database(tmp_path / "small.sqlite", rows)).read_text(encoding="utf-8")
    assert "others: <code>sqlite3" not in page
    p = _Tables()
    p.feed(page)
    listed = {heading: [int(r[0]) for r in t[1:]] for heading, t in p.tables if t and t[0][0] == "id"}
    assert listed == {"SDC: 4 faults": [r["id"] for r in rows if r["outcome"] == "sdc"], "hang: 1 fault": [r["id"] for r in rows if r["outcome"] == "hang"]}


def test_bench_report_script(tmp_path: Path) -> None:
    """The benchmark on a small database: its figures line reports every row it built, and the page beside the database."""
    db = tmp_path / "bench.sqlite"
    done = subprocess.run([sys.executable, "scripts/bench_report.py", "--rows", "1500", "--db", str(db)], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = done.stdout.splitlines()[1].split()
    assert figures[0] == "1500" and (tmp_path / "report.html").is_file()
    con = sqlite3.connect(db)
    total, done_, units, outcomes = con.execute("SELECT COUNT(*), COUNT(outcome), COUNT(DISTINCT unit), COUNT(DISTINCT outcome) FROM faults").fetchone()
    assert (total, done_) == (1500, 1500)
    assert units >= 3 and outcomes >= 4  # a mix, not one unit or one outcome
    bad = subprocess.run([sys.executable, "scripts/bench_report.py", "--rows", "0"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "--rows 0" in bad.stderr, bad.stderr
    # a second run replaces its own database, never another file
    again = subprocess.run([sys.executable, "scripts/bench_report.py", "--rows", "200", "--db", str(db)], capture_output=True, text=True, cwd=ROOT,
                           timeout=300)  # fmt: skip
    assert again.returncode == 0 and again.stdout.splitlines()[1].split()[0] == "200", again.stderr
    other = tmp_path / "campaign.sqlite"
    other.write_bytes(b"a campaign of its own")
    refused = subprocess.run([sys.executable, "scripts/bench_report.py", "--rows", "200", "--db", str(other)], capture_output=True, text=True, cwd=ROOT,
                             timeout=300)  # fmt: skip
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1 and "choose another --db" in refused.stderr, refused.stderr
    assert other.read_bytes() == b"a campaign of its own"
