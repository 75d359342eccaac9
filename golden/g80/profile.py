"""Semantic profiles (DESIGN.md section 1): `g80` is silicon; `flexgrip` is FlexGripPlus 4.4.

Each FlexGripPlus deviation is one named switch (ISA.md section 9, FLEXGRIPPLUS.md sections 1.4,
2, 4, 6, 9), so a run can waive exactly the differences it means to.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from golden.isa.profile import ProfileBase, switch

# the groups the switches fall in, and each switch's meaning, are field metadata so the manual's
# profile table (docs/_ext) reads them from the dataclass instead of from comments that could drift
_CONTROL = "control and launch"
_INTEGER = "integer arithmetic"
_FP = "floating point"
_DECODE = "integer, memory and address-register decode"


@dataclass(frozen=True)
class Profile(ProfileBase):
    """One semantic profile: every switch at its G80 value unless the profile departs from it."""

    name: str = "g80"
    """`g80` or `flexgrip` (`PROFILES`)."""
    # control and launch
    exit_marker_ignored: bool = switch(False, _CONTROL, "the exit marker does nothing; kernels end with RET")
    ret_pops_any: bool = switch(False, _CONTROL, "RET with a non-empty stack pops whatever entry is on top")
    partial_warps_full: bool = switch(False, _CONTROL, "every warp starts with all 32 lanes active")
    param_slot_bytes_pointer: int = switch(8, _CONTROL, "bytes a pointer parameter takes (g80: 64-bit host ABI)")
    only_r124_zero: bool = switch(False, _CONTROL, "registers past the allocation are ordinary; only R124 reads 0")
    areg_32bit: bool = switch(False, _CONTROL, "address registers hold 32 bits (G80: 16)")
    const_bank_ignored: bool = switch(False, _CONTROL, "constant memory is one flat space: the bank of c[bank][off] is ignored")
    const_short_unsplit: bool = switch(False, _CONTROL, "FP 32-bit forms: c[b][n] reads flat word 32 * b + n (the 6-bit operand field whole)")
    global_addr_bits: int = switch(0, _CONTROL, "global addresses keep only their low n bits (0: no wrap; FlexGripPlus: 18, 256 KiB)")
    postinc_a4: bool = switch(False, _CONTROL, "g [An+++k] accesses $an + k (as g [An+k]) and then adds Rd-field * size to $a4, not k to $an")
    # integer arithmetic
    sub_negates_arith: bool = switch(False, _INTEGER, "sub/subr: C and O from a + (-b) (two's complement), not a + ~b + 1")
    carry16_from_sext: bool = switch(False, _INTEGER, "16-bit add: operands sign-extended, C = bit 16 of the 32-bit sum")
    sat_all_ones: bool = switch(False, _INTEGER, "saturation on unsigned-style overflow to 0xffffffff / 0xffff, O forced 0")
    sign_flag_signed_only: bool = switch(False, _INTEGER, "S flag only for signed types (unsigned, untyped ops: S = 0)")
    no_shift_flags: bool = switch(False, _INTEGER, "shifts write C = O = 0")
    i2i_no_clamp: bool = switch(False, _INTEGER, "I2I truncates / extends and negates in two's complement, no clamping")
    addc_c0_madc_c1: bool = switch(False, _INTEGER, "IADD.CARRYn reads $c0 and IMAD with carry $c1, whatever n is")
    pass_b_is_not1: bool = switch(False, _INTEGER, "LOP.PASS_B computes NOT src1; operand inversions are ignored")
    # floating point: whose FPU the FP instructions run on (golden.g80.arith.fp or .flexgrip_fp)
    flexgrip_fpu: bool = switch(False, _FP, "FADD/FMUL/FMAD/FSET and conversions as FlexGripPlus's fpu_single computes them")
    fpu_sync_lanes: int = switch(0, _FP, "FADD: lanes the execute stage runs through its FPUs together (FlexGripPlus: its SP count); an adder lane reads 0 when another lane of its group takes the slower subtractor (0: off)")
    flexgrip_sfu: bool = switch(False, _FP, "RCP/RSQ/LG2/EX2/SIN/COS (and RRO) as FlexGripPlus's sfu (and rro) compute them")
    fadd_read_in_sm: bool = switch(False, _FP, "FADD (flexgrip_fpu) is read one edge after fpu_single's `finished`, as the SM's execute stage copies it: the subtractor's transients seen on the unit alone do not all reach the register file")
    fp_flags_from_sp: bool = switch(False, _FP, "FSET/FADD/FMUL/FMAD $c as FlexGripPlus's execute stage makes them: FSET S = true, Z = not true; the others Z = 1, S = 0; C = O = 0")

    # integer, memory and address-register decode (golden/g80/flexgrip_decode.py; findings of that block in
    # golden/g80/flexgrip_findings.py)
    c2r_dest_r0: bool = switch(False, _DECODE, "C2R Rd, Cn writes R0 (the decoder has no destination for a flags-to-register move)")
    a0_aliases_a4: bool = switch(False, _DECODE, "A0 as an ADA/A2R source reads $a4, as an R2A/ADA destination writes $a4 (2-bit index)")
    ada_offset_14bit: bool = switch(False, _DECODE, "ADA adds the offset's low 14 bits, subtracted when its bit 13 is set")
    bit25_incr_a4: bool = switch(False, _DECODE, "a control instruction with w0 bit 25 set (BAR's count) rewrites $a4 (incrementer, step 0)")
    short_sat_ignored: bool = switch(False, _DECODE, "IADD32.SAT / IADD32I.SAT do not saturate (.SAT is read from w1 bit 27)")
    lop32i_w32_imm_bit30: bool = switch(False, _DECODE, "LOP32I is 16-bit on half registers unless bit 30 of its immediate is set")
    shared_offset_unsigned: bool = switch(False, _DECODE, "a shared source's offset field is unsigned: g [A1++-0x1] reads $a1 + 31 * 4")
    mov_shared_zero_ext: bool = switch(False, _DECODE, "MOV Rd, g [n].S16/.S8 zero-extends (no conversion on the MOV path)")
    alu_shared_offset_4bit: bool = switch(False, _DECODE, "a long integer instruction's g [n] keeps 4 offset bits (n & 0xf)")
    global_wide_one_byte: bool = switch(False, _DECODE, "GLD/GST .S64/.S128 move one byte per thread (the low byte of Rd)")
    regs_typed_by_decoder: bool = switch(False, _DECODE, "a 16-bit SHL/SHR count and ISET's registers are full registers numbered by the half field")
    i2i_dest8_ignored: bool = switch(False, _DECODE, "I2I to U8/S8 is not reduced to 8 bits, nor a .U32.BEXT/.S32.BEXT source (only 16-bit BEXT extracts a byte)")
    i2i_neg_before_abs: bool = switch(False, _DECODE, "I2I -|x| negates first, then takes |.|: the result is |x|")
    imul_one_sign: bool = switch(False, _DECODE, "IMUL multiplies both operands with the first one's signedness (U16.S16 as U16.U16); .HI gives the low 32 bits")
    shared_addr_bits: int = switch(0, _DECODE, "shared addresses keep their low n bits (0: out of range faults; FlexGripPlus: 14)")
    const_areg_ignored: bool = switch(False, _DECODE, "an integer instruction's c[b][An+n] second operand reads c[n] in every lane")
    const_offset_by_type: bool = switch(False, _DECODE, "integer c[b][n]: flat index scaled by the operand type (16-bit: byte 2n); short forms' bank bit is the index's bit 5")


G80 = Profile()
FLEXGRIP = replace(
    G80,
    name="flexgrip",
    exit_marker_ignored=True,
    ret_pops_any=True,
    partial_warps_full=True,
    # programs/ are written for the 64-bit host ABI (g [0x4], g [0x6], ... for pointers); FlexGripPlus copies
    # parameter words without interpreting them, so a program's slots are its own, not the machine's
    # (its shipped kernels, compiled for 4-byte pointers, come as bundles with explicit parameter words)
    param_slot_bytes_pointer=8,
    only_r124_zero=True,
    areg_32bit=True,
    const_bank_ignored=True,
    const_short_unsplit=True,
    postinc_a4=True,
    global_addr_bits=18,
    sub_negates_arith=True,
    carry16_from_sext=True,
    sat_all_ones=True,
    sign_flag_signed_only=True,
    no_shift_flags=True,
    i2i_no_clamp=True,
    addc_c0_madc_c1=True,
    pass_b_is_not1=True,
    flexgrip_fpu=True,
    fpu_sync_lanes=8,  # FlexGripPlus's default CORES; a lock-step run sets its NUM_SP (tb/sm_env.py)
    fadd_read_in_sm=True,
    flexgrip_sfu=True,
    fp_flags_from_sp=True,
    c2r_dest_r0=True,
    a0_aliases_a4=True,
    ada_offset_14bit=True,
    bit25_incr_a4=True,
    short_sat_ignored=True,
    lop32i_w32_imm_bit30=True,
    shared_offset_unsigned=True,
    mov_shared_zero_ext=True,
    alu_shared_offset_4bit=True,
    global_wide_one_byte=True,
    regs_typed_by_decoder=True,
    i2i_dest8_ignored=True,
    i2i_neg_before_abs=True,
    imul_one_sign=True,
    shared_addr_bits=14,
    const_areg_ignored=True,
    const_offset_by_type=True,
)
PROFILES = {p.name: p for p in (G80, FLEXGRIP)}
