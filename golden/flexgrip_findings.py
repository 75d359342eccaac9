"""FlexGripPlus 4.4 behaviours found by running programs on it in lock-step with the golden model
(`make sim DUT=flexgrip`, tb/adapters/flexgrip.py), one entry each.

Every divergence is either a golden-model bug (fixed in the model, not listed here) or one of these
behaviours. `handling` says how lock-step treats it:
- `profile:<switch>`: golden/profile.py models it under the flexgrip profile;
- `loader`: the FlexGripPlus loader adapts the program, as FlexGripPlus's users do by hand;
- `waiver`: a mismatch of an instruction of `forms` on no field other than `fields` is not a
  failure: the model takes FlexGripPlus's register, flag and address-register writes of that
  instruction instead of its own (the lanes that executed), lock-step goes on, and the run's
  outcome names the waiver and how often it applied (tb/scoreboard.py, `Waiver`). `WAIVE=none`
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
        "Execution/SFU), which the golden model does not reproduce bit for bit: results differ in the last bits, and for "
        "special operands (infinities, NaN) by more.",
        "sfu PC 0x40: RCP R6, R4 (8 lanes differ, e.g. 0x3f2aaaab vs 0x3f2aaaaa)",
        "programs/sfu.sass",
        "waiver",
        False,
        ("RCP", "RCP32", "RSQ", "LG2", "EX2", "SIN", "COS"),
        frozenset({"gpr"}),
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
        "FADD R6, R4, R5 writes 0 in some lanes where fpu_single computes a non-zero sum (11 of 32 lanes of fadd's first "
        "case, e.g. 1.0 + 1.0 gives 0); the same operands give the right sum through fpu_single alone "
        "(tb/flexgrip_units), so the loss is between the FPUs and the write stage: pipeline_execute.vhd waits for every "
        "SP's fpu_single to report finished and then copies the results, so a result that is no longer on an FPU's output "
        "by then is lost, or one not yet rounded is taken (FADD.TRUNC/FMUL.TRUNC lanes 1 ulp off, in fadd, fmul and "
        "Reduction, fit that too; not confirmed in the waves). The waiver covers only lanes where FlexGripPlus wrote 0.",
        "fadd PC 0x48: FADD R6, R4, R5",
        "programs/fadd.sass",
        "waiver",
        True,
        ("FADD", "FADD32", "FADD32I", "FMUL", "FMUL32", "FMUL32I", "FMAD", "FMAD32", "FMAD32I"),
        frozenset({"gpr"}),
        (),
        0,
    ),
    Finding(
        "fadd32i_negated_source",
        "FADD32I R5, -R5, 0x3f800000 gives exactly 1.0 in every lane on FlexGripPlus, the model (flexgrip_fpu) R5 + 1.0. "
        "Not yet classified: cos_soft's output matches the authors' golden dump on FlexGripPlus, so the model's reading of "
        "this form's operands is the first suspect.",
        "cos_soft (bundle) PC 0x98: FADD32I R5, -R5, 0x3f800000",
        "testdata/vectors/flexgrip_kernels/cos_soft.txt",
        "open",
        False,
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
        "RRO (range reduction before SIN/COS/EX2) comes from FlexGripPlus's own RRO unit (Execution/RRO), whose output "
        "differs from the G80 format the model produces in some lanes (11 of 32 in sfu's RRO R6, R4, SIN); not analysed.",
        "sfu PC 0x130: RRO R6, R4, SIN",
        "programs/sfu.sass",
        "waiver",
        False,
        ("RRO",),
        frozenset({"gpr"}),
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
        "F2F/F2I/I2F with a $c write take Z and S from the scalar processor's integer CVT of the operand (the conversions "
        "are CVT there), not from the FPU's result: f2f's F2F.F32.F32.C1 writes 0 where the G80 flags of the result are Z. "
        "Not modelled.",
        "f2f PC 0x1a8: F2F.F32.F32.C1 o[0x7f], R4",
        "programs/f2f.sass",
        "waiver",
        False,
        ("F2F", "F2I", "I2F"),
        frozenset({"cc"}),
    ),
)

FINDINGS += (
    Finding(
        "fp_forms_unclassified",
        "FP instructions whose FlexGripPlus results differ from the flexgrip_fpu model in ways the findings above do not "
        "explain; not yet classified as model or FlexGripPlus behaviour: F2I.S32.F32 R6, -R4 writes the source's bits "
        "unconverted (f2i PC 0x198); FADD.TRUNC is 1 ulp off in some lanes (fadd PC 0x60, 0xc35c5aea vs 0xc35c5ae9); "
        "FMAD.FLOOR R6, R4, R5, R7 differs in 23 lanes (fmad PC 0xe8). The model's FPU is bit-exact against fpu_single "
        "alone, so the decoder's choice of rounding mode, negations and sub-operation inside the SM is the first suspect.",
        "f2i PC 0x198: F2I.S32.F32 R6, -R4",
        "programs/f2i.sass",
        "open",
        False,
    ),
)

FINDINGS += (
    Finding(
        "postinc_increments_a4",
        "A post-increment operand g [An+++k] increments $a4 whatever n is: pipeline_write.vhd ties the register number it "
        "gives increment_address to 0 (inc_addr_reg_i <= 0), which the address-register controller turns into index 3, "
        "$a4. In the same instruction the value read differs from the model's in 30 of 32 lanes (not yet analysed).",
        "iadd PC 0x230: IADD R6, g [A1+++0x1], -R4 (FlexGripPlus writes $a4, the model $a1)",
        "programs/iadd.sass",
        "open",
        True,
    ),
)

FINDINGS += (
    Finding(
        "global_addr_18bit",
        "Global addresses are the low 18 bits of the register (256 KiB of global memory), so an address past it wraps; the "
        "model keeps the program's own global size and reports such an access as a fault. Seen in sfu only after the "
        "waived shared_offset_4_bits has made a pointer wrong (0x400000).",
        "sfu PC 0x198 (a GST to 0x400000)",
        "programs/sfu.sass",
        "open",
        False,
    ),
)

BY_NAME = {f.name: f for f in FINDINGS}
WAIVERS = tuple(f for f in FINDINGS if f.handling == "waiver")
