"""cocotb: the LG lock-step test. Started by tb/lg/lockstep.py (make sim ISA=lg), never by hand.

One monitor samples the DUT's ports once a cycle, after the rising edge settles (ReadOnly): the
commit port (cm_valid and the record's fields, tb/lg/harness.py COMMIT_FIELDS) and the
frame-buffer port (fb_we with fb_addr/fb_data, fb_clear, fb_draw). Each record and each event goes
to the scoreboard (tb/lg/scoreboard.py), which steps the golden model and compares. One coroutine
samples both ports, not one per port: a cycle costs one trigger, and the events of a cycle reach
the scoreboard in a fixed order (frame buffer first, then the commit).

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

from tb.lg.harness import COMMIT_FIELDS
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
    fields = [(name, getattr(dut, f"cm_{name}")) for name in COMMIT_FIELDS]
    valid, fb_we, fb_addr, fb_data, fb_clear, fb_draw = dut.cm_valid, dut.fb_we, dut.fb_addr, dut.fb_data, dut.fb_clear, dut.fb_draw
    cycle = idle = settle = drained = 0
    finished = False
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycle += 1
        idle += 1
        # frame-buffer port
        for sig, kind, name in ((fb_we, "write", "fb_we"), (fb_clear, "clear", "fb_clear"), (fb_draw, "draw", "fb_draw")):
            v = sig.value
            if not v.is_resolvable:
                sb.fail(_x_report(cycle, name, v))
                break
            if v:
                idle = 0
                if kind == "write":
                    a, d = fb_addr.value, fb_data.value
                    if not (a.is_resolvable and d.is_resolvable):
                        sb.fail(_x_report(cycle, "fb_addr" if not a.is_resolvable else "fb_data", a if not a.is_resolvable else d))
                        break
                    sb.fb_event(cycle, ("write", a.to_unsigned(), d.to_unsigned()))
                else:
                    sb.fb_event(cycle, (kind,))
        if sb.failed:
            break
        # commit port
        v = valid.value
        if not v.is_resolvable:
            sb.fail(_x_report(cycle, "cm_valid", v))
            break
        if v:
            idle = 0
            record: dict[str, int] = {}
            for name, sig in fields:
                val = sig.value
                if not val.is_resolvable:
                    pc, insn = dut.cm_pc.value, dut.cm_insn.value
                    sb.fail(_x_report(cycle, f"cm_{name}", val, pc.to_unsigned() if pc.is_resolvable else None,
                                      insn.to_unsigned() if insn.is_resolvable else None))
                    break
                record[name] = int(val) if len(sig) == 1 else val.to_unsigned()
            if sb.failed:
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
