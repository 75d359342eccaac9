"""python -m randgen: generate constrained-random programs, run them in lock-step, shrink failures.

    python -m randgen gen [--isa g80|lg|fermi] --seed N [--count K] [--preset P] [--config F.toml] [--set knob=value ...] [-o DIR]
    python -m randgen run [--isa g80|lg|fermi] --seed N [--count K] [--preset P] [--config F.toml] [--set ...]
                          [--sim icarus|verilator|golden] [--num-sp 8|16|32] [--dut rtl] [--defines MUTANT_X]
                          [--shrink] [--stop-on-fail] [--waves] [--batch K]
                          [--jobs N] [--cluster tcp://host:port|slurm|lsf|sge|pbs] [--cluster-config F.toml]

`run` prints one line per program and `N passed, M failed`; a failing program is kept in
build/random/failures/ with the command that regenerates and reruns it, and with --shrink a
reduced program that fails the same way is written next to it (`<name>.min.sass`). The programs
run as tasks of tb/cluster.py (--jobs, --cluster); their lines are printed in seed order.
--isa lg: LG programs (randgen/lg.py) in build/random/lg/, on the LG model or the LG core in
lock-step (randgen/lg_run.py); --num-sp, --defines, --batch, --mutants, --cov and --baseline are G80's.
--isa fermi: Fermi sm_20 programs (randgen/fermi.py) in build/random/fermi/, on the Fermi model
alone (randgen/fermi_run.py: assembly, word round-trip, run, determinism); there is no Fermi DUT.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import io
import itertools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from golden.errors import OneLineParser, UserError, guarded

from .config import PRESETS, Config, load, parse_set
from .generator import Prog, generate, render
from .isa import ISAS, RandIsa, randisa
from .run import OUT, Outcome, first_killing, keep_failure, run_batch, run_mutant, run_rtl, write_program
from .shrink import shrink


def _parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="python -m randgen", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("gen", "run"):
        p = sub.add_parser(name)
        p.add_argument("--isa", default="g80", choices=list(ISAS), help="the instruction set (default g80)")
        p.add_argument("--seed", type=int, default=1, help="first seed")
        p.add_argument("--count", type=int, default=1, help="programs: seeds SEED .. SEED+COUNT-1")
        p.add_argument("--preset", default="default", help=f"one of {', '.join(PRESETS)} (--isa lg: randgen/lg.py PRESETS)")
        p.add_argument("--config", help="a TOML file of knobs (may name a preset)")
        p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE", help="override one knob (TOML value)")
        p.add_argument("--knobs", default="", help='several knobs, separated by ";" (make\'s KNOBS="length=40; mix={iadd=15}")')
        p.add_argument("-o", "--out", type=Path, default=None, help="where programs are written (default build/random, --isa lg: build/random/lg)")
    r = sub.choices["run"]
    r.add_argument("--sim", default="verilator", help="icarus, verilator (default), another simulator of the DUT, or golden (the model alone)")
    r.add_argument("--num-sp", type=int, default=8, choices=[8, 16, 32])
    r.add_argument("--dut", default="rtl")
    r.add_argument("--rtl", default="", help="--isa lg with --dut NAME: the Verilog files of a core of your own (globs; docs/guides/lg-lockstep.md)")
    r.add_argument("--defines", default="", help="comma-separated Verilog defines (a MUTANT_* variant)")
    r.add_argument("--shrink", action="store_true", help="reduce each failure to a small program that fails the same way")
    r.add_argument("--shrink-budget", type=int, default=150, help="most runs one shrink may take")
    r.add_argument("--shrink-chunk", type=int, default=0, metavar="K",
                   help="shrink candidates screened K at a time in one simulator process (default: 8 on a generated mutant, 1 on the RTL, "
                        "where a batch needs a Verilator build of its own)")
    r.add_argument("--fresh", action="store_true", help="start over: forget the programs an interrupted run with the same settings finished")
    r.add_argument("--stop-on-fail", action="store_true", help="stop at the first failing program")
    r.add_argument("--baseline", action="store_true",
                   help="with --defines: rerun each failure without the defines; a failure the unmodified RTL shares is not the mutant's")
    r.add_argument("--waves", action="store_true", help="rerun a failure with waveforms")
    r.add_argument("--batch", type=int, default=0, metavar="K",
                   help="run K programs per simulator process (the plain RTL; a failure is then rerun alone for its report)")
    r.add_argument("--jobs", type=int, default=1, help="workers of the embedded Dask cluster (programs at once; 1: in this process), or workers asked "
                   "of a batch system (tb/cluster.py, docs/guides/cluster.md)")
    r.add_argument("--cluster", default="", help="empty: embedded; tcp://host:port: a running Dask scheduler; slurm, lsf, sge or pbs: workers "
                   "through dask-jobqueue")
    r.add_argument("--cluster-config", type=Path, help="the TOML file of the batch system's options (cores, memory, walltime, queue, ...)")
    r.add_argument("--cov", type=Path, help="with --sim golden: write functional coverage of each program to this folder")
    r.add_argument("--mutants", type=Path, metavar="DIR",
                   help="a mutation campaign's folder (make mutants): run on its instrumented design with --mut-sel K (Verilator, NUM_SP 8)")
    r.add_argument("--mut-sel", type=int, default=0, metavar="K", help="with --mutants: the generated mutant's id (mutants.json, the report)")
    return ap


class Progress:
    """The programs of a `run` finished so far, one JSON line each, in a file named by the run's
    settings: an interrupted run (Ctrl-C) leaves it and the same command again goes on after them
    with the same results; a run that gets to the end removes it, so the next one starts over."""

    def __init__(self, args: argparse.Namespace) -> None:
        # where the programs run is no part of their results: another JOBS or CLUSTER resumes the same run
        settings = {k: str(v) for k, v in sorted(vars(args).items()) if k not in ("fresh", "out", "func", "jobs", "cluster", "cluster_config")}
        key = hashlib.sha1(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:12]
        self.path = args.out / "progress" / f"{args.preset}_s{args.seed}_n{args.count}_{key}.jsonl"
        self.done: dict[int, dict] = {}
        if self.path.is_file():
            text = self.path.read_text(encoding="utf-8")
            for line in text.splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:  # the line an interrupt cut short: that program runs again
                    continue
                self.done[int(rec["seed"])] = rec
            if not text.endswith("\n"):  # without that cut line, so that the next record starts a line of its own
                self.path.write_text("".join(json.dumps(r) + "\n" for r in self.done.values()), encoding="utf-8")

    def restart(self) -> None:
        self.done.clear()
        self.path.unlink(missing_ok=True)

    def add(self, seed: int, rec: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"seed": seed, **rec}) + "\n")

    def finish(self) -> None:
        self.path.unlink(missing_ok=True)


def _rerun(args: argparse.Namespace, seed: int) -> str:
    cmd = f"make random{'' if args.isa == 'g80' else ' ISA=' + args.isa} SEED={seed} COUNT=1 PRESET={args.preset}"
    if args.config:
        cmd += f" CONFIG={args.config}"
    if args.set:
        cmd += " KNOBS='" + "; ".join(args.set) + "'"
    if args.sim != "golden" and args.isa != "g80":
        cmd += f" SIM={args.sim}" + (f" DUT={args.dut} RTL='{args.rtl}'" if args.dut != "rtl" else "")
    elif args.sim != "golden":
        cmd += f" SIM={args.sim} NUM_SP={args.num_sp}"
        if args.dut != "rtl":
            cmd += f" DUT={args.dut}"
        if args.defines:
            cmd += f" DEFINES={args.defines}"
        if args.mutants:
            cmd = cmd.replace("make random", f".venv/bin/python -m randgen run --mutants {args.mutants} --mut-sel {args.mut_sel}", 1)
            cmd = cmd.replace(" SEED=", " --seed ").replace(" COUNT=", " --count ").replace(" PRESET=", " --preset ").replace(" SIM=verilator", "")
            cmd = cmd.replace(f" NUM_SP={args.num_sp}", "")
    else:
        cmd += " SIM=golden"
    return cmd


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return guarded("randgen", lambda: _main(args), _interrupted(args))


def _interrupted(args: argparse.Namespace) -> Callable[[], str]:
    def kept() -> str:
        if args.cmd != "run":
            return "the programs listed above are written; run the same command again"
        return f"the programs above are kept in {args.out / 'progress'} (failures in {args.out / 'failures'}); run the same command again to resume"

    return kept


def _main(args: argparse.Namespace) -> int:
    args.set += [k.strip() for k in args.knobs.split(";") if k.strip()]
    isa = randisa(args.isa)
    if args.out is None:
        args.out = OUT if isa.name == "g80" else OUT / isa.name
    given = [opt for opt, unset in isa.g80_only if getattr(args, opt, unset) != unset]
    if isa.name == "g80" and getattr(args, "rtl", ""):
        raise UserError("--rtl (RTL=) names the Verilog of an LG core of your own: G80 runs take DUT=rtl or DUT=flexgrip (leave it out)")
    if given:
        raise UserError(f"--{given[0].replace('_', '-')} is a G80 option, which ISA={isa.name} does not take (leave it out)")
    try:
        preset, cfg = load(args.preset, args.config, parse_set(args.set), isa.knobs, isa.presets)
    except OSError as e:
        raise UserError(f"CONFIG={e.filename}: {e.strerror} (CONFIG= names a TOML file of knobs, --config)") from None
    except ValueError as e:
        raise UserError(str(e)) from None
    args.preset = preset
    seeds = range(args.seed, args.seed + args.count)
    if args.cmd == "run" and isa.model_only:
        if args.dut != "rtl":
            raise UserError(f"DUT={args.dut}: no {isa.name} DUT exists; its programs run on the golden model alone (leave DUT out)")
        if args.sim != "golden":
            print(f"randgen: ISA={isa.name} has no DUT: the programs run on the golden model alone (SIM=golden)", flush=True)
            args.sim = "golden"
    if args.cmd == "gen":
        for s in seeds:
            print(write_program(s, cfg, preset, args.out) if isa.name == "g80" else _write(isa, s, cfg, preset, args.out))
        return 0
    if args.sim != "golden" and isa.run_dut is not None:
        from tb.runner import SIMULATORS

        if args.sim not in SIMULATORS:
            raise UserError(f"SIM={args.sim}: ISA={isa.name} runs on {', '.join(SIMULATORS)}, or SIM=golden (the model alone)")
        from tb.lg.lockstep import dut_files

        dut_files(args.dut, args.rtl)  # an unknown DUT or missing RTL files: before any program runs
    elif args.sim != "golden" and args.mutants is None:
        from tb.adapters import check_setup

        args.sim = check_setup(args.dut, args.sim, also="; SIM=golden runs the model alone")  # an unknown DUT or SIM, a missing simulator: before any program runs
    defines = tuple(d for d in args.defines.split(",") if d)
    if args.mutants is not None and (not args.mut_sel or args.sim != "verilator" or args.num_sp != 8 or defines or args.batch):
        raise UserError("--mutants needs --mut-sel K (K >= 1) and runs alone on Verilator at NUM_SP 8 (no --defines, --batch or other --sim)")

    from tb.cluster import Task, batches, check_cluster, run_tasks

    check_cluster(args.cluster, args.cluster_config, args.jobs)  # a bad CLUSTER, JOBS or CLUSTER_CONFIG before any program runs
    progress = Progress(args)
    if progress.done and not args.fresh:
        print(f"randgen: resuming: {len(progress.done)} of {args.count} programs finished earlier ({progress.path}; --fresh, make random FRESH=1, "
              "starts over)", flush=True)  # fmt: skip
    elif progress.done:
        progress.restart()
    # the programs run in tasks (tb/cluster.py: in this process with one job and no cluster, where
    # their lines are printed as they come); the lines are printed here in seed order, whatever
    # order the tasks end in, so the output is the same for any JOBS and CLUSTER
    todo = [s for s in seeds if s not in progress.done]
    live = args.jobs <= 1 and not args.cluster
    unit = (args.batch if args.sim != "golden" and args.dut == "rtl" and args.batch > 1 else 1)

    def plan(workers: int) -> list[Task]:
        # a task holds whole --batch chunks, so that the simulator processes run the programs they ran before
        chunks = [todo[i : i + unit] for i in range(0, len(todo), unit)]
        # in this process a task per chunk: each program is kept for a resume as soon as it ends, as ever
        parts = [[c] for c in chunks] if live else batches(chunks, workers)
        return [Task(_run_seeds, (args, cfg, preset, defines, [s for c in part for s in c], live), sum(len(c) for c in part), f"s{part[0][0]}")
                for part in parts]  # fmt: skip

    got: dict[int, tuple[dict | None, str]] = {}
    order = iter(seeds)
    totals = {"passed": 0, "failed": 0, "skipped": 0, "commits": 0}
    ended = False

    def flush() -> None:
        """The programs finished up to the first one not back yet, in seed order."""
        nonlocal order, ended
        for s in order:
            if s in progress.done:
                rec: dict | None = progress.done[s]
                assert rec is not None
                for line in rec["lines"]:  # finished by an interrupted run: its lines again, not the program
                    print(line, flush=True)
            elif s in got:
                rec, text = got.pop(s)
                if text:
                    print(text, end="", flush=True)
                if rec is None:  # after a failure of its --batch chunk under --stop-on-fail
                    ended = True
                    raise _Stop
            else:
                order = itertools.chain([s], order)
                return
            for k in totals:
                totals[k] += rec[k]
            if rec["stop"]:
                ended = True
                raise _Stop

    def take(_: int, result: list[tuple[int, dict | None, str]]) -> None:
        for s, rec, text in result:
            if rec is not None:
                progress.add(s, rec)
            got[s] = (rec, text)
        flush()

    t0 = time.perf_counter()
    try:
        flush()
        run_tasks(plan, take, args.jobs, args.cluster, args.cluster_config, label="randgen", unit="program", quiet=live)
        flush()
    except _Stop:
        pass
    progress.finish()
    wall = time.perf_counter() - t0
    also = f", {totals['skipped']} failed without the defines too" if totals["skipped"] else ""
    print(f"{totals['passed']} passed, {totals['failed']} failed{also} ({totals['commits']} {isa.unit if args.sim == 'golden' else 'commits compared'}, "
          f"{wall:.0f} s)")  # fmt: skip
    return 1 if totals["failed"] else 0


class _Stop(Exception):
    """--stop-on-fail met its failure: the programs after it are not counted (nor waited for)."""


def _execute(args: argparse.Namespace, defines: tuple[str, ...], path: Path) -> Outcome:
    isa = randisa(args.isa)
    if args.sim == "golden":
        return isa.run_golden(path, args.cov)
    if isa.run_dut is not None:
        return isa.run_dut(path, args.sim, args.dut, args.waves, args.rtl)
    if args.mutants is not None:
        return run_mutant(path, args.mutants, args.mut_sel)
    return run_rtl(path, args.sim, args.num_sp, defines, args.dut, args.waves)


def _run_seeds(args: argparse.Namespace, cfg: Config, preset: str, defines: tuple[str, ...], seeds: list[int], live: bool) -> list[tuple[int, dict | None, str]]:
    """One task: the programs of `seeds`, one after the other; for each its record (None after a
    failure of its --batch chunk under --stop-on-fail) and what it printed. `live`: printed as it
    comes (this process is the client), else captured for the client to print."""
    out: list[tuple[int, dict | None, str]] = []
    batched: dict[int, Outcome | None] = {}
    batch = args.batch if args.sim != "golden" and args.dut == "rtl" else 0
    execute = functools.partial(_execute, args, defines)
    for i, s in enumerate(seeds):
        buf = io.StringIO()
        with contextlib.nullcontext() if live else contextlib.redirect_stdout(buf):
            rec = _one(args, cfg, preset, defines, s, seeds[i : i + batch] if batch > 1 else [s], batched, batch, execute)
        out.append((s, rec, buf.getvalue()))
        if rec is None or rec["stop"]:
            break
    return out


def _one(args: argparse.Namespace, cfg: Config, preset: str, defines: tuple[str, ...], s: int, chunk: list[int], batched: dict[int, Outcome | None],
         batch: int, execute: Callable[[Path], Outcome]) -> dict | None:  # fmt: skip
    """Program `s`: its lines (printed as they come), its counts and whether the run stops after it;
    None after a failure of its batch under --stop-on-fail."""
    rec: dict = {"lines": [], "passed": 0, "failed": 0, "skipped": 0, "commits": 0, "stop": False}

    def say(line: str) -> None:
        print(line, flush=True)
        rec["lines"].append(line)

    isa = randisa(args.isa)
    tree = isa.generate(s, cfg, preset)
    path = _write(isa, s, cfg, preset, args.out, tree)
    if batch > 1 and s not in batched:  # this program and the next ones of the chunk, in one process
        for t in chunk[1:]:
            (args.out / f"{preset}_s{t}.sass").write_text(render(generate(t, cfg, preset)))
        outs = run_batch([args.out / f"{preset}_s{t}.sass" for t in chunk], args.sim, args.num_sp, args.out / "batch" / f"{preset}_s{s}", defines,
                         args.stop_on_fail)  # fmt: skip
        batched.update(zip(chunk, outs, strict=True))
    o = batched.pop(s) if batch > 1 else execute(path)
    if o is None:
        return None
    if batch > 1 and not o.passed:  # alone, through the ordinary path: its full report and waveform
        say(o.line)
        o = execute(path)
    rec["commits"] = o.commits
    say(o.line)
    if o.passed:
        rec["passed"] = 1
        return rec
    if args.baseline and (defines or args.mutants is not None):  # the unmutated design (for a generated mutant, the plain RTL)
        b = run_rtl(path, args.sim, args.num_sp, (), args.dut, False, out=args.out / "baseline" / path.stem)
        if not b.passed:
            say(f"  also fails without {args.defines} ({b.line.split(': ', 1)[1]}): not counted against the mutant")
            rec["skipped"] = 1
            return rec
    rec["failed"] = 1
    kept = keep_failure(path)
    say(f"  kept {kept}; rerun: {_rerun(args, s)}")
    if args.shrink:
        chunk_size = args.shrink_chunk or (8 if args.mutants is not None else 1)
        _shrink(tree, o, kept, execute, args.shrink_budget, _screen(args, defines, kept), chunk_size, isa)
    rec["stop"] = args.stop_on_fail
    return rec


def _screen(args: argparse.Namespace, defines: tuple[str, ...], kept: Path) -> Callable[[list[Path]], tuple[int | None, Outcome | None]] | None:
    """Several shrink candidates in one simulator process, up to the first failing one (its index and,
    when the batch knows it, its outcome): on a generated mutant (`--mutants`) or the RTL; None
    (one candidate at a time) on the model or another DUT."""
    if args.mutants is not None:
        return lambda paths: first_killing(paths, args.mutants, args.mut_sel, kept.parent / "shrink" / kept.stem)
    if args.sim == "golden" or args.dut != "rtl" or args.shrink_chunk <= 1:
        return None

    def batch(paths: list[Path]) -> tuple[int | None, Outcome | None]:
        outs = run_batch(paths, args.sim, args.num_sp, kept.parent / "shrink" / kept.stem, defines, stop=True)
        return next(((i, None) for i, o in enumerate(outs) if o is not None and not o.passed), (None, None))

    return batch


def _write(isa: RandIsa, seed: int, cfg: object, preset: str, out: Path, tree: object = None) -> Path:
    """Program `seed` written as OUT/PRESET_sSEED.SUFFIX (its tree when given, else generated)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{preset}_s{seed}{isa.suffix}"
    path.write_text(isa.render(isa.generate(seed, cfg, preset) if tree is None else tree))
    return path


def _shrink(tree: Prog, first: Outcome, kept: Path, execute, budget: int,
            screen: Callable[[list[Path]], tuple[int | None, Outcome | None]] | None = None, chunk: int = 8, isa: RandIsa | None = None) -> None:
    isa = isa or randisa("g80")
    render, instructions, size = isa.render, isa.instructions, isa.size
    work = kept.with_suffix(".try" + isa.suffix)
    want = (first.kind, first.fields)

    def fails(q: Prog) -> bool:
        work.write_text(render(q))
        o = execute(work)
        return not o.passed and (o.kind, o.fields) == want

    def first_failing(qs: list[Prog]) -> int | None:
        """The first candidate that fails the same way: screened in one process, a failure the batch
        cannot name (a plain-RTL batch reports a message only) confirmed alone."""
        assert screen is not None
        start = 0
        while start < len(qs):
            paths = []
            for i, q in enumerate(qs[start:], start):
                path = kept.with_suffix(f".c{i}{isa.suffix}")
                path.write_text(render(q))
                paths.append(path)
            hit, o = screen(paths)
            if hit is None:
                return None
            if o is None:
                o = execute(paths[hit])
            if not o.passed and (o.kind, o.fields) == want:
                return start + hit
            start += hit + 1  # failed another way: the candidates after it were not run
        return None

    t0 = time.perf_counter()
    small, runs = shrink(tree, fails, budget, log=lambda s: print(s, flush=True), first_failing=first_failing if screen else None, chunk=chunk,
                         edits=isa.candidates, measure=size)  # fmt: skip
    for leftover in kept.parent.glob(f"{kept.stem}.c*{isa.suffix}"):
        leftover.unlink()
    out = kept.with_suffix(".min" + isa.suffix)
    out.write_text(render(small))
    work.unlink(missing_ok=True)
    before, after = instructions(render(tree)), instructions(render(small))
    wall = time.perf_counter() - t0
    launch = ""  # a G80 tree has a launch the shrinker reduces too
    if hasattr(tree, "nblocks"):
        launch = f", blocks {tree.nblocks} -> {small.nblocks}, threads per block {tree.nthreads} -> {small.nthreads}"
    print(f"  shrunk: {before} -> {after} instructions ({size(tree)} -> {size(small)} random items){launch}, in {runs} runs, {wall:.0f} s, "
          f"same failure {first.kind} {','.join(first.fields)}: {out}", flush=True)  # fmt: skip

    def counts(t: Prog, n: int) -> dict:
        return {"instructions": n, "items": size(t), **({"blocks": t.nblocks, "threads": t.nthreads} if hasattr(t, "nblocks") else {})}

    record = {"program": kept.name, "kind": first.kind, "fields": list(first.fields), "runs": runs, "wall_s": round(wall, 1),
              "before": counts(tree, before), "after": counts(small, after)}  # fmt: skip
    kept.with_suffix(".shrink.json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
