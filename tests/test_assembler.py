"""Assembler behaviour: labels, comments, numbers, pairing, exit markers, and error messages."""

from __future__ import annotations

import pytest
from conftest import TESTDATA

from golden.g80.isa import AsmError, IllegalInstruction, assemble, assemble_instruction, decode, format_listing
from golden.g80.listing import kernels, read_listing

MOV_R0_R1 = (0x10000201, 0x0403C780)  # MOV R0, R1: the long form of MOV32 R0, R1 (0x10008200)


def words(source: str) -> list[int]:
    return assemble(source).words


def test_labels_and_addresses() -> None:
    src = """
    start:  SSY join            // forward label
            BRA C0.NE, !skip    // the "!" spelling
            MVI R4, 0x1
    skip:   BRA start
    join:   NOP.S
    """
    program = assemble(src)
    assert program.labels == {"start": 0x0, "skip": 0x18, "join": 0x20}
    texts = [insn.text for insn in program.instructions]
    assert texts[:2] == ["SSY 0x20", "BRA C0.NE, 0x18"]
    assert texts[3] == "BRA 0x0"
    assert words(src) == words("SSY 0x20\nBRA C0.NE, 0x18\nMVI R4, 0x1\nBRA 0x0\nNOP.S")


def test_comments_and_semicolons() -> None:
    src = """/* a block
    comment */ MOV32 R0, R1;  # hash comment
    MOV32 R3, R2 /* inline */ ;
    """
    assert words(src) == [0x10008200, 0x1000840C]


def test_decimal_and_hex_immediates_agree() -> None:
    assert words("IADD32I R1, R1, 16") == words("IADD32I R1, R1, 0x10")
    assert words("MVI R1, -1") == words("MVI R1, 0xffffffff")


@pytest.mark.parametrize(
    ("literal", "bits"), [("0.5", 0x3F000000), ("-1.0", 0xBF800000), ("1e-3", 0x3A83126F), ("2", 0x40000000)]
)
def test_float_immediates(literal: str, bits: int) -> None:
    a = assemble_instruction(f"FMUL32I R0, R0, {literal}")
    b = assemble_instruction(f"FMUL32I R0, R0, {bits:#x}")
    assert a.words == b.words
    assert a.fields["imm"] == bits


def test_lone_short_instruction_is_promoted_before_a_long_one() -> None:
    program = assemble("MOV32 R0, R1\nMVI R2, 0x1")
    assert program.words[:2] == list(MOV_R0_R1)
    assert program.instructions[1].addr == 8
    assert program.notes and "MOV32 assembled as MOV" in program.notes[0]


def test_paired_short_instructions_stay_short() -> None:
    program = assemble("MOV32 R0, R1\nMOV32 R3, R2\nMVI R2, 0x1")
    assert program.words[:2] == [0x10008200, 0x1000840C]
    assert not program.notes


def test_three_shorts_then_long() -> None:
    program = assemble("MOV32 R0, R1\nMOV32 R3, R2\nMOV32 R0, R1\nRET")
    assert [i.addr for i in program.instructions] == [0, 4, 8, 16]
    assert program.instructions[2].form.name == "MOV"


def test_exit_marker_is_implicit_at_the_end() -> None:
    program = assemble("IADD R0, R1, R2\nGST.U32 global14[R0], R1")
    assert [i.marker for i in program.instructions] == [0, 1]
    assert assemble(".explicit_exit\nGST.U32 global14[R0], R1").instructions[0].marker == 0
    assert assemble("GST.E.U32 global14[R0], R1\nRET").instructions[0].marker == 1  # explicit, mid-program
    assert assemble("NOP.S").instructions[0].marker == 2  # a join marker is kept


def test_real_listings_assemble_as_programs() -> None:
    for path in sorted((TESTDATA / "vectors" / "listings").glob("*.txt")):
        for kernel in kernels(read_listing(str(path))):
            expected = [w for row in kernel for w in row.words]
            assert words("\n".join(row.nvidia for row in kernel)) == expected, path.name


def test_disassembly_reassembles() -> None:
    for path in sorted((TESTDATA / "vectors" / "listings").glob("*.txt")):
        for kernel in kernels(read_listing(str(path))):
            code = [w for row in kernel for w in row.words]
            lines, _ = format_listing(code)
            assert words("\n".join(lines)) == code
    code = [0x20000801, 0x04004500]  # no exit marker at the end: .explicit_exit keeps it so
    lines, _ = format_listing(code)
    assert lines[0] == ".explicit_exit" and words("\n".join(lines)) == code


# --- errors ---------------------------------------------------------------------------------


def asm_error(source: str) -> AsmError:
    with pytest.raises(AsmError) as info:
        assemble(source, "prog.sass")
    return info.value


@pytest.mark.parametrize(
    ("source", "line", "col", "phrase"),
    [
        ("IADDD R0, R1, R2", 1, 1, "did you mean IADD"),
        ("NOP\n  IADD R0, R1, Q2", 2, 16, "expected a register"),
        ("IADD R0, R1", 1, 12, "missing operand"),
        ("IADD R0, R1, R2, R3", 1, 18, "too many operands"),
        ("BRA nowhere", 1, 5, "undefined label 'nowhere'"),
        ("a: NOP\na: NOP", 2, 1, "defined twice"),
        (".frobnicate 3\nNOP", 1, 1, "unknown directive .frobnicate"),
        ("MOV R0, g [0x40]", 1, 9, "shared offset 0x40 out of range"),
        ("MOV32 R0, g [0x10]", 1, 11, "shared offset 0x10 out of range"),
        ("IADD o[0x10], R1, R2", 1, 6, "can only write o[0x7f]"),
        ("IADD32 R0 (C0.EQ), R1, R2", 1, 11, "cannot be predicated"),
        ("IADD R0 (C0.BOGUS), R1, R2", 1, 13, "unknown condition 'BOGUS'"),
        ("IADD R0 (C4.EQ), R1, R2", 1, 10, "C4 does not exist"),
        ("IADD.U16 R0, R1, R2", 1, 10, "expected a half register"),
        ("IADD R0, -R1, -R2", 1, 15, "conflicts"),
        ("IMUL.U32.U32 R0, R1, R2", 1, 1, "expected multiply type"),
        ("BRA 0x6", 1, 5, "not a multiple of 4"),
        ("MVI R200, 0x1", 1, 5, "out of range"),
        ("GLD.U32 R1, global14[R0", 1, 13, "expected a global address"),
        ("IADD32I R0, R1, 0x100000000", 1, 17, "does not fit in 32 bits"),
        ("FMUL32I R0, R0, 1e40", 1, 17, "out of single-precision range"),
        ("IMAD32.U16 R0, R1L, R2L, R3", 1, 26, "must repeat the destination R0"),
        ("FMAD R0, g [A1+0x1], c[0x1][0x2], c[0x1][0x3]", 1, 35, "at most one constant-memory operand"),
        ("MOV32 R0, R1; MOV32 R1, R0", 1, 14, "unexpected text after"),
        ("lonely:", 0, 1, "labels no instruction"),
    ],
)
def test_error_names_place(source: str, line: int, col: int, phrase: str) -> None:
    err = asm_error(source)
    assert err.file == "prog.sass"
    assert (err.line, err.col) == (line, col), err.format()
    assert phrase in err.message, err.format()
    assert err.format().startswith(f"prog.sass:{line}:{col}: error: ")


def test_error_shows_the_source_line() -> None:
    text = asm_error("NOP\nIADD R0, R1, Q2").format()
    assert "IADD R0, R1, Q2" in text and text.rstrip().endswith("^")


@pytest.mark.parametrize(
    ("words_", "addr", "phrase"),
    [
        ((0x10000201,), None, "without its second word"),
        ((0x10000201, 0x0403C780), 4, "not 8-byte aligned"),
        ((0x10000201, 0x0403C790), None, "bits w1[4]"),  # a $c register with no write enable: not in MOV
        ((0x10000201, 0x0C03C780), None, "bits w1[27]"),
        ((0x20000201, 0x0403C788), None, "o[0x0]"),
        ((0xB0010201, 0x0403C780), None, "rounding"),
        ((0x1_0000_0000,), None, "not a 32-bit word"),
        ((), 0x40, "no instruction word"),
    ],
)
def test_illegal_instruction_messages(words_: tuple[int, ...], addr: int | None, phrase: str) -> None:
    with pytest.raises(IllegalInstruction) as info:
        decode(words_, addr)
    assert phrase in str(info.value)
    if addr is not None:
        assert f"0x{addr:04x}" in str(info.value)


# --- the assembler's rules (docs/reference/assembly.md, "Assembler rules"): each error names the rule, its field and source ---

RULES = [
    # (bad source, column, phrase naming the rule, good source, (word, low bit, width, value) of the field ISA.md 1.3 gives)
    ("IADD.CARRY1 R1 (C2.EQ), R2, R3", 17, "guard register C2 must be the carry register C1: .CARRY1 reads the guard's register (one field, w1[13:12]",
     "IADD.CARRY1 R1 (C1.EQ), R2, R3", (1, 12, 2, 1)),
    ("C2R R0 (C1.EQ), C2", 17, "C2 must be the guard's register C1: this instruction reads the guard's flag register (one field, w1[13:12]",
     "C2R R0 (C2.EQ), C2", (1, 12, 2, 2)),
    ("IADD R0, g [A1+0x1], c [0x0] [A2+0x1]", 22, "only the first memory operand of an instruction can use an address register (an instruction has one $a field",
     "IADD R0, g [A1+0x1], c [0x0] [0x1]", (0, 26, 2, 1)),
    ("MOV R0, g [0x20]", 9, "shared offset 0x20 out of range 0x0..0x1f (units of 4 bytes; the offset field w0[13:9] has 5 bits (ISA.md 7.2): an encoding limit",
     "MOV R0, g [0x1f]", (0, 9, 5, 0x1F)),
    ("MOV32 R0, g [0x10]", 11, "shared offset 0x10 out of range 0x0..0xf (units of 4 bytes; the offset field w0[12:9] has 4 bits (ISA.md 7.2): an encoding limit",
     "MOV32 R0, g [0xf]", (0, 9, 4, 0xF)),
    ("IADD32 R64, R1, R2", 8, "register R64 out of range for this field (R0..R63: 32-bit forms have 6-bit register fields, an encoding limit (ISA.md 1.3)",
     "IADD32 R63, R1, R2", (0, 2, 6, 63)),
    ("IADD32.U16 R32L, R1L, R2L", 12, "register R32L out of range for this field (R0L..R31H: 32-bit forms have 6-bit register fields, an encoding limit",
     "IADD32.U16 R31H, R1L, R2L", (0, 2, 6, 63)),
]  # fmt: skip


@pytest.mark.parametrize(("bad", "col", "phrase", "good", "field"), RULES, ids=[r[0] for r in RULES])
def test_rule_error_names_the_rule(bad: str, col: int, phrase: str, good: str, field: tuple[int, int, int, int]) -> None:
    """The error names the rule, the field that has no room and the ISA.md section; the rule's
    legal counterpart assembles with the field where ISA.md 1.3 / 7.2 put it."""
    err = asm_error(bad)
    assert (err.line, err.col) == (1, col), err.format()
    assert phrase in err.message, err.format()
    word, low, width, value = field
    got = words(good)
    assert (got[word] >> low) & ((1 << width) - 1) == value, [hex(w) for w in got]
