"""Run a generated LG program: on the golden model alone, or on an LG core in lock-step with it.

The model run passes when the program assembles and the model (seed profile, the one the LG cores
implement) runs it to its end without an error: a model error means the generator broke one of
its own rules. The lock-step run is the LG testbench's (tb/lg/lockstep.py, `make sim ISA=lg`):
every commit and every frame-buffer write compared with the model.
"""

from __future__ import annotations

import time
from pathlib import Path

from golden.errors import UserError
from golden.isa.source import AsmError
from golden.lg.asm import assemble
from golden.lg.model import LgError, Machine
from golden.lg.profile import SEED, LgProfile

from .run import Outcome, _seed_of

MAX_STEPS = 1_000_000  # far above what the knobs allow (loops of at most loop_max trips, two deep)


def image(path: Path) -> tuple[list[int], bytes]:
    """The program's instruction words and its data memory from address 0."""
    prog = assemble(path.read_text(encoding="utf-8"), str(path))
    data = bytearray(max(prog.data, default=-1) + 1)
    for addr, byte in prog.data.items():
        data[addr] = byte
    return prog.words, bytes(data)


def run_golden(path: Path, cov_dir: Path | None = None) -> Outcome:
    """The program on the LG model alone (seed profile)."""
    del cov_dir  # LG functional coverage of random programs is no part of this runner
    seed = _seed_of(path)
    t0 = time.perf_counter()
    try:
        words, data = image(path)
        m = Machine(SEED)
        m.load(words, data)
        n = len(m.run(MAX_STEPS))
    except AsmError as e:
        return Outcome(seed, path, False, f"{path.name}: assembler error: {e.format()}", "model", wall=time.perf_counter() - t0)
    except LgError as e:
        return Outcome(seed, path, False, f"{path.name}: model error: {e}", "model", wall=time.perf_counter() - t0)
    wall = time.perf_counter() - t0
    return Outcome(seed, path, True, f"{path.name}: model ok, {n} instructions, {wall:.2f} s", commits=n, wall=wall)


def run_models(path: Path, other: LgProfile) -> Outcome:
    """The program on the model under `seed` and under `other`, compared commit by commit as the
    lock-step scoreboard compares a DUT: the first record that differs fails the run, with the
    fields that differ. A model that departs from `seed` by one switch stands in for a DUT with
    one bug (the shrinker's tests use it: no simulator needed)."""
    seed = _seed_of(path)
    t0 = time.perf_counter()
    words, data = image(path)
    a, b = Machine(SEED), Machine(other)
    a.load(words, data)
    b.load(words, data)
    n = 0
    while True:
        try:
            ca = a.step()
        except LgError as e:
            return Outcome(seed, path, False, f"{path.name}: model error: {e}", "model", wall=time.perf_counter() - t0)
        try:
            cb = b.step()
        except LgError as e:
            return Outcome(seed, path, False, f"{path.name}: FAIL rtl_error at PC {ca.pc:#06x} {ca.text}: {e}", "rtl_error", commits=n,
                           wall=time.perf_counter() - t0)  # fmt: skip
        pa, pb = ca.port_fields(), cb.port_fields()
        diff = tuple(sorted(k for k in pa if pa[k] != pb[k]))
        if diff or ca.fb_event != cb.fb_event or _pixels(ca) != _pixels(cb):
            diff = diff or ("fb",)
            return Outcome(seed, path, False, f"{path.name}: FAIL mismatch {','.join(diff)} at PC {ca.pc:#06x} {ca.text}", "mismatch", diff, n,
                           time.perf_counter() - t0)  # fmt: skip
        n += 1
        if ca.done:
            return Outcome(seed, path, True, f"{path.name}: PASS, {n} commits compared", commits=n, wall=time.perf_counter() - t0)


def _pixels(c: object) -> tuple:
    fb = getattr(c, "fb", None)
    return () if fb is None else (fb.data, tuple(fb.addr.tolist()))


def run_rtl(path: Path, sim: str, dut: str = "rtl", waves: bool = False, out: Path | None = None, rtl: str = "") -> Outcome:
    """The program on the LG core (or, with `rtl`, a core of the user's own named `dut`) in lock-step
    with the model (the LG testbench of `make sim ISA=lg`)."""
    try:
        from tb.lg.lockstep import dut_files, run_lockstep
        from tb.lg.program import load
    except ImportError:
        raise UserError("the LG lock-step testbench (tb/lg/lockstep.py) is not in this checkout: SIM=golden runs the LG model alone") from None
    seed = _seed_of(path)
    t0 = time.perf_counter()
    test = load(str(path))
    res = run_lockstep(test, sim, dut, dut_files(dut, rtl), out_dir=(out or path.parent / "runs").resolve() / path.stem, waves=waves,
                       rerun=f"make sim ISA=lg TEST={path} SIM={sim} WAVES=1")  # fmt: skip
    wall = time.perf_counter() - t0
    if res.passed:
        line = f"{path.name}: PASS, {res.commits} commits, {res.fb_writes} pixels, {res.cycles} cycles, {wall:.1f} s"
        return Outcome(seed, path, True, line, commits=res.commits, wall=wall)
    rep = res.report
    kind = rep.kind if rep else "testbench"
    diffs = tuple(sorted({d.field.split("[")[0].split(".")[0] for d in rep.diffs})) if rep else ()
    where = f" at PC {rep.pc:#06x} {rep.text}" if rep and rep.pc is not None else (f": {rep.message.splitlines()[0]}" if rep and rep.message else "")
    return Outcome(seed, path, False, f"{path.name}: FAIL {kind}{' ' + ','.join(diffs) if diffs else ''}{where} (report {res.out_dir / 'report.json'})",
                   kind, diffs, res.commits, wall)  # fmt: skip
