"""Structure of the encoding table, and that it covers the ISA the manual and ISA.md list."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from golden.g80 import conditions as cond
from golden.g80.form import CTRL, LONG, SHORT
from golden.g80.isa import IllegalInstruction, decode
from golden.g80.table import FORMS

# Manual tables 1-5 and ISA.md section 1.4 (compute forms of sm_10).
MANUAL_MNEMONICS = ["BRA", "BAR", "RET", "SSY", "NOP", "TRAP", "CAL", "I2I", "IMUL", "IMUL32", "IMUL32I", "SHL", "SHR", "IADD", "IADD32", "IADD32I", "IMAD", "IMAD32", "IMAD32I", "LOP", "ISET", "MVC", "GLD", "GST", "MOV", "MOV32", "MVI", "R2G", "R2A", "A2R", "ADA", "FADD32", "FADD", "FADD32I", "FMUL", "FMUL32", "FMUL32I", "FMAD", "FMAD32", "FMAD32I", "F2F", "F2I", "I2F", "FSET", "RCP", "RCP32", "SIN", "COS", "RRO", "EX2", "RSQ", "LG2"]
ISA_MNEMONICS = ["IMIN", "IMAX", "ISAD", "FMIN", "FMAX", "FSLCT", "C2R", "R2C", "S2R", "LLD", "LST", "PBK", "BRK"]


def test_names_unique() -> None:
    names = [f.name for f in FORMS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("mnemonic", MANUAL_MNEMONICS + ISA_MNEMONICS)
def test_mnemonic_has_a_form(mnemonic: str) -> None:
    assert any(f.mnemonic == mnemonic for f in FORMS)


def test_no_two_forms_match_one_word() -> None:
    for a, b in itertools.combinations(FORMS, 2):
        if a.fmt != b.fmt:
            continue
        common = a.match_mask & b.match_mask
        assert (a.match_value ^ b.match_value) & common, f"{a.name} and {b.name} can match the same word"


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.name)
def test_fields_do_not_overlap(form: object) -> None:
    seen = 0
    for name, bf in form.fields.items():  # type: ignore[attr-defined]
        assert not seen & bf.mask, f"{form.name}: field {name} overlaps another field"  # type: ignore[attr-defined]
        seen |= bf.mask


def _long_word(op: int, sec: int) -> tuple[int, int]:
    return (op << 28) | 1, (sec << 29) | (0xF << 7)


def test_every_long_opcode_decodes_or_says_why() -> None:
    for op, sec in itertools.product(range(16), range(8)):
        try:
            decode(_long_word(op, sec))
        except IllegalInstruction as e:
            # Either the opcode is named, or the form it belongs to and what is wrong with it.
            assert re.search(rf"opcode {op:x}\b", e.reason) or re.match(r"[A-Z0-9]+: ", e.reason), e.reason


@pytest.mark.parametrize(
    ("words", "phrase"),
    [((0x80000001, 0x00000780), "interp"), ((0x60000003, 0), "quadon"),
     # texture words with no SM_1.0 compute form (envydis/g80.c: w1[31:28] 8 texcsaa, 6 with w1[19:16] 1 texprep, c emit)
     ((0xF0000001, 0x80000780), "texcsaa"), ((0xF0000001, 0x60010780), "texprep"), ((0xF0000001, 0xC0000780), "emit"),
     ((0x10000001, 0x60000780), "vote"), ((0xE0000001, 0x40000780), "f64"), ((0xD0000001, 0xC0000780), "red g[]")],
)
def test_absent_opcodes_are_named(words: tuple[int, int], phrase: str) -> None:
    with pytest.raises(IllegalInstruction, match=re.escape(phrase)):
        decode(words)


def test_formats() -> None:
    fmts = {f.fmt for f in FORMS}
    assert {SHORT, LONG, CTRL, "imm", "sctrl"} == fmts


# The condition table of ISA.md 2.2 (independent of this project's code): evaluate its formulas.
def _isa_conditions(shared: Path) -> dict[int, str]:
    text = (shared / "reference" / "ISA.md").read_text(encoding="utf-8")
    section = text.split("### 2.2", 1)[1].split("###", 1)[0]
    out = {}
    for m in re.finditer(r"^\| ([0-9a-f]{2}) \| [^|]*\| [^|]*\| (.*?) \|$", section, re.MULTILINE):
        out[int(m.group(1), 16)] = m.group(2).replace("\\|", "|").replace("*", "")
    return out


def _eval(formula: str, flags: int) -> bool:
    if formula.startswith("0"):
        return False
    if formula.startswith("1"):
        return True
    env = {"Z": flags & 1, "S": flags >> 1 & 1, "C": flags >> 2 & 1, "O": flags >> 3 & 1}
    return bool(eval(_negations(formula), {}, env) & 1)


def _negations(expr: str) -> str:
    """Python-evaluable text: `~X` and `~( .. )` become `(1^X)` and `(1^( .. ))`."""
    out = ""
    i = 0
    while i < len(expr):
        if expr[i] != "~":
            out += expr[i]
            i += 1
            continue
        j = i + 1
        if expr[j] == "(":
            depth = 0
            while True:
                depth += {"(": 1, ")": -1}.get(expr[j], 0)
                j += 1
                if depth == 0:
                    break
        else:
            j += 1
        out += f"(1^{_negations(expr[i + 1 : j])})"
        i = j
    return out


def test_condition_table_matches_isa_md(shared: Path) -> None:
    formulas = _isa_conditions(shared)
    assert len(formulas) >= 24
    for code, formula in formulas.items():
        for flags in range(16):
            assert cond.holds(code, flags) == _eval(formula, flags), (hex(code), formula, flags)
    for code in range(0x14, 0x1C):  # "0 on hardware"
        assert cond.truth_table(code) == 0
