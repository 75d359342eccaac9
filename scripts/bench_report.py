"""`make bench` (fault-report part): the time a campaign database of 600,000 faults takes to report.

    python scripts/bench_report.py [--rows 600000] [--seed 1] [--db build/faults/bench_report/campaign.sqlite]

Builds a synthetic campaign database through tb/faults/db.py's own calls (the units, a plan drawn
like a campaign's over every state bit of the SM, then one record per fault), with a mix of
outcomes that depends on the unit (memories mostly masked, control mostly not), first divergences
a few dozen cycles after the injection, early stops of converged runs and per-fault wall times.
Then times tb/faults/report.py: summary(), the text report and write_report() (the HTML page),
each on its own, and prints the rows, the seconds of each, and the page's size. The target is the
text report and the page in under 30 s together; a run over it exits 1. The database is replaced
at each run; a file at --db that this script did not write is refused.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golden.errors import OneLineParser, UserError, guarded  # noqa: E402
from tb.faults.campaign import plan  # noqa: E402
from tb.faults.db import CampaignDB, Fault  # noqa: E402
from tb.faults.report import summary, text_summary, write_report  # noqa: E402
from tb.faults.sites import enumerate_sites, units_of  # noqa: E402

TARGET_S = 30.0
REF_CYCLES = 1789  # saxpy's reference run (docs/measurements.md): a campaign's cycles are drawn below it
# opcodes and operands of the kind the kernels commit (the per-opcode table groups by the first word)
INSNS = ("IADD R1, R1, R2", "IMAD R3, R0, c[0x0][0x4], R1", "GLD.U32 R4, global14[R3]", "GST.U32 global14[R3], R4", "FMAD R5, R4, c[0x1][0x0], R6",
         "ISET.C0 o[0x7f], R1, R7, LT", "BRA C0.NE, 0x58", "SSY 0x80", "MOV R2, g[0x4]", "I2I.U32.U16 R1, R0L", "SHL R3, R1, 0x2", "FMUL R6, R5, R5")  # fmt: skip
# per failing outcome: (group, first differing field, report kind)
FAILING = {"sdc": [("operation", "gpr", "mismatch"), ("operand", "gpr", "mismatch"), ("memory", "global memory", "end_of_test")],
           "cfe": [("order", "next_pc", "mismatch"), ("management", "exec_mask", "mismatch"), ("operation", "insn", "mismatch")],
           "due": [("operation", "error", "rtl_error"), ("memory", "address", "memory_fault")],
           "hang": [("", "", "hang")], "error": [("", "timeout", "timeout")]}  # fmt: skip
SHARES = {"sdc": 0.45, "cfe": 0.3, "due": 0.15, "hang": 0.095, "error": 0.005}
# the share of failing faults per unit: the memories' words are mostly never read (docs/measurements.md),
# the register file's often, the control's nearly always
FAILING_RATE = {"u_mem": 0.02, "u_regfile": 0.12, "u_flags": 0.1, "u_aregs": 0.05}
FAILING_RATE_CONTROL = 0.3


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    p = OneLineParser(prog="scripts/bench_report.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=600_000, help="faults in the synthetic database (default 600000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the synthetic campaign (default 1)")
    p.add_argument("--db", type=Path, default=ROOT / "build" / "faults" / "bench_report" / "campaign.sqlite",
                   help="the database to write (replaced; the page is written beside it)")  # fmt: skip
    return p


def _outcome(f: Fault, rng: random.Random) -> dict[str, object]:
    """One fault's record, as tb/faults/campaign.py writes it."""
    rate = FAILING_RATE.get(f.unit, FAILING_RATE_CONTROL)
    base = {"commits": 0, "shard": f.id % 2, "stopped": None}
    if rng.random() >= rate:
        if rng.random() < 0.03:  # the same commits and memory in other cycles
            cycles = REF_CYCLES + rng.randint(1, 40)
            return {**base, "outcome": "masked_slower", "grp": "", "field": "", "cycles": cycles, "simulated": cycles, "commits": 812,
                    "wall_s": 0.07 * cycles / REF_CYCLES}  # fmt: skip
        # a run that converged back to the fault-free one stops at the next of 64 checkpoints
        checkpoint = (f.cycle // 28 + 1) * 28
        stopped = checkpoint if rng.random() < 0.1 and checkpoint < REF_CYCLES else None
        simulated = stopped or REF_CYCLES
        return {**base, "outcome": "masked", "grp": "", "field": "", "cycles": REF_CYCLES, "simulated": simulated, "stopped": stopped,
                "commits": 812, "wall_s": 0.005 + 0.065 * simulated / REF_CYCLES}  # fmt: skip
    outcome = rng.choices(list(SHARES), weights=list(SHARES.values()))[0]
    grp, field, kind = rng.choice(FAILING[outcome])
    div = f.cycle + int(rng.expovariate(1 / 40)) + 1
    if outcome == "hang":
        div = f.cycle + 2000
    elif outcome == "error":
        return {**base, "outcome": outcome, "grp": "", "field": field, "kind": kind, "message": "the simulator stopped without a verdict",
                "cycles": div, "simulated": div, "wall_s": 0.09}  # fmt: skip
    index = rng.randrange(len(INSNS))
    return {**base, "outcome": outcome, "grp": grp, "field": field, "kind": kind, "message": f"{field} differs", "warp": rng.randrange(24),
            "pc": 8 * index, "insn": INSNS[index], "div_cycle": div, "cycles": div, "simulated": div, "commits": div * 812 // REF_CYCLES,
            "wall_s": 0.005 + 0.065 * min(div, REF_CYCLES) / REF_CYCLES}  # fmt: skip


def build(path: Path, rows: int, seed: int) -> None:
    """The synthetic campaign database, written with CampaignDB's own calls."""
    if path.exists():
        # only a database of an earlier run of this script is replaced: --db may name a real campaign's by mistake
        try:
            con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            mine = con.execute("SELECT value FROM meta WHERE key = 'synthetic'").fetchone() is not None
            con.close()
        except sqlite3.DatabaseError:
            mine = False
        if not mine:
            raise UserError(f"--db {path}: not a database this benchmark wrote (it would be replaced): remove it or choose another --db path")
    for old in (path, path.with_name(path.name + "-journal")):
        old.unlink(missing_ok=True)
    rng = random.Random(seed)
    sites = enumerate_sites()
    units = units_of(sites)
    db = CampaignDB(path)
    # the benchmark times reading, not writing: a database nobody needs after a crash need not be synced
    db.con.execute("PRAGMA synchronous = OFF")
    db.con.execute("PRAGMA journal_mode = MEMORY")
    db.set_units(units)
    faults = plan(list(sites), rows, REF_CYCLES, "seu", seed)  # drawn as a campaign over every state bit draws them
    db.plan(faults)
    for f in faults:
        db.record(f.id, **_outcome(f, rng))
    db.set_meta(test="saxpy", program="programs/saxpy.sass", sim="verilator", model="seu", target="*", seed=seed, n=rows, num_sp=8,
                command=f"make faults TEST=saxpy N={rows} SEED={seed}", watchdog=2000, stop="early", dut="rtl",
                state_bits=sum(b for _, b in units.values()), ref_cycles=REF_CYCLES, ref_commits=812, ref_wall_s=0.06, ref_process_s=2.5,
                jobs=2, wall_faults=rows, campaign_wall_s=rows * 0.035, synthetic="scripts/bench_report.py")  # fmt: skip
    db.close()


def main(argv: list[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    if a.rows < 1:
        _parser().error(f"--rows {a.rows}: at least one fault")

    def body() -> int:
        t0 = time.perf_counter()
        build(a.db, a.rows, a.seed)
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        s = summary(a.db)
        t_summary = time.perf_counter() - t0
        t0 = time.perf_counter()
        text = text_summary(a.db)
        t_text = time.perf_counter() - t0
        t0 = time.perf_counter()
        page = write_report(a.db)
        t_page = time.perf_counter() - t0
        total = t_text + t_page
        print(f"{'rows':>8} {'build s':>8} {'summary() s':>12} {'text report s':>14} {'write_report() s':>17} {'page KiB':>9}")
        print(f"{s['n']:>8} {built:>8.1f} {t_summary:>12.2f} {t_text:>14.2f} {t_page:>17.2f} {page.stat().st_size / 1024:>9.0f}")
        print(f"text report {len(text.splitlines())} lines; page {page}")
        verdict = "within" if total < TARGET_S else "OVER"
        print(f"text report and page: {total:.1f} s, {verdict} the target of {TARGET_S:.0f} s")
        return 0 if total < TARGET_S else 1

    return guarded("scripts/bench_report.py", body)


if __name__ == "__main__":
    sys.exit(main())
