"""cocotb: the LG lock-step test. Started by tb/lg/lockstep.py (make sim ISA=lg), never by hand.

One monitor samples the DUT's ports once a cycle, after the rising edge settles (ReadOnly): the
commit port (cm_valid and the record's fields, tb/lg/harness.py COMMIT_FIELDS) and the
frame-buffer port (fb_we with fb_addr/fb_data, fb_clear, fb_draw), read as the top level's packed
buses (tb/lg/harness.py `packed_top`): one small read a cycle, one on a commit, the matrix only
when one was written (on Icarus, the four-state simulator, on every commit, for the X check). Each record and each event goes to the
scoreboard (tb/lg/scoreboard.py), which steps the golden model and compares. One coroutine samples
both ports, not one per port: a cycle costs one trigger and one read, and the events of a cycle
reach the scoreboard in a fixed order (frame buffer first, then the commit).

The run ends at the first failure, when the DUT has committed `done` and the frame buffer has
caught up, or when neither port moved for the hang bound. An X or Z on a valid commit's field,
on cm_valid itself or on a frame-buffer event's address or data ends it at once, naming the signal.
The outcome goes to the JSON file LG_RESULT: passed, commits compared, cycles, the report.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from tb.lg.harness import COMMIT_FIELDS, packed_layout
from tb.lg.program import load
from tb.lg.scoreboard import LgScoreboard, text_of
from tb.report import FailureReport

RESET_CYCLES = 3
# after the done commit, the cycles the frame-buffer port gets to deliver what the model still
# expects (its writes are registered, so they trail the commit port)
DRAIN_CYCLES = 2000


def _x_report(cycle: int, name: str, value: object, pc: int | None = None, insn: int | None = None) -> FailureReport:
    return FailureReport("x_or_z", f"{name} is {value} (X or Z) at cycle {cycle}: drive it to 0 or 1 (reset every register on the port's path)",
                         cycle=cycle, pc=pc, text=text_of(insn) if insn is not None else "")  # fmt: skip


def _resolve(bits: str, layout: dict[str, tuple[int, int]], total: int) -> tuple[int, dict[str, str]]:
    """A packed sample with X or Z bits (its binary text, highest bit first): the value with those
    bits as 0, and each signal that has one, with its text."""
    value, bad = 0, {}
    for name, (lsb, width) in layout.items():
        text = bits[total - lsb - width : total - lsb]
        if set(text) - {"0", "1"}:
            bad[name] = text
            text = "".join(c if c in "01" else "0" for c in text)
        value |= int(text, 2) << lsb
    return value, bad


@cocotb.test()
async def lockstep(dut) -> None:
    cfg = json.loads(Path(os.environ["LG_CONFIG"]).read_text(encoding="utf-8"))
    out_dir = Path(cfg["out_dir"])
    test = load(cfg["program"])
    hang = int(cfg["hang_cycles"])
    sb = LgScoreboard(test, cfg["context"], out_dir)
    # in simulator steps: the LG RTL has no `timescale, and Icarus then cannot represent a period in ns
    cocotb.start_soon(Clock(dut.clk, 2, unit="step").start())
    dut.rst.value = 1
    for _ in range(RESET_CYCLES):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    cyc, com = packed_layout("port_cycle"), packed_layout("port_commit")
    cyc_bits, com_bits = sum(w for _, w in cyc.values()), sum(w for _, w in com.values())
    if (len(dut.port_cycle), len(dut.port_commit)) != (cyc_bits, com_bits):
        raise RuntimeError("the lock-step top level's buses differ from tb/lg/harness.py PACKED: rebuild it")
    fb = [(name, cyc[name][0], kind) for name, kind in (("fb_we", "write"), ("fb_clear", "clear"), ("fb_draw", "draw"))]
    (a_lsb, a_w), (d_lsb, d_w), (v_lsb, _) = cyc["fb_addr"], cyc["fb_data"], cyc["cm_valid"]
    commit_slices = [(name, com[f"cm_{name}"][0], (1 << com[f"cm_{name}"][1]) - 1) for name in COMMIT_FIELDS if name != "mat"]
    four_state = "icarus" in cocotb.SIM_NAME.lower()  # a two-state simulator (Verilator) has no X to look for in an unwritten matrix
    port_cycle, port_commit, cm_mat = dut.port_cycle, dut.port_commit, dut.cm_mat
    cycle = idle = settle = drained = 0
    finished = False
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycle += 1
        idle += 1
        v = port_cycle.value
        n, bad = (v.to_unsigned(), {}) if v.is_resolvable else _resolve(str(v), cyc, cyc_bits)
        # frame-buffer port
        for name, lsb, kind in fb:
            if name in bad:
                sb.fail(_x_report(cycle, name, bad[name]))
                break
            if n >> lsb & 1:
                idle = 0
                if kind == "write":
                    x = next((s for s in ("fb_addr", "fb_data") if s in bad), None)
                    if x is not None:
                        sb.fail(_x_report(cycle, x, bad[x]))
                        break
                    sb.fb_event(cycle, ("write", n >> a_lsb & ((1 << a_w) - 1), n >> d_lsb & ((1 << d_w) - 1)))
                else:
                    sb.fb_event(cycle, (kind,))
        if sb.failed:
            break
        # commit port
        if "cm_valid" in bad:
            sb.fail(_x_report(cycle, "cm_valid", bad["cm_valid"]))
            break
        if n >> v_lsb & 1:
            idle = 0
            v = port_commit.value
            c, bad = (v.to_unsigned(), {}) if v.is_resolvable else _resolve(str(v), com, com_bits)
            record = {name: c >> lsb & mask for name, lsb, mask in commit_slices}
            if four_state or record["mat_we"]:
                m = cm_mat.value
                if m.is_resolvable:
                    record["mat"] = m.to_unsigned()
                else:
                    bad["cm_mat"] = str(m)
            x = next((name for name in COMMIT_FIELDS if f"cm_{name}" in bad), None)
            if x is not None:
                pc = None if "cm_pc" in bad else record["pc"]
                insn = None if "cm_insn" in bad else record["insn"]
                sb.fail(_x_report(cycle, f"cm_{x}", bad[f"cm_{x}"], pc, insn))
                break
            sb.commit(cycle, record)
        if sb.failed:
            break
        if sb.frame_fail is not None:
            settle += 1
            if sb.settled(settle):
                break
            continue
        if sb.done:
            drained += 1
            if not sb.pending_fb() or drained > DRAIN_CYCLES:
                finished = True
                break
        if idle > hang:
            break
    sb.end(cycle, finished or sb.done, hang)
    result = {"passed": sb.report is None, "commits": sb.commits, "cycles": cycle, "fb_writes": sb.fb_writes,
              "report": asdict(sb.report) if sb.report else None}  # fmt: skip
    Path(os.environ["LG_RESULT"]).write_text(json.dumps(result), encoding="utf-8")
