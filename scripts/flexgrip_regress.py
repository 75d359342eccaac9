"""`make regress DUT=flexgrip` and the FlexGripPlus part of `make bench`.

    python scripts/flexgrip_regress.py [-o summary.md] [PROGRAM ...]
    python scripts/flexgrip_regress.py --bench [--backends mcode,llvm,gcc]

Runs every program of programs/ and every kernel bundle of testdata/vectors/flexgrip_kernels on
FlexGripPlus under GHDL in lock-step with the golden model (flexgrip profile), one after the other
(each GHDL run is single-threaded; FlexGripPlus simulates a few thousand cycles a second). What
FlexGripPlus cannot run is listed with the reason, not dropped. The summary gives per program the
outcome, commits compared, FlexGripPlus kernel cycles, GHDL wall time, simulated cycles/s and
commits/s, and the first line of a failure. --bench runs BENCH programs and prints the figures,
once per GHDL back end of --backends (default: the one `ghdl` picks), with the build time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from golden.flexgrip_export import NotRunnable, flexgrip_image
from golden.profile import FLEXGRIP
from tb.adapters.flexgrip_build import FlexgripMissing, check_available
from tb.lockstep import LockstepRun, run_lockstep

ROOT = Path(__file__).resolve().parents[1]

BENCH = ("vecadd", "cf_ifelse", "cf_loop")


def programs() -> list[Path]:
    bundles = ROOT / "testdata" / "vectors" / "flexgrip_kernels"
    return sorted((ROOT / "programs").glob("*.sass")) + sorted(bundles.glob("*.txt"))


def rtl_cycles(path: Path, num_sp: int | None, run: bool) -> str:
    """Kernel cycles of our RTL for the same program: an earlier run's result.json (make sim,
    make regress), or a Verilator run now when `run`; "" when neither."""
    import json
    import re

    if num_sp is None:  # a bundle: its own SP count
        m = re.search(r"CORES\(SPs\)=(\d+)", path.read_text(encoding="utf-8"))
        num_sp = int(m.group(1)) if m else 8
    for sim in ("verilator", "icarus"):
        res = ROOT / "build" / "sim" / f"{path.stem}_{sim}_sp{num_sp}_s1" / "result.json"
        if res.exists():
            data = json.loads(res.read_text())
            return f"{data['cycles']} ({sim})" if data.get("status") == "pass" else f"fail ({sim})"
    if not run:
        return ""
    r = run_lockstep(LockstepRun(str(path), sim="verilator", num_sp=num_sp), rerun_with_waves=False)
    return f"{r.cycles} (verilator)" if r.passed else "fail (verilator)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", type=Path)
    ap.add_argument("-o", "--output", type=Path)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--rtl", action="store_true", help="run our RTL (Verilator, same SP count, g80 profile) where no earlier run left its cycle count")
    ap.add_argument("--backends", default="", help="comma-separated GHDL back ends to compare (GHDL_BACKEND values)")
    args = ap.parse_args()
    if args.backends:
        code = 0
        for backend in args.backends.split(","):
            os.environ["GHDL_BACKEND"] = backend
            from tb.adapters.flexgrip_build import build

            build.cache_clear()
            t0 = time.perf_counter()
            try:
                build(8)
            except Exception as exc:
                print(f"## GHDL back end {backend}: build failed: {exc}")
                continue
            print(f"## GHDL back end {backend} (build {time.perf_counter() - t0:.0f} s, 8 SPs)", flush=True)
            code |= run(args)
        return code
    return run(args)


def run(args: argparse.Namespace) -> int:
    try:
        check_available()
    except FlexgripMissing as exc:
        print(f"FlexGripPlus cannot be simulated here: {exc}")
        return 0 if args.bench else 2
    todo = args.programs or ([ROOT / "programs" / f"{n}.sass" for n in BENCH] if args.bench else programs())
    rows = ["| program | outcome | commits | FlexGripPlus cycles | RTL cycles | GHDL wall s | cycles/s | commits/s | note |",
            "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    failed = 0
    for path in todo:
        try:
            flexgrip_image(path, FLEXGRIP)  # what FlexGripPlus cannot run is refused here with the reason
            r = run_lockstep(LockstepRun(str(path), sim="ghdl", profile="flexgrip", dut="flexgrip"), rerun_with_waves=False)
        except NotRunnable as exc:
            rows.append(f"| {path.stem} | cannot run | | | | | | | {exc} |")
            print(f"{path.stem}: cannot run on FlexGripPlus: {exc}", flush=True)
            continue
        commits, cycles = r.commits, r.cycles
        note = "" if r.passed else (r.report.message.splitlines()[0] if r.report else "no report")
        if r.report and r.report.pc is not None:
            note += f" (warp {r.report.warp}, PC {r.report.pc:#06x} {r.report.text})"
        failed += not r.passed
        rate = (f"{cycles / r.wall:.0f}", f"{commits / r.wall:.1f}") if r.wall else ("", "")
        waived = r.extra.get("waived") or {}
        if waived:
            note = (note + "; " if note else "") + "waived: " + ", ".join(f"{k} x{v}" for k, v in sorted(waived.items()))
        rtl = rtl_cycles(path, r.run.num_sp if path.suffix == ".sass" else None, args.rtl)
        rows.append(f"| {path.stem} | {'PASS' if r.passed else 'FAIL'} | {commits} | {cycles} | {rtl} | {r.wall:.1f} | {rate[0]} | {rate[1]} | {note} |")
        print(rows[-1], flush=True)
    text = "# FlexGripPlus lock-step regression (GHDL)\n\n" + "\n".join(rows) + "\n"
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"summary: {args.output}")
    else:
        print(text)
    return 1 if failed and not args.bench else 0


if __name__ == "__main__":
    sys.exit(main())
