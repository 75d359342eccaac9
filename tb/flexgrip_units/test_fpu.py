"""cocotb test: batches of operations through LANES copies of FlexGripPlus's fpu_single.

Reads FG_BATCHES (one batch a line: `opcode subop s32 abs cond rmode extra` then LANES triples
`a,b,c` in hex) and writes FG_RESULTS (one line per batch: LANES results in hex, `X` for an
unresolvable result). The comparison with the Python model is done by harness.py, so this module
only drives the FPU the way pipeline_execute does: operands and controls held with enable high
until every lane reports finished, then enable low (the FSM returns to IDLE and resets its units).
"""

from __future__ import annotations

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

MAX_CYCLES = 200  # an operation takes about 30 cycles; more means the FSM is stuck


@cocotb.test()
async def fpu_batches(dut: object) -> None:
    lanes = len(dut.finished)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.enable.value = 0
    for name in ("rmode", "s32", "abs_en", "set_cond", "opcode", "subop", "src1", "src2", "src3"):
        getattr(dut, name).value = 0
    await Timer(25, unit="ns")
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    all_done = (1 << lanes) - 1
    with open(os.environ["FG_BATCHES"]) as src, open(os.environ["FG_RESULTS"], "w") as out:
        for line in src:
            f = line.split()
            if not f:
                continue
            opcode, subop, s32, abs_en, cond, rmode = (int(x) for x in f[:6])  # f[6] is for the scalar processor
            triples = [[int(v, 16) for v in t.split(",")] for t in f[7:]]
            assert len(triples) == lanes, f"batch with {len(triples)} lanes, the design has {lanes}"
            dut.opcode.value, dut.subop.value, dut.s32.value = opcode, subop, s32
            dut.abs_en.value, dut.set_cond.value, dut.rmode.value = abs_en, cond, rmode
            for k, name in enumerate(("src1", "src2", "src3")):
                getattr(dut, name).value = sum(t[k] << (32 * i) for i, t in enumerate(triples))
            dut.enable.value = 1
            for _ in range(MAX_CYCLES):
                await RisingEdge(dut.clk)
                fin = dut.finished.value
                if fin.is_resolvable and int(fin) == all_done:
                    break
            else:
                raise AssertionError(f"fpu_single did not finish within {MAX_CYCLES} cycles: {line.strip()}")
            res = dut.result.value
            if res.is_resolvable:
                word = int(res)
                out.write(" ".join(f"{(word >> (32 * i)) & 0xFFFFFFFF:08x}" for i in range(lanes)) + "\n")
            else:
                text = str(res)  # MSB first
                words = [text[len(text) - 32 * (i + 1): len(text) - 32 * i] for i in range(lanes)]
                out.write(" ".join(f"{int(w, 2):08x}" if set(w) <= {"0", "1"} else "X" for w in words) + "\n")
            dut.enable.value = 0
            await RisingEdge(dut.clk)
            await RisingEdge(dut.clk)
