"""cocotb test: batches of operands through LANES copies of FlexGripPlus's combinational scalar_processor.

Reads FG_BATCHES (one batch a line: `opcode subop is_signed unused set_cond unused extra` then LANES
triples `a,b,carry` in hex; extra: bit 0 w32, bit 1 src3_neg, bit 2 saturate, bits 3..5 the
instruction marker) and writes FG_RESULTS: per lane the flags nibble (O C S Z) and the 32-bit
result as 9 hex digits, `X` when unresolvable. harness.py compares.
"""

from __future__ import annotations

import os

import cocotb
from cocotb.triggers import Timer


@cocotb.test()
async def sp_batches(dut: object) -> None:
    lanes = len(dut.carry)
    with open(os.environ["FG_BATCHES"]) as src, open(os.environ["FG_RESULTS"], "w") as out:
        for line in src:
            f = line.split()
            if not f:
                continue
            opcode, subop, signed, _, cond, _, extra = (int(x) for x in f[:7])
            triples = [[int(v, 16) for v in t.split(",")] for t in f[7:]]
            assert len(triples) == lanes, f"batch with {len(triples)} lanes, the design has {lanes}"
            dut.opcode.value, dut.subop.value, dut.is_signed.value, dut.set_cond.value = opcode, subop, signed, cond
            dut.w32.value, dut.src3_neg.value, dut.saturate.value = extra & 1, (extra >> 1) & 1, (extra >> 2) & 1
            dut.marker.value = (extra >> 3) & 7
            dut.src1.value = sum(t[0] << (32 * i) for i, t in enumerate(triples))
            dut.src2.value = sum(t[1] << (32 * i) for i, t in enumerate(triples))
            dut.src3.value = 0
            dut.carry.value = sum((t[2] & 1) << i for i, t in enumerate(triples))
            await Timer(1, unit="ns")
            res, flags = dut.result.value, dut.flags.value
            if res.is_resolvable and flags.is_resolvable:
                r, fl = int(res), int(flags)
                out.write(" ".join(f"{(fl >> (4 * i)) & 15:x}{(r >> (32 * i)) & 0xFFFFFFFF:08x}" for i in range(lanes)) + "\n")
            else:
                out.write(" ".join(["X"] * lanes) + "\n")
