"""A passing lock-step run must mean something: deliberately broken RTL variants must fail, at the right PC.

Each `MUTANT_*` variant (tb/mutants.py; docs/design/rtl.md, "Broken variants for the testbench's own tests") builds a small realistic bug into a
copy of the RTL. The run must be reported as a mismatch at the first instruction where the bug changes what
the SM does. That instruction is worked out here from the program and an independent run of the
golden model (what the instruction is, which lanes it touches), not from the failing run.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

import pytest
from conftest import ROOT

from golden.g80.commit import Commit
from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import build
from tb.lockstep import LockstepRun, run_lockstep
from tb.mutants import VARIANTS, MutantError, apply, split_defines


def test_production_rtl_has_no_bug_hooks() -> None:
    for path in (ROOT / "rtl").rglob("*.v*"):
        assert "MUTANT" not in path.read_text(encoding="utf-8").upper(), f"{path}: a mutant hook in production RTL"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_mutant_changes_one_place_of_its_file(name: str, tmp_path) -> None:
    m = VARIANTS[name]
    src = ROOT / "rtl" / m.file
    (out,) = apply([name], [src], tmp_path)
    before, after = src.read_text().splitlines(), out.read_text().splitlines()
    edits = [op for op in difflib.SequenceMatcher(None, before, after).get_opcodes() if op[0] != "equal"]
    assert len(edits) == 1, f"{name}: {edits}"


def test_a_mutant_that_no_longer_applies_says_so(tmp_path) -> None:
    src = tmp_path / "src" / VARIANTS["MUTANT_CARRY"].file
    src.parent.mkdir()
    src.write_text("module sm_operands; endmodule\n")
    with pytest.raises(MutantError, match=r"MUTANT_CARRY: its original text occurs 0 times in rtl/sm_operands.v"):
        apply(["MUTANT_CARRY"], [src], tmp_path / "out")
    with pytest.raises(MutantError, match="unknown mutant MUTANT_NOPE"):
        split_defines(["MUTANT_NOPE"])
    assert split_defines(["MUTANT_CARRY", "FOO"]) == (("MUTANT_CARRY",), ("FOO",))


def commits(program: str) -> list[Commit]:
    """Every commit of the program in round-robin warp order (the model on its own)."""
    sm, _ = build(load_program(ROOT / "programs" / f"{program}.sass"), G80)
    return list(sm.commits())


def carry_from_c1_to_c3(c: Commit) -> bool:
    # the mutant reads $c0 where a 64-bit add-with-carry names $c1-$c3
    return re.search(r"\.CARRY[123]\b", c.text) is not None and c.size == 8


def ne_with_a_false_lane(c: Commit) -> bool:
    # the mutant makes the NE condition true everywhere: visible once a lane's NE is false
    return re.search(r"\bC\d\.NE\b", c.text) is not None and c.exec_mask != c.active_mask


def reconverging_join(c: Commit) -> bool:
    # the mutant keeps the finished side's lanes at a join that pops a branch entry
    return c.text.split()[0].endswith(".S") and c.next_mask != c.active_mask


def unaligned_narrow_store(c: Commit) -> bool:
    # the mutant does not move a byte/half store to its byte lanes: visible off word alignment
    return any(m.space != "shared" and m.size < 4 and any(int(m.addr[i]) % 4 for i in range(32) if m.lanes >> i & 1) for m in c.mem)


MUTANTS: list[tuple[str, str, Callable[[Commit], bool]]] = [
    ("MUTANT_CARRY", "iadd", carry_from_c1_to_c3),
    ("MUTANT_PREDICATE", "cf_ifelse", ne_with_a_false_lane),
    ("MUTANT_DIVERGENCE", "cf_ifelse", reconverging_join),
    ("MUTANT_BYTE_ENABLE", "global", unaligned_narrow_store),
    ("MUTANT_BYTE_ENABLE", "local", unaligned_narrow_store),
]


@pytest.mark.parametrize(("define", "program", "affected"), MUTANTS, ids=[f"{d}-{p}" for d, p, _ in MUTANTS])
def test_mutant_is_caught_at_the_first_affected_instruction(define: str, program: str, affected: Callable[[Commit], bool]) -> None:
    expected = next(c for c in commits(program) if affected(c))
    result = run_lockstep(LockstepRun(program, "icarus", defines=(define,)), rerun_with_waves=False)
    assert not result.passed, f"{define} was not detected on {program}"
    report = result.report
    assert report is not None and report.kind == "mismatch", result.summary()
    assert (report.pc, report.text) == (expected.pc, expected.text), result.summary()
    assert report.diffs, "a mismatch report must name the differing field"


def partial_register_write(c: Commit) -> bool:
    # the mutant leaves the lanes that do not write undriven: visible when a register write skips a lane
    return bool(c.gpr) and c.exec_mask not in (0, 0xFFFFFFFF)


def test_undriven_lanes_are_reported_as_x_at_their_instruction() -> None:
    """MUTANT_X_LANES drives X into the commit record's lanes that did not write; four-state Icarus must
    stop at the first such record (DESIGN.md section 4: X/Z on a valid field fails, even where values
    are not compared) and name its warp, PC and instruction."""
    program = "cf_ifelse"
    result = run_lockstep(LockstepRun(program, "icarus", defines=("MUTANT_X_LANES",)), rerun_with_waves=False)
    report = result.report
    assert not result.passed and report is not None and report.kind == "x_or_z", result.summary()
    assert "commit_gpr_data" in report.message, report.message
    assert report.warp is not None, result.summary()
    expected = next(c for c in commits(program) if c.warp == report.warp and partial_register_write(c))
    assert (report.pc, report.text) == (expected.pc, expected.text), result.summary()


def test_undriven_request_address_bits_are_reported_as_x_on_the_memory_port() -> None:
    """MUTANT_X_MEM_ADDR leaves bits 5:0 of a single lane's request address undriven (docs/design/rtl.md,
    "Ports": the address of a line, bits 5:0 zero). The memory agent must stop at the first
    such request with an X/Z report that names the memory port's field, not serve a line at a made-up
    address or fail with a bare parse error; `global` stores bytes and halves, which go one lane a
    request."""
    result = run_lockstep(LockstepRun("global", "icarus", defines=("MUTANT_X_MEM_ADDR",)), rerun_with_waves=False)
    report = result.report
    assert not result.passed and report is not None and report.kind == "x_or_z", result.summary()
    assert "memory port" in report.message and "mem_req_addr" in report.message, report.message
    for other in ("mem_req_valid", "mem_req_be", "mem_req_wdata", "mem_req_tag"):  # driven: not named
        assert other not in report.message, report.message


def test_the_unbroken_rtl_passes_the_same_programs() -> None:
    """The same programs pass without a define (so the failures above come from the mutants)."""
    for program in sorted({p for _, p, _ in MUTANTS}):
        result = run_lockstep(LockstepRun(program, "icarus"), rerun_with_waves=False)
        assert result.passed, result.summary()
