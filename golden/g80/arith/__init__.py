"""Bit-exact arithmetic of the SM's functional units, vectorised over lanes (numpy uint32 arrays).

intops: integer ALU, multiplier, shifter, logic, conversions (ISA.md section 3).
fp: FP32 add/mul/mad/min/max/set/slct and conversions (FP_SFU.md sections 1-8, appendix A).
sfu: RRO pre-ops and the special functions (FP_SFU.md sections 9-12, sfu_tables.json).
"""
