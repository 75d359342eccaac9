"""The Fermi table's rows without an NVIDIA listing, against a second encoder: Mesa's nouveau emitter.

No public cuobjdump listing of sm_20 code was found that shows ISAD, FADD32I, FMUL32I, FSET,
FMNMX, MUFU, RRO, DSET, DMNMX, F2F, F2I, CCTL, IADD32I, IMUL32I, ATOM, MEMBAR, CAL, PRET, PCNT,
RET or CONT. Mesa's GF100 code emitter (mesa3d/mesa, src/gallium/drivers/nouveau/codegen/
nv50_ir_emit_nvc0.cpp, read at imirkin/mesa 07250a22b222bf28ea5b2e7bc5e18d2de351bba2, MIT
licence) writes every one of them for real hardware, independently of envytools' tables and
asfermi's templates. Each word below is built here from the opcode constant and the field
positions the named emitter function uses (its sub-operation numbers from nv50_ir.h of the same
tree); none comes from this project's encoder. What Mesa cannot settle is the text: the
mnemonics and modifier spellings are the table's, so a case checks that the emitter's word decodes
to the form and operands it means, and that the table's text assembles back to that word.
"""

from __future__ import annotations

import pytest

from golden.fermi.asm import assemble_line
from golden.fermi.decode import decode
from golden.fermi.disasm import render_word
from golden.fermi.insn import Target
from golden.fermi.table import FORMS

PT = 0x1C00  # emitPredicate: no guard is predicate 7 in bits 12:10


def word(hi: int, lo: int) -> int:
    """The emitter fills code[0] (bits 31:0) and code[1] (bits 63:32)."""
    return (hi & 0xFFFFFFFF) << 32 | (lo & 0xFFFFFFFF)


def regs(d: int, a: int, b: int | None = None) -> int:
    """emitForm_A/emitForm_B: the destination at 14, the first source at 20, the second at 26."""
    return d << 14 | a << 20 | (b << 26 if b is not None else 0)


def limm(u32: int) -> tuple[int, int]:
    """setImmediate for a 32-bit immediate form: its low 6 bits at 26, the rest from bit 32."""
    return u32 >> 6, (u32 & 0x3F) << 26


def target(rel: int) -> tuple[int, int]:
    """emitFlow: the offset from the next instruction, low 6 bits at 26, the next 18 from bit 32."""
    return (rel >> 6) & 0x3FFFF, (rel & 0x3F) << 26


def atom_offset(off: int) -> tuple[int, int]:
    """emitATOM with a destination: offset bits 5:0 at 26, 16:6 at 32, 19:17 at 55."""
    return ((off & 0x1FFC0) >> 6) | ((off & 0xE0000) << 6), (off << 26) & 0xFFFFFFFF


_IADD32I_HI, _IADD32I_LO = limm(0x12345)
_FADD32I_HI, _FADD32I_LO = limm(0x3F800000)  # 1.0f
_FMUL32I_HI, _FMUL32I_LO = limm(0x40000000)  # 2.0f
_ATOM_HI, _ATOM_LO = atom_offset(0x8)
_ATOM_NEG_HI, _ATOM_NEG_LO = atom_offset(-0x4)
_PCNT_HI, _PCNT_LO = target(0x200 - 0x108)  # at 0x100, to 0x200
_PRET_HI, _PRET_LO = target(0x300 - 0x108)

# (emitter function, the word it writes, the form it must decode to, the table's text for it)
CASES: list[tuple[str, int, str, str]] = [
    ("emitISAD", word(0x38000000 | 5 << 17, 0x3 | 0x20 | PT | regs(2, 3, 4)), "ISAD", "ISAD R2, R3, R4, R5"),
    ("emitISAD", word(0x38000000 | 5 << 17, 0x3 | PT | regs(2, 3, 4)), "ISAD", "ISAD.U32 R2, R3, R4, R5"),
    ("emitFADD", word(0x28000000 | _FADD32I_HI, 0x2 | 0x20 | PT | regs(2, 3) | _FADD32I_LO), "FADD32I", "FADD32I.FTZ R2, R3, 1"),
    ("emitFADD", word(0x28000000 | 0x3F000000 >> 6, 0x2 | 0x200 | 0x80 | PT | regs(2, 3)), "FADD32I", "FADD32I R2, -|R3|, 0.5"),
    ("emitFMUL", word(0x30000000 | _FMUL32I_HI, 0x2 | 0x40 | PT | regs(2, 3) | _FMUL32I_LO), "FMUL32I", "FMUL32I.FTZ R2, R3, 2"),
    ("emitFMUL", word(0x30000000 | _FMUL32I_HI, 0x2 | 0x20 | 0x80 | PT | regs(2, 3)), "FMUL32I", "FMUL32I.FMZ.SAT R2, R3, 2"),
    ("emitSET", word(0x100E0000 | 4 << 23, 0x20 | PT | regs(2, 3, 4)), "FSET", "FSET.BF.GT.AND R2, R3, R4, PT"),
    (
        "emitSET",
        word(0x10200000 | 1 << 23 | 1 << 17 | 1 << 27, 0x20 | 0x200 | 0x40 | PT | regs(2, 3, 4)),
        "FSET",
        "FSET.BF.LT.FTZ.OR R2, -R3, |R4|, P1",
    ),
    ("emitSET", word(0x100E0000 | 3 << 23, 0x1 | 0x20 | PT | regs(2, 4, 6)), "DSET", "DSET.BF.LE.AND R2, R4, R6, PT"),
    ("emitMINMAX", word(0x080E0000, 0x20 | PT | regs(2, 3, 4)), "FMNMX", "FMNMX.FTZ R2, R3, R4, PT"),
    ("emitMINMAX", word(0x081E0000, PT | regs(2, 3, 4)), "FMNMX", "FMNMX R2, R3, R4, !PT"),
    ("emitMINMAX", word(0x080E0000, 0x1 | PT | regs(2, 4, 6)), "DMNMX", "DMNMX R2, R4, R6, PT"),
    ("emitMINMAX", word(0x081E0000, 0x1 | 0x200 | PT | regs(2, 4, 6)), "DMNMX", "DMNMX R2, -R4, R6, !PT"),
    ("emitPreOp", word(0x60000000, 0x20 | PT | 2 << 14 | 3 << 26), "RRO", "RRO.EX2 R2, R3"),
    ("emitPreOp", word(0x60000000, 0x100 | 0x40 | PT | 2 << 14 | 3 << 26), "RRO", "RRO.SINCOS R2, -|R3|"),
    ("emitCVT", word(0x10000000, 0x4 | PT | 2 << 14 | 4 << 26 | 2 << 20 | 3 << 23), "F2F", "F2F.F32.F64 R2, R4"),
    ("emitCVT", word(0x10000000 | 3 << 17, 0x4 | PT | 2 << 14 | 4 << 26 | 2 << 20 | 3 << 23), "F2F", "F2F.F32.F64.RZ R2, R4"),
    ("emitCVT", word(0x10000000 | 3 << 17, 0x4 | 0x80 | PT | 2 << 14 | 3 << 26 | 2 << 20 | 2 << 23), "F2F", "F2F.F32.F32.TRUNC R2, R3"),
    ("emitCVT", word(0x10000000 | 1 << 23, 0x4 | PT | 2 << 14 | 4 << 26 | 3 << 20 | 2 << 23), "F2F", "F2F.FTZ.F64.F32 R2, R4"),
    ("emitCVT", word(0x14000000 | 3 << 17, 0x4 | 0x80 | PT | 2 << 14 | 3 << 26 | 2 << 20 | 2 << 23), "F2I", "F2I.S32.F32.TRUNC R2, R3"),
    (
        "emitCVT",
        word(0x14000000 | 1 << 17 | 1 << 23, 0x4 | 0x40 | PT | 2 << 14 | 4 << 26 | 3 << 20 | 3 << 23),
        "F2I",
        "F2I.FTZ.U64.F64.FLOOR R2, |R4|",
    ),
    ("emitCCTL", word(0x98000000, 0x5 | 5 << 5 | PT | 63 << 14 | 4 << 20 | (0x10 >> 2) << 28), "CCTL", "CCTL.IV RZ, [R4+0x10]"),
    ("emitCCTL", word(0x98000000 | 1 << 26, 0x5 | 6 << 5 | PT | 2 << 14 | 4 << 20), "CCTL", "CCTL.E.IVALL R2, [R4]"),
    ("emitUADD", word(0x08000000 | _IADD32I_HI, 0x2 | PT | regs(2, 3) | _IADD32I_LO), "IADD32I", "IADD32I R2, R3, 0x12345"),
    ("emitUADD", word(0x08000000 | 1 << 26, 0x2 | 0x200 | 0x40 | PT | regs(2, 3) | 1 << 26), "IADD32I", "IADD32I.X R2.CC, -R3, 0x1"),
    ("emitUMUL", word(0x10000000, 0x2 | 0x40 | 0x20 | 0x80 | PT | regs(2, 3) | 0x10 << 26), "IMUL32I", "IMUL32I.HI R2, R3, 0x10"),
    ("emitUMUL", word(0x10000000, 0x2 | PT | regs(2, 3) | 0x10 << 26), "IMUL32I", "IMUL32I.U32.U32 R2, R3, 0x10"),
    ("emitMEMBAR", word(0xE0000000, 0x05 | PT), "MEMBAR", "MEMBAR.CTA"),
    ("emitMEMBAR", word(0xE0000000, 0x25 | PT), "MEMBAR", "MEMBAR.GL"),
    ("emitMEMBAR", word(0xE0000000, 0x45 | PT), "MEMBAR", "MEMBAR.SYS"),
    ("emitFlow", word(0x90000000, 0x7 | 0x1E0 | PT), "RET", "RET"),
    ("emitFlow", word(0xB0000000, 0x7 | 0x1E0 | PT), "CONT", "CONT"),
    ("emitFlow", word(0x70000000 | _PCNT_HI, 0x7 | _PCNT_LO), "PCNT", "PCNT 0x200"),
    # the atomics: sub-operations ADD..XOR = 0..7 in bits 8:5, EXCH and CAS written as 8 and 9
    *[
        (
            "emitATOM",
            word(0x507E0000 | 2 << 11 | _ATOM_HI, 0x5 | k << 5 | PT | 5 << 14 | 4 << 20 | _ATOM_LO),
            f"ATOM.{op}",
            f"ATOM.{op} R2, [R4+0x8], R5",
        )
        for k, op in enumerate(["ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR"])
    ],
    ("emitATOM", word(0x507E0000 | 2 << 11, 0x105 | PT | 5 << 14 | 4 << 20), "ATOM.EXCH", "ATOM.EXCH R2, [R4], R5"),
    ("emitATOM", word(0x50000000 | 2 << 11 | 6 << 17, 0x125 | PT | 5 << 14 | 4 << 20), "ATOM.CAS", "ATOM.CAS R2, [R4], R5, R6"),
    ("emitATOM", word(0x507E0000 | 2 << 11 | 1 << 26, 0x205 | PT | 6 << 14 | 4 << 20), "ATOM.ADD", "ATOM.E.ADD.U64 R2, [R4], R6"),
    ("emitATOM", word(0x587E0000 | 2 << 11, 0x205 | 2 << 5 | PT | 5 << 14 | 4 << 20), "ATOM.MAX", "ATOM.MAX.S32 R2, [R4], R5"),
    ("emitATOM", word(0x687E0000 | 2 << 11, 0x205 | PT | 5 << 14 | 4 << 20), "ATOM.ADD", "ATOM.ADD.F32.FTZ.RN R2, [R4], R5"),
    ("emitATOM", word(0x507E0000 | 2 << 11 | _ATOM_NEG_HI, 0x5 | PT | 5 << 14 | 4 << 20 | _ATOM_NEG_LO), "ATOM.ADD", "ATOM.ADD R2, [R4+-0x4], R5"),
    # emitSFnOp: the function in bits 28:26 as Mesa numbers it (OP_RCP 4, OP_RSQ 5, +2 for the 64H forms)
    *[
        ("emitSFnOp", word(0xC8000000, k << 26 | PT | regs(2, 3)), "MUFU", f"MUFU.{fn} R2, R3")
        for k, fn in enumerate(["COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H"])
    ],
    ("emitSFnOp", word(0xC8000000, 5 << 26 | 0x80 | 0x2000 | 1 << 10 | regs(2, 3)), "MUFU", "@!P1 MUFU.RSQ R2, |R3|"),
]


@pytest.mark.parametrize(("function", "w", "form", "text"), CASES, ids=[f"{c[0]}:{c[3]}" for c in CASES])
def test_the_mesa_word_decodes_to_its_form_and_the_text_assembles_to_it(function: str, w: int, form: str, text: str) -> None:
    assert decode(w, 0x100).form == form, function
    assert render_word(w, 0x100, "cuda5") == text
    assert assemble_line(text, 0x100, "cuda5") == w


@pytest.mark.parametrize(
    ("w", "op", "dest"),
    [
        (word(0x78000000 | _PRET_HI, 0x7 | _PRET_LO), "PRET", 0x300),
        (word(0x50000000, 0x7 | 0x38 << 26), "CAL", 0x140),
        (word(0x50000000, 0x7 | 1 << 16 | 0x38 << 26), "CAL", 0x140),
    ],
)
def test_calls_decode_with_mesas_relative_target(w: int, op: str, dest: int) -> None:
    # emitFlow writes CAL (OP_CALL, relative) and PRET (OP_PRERET) unguarded, the target relative to the
    # next instruction; whether bit 16 (Mesa's `limit`) prints .NOINC when clear is not Mesa's to say
    insn = decode(w, 0x100)
    assert (insn.op, insn.srcs) == (op, (Target(dest),))
    assert assemble_line(render_word(w, 0x100, "cuda5"), 0x100, "cuda5") == w


def test_the_rows_citing_mesa_are_the_rows_checked_here() -> None:
    checked = {form for _, _, form, _ in CASES} | {"CAL", "PRET"}
    assert {f.name for f in FORMS if "mesa" in f.src} == checked
