"""Failure reports that blame the right party, without a simulator.

A second golden-model instance plays the RTL, as in tests/test_scoreboard.py; to make it wrong in a
known way, it keeps local memory from one block to the next (what the testbench's memory did before
it zeroed a finished warp's thread slots). The scoreboard must then report the first load of
never-written local memory in block 1 (docs/design/architecture.md, "Semantics: one model, two profiles": local memory reads 0 at the
start of every block), naming the block with its slot, marking where block 1 began in the warp's
history, and saying that the value came from the testbench's memory through the RTL.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ROOT
from test_scoreboard import NAMES, as_port, feed, port_requests

from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import build
from golden.g80.sm import SM
from tb.lockstep import LockstepRun
from tb.mem_agent import MemoryFault, MemRequest, TbMemory
from tb.report import BLOCK_MARK, FailureReport, FieldDiff, LaneDiff, group_lanes, lane_list
from tb.scoreboard import Scoreboard, Verdict

PROGRAM = ROOT / "programs" / "local_rounds.sass"


class KeepsLocalMemory(SM):
    """A model whose local memory survives from one round of blocks to the next (a bug this suite once found)."""

    def start_next_round(self) -> bool:
        kept = getattr(self, "local", None)
        placed = super().start_next_round()
        if kept is not None:
            self.local = kept
        return placed


def local_rounds_run(dut_model: type[SM]) -> Verdict:
    spec = load_program(PROGRAM)
    fake, _ = build(spec, G80)
    fake.__class__ = dut_model  # same state, the round start of `dut_model`
    pairs = [(as_port(c, k), port_requests(c, fake.warps[c.warp].base, fake.config.local_bytes)) for k, c in enumerate(fake.commits())]
    model, _ = build(spec, G80)
    verdict = Verdict({"test": "local_rounds", "dut": "RTL"}, lambda: None)
    sb = Scoreboard(f"scoreboard{next(NAMES)}", None, model, verdict, tb_memory=True)
    sb.build_phase()
    feed(sb, verdict, pairs)
    return verdict


def test_the_program_runs_one_block_per_round() -> None:
    """The premise of the local-memory test: 2 blocks, one a round, so block 1 reuses block 0's thread slots."""
    sm, _ = build(load_program(PROGRAM), G80)
    assert (sm.launch.num_blocks, sm.per_round) == (2, 1)
    assert len(sm.code) == 20  # 10 instructions of 64 bits


def test_local_memory_zero_at_each_block_start_compares() -> None:
    assert local_rounds_run(SM).report is None


def test_local_memory_kept_across_blocks_is_reported_at_the_load_in_block_1() -> None:
    report = local_rounds_run(KeepsLocalMemory).report
    assert report is not None
    # the first LLD (PC 0x28, the 6th 64-bit instruction) of block 1, which runs in slot 0
    assert (report.kind, report.pc, report.text, report.block, report.cta) == ("mismatch", 0x28, "LLD.U32 R2, local[0x0]", 1, 0)
    (diff,) = report.diffs
    assert diff.field == "gpr" and diff.source == "testbench local memory"
    # block 0's thread t wrote i + 1 = t + 1 there; the model reads 0 (the program's comment, docs/design/architecture.md)
    assert [(x.lane, int(x.expected, 16), int(x.actual, 16)) for x in diff.lanes] == [(t, 0, t + 1) for t in range(32)]
    marker = next(i for i, h in enumerate(report.history) if h.startswith(BLOCK_MARK))
    assert "block 1 begins" in report.history[marker] and report.history[marker + 1].startswith("0000")
    assert report.history[marker - 1].startswith("0048")  # block 0's last instruction, the GST
    text = report.to_text()
    assert "block 1 (slot 0), warp 0, PC 0x0028" in text
    assert "actual (from testbench local memory via RTL)" in text
    assert "CTA" not in text


def test_testbench_local_memory_clear() -> None:
    mem = TbMemory(np.zeros(16, np.uint8), local_bytes=8, threads=4)
    for t in range(4):
        mem.access(MemRequest(0, True, 8 * t + 4, 0xF, True, 0x11223344, 0))
    mem.clear_local(1, 2)
    read = [mem.access(MemRequest(0, True, 8 * t + 4, 0xF, False, 0, 0)) & 0xFFFFFFFF for t in range(4)]  # a response holds the line from the address
    assert read == [0x11223344, 0, 0, 0x11223344]


def test_lane_list() -> None:
    assert lane_list([0, 1, 2, 3, 5, 7, 8, 9]) == "0-3,5,7-9"
    assert lane_list([4]) == "4" and lane_list([]) == ""


def test_lane_groups() -> None:
    same = [LaneDiff(t, "0x00000001", "0x00000002") for t in (0, 1, 2, 9)]
    assert group_lanes(same) == [("0-2,9", "0x00000001", "0x00000002")]
    plus_one = [LaneDiff(t, f"{7 * t:#010x}", f"{7 * t + 1:#010x}") for t in range(32)]
    assert group_lanes(plus_one) == [("0-31", "actual = expected + 0x1", "(lane 0: 0x00000000 -> 0x00000001)")]
    minus = [LaneDiff(t, f"{5 * t + 3:#010x}", f"{5 * t + 1:#010x}") for t in range(4)]
    assert group_lanes(minus)[0][:2] == ("0-3", "actual = expected - 0x2")
    flipped = [LaneDiff(t, f"{v:#010x}", f"{v ^ 0x11:#010x}") for t, v in enumerate((0x00, 0x10, 0x01, 0x11))]  # no common difference
    assert group_lanes(flipped) == [("0-3", "actual = expected ^ 0x11", "(lane 0: 0x00000000 -> 0x00000011)")]
    progression = [LaneDiff(t, "0x00000000", f"{t + 1:#010x}") for t in range(32)]
    assert group_lanes(progression) == [("0-31", "0x00000000", "0x00000001..0x00000020 (+0x1 a lane)")]
    lonely = [LaneDiff(3, "0x00000001", "0x00000007"), LaneDiff(None, "global[0x10]=0x01", "not written")]
    assert group_lanes(lonely) == [("3", "0x00000001", "0x00000007"), ("-", "global[0x10]=0x01", "not written")]


def test_long_lane_table_is_short_on_the_console_and_whole_in_json(tmp_path) -> None:
    rng = np.random.default_rng(5)
    values = rng.integers(0, 1 << 32, 32)
    rows = [LaneDiff(t, f"{int(v):#010x}", f"{int(v) ^ (1 << t):#010x}") for t, v in enumerate(values)]  # 32 different ways
    report = FailureReport("mismatch", "gpr differs", diffs=[FieldDiff("gpr", "R1", "R1 (32 lanes differ)", rows)])
    text = report.to_text()
    assert "... 16 more rows (every lane is in report.json)" in text
    report.write(tmp_path / "r.json")
    again = FailureReport.read(tmp_path / "r.json")
    assert again.diffs[0].lanes == rows


def test_rerun_command_names_the_program_as_make_sim_takes_it(tmp_path) -> None:
    assert LockstepRun("iadd").rerun_command().startswith("make sim TEST=iadd SIM=icarus")
    assert LockstepRun(str(ROOT / "programs" / "iadd.sass")).make_test == "iadd"
    assert LockstepRun(str(ROOT / "programs" / "bad" / "shared_oob.sass")).make_test == "programs/bad/shared_oob.sass"
    outside = tmp_path / "x.sass"
    assert LockstepRun(str(outside)).make_test == str(outside)


def fresh_scoreboard(path) -> tuple[Scoreboard, Verdict]:
    model, _ = build(load_program(path), G80)
    verdict = Verdict({"test": path.stem, "dut": "RTL"}, lambda: None)
    sb = Scoreboard(f"scoreboard{next(NAMES)}", None, model, verdict, tb_memory=True)
    sb.build_phase()
    return sb, verdict


def test_dut_error_where_the_model_runs_blames_the_dut() -> None:
    """An RTL that stops at iadd's first instruction, which the model executes: the DUT is wrong."""
    sb, _ = fresh_scoreboard(ROOT / "programs" / "iadd.sass")
    first = sb.model.plan(0)
    got = sb.explain_error(0, 0)
    assert (got["text"], got["block"], got["cta"]) == (first.text, 0, 0)
    assert got["model_says"].startswith("it executes without an error, so the RTL is wrong")
    assert got["history"] == [f"0000  {first.text}   <- the RTL stopped here"]


def test_dut_error_at_the_start_of_the_next_block() -> None:
    """Block 0 of local_rounds committed, then the RTL stops at block 1's first instruction: the
    report names block 1 and marks where it began in the warp's history."""
    spec = load_program(PROGRAM)
    fake, _ = build(spec, G80)
    pairs = [(as_port(c, k), port_requests(c, fake.warps[c.warp].base, fake.config.local_bytes)) for k, c in enumerate(fake.commits())]
    sb, verdict = fresh_scoreboard(PROGRAM)
    feed(sb, verdict, pairs[:10])  # block 0: 10 instructions
    assert verdict.report is None and sb.model.round_done
    got = sb.explain_error(0, 0)
    assert (got["block"], got["cta"]) == (1, 0)
    assert got["history"][-2].startswith(f"{BLOCK_MARK} block 1 begins") and got["history"][-1].startswith("0000")


def test_memory_fault_no_model_warp_faults_blames_the_dut() -> None:
    """programs/global.sass's accesses stay inside its buffers: a DUT request at 0x10000 is the DUT's fault."""
    sb, _ = fresh_scoreboard(ROOT / "programs" / "global.sass")
    model = sb.model
    while model.plan(model.warps[0].pc).insn.form.family != "gld":  # up to the first global load
        model.step(model.warps[0])
    got = sb.explain_memory_fault(False, 0x10000, 1)
    assert got["warp"] is None and got["model_says"] == "no warp's next global access faults in the model (lane 1), so the RTL is wrong"
    assert model.plan(model.warps[0].pc).insn.form.family == "gld"  # a copy was stepped, not the model


def test_tb_memory_serves_a_line_byte_by_byte() -> None:
    """TbMemory.access against the memory port's rules written out byte by byte (docs/design/rtl.md,
    "Ports": a load returns the whole 64-byte line from its address, bytes past the end of
    memory as 0; a store writes the bytes its enables select, lane k at bits 8k..8k+7 of the data;
    an enabled byte outside memory is a fault naming the first), on random lines near the end."""
    import random

    rng = random.Random(5)
    size = 200
    mem = TbMemory(np.arange(size, dtype=np.uint8), local_bytes=4, threads=1)
    ref = list(range(size))
    for _ in range(400):
        addr = rng.randrange(0, size, 4)
        be = rng.choice([0, (1 << 64) - 1, 0xF << (4 * rng.randrange(16)), rng.getrandbits(64)])
        wdata = rng.getrandbits(512)
        enabled = [k for k in range(64) if be >> k & 1]
        if any(addr + k >= size for k in enabled):
            with pytest.raises(MemoryFault) as info:
                mem.access(MemRequest(0, False, addr, be, True, wdata, 0))
            assert info.value.addr == addr + min(k for k in enabled if addr + k >= size)
            continue
        if rng.randrange(2):
            assert mem.access(MemRequest(0, False, addr, be, True, wdata, 0)) == 0
            for k in enabled:
                ref[addr + k] = wdata >> (8 * k) & 0xFF
        else:
            line = mem.access(MemRequest(0, False, addr, be, False, 0, 0))
            assert line == sum(ref[addr + k] << (8 * k) for k in range(64) if addr + k < size)
        assert mem.glob.tolist() == ref
