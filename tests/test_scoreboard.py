"""The lock-step scoreboard's comparison and the rtl adapter's commit-port conversion, without a simulator.

A second, independent golden-model instance plays the RTL: its commit records are packed into
commit-port records exactly as docs/design/rtl.md "Ports" lays them out, and its global/local stores into
memory-port requests (one per lane and 32-bit part, byte enables for the stored bytes). The
records reach the scoreboard the way they do in a run: through the rtl adapter's conversion to
the DUT-neutral `DutCommit` (tb/adapters/rtl.py). Unchanged records must all compare equal; a
record with one field or one lane changed must be reported as a mismatch at that instruction,
naming the field and (for lane values) exactly the changed lane.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from conftest import ROOT

from golden.g80.commit import Commit
from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import build
from tb.adapters.rtl import to_dut_commit
from tb.commit_agent import RtlCommit
from tb.mem_agent import MemRequest
from tb.scoreboard import Scoreboard, Verdict

SPACE = {"shared": 0, "global": 1, "local": 2}
NAMES = itertools.count()


def pack(values, mask: int, width: int = 32) -> int:
    return sum((int(values[i]) & ((1 << width) - 1)) << (width * i) for i in range(32) if mask >> i & 1)


def as_port(c: Commit, cycle: int) -> RtlCommit:
    """The commit-port image of a golden record (docs/design/rtl.md, "Ports")."""
    exe = c.exec_mask
    gpr = c.gpr
    mem = c.mem
    return RtlCommit(
        cycle=cycle, cta=c.cta, warp=c.warp, seq=c.seq, pc=c.pc, insn=c.insn, long=int(c.size == 8), active=c.active_mask, exec=exe,
        gpr_we=int(bool(gpr)), gpr_reg=gpr[0].index if gpr else 0, gpr_half={None: 0, "L": 1, "H": 2}[gpr[0].half] if gpr else 0,
        gpr_count=len(gpr), gpr_data=sum(pack(w.values, exe) << (1024 * k) for k, w in enumerate(gpr)),
        cc_we=int(bool(c.cc)), cc_reg=c.cc[0].index if c.cc else 0, cc_data=pack(c.cc[0].values, exe, 4) if c.cc else 0,
        a_we=int(bool(c.addr)), a_reg=c.addr[-1].index if c.addr else 0, a_data=pack(c.addr[-1].values, exe, 16) if c.addr else 0,
        mem_we=int(bool(mem)), mem_space=SPACE[mem[0].space] if mem else 0, mem_size=(mem[0].size if len(mem) == 1 else 4 * len(mem)) if mem else 0,
        mem_lanes=mem[0].lanes if mem else 0, mem_addr=pack(mem[0].addr, mem[0].lanes) if mem else 0,
        mem_data=sum(pack(m.data, m.lanes) << (1024 * k) for k, m in enumerate(mem)),
        next_pc=c.next_pc, next_mask=c.next_mask, done=int(c.done), barrier=int(c.barrier), unimpl=0,
    )  # fmt: skip


def port_requests(c: Commit, base: int, local_bytes: int) -> tuple[MemRequest, ...]:
    out = []
    for m in c.mem:
        if m.space == "shared":
            continue
        for lane in range(32):
            if m.lanes >> lane & 1:
                addr = int(m.addr[lane]) + ((base + lane) * local_bytes if m.space == "local" else 0)
                shift = addr & 3
                be = ((1 << m.size) - 1) << shift
                out.append(MemRequest(0, m.space == "local", addr - shift, be, True, (int(m.data[lane]) << (8 * shift)) & 0xFFFFFFFF, 0))
    return tuple(out)


@cache
def rtl_records(program: str) -> tuple[tuple[RtlCommit, tuple[MemRequest, ...]], ...]:
    """Every commit of `program` with its memory-port stores, one warp at a time in round-robin, from an independent model."""
    spec = load_program(ROOT / "programs" / f"{program}.sass")
    sm, _ = build(spec, G80)
    out: list[Pair] = []
    for c in sm.commits():
        out.append((as_port(c, len(out)), port_requests(c, sm.warps[c.warp].base, sm.config.local_bytes)))
    return tuple(out)


Pair = tuple[RtlCommit, tuple[MemRequest, ...]]


def scoreboard(program: str) -> tuple[Scoreboard, Verdict]:
    spec = load_program(ROOT / "programs" / f"{program}.sass")
    sm, _ = build(spec, G80)
    verdict = Verdict({"test": program}, lambda: None)
    sb = Scoreboard(f"scoreboard{next(NAMES)}", None, sm, verdict)  # pyuvm wants unique component names
    sb.build_phase()
    return sb, verdict


def feed(sb: Scoreboard, verdict: Verdict, pairs) -> None:
    for rec, reqs in pairs:
        for q in reqs:
            sb.write_request(q)
        sb.write(to_dut_commit(rec))
        if verdict.report is not None:
            return


@pytest.mark.parametrize("program", ["iadd", "global", "local", "cf_ifelse", "areg"])
def test_identical_records_all_compare(program: str) -> None:
    pairs = rtl_records(program)
    sb, verdict = scoreboard(program)
    feed(sb, verdict, pairs)
    assert verdict.report is None, verdict.report.to_text()
    assert sb.compared == len(pairs) > 10


def first(pairs, pred) -> int:
    return next(i for i, (r, _) in enumerate(pairs) if pred(r))


def with_record(pairs, i: int, rec: RtlCommit | None = None, reqs: tuple[MemRequest, ...] | None = None) -> list[Pair]:
    out = list(pairs)
    out[i] = (rec if rec is not None else pairs[i][0], reqs if reqs is not None else pairs[i][1])
    return out


def run_until_failure(program: str, pairs):
    sb, verdict = scoreboard(program)
    feed(sb, verdict, pairs)
    assert verdict.report is not None, "the corrupted record was not reported"
    return verdict.report


def test_one_wrong_lane_is_named() -> None:
    pairs = rtl_records("iadd")
    i = first(pairs, lambda r: r.gpr_we and r.exec >> 5 & 1)
    r = pairs[i][0]
    report = run_until_failure("iadd", with_record(pairs, i, replace(r, gpr_data=r.gpr_data ^ (1 << (32 * 5 + 3)))))
    assert (report.kind, report.pc, report.warp) == ("mismatch", r.pc, r.warp)
    assert [d.field for d in report.diffs] == ["gpr"]
    assert [x.lane for x in report.diffs[0].lanes] == [5]
    assert report.history[-1].startswith(f"{r.pc:04x}")


def test_a_clock_that_does_not_advance_is_reported() -> None:
    """SR1's values are the DUT's (synchronised, DESIGN.md 5), but ISA.md 7.1 makes it a cycle
    counter: a thread's second read repeating its first is reported at the second read; the
    unchanged records, whose clock advances, compare."""
    pairs = rtl_records("mut_clock_advances")
    sb, verdict = scoreboard("mut_clock_advances")
    feed(sb, verdict, pairs)
    assert verdict.report is None
    # the program's only writes of R6 and R7 are its two S2R SR1 (programs/mut_clock_advances.sass)
    first_read = first(pairs, lambda r: r.warp == 0 and r.gpr_we and r.gpr_reg == 6)
    second_read = first(pairs, lambda r: r.warp == 0 and r.gpr_we and r.gpr_reg == 7)
    stuck = replace(pairs[second_read][0], gpr_data=pairs[first_read][0].gpr_data)
    report = run_until_failure("mut_clock_advances", with_record(pairs, second_read, stuck))
    assert report.pc == pairs[second_read][0].pc and "the clock does not advance" in report.message


@pytest.mark.parametrize(("field", "change"), [
    ("next_pc", lambda r: {"next_pc": r.next_pc + 8}),
    ("exec_mask", lambda r: {"exec": r.exec ^ 1}),
    ("cc", lambda r: {"cc_reg": r.cc_reg ^ 1}),
])  # fmt: skip
def test_wrong_field_is_named(field: str, change) -> None:
    pairs = rtl_records("iadd")
    i = first(pairs, lambda r: r.cc_we) if field == "cc" else len(pairs) // 2
    r = pairs[i][0]
    report = run_until_failure("iadd", with_record(pairs, i, replace(r, **change(r))))
    assert report.pc == r.pc and field in [d.field for d in report.diffs]


def test_wrong_store_data_and_missing_store() -> None:
    pairs = rtl_records("global")
    i = first(pairs, lambda r: r.mem_we and r.mem_space == SPACE["global"])
    r = pairs[i][0]
    lane = (r.mem_lanes & -r.mem_lanes).bit_length() - 1
    report = run_until_failure("global", with_record(pairs, i, replace(r, mem_data=r.mem_data ^ (0xFF << (32 * lane)))))
    assert report.pc == r.pc and report.diffs[0].field.startswith("mem.data")
    assert [x.lane for x in report.diffs[0].lanes] == [lane]
    report = run_until_failure("global", with_record(pairs, i, replace(r, mem_we=0)))
    assert report.diffs[0].field == "mem" and report.diffs[0].actual == "no store"


@pytest.mark.parametrize("program", ["global", "local"])
def test_memory_port_bytes_are_checked_at_the_store(program: str) -> None:
    """The record is right but the port wrote one byte too many (a wrong byte enable), or lost a store."""
    pairs = rtl_records(program)
    i = next(k for k, (_, reqs) in enumerate(pairs) if reqs and reqs[0].be != 0xF)
    r, reqs = pairs[i]
    widened = (replace(reqs[0], be=0xF), *reqs[1:])
    report = run_until_failure(program, with_record(pairs, i, reqs=widened))
    assert (report.pc, [d.field for d in report.diffs]) == (r.pc, ["memory port"])
    assert report.diffs[0].lanes[0].expected == "not written"
    report = run_until_failure(program, with_record(pairs, i, reqs=reqs[1:]))
    assert report.pc == r.pc and report.diffs[0].lanes[0].actual == "not written"


def test_commit_after_the_end_and_unimplemented() -> None:
    pairs = rtl_records("cf_ifelse")
    report = run_until_failure("cf_ifelse", [*pairs, pairs[-1]])
    assert "finished" in report.message
    report = run_until_failure("cf_ifelse", [(replace(pairs[0][0], unimpl=1), ())])
    assert report.kind == "unimplemented" and pairs[0][0].pc == report.pc


def test_fields_a_dut_cannot_produce_are_not_compared() -> None:
    """A DUT adapter names the Commit fields its DUT has no equivalent for (DutCommit.unchecked); a
    wrong value there passes, the same wrong value in a checked field is named."""
    pairs = rtl_records("iadd")
    sb, verdict = scoreboard("iadd")
    for k, (rec, reqs) in enumerate(pairs):
        for q in reqs:
            sb.write_request(q)
        dut = to_dut_commit(replace(rec, seq=rec.seq + 1000))
        sb.write(replace(dut, unchecked=frozenset({"seq"})) if k < len(pairs) - 1 else dut)
    assert verdict.report is not None and [d.field for d in verdict.report.diffs] == ["seq"]
    assert sb.compared == len(pairs) - 1


def test_stores_are_not_checked_at_the_port_of_a_dut_that_cannot_see_it() -> None:
    """check_stores=False (a DUT whose memory interface the adapter does not observe): no port requests, no failure."""
    pairs = rtl_records("global")
    spec = load_program(ROOT / "programs" / "global.sass")
    sm, _ = build(spec, G80)
    verdict = Verdict({"test": "global"}, lambda: None)
    sb = Scoreboard(f"scoreboard{next(NAMES)}", None, sm, verdict, check_stores=False)
    sb.build_phase()
    feed(sb, verdict, [(rec, ()) for rec, _ in pairs])
    assert verdict.report is None and sb.compared == len(pairs)


def test_adapters_by_name() -> None:
    from tb.adapters import adapter

    rtl = adapter("rtl")
    assert rtl.name == "rtl" and rtl.simulators[0] == "verilator" and rtl.sources()[0].name == "sm_top.v"
    with pytest.raises(ValueError, match="unknown DUT 'nope'"):
        adapter("nope")


def test_commit_port_fields_become_the_model_record() -> None:
    """The rtl adapter reads the port as docs/design/rtl.md "Ports" lays it out: lane i of 32-bit vectors at bit
    32i (part k of 64/128-bit data at bit 1024k), flags at 4i, address registers at 16i; a short
    instruction's word is the low 32 bits; lanes outside the exec (or store) mask are not values."""
    exe = 0b1011  # lanes 0, 1, 3
    rec = RtlCommit(
        cycle=7, cta=1, warp=2, seq=5, pc=0x40, insn=0xDEADBEEF_12345678, long=0, active=0xF, exec=exe,
        gpr_we=1, gpr_reg=4, gpr_half=2, gpr_count=2, gpr_data=sum((0x100 * k + i) << (1024 * k + 32 * i) for k in range(2) for i in range(4)),
        cc_we=1, cc_reg=3, cc_data=0x9 << 4 | 0x2 << 12 | 0xF << 8, a_we=1, a_reg=2, a_data=0xBEEF << 16,
        mem_we=1, mem_space=2, mem_size=8, mem_lanes=0b10, mem_addr=0x20 << 32, mem_data=0x11 << 32 | 0x22 << (1024 + 32),
        next_pc=0x48, next_mask=0xF, done=0, barrier=1, unimpl=0,
    )  # fmt: skip
    d = to_dut_commit(rec)
    c = d.commit
    assert (d.cycle, c.cta, c.warp, c.seq, c.pc, c.insn, c.size, c.active_mask, c.exec_mask) == (7, 1, 2, 5, 0x40, 0x12345678, 4, 0xF, exe)
    assert [(w.index, w.half) for w in c.gpr] == [(4, "H"), (5, "H")]
    assert c.gpr[0].values[:4].tolist() == [0, 1, 0, 3] and c.gpr[1].values[:4].tolist() == [0x100, 0x101, 0, 0x103]  # lane 2 is not executing
    assert (c.cc[0].index, c.cc[0].values[:4].tolist()) == (3, [0, 9, 0, 2])
    assert (c.addr[0].index, c.addr[0].values[:2].tolist()) == (2, [0, 0xBEEF])
    assert [(m.space, m.size, m.lanes) for m in c.mem] == [("local", 4, 0b10), ("local", 4, 0b10)]
    assert [int(m.addr[1]) for m in c.mem] == [0x20, 0x24] and [int(m.data[1]) for m in c.mem] == [0x11, 0x22]
    assert (c.next_pc, c.next_mask, c.done, c.barrier, d.unimplemented) == (0x48, 0xF, False, True, False)
    assert to_dut_commit(replace(rec, long=1)).commit.insn == 0xDEADBEEF_12345678


def test_commit_packed_fields_unpack_by_name() -> None:
    """commit_packed as docs/design/rtl.md "Ports" lays it out (the narrow fields in table order, commit_cta at
    bit 0), built here from golden/g80/hw.py's widths: each field comes back by name, and an X in one
    field names that field alone."""
    from golden.g80.hw import commit_packed_fields
    from tb.commit_agent import unpack

    fields = commit_packed_fields()
    assert [f.name for f in fields][:3] == ["cta", "warp", "seq"] and all(f.width <= 64 for f in fields)
    want = {f.name: (0x9E3779B97F4A7C15 * (k + 1)) & ((1 << f.width) - 1) for k, f in enumerate(fields)}
    bits = "".join(format(want[f.name], f"0{f.width}b") for f in reversed(fields))  # MSB first, as VPI gives it
    assert unpack(bits) == (want, [])
    seq = next(i for i, f in enumerate(fields) if f.name == "seq")
    low = sum(f.width for f in fields[:seq])  # bit offset of seq
    broken = bits[: len(bits) - low - 3] + "x" + bits[len(bits) - low - 2 :]  # bit 2 of seq
    values, unknown = unpack(broken)
    assert unknown == ["seq"] and values["seq"] == 0 and values["pc"] == want["pc"] and values["warp"] == want["warp"]


@pytest.mark.parametrize("exe", [0xFFFFFFFF, 0x7FFFFFFF, 0x1])
def test_one_register_write_keeps_exactly_the_executing_lanes(exe: int) -> None:
    """A one-register write (the common record, converted on its own path; all 32 lanes executing:
    without the lane-mask multiply): lane i is bits 32i..32i+31 of the port's data where lane i
    executes, 0 elsewhere, as a writable uint32 array like any other record's."""
    data = sum((0xA5000000 + 17 * i) << (32 * i) for i in range(32))
    rec = RtlCommit(
        cycle=1, cta=0, warp=0, seq=0, pc=0, insn=0, long=0, active=0xFFFFFFFF, exec=exe,
        gpr_we=1, gpr_reg=6, gpr_half=0, gpr_count=1, gpr_data=data, cc_we=0, cc_reg=0, cc_data=0, a_we=0, a_reg=0, a_data=0,
        mem_we=0, mem_space=0, mem_size=0, mem_lanes=0, mem_addr=0, mem_data=0, next_pc=8, next_mask=0xFFFFFFFF, done=0, barrier=0, unimpl=0,
    )  # fmt: skip
    (w,) = to_dut_commit(rec).commit.gpr
    assert w.index == 6 and w.values.dtype == np.uint32 and w.values.flags.writeable
    assert w.values.tolist() == [0xA5000000 + 17 * i if exe >> i & 1 else 0 for i in range(32)]
