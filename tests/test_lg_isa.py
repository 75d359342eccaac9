"""The LG ISA layer: assembler, disassembler and listing checker against the course's own encodings.

Expected words come from sources other than golden/lg: the course assembler's opcode enum and field
masks (alexzhang007/CS3220_GPU Assembler/assembler.h and assembler.cc, Spring 2013), the bit pictures
and opcode map of the ISA 1.1 slides (../shared/seeds/004_eb6d6cefbe84d076.txt), the float encodings
of LG.md, and the course's programs with the words assembled from them (testdata/lg).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from golden import isas
from golden.cli import main
from golden.errors import UserError
from golden.isa.source import AsmError
from golden.lg.asm import FORMATS, assemble, assemble_line
from golden.lg.disasm import disassemble, format_listing, render
from golden.lg.listing import check_listing
from golden.lg.table import FIELDS, OPS, IllegalWord, Op, decode

LISTINGS = sorted((ROOT / "testdata" / "lg").glob("*.txt"))

# The course assembler's opcode enum (assembler.h), transcribed as its decimal values.
COURSE_OPCODES = {
    "add.d": 0, "addi.d": 1, "add.f": 4, "addi.f": 5, "vadd": 2, "and.d": 8, "andi.d": 9, "mov": 16,
    "movi.d": 17, "movi.f": 21, "vmov": 18, "vmovi": 23, "cmp": 24, "cmpi": 25, "vcompmov": 34,
    "vcompmovi": 39, "ldb": 41, "ldw": 42, "stb": 49, "stw": 50, "setvertex": 66, "setcolor": 74,
    "rotate": 82, "translate": 90, "scale": 98, "pushmatrix": 128, "popmatrix": 136,
    "beginprimitive": 145, "endprimitive": 152, "loadidentity": 160, "flush": 176, "draw": 184,
    "brn": 220, "brz": 218, "brp": 217, "brnz": 222, "brnp": 221, "brzp": 219, "brnzp": 223,
    "jmp": 224, "jsr": 240, "jsrr": 248, "halt": 192,
}  # fmt: skip

# The slides' opcode map: (category = opcode[7:6], operation = opcode[5:3]) of each instruction.
SEED_MAP = {
    "add": (0, 0), "and": (0, 1), "mov": (0, 2), "cmp": (0, 3), "compmov": (0, 4), "ld": (0, 5), "st": (0, 6),
    "setvertex": (1, 0), "setcolor": (1, 1), "rotate": (1, 2), "translate": (1, 3), "scale": (1, 4),
    "pushmatrix": (2, 0), "popmatrix": (2, 1), "beginprimitive": (2, 2), "endprimitive": (2, 3),
    "loadidentity": (2, 4), "flush": (2, 6), "draw": (2, 7), "br": (3, 3), "jmp": (3, 4), "jsr": (3, 6), "jsrr": (3, 7),
}  # fmt: skip


def _seed_name(mnemonic: str) -> str:
    for prefix in ("vcompmov", "vadd", "vmov", "add", "and", "mov", "cmp", "ld", "st", "br"):
        if mnemonic.startswith(prefix):
            return {"vcompmov": "compmov", "vadd": "add", "vmov": "mov"}.get(prefix, prefix)
    return mnemonic


def test_every_opcode_is_the_course_assemblers() -> None:
    assert {op.mnemonic: op.opcode for op in OPS} == COURSE_OPCODES


@pytest.mark.parametrize("op", [op for op in OPS if op.mnemonic != "halt"], ids=lambda op: op.mnemonic)
def test_every_opcode_sits_in_the_slides_opcode_map(op: Op) -> None:
    category, operation = SEED_MAP[_seed_name(op.mnemonic)]
    assert (op.opcode >> 6, (op.opcode >> 3) & 7) == (category, operation)


# (text, word built from the course assembler's shifts and masks)
COURSE_LAYOUT = [
    ("add.d r1 r2 r3", 0x00 << 24 | 1 << 20 | 2 << 16 | 3 << 8),
    ("add.f r14 r8 r9", 0x04 << 24 | 14 << 20 | 8 << 16 | 9 << 8),
    ("and.d r6 r5 r4", 0x08 << 24 | 6 << 20 | 5 << 16 | 4 << 8),
    ("addi.d r0 r1 -1", 0x01 << 24 | 0 << 20 | 1 << 16 | 0xFFFF),
    ("andi.d r2 r3 0x00ff", 0x09 << 24 | 2 << 20 | 3 << 16 | 0x00FF),
    ("ldb r1 r2 5", 0x29 << 24 | 1 << 20 | 2 << 16 | 5),
    ("ldw r1, r2, 1000", 0x2A << 24 | 1 << 20 | 2 << 16 | 1000),
    ("stb r3 r4 -2", 0x31 << 24 | 3 << 20 | 4 << 16 | 0xFFFE),
    ("stw r15 r4 2", 0x32 << 24 | 15 << 20 | 4 << 16 | 2),  # stw reads its first register: r15 is allowed
    ("vadd v63 v1 v2", 0x02 << 24 | 63 << 16 | 1 << 8 | 2),
    ("mov r1 r2", 0x10 << 24 | 1 << 16 | 2 << 8),
    ("movi.d r1 1000", 0x11 << 24 | 1 << 16 | 1000),
    ("vmov v3 v40", 0x12 << 24 | 3 << 16 | 40 << 8),
    ("cmp r1 r15", 0x18 << 24 | 1 << 16 | 15 << 8),
    ("cmpi r15 -32768", 0x19 << 24 | 15 << 16 | 0x8000),
    ("vcompmov v1 3 r9", 0x22 << 24 | 3 << 22 | 1 << 16 | 9 << 8),
    ("vcompmovi v1 2 1.5f", 0x27 << 24 | 2 << 22 | 1 << 16 | 0x00C0),
    ("setvertex v3", 0x42 << 24 | 3 << 16),
    ("setcolor v2", 0x4A << 24 | 2 << 16),
    ("rotate v0", 0x52 << 24),
    ("translate v5", 0x5A << 24 | 5 << 16),
    ("scale v63", 0x62 << 24 | 63 << 16),
    ("beginprimitive 15", 0x91 << 24 | 15 << 16),
    ("jmp r1", 0xE0 << 24 | 1 << 16),
    ("ret", 0xE0 << 24 | 7 << 16),  # the course assembler: ret is jmp with 7 in 19:16
    ("jsrr r2", 0xF8 << 24 | 2 << 16),
    ("halt", 0xC0 << 24),
]


@pytest.mark.parametrize(("text", "word"), COURSE_LAYOUT)
def test_field_layout_of_the_course_assembler(text: str, word: int) -> None:
    assert assemble_line(text) == word


# The slides' bit pictures: br = 1 1 0 1 1 N Z P in 31:24, jsr = 1111 0000, jsrr = 1111 1000 with BaseR in 19:16.
@pytest.mark.parametrize("cond", ["n", "z", "p", "nz", "np", "zp", "nzp"])
def test_branch_bit_picture(cond: str) -> None:
    nzp = ("n" in cond) << 2 | ("z" in cond) << 1 | ("p" in cond)
    assert assemble_line(f"br{cond} 8") == (0b11011 << 27 | nzp << 24 | 8)
    assert assemble_line(f"br{cond} -1") == (0b11011 << 27 | nzp << 24 | 0xFFFF)


def test_jsr_jsrr_bit_pictures() -> None:
    assert assemble_line("jsr 6") == 0b11110000 << 24 | 6
    assert assemble_line("jsr -32768") == 0b11110000 << 24 | 0x8000
    assert assemble_line("jsrr r1") == 0b11111000 << 24 | 1 << 16


# Float immediates: LG.md (1.8.7: 1.0 = 0x0080, -1.5 = 0xFF40, 255 = 0x7F80), the course assembler's
# binary16 words in Assembler/rotate.hex (1.0 = 0x3c00, -1.0 = 0xbc00, 255 = 0x5bf8, 3.0 = 0x4200),
# and 1.11.4 = trunc(x * 16).
@pytest.mark.parametrize(
    ("fmt", "text", "bits"),
    [
        ("fixed187", "1.0f", 0x0080), ("fixed187", "-1.5f", 0xFF40), ("fixed187", "255", 0x7F80),
        ("fixed187", "1000.f", None), ("fixed187", "0.0078125f", 0x0001), ("fixed187", "-256.0f", 0x8000),
        ("fixed187", "1.00999f", 0x0081), ("fixed187", "-0.001f", 0x0000),
        ("half", "1.0f", 0x3C00), ("half", "-1.0f", 0xBC00), ("half", "255", 0x5BF8), ("half", "3.0f", 0x4200),
        ("half", "1000.f", 0x63D0), ("half", "0x7e00", 0x7E00),
        ("fixed1114", "1.5f", 0x0018), ("fixed1114", "-1.0f", 0xFFF0), ("fixed1114", "1000.f", 0x3E80),
    ],
)  # fmt: skip
def test_float_immediates(fmt: str, text: str, bits: int | None) -> None:
    if bits is None:
        with pytest.raises(AsmError, match="out of range of fixed187"):
            assemble_line(f"movi.f r8 {text}", fmt)
    else:
        assert assemble_line(f"movi.f r8 {text}", fmt) == 0x15 << 24 | 8 << 16 | bits


def _field_values(op: Op, draw: st.DrawFn) -> dict[str, int]:
    out = {}
    for name, _ in op.operands:
        bf = FIELDS[name]
        lo, hi = (-(1 << (bf.width - 1)), (1 << (bf.width - 1)) - 1) if bf.signed else (0, bf.max_value)
        out[name] = draw(st.one_of(st.sampled_from([lo, hi, 0]), st.integers(lo, hi)))
    return out


@st.composite
def legal_words(draw: st.DrawFn) -> int:
    op = draw(st.sampled_from(OPS))
    word = op.opcode << 24
    for name, value in _field_values(op, draw).items():
        word = FIELDS[name].insert(word, value & FIELDS[name].max_value if not FIELDS[name].signed else value)
    return word


@settings(max_examples=600, deadline=None)
@given(word=legal_words(), fmt=st.sampled_from(sorted(FORMATS)))
def test_words_text_words(word: int, fmt: str) -> None:
    text = render(decode(word), fmt)
    try:
        assert assemble_line(text, fmt) == word
    except AsmError as e:
        # the one legal word without a text: an instruction that writes r15 (the assembler refuses it)
        assert "r15 is the PC" in e.message, (hex(word), text, e.message)


def test_every_opcode_round_trips_at_its_field_extremes() -> None:
    for op in OPS:
        for pick in (0, 1):
            word = op.opcode << 24
            for name, _ in op.operands:
                bf = FIELDS[name]
                value = (-(1 << (bf.width - 1)) if bf.signed else 0) if pick == 0 else ((1 << (bf.width - 1)) - 1 if bf.signed else bf.max_value)
                if name in ("rd", "rm") and pick and op.family in ("alu", "load", "move"):
                    value = 14  # r15 is the PC: the highest register such an instruction may write
                word = bf.insert(word, value)
            for fmt in FORMATS:
                assert assemble_line(render(decode(word), fmt), fmt) == word, (op.mnemonic, hex(word), fmt)


@settings(max_examples=200, deadline=None)
@given(word=legal_words())
def test_text_words_text(word: int) -> None:
    text = render(decode(word))
    try:
        again = assemble_line(text)
    except AsmError:
        return  # writes r15: covered above
    assert render(decode(again)) == text


def test_program_with_labels_round_trips() -> None:
    src = (ROOT / "testdata" / "lg" / "scale_fixed187.txt").read_text(encoding="utf-8")
    words = [int(line.split("|")[1], 16) for line in src.splitlines() if line and not line.startswith("#")]
    lines, errors = format_listing(words)
    assert not errors
    assert "L3:" in lines  # the last row, brp -28 at index 30, goes to 30 + 1 - 28
    assert assemble("\n".join(lines)).words == words


def test_labels_give_offsets_from_the_next_instruction() -> None:
    prog = assemble("top: movi.d r0 3\nloop: addi.d r0 r0 -1\nbrp loop\njsr sub\nhalt\nsub: ret\n")
    assert prog.words[2] == 0xD900FFFE  # brp at 2, target 1: 1 - (2 + 1) = -2
    assert prog.words[3] == 0xF0000001  # jsr at 3, target 5: 5 - 4 = 1
    assert prog.labels == {"top": 0, "loop": 1, "sub": 5}


def test_directives() -> None:
    prog = assemble(".float half\n.data 0x10 1 -1\n.byte 0x20 255\nvmovi v1 1.0f\n")
    assert prog.words == [0x17 << 24 | 1 << 16 | 0x3C00]
    assert prog.data == {0x10: 1, 0x11: 0, 0x12: 0xFF, 0x13: 0xFF, 0x20: 0xFF}
    assert assemble(".profile ta2013\nvmovi v1 1.0f\n").words == [0x17010080]


BAD = [
    ("addi.d r15 r1 1", 1, 8, "r15 is the PC"),
    ("movi.f r15 1.0f", 1, 8, "r15 is the PC"),
    ("ldw r15 r1 0", 1, 5, "r15 is the PC"),
    ("  add.q r1 r2 r3", 1, 3, "unknown mnemonic 'add.q'"),
    ("movi.d r1 70000", 1, 11, "does not fit in 16 bits"),
    ("movi.d r1 -32769", 1, 11, "does not fit in 16 bits"),
    ("vcompmovi v1 4 1.5f", 1, 14, "element index 0-3"),
    ("vadd v1 v64 v2", 1, 9, "vector register v0-v63"),
    ("add.d r1 r16 r2", 1, 10, "scalar register r0-r15"),
    ("movi.f r8 256.0f", 1, 11, "out of range of fixed187"),
    ("movi.f r8 one", 1, 11, "expected a float immediate"),
    ("vadd v1 v2", 1, 11, "expects 3 operand(s)"),
    ("halt r1", 1, 6, "one too many"),
    ("halt\nbrp nowhere", 2, 5, "unknown label 'nowhere'"),
    ("x: halt\nx: halt", 2, 1, "label 'x' defined twice"),
    (".float quarter\nhalt", 1, 1, "unknown float format 'quarter'"),
    (".data 3 1\nhalt", 1, 1, "odd"),
    (".origin 0\nhalt", 1, 1, "unknown directive .origin"),
    ("beginprimitive 16", 1, 16, "primitive type 0-15"),
]


@pytest.mark.parametrize(("src", "line", "col", "message"), BAD)
def test_errors_name_line_and_column(src: str, line: int, col: int, message: str) -> None:
    with pytest.raises(AsmError) as info:
        assemble(src, "bad.lgs")
    e = info.value
    assert (e.file, e.line, e.col) == ("bad.lgs", line, col), e.format()
    assert message in e.message
    lines = e.format().splitlines()
    assert lines[0].startswith(f"bad.lgs:{line}:{col}: error: ")
    assert lines[2].index("^") - 4 == col - 1  # the caret under the column


def test_every_bad_line_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.lgs"
    bad.write_text("movi.d r1 5\naddi.d r15 r1 1 ; r15\nadd.q r1 r2 r3\nbrp nowhere\n", encoding="utf-8")
    assert main(["asm", "--isa", "lg", str(bad)]) == 1
    err = capsys.readouterr().err
    assert [ln.split(": error")[0] for ln in err.splitlines() if ": error:" in ln] == [f"{bad}:2:8", f"{bad}:3:1", f"{bad}:4:5"]
    assert "Traceback" not in err


def test_illegal_words() -> None:
    with pytest.raises(IllegalWord, match="opcode 0xff"):
        decode(0xFF000000)
    with pytest.raises(IllegalWord, match="word 1: 0x02000040: vadd has bits 6 set"):
        format_listing([0x1100000A, 0x02000040])
    lines, errors = format_listing([0x1100000A, 0x02000040], keep_going=True)
    assert errors == ["word 1: 0x02000040: vadd has bits 6 set, which no field of it uses"]
    assert lines[1].lstrip().startswith(";")
    with pytest.raises(IllegalWord):
        disassemble([0xD8000000])  # br with no condition bit is no opcode


@pytest.mark.parametrize("path", LISTINGS, ids=lambda p: p.name)
def test_course_listings(path: Path) -> None:
    passed, failures = check_listing(str(path))
    assert not failures, "\n".join(f.format() for f in failures)
    rows = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    assert passed == len(rows)


def test_check_listing_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-listing", "--isa", "lg", *map(str, LISTINGS)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "131 passed, 0 failed"


def test_check_listing_fails_on_a_corrupted_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = LISTINGS[0].read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    lines = src.splitlines()
    rows = [i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("#")]
    lines[rows[0]] = lines[rows[0]].replace(" | 0x11", " | 0x1f", 1)  # opcode 0x1f is no LG opcode
    lines[rows[1]] = lines[rows[1]].rsplit("|", 1)[0] + "| movi.f r9 2.0f"  # the text no longer says the word
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["check-listing", "--isa", "lg", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{len(rows) - 2} passed, 2 failed"
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    assert main(["check-listing", "--isa", "lg", str(empty)]) == 1


def test_asm_disasm_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "p.lgs"
    src.write_text("loop: addi.d r0, r0, -1 ; count down\n  brp loop\n  ret\n", encoding="utf-8")
    assert main(["asm", "--isa", "lg", str(src)]) == 0
    assert capsys.readouterr().out == "0100ffff\nd900fffe\ne0070000\n"
    assert main(["disasm", "--isa", "lg", "--hex", "0100ffff", "d900fffe", "e0070000"]) == 0
    out = capsys.readouterr().out
    assert [ln.split(";")[0].strip() for ln in out.splitlines()] == ["L0:", "addi.d r0 r0 -1", "brp L0", "ret"]
    assert main(["disasm", "--isa", "lg", "--hex", "ff000000"]) == 1
    assert "word 0: 0xff000000" in capsys.readouterr().err


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["asm", "--isa", "kepler", "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown ISA 'kepler'" in err and "g80, lg, fermi" in err
    assert main(["disasm", "--float", "half", "--hex", "0"]) == 2
    assert "--float" in capsys.readouterr().err
    assert main(["disasm", "--isa", "lg", "--float", "quarter", "--hex", "15080080"]) == 2
    assert main(["asm", "--isa", "lg", str(tmp_path / "missing.lgs")]) == 1


def test_registry() -> None:
    lg = isas.get("lg")
    assert lg.table.OPS is OPS and lg.default_profile in lg.profiles and lg.suffix == ".lgs"
    assert lg.assemble("movi.d r1 10\n", "x.lgs").words == [0x1101000A]
    assert lg.disassemble([0x1101000A]) == ["    movi.d r1 10                 ;    0: 1101000a"]
    g80 = isas.get("g80")
    assert g80.assemble("MOV32 R0, R1\n", "x.sass").words == [0x10008200]  # testdata/vectors/listings/Reduction_kernel.txt
    with pytest.raises(UserError, match="known: g80, lg"):
        isas.get("x")


def test_testdata_has_provenance() -> None:
    readme = (ROOT / "testdata" / "lg" / "README.md").read_text(encoding="utf-8")
    for path in LISTINGS:
        assert path.name in readme
        head = path.read_text(encoding="utf-8")
        assert "# text:" in head and "# words:" in head
