"""`make bench ISA=fermi`: how fast the Fermi golden model runs, in thread- and warp-instructions per second.

    python scripts/bench_fermi.py [--kernels DIR] [--random 8] [--seed 1] [--preset bench] [--runs 3] [--json FILE]

Two workloads, each figure on its own and for the set:

- the Fermi kernels at bench size (bench/fermi/kernels/, made by scripts/gen_kernels.py from the
  templates of programs/fermi/kernels/); a kernel that does not load (assemble) is named and left
  out of the figures;
- random programs (randgen/fermi.py, its `bench` preset: long bodies in loops, few early exits),
  seeds SEED.. .

A program's time is the CPU seconds (user + system of this process) of launching the model with it
and running it to the end (golden/fermi/loader.py), the least of --runs runs: on a machine shared
with other jobs that is the steadier figure. Loading (assembly) is done before the clock starts. A
thread-instruction is one lane executing a warp-instruction (the commit's executed mask).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from golden.errors import FAILURE, OneLineParser, UserError, guarded  # noqa: E402
from golden.fermi.loader import load, machine  # noqa: E402
from golden.fermi.program import FermiLaunch  # noqa: E402
from golden.isa.source import AsmError  # noqa: E402
from randgen import fermi  # noqa: E402
from randgen.config import load as load_knobs  # noqa: E402

KERNELS = ROOT / "bench" / "fermi" / "kernels"
OUT = ROOT / "build" / "bench_fermi"


@dataclass
class Row:
    name: str
    warp_instructions: int
    thread_instructions: int
    cpu_s: float

    @property
    def thread_rate(self) -> float:
        return self.thread_instructions / self.cpu_s if self.cpu_s else 0.0

    @property
    def warp_rate(self) -> float:
        return self.warp_instructions / self.cpu_s if self.cpu_s else 0.0


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(name: str, prog: FermiLaunch, runs: int) -> Row:
    """The program on the model `runs` times: its counts and the least CPU time of a run."""
    best = float("inf")
    warps = threads = 0
    for _ in range(runs):
        t0 = _cpu()
        commits = machine(prog).run(prog.max_steps)
        best = min(best, _cpu() - t0)
        warps, threads = len(commits), sum(c.exec_mask.bit_count() for c in commits)
    return Row(name, warps, threads, best)


def total(name: str, rows: list[Row]) -> Row:
    return Row(name, sum(r.warp_instructions for r in rows), sum(r.thread_instructions for r in rows), sum(r.cpu_s for r in rows))


def kernels(folder: Path, runs: int) -> tuple[list[Row], list[str]]:
    """Each kernel of the folder measured; the ones that do not load, with the first line of why."""
    paths = sorted(folder.glob("*.sass"))
    if not paths:
        raise UserError(f"--kernels {folder}: no .sass programs there (python scripts/gen_kernels.py writes bench/fermi/kernels)")
    rows, skipped = [], []
    for path in paths:
        try:
            prog = load(path)
        except AsmError as e:
            skipped.append(f"{path.name}: {e.format().splitlines()[0]}")
            continue
        rows.append(measure(path.stem, prog, runs))
    return rows, skipped


def random_programs(count: int, seed: int, preset: str, runs: int, out: Path) -> list[Row]:
    _, cfg = load_knobs(preset, None, None, fermi.FermiConfig(), fermi.PRESETS)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for s in range(seed, seed + count):
        path = out / f"{preset}_s{s}.sass"
        path.write_text(fermi.render(fermi.generate(s, cfg, preset)), encoding="utf-8")
        rows.append(measure(path.stem, load(path), runs))
    return rows


def _line(r: Row) -> str:
    return f"{r.name:24} {r.warp_instructions:>11,} {r.thread_instructions:>13,} {r.cpu_s:>8.3f} {r.thread_rate:>14,.0f} {r.warp_rate:>12,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = OneLineParser(prog="scripts/bench_fermi.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", type=Path, default=KERNELS, help="folder of Fermi kernels (default bench/fermi/kernels)")
    ap.add_argument("--random", type=int, default=8, metavar="N", help="random programs (default 8; 0: none)")
    ap.add_argument("--seed", type=int, default=1, help="first seed of the random programs")
    ap.add_argument("--preset", default="bench", help="the random programs' preset of randgen/fermi.py (default bench)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each program; the least CPU time counts (default 3)")
    ap.add_argument("--json", type=Path, help="write the figures to this file")
    args = ap.parse_args(argv)
    return guarded("bench_fermi", lambda: _main(args))


def _main(args: argparse.Namespace) -> int:
    if args.runs < 1 or args.random < 0:
        raise UserError("--runs is at least 1 and --random at least 0")
    if args.preset not in fermi.PRESETS:
        raise UserError(f"--preset {args.preset}: one of {', '.join(fermi.PRESETS)} (randgen/fermi.py PRESETS)")
    head = f"{'program':24} {'warp-insns':>11} {'thread-insns':>13} {'cpu s':>8} {'thread-insns/s':>14} {'warp-insns/s':>12}"
    print(f"Fermi model speed, least CPU time of {args.runs} runs (load average {os.getloadavg()[0]:.2f})")
    krows, skipped = kernels(args.kernels, args.runs)
    print(head)
    for r in krows:
        print(_line(r))
    for s in skipped:
        print(f"  left out (does not load): {s}")
    rrows = random_programs(args.random, args.seed, args.preset, args.runs, OUT / "programs") if args.random else []
    for r in rrows:
        print(_line(r))
    sets = {"kernels": total("kernels", krows), "random": total("random", rrows)}
    print("-" * len(head))
    for t in sets.values():
        if t.cpu_s:
            print(_line(t))
    if args.json:
        data = {"load_average": os.getloadavg()[0], "runs": args.runs, "skipped": skipped,
                "kernels": [asdict(r) for r in krows], "random": [asdict(r) for r in rrows],
                "totals": {k: {**asdict(t), "thread_rate": t.thread_rate, "warp_rate": t.warp_rate} for k, t in sets.items()}}  # fmt: skip
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return FAILURE if not krows and not rrows else 0


if __name__ == "__main__":
    sys.exit(main())
