"""Random LG programs (randgen/lg.py): legal, terminating, deterministic, reaching every opcode and the
hazards and graphics corners they are for; lock-step on the LG core; shrinking a failure.

What is expected comes from outside the generator: the opcode list is the encoding table's, the
hazards and graphics events are read from the golden model's commit records (decoded again with the
table), the stack limit and winding rule are docs/design/lg.md's.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from golden.lg import table
from golden.lg.asm import assemble
from golden.lg.commit import LgCommit
from golden.lg.model import Machine
from golden.lg.profile import SEED
from randgen import lg
from randgen.config import load
from randgen.lg_run import image, run_golden, run_models
from randgen.shrink import shrink

ROOT = Path(__file__).resolve().parents[1]
STACK = 16  # the matrix stack's entries (docs/design/lg.md)


def _cfg(preset: str) -> lg.LgConfig:
    return load(preset, base=lg.LgConfig(), presets=lg.PRESETS)[1]


def _run(text: str) -> tuple[list[int], list[LgCommit]]:
    prog = assemble(text, "<randgen>")
    data = bytearray(max(prog.data, default=-1) + 1)
    for a, b in prog.data.items():
        data[a] = b
    m = Machine(SEED)
    m.load(prog.words, bytes(data))
    return prog.words, m.run(200_000)


def _programs(presets: tuple[str, ...], seeds: range) -> list[tuple[str, int, list[int], list[LgCommit]]]:
    out = []
    for preset in presets:
        cfg = _cfg(preset)
        for s in seeds:
            words, recs = _run(lg.render(lg.generate(s, cfg, preset)))
            out.append((preset, s, words, recs))
    return out


@pytest.fixture(scope="module")
def runs() -> list[tuple[str, int, list[int], list[LgCommit]]]:
    # a few hundred programs over every preset: what the properties below are measured on
    return _programs(tuple(lg.PRESETS), range(50))


def test_programs_assemble_and_end_on_the_model(runs: list) -> None:
    assert len(runs) == 50 * len(lg.PRESETS)
    ends = set()
    for preset, s, words, recs in runs:
        assert recs[-1].done, (preset, s)
        last = table.decode(words[recs[-1].pc // 4]).op.mnemonic
        ends.add("halt" if last == "halt" else "ran off")
        # stores stay in the data region the generator keeps for them, below the r7 save slots,
        # unless they are those saves
        for c in recs:
            if c.mem is not None:
                save = lg.DATA + lg.SAVE <= c.mem.addr < lg.DATA + lg.SAVE + 2 * 8 and c.text == "stw"
                assert save or lg.DATA <= c.mem.addr < lg.DATA + lg.STORE_BYTES, (preset, s, c)
    assert ends == {"halt", "ran off"}


def test_deterministic_per_seed() -> None:
    cfg = _cfg("default")
    a = [lg.render(lg.generate(s, cfg, "default")) for s in range(5)]
    assert a == [lg.render(lg.generate(s, cfg, "default")) for s in range(5)]
    assert len(set(a)) == 5
    # a knob changes the program
    assert lg.render(lg.generate(3, replace(cfg, length=80), "default")) != a[3]


def test_every_opcode_is_executed(runs: list) -> None:
    seen = {table.decode(c.insn).op.mnemonic for _, _, _, recs in runs for c in recs}
    assert seen == {op.mnemonic for op in table.OPS}
    # ret is jmp r7: both spellings' words run
    jumps = {table.decode(c.insn).fields["base"] for _, _, _, recs in runs for c in recs if c.text == "jmp"}
    assert 7 in jumps and jumps - {7}


def _sources(word: int) -> tuple[set[int], set[int]]:
    """Scalar and vector registers the instruction reads (from its table row)."""
    insn = table.decode(word)
    op, f = insn.op, insn.fields
    scalar: set[int] = set()
    vector: set[int] = set()
    for name, kind in op.operands:
        if kind in ("r", "base") and name != table.scalar_dest(op):
            scalar.add(f[name])
        elif kind == "v" and name != "vd":
            vector.add(f[name])
    if op.family == "store":
        scalar.add(f["rd"])
    if op.family == "vector" and op.mnemonic.startswith("vcompmov"):
        vector.add(f["vd"])  # the other elements are kept
    return scalar, vector


def test_hazard_dense(runs: list) -> None:
    # back-to-back pairs of random scalar (vector) instructions where the second reads what the
    # first wrote, out of all such pairs whose second reads a register (other than the data base
    # r6, which no random instruction writes); load-use, a branch right after a CC write, the reloaded
    # link register used by ret right away
    scalar_families = ("alu", "move", "compare", "load", "store")
    pairs = raw_scalar = vpairs = raw_vector = load_use = branch_after_cc = link_then_ret = 0
    for _, _, _, recs in runs:
        for a, b in itertools.pairwise(recs):
            fa, fb = table.decode(a.insn).op.family, table.decode(b.insn).op.family
            scalar, vector = _sources(b.insn)
            if fa in scalar_families and fb in scalar_families and a.rd is not None and scalar - {lg.BASE}:
                pairs += 1
                raw_scalar += a.rd in scalar
                load_use += a.rd in scalar and fa == "load"
            if fa == fb == "vector" and a.vd is not None:
                vpairs += 1
                raw_vector += a.vd in vector
            if a.cc is not None and b.text.startswith("br"):
                branch_after_cc += 1
            if a.rd == 7 and a.text == "ldw" and b.text == "jmp":
                link_then_ret += 1
    assert raw_scalar > pairs // 3 and raw_vector > vpairs // 2, (raw_scalar, pairs, raw_vector, vpairs)
    assert load_use > 100 and branch_after_cc > 500 and link_then_ret > 5, (load_use, branch_after_cc, link_then_ret)


def test_graphics_corners(runs: list) -> None:
    depths: set[int] = set()
    push_at_full = pop_at_empty = drawn = empty_three = 0
    counts: set[int] = set()
    events: set[str] = set()
    for _, _, _, recs in runs:
        depth, n = 0, 0
        for c in recs:
            if c.text == "pushmatrix":
                push_at_full += depth == STACK
            if c.text == "popmatrix":
                pop_at_empty += depth == 0
            if c.depth is not None:
                depth = c.depth
                depths.add(depth)
            if c.prim_begin is not None:
                n = 0
            if c.text == "setvertex":
                n += 1
            if c.text == "endprimitive":
                counts.add(n)
                drawn += bool(c.prim_end)
                empty_three += n >= 3 and c.prim_end == 0
            if c.fb_event:
                events.add(c.fb_event)
    assert {0, STACK} <= depths and push_at_full and pop_at_empty
    assert counts >= {0, 1, 2, 3, 4}
    # triangles that cover pixels, and three-vertex ones that cover none (the other winding, off screen)
    assert drawn > 50 and empty_three > 50
    assert events == {"flush", "draw"}


def test_bad_knob_is_one_line() -> None:
    p = subprocess.run([sys.executable, "-m", "randgen", "run", "--isa", "lg", "--sim", "golden", "--set", "vregs=60"],
                       capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == ["randgen: vregs 60 out of 1..56 (v56-v63 are the graphics sequences')"]
    p = subprocess.run([sys.executable, "-m", "randgen", "run", "--isa", "lg", "--batch", "2"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert p.returncode == 2 and "--batch is a G80 option" in p.stderr and "Traceback" not in p.stderr


def test_cli_runs_on_the_model(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "randgen", "run", "--isa", "lg", "--sim", "golden", "--seed", "7", "--count", "4", "--preset", "hazard",
                        "-o", str(tmp_path)], capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert [ln.split(":")[0] for ln in lines[:4]] == [f"hazard_s{s}.lgs" for s in range(7, 11)]
    assert lines[-1].startswith("4 passed, 0 failed")
    # the file is the program the generator makes for that seed
    assert (tmp_path / "hazard_s8.lgs").read_text() == lg.render(lg.generate(8, _cfg("hazard"), "hazard"))


def _failing(tmp_path: Path, other: object) -> tuple[lg.LgProg, Path, object]:
    cfg = _cfg("default")
    for s in range(1, 40):
        tree = lg.generate(s, cfg, "default")
        path = tmp_path / f"default_s{s}.lgs"
        path.write_text(lg.render(tree))
        o = run_models(path, other)  # type: ignore[arg-type]
        if not o.passed:
            return tree, path, o
    raise AssertionError("no program of 39 tells the two profiles apart")


def test_shrinking_reduces_a_failure(tmp_path: Path) -> None:
    # a model whose loads leave CC alone stands in for a DUT with that bug
    other = replace(SEED, loads_set_cc=False)
    tree, _, first = _failing(tmp_path, other)
    assert first.kind == "mismatch" and "cc" in first.fields  # type: ignore[attr-defined]
    work = tmp_path / "try.lgs"

    def fails(q: lg.LgProg) -> bool:
        work.write_text(lg.render(q))
        o = run_models(work, other)
        return not o.passed and (o.kind, o.fields) == (first.kind, first.fields)  # type: ignore[attr-defined]

    small, runs = shrink(tree, fails, 300, edits=lg.candidates, measure=lg.size)
    assert fails(small) and runs <= 300
    before, after = lg.instructions(lg.render(tree)), lg.instructions(lg.render(small))
    assert after < before // 3, (before, after)
    # what is left is a load whose CC a later instruction reads: few instructions
    assert after <= 12, lg.render(small)
    assert run_golden(work).passed  # still a legal program that ends on the model


def test_cli_shrink_writes_the_minimum(tmp_path: Path) -> None:
    from randgen.__main__ import _shrink
    from randgen.isa import randisa
    from randgen.run import keep_failure

    other = replace(SEED, rotate_unit=2)  # a rotation bug: only graphics programs show it
    tree, path, first = _failing(tmp_path, other)
    kept = keep_failure(path)
    _shrink(tree, first, kept, lambda p: run_models(p, other), 200, isa=randisa("lg"))  # type: ignore[arg-type]
    small = kept.with_suffix(".min.lgs")
    record = json.loads(kept.with_suffix(".shrink.json").read_text())
    assert record["after"]["instructions"] < record["before"]["instructions"]
    assert "blocks" not in record["after"]
    text = small.read_text()
    assert "rotate" in text and not run_models(small, other).passed
    words, _ = image(small)
    assert len(words) == record["after"]["instructions"]


def test_rerun_command_names_the_isa() -> None:
    from randgen.__main__ import _parser, _rerun

    args = _parser().parse_args(["run", "--isa", "lg", "--seed", "3", "--preset", "graphics", "--sim", "icarus"])
    assert _rerun(args, 5) == "make random ISA=lg SEED=5 COUNT=1 PRESET=graphics SIM=icarus"
    args = _parser().parse_args(["run", "--seed", "3"])
    assert _rerun(args, 5) == "make random SEED=5 COUNT=1 PRESET=default SIM=verilator NUM_SP=8"


@pytest.mark.skipif(not (ROOT / "rtl" / "lg" / "lg.f").exists(), reason="no LG core in this checkout")
def test_lockstep_random_on_the_lg_core(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "randgen", "run", "--isa", "lg", "--seed", "1", "--count", "3", "--preset", "ci",
                        "-o", str(tmp_path)], capture_output=True, text=True, cwd=ROOT, check=False, timeout=900)  # fmt: skip
    assert p.returncode == 0, p.stdout + p.stderr
    lines = p.stdout.strip().splitlines()
    assert all(": PASS, " in ln for ln in lines[:3]), lines
    assert lines[-1].startswith("3 passed, 0 failed")


@pytest.mark.skipif(not (ROOT / "rtl" / "lg" / "lg.f").exists(), reason="no LG core in this checkout")
def test_lockstep_random_catches_a_broken_core_and_shrinks_it(tmp_path: Path) -> None:
    # a copy of the LG core whose branches read the CC register instead of the CC the instruction
    # right before them writes: the generator's branch right after a CC write finds it
    core = tmp_path / "core"
    core.mkdir()
    src = ROOT / "rtl" / "lg"
    for f in [*src.glob("*.v"), *src.glob("*.vh"), *(src / "gen").glob("*.vh")]:
        (core / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    ex = core / "lg_ex.v"
    old = "wire [2:0] cc_in = (exmem_valid && exmem_cc_we) ? exmem_cc"
    assert ex.read_text().count(old) == 1, "rtl/lg/lg_ex.v changed: update this test's edit"
    ex.write_text(ex.read_text().replace(old, "wire [2:0] cc_in = (1'b0 && exmem_cc_we) ? exmem_cc"))
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, "-m", "randgen", "run", "--isa", "lg", "--seed", "1", "--count", "1", "--preset", "ci", "--dut", "mine",
                        "--rtl", str(core / "*.v"), "--shrink", "--shrink-budget", "60", "-o", str(out)],
                       capture_output=True, text=True, cwd=ROOT, check=False, timeout=900)  # fmt: skip
    assert p.returncode == 1, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("ci_s1.lgs: FAIL mismatch next_pc at PC ") and " br" in lines[0], lines[0]
    assert f"kept {out / 'failures' / 'ci_s1.lgs'}; rerun: make random ISA=lg SEED=1 COUNT=1 PRESET=ci SIM=verilator DUT=mine RTL=" in lines[1]
    assert lines[-1].startswith("0 passed, 1 failed")
    small = (out / "failures" / "ci_s1.min.lgs").read_text()
    words, recs = _run(small)
    assert len(words) <= 8, small
    # what is left: a branch right after the CC write it depends on
    assert any(a.cc is not None and b.text.startswith("br") for a, b in itertools.pairwise(recs)), small
