"""cocotb test: batches of source values through LANES copies of FlexGripPlus's combinational rro.

Same files as test_sfu.py (the batch's first number is the selec_phase: 1 RRO.EX2, 0 RRO.SINCOS).
"""

from __future__ import annotations

import cocotb

from .lanes import combinational_batches


@cocotb.test()
async def rro_batches(dut: object) -> None:
    await combinational_batches(dut)
