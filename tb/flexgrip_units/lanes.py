"""Batches of source values through LANES copies of a combinational FlexGripPlus unit (sfu, rro).

Reads FG_BATCHES (one batch a line: `selop` and six unused numbers, then LANES source values in
hex) and writes FG_RESULTS (LANES results in hex, `X` for an unresolvable one); harness.py compares.
"""

from __future__ import annotations

import os

from cocotb.triggers import Timer


def _words(value: object, lanes: int) -> list[str]:
    if value.is_resolvable:
        word = int(value)
        return [f"{(word >> (32 * i)) & 0xFFFFFFFF:08x}" for i in range(lanes)]
    text = str(value)  # MSB first
    chunks = [text[len(text) - 32 * (i + 1): len(text) - 32 * i] for i in range(lanes)]
    return [f"{int(w, 2):08x}" if set(w) <= {"0", "1"} else "X" for w in chunks]


async def combinational_batches(dut: object) -> None:
    lanes = len(dut.src1) // 32
    with open(os.environ["FG_BATCHES"]) as src, open(os.environ["FG_RESULTS"], "w") as out:
        for line in src:
            f = line.split()
            if not f:
                continue
            values = [int(v.split(",")[0], 16) for v in f[7:]]
            assert len(values) == lanes, f"batch with {len(values)} lanes, the design has {lanes}"
            dut.selop.value = int(f[0])
            dut.src1.value = sum(v << (32 * i) for i, v in enumerate(values))
            await Timer(1, unit="ns")  # combinational: let the deltas settle
            out.write(" ".join(_words(dut.result.value, lanes)) + "\n")
