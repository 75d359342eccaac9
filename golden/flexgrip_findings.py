"""FlexGripPlus 4.4 behaviours found by running programs on it in lock-step with the golden model
(`make sim DUT=flexgrip`, tb/adapters/flexgrip.py), one entry each.

Every divergence is either a golden-model bug (fixed in the model, not listed here) or one of these
behaviours. `handling` says how lock-step treats it:
- `profile:<switch>`: golden/profile.py models it under the flexgrip profile;
- `loader`: the FlexGripPlus loader adapts the program, as FlexGripPlus's users do by hand;
- `waiver`: a mismatch of an instruction of `forms` on no field other than `fields` is not a
  failure: the model takes FlexGripPlus's register, flag and address-register writes of that
  instruction instead of its own (the lanes that executed), lock-step goes on, and the run's
  outcome names the waiver and how often it applied (tb/scoreboard.py, `Waiver`); a control-flow
  form (no register writes) may have its commit record's `exec_mask` waived. `WAIVE=none`
  (make) turns waivers off.
`bug` marks what looks like a genuine FlexGripPlus bug (README lists them), not a documented
departure from G80.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    name: str
    description: str
    first: str  # the first instruction that shows it: program, PC, disassembly
    program: str  # a program that reproduces it (path from the project root: programs/ or a testdata/vectors bundle)
    handling: str
    bug: bool
    forms: tuple[str, ...] = ()  # waiver: the instruction forms it covers (golden/isa/table.py names)
    fields: frozenset[str] = frozenset()  # waiver: the commit fields it may differ on
    when: tuple[tuple[str, int, int], ...] = ()  # waiver: (instruction field, mask, value) it also needs (golden/isa/table.py names)
    dut_value: int | None = None  # waiver: only when FlexGripPlus wrote this value in every lane that differs


FINDINGS: tuple[Finding, ...] = (
    Finding(
        "exit_marker_ignored",
        "The exit marker (.E) does nothing: a warp runs on past its last instruction into whatever the instruction memory holds "
        "(zeros) and never finishes. Kernels must end with RET.",
        "vecadd PC 0x48 (the word after GST.E.U32 global14[R0], R1)",
        "programs/vecadd.sass",
        "profile:exit_marker_ignored + loader (golden/run.code_words appends RET, as every shipped FlexGripPlus kernel has by hand)",
        False,
    ),
    Finding(
        "c2r_writes_r0",
        "C2R Rd, Cn writes R0 instead of Rd: pipeline_decode.vhd has no destination case for the flags-to-register move, so its "
        "destination field decodes as 0.",
        "iadd PC 0x60: C2R R6, C1 (FlexGripPlus writes R0, the model R6)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("C2R",),
        frozenset({"gpr"}),
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
        "(golden/arith/flexgrip_sfu.py, checked against the unit under GHDL); in lock-step the last two differences in sfu "
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
        "|.| or - itself (it reads the register as it is). Modelled: golden/execute.exe_sfu.",
        "sfu PC 0x210: RCP32 R6, |R4| (FlexGripPlus 0x7f800000 in every lane)",
        "programs/sfu.sass",
        "profile:flexgrip_sfu",
        True,
    ),
    Finding(
        "bar_writes_a4",
        "BAR writes FlexGripPlus's address register $a4 (the probe sees the write stage drive the address-register file's "
        "write port for the barrier).",
        "cf_barrier PC 0x40: BAR.ARV.WAIT b0, 0xfff",
        "programs/cf_barrier.sass",
        "waiver",
        True,
        ("BAR",),
        frozenset({"addr"}),
    ),
    Finding(
        "iaddc_operand",
        "IADD.CARRYn Rd, Ra, Rb (64-bit form) does not add Rb: the values FlexGripPlus writes are (Ra + R15) with bit 31 "
        "cleared in every lane (R15 holds 0x80 in iadd; 15 is also the value of the guard-condition field, 'always'). "
        "The edge application uses IADD.CARRYn.",
        "iadd PC 0x168: IADD.CARRY1 R6, R4, R5 (e.g. a = 0x8000: FlexGripPlus 0x8080)",
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
        "then 0). Modelled: golden/execute._fg_fadd_sync; a lock-step run sets the group to its NUM_SP, run-flexgrip to the "
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
        "Modelled: golden/execute._fg_rmode.",
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
        "the waves hold 0 for fadd's FADD32I R6, g [0x4], ... Modelled: golden/execute._fg_src1, _fg_regs.",
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
        "fp_flags_from_sp gives. Modelled: golden/execute._fg_arith.",
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
        "decoder path. Modelled for the FP forms: golden/execute._fg_read.",
        "fadd PC 0x1ac: FADD32 R11, R4, c[0x1][0x0] (FlexGripPlus R4 + 0)",
        "programs/fadd.sass",
        "profile:const_short_unsplit",
        True,
    ),
)

FINDINGS += (
    Finding(
        "lop32i_dest",
        "LOP32I.AND R5, R5, 0x7f writes R2 instead of R5 (the probe sees the register file written at R2 only).",
        "cf_barrier PC 0x50: LOP32I.AND R5, R5, 0x7f",
        "programs/cf_barrier.sass",
        "waiver",
        True,
        ("LOP32I",),
        frozenset({"gpr"}),
    ),
    Finding(
        "rro_unit",
        "RRO (range reduction before SIN/COS/EX2) comes from FlexGripPlus's own RRO unit (Execution/RRO), whose output is "
        "not G80's format. Modelled bit for bit (golden/arith/flexgrip_rro.py, with the 2023 fix of upstream PR #3); sfu's "
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
        "A shared-memory operand g [n] of a 64-bit IADD with n >= 0x10 (32-bit units) reads g [n - 0x10]: FlexGripPlus "
        "takes 4 of the 5 offset bits (sfu reads its seventh pointer parameter, g [0x10], as the header word g [0x0], "
        "0x00400000 for blockDim.x 64). FLEXGRIPPLUS.md section 3 reads 5 bits (13:9) in the decoder; the lost bit is "
        "somewhere after it.",
        "sfu PC 0x170: IADD R3, g [0x10], R2",
        "programs/sfu.sass",
        "waiver",
        True,
        ("IADD",),
        frozenset({"gpr", "cc"}),
        (("src1_s", 0x1, 1), ("src1", 0x10, 0x10)),
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
        "BRK with every active thread breaking does not return to the PBK target: the warp goes on at the next "
        "instruction with an empty mask (the model, as G80: PBK target 0x60 with the full mask).",
        "cf_break PC 0x50: BRK C0.NE (FlexGripPlus next PC 0x58, mask 0)",
        "programs/cf_break.sass",
        "open",
        True,
    ),
    Finding(
        "ret_guard",
        "A guarded RET (RET C1.NE after ISET.C1 in a subroutine) executes for no thread on FlexGripPlus (instruction mask 0; "
        "the model, from $c1: 0x000fffff).",
        "cf_call PC 0x90: RET C1.NE",
        "programs/cf_call.sass",
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
        "F2F.F32.F32.C1 o[0x7f], R4 writes 0 where the G80 flags of the result are Z. Modelled: golden/execute._fg_cvt_flags; "
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
        "(52:46) only when bits 54 and 24 are both set (line 393), else register 51:46. Modelled: golden/execute._fg_regs.",
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
        "R5, R8 gives R4 * R5 + R0 (lane 0: 0x3f800002, R0 = 0). Modelled: golden/execute._fg_regs.",
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
        "golden/execute._fg_cvt, golden/arith/flexgrip_fp.sp_convert.",
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
        "R4's low byte. Modelled: golden/execute._fg_cvt_src.",
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
        "A 16-bit IADD that negates its first operand and writes $c (IADD.SAT.U16.C2 R6H, -R4L, R5L) writes register 13, "
        "the raw half-register field (2 * 6 + 1), instead of R6H, and its flags differ from the model's 16-bit subr flags in "
        "10 of 32 lanes (Z and C). The same program's 16-bit forms without a $c write or without the first operand negated "
        "match, so the destination is decoded differently only on this path; not analysed further.",
        "iadd PC 0x358: IADD.SAT.U16.C2 R6H, -R4L, R5L (FlexGripPlus writes R13)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("IADD",),
        frozenset({"gpr", "cc"}),
        (("width", 0x1, 0), ("addop", 0x3, 2), ("cwe", 0x1, 1)),
    ),
)

FINDINGS += (
    Finding(
        "ada_negative_offset",
        "ADA An, Am, imm16 with bit 15 of the offset set does not add the 16-bit offset: ADA A1, A1, 0xffff adds 0xffffc001 "
        "(-0x3fff) on FlexGripPlus, where G80 adds 0xffff to a 16-bit register (tid - 1 after the wrap) and the areg_32bit "
        "model 0xffff. Small offsets (0x100, 0x1234) add exactly. The fit is 'the low 14 bits, negated', as if a bit of the "
        "offset field were read as the ALU's subtract flag; one sample, not analysed further.",
        "areg PC 0xc0: ADA A1, A1, 0xffff (lane 0: FlexGripPlus 0xffffc001, model 0xffff)",
        "programs/areg.sass",
        "waiver",
        True,
        ("ADA",),
        frozenset({"addr"}),
        (("aoff", 0x8000, 0x8000),),
    ),
)

FINDINGS += (
    Finding(
        "const16_halfword_offset",
        "The constant operand c[b][n] of a 16-bit IADD is read at byte 2n (n counts 16-bit units, the .U16 constant "
        "operand's scaling), where the model (ISA.md's 32-bit constant operand of which a 16-bit instruction uses the low "
        "half) reads byte 4n: iadd's IADD.U16 R6H, R4L, c[0x1][0x1] adds 0x8000 (the upper half of c[0x1][0x0] = "
        "0x80000001) on FlexGripPlus, 0x0010 in the model. Which reading G80 has is not settled by the references the "
        "project holds, so this is a waiver, not a model change.",
        "iadd PC 0x3d0: IADD.U16 R6H, R4L, c[0x1][0x1] (lane 0: FlexGripPlus 0x8000, model 0x0010)",
        "programs/iadd.sass",
        "waiver",
        False,
        ("IADD",),
        frozenset({"gpr", "cc"}),
        (("width", 0x1, 0), ("src3_c", 0x1, 1)),
    ),
)

FINDINGS += (
    Finding(
        "iadd32_sat_ignored",
        "IADD32.SAT (the 32-bit-encoded form, .SAT in bit 8 of the first word) does not saturate: the lanes that overflow "
        "get the wrapped sum (0xffffffff + 1 gives 0, 0x7fffffff + 1 gives 0x80000000), where the long form IADD.SAT of the "
        "same program saturates as the sat_all_ones switch models.",
        "iadd PC 0x414: IADD32.SAT R7, R4, R5 (lane 3: FlexGripPlus 0x80000000, model 0xffffffff)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("IADD32",),
        frozenset({"gpr", "cc"}),
        (("m8", 0x1, 1),),
    ),
    Finding(
        "a0_not_zero",
        "A0 read as a source is not 0: ADA An, A0, imm adds imm to, and A2R Rd, A0 copies, a per-lane value (areg's ADA A2, "
        "A0, 0x1234 gives 0x0204183c in lane 0, 0xffff1234 in lane 3; A2R R6, A0 0x02040608 in lane 0); which register "
        "FlexGripPlus reads is not analysed.",
        "areg PC 0xe0: ADA A2, A0, 0x1234 (model 0x1234 in every lane); areg PC 0x100: A2R R6, A0",
        "programs/areg.sass",
        "waiver",
        True,
        ("ADA", "A2R"),
        frozenset({"addr", "gpr"}),
        (("areg", 0x7, 0),),
    ),
)

FINDINGS += (
    Finding(
        "iadd32_const_operand",
        "The constant operand of the 32-bit-encoded IADD32 Rd, Ra, c[b][n] reads 0 on FlexGripPlus (iadd's c[0x1][0x1] "
        "holds 0x00010010; every lane gets Ra + 0). The short form packs the bank into the operand field (here 33 = bank 1, "
        "word 1); a reading of the field unsplit, word 33 of the flat constant memory, would give 0 too. Not confirmed.",
        "iadd PC 0x4a8: IADD32 R6, R4, c[0x1][0x1] (lane 0: FlexGripPlus 0, model 0x00010010)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("IADD32",),
        frozenset({"gpr", "cc"}),
        (("src2_c", 0x1, 1),),
    ),
)

FINDINGS += (
    Finding(
        "iadd32_carry",
        "IADD32.CARRYn Rd, Ra, Rb (the 32-bit encoding of add with carry) does not compute a + b + C: 30 of 32 lanes differ "
        "(1 + 1 gives 1, 0x7fffffff + 1 gives 0xffff); not analysed (the long form's behaviour is iaddc_operand).",
        "iadd PC 0x4ac: IADD32.CARRY0 R8, R4, R5 (also IADD32I.CARRY0 R6, R4, 0x0 at 0x5c0)",
        "programs/iadd.sass",
        "waiver",
        True,
        ("IADD32", "IADD32I"),
        frozenset({"gpr", "cc"}),
        (("addop", 0x3, 3),),
    ),
    Finding(
        "a0_writes_a4",
        "R2A A0, Rk, n writes $a4: A0 is not the zero register for writes, FlexGripPlus's address-register file takes "
        "register number 0 as its index 3 (as for the post-increment, postinc_increments_a4). G80 drops writes to A0.",
        "areg PC 0x118: R2A A0, R4, 0x2 (FlexGripPlus writes $a4, the model nothing)",
        "programs/areg.sass",
        "waiver",
        True,
        ("R2A",),
        frozenset({"addr"}),
        (("adst", 0x7, 0),),
    ),
)

FINDINGS += (
    Finding(
        "iadd32i_sat_dest",
        "IADD32I.SAT R6, R4, imm writes R70 (R6 + 64), not R6: the .SAT bit of the immediate form is taken as the top bit of "
        "the destination register number.",
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
        "R2A An, g [n], k with a shared-memory source does not read g [n]: areg's R2A A3, g [0xa], 0x2 writes 0x800000 "
        "(0x200000 << 2) in every lane, where the parameter word g [0xa] holds 0x12345; not analysed.",
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
        "GLD.S64 Rd, [Ra] writes Rd only, not the pair Rd, Rd+1 (the probe sees one register written), and GLD.S128 likewise "
        "(global PC 0xf8); whether Rd gets the low word is not yet checked.",
        "global PC 0xc0: GLD.S64 R8, global14[R5] (FlexGripPlus writes R8, the model R8 and R9)",
        "programs/global.sass",
        "waiver",
        True,
        ("GLD",),
        frozenset({"gpr"}),
        (("msize", 0x6, 4),),  # msize 4 (S64) and 5 (S128)
    ),
)

FINDINGS += (
    Finding(
        "imax_results",
        "IMAX Rd, Ra, Rb does not give the maximum: 31 of 32 lanes differ, with values unrelated to either operand in some "
        "(max(0, 0) gives 0x60, max(1, 0) 0x64) and 0x0000ffff in others; not analysed.",
        "iminmax PC 0x40: IMAX R6, R4, R5 (lane 0: FlexGripPlus 0x60, model 0)",
        "programs/iminmax.sass",
        "open",
        True,
    ),
    Finding(
        "i2i_u8_not_truncated",
        "I2I.U8.S32 Rd, Ra does not reduce to 8 bits: FlexGripPlus writes wider values (0xffffffff, 0x7fffffff, 0x8000 "
        "...) where the model, with i2i_no_clamp, writes the low byte; the other I2I forms of the program match up to here. "
        "Not yet modelled.",
        "i2i PC 0xe0: I2I.U8.S32 R6, R4 (lane 2: FlexGripPlus 0xffffffff, model 0xff)",
        "programs/i2i.sass",
        "open",
        False,
    ),
)

# found while running the FP programs (h-fgfp's block): a control-flow record, not an FP behaviour
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
        "cf_call's ret_guard (RET C1.NE with mask 0) shows the same symptom. No effect on results (a RET writes "
        "nothing), so not listed as a bug.",
        "Reduction (bundle) PC 0x208: RET (FlexGripPlus exec mask 0, the model 0xffffffff)",
        "testdata/vectors/flexgrip_kernels/Reduction.txt",
        "waiver",
        False,
        ("RET",),
        frozenset({"exec_mask"}),
    ),
)

BY_NAME = {f.name: f for f in FINDINGS}
WAIVERS = tuple(f for f in FINDINGS if f.handling == "waiver")
