"""Semantic profiles (DESIGN.md section 1): `g80` is silicon; `flexgrip` is FlexGripPlus 4.4.

Each FlexGripPlus deviation is one named switch (ISA.md section 9, FLEXGRIPPLUS.md sections 1.4,
2, 4, 6, 9), so a run can waive exactly the differences it means to.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class Profile:
    name: str = "g80"
    # control and launch
    exit_marker_ignored: bool = False  # the exit marker does nothing; kernels end with RET
    ret_pops_any: bool = False  # RET with a non-empty stack pops whatever entry is on top
    partial_warps_full: bool = False  # every warp starts with all 32 lanes active
    param_slot_bytes_pointer: int = 8  # bytes a pointer parameter takes (g80: 64-bit host ABI)
    only_r124_zero: bool = False  # registers past the allocation are ordinary; only R124 reads 0
    areg_32bit: bool = False  # address registers hold 32 bits (G80: 16)
    const_bank_ignored: bool = False  # constant memory is one flat space: the bank of c[bank][off] is ignored
    const_short_unsplit: bool = False  # FP 32-bit forms: c[b][n] reads flat word 32 * b + n (the 6-bit operand field whole)
    global_addr_bits: int = 0  # global addresses keep only their low n bits (0: no wrap; FlexGripPlus: 18, 256 KiB)
    postinc_a4: bool = False  # g [An+++k] accesses $an + k (as g [An+k]) and then adds Rd-field * size to $a4, not k to $an
    # integer arithmetic
    sub_negates_arith: bool = False  # sub/subr: C and O from a + (-b) (two's complement), not a + ~b + 1
    carry16_from_sext: bool = False  # 16-bit add: operands sign-extended, C = bit 16 of the 32-bit sum
    sat_all_ones: bool = False  # saturation on unsigned-style overflow to 0xffffffff / 0xffff, O forced 0
    sign_flag_signed_only: bool = False  # S flag only for signed types (unsigned, untyped ops: S = 0)
    no_shift_flags: bool = False  # shifts write C = O = 0
    i2i_no_clamp: bool = False  # I2I truncates / extends and negates in two's complement, no clamping
    addc_c0_madc_c1: bool = False  # IADD.CARRYn reads $c0 and IMAD with carry $c1, whatever n is
    pass_b_is_not1: bool = False  # LOP.PASS_B computes NOT src1; operand inversions are ignored
    # floating point: whose FPU the FP instructions run on (golden.arith.fp or .flexgrip_fp)
    flexgrip_fpu: bool = False  # FADD/FMUL/FMAD/FSET and conversions as FlexGripPlus's fpu_single computes them
    fpu_sync_lanes: int = 0  # FADD: lanes the execute stage runs through its FPUs together (FlexGripPlus: its SP count); an adder lane reads 0 when another lane of its group takes the slower subtractor (0: off)
    flexgrip_sfu: bool = False  # RCP/RSQ/LG2/EX2/SIN/COS (and RRO) as FlexGripPlus's sfu (and rro) compute them
    fp_flags_from_sp: bool = False  # FSET/FADD/FMUL/FMAD $c as FlexGripPlus's execute stage makes them: FSET S = true, Z = not true; the others Z = 1, S = 0; C = O = 0

    def describe(self) -> list[str]:
        """The switches that differ from g80, for reports."""
        base = Profile()
        return [f.name for f in fields(self) if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)]


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
    flexgrip_sfu=True,
    fp_flags_from_sp=True,
)
PROFILES = {p.name: p for p in (G80, FLEXGRIP)}
