"""The Fermi ISA layer: table, decoder, disassembler, assembler and listing checker.

Expected words and texts come from NVIDIA's cuobjdump listings (testdata/fermi), from the asfermi
templates of ../shared/seeds (read here, least-significant bit first, as FERMI.md explains) and
from numpy's float32 bit patterns; none from the encoder under test. The property tests check that
assembling what the disassembler prints gives the word back, for every form of the table.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golden.fermi.asm import AsmErrors, assemble, assemble_line, detect_dialect
from golden.fermi.decode import IllegalWord, decode
from golden.fermi.disasm import render_word
from golden.fermi.insn import CC, Addr, Const, Imm, Pred, Reg, SReg, Target
from golden.fermi.listing import check_listing, read_listing
from golden.fermi.table import FIELDS, FORMS, Form, doc_rows
from golden.isa.source import AsmError

ROOT = Path(__file__).resolve().parent.parent
LISTINGS = sorted((ROOT / "testdata" / "fermi").glob("*.sass"))


# -- NVIDIA's listings -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", LISTINGS, ids=lambda p: p.name)
def test_every_listing_row_passes_both_ways(path: Path) -> None:
    passed, failures = check_listing(str(path))
    assert passed > 0 and [f.format() for f in failures] == []


def test_the_listings_cover_both_dialects_and_several_thousand_rows() -> None:
    rows = [r for p in LISTINGS for r in read_listing(str(p))]
    assert {r.fmt for r in rows} == {"cuda4", "cuda5"}
    assert len(rows) > 5000


@pytest.mark.parametrize("dialect", ["cuda4", "cuda5"])
def test_every_listing_word_round_trips_through_text_in_both_dialects(dialect: str) -> None:
    bad = []
    for path in LISTINGS:
        for r in read_listing(str(path)):
            text = render_word(r.word, r.addr, dialect)
            if assemble_line(text, r.addr, dialect) != r.word:
                bad.append((path.name, r.line, text))
    assert bad == []


def test_one_word_in_both_dialects() -> None:
    # the stack-pointer load every kernel starts with: CUDA 4.x (mgpu_old) and CUDA 5 (testdata/fermi/cuda5_add_sm20.sass)
    word = 0x2800440400005DE4
    assert render_word(word, 0, "cuda4") == "MOV R1, c [0x1] [0x100]"
    assert render_word(word, 0, "cuda5") == "MOV R1, c[0x1][0x100]"
    assert assemble_line("MOV R1, c [0x1] [0x100]", 0, "cuda4") == word == assemble_line("MOV R1, c[0x1][0x100]")


def test_shl_wrap_bit_spells_per_dialect() -> None:
    # CUDA 4.1 prints .W when bit 9 is clear (mgpu_old search.isa: SHL.W R7, R8, R7 is 0x600000001c81dc03)
    word = 0x600000001C81DC03
    assert render_word(word, 0, "cuda4") == "SHL.W R7, R8, R7"
    assert render_word(word, 0, "cuda5") == "SHL R7, R8, R7"
    assert decode(word).mods == ()
    assert assemble_line("SHL R7, R8, R7", 0, "cuda5") == word


# -- the decoded instruction (golden/fermi/insn.py) ---------------------------------------------------


def test_decoded_operands_follow_the_printed_order() -> None:
    iadd = decode(0x4800400080311C03)  # IADD R4, R3, c [0x0] [0x20] (mgpu sum kernel listing)
    assert (iadd.op, iadd.family, iadd.dsts, iadd.srcs) == ("IADD", "IADD", (Reg(4),), (Reg(3), Const(0, 0x20)))
    isetp = decode(0x188EC0000431DC23)  # ISETP.LT.AND P0, pt, R3, 0x1, pt (warpscan1)
    assert isetp.mods == ("LT", "AND") and isetp.dsts == (Pred(0), Pred(7)) and isetp.srcs == (Reg(3), Imm(1), Pred(7))
    neg = decode(0x4800C00020105D03)  # IADD R1, R1, -0x8: the negation bit, not a negative value
    assert neg.srcs == (Reg(1), Imm(8, neg=True))
    guarded = decode(0xC103FFFFF0416085)  # @!P0 LDS R5, [R4+-0x4]
    assert guarded.guard == Pred(0, neg=True) and guarded.srcs == (Addr(4, -4),)
    assert decode(0x2C00000094001C04).srcs == (SReg(37),)  # S2R R0, SR_CTAid_X


def test_32bit_immediate_forms_share_their_base_family() -> None:
    mov = decode(0x180000048C019DE2)  # MOV32I R6, 0x123
    assert (mov.op, mov.family, mov.srcs) == ("MOV32I", "MOV", (Imm(0x123),))
    lop = decode(0x3807FFFFFC219C02)  # LOP32I.AND R6, R2, 0x1ffffff
    assert (lop.family, lop.mods, lop.srcs) == ("LOP", ("AND",), (Reg(2), Imm(0x1FFFFFF)))


def test_float_immediates_are_expanded_to_the_full_pattern() -> None:
    # FSETP.NEU.AND P0, pt, R4, 0xbf800, pt (mgpu_old maxindex.isa): the 20 bits are the top of -1.0f
    word = next(r.word for p in LISTINGS for r in read_listing(str(p)) if r.text.startswith("FSETP.NEU.AND") and "0xbf800" in r.text)
    imm = decode(word).srcs[1]
    assert imm == Imm(int(np.float32(-1.0).view(np.uint32)))


def test_integer_immediates_are_sign_extended_20_bit_fields() -> None:
    # envytools reads every 20-bit integer immediate as signed: LOP.AND R9, R8, 0xfffe0 (matrixcount.isa)
    # clears the low five bits of a 32-bit value, and ISETP ... 0xfffff compares with -1
    assert decode(0x6800FFFF80825C03).srcs == (Reg(8), Imm(0xFFFFFFE0))
    assert decode(0x1A8EFFFFFD69DC23).srcs[1] == Imm(0xFFFFFFFF)


def test_branch_targets_are_absolute() -> None:
    bra = decode(0x40000000A00081E7, 0x40)  # @P0 BRA.U 0x70 at 0x40 (spmxv_double)
    assert bra.srcs == (Target(0x70),) and bra.mods == ("U",) and bra.guard == Pred(0)
    assert decode(0x40000000000001E7, 0).srcs == (Target(0x8),)


@pytest.mark.parametrize("dialect", ["cuda4", "cuda5"])
def test_a_disassembled_program_with_labels_assembles_to_its_words(dialect: str) -> None:
    from golden.fermi.disasm import format_listing

    rows = read_listing(str(ROOT / "testdata" / "fermi" / "cuda4_spmxv_double.sass"))
    first = [r.word for r in rows[: next(i for i, r in enumerate(rows[1:], 1) if r.addr == 0)]]  # its first function
    lines, errors = format_listing(first, dialect)
    assert errors == [] and any(line.endswith(":") for line in lines) and "BRA.U L_0070;" in "\n".join(lines)
    prog = assemble("\n".join(lines), "f.sass", dialect)
    assert prog.words == first and prog.dialect == dialect


def test_a_cuobjdump_listing_assembles_as_it_stands() -> None:
    path = ROOT / "testdata" / "fermi" / "cuda4_warpscan1.sass"
    prog = assemble(path.read_text(encoding="utf-8"), str(path))
    assert prog.words == [r.word for r in read_listing(str(path))] and prog.dialect == "cuda4" and prog.directives == []


# -- asfermi's templates (seeds 001, 002), read least-significant bit first ---------------------------


def template(bits: str) -> int:
    """An asfermi template string as a word: its first character is bit 0."""
    s = bits.replace(" ", "")
    assert len(s) == 64, len(s)
    return sum(1 << i for i, c in enumerate(s) if c == "1")


@pytest.mark.parametrize(
    ("bits", "text"),
    [
        ("1110 011110 1110 000000 000000 00000000000000000000000000000000 000001", "EXIT"),
        ("1110 011110 1110 000000 000000 00000000000000000000000000000000 001001", "RET"),
        ("1110 011110 1110 000000 000000 00000000000000000000000000000000 001101", "CONT"),
        ("1110 011110 1110 000000 000000 000000000000000000000000 00000000 000010", "BRA 0x8"),
        ("1110 000000 0000 000000 000000 000000000000000000000000 00000000 000110", "SSY 0x8"),
        ("1100 000000 1110 000000 000000 0000000000000000000000 0000000000 010010", "IADD R0, R0, R0"),
        ("1100 000000 1110 000000 000000 0000000000000000000000 0000000000 010010".replace("1100 000000", "1100 000011", 1),
         "IADD.PO R0, R0, R0"),
        ("1100 010000 1110 111 000 000000 0000000000000000000000 0 1110 00 1000 11000", "ISETP.LT.AND P0, PT, R0, R0, PT"),
        ("1100 010100 1110 000000 000000 0000000000000000000000 0000000000 001010", "IMUL R0, R0, R0"),
    ],
)  # fmt: skip
def test_seed_templates_decode_to_their_text(bits: str, text: str) -> None:
    word = template(bits)
    assert render_word(word, 0, "cuda5") == text
    assert assemble_line(text, 0, "cuda5") == word


# -- every form: what is printed assembles back -------------------------------------------------------


def _fields(form: Form, data: st.DataObject) -> dict[str, int]:
    f: dict[str, int] = dict(form.fixed)
    for m in form.mods:
        if m.field not in f:
            f[m.field] = data.draw(st.sampled_from(sorted(m.values)))
    kinds = {o.kind for o in form.operands}
    for name, bfield in form.fields.items():
        if name in f:
            continue
        if name == "sel":
            f[name] = data.draw(st.sampled_from([0, 1, 2, 3] if "c" in kinds else [0, 1, 3]))
        elif name == "target":
            f[name] = 8 * data.draw(st.integers(-(1 << 20), (1 << 20) - 1))
        elif bfield.signed:
            f[name] = data.draw(st.integers(-(1 << (bfield.width - 1)), (1 << (bfield.width - 1)) - 1))
        else:
            f[name] = data.draw(st.integers(0, bfield.max_value))
    if f.get("sel") == 0 and "imm20" in f:
        f["imm20"] &= 63
    return f


@settings(max_examples=60, deadline=None)
@pytest.mark.parametrize("form", FORMS, ids=lambda form: form.name)
@given(data=st.data())
def test_every_form_assembles_what_it_disassembles(form: Form, data: st.DataObject) -> None:
    word = form.encode(_fields(form, data))
    for dialect in ("cuda5", "cuda4"):
        text = render_word(word, 0x100, dialect)
        assert assemble_line(text, 0x100, dialect) == word, (dialect, text)
    assert decode(word, 0x100).form == form.name


# -- errors ------------------------------------------------------------------------------------------


def test_every_bad_line_is_reported_with_its_place() -> None:
    src = "MOV R1, c[0x1][0x100];\nIADD R0, R1, R99;\nFOO R1;\nBRA nowhere;\nEXIT;\n"
    with pytest.raises(AsmErrors) as e:
        assemble(src, "k.sass")
    errs = e.value.errors
    assert [(x.line, x.col) for x in errs] == [(2, 14), (3, 1), (4, 5)]
    assert "R0-R62" in errs[0].message and "unknown instruction 'FOO'" in errs[1].message and "undefined label" in errs[2].message
    text = e.value.format()
    assert text.startswith("k.sass:2:14: error:") and "\n    IADD R0, R1, R99;\n" in text and "^" in text


def test_modifiers_that_fit_no_form_name_the_instruction() -> None:
    with pytest.raises(AsmError, match=r"IADD\.FOO: these modifiers"):
        assemble_line("IADD.FOO R0, R1, R2")


@pytest.mark.parametrize(("text", "what"), [("TEX R0, R1, 0x0, 0x0, 2D, 0x1;", "texture"), ("SULD R0, [R1];", "surface"),
                                         ("VADD R0, R1, R2, RZ;", "video"), ("KIL;", "KIL")])  # fmt: skip
def test_unsupported_mnemonics_are_named(text: str, what: str) -> None:
    with pytest.raises(AsmError, match=f"error: {text.split()[0].rstrip(';')} is not supported: .*{what}"):
        assemble_line(text)


def test_labels_guards_directives_and_comments() -> None:
    seen: list[tuple[str, str]] = []
    prog = assemble(
        ".grid 1 1 1\n#size 0x40\n// comment\ntop: @!P0 BRA.U done;  # to the end\n  ISETP.GT.U32.AND P0, PT, R0, 0x1f, PT\ndone: EXIT;\n",
        "p.sass", directive=lambda name, args, line: seen.append((name, args)),
    )  # fmt: skip
    assert seen == [("grid", "1 1 1"), ("#size", "0x40")]
    assert prog.labels == {"top": 0, "done": 0x10} and prog.dialect == "cuda5"
    assert prog.insns[0].srcs == (Target(0x10),) and prog.insns[0].guard == Pred(0, neg=True)
    # the same branch as NVIDIA printed it (spmxv_double: @!P0 BRA.U 0x140 at 0x120 is 0x40000000600... )
    assert assemble_line("@!P0 BRA.U 0x140", 0x120) == 0x400000006000A1E7


def test_dialect_is_detected_from_cuda4_marks() -> None:
    assert detect_dialect("MOV R1, c [0x1] [0x100]") == "cuda4"
    assert detect_dialect("S2R R0, SR_Tid_X") == "cuda4"
    assert detect_dialect("ISETP.LT.AND P0, PT, R3, 0x1, PT") == "cuda5"


def test_an_illegal_word_names_its_address_and_wrong_fields() -> None:
    with pytest.raises(IllegalWord, match=r"^0x0018: .*nearest \w+, whose ohi\d="):
        decode(0xFFFF000000000007, 0x18)
    with pytest.raises(IllegalWord, match=r"0x0008: .* IADD with bits 0x[0-9a-f]+ set that no field owns"):
        decode(0x4800400080311C03 | 1 << 57, 8)  # IADD with bit 57 set


@pytest.mark.parametrize(
    ("word", "what"),
    [
        (0x9000C000FC519C86, "texture"),  # TLD.LZ.T R6, R5, 0x0, 1D, 0x1 (bwt.isa)
        (0xC20AE0061C615C04, "video"),  # VADD.UD.U32.U32.ACC (ballotscan.isa)
        (0xD000000000000007, "BPT"),  # BPT.DRAIN 0x0 (search.isa)
        (0x4800400000405DE7, "BRX"),  # BRX c [0x10] [R4+0x0] (search.isa)
        (0x2800440400005DEC, "short form"),  # bit 3 set
    ],
)
def test_unsupported_words_are_named(word: int, what: str) -> None:
    with pytest.raises(IllegalWord, match=f"{what}.*not supported"):
        decode(word)


def test_cli_check_listing_and_dialect_flag(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sass"
    bad.write_text("\t/*0000*/     /*0x00005de428004404*/ \tMOV R1, c [0x1] [0x200];\n", encoding="utf-8")
    run = [sys.executable, "-m", "golden", "check-listing", "--isa", "fermi"]
    ok = subprocess.run([*run, str(LISTINGS[0])], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and re.search(r"^\d+ passed, 0 failed$", ok.stdout, re.M)
    fail = subprocess.run([*run, "--dialect", "cuda4", str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert fail.returncode == 1 and fail.stdout.strip().endswith("0 passed, 1 failed")
    refused = subprocess.run([sys.executable, "-m", "golden", "check-listing", "--isa", "lg", "--dialect", "cuda4", str(bad)],
                             capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1 and "--dialect" in refused.stderr


def test_table_rows_and_the_word_order_check(tmp_path: Path) -> None:
    # NVIDIA's rows (warpscan1, CUDA 4.x) restated as ADDR | 0xWORD64 | TEXT, the 64-bit value high half first
    rows = read_listing(str(ROOT / "testdata" / "fermi" / "cuda4_warpscan1.sass"))
    table = tmp_path / "t.txt"
    table.write_text("# addr | word | text\n" + "".join(f"{r.addr:04x} | 0x{r.word:016x} | {r.text}\n" for r in rows), encoding="utf-8")
    passed, failures = check_listing(str(table))
    assert (passed, failures) == (len(rows), [])
    # the CUDA 5 format with the halves in CUDA 4.x's order is reported as such
    swapped = tmp_path / "s.sass"
    swapped.write_text("/*0000*/ EXIT; /* 0x00001de780000000 */\n", encoding="utf-8")
    passed, failures = check_listing(str(swapped))
    assert passed == 0 and "halves swapped" in failures[0].message


def test_cc_operand_and_nop() -> None:
    nop = decode(0x4000000000001DF4)  # NOP.S CC.T (search.isa)
    assert nop.mods == ("S",) and nop.srcs == (CC("T"),)


# -- the manual's form list is the table's -----------------------------------------------------------


def test_reference_page_lists_every_form() -> None:
    page = (ROOT / "docs" / "reference" / "fermi-assembly.md").read_text(encoding="utf-8")
    start = page.index("<!-- forms: generated from golden/fermi/table.py by doc_rows() -->")
    end = page.index("<!-- end of forms -->")
    assert page[start:end].splitlines()[1:] == doc_rows(), (
        "regenerate the form list: python -c 'from golden.fermi.table import doc_rows; print(*doc_rows(), sep=chr(10))'"
    )


def test_fields_are_within_the_word() -> None:
    assert all(bf.mask >> 64 == 0 for bf in FIELDS.values())
