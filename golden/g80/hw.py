"""What the RTL and the testbench share, described once.

The Verilog SM (rtl/) and its testbench (tb/) must agree on a few encodings that are not part of
the instruction set: the micro-op codes the decode stage hands the functional units, the
write-back kinds, the functional-unit ids, the error codes of the `error` port (with what they
mean), the configuration bus's selects and launch registers, the values of the commit port's
enumerated fields, and the fields of the commit port. They are written here only; `scripts/gen_rtl_isa.py`
generates `rtl/gen/sm_hw.vh` (localparams) and `rtl/gen/sm_commit_port.vh` (the commit port's
declarations) from this module, the testbench imports it, and a test keeps the generated files
in sync. Importable without cocotb or a simulator.

Codes that are instruction-word fields (condition codes, IADD's add operation, rounding modes,
the SFU forms' `sec`) come from the encoding table instead (`golden.g80.table`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .table import BY_NAME

WARP_SIZE = 32  # lanes of a warp: the commit port carries all of them, whatever NUM_SP
MAX_PARTS = 4  # 32-bit parts of the widest register write (a 128-bit load: 4 registers)


class AluOp(IntEnum):
    """sm1_int_alu's `op` (the integer lane; rtl/sm1_int_alu.v says what each one computes)."""

    ADD = 0  # IADD family, with the add operation of the instruction (add, sub, subr, addc)
    MUL16 = 1
    MUL24 = 2
    MAD = 3
    SAD = 4
    SET = 5
    MIN = 6
    MAX = 7
    SHL = 8
    SHR = 9
    LOP = 10
    I2I = 11
    PASS = 12  # the B operand unchanged (moves)


class FpOp(IntEnum):
    """sm1_fp_alu's `op` (rtl/sm1_fp_alu.v's header lists the controls each one reads)."""

    FADD = 0
    FMUL = 1
    FMAD = 2
    FMIN = 3
    FMAX = 4
    FSET = 5
    FSLCT = 6
    F2I = 7
    I2F = 8
    F2F = 9


# sm1_sfu's `op`: the SFU forms' `sec` subop (opcode 9.sec, ISA.md 1.4), so the decode passes the
# field through; RRO (opcode b.6) takes the two codes opcode 9 leaves free.
SfuOp = IntEnum(  # type: ignore[misc]
    "SfuOp",
    {**{name: BY_NAME[name].fixed["sec"] for name in ("RCP", "RSQ", "LG2", "SIN", "COS", "EX2")}, "PRESIN": 1, "PREEX2": 7},
)


class Unit(IntEnum):
    """The unit whose result and flags a pass writes back (the decode's `unit`; Form.unit)."""

    INT = 0  # sm1_int_alu (and every instruction that computes nothing)
    FP = 1  # sm1_fp_alu
    SFU = 2  # sm1_sfu: NUM_SFU lanes a cycle

    @classmethod
    def of(cls, unit: str) -> Unit:
        """The id of a form's `unit` ("int", "fp", "sfu")."""
        return cls[unit.upper()]


class WbKind(IntEnum):
    """What an instruction writes back (the decode's `wb_kind`)."""

    ALU = 0  # the unit's result to the destination register, flags to $c
    R2C = 1  # $c <- source A
    R2A = 2  # $a <- source A << n
    ADA = 3  # $a <- $a + n
    R2G = 4  # shared-memory store
    MEM = 5  # global/local load or store (the memory port)
    NONE = 6  # nothing (NOP, control)


class Error(IntEnum):
    """The `error` port of sm_top (it stops the SM; `error_pc` and `error_warp` say where)."""

    NONE = 0
    ILLEGAL = 1
    FAULT = 2
    TRAP = 3
    OVERFLOW = 4
    STACK = 5
    LAUNCH = 6


class CfgSel(IntEnum):
    """The configuration bus's `cfg_sel`: what `cfg_addr` addresses."""

    IMEM = 0  # instruction memory (32-bit word address)
    CMEM = 1  # constant memory: bank << 16 | word
    LAUNCH = 2  # launch registers (LaunchReg)


class LaunchReg(IntEnum):
    """Launch registers (cfg_sel LAUNCH): written before `start`."""

    GRID_X = 0
    GRID_Y = 1
    BLOCK_X = 2
    BLOCK_Y = 3
    BLOCK_Z = 4
    REGISTERS = 5  # per thread
    SHARED = 6  # user shared bytes per block
    PARAM_BYTES = 7
    LOCAL_BYTES = 8  # per thread
    PARAMS = 16  # the first parameter word; the others follow


class MemSpace(IntEnum):
    """The commit port's `mem_space`."""

    SHARED = 0
    GLOBAL = 1
    LOCAL = 2


class GprHalf(IntEnum):
    """The commit port's `gpr_half`: which part of the register was written."""

    FULL = 0
    LOW = 1
    HIGH = 2


ERROR_MESSAGES: dict[Error, str] = {
    Error.ILLEGAL: "illegal instruction",
    Error.FAULT: "memory fault",
    Error.TRAP: "TRAP",
    Error.OVERFLOW: "SIMT stack overflow",
    Error.STACK: "SIMT stack misuse",
    Error.LAUNCH: "launch does not fit",
}


@dataclass(frozen=True)
class Encoding:
    """An enumeration as the RTL sees it: Verilog name prefix and bit width."""

    enum: type[IntEnum]
    prefix: str
    width: int
    doc: str


ENCODINGS: tuple[Encoding, ...] = (
    Encoding(AluOp, "OP_", 4, "integer ALU micro-ops (sm_decode alu_op -> sm1_int_alu op)"),
    Encoding(FpOp, "FP_", 4, "FP unit micro-ops (sm_decode fp_op -> sm1_fp_alu op)"),
    Encoding(SfuOp, "SFU_", 3, "SFU micro-ops (sm_decode sfu_op -> sm1_sfu op): the SFU forms' sec field, RRO in the free codes"),
    Encoding(Unit, "U_", 2, "the unit whose result and flags a pass writes back (sm_decode unit)"),
    Encoding(WbKind, "WB_", 3, "write-back kinds (sm_decode wb_kind)"),
    Encoding(Error, "ERR_", 4, "error codes (the error port)"),
    Encoding(CfgSel, "CFG_", 2, "configuration bus selects (cfg_sel)"),
    Encoding(LaunchReg, "LR_", 7, "launch registers (cfg_sel CFG_LAUNCH, cfg_addr)"),
    Encoding(MemSpace, "SPACE_", 2, "memory spaces (commit_mem_space)"),
    Encoding(GprHalf, "HALF_", 2, "register parts (commit_gpr_half)"),
)


@dataclass(frozen=True)
class CommitField:
    """One signal `commit_<name>` of the commit port (docs/design/rtl.md, "Ports")."""

    name: str
    width: int
    doc: str
    enable: str | None = None  # the write enable that qualifies it: don't-care (may be X) while 0


_GPR, _CC, _A, _MEM = "gpr_we", "cc_we", "a_we", "mem_we"

# In the order of the port list. Lane vectors hold lane i at [w*i +: w] for all WARP_SIZE lanes;
# lanes that did not execute are 0.
COMMIT_FIELDS: tuple[CommitField, ...] = (
    CommitField("cta", 4, "block slot"),
    CommitField("warp", 5, "warp slot"),
    CommitField("seq", 32, "per-warp sequence number"),
    CommitField("pc", 24, "byte address of the instruction"),
    CommitField("insn", 64, "the instruction (word0 in 31:0)"),
    CommitField("long", 1, "64-bit instruction"),
    CommitField("active", WARP_SIZE, "lanes active at issue"),
    CommitField("exec", WARP_SIZE, "lanes that executed (guard true)"),
    CommitField(_GPR, 1, "a register is written"),
    CommitField("gpr_reg", 7, "the (first) register written", _GPR),
    CommitField("gpr_half", 2, "0 full, 1 low half, 2 high half", _GPR),
    CommitField("gpr_count", 3, "1, 2 or 4 consecutive registers (64/128-bit loads)", _GPR),
    CommitField("gpr_data", MAX_PARTS * WARP_SIZE * 32, "part k of lane i at [1024*k + 32*i +: 32]", _GPR),
    CommitField(_CC, 1, "a $c register is written"),
    CommitField("cc_reg", 2, "the $c register", _CC),
    CommitField("cc_data", WARP_SIZE * 4, "flags of lane i at [4*i +: 4]", _CC),
    CommitField(_A, 1, "an address register is written (R2A, ADA, post-increment)"),
    CommitField("a_reg", 3, "the $a register", _A),
    CommitField("a_data", WARP_SIZE * 16, "lane i at [16*i +: 16]", _A),
    CommitField(_MEM, 1, "memory is written"),
    CommitField("mem_space", 2, "0 shared, 1 global, 2 local", _MEM),
    CommitField("mem_size", 5, "bytes per lane", _MEM),
    CommitField("mem_lanes", WARP_SIZE, "lanes that store", _MEM),
    CommitField("mem_addr", WARP_SIZE * 32, "byte address of lane i at [32*i +: 32]", _MEM),
    CommitField("mem_data", MAX_PARTS * WARP_SIZE * 32, "part k of lane i at [1024*k + 32*i +: 32]", _MEM),
    CommitField("next_pc", 24, "where the warp goes on"),
    CommitField("next_mask", WARP_SIZE, "its active lanes there"),
    CommitField("done", 1, "the warp finished"),
    CommitField("barrier", 1, "the warp waits at a barrier"),
    CommitField("unimpl", 1, "the instruction is not implemented by this RTL"),
)
COMMIT_VALID = CommitField("valid", 1, "a record is on the port this cycle")


def commit_field_names() -> tuple[str, ...]:
    """The commit port's fields after the `commit_` prefix, in port order (without `valid`)."""
    return tuple(f.name for f in COMMIT_FIELDS)


def commit_packed_fields() -> tuple[CommitField, ...]:
    """The fields `commit_packed` repeats side by side, the first at bit 0: every field but the lane
    vectors. The testbench reads them with one VPI access (one each cost it about 20 a commit) and
    wakes when that vector changes: it changes with every record, as consecutive records differ
    in warp or sequence number."""
    return tuple(f for f in COMMIT_FIELDS if f.width <= 64)


def commit_qualified() -> dict[str, tuple[str, ...]]:
    """Write enable -> the fields that carry meaning only while it is 1."""
    out: dict[str, tuple[str, ...]] = {}
    for f in COMMIT_FIELDS:
        if f.enable is not None:
            out[f.enable] = (*out.get(f.enable, ()), f.name)
    return out


def error_message(code: int) -> str:
    """What an `error` port value means ("unknown" for a code this description does not have)."""
    try:
        return ERROR_MESSAGES.get(Error(code), "no error")
    except ValueError:
        return "unknown"

