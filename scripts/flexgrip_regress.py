"""`make regress DUT=flexgrip` and the FlexGripPlus part of `make bench`.

    python scripts/flexgrip_regress.py [-o summary.md] [--json kernels.json [--update] [--rtl-refresh]] [--kernels] [--reuse | --reuse-only] [--rtl] [PROGRAM ...]
    python scripts/flexgrip_regress.py --bench [--backends mcode,llvm,gcc]

Runs every program of programs/, every kernel of programs/kernels/ (CI sizes) and every kernel
bundle of testdata/vectors/flexgrip_kernels on FlexGripPlus under GHDL in lock-step with the golden
model (flexgrip profile), one after the other (each GHDL run is single-threaded; FlexGripPlus
simulates one to two thousand cycles a second). What FlexGripPlus cannot run is listed with the
reason, not dropped. The summary gives per program the outcome, commits compared, FlexGripPlus
kernel cycles, our RTL's cycles, GHDL wall and CPU time, simulated cycles/s and commits/s, the
waivers applied, the first line of a failure and, for a .sass program, whether its numpy `.expect`
lines hold under the flexgrip profile (the memory FlexGripPlus leaves, which lock-step has checked
against the model); where they do not, the profile switches that break them, each with its
finding of golden/g80/flexgrip_findings.py. --kernels runs the kernels only; --json writes the
kernels' figures with their provenance (bench/flexgrip_kernels.json is such a file); --reuse takes a
program's outcome from an earlier `make sim DUT=flexgrip` run (build/sim/flexgrip_NAME_ghdl_sp8_s1)
that is newer than the program instead of running it again; --reuse-only runs nothing and lists a
program without such a run as not run. --update keeps the --json file's entries for the kernels
not run this time (each entry says when and at which commit it was measured: `measured`) and
writes -o as the kernel table of the merged file; --rtl-refresh measures our RTL's cycles again for
every kernel of the merged file that ran on FlexGripPlus (Verilator, NUM_SP 8, seed 1, lock-step;
`rtl_measured`). --bench runs BENCH programs and prints the figures, once
per GHDL back end of --backends (default: the one `ghdl` picks), with the build time, and then the
same programs on our RTL (Verilator and Icarus, 8 SPs) with the same figures beside them.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from golden.errors import OneLineParser, guarded
from golden.g80.flexgrip_export import NotRunnable
from golden.g80.flexgrip_findings import expectations
from golden.g80.profile import FLEXGRIP
from tb.adapters.flexgrip import check_runnable
from tb.adapters.flexgrip_build import FlexgripMissing, check_available, chosen_backend, flexgrip_dir
from tb.lockstep import OUT, LockstepResult, LockstepRun, run_lockstep
from tb.report import waived_text

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "programs" / "kernels"

BENCH = ("vecadd", "cf_ifelse", "cf_loop")
NUM_SP = 8  # FlexGripPlus's default CORES; every program and kernel runs at it (bundles at their own)


def programs(kernels_only: bool = False) -> list[Path]:
    bundles = ROOT / "testdata" / "vectors" / "flexgrip_kernels"
    kernels = sorted(KERNELS.glob("*.sass"))
    return kernels if kernels_only else sorted((ROOT / "programs").glob("*.sass")) + kernels + sorted(bundles.glob("*.txt"))


def program_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def reused(path: Path) -> LockstepResult | None:
    """The outcome of an earlier `make sim DUT=flexgrip` of this program at NUM_SP 8, seed 1, when it is newer
    than the program (--reuse)."""
    out = OUT / f"flexgrip_{path.stem}_ghdl_sp{NUM_SP}_s1"
    res, cfg = out / "result.json", out / "config.json"
    if not (res.exists() and cfg.exists()) or res.stat().st_mtime < path.stat().st_mtime:
        return None
    conf = json.loads(cfg.read_text())
    if Path(conf["program"]).resolve() != path.resolve() or conf.get("profile") != "flexgrip" or conf.get("extra"):
        return None  # another program of the same name, or a run with waivers turned off
    data = json.loads(res.read_text())
    run = LockstepRun(str(path), sim="ghdl", num_sp=NUM_SP, profile="flexgrip", dut="flexgrip")
    from tb.report import FailureReport

    report = FailureReport.read_dict(data["report"]) if data.get("report") else None
    return LockstepResult(run, data["status"] == "pass", data["commits"], data["cycles"], data["mem_requests"], data["thread_instructions"],
                          data.get("run_s") or 0.0, report,
                          {"waived": data.get("waived") or {}, "run_s": data.get("run_s"), "run_cpu_s": data.get("run_cpu_s"), "reused": str(res)})  # fmt: skip


def numpy_on_dut(path: Path, out_dir: Path) -> str:
    """The program's numpy `.expect` lines against the global memory FlexGripPlus left (final_global.bin of
    the run), not the model's: under a waiver the model took FlexGripPlus's values in lock-step, so a
    re-run of the model (the `numpy .expect` column) does not show what the waived behaviour did to the
    results. "" when the run left no dump (it stopped before the end)."""
    import numpy as np

    from golden.g80.memory import Memory
    from golden.g80.program import load_program
    from golden.g80.run import check

    dump = out_dir / "final_global.bin"
    if path.suffix != ".sass" or not dump.exists():
        return ""
    data = np.fromfile(dump, np.uint8)
    gmem = Memory("global", data.size)
    gmem.write_bytes(0, data.tobytes())
    bad = [c for c in check(load_program(path), gmem) if not c.passed]
    return "fail: " + "; ".join(f"{c.buffer}: {c.detail.split(':')[0]}" for c in bad) if bad else "pass"


def first_wrong(path: Path) -> str:
    """The first instruction where FlexGripPlus departs from the model with no waiver (WAIVE=none, its own
    run directory): for a kernel that passed lock-step only under waivers and whose results then fail numpy."""
    run = LockstepRun(str(path), sim="ghdl", profile="flexgrip", dut="flexgrip", num_sp=NUM_SP, waive="none",
                      out=OUT / f"flexgrip_{path.stem}_ghdl_sp{NUM_SP}_s1_waive_none")  # fmt: skip
    r = run_lockstep(run, rerun_with_waves=False)
    if r.passed or r.report is None:
        return "none: passes with no waiver" if r.passed else "no report"
    rep = r.report
    lanes = next((f"; lane {d.lanes[0].lane}: FlexGripPlus {d.lanes[0].actual}, model {d.lanes[0].expected}" for d in rep.diffs if d.lanes), "")
    return f"PC {rep.pc:#06x} {rep.text} (warp {rep.warp}, cycle {rep.cycle}): {rep.message.splitlines()[0]}{lanes}"


def provenance() -> dict:
    """Where the figures come from: date, project commit, GHDL and its back end, the FlexGripPlus checkout."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    ghdl = os.environ.get("GHDL", "ghdl")
    backend = chosen_backend()
    env = {**os.environ, **({"GHDL_BACKEND": backend} if backend else {})}
    version = subprocess.run([ghdl, "--version"], capture_output=True, text=True, env=env).stdout.splitlines()
    fg = flexgrip_dir()
    source = fg.parent / "SOURCE.md"
    upstream = next((line.split("commit", 1)[1].split()[0].strip(",") for line in source.read_text().splitlines() if "commit" in line), "") if source.exists() else ""
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": git("rev-parse", "HEAD") + (" (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""),
        "ghdl": " ".join(version[:1] + [v.strip() for v in version[2:3]]),
        "ghdl_backend": backend or "default",
        "flexgripplus": f"{fg} (upstream {upstream})" if upstream else str(fg),
        "num_sp": NUM_SP,
        "rtl": "our RTL (rtl/) on Verilator, g80 profile, same NUM_SP, seed 1, lock-step",
        "command": "python scripts/flexgrip_regress.py " + " ".join(sys.argv[1:]),
    }


def rtl_cycles(path: Path, num_sp: int | None, run: bool) -> tuple[int | None, str]:
    """Kernel cycles of our RTL for the same program (cycles or None, and how it is shown): an earlier
    run's result.json (make sim, make regress), or a Verilator run now when `run`."""
    import re

    if num_sp is None:  # a bundle: its own SP count
        m = re.search(r"CORES\(SPs\)=(\d+)", path.read_text(encoding="utf-8"))
        num_sp = int(m.group(1)) if m else 8
    for sim in ("verilator", "icarus"):
        res = OUT / f"{path.stem}_{sim}_sp{num_sp}_s1" / "result.json"
        cfg = res.with_name("config.json")
        if res.exists() and res.stat().st_mtime >= path.stat().st_mtime and cfg.exists() and Path(json.loads(cfg.read_text())["program"]).resolve() == path.resolve():
            data = json.loads(res.read_text())
            return (data["cycles"], f"{data['cycles']} ({sim})") if data.get("status") == "pass" else (None, f"fail ({sim})")
    if not run:
        return None, ""
    r = run_lockstep(LockstepRun(str(path), sim="verilator", num_sp=num_sp), rerun_with_waves=False)
    return (r.cycles, f"{r.cycles} (verilator)") if r.passed else (None, "fail (verilator)")


def bench_rtl(todo: list[Path]) -> list[str]:
    """The same programs on our RTL (g80 profile, 8 SPs as FlexGripPlus, seed 1) on Verilator and Icarus, in
    lock-step as on FlexGripPlus, for the bench's side-by-side figures."""
    rows = ["| program | our RTL on | outcome | commits | cycles | wall s | cycles/s | commits/s |", "|---|---|---|---|---|---|---|---|"]
    for sim in ("verilator", "icarus"):  # build first, so that no timed run includes a simulator's build
        run_lockstep(LockstepRun(str(todo[0]), sim=sim, num_sp=8), rerun_with_waves=False)
    for path in todo:
        for sim in ("verilator", "icarus"):
            r = run_lockstep(LockstepRun(str(path), sim=sim, num_sp=8), rerun_with_waves=False)
            rate = (f"{r.cycles / r.wall:.0f}", f"{r.commits / r.wall:.1f}") if r.wall else ("", "")
            rows.append(f"| {path.stem} | {sim} | {'PASS' if r.passed else 'FAIL'} | {r.commits} | {r.cycles} | {r.wall:.1f} | {rate[0]} | {rate[1]} |")
            print(rows[-1], flush=True)
    return rows


def merge(old: dict, new: dict[str, dict]) -> dict[str, dict]:
    """The kernels of an earlier figures file with this run's entries in place of theirs; an entry kept
    from the file keeps when it was measured (the file's own date and commit where it has no stamp)."""
    stamp = {"date": old["provenance"]["date"], "commit": old["provenance"]["commit"]}
    kept = {name: {"measured": stamp, **entry} for name, entry in old["kernels"].items() if name not in new}
    return {**kept, **new}


def refresh_rtl(kernels: dict[str, dict], stamp: dict) -> None:
    """Our RTL's cycles again (Verilator, NUM_SP, seed 1, lock-step) for every kernel that ran on FlexGripPlus,
    when the program is still the one FlexGripPlus ran (same sha256)."""
    for name, entry in kernels.items():
        path = ROOT / entry["program"]
        if entry["outcome"] not in ("pass", "fail") or not path.exists() or program_hash(path) != entry.get("sha256"):
            continue
        cycles, text = rtl_cycles(path, NUM_SP, True)
        entry["rtl_cycles"], entry["rtl_measured"] = cycles, stamp
        print(f"{name}: our RTL {text or 'not run'}", flush=True)


def kernel_table(doc: dict) -> str:
    """The kernel table of a figures file (the -o of --update)."""
    rows = ["| kernel | outcome | commits | FlexGripPlus cycles | RTL cycles | ratio | GHDL wall s | GHDL CPU s | numpy .expect (flexgrip profile) "
            "| numpy .expect on FlexGripPlus's memory | note | measured |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, k in doc["kernels"].items():
        fg, rtl = k.get("flexgrip_cycles"), k.get("rtl_cycles")
        ratio = f"{fg / rtl:.1f}x" if fg and rtl and k["outcome"] == "pass" else ""
        waived = waived_text(k.get("waived") or {})
        note = "; ".join(x for x in (k.get("reason") or k.get("failure") or "", f"waived: {waived}" if waived else "") if x)
        when = k.get("measured") or {}
        cells = [name, k["outcome"], k.get("commits", ""), fg or "", rtl or "", ratio, k.get("ghdl_wall_s", ""), k.get("ghdl_cpu_s", ""),
                 k.get("numpy_expect", ""), k.get("numpy_on_flexgrip", ""), note, f"{when.get('date', '')[:10]} {when.get('commit', '')[:10]}".strip()]  # fmt: skip
        rows.append("| " + " | ".join("" if c is None else str(c) for c in cells) + " |")
    p = doc["provenance"]
    return (f"# FlexGripPlus kernels (GHDL, {p['num_sp']} SPs)\n\n{p['ghdl']}; FlexGripPlus {p['flexgripplus']}; our RTL: {p['rtl']}.\n"
            f"Last command: `{p['command']}` ({p['date']}).\n\n" + "\n".join(rows) + "\n")  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = OneLineParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", type=Path)
    ap.add_argument("-o", "--output", type=Path)
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--rtl", action="store_true", help="run our RTL (Verilator, same SP count, g80 profile) where no earlier run left its cycle count")
    ap.add_argument("--kernels", action="store_true", help="only the kernels of programs/kernels/ (CI sizes)")
    ap.add_argument("--json", type=Path, help="write the kernels' figures and their provenance here (bench/flexgrip_kernels.json)")
    ap.add_argument("--reuse", action="store_true", help="take an outcome from an earlier make sim DUT=flexgrip run newer than the program")
    ap.add_argument("--reuse-only", action="store_true", help="as --reuse, and list a program with no earlier run as not run instead of running it")
    ap.add_argument("--update", action="store_true", help="--json: keep the file's entries for the kernels not run this time")
    ap.add_argument("--rtl-refresh", action="store_true", help="--json: measure our RTL's cycles again for every kernel FlexGripPlus ran")
    ap.add_argument("--first-wrong", action="store_true", help="a kernel that passed only under waivers and fails numpy on FlexGripPlus's "
                    "memory: run it again with WAIVE=none for its first departure")  # fmt: skip
    ap.add_argument("--backends", default="", help="comma-separated GHDL back ends to compare (GHDL_BACKEND values)")
    return ap


def main() -> int:
    return guarded("flexgrip_regress", _main)


def _main() -> int:
    args = _parser().parse_args()
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
        if not args.bench:  # make bench goes on without FlexGripPlus; make regress DUT=flexgrip cannot
            raise
        print(f"FlexGripPlus cannot be simulated here: {exc}")
        return 0
    todo = args.programs or ([ROOT / "programs" / f"{n}.sass" for n in BENCH] if args.bench else programs(args.kernels))
    rows = ["| program | outcome | commits | FlexGripPlus cycles | RTL cycles | GHDL wall s | GHDL CPU s | cycles/s | commits/s | numpy .expect (flexgrip profile) | numpy .expect on FlexGripPlus's memory | note |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    kernels: dict[str, dict] = {}
    failed = 0
    for path in todo:
        path = path.resolve()
        entry: dict = {"program": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)}
        if path.suffix == ".sass":
            entry["sha256"] = program_hash(path)
        try:
            check_runnable(path)  # what FlexGripPlus cannot run is refused here with the reason (the adapter's rules)
        except NotRunnable as exc:
            reason = str(exc).removeprefix(f"{path}: ").removeprefix(f"{entry['program']}: ")
            rows.append(f"| {path.stem} | cannot run | | | | | | | | | | {reason} |")
            print(f"{path.stem}: cannot run on FlexGripPlus: {reason}", flush=True)
            if path.parent == KERNELS:
                kernels[path.stem] = {**entry, "outcome": "refused", "reason": reason}
            continue
        r = reused(path) if args.reuse or args.reuse_only else None
        if r is None and args.reuse_only:
            reason = f"not run: no earlier make sim DUT=flexgrip TEST={path.relative_to(ROOT / 'programs').with_suffix('')} newer than the program"
            rows.append(f"| {path.stem} | not run | | | | | | | | | | {reason} |")
            if path.parent == KERNELS:
                kernels[path.stem] = {**entry, "outcome": "not run", "reason": reason,
                                      "numpy_expect": expectations(path, replace(FLEXGRIP, fpu_sync_lanes=NUM_SP), attribute=False)}  # fmt: skip
            continue
        r = r or run_lockstep(LockstepRun(str(path), sim="ghdl", profile="flexgrip", dut="flexgrip", num_sp=NUM_SP),
                                                          rerun_with_waves=False)  # fmt: skip
        commits, cycles = r.commits, r.cycles
        note = "" if r.passed else (r.report.message.splitlines()[0] if r.report else "no report")
        if r.report and r.report.pc is not None:
            note += f" (warp {r.report.warp}, PC {r.report.pc:#06x} {r.report.text})"
        failed += not r.passed
        wall, cpu = r.extra.get("run_s") or r.wall, r.extra.get("run_cpu_s")
        rate = (f"{cycles / wall:.0f}", f"{commits / wall:.1f}") if wall else ("", "")
        waived = r.extra.get("waived") or {}
        if waived:
            note = (note + "; " if note else "") + "waived: " + waived_text(waived)
        rtl, rtl_text = rtl_cycles(path, r.run.num_sp if path.suffix == ".sass" else None, args.rtl)
        expect = expectations(path, replace(FLEXGRIP, fpu_sync_lanes=NUM_SP)) if path.suffix == ".sass" else ""
        on_dut = numpy_on_dut(path, r.run.out_dir)  # after expectations(): its model run has loaded numpy's modules
        wrong = first_wrong(path) if args.first_wrong and r.passed and waived and on_dut.startswith("fail") else ""
        if wrong:
            on_dut += f"; first wrong: {wrong}"
        cpu_text = f"{cpu:.1f}" if cpu is not None else ""
        rows.append(f"| {path.stem} | {'PASS' if r.passed else 'FAIL'} | {commits} | {cycles} | {rtl_text} | {wall:.1f} | {cpu_text} | {rate[0]} | {rate[1]} | {expect} | {on_dut} | {note} |")
        print(rows[-1], flush=True)
        if path.parent == KERNELS:
            kernels[path.stem] = {**entry, "outcome": "pass" if r.passed else "fail", "waived": waived, "failure": "" if r.passed else note,
                                  "commits": commits, "flexgrip_cycles": cycles, "rtl_cycles": rtl, "numpy_expect": expect, "numpy_on_flexgrip": on_dut,
                                  "ghdl_wall_s": round(wall, 1), "ghdl_cpu_s": round(cpu, 1) if cpu is not None else None}  # fmt: skip
    if args.bench:
        rows += ["", *bench_rtl(todo)]
    text = "# FlexGripPlus lock-step regression (GHDL)\n\n" + "\n".join(rows) + "\n"
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"summary: {args.output}")
    else:
        print(text)
    if args.json and kernels:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        prov = provenance()
        stamp = {"date": prov["date"], "commit": prov["commit"]}
        kernels = {name: {**entry, "measured": stamp} for name, entry in kernels.items()}
        if args.update and args.json.exists():
            kernels = merge(json.loads(args.json.read_text()), kernels)
        if args.rtl_refresh:
            refresh_rtl(kernels, stamp)
        doc = {"provenance": prov, "kernels": dict(sorted(kernels.items()))}
        args.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"kernel figures: {args.json}")
        if args.update and args.output:
            args.output.write_text(kernel_table(doc), encoding="utf-8")
            print(f"kernel table: {args.output}")
    return 1 if failed and not args.bench else 0


if __name__ == "__main__":
    sys.exit(main())
