"""Forms no available NVIDIA listing shows, checked bit by bit against ../shared/reference/ISA.md
(sections 1.3 layout, 1.4 opcode map, 3-7 field meanings). Each case: the spelling of docs/reference/assembly.md
("Spellings not seen in any NVIDIA listing"), and
the bits ISA.md says that instruction has. Bit names: w0[hi:lo] / w1[hi:lo]."""

from __future__ import annotations

import re

import pytest

from golden.g80.isa import assemble_instruction, decode


def bits(words: tuple[int, ...], spec: str) -> int:
    m = re.fullmatch(r"w([01])\[(\d+)(?::(\d+))?\]", spec)
    assert m, spec
    word = words[int(m.group(1))]
    hi = int(m.group(2))
    lo = int(m.group(3)) if m.group(3) else hi
    return (word >> lo) & ((1 << (hi - lo + 1)) - 1)


OP, SEC = "w0[31:28]", "w1[31:29]"
CASES = [
    ("C2R R0, C1", {OP: 0x0, SEC: 1, "w1[13:12]": 1}),
    ("A2R R3, A1", {OP: 0x0, SEC: 2, "w0[27:26]": 1, "w0[8:2]": 3}),
    ("S2R R2, SR1", {OP: 0x0, SEC: 3, "w1[17:14]": 1, "w0[8:2]": 2}),
    ("R2C C1, R0", {OP: 0x0, SEC: 5, "w1[5:4]": 1, "w1[6]": 1}),
    ("R2A A3, R9, 0x2", {OP: 0x0, SEC: 6, "w0[19:16]": 2}),
    ("IMAX.S32 R0, R1, R2", {OP: 0x3, SEC: 4, "w1[27]": 1, "w1[26]": 1, "w0[22:16]": 2}),
    ("IMIN.U16 R0L, R1L, R2H", {OP: 0x3, SEC: 5, "w1[27]": 0, "w1[26]": 0, "w0[22:16]": 5, "w0[15:9]": 2}),
    ("SHR.S32 R1, R2, 0x1f", {OP: 0x3, SEC: 7, "w1[27]": 1, "w1[26]": 1, "w1[20]": 1, "w0[22:16]": 0x1F}),
    ("SHL R1, R2, R3", {OP: 0x3, SEC: 6, "w1[20]": 0, "w0[22:16]": 3}),
    ("ISAD R0, R1, R2, R3", {OP: 0x5, SEC: 0, "w1[20:14]": 3, "w1[26]": 1}),
    ("ISAD.S16 R0, R1L, R2H, R3", {OP: 0x5, "w1[27]": 1, "w1[26]": 0}),
    ("IMUL.HI.S24.S24 R0, R1, R2", {OP: 0x4, "w1[16]": 1, "w1[15]": 1, "w1[14]": 1}),
    ("IMUL.S16.U16 R0, R1L, R2L", {OP: 0x4, "w1[16]": 0, "w1[15]": 1, "w1[14]": 0}),
    ("IMAD.S24 R0, R1, R2, R3", {"w0[31:28]": 0x6, SEC: 4, "w1[27:26]": 0}),
    ("IMAD.HI.SAT.S24 R0, R1, R2, -R3", {"w0[31:28]": 0x7, SEC: 0, "w1[27:26]": 1}),
    ("IMAD.U16.CARRY3 R0, R1L, R2L, R3", {"w0[28]": 0, SEC: 0, "w1[27:26]": 3, "w1[13:12]": 3}),
    ("IADD.SAT.U16 R0L, R1H, R2L", {OP: 0x2, "w1[27]": 1, "w1[26]": 0, "w0[15:9]": 3, "w1[20:14]": 4}),
    ("IADD.CARRY2 R0, R1, R2", {OP: 0x3, "w0[22]": 1, "w1[13:12]": 2, "w1[11:7]": 0xF}),
    ("IADD32.CARRY0 R0, R1, R2", {"w0[1:0]": 0, "w0[31:28]": 0x3, "w0[22]": 1}),
    ("FMAX R0, |R1|, -R2", {OP: 0xB, SEC: 4, "w1[20]": 1, "w1[26]": 0, "w1[27]": 1}),
    ("FMIN R0, -R1, |R2|", {OP: 0xB, SEC: 5, "w1[26]": 1, "w1[19]": 1}),
    ("FSLCT R0, R1, R2, -R3", {OP: 0xC, SEC: 3, "w1[20:14]": 3}),
    ("FSLCT R0, R1, R2, R3", {OP: 0xC, SEC: 2}),
    ("FADD.SAT.TRUNC R0, R1, R2", {OP: 0xB, SEC: 1, "w0[17:16]": 3, "w1[20:14]": 2}),
    ("FMAD.SAT R0, R1, R2, R3", {OP: 0xE, SEC: 1}),
    ("RCP R0, -|R1|", {OP: 0x9, SEC: 0, "w1[26]": 1, "w1[20]": 1}),
    ("EX2.SAT R0, R1", {OP: 0x9, SEC: 6, "w1[27]": 1}),
    ("RRO R0, -R1, EX2", {OP: 0xB, SEC: 6, "w1[14]": 1, "w1[26]": 1}),
    ("F2F.F32.F32.TRUNC R0, R1", {OP: 0xA, "w1[31:30]": 3, "w1[27]": 1, "w1[18:17]": 3}),
    ("F2F.F32.F32.SAT R0, R1", {OP: 0xA, "w1[19]": 1, "w1[27]": 0}),
    ("I2F.F32.S32.FLOOR R0, R1", {OP: 0xA, "w1[31:30]": 1, "w1[18:17]": 1, "w1[16:14]": 5}),
    ("F2I.S16.F32.CEIL R0L, R1", {OP: 0xA, "w1[31:30]": 2, "w1[27]": 1, "w1[26]": 0, "w1[18:17]": 2, "w1[14]": 1}),
    ("I2I.S8.U32 R0, R1", {OP: 0xA, "w1[31:30]": 0, "w1[19]": 1, "w1[27]": 1, "w1[26]": 1, "w1[16:14]": 1}),
    ("I2I.U32.U32.BEXT R0, R1", {"w1[16:14]": 3}),
    ("LOP.PASS_B R0, R1, ~R2", {OP: 0xD, SEC: 0, "w1[15:14]": 3, "w1[17]": 1, "w1[16]": 0}),
    ("LOP.OR R0, ~R1, c[0x2][0x3]", {"w1[15:14]": 1, "w1[16]": 1, "w0[23]": 1, "w1[25:22]": 2, "w0[22:16]": 3}),
    ("LOP32I.XOR R0, ~R1, 0xff", {"w1[1:0]": 3, "w0[31:28]": 0xD, "w0[15]": 1, "w0[8]": 0, "w0[22]": 1}),
    ("ADA A2, A1, 0x40", {OP: 0xD, SEC: 1, "w0[4:2]": 2, "w0[27:26]": 1, "w0[24:9]": 0x40}),
    ("LLD.U32 R0, local[A1+0x10]", {OP: 0xD, SEC: 2, "w1[23:21]": 6, "w0[27:26]": 1, "w0[24:9]": 0x10}),
    ("LST.U8 local[0x4], R1", {OP: 0xD, SEC: 3, "w1[23:21]": 0, "w0[8:2]": 1, "w0[24:9]": 4}),
    ("GLD.S16 R1, global14[R2]", {OP: 0xD, SEC: 4, "w1[23:21]": 3, "w0[19:16]": 14, "w0[15:9]": 2}),
    ("GST.S64 global14[R2], R4", {SEC: 5, "w1[23:21]": 4, "w0[8:2]": 4}),
    ("MOV R0, g [A1+++0x2]", {OP: 0x1, "w1[21]": 1, "w0[25]": 1, "w0[27:26]": 1, "w0[15:14]": 3, "w0[13:9]": 2}),
    ("MOV R0, g [A2++-0x1]", {"w0[25]": 1, "w0[27:26]": 2, "w0[13:9]": 0x1F}),
    ("MOV R0, g [A5+0x1]", {"w0[27:26]": 1, "w1[2]": 1}),
    ("MVC.U16 R0L, c[0x3] [A2+0x5].S16", {OP: 0x1, SEC: 1, "w1[15:14]": 2, "w1[25:22]": 3, "w0[27:26]": 2, "w0[24:9]": 5, "w1[26]": 0}),
    ("R2G.U16.U16 g[0x3], R1H", {OP: 0x0, SEC: 7, "w1[22]": 0, "w1[26]": 0, "w1[21]": 0, "w1[20:14]": 3, "w0[24:9]": 3}),
    ("R2G.U16.U8 g[0x7], R3", {"w1[22]": 1, "w1[21]": 0, "w1[20:14]": 3}),
    ("PBK 0x80", {"w0[1:0]": 3, OP: 0x4, "w0[26:11]": 0x20}),
    ("BRK C0.NE", {"w0[1:0]": 3, OP: 0x5, "w1[11:7]": 5}),
    ("CAL 0x40", {OP: 0x2, "w1[6]": 1, "w0[26:11]": 0x10}),
    ("BRA 0x1000000", None),  # beyond the 24-bit code space: an error
    ("BRA 0x40000", {"w1[19:14]": 1, "w0[26:11]": 0}),
    ("BRA 0xfffffc", {"w1[19:14]": 0x3F, "w0[26:11]": 0xFFFF}),
    ("TRAP", {"w0[1:0]": 3, OP: 0x9}),
    ("TRAP32", {"w0[1:0]": 2, OP: 0x9}),
    ("BAR.ARV.WAIT b1, 0x40", {OP: 0x8, "w0[24:21]": 1, "w0[25]": 1, "w0[26]": 1, "w0[20:9]": 0x40}),
    ("BAR.ARV b0, ALL", {"w1[14]": 1, "w0[26]": 0}),
    ("PMEVENT 0x1", {OP: 0xF, SEC: 7, "w1[2]": 1, "w0[13:10]": 1}),
    ("NOP C0.NE", {OP: 0xF, SEC: 7, "w1[11:7]": 5}),
    ("NOP.E", {"w1[1:0]": 1, "w1[11:7]": 0}),
    ("ISET.C3 o[0x7f], R1, R2, NUM", {SEC: 3, "w1[16:14]": 7, "w1[3]": 1, "w0[8:2]": 0x7F, "w1[6]": 1, "w1[5:4]": 3}),
    ("FSET R0, R1, R2, GEU", {OP: 0xB, SEC: 3, "w1[17:14]": 0xE}),
    ("IADD R0 (C2.TRUE), R1, R2", {"w1[13:12]": 2, "w1[11:7]": 0xF}),
    ("IADD R0 (C1.NOT_CARRY), R1, R2", {"w1[13:12]": 1, "w1[11:7]": 0x1E}),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_layout(text: str, expected: dict[str, int] | None) -> None:
    if expected is None:
        with pytest.raises(Exception, match="24-bit code space"):
            assemble_instruction(text)
        return
    words = assemble_instruction(text).words
    for spec, value in expected.items():
        assert bits(words, spec) == value, f"{text}: {spec} = {bits(words, spec):#x}, ISA.md says {value:#x}"
    assert decode(words).text.replace(" ", "") == text.replace(" ", "").replace("c[0x3][A2+0x5]", "c[0x3][A2+0x5]")
