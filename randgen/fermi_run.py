"""Run a generated Fermi program on the golden model alone (no Fermi DUT exists).

A run passes when the program assembles, its words round-trip (each word -> cuobjdump text in
either dialect -> the same word: golden/fermi/run.py `round_trip`), the model runs it to its end
within its bound without an error, and a second run gives the same commit records (the schedule is
fixed, so any difference is a model that depends on something other than its input). A model
error means the generator broke one of its own rules, or the model is wrong.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from pathlib import Path

from golden.errors import UserError
from golden.isa.source import AsmError

from .run import Outcome, _seed_of

MAX_STEPS = 2_000_000  # far above what the knobs allow (trip counts of at most 16, two loops deep)


def roundtrip(words: Sequence[int]) -> str | None:
    """None when every word's text, in both dialects, assembles back to it (golden/fermi/run.py
    `round_trip`), else the first that does not."""
    from golden.fermi.run import round_trip

    bad = round_trip(list(words))
    return f"{bad[0]} ({len(bad)} in all)" if bad else None


def digest(commits: Sequence[object]) -> str:
    """One hash of every compared field of every commit record, in order (numpy lanes by their bytes)."""
    h = hashlib.sha256()
    for c in commits:
        parts = [c.seq, c.cta, c.warp, c.pc, c.insn, c.next_pc, c.active_mask, c.exec_mask, c.next_mask, c.done]  # type: ignore[attr-defined]
        h.update(repr(parts).encode())
        for w in c.regs:  # type: ignore[attr-defined]
            h.update(repr((w.reg, w.lanes)).encode() + w.values.tobytes())
        for p in c.preds:  # type: ignore[attr-defined]
            h.update(repr((p.pred, p.lanes, p.values)).encode())
        if c.cc is not None:  # type: ignore[attr-defined]
            h.update(repr(c.cc.lanes).encode() + c.cc.values.tobytes())  # type: ignore[attr-defined]
        for w in c.mem:  # type: ignore[attr-defined]
            h.update(repr((w.space, w.size, w.lanes)).encode() + w.addr.tobytes() + w.data.tobytes())
    return h.hexdigest()


def thread_instructions(commits: Sequence[object]) -> int:
    """Lanes that executed, summed over the warp-instructions."""
    return sum(c.exec_mask.bit_count() for c in commits)  # type: ignore[attr-defined]


def run_golden(path: Path, cov_dir: Path | None = None) -> Outcome:
    """The program on the Fermi model alone, twice; with `cov_dir`, functional coverage of its
    commits is written there (COV_DIR/NAME.json)."""
    seed = _seed_of(path)
    t0 = time.perf_counter()

    def fail(kind: str, why: str) -> Outcome:
        return Outcome(seed, path, False, f"{path.name}: {kind} error: {why}" if kind != "determinism" else f"{path.name}: FAIL {why}",
                       kind, wall=time.perf_counter() - t0)  # fmt: skip

    from golden.fermi.loader import load, machine

    try:
        launch = load(path)
    except AsmError as e:
        return fail("assembler", e.format().splitlines()[0])
    bad = roundtrip(launch.words)
    if bad:
        return fail("roundtrip", bad)
    digests = []
    for _ in range(2):
        try:
            commits = machine(launch).run(min(MAX_STEPS, launch.max_steps))  # type: ignore[attr-defined]
        except UserError as e:  # FermiError: a fault, stack misuse or a runaway, on one line
            return fail("model", str(e))
        digests.append(digest(commits))
    if digests[0] != digests[1]:
        return fail("determinism", "determinism: two runs of the same launch gave different commit records")
    if cov_dir is not None:
        from golden.fermi.coverage import Coverage

        cov = Coverage(run=f"randgen {path.stem}")
        for c in commits:
            cov.sample(c)
        cov.save(cov_dir / f"{path.stem}.json")
    wall = time.perf_counter() - t0
    n = len(commits)
    return Outcome(seed, path, True, f"{path.name}: model ok, {n} warp-instructions ({thread_instructions(commits)} thread-instructions), "
                   f"words round-trip, deterministic, {wall:.2f} s", commits=n, wall=wall)  # fmt: skip
