"""The LG encoding table: every opcode once, with its fields, operands and spelling.

Sources, cited per row as `src`:
- "seed": the ISA 1.1 slides (../shared/seeds/004_eb6d6cefbe84d076.txt): the opcode map
  (category 7:6, operation 5:3, data format 2:0), the assembly formats, which instructions set CC,
  and the bit pictures of br, jsr and jsrr;
- "asm": the course assembler's opcode enum and field layout of that term (its assembler.h and
  the TA simulator's DecodeInstruction, as summarised in ../shared/reference/LG.md, "Encoding"),
  which give the numeric opcodes and the operand bit positions the slides leave blank.
Where the opcode map and the enum agree, the row rests on both. `halt` (0xC0) appears in the
course assembler's enum only; the slides have no halt.

Field layout (asm; LG.md "Encoding"):
- scalar register-register ALU: rd 23:20, rs1 19:16, rs2 11:8;
- scalar immediate ALU, ld/st: rd (st: the source) 23:20, rs1/base 19:16, imm16 15:0;
- mov/movi/cmp/cmpi: the register in 19:16, the second source in 11:8 or imm16 15:0;
- vector: vd 21:16, vs1 13:8, vs2 5:0; vcompmov/vcompmovi: element index 23:22;
- graphics: vr 21:16; beginprimitive: type 19:16;
- jmp/jsrr: base 19:16 (ret is jmp r7); br: N, Z, P in bits 26, 25, 24 of the opcode, offset 15:0;
  jsr: offset 15:0.
Bits no field covers must be zero: a word with any of them set is illegal (an assembler that
leaves junk there would otherwise round-trip to a different word).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from golden.isa.bits import BitField
from golden.isa.decoder import Decoder
from golden.isa.form import FormBase

OPCODE = BitField("opcode", ((24, 8),))

# Operand fields, by name. An operand of a row is (field name, kind); kinds:
#   "r": scalar register r0-r15; "v": vector register v0-v63; "idx": vector element 0-3;
#   "imm": 16-bit immediate (integer or float, per the row's `imm`); "type": primitive type 0-15;
#   "off": PC offset (a label in assembly); "base": scalar register holding a jump target.
FIELDS: dict[str, BitField] = {
    "rd": BitField("rd", ((20, 4),)),
    "rs1": BitField("rs1", ((16, 4),)),
    "rs2": BitField("rs2", ((8, 4),)),
    "rm": BitField("rm", ((16, 4),)),  # mov/movi/cmp/cmpi: the register in 19:16
    "imm": BitField("imm", ((0, 16),)),
    "vd": BitField("vd", ((16, 6),)),
    "vs1": BitField("vs1", ((8, 6),)),
    "vs2": BitField("vs2", ((0, 6),)),
    "idx": BitField("idx", ((22, 2),)),
    "vr": BitField("vr", ((16, 6),)),
    "type": BitField("type", ((16, 4),)),
    "base": BitField("base", ((16, 4),)),
    "off": BitField("off", ((0, 16),), signed=True),
}


@dataclass(frozen=True)
class Op(FormBase):
    """One opcode: its mnemonic, encoding, operands in assembly order and meaning.

    A form of the generic machinery (golden.isa.form): its fields are the opcode and its operand
    fields, the opcode is its one identifying field, and `mask` is the bits those fields cover."""

    mnemonic: str  # the course spelling, lower case: "add.d", "vcompmovi", "brnz"
    opcode: int  # bits 31:24
    operands: tuple[tuple[str, str], ...]  # (field name, kind) in assembly order
    family: str  # the semantic routine of the golden model that executes it
    setcc: bool = False  # marked (+) in the seed's opcode map: sets CC from its result
    imm: str = ""  # "int" or "float": how the imm operand is read
    src: tuple[str, ...] = ("seed", "asm")
    doc: str = ""
    mask: int = field(init=False)  # the bits the opcode and the operand fields cover

    def __post_init__(self) -> None:
        self.derive_masks()
        object.__setattr__(self, "mask", self.covered)

    @property
    def name(self) -> str:
        return self.mnemonic

    @property
    def fields(self) -> dict[str, BitField]:  # type: ignore[override]
        return {"opcode": OPCODE, **{name: FIELDS[name] for name, _ in self.operands}}

    @property
    def fixed(self) -> dict[str, int]:  # type: ignore[override]
        return {"opcode": self.opcode}


def _ops() -> list[Op]:
    R, V, IM = "r", "v", "imm"
    rrr = (("rd", R), ("rs1", R), ("rs2", R))
    rri = (("rd", R), ("rs1", R), ("imm", IM))
    ops = [
        # category 00: arithmetic and memory (seed opcode map; asm enum)
        Op("add.d", 0x00, rrr, "alu", True, doc="integer add"),
        Op("addi.d", 0x01, rri, "alu", True, "int", doc="integer add immediate"),
        Op("vadd", 0x02, (("vd", V), ("vs1", V), ("vs2", V)), "vector", doc="element-wise add of four elements"),
        Op("add.f", 0x04, rrr, "alu", True, doc="floating-point add"),
        Op("addi.f", 0x05, rri, "alu", True, "float", doc="floating-point add immediate"),
        Op("and.d", 0x08, rrr, "alu", True, doc="bitwise and"),
        Op("andi.d", 0x09, rri, "alu", True, "int", doc="bitwise and with an immediate"),
        Op("mov", 0x10, (("rm", R), ("rs2", R)), "move", True, doc="scalar register move"),
        Op("movi.d", 0x11, (("rm", R), ("imm", IM)), "move", True, "int", doc="integer immediate move"),
        Op("vmov", 0x12, (("vd", V), ("vs1", V)), "vector", doc="vector register move"),
        Op("movi.f", 0x15, (("rm", R), ("imm", IM)), "move", True, "float", doc="floating-point immediate move"),
        Op("vmovi", 0x17, (("vd", V), ("imm", IM)), "vector", imm="float", doc="the immediate into all four elements"),
        Op("cmp", 0x18, (("rm", R), ("rs2", R)), "compare", True, doc="CC from comparing two registers"),
        Op("cmpi", 0x19, (("rm", R), ("imm", IM)), "compare", True, "int", doc="CC from comparing a register with an immediate"),
        Op("vcompmov", 0x22, (("vd", V), ("idx", "idx"), ("rs2", R)), "vector", doc="a scalar register into one element"),
        Op("vcompmovi", 0x27, (("vd", V), ("idx", "idx"), ("imm", IM)), "vector", imm="float", doc="an immediate into one element"),
        Op("ldb", 0x29, (("rd", R), ("base", R), ("imm", IM)), "load", True, "int", doc="load a byte from base + offset"),
        Op("ldw", 0x2A, (("rd", R), ("base", R), ("imm", IM)), "load", True, "int", doc="load a 16-bit word from base + offset"),
        Op("stb", 0x31, (("rd", R), ("base", R), ("imm", IM)), "store", imm="int", doc="store the low byte at base + offset"),
        Op("stw", 0x32, (("rd", R), ("base", R), ("imm", IM)), "store", imm="int", doc="store a 16-bit word at base + offset"),
        # category 01: GPU operations
        Op("setvertex", 0x42, (("vr", V),), "vertex", doc="a vertex from vr[1..3] (x, y, z), transformed by the current matrix"),
        Op("setcolor", 0x4A, (("vr", V),), "color", doc="the current colour from vr[0..2] (r, g, b)"),
        Op("rotate", 0x52, (("vr", V),), "transform", doc="rotate the current matrix by angle vr[0] about z (sign from vr[3])"),
        Op("translate", 0x5A, (("vr", V),), "transform", doc="translate the current matrix by vr[1], vr[2]"),
        Op("scale", 0x62, (("vr", V),), "transform", doc="scale the current matrix by vr[1], vr[2]"),
        # category 10: GPU setup
        Op("pushmatrix", 0x80, (), "matrix", doc="push the current matrix"),
        Op("popmatrix", 0x88, (), "matrix", doc="pop the current matrix"),
        Op("beginprimitive", 0x91, (("type", "type"),), "primitive", doc="start a primitive of the given type"),
        Op("endprimitive", 0x98, (), "primitive", doc="end the primitive: rasterise it"),
        Op("loadidentity", 0xA0, (), "matrix", doc="the identity as the current matrix"),
        Op("flush", 0xB0, (), "frame", doc="clear the frame buffer"),
        Op("draw", 0xB8, (), "frame", doc="show the frame buffer; ends the frame"),
        # category 11: control flow
        Op("halt", 0xC0, (), "halt", src=("asm",), doc="stop the program (course assembler only; not in the slides)"),
    ]
    for nzp in range(1, 8):
        cond = "".join(c for c, bit in (("n", 4), ("z", 2), ("p", 1)) if nzp & bit)
        ops.append(Op(f"br{cond}", 0xD8 | nzp, (("off", "off"),), "branch", doc=f"branch when CC has any of {cond.upper()}"))
    ops += [
        Op("jmp", 0xE0, (("base", "base"),), "jump", doc="jump to the address in the base register"),
        Op("jsr", 0xF0, (("off", "off"),), "jump", doc="R7 <- return address; branch by the offset"),
        Op("jsrr", 0xF8, (("base", "base"),), "jump", doc="R7 <- return address; jump to the base register"),
    ]
    return ops


OPS: tuple[Op, ...] = tuple(_ops())
BY_OPCODE: dict[int, Op] = {op.opcode: op for op in OPS}
BY_MNEMONIC: dict[str, Op] = {op.mnemonic: op for op in OPS}
# `ret` is `jmp r7` (seed: "a special case of the JMP instruction"); it has no opcode of its own
ALIASES: dict[str, tuple[str, dict[str, int]]] = {"ret": ("jmp", {"base": 7})}

assert len(BY_OPCODE) == len(OPS) == 43, "one row per opcode"

# every LG word is 32 bits with its opcode in 31:24, so the table is one group
DECODER: Decoder[Op] = Decoder(OPS)


class IllegalWord(ValueError):
    """A 32-bit word that is no LG instruction: the message names the opcode or the stray bits."""


@dataclass(frozen=True)
class Insn:
    """A decoded instruction: its row and its field values."""

    op: Op
    fields: dict[str, int]
    word: int

    def __getitem__(self, name: str) -> int:
        return self.fields[name]


def decode(word: int) -> Insn:
    """One 32-bit word -> Insn; IllegalWord names what does not decode."""
    if not 0 <= word <= 0xFFFFFFFF:
        raise IllegalWord(f"{word:#x} is not a 32-bit word")
    op = DECODER.match(word)
    if op is None:
        raise IllegalWord(f"{word:#010x}: opcode {OPCODE.extract(word):#04x} (bits 31:24) is no LG opcode")
    stray = op.stray(word, 0xFFFFFFFF)
    if stray:
        bits = [b for b in range(32) if stray >> b & 1]
        raise IllegalWord(f"{word:#010x}: {op.mnemonic} has bits {', '.join(map(str, reversed(bits)))} set, which no field of it uses")
    return Insn(op, {name: FIELDS[name].extract(word) for name, _ in op.operands}, word)


def encode(mnemonic: str, **values: int) -> int:
    """The word of `mnemonic` with the given field values (a missing field is an error)."""
    if mnemonic in ALIASES:
        mnemonic, fixed = ALIASES[mnemonic]
        values = {**fixed, **values}
    op = BY_MNEMONIC[mnemonic]
    word = op.match_value
    names = {name for name, _ in op.operands}
    if set(values) != names:
        raise ValueError(f"{mnemonic}: fields {sorted(names)} expected, got {sorted(values)}")
    for name, _ in op.operands:
        bf, v = FIELDS[name], values[name]
        if name == "imm" and v < 0:  # a two's-complement immediate (seed: "Use 2's complement")
            v &= bf.max_value
        word = bf.insert(word, v)
    return word


def scalar_dest(op: Op) -> str | None:
    """The field naming the scalar register `op` writes, or None. ALU results and loads go to rd;
    mov/movi write the register in 19:16 (rm), which cmp/cmpi only read (seed: "mov dest src",
    "cmp src1 src2"). R15 is the PC, so no instruction may name it here (the assembler rejects it)."""
    if op.family in ("alu", "load"):
        return "rd"
    if op.family == "move":
        return "rm"
    return None
