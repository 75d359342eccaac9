"""Operands as FlexGripPlus 4.4's decoder and read stage take them, where they differ from G80's
reading of the same instruction bits (flexgrip profile switches of golden/g80/profile.py, the
"integer, memory and address-register decode" block; findings in golden/g80/flexgrip_findings.py).

`adapt` rewrites a decoded instruction's operands once, when the model first plans the PC
(golden/g80/sm.SM.plan); the families of golden/g80/execute.py then run unchanged. Every rule cites the
VHDL line that causes it (FlexGripPlus_4.4/RTL/SMP/Pipeline/...; the lines are those of upstream
commit 04db37b).
"""

from __future__ import annotations

from dataclasses import replace

from .decoder import Instruction
from .operands import ConstOperand, RegOperand, SharedOperand
from .profile import Profile

# integer families whose long forms take a shared first operand through pipeline_decode.vhd's
# generic ALU case of src1_i (bits 12:9); FADD/FMUL/FMAD have their own case (bits 13:9)
_INT_ALU = frozenset({"iadd", "imul", "imad", "isad", "iset", "iminmax", "shift", "lop", "i2i"})


def adapt(profile: Profile, insn: Instruction, ops: dict[str, object]) -> dict[str, object]:
    """The operands `ops` (role -> operand) of `insn` as FlexGripPlus reads them under `profile`."""
    fam = insn.form.family
    out = dict(ops)
    if profile.c2r_dest_r0 and fam == "c2r":
        # dest_i (Decode/pipeline_decode.vhd, the dest_i selection) has no case for a MOV of type
        # LOAD from FLAGS (opcode 0, sub-op 1): the destination falls to (others => '0'), R0
        dst = out["dst"]
        assert isinstance(dst, RegOperand)
        out["dst"] = replace(dst, index=0, half=False)
    if profile.lop32i_w32_imm_bit30 and insn.form.name == "LOP32I":
        # dest_i of a long ALU instruction is instruction_in(8 downto 2): seven bits, where G80's LOP32I has a
        # 6-bit destination and bit 8 is the low bit of its lop field (.OR, .PASS_B): LOP32I.OR R6, ... writes
        # register 70, half register R35L in the 16-bit reading (GHDL, lop PC 0x2c0)
        dst = out["dst"]
        assert isinstance(dst, RegOperand)
        out["dst"] = replace(dst, index=(insn.words[0] >> 2) & 0x7F)
    if profile.lop32i_w32_imm_bit30 and insn.form.name == "LOP32I" and not (insn.fields.get("imm", 0) >> 30) & 1:
        # w32_i of AND/OR/XOR/NEG is instruction_in(58) whatever the format (Decode/pipeline_decode.vhd); in an
        # immediate form that is bit 30 of the immediate (imm_hi_i = instruction_in(59 downto 34) above bits 5:0).
        # Clear, the operation is 16-bit and the register fields name half registers: LOP32I.AND R5, R5, 0x7f
        # reads and writes half register 5, R2's upper half
        for role in ("dst", "src1"):
            op = out[role]
            if isinstance(op, RegOperand):  # a shared source g [n] is read by its own type
                out[role] = replace(op, half=True)
    if profile.regs_typed_by_decoder and fam in ("shift", "iset"):
        # the decoder gives these operands 32-bit data types whatever the instruction's width, so a 16-bit
        # form's half-register field (2n + high) names the full register of that number:
        # SHL/SHR's count, src2_data_type_i "DT_U32 when SHL or SHR"; ISET's sources and destination,
        # subop_to_data_type of sub-op 3, DT_U32 (Decode/pipeline_decode.vhd)
        roles = ("src2",) if fam == "shift" else ("dst", "src1", "src2")
        for role in roles:
            op = out.get(role)
            if isinstance(op, RegOperand) and op.half:
                out[role] = replace(op, half=False)
    if profile.regs_typed_by_decoder and fam == "iadd" and insn.fields.get("addop") == 2:
        # subr (-a + b) is FlexGripPlus's ISUB, which src1_data_type_i and dest_data_type_i do not list (the
        # comment at src1_data_type_i notes IADD's case was added there, not ISUB's): its first source and its
        # destination are DT_U32, full registers numbered by the half-register field, while src2_data_type_i
        # has ISUB (reg_to_data_type, a half) and the add itself is 16-bit (w32_i)
        for role in ("dst", "src1"):
            op = out.get(role)
            if isinstance(op, RegOperand) and op.half:
                out[role] = replace(op, half=False)
    src = out.get("src1")
    if profile.shared_offset_unsigned and isinstance(src, SharedOperand) and src.offset < 0:
        # G80 reads a post-increment operand's offset field as signed (g [A1++-0x1]); FlexGripPlus's src1_i
        # takes it unsigned: instruction_in(13 downto 9) for a long MOV or FP source, (12 downto 9) for a
        # 32-bit instruction's (Decode/pipeline_decode.vhd, src1_i), so -1 is offset 31 (15)
        bits = 0xF if insn.form.fmt == "short" else 0x1F
        out["src1"] = src = replace(src, offset=((src.offset // src.size) & bits) * src.size)
    if profile.mov_shared_zero_ext and fam == "mov" and isinstance(src, SharedOperand) and src.signed:
        # a MOV from shared memory (opcode 1, sub-op 0) is mov_opcode MOV, which the execute stage passes
        # through unconverted (Execution/pipeline_execute.vhd: MOV, dest REG, not IMM -> NOP); only the
        # LOAD types go through its CVT, so .S16/.S8 come out as the memory controller read them, zero-extended
        out["src1"] = replace(src, signed=False)
    if profile.alu_shared_offset_4bit and fam in _INT_ALU and insn.form.fmt != "short":
        src = out.get("src1")
        if isinstance(src, SharedOperand):
            # src1_i: "(instr_opcode_i = ALU) and (instr_src1_shared_i = '1') and (instr_is_long_b = '1')"
            # takes instruction_in(12 downto 9); the following 13:9 case for the same condition is never reached
            units = src.offset // src.size
            out["src1"] = replace(src, offset=(units & 0xF) * src.size)
    if profile.const_offset_by_type and fam in _INT_ALU:
        f = insn.fields
        short = insn.form.fmt == "short"
        width16 = not (f.get("m15", 1) if short else f.get("width", 1))
        for role, op in ops.items():
            if not isinstance(op, ConstOperand):
                continue
            # the model's c[b][n] is the 32-bit slot n of bank b (offset 4n); FlexGripPlus reads the field as
            # a flat index into its one constant space, scaled by the operand's data type:
            # Read/read_source_ops.vhd, addr_int <= calc_addr_o for an ALU constant read, and
            # Read/calculate_address.vhd shifts by the data type (DT_U16: sll 1, DT_U32: sll 2)
            index = op.offset // 4
            if short:
                # src2_i of a 32-bit instruction is instruction_in(21 downto 16): the bank bit (21) is
                # the top bit of the index, so c[0x1][n] is flat word 32 + n
                index |= (op.bank & 1) << 5
            op = replace(op, offset=index * (2 if width16 else 4), size=2 if width16 else op.size)
            if profile.const_areg_ignored and (fam == "iadd" or role == "src2"):
                # the decoder's second source (IADD's constant, bit 24; the others', bit 23) is always read
                # with READ, one address for every lane: Decode/pipeline_decode.vhd, src2_mem_opcode_i,
                # "READ when ... (src2_use_gather_b = '1')" (READ_GATHER commented out), so the constant
                # memory controller never adds $a (a post-increment still steps $a4)
                op = replace(op, areg=0)
            out[role] = op
    return out
