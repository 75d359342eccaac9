"""Where a fault's time goes: one fault campaign run twice in one simulator process (a task of all
its faults), plain and under cProfile, and the fault's mean time split into the testbench's parts.

    python scripts/profile_faults.py [--test vecadd] [-n 100] [--model seu] [--engine cocotb]

Both runs measure the CPU time of the faults' loop alone (not the simulator's start nor the
fault-free runs; TB_FAULTS_CPU and TB_FAULTS_CPROFILE, tb/faults/test_campaign.py): CPU time, so
that other jobs on the machine do not lengthen it. Python's part of a fault is grouped by the
functions that own it (cumulative CPU times, each group's functions disjoint from the others');
what the profile leaves of the profiled loop's CPU time is the simulator itself with the VPI calls
of cocotb (Verilator's model, the clock, triggers and value reads and writes in C), which the
profiler does not slow down. The plain run's CPU time per fault is then split: that simulator share
as measured, the rest in the profile's proportions. Printed as a Markdown table, in CPU ms per fault.
Campaigns go to build/faults/profile/.
"""

from __future__ import annotations

import argparse
import os
import pstats
import shutil
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from golden.errors import OneLineParser  # noqa: E402
from tb.faults.campaign import Campaign, run_campaign  # noqa: E402
from tb.lockstep import quiet  # noqa: E402

# (group, [(file part, function name)]): cumulative times added; "minus" entries are taken off
GROUPS: list[tuple[str, list[tuple[str, str]], list[tuple[str, str]]]] = [
    ("program assembly and model build", [("tb/kernels.py", "load_kernel")], []),
    ("test construction and end checks (pyuvm phases, loggers)", [("pyuvm/_s09_phasing.py", "execute")], [("tb/kernels.py", "load_kernel")]),
    ("reset and configuration load", [("tb/adapters/rtl.py", "reset"), ("tb/sequences.py", "__call__")], []),
    ("golden model stepping", [("golden/g80/sm.py", "step"), ("golden/g80/sm.py", "plan")], []),
    ("scoreboard compare", [("tb/scoreboard.py", "write")], [("golden/g80/sm.py", "step"), ("golden/g80/sm.py", "plan")]),
    ("commit monitor (port sampling, records)", [("tb/commit_agent.py", "fired")], [("tb/scoreboard.py", "write")]),
    ("memory agent", [("tb/mem_agent.py", "run")], []),
    ("checkpoint compares", [("tb/faults/test_campaign.py", "same")], []),
    ("injection and stuck-at redeposits", [("tb/faults/test_campaign.py", "_inject")], []),
    ("final memory read, cleanup, restore", [("tb/adapters/rtl.py", "read_global"), ("tb/faults/test_campaign.py", "cleanup"),
                                              ("tb/faults/test_campaign.py", "restore")], []),
]


def _cumulative(stats: pstats.Stats, file_part: str, name: str) -> float:
    return sum(v[3] for (f, _, n), v in stats.stats.items() if file_part in f and n == name)  # type: ignore[attr-defined]


def groups(profile: Path) -> tuple[float, dict[str, float]]:
    """The profile's total Python time and its seconds per group (the rest: cocotb's scheduler)."""
    stats = pstats.Stats(str(profile))
    total = stats.total_tt  # type: ignore[attr-defined]
    out = {}
    for name, plus, minus in GROUPS:
        out[name] = sum(_cumulative(stats, f, n) for f, n in plus) - sum(_cumulative(stats, f, n) for f, n in minus)
    out["cocotb scheduling (triggers, tasks) and the rest"] = total - sum(out.values())
    return total, out


def _campaign(c: Campaign, env: dict[str, str]) -> int:
    """Run the campaign afresh as one task with `env` set; the number of faults it ran."""
    shutil.rmtree(c.folder, ignore_errors=True)
    os.environ.update(env)
    try:
        with quiet(c.folder / "sim.log"):
            run_campaign(c, quiet=True)
    finally:
        for k in env:
            os.environ.pop(k, None)
    con = sqlite3.connect(c.db_path)
    (n,) = con.execute("SELECT COUNT(*) FROM faults WHERE outcome IS NOT NULL").fetchone()
    con.close()
    return int(n)


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    p = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--test", default="vecadd")
    p.add_argument("-n", type=int, default=100, help="faults (one task: one simulator process for all of them)")
    p.add_argument("--model", default="seu", choices=("seu", "stuck0", "stuck1"))
    p.add_argument("--engine", default="cocotb", choices=("cocotb", "fast"))
    return p


def main(argv: list[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    folder = ROOT / "build" / "faults" / "profile"
    name = f"{a.test.replace('/', '-')}_{a.model}_{a.engine}"
    prof, plain_cpu = folder / f"{name}.prof", folder / f"{name}_plain.cpu"
    for kind, env in (("plain", {"TB_FAULTS_CPU": str(plain_cpu)}), ("profiled", {"TB_FAULTS_CPROFILE": str(prof)})):
        c = Campaign(a.test, a.n, "verilator", a.model, "*", 1, jobs=1, db=folder / f"{name}_{kind}" / "campaign.sqlite", batch=a.n, engine=a.engine)
        n = _campaign(c, env)
    total, parts = groups(prof)
    plain = float(plain_cpu.read_text(encoding="utf-8")) / n
    simulator = max(float(Path(f"{prof}.cpu").read_text(encoding="utf-8")) - total, 0.0) / n
    python = max(plain - simulator, 0.0)
    print(f"| part of a fault ({a.test}, {a.model}, {a.engine} engine, {n} faults) | CPU ms | share |")
    print("|---|---:|---:|")
    rows = {k: python * v / total for k, v in parts.items()} if total else {}
    rows["the simulator and cocotb's VPI calls (outside Python)"] = simulator
    for k, v in rows.items():
        print(f"| {k} | {1000 * v:.1f} | {100 * v / plain:.0f} % |")
    print(f"| **a fault, in its process** | **{1000 * plain:.1f}** | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
