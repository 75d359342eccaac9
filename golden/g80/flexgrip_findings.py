"""FlexGripPlus 4.4 behaviours found by running programs on it in lock-step with the golden model
(`make sim DUT=flexgrip`, tb/adapters/flexgrip.py), one entry each.

Every divergence is either a golden-model bug (fixed in the model, not listed here) or one of these
behaviours. `handling` says how lock-step treats it:
- `profile:<switch>`: golden/g80/profile.py models it under the flexgrip profile;
- `loader`: the FlexGripPlus loader adapts the program, as FlexGripPlus's users do by hand;
- `waiver`: a mismatch of an instruction of `forms` on no field other than `fields` is not a
  failure: the model takes FlexGripPlus's register, flag and address-register writes of that
  instruction instead of its own (the lanes that executed), lock-step goes on, and the run's
  outcome names the waiver and how often it applied (tb/scoreboard.py, `Waiver`); a control-flow
  form (no register writes) may have its commit record's `exec_mask` waived. `WAIVE=none`
  (make) turns waivers off.
`bug` marks what looks like a genuine FlexGripPlus bug (docs/reference/findings.md lists them), not a documented
departure from G80.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .profile import Profile


@dataclass(frozen=True)
class Finding:
    name: str
    description: str
    first: str  # the first instruction that shows it: program, PC, disassembly
    program: str  # a program that reproduces it (path from the project root: programs/ or a testdata/vectors bundle)
    handling: str
    bug: bool
    forms: tuple[str, ...] = ()  # waiver: the instruction forms it covers (golden/g80/table.py names)
    fields: frozenset[str] = frozenset()  # waiver: the commit fields it may differ on
    when: tuple[tuple[str, int, int], ...] = ()  # waiver: (instruction field, mask, value) it also needs (golden/g80/table.py names)
    dut_value: int | None = None  # waiver: only when FlexGripPlus wrote this value in every lane that differs


FINDINGS: tuple[Finding, ...] = (
    Finding(
        "exit_marker_ignored",
        "The exit marker (.E) does nothing: a warp runs on past its last instruction into whatever the instruction memory holds "
        "(zeros) and never finishes. Kernels must end with RET.",
        "vecadd PC 0x48 (the word after GST.E.U32 global14[R0], R1)",
        "programs/vecadd.sass",
        "profile:exit_marker_ignored + loader (golden/g80/run.code_words appends RET, as every shipped FlexGripPlus kernel has by hand)",
        False,
    ),
    Finding(
        "c2r_writes_r0",
        "C2R Rd, Cn writes R0 instead of Rd: Decode/pipeline_decode.vhd's dest_i selection has no case for a MOV of type "
        "LOAD from FLAGS (opcode 0, sub-op 1), so the destination falls to (others => '0'). The value is the flags nibble, "
        "as on G80.",
        "iadd PC 0x60: C2R R6, C1 (FlexGripPlus writes R0, the model R6)",
        "programs/iadd.sass",
        "profile:c2r_dest_r0",
        True,
    ),
    Finding(
        "r2c_flag_values",
        "R2C Cn, Rk does not copy the low 4 bits of Rk into $cn: pipeline_execute.vhd takes C and O from the instruction's "
        "second-source slot (TEMP_REG_SRC2, not Rk) and the write stage replaces Z and S by the scalar processor's zero and "
        "sign of a stale operation.",
        "fadd PC 0x38: R2C C3, R1 (also sfu PC 0x18)",
        "programs/fadd.sass",
        "waiver",
        True,
        ("R2C",),
        frozenset({"cc"}),
    ),
)

FINDINGS += (
    Finding(
        "fp_flags_from_sp",
        "An FP instruction's $c write is not the G80 float flags of its result: pipeline_execute.vhd sets, for FSET, S = the "
        "comparison and Z = its negation, and for FADD/FMUL/FMAD Z and S from the scalar processor, which computed "
        "nothing for them (Z = 1, S = 0); C and O are 0.",
        "cos_soft (bundle) PC 0x30: FSET.C0 o[0x7f], R0, c[0x1][0x0], GT (FlexGripPlus 0x2, the G80 flags of 0xffffffff 0x3)",
        "testdata/vectors/flexgrip_kernels/cos_soft.txt",
        "profile:fp_flags_from_sp",
        False,
    ),
)

FINDINGS += (
    Finding(
        "sfu_tables",
        "RCP, RSQ, LG2, EX2, SIN and COS come from FlexGripPlus's SFU (quadratic interpolation over its own ROM tables, "
        "Execution/SFU), not G80's: results differ in the last bits, and for special operands by more. Modelled bit for bit "
        "(golden/g80/arith/flexgrip_sfu.py, checked against the unit under GHDL); in lock-step the last two differences in sfu "
        "were the register RCP32 |R4| reads (sfu_short_abs_register), not the tables.",
        "sfu PC 0x40: RCP R6, R4 (8 lanes differ from G80, e.g. 0x3f2aaaab vs 0x3f2aaaaa)",
        "programs/sfu.sass",
        "profile:flexgrip_sfu",
        False,
    ),
    Finding(
        "sfu_short_abs_register",
        "RCP32 R6, |R4| (the 32-bit form with |.|, bit 15) reads R68: pipeline_decode.vhd takes an SFU instruction's first "
        "source from bits 15:9 whatever the format (src1_i, lines 629-631), so the short form's |.| bit becomes bit 6 of the "
        "register number; R68 is past the allocation and reads 0, and RCP gives +inf in every lane. The SFU applies no "
        "|.| or - itself (it reads the register as it is). Modelled: golden/g80/execute.exe_sfu.",
        "sfu PC 0x210: RCP32 R6, |R4| (FlexGripPlus 0x7f800000 in every lane)",
        "programs/sfu.sass",
        "profile:flexgrip_sfu",
        True,
    ),
    Finding(
        "bar_writes_a4",
        "BAR rewrites $a4 with its own value: the decoder's addr_incr_i is instruction_in(25) for every instruction "
        "(Decode/pipeline_decode.vhd), BAR's barrier count 0xfff sets w0 bit 25, and the write stage's CHECK_INCREMENT_ADDR "
        "(Write/pipeline_write.vhd) then runs increment_address on register number 0 ($a4, as for postinc_increments_a4) "
        "with the destination field, 0 for a control instruction, as the step. Seen in the GHDL run as an $a4 write of the "
        "unchanged value.",
        "cf_barrier PC 0x40: BAR.ARV.WAIT b0, 0xfff",
        "programs/cf_barrier.sass",
        "profile:bit25_incr_a4",
        True,
    ),
    Finding(
        "iaddc_operand",
        "IADD.CARRYn Rd, Ra, Rb (64-bit form) computes Ra[15:0] + X + C in 16 bits, X being a stale value, not Rb: "
        "FlexGripPlus decodes add-with-carry as IADDC (is_carry_b: opcode 3 with bit 22 set), and "
        "Decode/pipeline_decode.vhd has no IADDC case in w32_i ('0': ScalarProcessor/integer_add_subtract.vhd adds 16 "
        "bits, zero-extended) nor in src2_data_type_i (DT_NONE), so Read/read_source_ops.vhd goes straight to DONE for "
        "the second source and hands on its data_o unchanged: per SP, the second source the read stage fetched last "
        "(GHDL, iadd: + 0x80 in every lane, R15 of the IADD R3, R3, R15 before it). It depends on the instruction order "
        "and the warp schedule: a waiver. The edge application uses IADD.CARRYn.",
        "iadd PC 0x168: IADD.CARRY1 R6, R4, R5 (lane 2: FlexGripPlus 0x7f = 0xffff + 0x80, 16 bits)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("IADD",),
        frozenset({"gpr", "cc"}),
        (("addop", 0x3, 3),),
    ),
    Finding(
        "fp_lanes_zero",
        "FADD writes 0 in a lane whose true operands (negations applied) are both positive when another lane of the same "
        "sub-warp (the NUM_SP lanes that go through the execute stage together, masked lanes included) has a negative one. "
        "fpu_single (FPU/fpu_top_32_new.vhd) routes the first lane to its adder (WORK 15 cycles) and the second to its "
        "subtractor (16 cycles); it raises `finished` one cycle into DONE, leaves DONE two cycles later and clears out_fp in "
        "IDLE. pipeline_execute.vhd waits in ALU_EXEC for every SP's `finished` (and_reduce(fpu_work_finished)) and copies "
        "fp_result_o one edge later in ALU_DONE, when the adder lanes' units are already back in IDLE. Seen in the waves "
        "(fadd, sub-warp 0 of PC 0x48: fpu_work_finished 0x61, 0xff, then 0x9e at the copy edge, out_fp of SP 0 0x40000000 "
        "then 0). Modelled: golden/g80/execute._fg_fadd_sync; a lock-step run sets the group to its NUM_SP, run-flexgrip to the "
        "bundle's CORES.",
        "fadd PC 0x48: FADD R6, R4, R5 (lane 0, 1.0 + 1.0: FlexGripPlus 0; lane 1 of its sub-warp is -1.0 + 1.0)",
        "programs/fadd.sass",
        "profile:fpu_sync_lanes",
        True,
    ),
    Finding(
        "fp_rounding_mode_bits",
        "The FPU's rounding mode is instruction bits 52:51, not the rounding field: streaming_multiprocessor.vhd line 815 "
        "connects pipeline_execute's cvt_round_in to abs_saturate_re (pipeline_decode.vhd line 411: bits 52:51, 00 for "
        "the immediate forms), and the decoder's cvt_round (line 414: FADD bits 17:16, FMUL 47:46, others 50:49) is read by "
        "nothing. So FADD.TRUNC, FMUL.TRUNC and FMAD's rounding suffixes round to nearest, and a long form with bit 51 or "
        "52 set truncates. Seen in the waves (fadd: round_mode stays 00 through FADD.TRUNC at PC 0x60, word 0xb0030819). "
        "Modelled: golden/g80/execute._fg_rmode.",
        "fadd PC 0x60: FADD.TRUNC R6, R4, R5 (lane 27: FlexGripPlus 0xc35c5aea, round to nearest; truncated 0xc35c5ae9)",
        "programs/fadd.sass",
        "profile:flexgrip_fpu",
        True,
    ),
    Finding(
        "fp_imm_forms",
        "FADD32I/FMUL32I/FMAD32I (the 64-bit immediate forms) are decoded with the long forms' fields: the first source "
        "register is 7 bits 15:9 (pipeline_decode.vhd line 625), so G80's negation bit 15 makes -R5 read R69, unnegated "
        "(src1_neg_i is 0 for FADD/FMUL immediates, line 431); the negated-immediate bit 22, -(..), does nothing (src2_neg_i "
        "is 0 for the immediate forms, line 443); the destination is 7 bits 8:2 (dest_i, line 702), so .SAT (bit 8) "
        "writes R(d + 64) (and FMAD32I reads its third source there, line 692); a shared source g [n] is read with the "
        "long forms' 5-bit offset 13:9 (line 627), which takes the low bit of the short-style type field 14:13: a 16- or "
        "32-bit g [n] reads g [n + 0x10]. Confirmed in lock-step: cos_soft's FADD32I R5, -R5, 1.0 gives 1.0 (R69 reads 0), "
        "a probe program reading g [0x6] through FADD32I got g [0x16], and the FPU's operand registers (opa_true_reg) in "
        "the waves hold 0 for fadd's FADD32I R6, g [0x4], ... Modelled: golden/g80/execute._fg_src1, _fg_regs.",
        "cos_soft (bundle) PC 0x98: FADD32I R5, -R5, 0x3f800000 (FlexGripPlus 1.0 in every lane: R69 + 1.0)",
        "testdata/vectors/flexgrip_kernels/cos_soft.txt",
        "profile:flexgrip_fpu",
        True,
    ),
    Finding(
        "fp_sat_not_decoded",
        "FADD.SAT and FMAD.SAT (the long forms' .SAT, bit 61) write 0: pipeline_decode.vhd decodes FADD/FMUL/FMAD only when "
        "bits 63:61 are 000 (alu_opcode_i, lines 521-523), so with bit 61 set the ALU opcode is UNKNOWN, the FPU is not "
        "started (fpu_en stays 0 in the waves) and the scalar processor's result for an opcode it does not know is 0 "
        "(scalar_processor.vhd, result_out). Its $c write is the scalar processor's flags of 0 (Z = 1, S = 0), as "
        "fp_flags_from_sp gives. Modelled: golden/g80/execute._fg_arith.",
        "fadd PC 0xc0: FADD.SAT R6, R4, R5 (FlexGripPlus 0 in every lane)",
        "programs/fadd.sass",
        "profile:flexgrip_fpu",
        True,
    ),
    Finding(
        "short_const_unsplit",
        "The constant operand c[b][n] of a 32-bit FP instruction (FADD32/FMUL32/FMAD32) is read at flat constant word "
        "32 * b + n: the decoder passes the short form's whole 6-bit operand field (bits 21:16, bank bit and offset) as the "
        "address (pipeline_decode.vhd src2_i, line 663), where a long form's bank is ignored (const_bank_ignored). fadd's "
        "FADD32 R11, R4, c[0x1][0x0] reads word 32 (0); a probe program with 3.0 at word 32 and -2.0 at c[0x1][0x0] got "
        "R4 + 3.0. The integer finding iadd32_const_operand (IADD32 Rd, Ra, c[0x1][0x1] reads 0: word 33) fits the same "
        "decoder path. Modelled for the FP forms: golden/g80/execute._fg_read.",
        "fadd PC 0x1ac: FADD32 R11, R4, c[0x1][0x0] (FlexGripPlus R4 + 0)",
        "programs/fadd.sass",
        "profile:const_short_unsplit",
        True,
    ),
)

FINDINGS += (
    Finding(
        "lop32i_dest",
        "LOP32I is a 16-bit operation on half registers unless bit 30 of its immediate is set: the decoder's w32_i for "
        "AND/OR/XOR/NEG is instruction_in(58) whatever the format (Decode/pipeline_decode.vhd), and in an immediate form "
        "bit 58 is the immediate's bit 30 (imm_hi_i = instruction_in(59 downto 34)). LOP32I.AND R5, R5, 0x7f therefore "
        "reads and writes half register 5, R2's upper half (GHDL: the register file written at R2, high half; R5 keeps "
        "its value). The same decoder reads LOP32I's destination as instruction_in(8 downto 2), seven bits whose top bit "
        "is the low bit of LOP32I's lop field (.OR, .PASS_B), and its operation as logic_type_b = instruction_in(47 "
        "downto 46), bits 19:18 of the immediate: LOP32I.OR R6, ~R4, 0xf0f0f0f writes half register 70 (R35L) with "
        "NEG_OP (lop PC 0x2c0).",
        "cf_barrier PC 0x50: LOP32I.AND R5, R5, 0x7f",
        "programs/cf_barrier.sass",
        "profile:lop32i_w32_imm_bit30",
        True,
    ),
    Finding(
        "rro_unit",
        "RRO (range reduction before SIN/COS/EX2) comes from FlexGripPlus's own RRO unit (Execution/RRO), whose output is "
        "not G80's format. Modelled bit for bit (golden/g80/arith/flexgrip_rro.py, with the 2023 fix of upstream PR #3); sfu's "
        "RRO instructions match in lock-step, so the former waiver is gone.",
        "sfu PC 0x130: RRO R6, R4, SIN",
        "programs/sfu.sass",
        "profile:flexgrip_sfu",
        False,
    ),
)

FINDINGS += (
    Finding(
        "shared_offset_4_bits",
        "A shared-memory first operand g [n] of a long integer instruction keeps 4 offset bits (n & 0xf): "
        "Decode/pipeline_decode.vhd's src1_i takes instruction_in(12 downto 9) for '(ALU) and (src1 shared) and "
        "(long)'; the case after it, with the 5 bits 13:9 G80 has, tests the same condition and is never reached "
        "(FADD/FMUL/FMAD have their own 13:9 case). sfu reads its seventh pointer parameter, g [0x10], as the header word "
        "g [0x0] (0x00400000 for blockDim.x 64).",
        "sfu PC 0x170: IADD R3, g [0x10], R2",
        "programs/sfu.sass",
        "profile:alu_shared_offset_4bit",
        True,
    ),
)

FINDINGS += (
    Finding(
        "areg_32bit",
        "Address registers hold 32 bits (address_register_file.vhd); G80's hold 16, so R2A/ADA results keep their upper half.",
        "areg PC 0x60: R2A A2, R4, 0x4 (FlexGripPlus 0x10203040, G80 0x3040)",
        "programs/areg.sass",
        "profile:areg_32bit",
        False,
    ),
    Finding(
        "brk_all_threads",
        "BRK with every active thread breaking does not return to the PBK target: the warp goes on at the next instruction "
        "with an empty mask (the model, as G80: PBK target 0x60 with the full mask). Cause in "
        "Execution/branch_exec_unit.vhd: CHECK_BREAK runs once per sub-warp pass (32 / NUM_SP passes) and, unlike "
        "CHECK_PREBREAK, CHECK_JOIN and CHECK_RETURN, has no warp_lane_id_in = \"00\" guard around its stack access: the "
        "first pass pops the PBK entry (target 0x60, full mask), the next pass finds the stack empty and takes the "
        "empty-stack branch (next PC = the BRK's next PC, mask = current and not instruction mask = 0), which the last "
        "pass leaves. This fits the GHDL run (next PC 0x58, mask 0); what follows (a warp running on with mask 0) "
        "depends on the pass count and the stack depth and is not modelled, so cf_break stops here.",
        "cf_break PC 0x50: BRK C0.NE (FlexGripPlus next PC 0x58, mask 0)",
        "programs/cf_break.sass",
        "open",
        True,
    ),
)

FINDINGS += (
    Finding(
        "cvt_flags",
        "F2F/F2I/I2F with a $c write take Z and S from the scalar processor, which runs its integer CVT "
        "(ScalarProcessor/convert_int_int.vhd) on the same source while the FPU converts (pipeline_execute.vhd, "
        "gPredicateFlags: sp_zero_o / sp_sign_o when set_pred): Z = that integer value is 0, S = its sign for a signed "
        "conversion (is_signed_i: bit 59 for F2I, bit 48 for I2F), not the flags of the FPU's result. f2f's "
        "F2F.F32.F32.C1 o[0x7f], R4 writes 0 where the G80 flags of the result are Z. Modelled: golden/g80/execute._fg_cvt_flags; "
        "f2f, f2i and i2f pass without the former waiver.",
        "f2f PC 0x1a8: F2F.F32.F32.C1 o[0x7f], R4",
        "programs/f2f.sass",
        "profile:fp_flags_from_sp",
        False,
    ),
)

FINDINGS += (
    Finding(
        "fp_long_operand_bits",
        "The long FMUL, FMAD and FSET take their second source from field 22:16 as a constant word when bit 54 is set "
        "(instr_src2_const_i, pipeline_decode.vhd line 386) and as the field's value itself when bit 52 is set and no address "
        "register is named (addr_imm_i, line 605, and Read/read_source_ops.vhd: src2 = addr_in when addr_imm_in = '1'). "
        "Bit 54 is the low bit of G80's constant-bank field, which G80's FMAD uses for its rounding hint: FMAD.FLOOR/.TRUNC "
        "R6, R4, R5, R7 read c[5] (0 in fmad: the result is R7) and c[0x0][n] reads Rn; bit 52 is FSET's |src1| (and "
        "the high bit of the rounding mode, fp_rounding_mode_bits): FSET R6, |R4|, R5, LT compares with the number 5 "
        "(seen in the waves: fpu_single src2_in = 0x00000005 in every lane). FMAD's third source is a constant word "
        "(52:46) only when bits 54 and 24 are both set (line 393), else register 51:46. Modelled: golden/g80/execute._fg_regs.",
        "fmad PC 0xe8: FMAD.FLOOR R6, R4, R5, R7 (FlexGripPlus R7 in every lane: c[5] * R4 + R7 with c[5] = 0)",
        "programs/fmad.sass",
        "profile:flexgrip_fpu",
        True,
    ),
    Finding(
        "fmad32_third_source",
        "FMAD32 Rd, Ra, Rb, Rd (the 32-bit form, third source = the destination in G80) adds R0: src3_i falls to the generic "
        "ALU case, bits 52:46 (pipeline_decode.vhd line 695), which a 32-bit instruction does not have (the fetch stage "
        "clears them); with bit 24 (its shared-source flag) set, constant word 0 instead (line 393). fmad's FMAD32 R8, R4, "
        "R5, R8 gives R4 * R5 + R0 (lane 0: 0x3f800002, R0 = 0). Modelled: golden/g80/execute._fg_regs.",
        "fmad PC 0x200: FMAD32 R8, R4, R5, R8",
        "programs/fmad.sass",
        "profile:flexgrip_fpu",
        True,
    ),
    Finding(
        "cvt_negated_source",
        "F2I and I2F with G80's source negation (bit 61) are not run by the FPU: bit 61 is the low bit of the sub-op "
        "field 63:61, which turns F2I's 100 into 101 and I2F's 010 into 011; pipeline_execute.vhd enables the FPU only for "
        "sub-ops 111, 110, 100 and 010 (fpu_en), so the scalar processor's integer CVT (convert_int_int.vhd: the type "
        "bits 48:46 keep 16 or 8 bits or sign-extend them, no negation for these sub-ops) gives the result: F2I.S32.F32 "
        "R6, -R4 writes R4's bits. (F2F's 110 becomes 111, the FPU's NEG, which is what G80 means.) Modelled: "
        "golden/g80/execute._fg_cvt, golden/g80/arith/flexgrip_fp.sp_convert.",
        "f2i PC 0x198: F2I.S32.F32 R6, -R4 (FlexGripPlus writes R4 unconverted, e.g. 0x3f000000)",
        "programs/f2i.sass",
        "profile:flexgrip_fpu",
        True,
    ),
    Finding(
        "cvt_source_read",
        "A conversion's shared source g [n] is read at the 7-bit field 15:9 (pipeline_decode.vhd src1_i: the FCONV case, "
        "line 626, comes before the shared-source cases), the type bits 15:14 included: F2F/F2I ... g [0x4] (32-bit) "
        "read g [0x64], 0 in f2f and f2i. A low half register read with an 8-bit conversion type (bits 48:46 = 010 or "
        "110: cvt_type_to_data_type DT_U8/DT_S8, the source's data type for every CVT) keeps 8 bits "
        "(vector_register_controller.vhd READ_REGS: and x\"000000FF\"), unextended: I2F.F32.S16.BEXT R6, R4L converts "
        "R4's low byte. Modelled: golden/g80/execute._fg_cvt_src.",
        "f2f PC 0x1e8: F2F.F32.F32.TRUNC R6, g [0x4] (FlexGripPlus 0 in every lane); i2f PC 0x158: I2F.F32.S16.BEXT R6, R4L "
        "(0xffff gives 255.0)",
        "programs/f2f.sass",
        "profile:flexgrip_fpu",
        True,
    ),
)

FINDINGS += (
    Finding(
        "postinc_increments_a4",
        "A post-increment operand g [An+++k] is read at $an + k, as if it had no post-increment, and then $a4 (not $an) "
        "grows by the instruction's destination field times the access size (not by k): pipeline_write.vhd ties the register "
        "number it gives increment_address to 0 (inc_addr_reg_i <= 0), which the address-register file reads and writes as "
        "$a4, and passes dest_in as the increment. $an keeps its value.",
        "iadd PC 0x230: IADD R6, g [A1+++0x1], -R4 (FlexGripPlus reads shared[A1 + 4], b of the next lane, and sets "
        "$a4 = 0x18 = 6 * 4; the model, as G80, reads shared[A1] and sets $a1 = A1 + 4)",
        "programs/iadd.sass",
        "profile:postinc_a4",
        True,
    ),
)

FINDINGS += (
    Finding(
        "global_addr_18bit",
        "Global addresses are the low 18 bits of the register (FlexGripPlus's global memory is 256 KiB and its port 18 bits "
        "wide), so an address past it wraps instead of faulting. Seen in sfu only after the waived shared_offset_4_bits has "
        "made a pointer wrong (0x00400000 wraps to 0).",
        "sfu PC 0x198 (a GST to 0x400000)",
        "programs/sfu.sass",
        "profile:global_addr_bits",
        False,
    ),
)

FINDINGS += (
    Finding(
        "iadd16_subr_cc",
        "A 16-bit subtract-reversed (-a + b, FlexGripPlus's ISUB) reads its first source and writes its destination as "
        "full registers numbered by the half-register fields: Decode/pipeline_decode.vhd's src1_data_type_i and "
        "dest_data_type_i have no ISUB case (DT_U32), while src2_data_type_i has one (reg_to_data_type) and w32_i makes the "
        "add 16-bit. IADD.SAT.U16.C2 R6H, -R4L, R5L computes -R8[15:0] + R5L and writes R13 (GHDL: register 13 written, "
        "the flags of that sum).",
        "iadd PC 0x358: IADD.SAT.U16.C2 R6H, -R4L, R5L (FlexGripPlus writes R13)",
        "programs/iadd.sass",
        "profile:regs_typed_by_decoder",
        True,
    ),
)

FINDINGS += (
    Finding(
        "ada_negative_offset",
        "ADA An, Am, imm16 adds only the offset's low 14 bits, and subtracts them when bit 13 is set: the decoder's second "
        "source for ADA is src2_i = instruction_in(22 downto 9) (Decode/pipeline_decode.vhd), the execute stage runs ADA "
        "as IADD (Execution/pipeline_execute.vhd, the ADA case), and the scalar processor negates IADD's second operand "
        "with src3_neg_in (ScalarProcessor/scalar_processor.vhd, src_b_neg_i), which the decoder takes from "
        "instruction_in(22), the offset's bit 13. ADA A1, A1, 0xffff adds -0x3fff (GHDL: 0xffffc001 + tid), G80 0xffff; "
        "0x100 and 0x1234 add exactly.",
        "areg PC 0xc0: ADA A1, A1, 0xffff (lane 0: FlexGripPlus 0xffffc001, model 0xffff)",
        "programs/areg.sass",
        "profile:ada_offset_14bit",
        True,
    ),
)

FINDINGS += (
    Finding(
        "const16_halfword_offset",
        "The constant operand c[b][n] of a 16-bit integer instruction is read at byte 2n of the flat constant space: "
        "Read/read_source_ops.vhd takes an ALU constant's address from calculate_address.vhd, which shifts the field by "
        "the operand's data type (DT_U16: sll 1, DT_U32: sll 2). The model reads the 32-bit slot at byte 4n and uses its "
        "low half (ISA.md's reading); GHDL: IADD.U16 R6H, R4L, c[0x1][0x1] adds 0x8000, the upper half of the word at byte "
        "0 (0x80000001). Which reading G80 has is not settled by the project's references; the flexgrip profile models "
        "FlexGripPlus's.",
        "iadd PC 0x3d0: IADD.U16 R6H, R4L, c[0x1][0x1] (lane 0: FlexGripPlus 0x8000, model 0x0010)",
        "programs/iadd.sass",
        "profile:const_offset_by_type",
        False,
    ),
)

FINDINGS += (
    Finding(
        "iadd32_sat_ignored",
        "IADD32.SAT (the 32-bit encoding, .SAT in w0 bit 8) does not saturate: Decode/pipeline_decode.vhd's saturate_i "
        "is instruction_in(59) (w1 bit 27) for every non-immediate form, which a 32-bit instruction does not have (its "
        "upper word is 0), and '0' for immediate forms (IADD32I.SAT, iadd32i_sat_dest). The lanes that overflow get the "
        "wrapped sum (0x7fffffff + 1 gives 0x80000000).",
        "iadd PC 0x414: IADD32.SAT R7, R4, R5 (lane 3: FlexGripPlus 0x80000000, model 0xffffffff)",
        "programs/iadd.sass",
        "profile:short_sat_ignored",
        True,
    ),
    Finding(
        "a0_not_zero",
        "A0 read as an ADA or A2R source is $a4: the read stage asks the address-register file for register "
        "(n - 1)(1 downto 0) + 1 on 2 bits (Read/read_source_ops.vhd, ADDR_REGS_REQUEST), which is 0, $a4's slot, for "
        "n = 0 (A1-A3 are 1-3, A4 0). In the GHDL run ADA A2, A0, 0x1234 gives $a4 + 0x1234 and A2R R6, A0 gives $a4 "
        "(0x02040608 in lane 0, the value R2A A4, R4, 0x1 left there).",
        "areg PC 0xe0: ADA A2, A0, 0x1234 (model 0x1234 in every lane); areg PC 0x100: A2R R6, A0",
        "programs/areg.sass",
        "profile:a0_aliases_a4",
        True,
    ),
)

FINDINGS += (
    Finding(
        "iadd32_const_operand",
        "The constant operand of a 32-bit-encoded integer instruction, IADD32 Rd, Ra, c[b][n], is flat word 32 * (b & 1) "
        "+ n: Decode/pipeline_decode.vhd's src2_i for a 32-bit ALU instruction is instruction_in(21 downto 16), six bits "
        "whose top bit is G80's bank bit, and constant memory is one flat space (const_bank_ignored). iadd's c[0x1][0x1] "
        "is read at byte 0x84, which holds 0 (GHDL: every lane Ra + 0).",
        "iadd PC 0x4a8: IADD32 R6, R4, c[0x1][0x1] (lane 0: FlexGripPlus 0, model 0x00010010)",
        "programs/iadd.sass",
        "profile:const_offset_by_type",
        True,
    ),
)

FINDINGS += (
    Finding(
        "iadd32_carry",
        "IADD32.CARRYn / IADD32I.CARRYn (the 32-bit and immediate encodings of add with carry) compute Ra[15:0] + X + C "
        "with X the read stage's stale second source, as the long form (iaddc_operand: IADDC has no w32_i and no "
        "src2_data_type_i case in Decode/pipeline_decode.vhd). GHDL, iadd: at PC 0x4ac X is 0 in every lane (the IADD32 "
        "before it read the constant 0; 1 + 1 gives 1, 0x7fffffff + 1 gives 0xffff), at PC 0x4b4 X is R5L of lanes 24-31 "
        "(the last sub-warp pass of the IADD32.SAT.U16 before it), the same in lanes 0, 8, 16, 24. A waiver.",
        "iadd PC 0x4ac: IADD32.CARRY0 R8, R4, R5 (also 0x4b4, and IADD32I.CARRY0 R6, R4, 0x0 at 0x5c0)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("IADD32", "IADD32I"),
        frozenset({"gpr", "cc"}),
        (("addop", 0x3, 3),),
    ),
    Finding(
        "a0_writes_a4",
        "R2A A0, Rk, n writes $a4: the write stage takes the address register number as dest_in(1 downto 0) "
        "(Write/pipeline_write.vhd, dest_mem_type_in = ADDRESS), so A0 and A4 are the same slot (a0_not_zero). G80 drops "
        "writes to A0.",
        "areg PC 0x118: R2A A0, R4, 0x2 (FlexGripPlus writes $a4, the model nothing)",
        "programs/areg.sass",
        "profile:a0_aliases_a4",
        True,
    ),
)

FINDINGS += (
    Finding(
        "iadd32i_sat_dest",
        "IADD32I.SAT R6, R4, imm writes R70 (R6 + 64), not R6: Decode/pipeline_decode.vhd's dest_i for a long ALU "
        "instruction is instruction_in(8 downto 2), and in the immediate form bit 8 is G80's .SAT (which saturate_i, '0' for "
        "immediate forms, ignores: iadd32_sat_ignored). R70 lies past the program's register allocation, so what it "
        "aliases in FlexGripPlus's register file depends on the warp layout: a waiver, not a switch.",
        "iadd PC 0x530: IADD32I.SAT R6, R4, 0x7fffffff (FlexGripPlus writes R70)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("IADD32I",),
        frozenset({"gpr", "cc"}),
        (("m8", 0x1, 1),),
    ),
    Finding(
        "r2a_shared_source",
        "R2A An, g [n], k with a shared-memory source does not read g [n]: the decoder's src1_i for R2A (ADDRESS_MEM) is "
        "instruction_in(14 downto 9), six bits that take in the operand type's low bit (g [0xa].U32 becomes offset 0x2a; "
        "Decode/pipeline_decode.vhd). In the GHDL run every lane gets 0x200000 << 2, and 0x00200000 is the shared header "
        "word g [0x0] for blockDim.x 32, so the read lands on the header; how 0x2a becomes 0 is not traced (waves not "
        "read), hence a waiver.",
        "areg PC 0x138: R2A A3, g [0xa], 0x2 (FlexGripPlus 0x800000, model 0x48d14)",
        "programs/areg.sass",
        "waiver",
        True,
        ("R2A",),
        frozenset({"addr"}),
        (("src1_s", 0x1, 1),),
    ),
)

FINDINGS += (
    Finding(
        "gld64_one_register",
        "GLD/GST .S64 and .S128 move one byte per thread: the read and write stages take a global access's size from "
        "Read/convert_data_types.vhd's mv_size_to_data_type, which has no 64- or 128-bit entry (DT_NONE), and "
        "global_memory_controller.vhd's pMemorySize gives DT_NONE one byte. GLD.S64 Rd writes Rd only (the probe sees one "
        "register written); GST.S64 stores 32 bytes for 32 threads where G80 stores 256.",
        "global PC 0xc0: GLD.S64 R8, global14[R5] (FlexGripPlus writes R8, the model R8 and R9); PC 0x210 GST.S64",
        "programs/global.sass",
        "profile:global_wide_one_byte",
        True,
    ),
)

FINDINGS += (
    Finding(
        "imax_results",
        "IMAX/IMIN compare in 16 bits, unsigned, against a stale second operand: MAX and MIN appear in "
        "Decode/pipeline_decode.vhd's alu_opcode_i only, in none of w32_i ('0': ScalarProcessor/min_max.vhd's 16-bit "
        "path), is_signed_i ('0') and src2_data_type_i (DT_NONE: Read/read_source_ops.vhd skips the read and passes on "
        "the second source it fetched last, per SP). GHDL: max(0, 0) gives 0x60, a value of the previous instruction's "
        "second source. That depends on the instruction order: a waiver.",
        "iminmax PC 0x40: IMAX R6, R4, R5 (lane 0: FlexGripPlus 0x60, model 0)",
        "programs/iminmax.sass",
        "waiver",
        True,
        ("IMAX", "IMIN"),
        frozenset({"gpr", "cc"}),
    ),
    Finding(
        "i2i_u8_not_truncated",
        "I2I to an 8-bit type (I2I.U8.S32 Rd, Ra) is not reduced to 8 bits: ScalarProcessor/convert_int_int.vhd extends "
        "by the source type only (cvt_type_i = instruction_in(48 downto 46); S32: unchanged) and the result is written at "
        "the register's width (dest_data_type_i: reg_to_data_type for CVT), so the destination's 8-bit type is never "
        "applied. GHDL lane 2: 0xffffffff where G80 (and i2i_no_clamp alone) gives 0xff. Likewise the byte sources of a "
        "full register, .U32.BEXT and .S32.BEXT (cvt_type 011 and 111), pass the register unchanged (i2i PC 0x150: "
        "I2I.S32.U32.BEXT of 0xffffffff gives 0xffffffff); the half-register ones (010, 110) do take the byte. And "
        "convert_int_int negates (cvt_neg_in) before it takes the absolute value (abs_saturate_in = \"10\"), so "
        "I2I -|x| gives |x| (i2i PC 0x218; i2i_neg_before_abs). i2i then stops at I2I.S32.S32.C1 (PC 0x2b8), whose $c "
        "differs (not analysed; F2I/I2F's flags, cvt_flags, also come from this converter).",
        "i2i PC 0xe0: I2I.U8.S32 R6, R4 (lane 2: FlexGripPlus 0xffffffff, model 0xff)",
        "programs/i2i.sass",
        "profile:i2i_dest8_ignored + i2i_neg_before_abs",
        False,
    ),
)

# Integer, memory, address-register and control findings of the cause analysis in FlexGripPlus's VHDL
# (golden/g80/flexgrip_decode.py holds the decode rules the flexgrip profile switches apply).
FINDINGS += (
    Finding(
        "shared_offset_unsigned",
        "A shared-memory source's offset field is unsigned on FlexGripPlus: G80 reads a post-increment operand's offset as "
        "signed (g [A1++-0x1]: $a1 - 4, then $a1 -= 4), FlexGripPlus's src1_i takes instruction_in(13 downto 9) (long MOV "
        "or FP source) or (12 downto 9) (32-bit instruction) as an unsigned count (Decode/pipeline_decode.vhd), so -1 is "
        "+31 words. GHDL: lane 0 of MOV R6, g [A1++-0x1] reads lane 31's word (a[31] = 0xe3eff9c0).",
        "areg PC 0x1a0: MOV R6, g [A1++-0x1] (lane 0: FlexGripPlus 0xe3eff9c0, model 0)",
        "programs/areg.sass",
        "profile:shared_offset_unsigned",
        True,
    ),
    Finding(
        "mov_shared_zero_ext",
        "MOV Rd, g [n].S16 (and .S8) zero-extends: a MOV from shared memory (opcode 1, sub-op 0) is mov_opcode MOV, which "
        "the execute stage passes through unconverted (Execution/pipeline_execute.vhd: MOV, dest REG, not IMM -> NOP); "
        "only the LOAD types go through its CVT. GHDL: 0x8001 read as .S16 gives 0x00008001, G80 0xffff8001.",
        "areg PC 0x220: MOV R6, g [A1+++0x1].S16 (lane 1: FlexGripPlus 0x00008001, model 0xffff8001); mov PC 0xf0",
        "programs/areg.sass",
        "profile:mov_shared_zero_ext",
        True,
    ),
    Finding(
        "r2g_postinc",
        "R2G g [An+++k], Rs stores at $an (G80's post-increment address) but, as every post-increment "
        "(postinc_increments_a4), steps $a4, not $an, here by k times the store's mov_size type: Write/pipeline_write.vhd "
        "gives a shared store with addr_inc_in = '1' the address 0 (+ $an), and CHECK_INCREMENT_ADDR hands "
        "increment_address dest_in, which for a shared store is the offset field (dest_i = instruction_in(21 downto 9)), "
        "scaled by mv_size_to_data_type of w1 bits 23:21 (R2G.U32.U32: 001, DT_S8, one byte). GHDL: $a4 + 1.",
        "areg PC 0x260: R2G.U32.U32 g[A3+++0x1], R5 (FlexGripPlus $a4 + 1, stores at $a3)",
        "programs/areg.sass",
        "profile:postinc_a4",
        True,
    ),
    Finding(
        "const_areg_ignored",
        "An integer instruction's constant second operand c[b][An+n] ignores $an: every lane reads c[n]. "
        "Decode/pipeline_decode.vhd's src2_mem_opcode_i is READ even when src2_use_gather_b = '1' (READ_GATHER is commented "
        "out), so constant_memory_controller.vhd reads one address for all lanes. A post-increment still steps $a4, by "
        "the destination field times 1 (sm_type_i is \"00\", DT_U8, when the first source is not shared). GHDL: every lane "
        "adds c[0x1][0x1] = 0x8001c07f; $a4 + 6 for R6.",
        "areg PC 0x2a0: IADD R6, R4, c[0x1][A4+++0x1] (FlexGripPlus reads c word 1 in every lane, $a4 + 6)",
        "programs/areg.sass",
        "profile:const_areg_ignored",
        True,
    ),
    Finding(
        "shared_addr_wrap",
        "Shared addresses wrap at 16 KiB instead of faulting: shared_memory_controller.vhd keeps the low ADDRESS_SIZE "
        "(SHMEM_ADDR_SIZE = 14) bits of an effective address. With ada_negative_offset, ADA A4, A1, 0xfffc subtracts "
        "0x3ffc, and MOV R6, g [A4+0x1] then reads ($a1 - 0x3ff8) mod 0x4000 = $a1 + 8 (G80, 16-bit $a: $a1).",
        "mov PC 0x140: MOV R6, g [A4+0x1] (address 0xffffc108 + 4 tid, wrapped to 0x108 + 4 tid)",
        "programs/mov.sass",
        "profile:shared_addr_bits",
        False,
    ),
    Finding(
        "imul_one_sign",
        "IMUL multiplies both operands with the first one's signedness: Decode/pipeline_decode.vhd has one is_signed_i for "
        "IMUL24, instruction_in(47) (long; instruction_in(15) short and immediate), G80's src1-signed bit, and "
        "ScalarProcessor/integer_mult_24.vhd extends both operands with it. IMUL.U16.S16 is computed as U16 x U16 "
        "(GHDL lane 10: 0x7fff0000 where G80 gives 0xffff0000). The multiplier returns the low 32 bits of the product "
        "only (result_tmp(31 downto 0)), so IMUL.HI.U24/S24 give the low half too (imul PC 0xd0).",
        "imul PC 0x58: IMUL.U16.S16 R6, R4L, R5H",
        "programs/imul.sass",
        "profile:imul_one_sign",
        True,
    ),
    Finding(
        "regs_typed_by_decoder",
        "In 16-bit SHL/SHR, ISET and subtract-reversed (iadd16_subr_cc) forms some register fields name full registers: "
        "the decoder gives those operands 32-bit data types whatever the width (Decode/pipeline_decode.vhd: "
        "src2_data_type_i is DT_U32 for SHL/SHR; ISET's types are subop_to_data_type of sub-op 3, DT_U32), and a "
        "half-register field 2n + h then reads or writes register 2n + h. SHL.U16 R6L, R4L, R5L shifts by R10 (GHDL: "
        "values unshifted where R10 = 0); ISET.U16 R6L, R4L, R5L compares R8 with R10 and writes R12.",
        "shift PC 0x138: SHL.U16 R6L, R4L, R5L; iset PC 0x1c8: ISET.U16 R6L, R4L, R5L, LT (FlexGripPlus writes R12)",
        "programs/shift.sass",
        "profile:regs_typed_by_decoder",
        True,
    ),
    Finding(
        "imad_kind_from_subop",
        "IMAD's multiply kind comes from the 3-bit sub-op only: G80's kind is w0[28]:w1[31:29] (ISA.md 3.3), FlexGripPlus "
        "reads instr_subop_b = w1[31:29] (Decode/pipeline_decode.vhd, subop_to_data_type for the operand types), and its "
        "scalar processor takes signedness (sub-ops 001, 100, 111) and saturation (101 only) from the same sub-op "
        "(ScalarProcessor/scalar_processor.vhd is_signed_i, saturate_i), with w32 forced to '1' (a 24-bit multiply, "
        "integer_mult_24.vhd, low 32 bits only). IMAD.SAT.S16 (kind 2, sub-op 010) is therefore an unsigned, "
        "non-saturating multiply: in the GHDL run all 25 lanes that differ from G80 are R4L x R5H (16-bit halves, "
        "zero-extended) + R7 exactly (lane 2: 0x80000000 where G80 saturates to 0xffffffff). Waived for kind 2 only: the "
        "other kinds (the .HI ones, kind 8 read as U16) are not yet compared, and whether a signed sub-op sign-extends "
        "a 16-bit half is not settled by this run. With kind 2 waived, imad stops at IMAD.U24 R6, R4, R5, R7 (PC 0x98, "
        "sub-op 011), not analysed.",
        "imad PC 0x80: IMAD.SAT.S16 R6, R4L, R5H, R7",
        "programs/imad.sass",
        "waiver",
        True,
        ("IMAD",),
        frozenset({"gpr", "cc"}),
        (("kind", 0xF, 2),),
    ),
    Finding(
        "r127_sink_no_write",
        "A write to R127 (MVI R127, imm; o[0x7f] in other forms) is not a register write at all on FlexGripPlus: the "
        "probe sees no write strobe, where the model recorded a write it then dropped. The flexgrip profile's register "
        "sink (only_r124_zero) now records nothing for it.",
        "mov PC 0x1b8: MVI R127, 0xdead (FlexGripPlus: no write)",
        "programs/mov.sass",
        "profile:only_r124_zero",
        False,
    ),
    Finding(
        "imul16_sign_flag",
        "IMUL.S16.S16.C1's $c1 differs from the model's in the S flag in 9 of 32 lanes (both ways: S set where the "
        "model clears it and the reverse), after imul_one_sign made the products equal. Write/compute_pred_flags.vhd "
        "passes the execute stage's flags through unchanged, so S is formed in Execution/pipeline_execute.vhd from the "
        "scalar processor; which bit it takes for a 16-bit multiply was not traced, so imul stops here.",
        "imul PC 0x100: IMUL.S16.S16.C1 o[0x7f], R4L, R5L (lane 10: FlexGripPlus S = 1, model 0)",
        "programs/imul.sass",
        "open",
        True,
    ),
    Finding(
        "r2g_sub_word_readback",
        "After R2G stores of 8 and 16 bits into one word (r2g: g[A1+0x8].U8 ... g[A1+0xb].U8), MOV R6, g [A1+0x2] reads "
        "(4 tid) << 24 in lane tid on FlexGripPlus, where the model reads the bytes the stores wrote. The stores "
        "themselves pass the lock-step memory-port check, so the difference is in how shared_memory_controller.vhd "
        "merges sub-word stores or reads the word back; not analysed further (waves not read).",
        "r2g PC 0xd0: MOV R6, g [A1+0x2] (lane 1: FlexGripPlus 0x04000000, model 0x7fed01ed)",
        "programs/r2g.sass",
        "open",
        True,
    ),
)

# found while running the FP programs: a control-flow record, not an FP behaviour
FINDINGS += (
    Finding(
        "ret_pop_exec_mask_stale",
        "A RET that pops the warp stack (a return from CAL) is recorded with the instruction mask of the flow instruction "
        "before it: Execution/branch_exec_unit.vhd's CHECK_RETURN, when the stack is not empty, raises branch_exec_done "
        "for sub-warp 0 in the same cycle it requests the pop (STACK_REQUEST) and does not write instr_mask_out, so "
        "pipeline_execute.vhd's FLOW_DONE passes on the unit's instr_mask_out of the previous flow instruction (in "
        "Reduction the CAL.NOINC at 0x70, whose instruction mask is 0: its guard field, w1 = 0, reads as 'never' in "
        "the read stage); STACK_POP sets it for the later sub-warps. Seen in the waves (Reduction: the branch unit's "
        "instr_mask_out is 0 when sub-warp 0 of the RET at 0x208 is done, 0xffffffff from sub-warp 1). The return itself "
        "(next PC 0x78, the CALL's mask) is right, so the waiver lets the exec mask of the commit record differ. "
        "cf_call's RET C1.NE at 0x90 (mask 0, formerly the open finding ret_guard) shows the same symptom after its CAL.NOINC. No effect on results (a RET writes "
        "nothing), so not listed as a bug.",
        "Reduction (bundle) PC 0x208: RET (FlexGripPlus exec mask 0, the model 0xffffffff)",
        "testdata/vectors/flexgrip_kernels/Reduction.txt",
        "waiver",
        False,
        ("RET",),
        frozenset({"exec_mask"}),
    ),
)

# found running the kernels of programs/kernels on FlexGripPlus (make regress DUT=flexgrip)
FINDINGS += (
    Finding(
        "fadd_read_in_sm",
        "In the SM an FADD through fpu_single's subtractor (an operand negative) is taken one clock edge later than "
        "fpu_single alone gives it: Execution/pipeline_execute.vhd waits in ALU_EXEC for every SP's `finished` "
        "(and_reduce(fpu_work_finished)) and copies the FPU outputs on the next edge (ALU_DONE), and FPU/fpu_top_32_new.vhd "
        "re-registers out_fp_i from the exception stage (out_except) on every DONE edge, that one included. So the "
        "subtractor's transients that the unit shows alone (docs/guides/flexgrip-findings.md, Bugs of the floating-point "
        "units: a denormal operand read before the "
        "subtractor's pipeline is full, a transient exponent above 254 giving an infinity) mostly do not reach the "
        "register file: fft's FADD R28, R24, -R26 of 0x807fff92 and -(0x80a73d74) gives 0x00273de2 in the SM (the "
        "IEEE difference), where fpu_single alone, under GHDL in tb/flexgrip_units, gives 0x7f800000 (the model's "
        "READ_UNIT edge 19; READ_SM, edge 20, gives 0x00273de2). golden/g80/arith/flexgrip_fp.fadd_bits(read=). With the "
        "switch, fft passes lock-step on FlexGripPlus (1228 commits, 8 SPs).",
        "fft PC 0x1b0: FADD R28, R24, -R26 (warp 0 lane 1: FlexGripPlus 0x00273de2, model before the switch 0x7f800000)",
        "programs/kernels/fft.sass",
        "profile:fadd_read_in_sm",
        False,
    ),
    Finding(
        "r2a_source_6bit",
        "R2A An, Rk takes Rk from bits 14:9 of the word (Decode/pipeline_decode.vhd, src1_i for ADDRESS_MEM), where its "
        "manual's R2A page and G80 give bits 9-15: a source R64-R127 reads R(k-64), which under FlexGripPlus's register "
        "layout is another warp's register (with nbody's 24 registers a warp, warp 0's R60 is warp 2's R12), so no "
        "profile switch can follow it.",
        "nbody PC 0xd8: R2A A2, R124 (FlexGripPlus writes $a2 = 0x100 + 0x10 x lane, warp 2's R12; G80 reads the zero register)",
        "programs/kernels/nbody.sass",
        "loader (tb/adapters/flexgrip.py refuses an R2A from R64-R127 before anything is built, naming the instruction)",
        True,
    ),
)

BY_NAME = {f.name: f for f in FINDINGS}
WAIVERS = tuple(f for f in FINDINGS if f.handling == "waiver")


def switch_findings() -> dict[str, list[str]]:
    """Profile switch -> the names of the findings it models (their handling is `profile:<switch> ...`)."""
    out: dict[str, list[str]] = {}
    for f in FINDINGS:
        if f.handling.startswith("profile:"):
            out.setdefault(f.handling.split(":", 1)[1].split()[0], []).append(f.name)
    return out


def switch_label(switch: str, names: dict[str, list[str]]) -> str:
    """A profile switch with the findings it models; a switch no lock-step finding names models a
    FlexGripPlus behaviour the reference already documents (the profile's sources: ISA.md section 9,
    FLEXGRIPPLUS.md), which is just as known."""
    return f"{switch} ({'/'.join(names.get(switch, ['documented: ISA.md 9, FLEXGRIPPLUS.md']))})"


def attribute_switches(prof: Profile, fails: Callable[[Profile], bool]) -> tuple[str, list[str]]:
    """The profile switches of `prof` (those that differ from G80) behind a failure `fails` sees:
    the switches whose G80 value alone makes it pass ("fixed by turning off"), else, when several
    behaviours act at once, those that alone on G80 make it fail ("each alone on G80 breaks them").
    Runs `fails` up to twice per switch."""
    from .profile import G80, Profile

    switches = [f.name for f in fields(Profile) if f.name != "name" and getattr(prof, f.name) != getattr(G80, f.name)]
    causes = [s for s in switches if not fails(replace(prof, **{s: getattr(G80, s)}))]
    if causes:
        return "fixed by turning off", causes
    return "each alone on G80 breaks them", [s for s in switches if fails(replace(G80, **{s: getattr(prof, s)}))]


def expectations(path: Path, profile: object = None, attribute: bool = True) -> str:
    """Whether the numpy `.expect` lines of a program hold under the flexgrip profile (`profile`, default
    FLEXGRIP), that is on the memory FlexGripPlus leaves when lock-step passes: "pass", "no .expect", or
    "fail, ..." naming the FlexGripPlus behaviours that break them: the profile switches whose G80
    value alone makes them hold, else (several behaviours at once) those that alone, on G80, make
    them fail, each with its findings (`attribute=False`: "fail" alone). For `make regress DUT=flexgrip`
    (scripts/flexgrip_regress.py)."""
    from .profile import FLEXGRIP
    from .program import load_program
    from .run import run_program

    prof: Profile = FLEXGRIP if profile is None else profile  # type: ignore[assignment]
    spec = load_program(path)
    if not spec.expects:
        return "no .expect"

    def fails(p: Profile) -> bool:
        try:
            return bool(run_program(spec, p).failed)
        except Exception:  # the model stopping (an address out of range...) fails the expectations too
            return True

    if not fails(prof):
        return "pass"
    if not attribute:  # the attribution runs the model up to twice per profile switch
        return "fail"
    how, causes = attribute_switches(prof, fails)
    names = switch_findings()
    listed = ", ".join(switch_label(s, names) for s in causes) or "not attributed to one switch"
    return f"fail, {how}: {listed}"


@dataclass
class Broken:
    """One `.expect` line that does not hold on FlexGripPlus's memory, and the known findings that
    break it (`causes`: empty when none does)."""

    line: int
    buffer: str
    detail: str
    causes: list[str]


@dataclass
class DutExpectations:
    """`make sim DUT=flexgrip`'s second verdict: the program's `.expect` lines on the global memory
    FlexGripPlus left. `total` 0: the program declares none."""

    total: int
    broken: list[Broken]

    @property
    def unexplained(self) -> list[Broken]:
        return [b for b in self.broken if not b.causes]

    def verdict(self) -> str:
        if not self.total:
            return "none (the program declares no .expect)"
        if not self.broken:
            return f"PASS, {self.total} of {self.total} .expect lines hold"
        held = self.total - len(self.broken)
        known = [b for b in self.broken if b.causes]
        parts = []
        if known:
            parts.append(f"{len(known)} broken by known findings: " + "; ".join(f"{b.buffer} (line {b.line}): {', '.join(b.causes)}" for b in known))
        if self.unexplained:
            parts.append(f"{len(self.unexplained)} broken by no known finding: " + "; ".join(f"{b.buffer} (line {b.line}): {b.detail}" for b in self.unexplained))
        return f"FAIL, {held} of {self.total} .expect lines hold, {'; '.join(parts)}"


def expectations_on_dut(path: Path, dut_global: bytes, waived: dict[str, int], profile: object = None) -> DutExpectations:
    """The `.expect` lines of the program at `path` on `dut_global`, the global memory FlexGripPlus
    left at the end of a lock-step run that passed (waivers `waived` applied, name -> count), each
    broken line with the findings that break it:
    - a line that fails on the model under the flexgrip profile (`profile`, default FLEXGRIP) too,
      and holds on G80: the profile switches whose G80 value alone makes it hold, else those that
      alone break it on G80 (as `expectations`), each with its findings;
    - a line that holds on the model: lock-step passed, so FlexGripPlus's memory differs from the
      model's only through the waived instructions (the model took FlexGripPlus's values there):
      the waivers applied;
    - no cause otherwise (a line that fails on G80 as well is the program's, not FlexGripPlus's).
    """
    from .memory import Memory
    from .profile import FLEXGRIP, G80
    from .program import load_program
    from .run import check, run_program

    prof: Profile = FLEXGRIP if profile is None else profile  # type: ignore[assignment]
    spec = load_program(path)
    if not spec.expects:
        return DutExpectations(0, [])
    gmem = Memory("global", max(len(dut_global), 1))
    gmem.write_bytes(0, dut_global)
    bad = [c for c in check(spec, gmem) if not c.passed]
    if not bad:
        return DutExpectations(len(spec.expects), [])
    every = {e.line.number for e in spec.expects}
    runs: dict[Profile, set[int]] = {}

    def failing(p: Profile) -> set[int]:
        if p not in runs:
            try:
                runs[p] = {c.line for c in run_program(spec, p).checks if not c.passed}
            except Exception:  # the model stopping (an address out of range...) breaks every line
                runs[p] = set(every)
        return runs[p]

    names = switch_findings()
    out = []
    for c in bad:
        causes: list[str] = []
        if c.line in failing(prof):
            if c.line not in failing(G80):
                causes = [switch_label(s, names) for s in attribute_switches(prof, lambda p, line=c.line: line in failing(p))[1]]
        else:
            causes = [f"waiver {w} x{n}" for w, n in sorted(waived.items())]
        out.append(Broken(c.line, c.buffer, c.detail.split(":")[0], causes))
    return DutExpectations(len(spec.expects), out)
