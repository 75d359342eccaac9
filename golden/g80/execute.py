"""Instruction semantics, one routine per family of the encoding table (Form.family).

A routine executes one instruction for a Batch of lanes (one or more warps at the same PC):
it reads operands through the table's structured operands, computes with golden.g80.arith, and
writes registers, flags and memory under the batch's execute mask. Control flow is in sm.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .arith import fp, intops  # fp at import: a local import in each FP family cost about 1 us a step
from .decoder import Instruction
from .memsyntax import MEM_SIZES
from .operands import (
    ConstOperand,
    DiscardOperand,
    GlobalOperand,
    ImmOperand,
    LocalOperand,
    NamedOperand,
    RegOperand,
    SharedOperand,
)

if TYPE_CHECKING:
    from .sm import SM, Batch

U32 = np.uint32

Family = Callable[["SM", "Batch", Instruction, dict], None]
FAMILIES: dict[str, Family] = {}


def family(name: str) -> Callable[[Family], Family]:
    def register(fn: Family) -> Family:
        FAMILIES[name] = fn
        return fn

    return register


# ---------------------------------------------------------------------------------------------
# operand access


def read(sm: SM, b: Batch, op: object) -> np.ndarray:
    """The raw 32-bit value of a source operand for every lane of the batch (modifiers not applied:
    each family knows whether - is an integer or a float negation)."""
    if isinstance(op, RegOperand):
        return sm.read_reg(b, op.index, op.half)
    if isinstance(op, ImmOperand):
        return np.full(b.n, op.value & 0xFFFFFFFF, U32)
    if isinstance(op, SharedOperand):
        if not op.areg and not op.postinc:
            value = sm.shared_load_uniform(b, op.offset, op.size, op.signed)
            if value is not None:
                return value
        addr = sm.mem_address(b, op.areg, op.offset, op.postinc, op.size)
        return sm.shared_load(b, addr, op.size, op.signed)
    if isinstance(op, ConstOperand):
        addr = sm.mem_address(b, op.areg, op.offset, op.postinc, op.size)
        return sm.const_load(b, op.bank, addr, op.size, op.signed)
    if isinstance(op, NamedOperand):
        return sm.read_named(b, op)
    raise TypeError(f"cannot read operand {op!r}")


def write(sm: SM, b: Batch, op: object, value: np.ndarray, half: bool | None = None) -> None:
    if isinstance(op, DiscardOperand):
        return
    if isinstance(op, RegOperand):
        sm.write_reg(b, op.index, op.half if half is None else half, value)
        return
    if isinstance(op, NamedOperand) and op.prefix == "A":
        sm.write_areg(b, op.index, value)
        return
    raise TypeError(f"cannot write operand {op!r}")


def cwe(insn: Instruction) -> bool:
    """The instruction writes $c: only then are the integer ALU's flags computed (they cost as much
    as the result on a 32-lane step)."""
    return bool(insn.fields.get("cwe"))


def flags_out(sm: SM, b: Batch, insn: Instruction, flags: np.ndarray | None) -> None:
    if cwe(insn):
        assert flags is not None, "the flags of an instruction that writes $c were not computed"
        sm.write_cc(b, insn.fields["cdst"], flags)


def carry_in(sm: SM, b: Batch, insn: Instruction, mad: bool) -> np.ndarray:
    """The carry of add-with-carry: $c selected by w1[13:12] (long forms) or $c0 (short/immediate);
    FlexGripPlus reads $c0 for IADD and $c1 for IMAD whatever the encoding says."""
    if sm.profile.addc_c0_madc_c1:
        reg = 1 if mad else 0
    else:
        reg = insn.fields.get("preg", 0) if insn.form.fmt == "long" else 0
    return ((sm.cc_of(b, reg) >> 2) & 1).astype(U32)


def width_of(insn: Instruction) -> int:
    f = insn.fields
    if insn.form.fmt == "long":
        return 32 if f.get("width", 1) else 16
    return 32 if f.get("m15", 1) else 16



# ---------------------------------------------------------------------------------------------
# moves


@family("mov")
def exe_mov(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    src = ops.get("src1") or ops["imm"]
    value = read(sm, b, src)
    write(sm, b, ops["dst"], value)


@family("mvc")
def exe_mvc(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    write(sm, b, ops["dst"], read(sm, b, ops["src"]))


@family("c2r")
def exe_c2r(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    write(sm, b, ops["dst"], sm.cc_of(b, insn.fields["preg"]).astype(U32))


def _areg_index(sm: SM, n: int) -> int:
    """The address register an ADA/A2R source or an R2A/ADA destination number n names. FlexGripPlus
    indexes its four registers with 2 bits (address_register_file.vhd): the write stage takes
    dest_in(1 downto 0) (Write/pipeline_write.vhd, dest_mem_type_in = ADDRESS) and the read stage
    (n - 1)(1 downto 0) + 1 (Read/read_source_ops.vhd, ADDR_REGS_REQUEST), so A0 is $a4's slot
    (a0_aliases_a4), where G80's A0 reads 0 and drops writes."""
    return 4 if n == 0 and sm.profile.a0_aliases_a4 else n


@family("a2r")
def exe_a2r(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    write(sm, b, ops["dst"], sm.areg_of(b, _areg_index(sm, insn.fields["areg"])))


@family("s2r")
def exe_s2r(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    write(sm, b, ops["dst"], sm.special(b, insn.fields["sreg"]))


@family("r2c")
def exe_r2c(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    # mov $c, $r takes the low 4 bits and always writes, whatever w1[6] says (ISA.md 2.1)
    value = read(sm, b, ops["src1"])
    sm.write_cc(b, insn.fields["cdst"], (value & U32(0xF)).astype(np.uint8))


@family("r2a")
def exe_r2a(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    value = read(sm, b, ops["src1"]) << U32(insn.fields["shcnt4"])
    sm.write_areg(b, _areg_index(sm, insn.fields["adst"]), value)


@family("ada")
def exe_ada(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    off = insn.fields["aoff"]
    if sm.profile.ada_offset_14bit:
        # Decode/pipeline_decode.vhd: ADA's second source is src2_i = instruction_in(22 downto 9), the
        # offset's low 14 bits; the execute stage runs ADA as IADD (pipeline_execute.vhd, "ADA" case),
        # whose second operand the scalar processor negates with src3_neg_in (scalar_processor.vhd:
        # src_b_neg_i <= src3_neg_in when IADD), and src3_neg_i is instruction_in(22): offset bit 13
        off = (-(off & 0x3FFF) if off & 0x2000 else off & 0x3FFF) & 0xFFFFFFFF
    value = sm.areg_of(b, _areg_index(sm, insn.fields["areg"])) + U32(off)
    sm.write_areg(b, _areg_index(sm, insn.fields["adst"]), value)


# ---------------------------------------------------------------------------------------------
# memory


@family("r2g")
def exe_r2g(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    dst: SharedOperand = ops["dst"]
    src: RegOperand = ops["src"]
    addr = sm.mem_address(b, dst.areg, dst.offset, dst.postinc, dst.size, store=True)
    sm.note_store_address(b)  # the address before the data: a store at an undefined address stops the run
    value = sm.read_reg(b, src.index, src.half)
    sm.shared_store(b, addr, dst.size, value)


def _ldst_size(insn: Instruction) -> tuple[int, bool]:
    _, size, signed = MEM_SIZES[insn.fields["msize"]]
    return size, signed


def _flexgrip_wide(sm: SM, size: int, signed: bool) -> tuple[int, bool]:
    """A 64- or 128-bit global access as FlexGripPlus makes it (global_wide_one_byte): its memory stages take
    the size from Read/convert_data_types.vhd's mv_size_to_data_type, which has no 64/128-bit entry (DT_NONE),
    and global_memory_controller.vhd's pMemorySize gives DT_NONE one byte."""
    if size > 4 and sm.profile.global_wide_one_byte:
        return 1, False
    return size, signed


@family("gld")
def exe_gld(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    size, signed = _flexgrip_wide(sm, *_ldst_size(insn))
    mem: GlobalOperand = ops["mem"]
    addr = sm.read_reg(b, mem.reg, False).astype(np.int64)
    for part, value in enumerate(sm.global_load(b, addr, size, signed)):
        sm.write_reg(b, ops["data"].index + part, False, value)


@family("gst")
def exe_gst(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    size, _ = _flexgrip_wide(sm, *_ldst_size(insn))
    mem: GlobalOperand = ops["mem"]
    addr = sm.read_reg(b, mem.reg, False).astype(np.int64)
    sm.note_store_address(b)
    values = [sm.read_reg(b, ops["data"].index + part, False) for part in range(max(size // 4, 1))]
    sm.global_store(b, addr, size, values, ops["data"].index)


def _local_addr(sm: SM, b: Batch, mem: LocalOperand, size: int) -> np.ndarray:
    return sm.mem_address(b, mem.areg, mem.offset, mem.postinc, size)


@family("lld")
def exe_lld(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    size, signed = _ldst_size(insn)
    for part, value in enumerate(sm.local_load(b, _local_addr(sm, b, ops["mem"], size), size, signed)):
        sm.write_reg(b, ops["data"].index + part, False, value)


@family("lst")
def exe_lst(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    size, _ = _ldst_size(insn)
    addr = _local_addr(sm, b, ops["mem"], size)
    sm.note_store_address(b)
    values = [sm.read_reg(b, ops["data"].index + part, False) for part in range(max(size // 4, 1))]
    sm.local_store(b, addr, size, values)


# ---------------------------------------------------------------------------------------------
# integer


@family("iadd")
def exe_iadd(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    f = insn.fields
    op = f["addop"]
    # FlexGripPlus's saturate_i is instruction_in(59) (w1 bit 27) for every non-immediate form and '0' for
    # immediate ones (Decode/pipeline_decode.vhd): a 32-bit IADD32.SAT (m8) and IADD32I.SAT do not saturate
    sat = bool(f.get("sat") if insn.form.fmt == "long" else (f.get("m8") and not sm.profile.short_sat_ignored))
    width = width_of(insn)
    a = read(sm, b, ops["src1"])
    other = ops.get("src3") or ops.get("src2") or ops["imm"]
    c = read(sm, b, other)
    cin = carry_in(sm, b, insn, mad=False) if op == 3 else np.zeros(b.n, U32)
    res, flags = intops.iadd(op, width, sat, a, c, cin, sm.profile, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


def _mul_fields(insn: Instruction) -> tuple[bool, bool, bool]:
    """(24-bit, src1 signed / signed, src2 signed / high) for the long and short layouts."""
    f = insn.fields
    if insn.form.fmt == "long":
        return bool(f["m16"]), bool(f["m15"]), bool(f["m14"])
    return bool(f["m22"]), bool(f["m15"]), bool(f["m8"])


@family("imul")
def exe_imul(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    wide, s1, s2 = _mul_fields(insn)
    if sm.profile.imul_one_sign and wide:
        # ...and ScalarProcessor/integer_mult_24.vhd returns result_tmp(31 downto 0) only: a 24-bit .HI form
        # gives the low 32 bits of the product (GHDL, imul PC 0xd0: IMUL.HI.U24.U24)
        s2 = False
    if sm.profile.imul_one_sign and not wide:  # 24-bit forms: the third bit is .HI, not a signedness
        # FlexGripPlus's decoder has one is_signed_i for IMUL24, instruction_in(47) (long) / (15) (short and
        # immediate), i.e. the first operand's bit, and the scalar processor multiplies both operands with it
        # (Decode/pipeline_decode.vhd is_signed_i; ScalarProcessor/integer_mult_24.vhd)
        s2 = s1
    a = read(sm, b, ops["src1"])
    c = read(sm, b, ops.get("src2") or ops["imm"])
    res, flags = intops.imul24(s1, s2, a, c, sm.profile, flags=cwe(insn)) if wide else intops.imul16(s1, s2, a, c, sm.profile, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("imad")
def exe_imad(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    f = insn.fields
    addop = f["madop"] if insn.form.fmt == "long" else f["addop"]
    a = read(sm, b, ops["src1"])
    c2 = read(sm, b, ops.get("src2") or ops["imm"])
    c3 = read(sm, b, ops["src3"])
    cin = carry_in(sm, b, insn, mad=True) if addop == 3 else np.zeros(b.n, U32)
    res, flags = intops.imad(f["kind"], addop, a, c2, c3, cin, sm.profile, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


def _typed(insn: Instruction) -> tuple[bool, int]:
    """(signed, width) of ISET/IMIN/IMAX/SHR/ISAD in either layout."""
    f = insn.fields
    if insn.form.fmt == "long":
        return bool(f["signed"]), 32 if f["width"] else 16
    return bool(f["m8"]), 32 if f["m15"] else 16


@family("isad")
def exe_isad(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    signed, width = _typed(insn)
    res, flags = intops.isad(signed, width, read(sm, b, ops["src1"]), read(sm, b, ops["src2"]), read(sm, b, ops["src3"]), sm.profile, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("iset")
def exe_iset(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    signed, width = _typed(insn)
    res, flags = intops.iset(signed, width, insn.fields["setcond"], read(sm, b, ops["src1"]), read(sm, b, ops["src2"]), sm.profile)
    if sm.profile.regs_typed_by_decoder and width == 16:
        # ISET's destination is DT_U32 on FlexGripPlus (subop_to_data_type of sub-op 3): a true 16-bit
        # comparison writes 0xffffffff (GHDL, iset PC 0x1e8), not 0xffff
        res = np.where(res != 0, U32(0xFFFFFFFF), U32(0)).astype(U32)
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("iminmax")
def exe_iminmax(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    signed, width = _typed(insn)
    res, flags = intops.iminmax(insn.form.name == "IMIN", signed, width, read(sm, b, ops["src1"]), read(sm, b, ops["src2"]), sm.profile, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("shift")
def exe_shift(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    signed, width = _typed(insn)
    a = read(sm, b, ops["src1"])
    count = read(sm, b, ops["src2"])
    if insn.form.name == "SHL":
        res, flags = intops.shl(width, a, count, sm.profile, flags=cwe(insn))
    else:
        res, flags = intops.shr(signed, width, a, count, sm.profile, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("lop")
def exe_lop(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    f = insn.fields
    a = read(sm, b, ops["src1"])
    if insn.form.fmt == "long":
        c = read(sm, b, ops["src2"])
        width, not1, not2 = (32 if f["width"] else 16), bool(f["m16"]), bool(f["m17"])
    else:
        c = read(sm, b, ops["imm"])
        # FlexGripPlus's 16-bit reading of a LOP32I without immediate bit 30 (flexgrip_decode, lop32i_w32_imm_bit30)
        w16 = sm.profile.lop32i_w32_imm_bit30 and not (int(ops["imm"].value) >> 30) & 1
        width, not1, not2 = (16 if w16 else 32), bool(f["m22"]), False
    op = f["lop"]
    if insn.form.fmt != "long" and sm.profile.lop32i_w32_imm_bit30:
        # FlexGripPlus's logic_type_b is instruction_in(47 downto 46) whatever the format (Decode/pipeline_decode.vhd):
        # in LOP32I those are bits 19:18 of the immediate, so the operation is 0 AND, 1 OR, 2 XOR, 3 NEG_OP (not
        # src1, as pass_b_is_not1), whatever LOP32I's own lop field says (GHDL, lop PC 0x2c0)
        op = (int(ops["imm"].value) >> 18) & 3
    res, flags = intops.logic(op, width, not1, not2, a, c, sm.profile, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


_SRC_TYPES = {0: (False, 16), 1: (False, 32), 2: (False, 8), 3: (False, 8), 4: (True, 16), 5: (True, 32), 6: (True, 8), 7: (True, 8)}


@family("i2i")
def exe_i2i(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    f = insn.fields
    dst_bits = 8 if f["m19"] else (32 if f["width"] else 16)
    if dst_bits == 8 and sm.profile.i2i_dest8_ignored:
        # FlexGripPlus's convert_int_int (ScalarProcessor/convert_int_int.vhd) extends by the source type only
        # (cvt_type_i = bits 48:46) and its result is written at the register's width (dest_data_type_i:
        # reg_to_data_type for CVT): an 8-bit destination type is never applied
        dst_bits = 32 if f["width"] else 16
    srct = f["srct"]
    if srct in (3, 7) and sm.profile.i2i_dest8_ignored:
        # convert_int_int's cases "011" (U32.BEXT) and "111" (S32.BEXT) pass the register unchanged: no byte
        # extraction from a full register (GHDL, i2i PC 0x150: I2I.S32.U32.BEXT of 0xffffffff gives 0xffffffff)
        srct = 1 if srct == 3 else 5
    res, flags = intops.i2i(bool(f["signed"]), dst_bits, srct, bool(f["m20"]), bool(f["m29"]), read(sm, b, ops["src1"]), sm.profile,
                             flags=cwe(insn))
    if dst_bits == 8 and f["width"] and f["signed"]:
        # an 8-bit result in a full register: the width bit w1[26] is independent of the clamp (ISA.md 3.9)
        res = res.astype(np.uint16).view(np.int16).astype(np.int32).view(U32)
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


# ---------------------------------------------------------------------------------------------
# floating point and SFU (golden.g80.arith.fp / golden.g80.arith.sfu); float source modifiers are sign-bit
# operations on the input (FP_SFU.md 1.6)

SIGN = U32(0x80000000)
SIGN16 = U32(0x8000)


def fsrc(sm: SM, b: Batch, op: object, f16: bool = False) -> np.ndarray:
    """A float source with its |..| and - applied to the sign bit (bit 15 of an f16 half)."""
    value = read(sm, b, op)
    sign = SIGN16 if f16 else SIGN
    if getattr(op, "abs", False):
        value = value & ~sign
    if getattr(op, "neg", False):
        value = value ^ sign
    return value


# FlexGripPlus (profile.flexgrip_fpu): its decoder (pipeline_decode.vhd) picks the negations and the
# FPU's 2-bit rounding mode from fixed instruction bits, whatever the form; bits 63:32 of a 32-bit
# instruction are 0 (pipeline_fetch.vhd clears them when it reads a short instruction). The rounding
# mode is not the decoder's cvt_round: streaming_multiprocessor.vhd (uPipelineExecute's port map,
# line 815) wires the execute stage's cvt_round_in to abs_saturate_re, the decoder's bits 52:51.


def _fg_bit(insn: Instruction, n: int, width: int = 1) -> int:
    if n >= 32 and insn.size == 4:
        return 0
    return (insn.word >> n) & ((1 << width) - 1)


def _fg_neg(value: np.ndarray, neg: int) -> np.ndarray:
    return value ^ SIGN if neg else value


def _fg_is_imm(insn: Instruction) -> bool:
    """FlexGripPlus's IMM marker: a 64-bit word with bits 33:32 = 11 (the immediate forms)."""
    return insn.size == 8 and (insn.word >> 32) & 3 == 3


def _fg_rmode(insn: Instruction) -> int:
    """The FPU's rmode: pipeline_decode's abs_saturate (bits 52:51, "00" for the immediate forms; line
    411), which the SM connects to the execute stage's cvt_round_in in place of the decoder's
    cvt_round (FADD 17:16, FMUL 47:46, others 50:49; pipeline_decode.vhd line 414), which nothing
    reads. So .TRUNC and the other rounding suffixes do nothing, every 32-bit instruction rounds to
    nearest, and a long form with bit 51 or 52 set (e.g. FMAD R6, |R4|, ...) truncates."""
    if _fg_is_imm(insn):
        return 0
    return _fg_bit(insn, 51, 2)


def _fg_negs(insn: Instruction, fam: str) -> tuple[int, int, int]:
    """pipeline_decode's src1_neg / src2_neg / src3_neg for the FPU's operations."""
    long_, imm = insn.size == 8, _fg_is_imm(insn)
    if fam in ("fadd", "fmul"):
        if not long_:
            n1 = _fg_bit(insn, 15)
        elif not imm:
            n1 = _fg_bit(insn, 58)
        else:
            n1 = 0
        if fam == "fadd" and not long_:
            n2 = _fg_bit(insn, 22)
        elif long_ and not imm:
            n2 = _fg_bit(insn, 59)
        elif imm:
            n2 = 0
        else:
            n2 = _fg_bit(insn, 49)
        return n1, n2, _fg_bit(insn, 22)
    # fmad
    if long_ and not imm:
        return _fg_bit(insn, 58), 0, _fg_bit(insn, 59)
    if long_:
        return _fg_bit(insn, 15), 0, _fg_bit(insn, 22)
    return _fg_bit(insn, 48), 0, _fg_bit(insn, 22)


def _fg_sources(sm: SM, b: Batch, insn: Instruction, ops: dict, fam: str) -> list[np.ndarray]:
    others = [ops.get("src2") or ops.get("imm"), ops.get("src3")]
    if fam == "fadd":
        others = [ops.get("src3") or ops.get("src2") or ops["imm"], None]
    negs = _fg_negs(insn, fam)
    srcs = [_fg_src1(insn, ops["src1"], fam), *others]
    # an immediate is its 32 bits (sign included): the decoder's src2_neg is 0 for the immediate forms, so
    # the negated-immediate bit of FADD32I/FMUL32I -(..) (bit 22) does nothing (flexgrip_findings fp_imm_forms)
    return [_fg_neg(_fg_read(sm, b, insn, op), n) for op, n in zip(srcs, negs, strict=True) if op is not None]


def _fg_regs(insn: Instruction, ops: dict, fam: str) -> dict:
    """Destination, second and third sources as pipeline_decode.vhd takes them (flexgrip_findings
    fp_imm_forms, fp_long_operand_bits).

    dest_i is 7 bits (8:2) for a 64-bit ALU instruction (line 702), so the .SAT bit 8 of FADD32I/
    FMUL32I/FMAD32I makes Rd R(d + 64), and FMAD32I reads its third source there (line 692).
    For the long non-immediate FMUL, FMAD and FSET, the second source is field 22:16 (line 672), a
    constant word when bit 54 is set (instr_src2_const_i, line 386: G80's constant-bank field, so
    FMAD.FLOOR/.TRUNC read c[field] and c[0x0][n] reads Rn), else, when bit 52 is set and no address
    register is named (addr_imm_i, line 605; Read/read_source_ops.vhd gives src2 the field's value
    when addr_imm_in = '1'), the field's value itself, else register R(field); FMAD's third source
    is a constant word (52:46) when bits 54 and 24 are set (line 393), else register 51:46 (line 693);
    FMAD32's is R0 (or constant word 0), not G80's Rd.
    """
    out = dict(ops)
    dst, src3 = ops["dst"], ops.get("src3")
    if _fg_is_imm(insn):
        if isinstance(dst, RegOperand) and not dst.half and _fg_bit(insn, 8):
            out["dst"] = dst = replace(dst, index=dst.index | 64)
            if fam == "fmad" and isinstance(src3, RegOperand):
                out["src3"] = replace(src3, index=dst.index)
        return out
    if insn.size == 4 and fam == "fmad":
        # FMAD32: src3_i falls to the generic ALU case, bits 52:46 (line 695), which a 32-bit instruction
        # does not have: R0, or constant word 0 when bit 24 (its shared-source flag) is set (line 393)
        out["src3"] = ConstOperand(0, 0, 4) if _fg_bit(insn, 24) else RegOperand(0)
        return out
    if insn.size != 8 or fam not in ("fmul", "fmad", "fset"):
        return out
    areg = _fg_bit(insn, 34) << 2 | _fg_bit(insn, 26, 2)
    src2 = ops.get("src2")
    if isinstance(src2, (RegOperand, ConstOperand)) and not getattr(src2, "half", False):
        field = _fg_bit(insn, 16, 7)
        if _fg_bit(insn, 54):
            out["src2"] = ConstOperand(0, 4 * field, 4)
        elif _fg_bit(insn, 52) and areg == 0:
            out["src2"] = ImmOperand(field)
        else:
            out["src2"] = RegOperand(field)
    if fam == "fmad" and isinstance(src3, (RegOperand, ConstOperand)) and not getattr(src3, "half", False):
        if _fg_bit(insn, 54) and _fg_bit(insn, 24):
            out["src3"] = ConstOperand(0, 4 * _fg_bit(insn, 46, 7), 4)
        else:
            out["src3"] = RegOperand(_fg_bit(insn, 46, 6))
    return out


def _fg_src1(insn: Instruction, op: object, fam: str) -> object:
    """The first source register as pipeline_decode.vhd numbers it (src1_i, lines 621-627): 7 bits (15:9)
    for the long FADD/FMUL forms, immediate ones included, where bit 15 of FADD32I/FMUL32I is G80's
    negation of the source (so -R5 reads R69, unnegated: src1_neg_i is 0 for them); 6 bits (14:9) for
    FMAD's long forms."""
    if isinstance(op, SharedOperand) and insn.size == 8 and _fg_is_imm(insn) and fam in ("fadd", "fmul", "fmad"):
        # the immediate forms encode g [n] as the short forms do (type 14:13, offset 12:9) but the decoder
        # takes the long forms' 5-bit offset 13:9 (line 627), the type's low bit included: g [n + 0x10]
        # for 16- and 32-bit operands (flexgrip_findings fp_imm_forms)
        return replace(op, offset=op.offset + (_fg_bit(insn, 13) << 4) * op.size)
    if not isinstance(op, RegOperand) or op.half or insn.size != 8:
        return op
    if fam in ("fadd", "fmul") and _fg_is_imm(insn):
        return replace(op, index=op.index | _fg_bit(insn, 15) << 6, neg=False)
    if fam == "fmad":
        return replace(op, index=op.index & 0x3F)
    return op


def _fg_read(sm: SM, b: Batch, insn: Instruction, op: object) -> np.ndarray:
    """A source as FlexGripPlus reads it. With profile.const_short_unsplit, the constant operand c[b][n]
    of a 32-bit instruction is the flat constant word 32 * b + n: the decoder passes the 6-bit operand
    field (bits 21:16, bank bit and word offset) on whole as the word address (flexgrip_findings
    short_const_unsplit), where a long form's bank is ignored (const_bank_ignored)."""
    if sm.profile.const_short_unsplit and insn.size == 4 and isinstance(op, ConstOperand):
        addr = sm.mem_address(b, op.areg, op.offset + 128 * op.bank, op.postinc, op.size)
        return sm.const_load(b, 0, addr, op.size, op.signed)
    return read(sm, b, op)


def _fg_flags(sm: SM, res: np.ndarray, fset: bool = False) -> np.ndarray:
    """$c of an FP instruction under the flexgrip profile. With fp_flags_from_sp, as FlexGripPlus's
    pipeline_execute.vhd forms them: for FSET S is the comparison and Z its negation; for the other FP
    instructions Z and S come from the scalar processor, which computed nothing (Z = 1, S = 0); C and O
    are 0. Otherwise the G80 float flags of the result."""
    from .arith.fp import fp_flags

    if not sm.profile.fp_flags_from_sp:
        return fp_flags(res)
    if fset:
        return np.where(res != 0, 2, 1).astype(np.uint8)
    return np.ones(res.shape, np.uint8)


def _fg_fadd_sync(res: np.ndarray, a: np.ndarray, c: np.ndarray, group: int) -> np.ndarray:
    """FADD results as pipeline_execute.vhd takes them from its `group` fpu_single units (one per SP,
    each running one lane of the sub-warp, masked lanes included: the read stage reads every lane).

    fpu_single (fpu_top_32_new.vhd) sends a lane whose true operands are both positive to its adder
    (WORK for 15 cycles) and any other to the subtractor (16 cycles); it raises `finished` one cycle
    into DONE, leaves DONE two cycles later and clears out_fp in IDLE. The execute stage waits for
    every unit's `finished` (ALU_EXEC, and_reduce) and copies the outputs one edge later (ALU_DONE),
    by which time a unit that finished a cycle early has gone back to IDLE: its lane reads 0
    whenever another lane of its sub-warp took the subtractor."""
    sub = ((a | c) >> np.uint32(31)).astype(bool).reshape(-1, group)
    early = ~sub & sub.any(axis=1, keepdims=True)
    return np.where(early.reshape(-1), np.uint32(0), res).astype(U32)


def _fg_arith(sm: SM, b: Batch, insn: Instruction, ops: dict, fam: str) -> None:
    from .arith import flexgrip_fp as ffp

    fn = {"fadd": ffp.fadd, "fmul": ffp.fmul, "fmad": ffp.fmad}[fam]
    ops = _fg_regs(insn, ops, fam)
    srcs = _fg_sources(sm, b, insn, ops, fam)
    if _fg_bit(insn, 61, 3):
        # pipeline_decode.vhd (alu_opcode_i, lines 521-523) decodes FADD/FMUL/FMAD only with bits 63:61 = 000;
        # with .SAT (bit 61 of FADD and FMAD) the ALU opcode is UNKNOWN: no FPU, and the scalar processor's
        # result for an opcode it does not know is 0 (scalar_processor.vhd, result_out)
        res = np.zeros(b.n, U32)
    else:
        # FADD in the SM is read one edge later than fpu_single alone gives it (finding fadd_read_in_sm)
        late = {"read": ffp.READ_SM if sm.profile.fadd_read_in_sm else ffp.READ_UNIT} if fam == "fadd" else {}
        res = fn(*srcs, rmode=_fg_rmode(insn), **late)
    group = sm.profile.fpu_sync_lanes
    if fam == "fadd" and group and not _fg_bit(insn, 61, 3):
        res = _fg_fadd_sync(res, srcs[0], srcs[1], group)
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, _fg_flags(sm, res))


@family("fadd")
def exe_fadd(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    if sm.profile.flexgrip_fpu:
        return _fg_arith(sm, b, insn, ops, "fadd")
    f = insn.fields
    a = fsrc(sm, b, ops["src1"])
    other = ops.get("src3") or ops.get("src2") or ops["imm"]
    c = fsrc(sm, b, other)
    if insn.form.fmt == "long":
        rnd, sat = (fp.RZ if f["arnd"] == 3 else fp.RN), bool(f["m29"])
    else:
        rnd, sat = fp.RN, bool(f["m8"])
    res, flags = fp.fadd(a, c, rnd, sat)
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("fmul")
def exe_fmul(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    if sm.profile.flexgrip_fpu:
        return _fg_arith(sm, b, insn, ops, "fmul")

    f = insn.fields
    a = fsrc(sm, b, ops["src1"])
    c = fsrc(sm, b, ops.get("src2") or ops["imm"])
    rnd = fp.RZ if insn.form.fmt == "long" and f["frnd"] == 3 else fp.RN
    # FMUL32(I).SAT: G80 ignores the saturation bit of fmul (G200 only, FP_SFU.md 1.5)
    res, flags = fp.fmul(a, c, rnd)
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("fmad")
def exe_fmad(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    if sm.profile.flexgrip_fpu:
        return _fg_arith(sm, b, insn, ops, "fmad")

    f = insn.fields
    a = fsrc(sm, b, ops["src1"])
    c = fsrc(sm, b, ops.get("src2") or ops["imm"])
    d = fsrc(sm, b, ops["src3"])
    sat = bool(f["m29"]) if insn.form.fmt == "long" else bool(f["m8"])
    res, flags = fp.fmad(a, c, d, sat, flags=cwe(insn))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("fminmax")
def exe_fminmax(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    fn = fp.fmin if insn.form.name == "FMIN" else fp.fmax
    res, flags = fn(fsrc(sm, b, ops["src1"]), fsrc(sm, b, ops["src2"]))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("fset")
def exe_fset(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    if sm.profile.flexgrip_fpu:  # condition bits 48:46, |.| as a comparison mode (bit 52), no negations
        from .arith import flexgrip_fp as ffp

        ops = _fg_regs(insn, ops, "fset")
        res = ffp.fset(_fg_bit(insn, 46, 3), _fg_read(sm, b, insn, ops["src1"]), _fg_read(sm, b, insn, ops["src2"]), bool(_fg_bit(insn, 52)))
        write(sm, b, ops["dst"], res)
        flags_out(sm, b, insn, _fg_flags(sm, res, fset=True))
        return
    res, flags = fp.fset(insn.fields["fcond"], fsrc(sm, b, ops["src1"]), fsrc(sm, b, ops["src2"]))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("fslct")
def exe_fslct(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    res, flags = fp.fslct(read(sm, b, ops["src1"]), read(sm, b, ops["src2"]), fsrc(sm, b, ops["src3"]))
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


def _fg_cvt_src(sm: SM, b: Batch, insn: Instruction, op: object) -> np.ndarray:
    """A conversion's source as FlexGripPlus's read stage delivers it. A shared source g [n] is read at
    the 7-bit field 15:9 (pipeline_decode.vhd src1_i, the FCONV case of line 626, ahead of the shared
    cases), type bits included: g [0x4].U32 reads g [0x64]. A low half register read with an 8-bit
    conversion type (bits 48:46 = 010 or 110, cvt_type_to_data_type DT_U8/DT_S8) keeps 8 bits
    (vector_register_controller.vhd, READ_REGS: and x"000000FF"), unextended."""
    if isinstance(op, SharedOperand) and insn.size == 8:
        op = replace(op, offset=_fg_bit(insn, 9, 7) * op.size)
    x = read(sm, b, op)
    if isinstance(op, RegOperand) and op.half and not op.index & 1 and _fg_bit(insn, 46, 3) in (0b010, 0b110):
        x = x & U32(0xFF)
    return x


def _fg_cvt_flags(sm: SM, insn: Instruction, x: np.ndarray, res: np.ndarray) -> np.ndarray:
    """$c of an F2F/F2I/I2F under flexgrip_fpu. With fp_flags_from_sp, as FlexGripPlus makes them: the
    execute stage takes Z and S from the scalar processor (pipeline_execute.vhd, gPredicateFlags), which
    runs its integer CVT on the same source (ScalarProcessor/convert_int_int.vhd) while the FPU converts:
    Z = that value is 0, S = its bit 31 (bit 15 when w32, bit 58, is clear) for a signed conversion
    (is_signed_i: bit 59 for F2I, bit 48 for I2F, else 0; pipeline_decode.vhd lines 562-563); C and O as
    for the other FP instructions (0). Otherwise the G80 float flags of the result."""
    from .arith import flexgrip_fp as ffp
    from .arith.fp import fp_flags

    if not sm.profile.fp_flags_from_sp:
        return fp_flags(res)
    subop = _fg_bit(insn, 61, 3)
    v = ffp.sp_convert(_fg_bit(insn, 46, 3), subop == 0b001, _fg_bit(insn, 51, 2), x)
    signed = _fg_bit(insn, 59) if subop == 0b100 else _fg_bit(insn, 48) if subop == 0b010 else 0
    sign = (v >> U32(31 if _fg_bit(insn, 58) else 15)) & U32(1) if signed else np.zeros_like(v)
    return ((v == 0).astype(np.uint8) | (sign.astype(np.uint8) << 1)).astype(np.uint8)


def _fg_cvt(insn: Instruction, mode: str, x: np.ndarray) -> np.ndarray:
    """An I2F/F2I under flexgrip_fpu: the FPU's conversion when the sub-op (bits 63:61) is one the
    execute stage sends to the FPU (010 I2F, 100 F2I; pipeline_execute.vhd, fpu_en), else the scalar
    processor's integer CVT: G80's negation (bit 61) turns 100 into 101 and 010 into 011, so
    F2I.S32.F32 R6, -R4 writes R4's bits (flexgrip_findings cvt_negated_source)."""
    from .arith import flexgrip_fp as ffp

    subop = _fg_bit(insn, 61, 3)
    if subop in (0b010, 0b100):
        return ffp.conv(mode, x)
    return ffp.sp_convert(_fg_bit(insn, 46, 3), subop == 0b001, _fg_bit(insn, 51, 2), x)


@family("i2f")
def exe_i2f(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    f = insn.fields
    if sm.profile.flexgrip_fpu:  # fpu_conv: 32-bit integers only, to nearest even, no abs/neg
        from .arith import flexgrip_fp as ffp

        signed = _SRC_TYPES[f["srct"]][0]
        x = _fg_cvt_src(sm, b, insn, ops["src1"])
        res = _fg_cvt(insn, ffp.S2F if signed else ffp.U2F, x)
        write(sm, b, ops["dst"], res)
        flags_out(sm, b, insn, _fg_cvt_flags(sm, insn, x, res))
        return
    signed, bits = _SRC_TYPES[f["srct"]]
    res, flags = fp.i2f(read(sm, b, ops["src1"]), signed, bits, f["rnd"], dst_f16=not f["width"], sat=bool(f["m19"]),
                        abs_=bool(f["m20"]), neg=bool(f["m29"]))  # fmt: skip
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("f2i")
def exe_f2i(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    f = insn.fields
    if sm.profile.flexgrip_fpu:  # fpu_conv: 32-bit results, to nearest even whatever the rounding mode
        from .arith import flexgrip_fp as ffp

        x = _fg_cvt_src(sm, b, insn, ops["src1"])
        res = _fg_cvt(insn, ffp.F2S if f["signed"] else ffp.F2U, x)
        write(sm, b, ops["dst"], res)
        flags_out(sm, b, insn, _fg_cvt_flags(sm, insn, x, res))
        return
    f16 = not f["m14"]
    res, flags = fp.f2i(fsrc(sm, b, ops["src1"], f16), bool(f["signed"]), 32 if f["width"] else 16, f["rnd"], src_f16=f16)
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("f2f")
def exe_f2f(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    f = insn.fields
    if sm.profile.flexgrip_fpu and _fg_bit(insn, 62, 2) == 3:
        # fpu_conv: sub-op 111 negates, 110 moves (|.| with bit 52), after the source negation of bit 48
        from .arith import flexgrip_fp as ffp

        mode = ffp.NEG if _fg_bit(insn, 61) else (ffp.ABSO if _fg_bit(insn, 52) else ffp.TRSFR)
        x = _fg_cvt_src(sm, b, insn, ops["src1"])
        res = ffp.conv(mode, _fg_neg(x, _fg_bit(insn, 48)))
        write(sm, b, ops["dst"], res)
        flags_out(sm, b, insn, _fg_cvt_flags(sm, insn, x, res))
        return
    f16 = not f["m14"]
    res, flags = fp.f2f(fsrc(sm, b, ops["src1"], f16), f["rnd"], bool(f["m27"]), bool(f["m19"]), src_f16=f16, dst_f16=not f["width"])
    write(sm, b, ops["dst"], res)
    flags_out(sm, b, insn, flags)


@family("rro")
def exe_rro(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    from .arith import sfu

    if sm.profile.flexgrip_sfu:  # rro.vhd reads the register as it is
        from .arith import flexgrip_rro

        write(sm, b, ops["dst"], flexgrip_rro.rro(bool(insn.fields["m14"]), read(sm, b, ops["src1"])))
        return
    fn = sfu.preex2 if insn.fields["m14"] else sfu.presin
    write(sm, b, ops["dst"], fn(fsrc(sm, b, ops["src1"])))


_SFU = {"RCP": "rcp", "RCP32": "rcp", "RSQ": "rsqrt", "LG2": "lg2", "SIN": "sin", "COS": "cos", "EX2": "ex2"}


@family("sfu")
def exe_sfu(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    from .arith import sfu

    if sm.profile.flexgrip_sfu:  # sfu.vhd reads the register as it is (no |.|, -, .SAT)
        from .arith import flexgrip_sfu as fsfu

        selop = {"SIN": fsfu.SIN, "COS": fsfu.COS, "RSQ": fsfu.RSQ, "LG2": fsfu.LG2, "EX2": fsfu.EX2}.get(insn.form.name, fsfu.RCP)
        src = ops["src1"]
        if isinstance(src, RegOperand) and not src.half and insn.size == 4:
            # src1_i of an SFU instruction is bits 15:9 whatever the format (pipeline_decode.vhd, lines 629-631):
            # RCP32's |.| (bit 15) makes |R4| read R68 (flexgrip_findings sfu_short_abs_register)
            src = replace(src, index=src.index | _fg_bit(insn, 15) << 6)
        write(sm, b, ops["dst"], fsfu.sfu(selop, read(sm, b, src)))
        return
    x = fsrc(sm, b, ops["src1"])
    if insn.form.name == "EX2":
        res = sfu.ex2(x, sat=bool(insn.fields.get("sat")))
    else:
        res = getattr(sfu, _SFU[insn.form.name])(x)
    write(sm, b, ops["dst"], res)


@family("nop")
def exe_nop(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    return


@family("tex")
def exe_tex(sm: SM, b: Batch, insn: Instruction, ops: dict) -> None:
    # The SM model has no texture unit, texture memory or texture/sampler state (a kernel's
    # textures are bound by the driver, which this model does not have): refuse by name rather
    # than compute something.
    from ..errors import UnimplementedError

    w = b.warps[0]
    raise UnimplementedError(
        f"{insn.form.mnemonic} at PC {w.pc:#06x} is not implemented ({insn.text}; block {w.block.index} warp {w.wid}): "
        "texture instructions are decoded but neither the model nor the RTL has a texture unit"
    )
