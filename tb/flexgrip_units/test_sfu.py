"""cocotb test: batches of source values through LANES copies of FlexGripPlus's combinational sfu
(file formats in lanes.py)."""

from __future__ import annotations

import cocotb

from .lanes import combinational_batches


@cocotb.test()
async def sfu_batches(dut: object) -> None:
    await combinational_batches(dut)
