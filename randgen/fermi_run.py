"""Run a generated Fermi program on the golden model alone (no Fermi DUT exists).

A run passes when the program assembles, its words round-trip (words -> cuobjdump text -> the
same words, through golden/fermi/disasm.py and golden/fermi/asm.py), the model runs it to its end
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


def roundtrip(words: Sequence[int], file: str) -> str | None:
    """None when the words print as text that assembles back to them, else what differs."""
    from golden.fermi.asm import assemble
    from golden.fermi.disasm import format_listing

    text = "\n".join(format_listing(words)[0]) + "\n"
    try:
        again = assemble(text, f"{file} (disassembled)").words
    except AsmError as e:
        return f"the disassembly does not assemble: {e.format().splitlines()[0]}"
    if list(again) == list(words):
        return None
    n = next((i for i, (a, b) in enumerate(zip(words, again, strict=False)) if a != b), min(len(words), len(again)))
    if n >= min(len(words), len(again)):
        return f"{len(words)} words became {len(again)}"
    return f"word {n} (pc {8 * n:#x}) {words[n]:#018x} came back as {again[n]:#018x}"


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
    bad = roundtrip(launch.words, path.name)  # type: ignore[attr-defined]
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
