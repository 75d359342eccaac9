"""Real cuobjdump sm_1x lines and their words, beyond ../shared: collected from public nvcc
listings (FlexGripPlus applications FFT, MxM, Transpose, edge; an sm_12 listing made with
CUDA 6.0). They exercise forms the shared listings do not: immediates printed as signed floats,
half-register stores, 128-bit global accesses, $c writes to o[0x7f], join markers on ALU ops.
Words are word0 word1 as stored; `end` marks the last instruction of its kernel (exit marker)."""

from __future__ import annotations

import pytest

from golden.g80.isa import assemble, assemble_instruction, decode
from golden.g80.listing import normalise

KNOWN = [
    ("FMUL32I R0, R0, 0x3f000000", (0xC0000001, 0x03F00003)),
    ("FADD32I R2, R0, -0x40800000", (0xB0000009, 0x0BF80003)),
    ("FADD32I R5, -R5, 0x3f800000", (0xB0008A15, 0x03F80003)),
    ("FMAD32I R0, R7, -0x40000000, -R0", (0xE0400E01, 0x0C000003)),
    ("FMAD32I R0, R6, 0x3e59b3d0, R0", (0xE0100C01, 0x03E59B3F)),
    ("IADD32I R2, g [0x6], 0xffffffff", (0x213FEC09, 0x0FFFFFFF)),
    ("IADD32I R10, R10, 0x1", (0x20019429, 0x00000003)),
    ("MVI R6, 0x9645", (0x10058019, 0x00000967)),
    ("MVI R0, 0x41c00000", (0x10008001, 0x041C0003)),
    ("IMUL32I.S16.S16 R1, R1L, 0x4c84", (0x40048505, 0x000004CB)),
    ("IMUL32I.U16.U16 R2, g [0x4].U16, 0x20", (0x41202809, 0x00000003)),
    ("IMAD32I.U16 R1, g [0x7].U16, 0x20, R1", (0x61202E05, 0x00000003)),
    ("IMAD.U16 R2, R4H, R5L, R2", (0x600A1209, 0x00008780)),
    ("IMAD.U16 R1, g [0x7].U16, c[0x1][0x2], R2", (0x60824E05, 0x00608780)),
    ("IMUL.U16.U16 R2, R4L, R5H", (0x400B1009, 0x00000780)),
    ("SHL R7, g [0xb], 0x7", (0x3007D61D, 0xC4300780)),
    ("SHL R2, R2, R3", (0x30030409, 0xC4000780)),
    ("SHR.S32 R1, g [0x6], 0x1", (0x3001CC05, 0xEC300780)),
    ("SHR.S32 R3, R3, R2", (0x3002060D, 0xEC000780)),
    ("SHR.U16 R6L, R0H, 0xa", (0x300A0231, 0xE0100780)),
    ("SHL.S R11, R11, 0x1", (0x3001162D, 0xC4100782)),
    ("ISET.S.S32 R1, R1, R124, EQ", (0x307C0205, 0x6C008782)),
    ("ISET.C1 o [0x7f], g [0x7], R0, LT", (0x3000CFFD, 0x642047D8)),
    ("ISET.S32.C2 R1, R2, R124, GT", (0x307C0405, 0x6C0107E0)),
    ("ISET.S32.C0 o[0x7f], g [0x7], c[0x1][0x0], LT", (0x3080CFFD, 0x6C6047C8)),
    ("ISET R10, R7, R10, LE", (0x300A0E29, 0x6400C780)),
    ("LOP.AND R4, R4, R8", (0xD0080811, 0x04000780)),
    ("LOP.AND.C1 o [0x7f], R0, R11", (0xD00B01FD, 0x040007D8)),
    ("LOP.AND.U16 R0H, R0H, c [0x1] [0x0]", (0xD0800205, 0x00400780)),
    ("I2I.S32.S32.C1 o [0x7f], R1", (0xA00003FD, 0x0C0147D8)),
    ("I2I.S32.S16 R1, R1L", (0xA0000405, 0x0C010780)),
    ("I2I.U32.U16.BEXT R2, R2L", (0xA0000809, 0x04008780)),
    ("I2I.U32.U16 R4, g [0x2].U16", (0xA0004411, 0x04200780)),
    ("I2F.F32.U16.BEXT R8, R8L", (0xA0002021, 0x44008780)),
    ("I2F.F32.U32 R8, R7", (0xA0000E21, 0x44004780)),
    ("F2I.S32.F32.TRUNC R4, R0", (0xA0000011, 0x8C064780)),
    ("F2F.F32.F32 R0, R0", (0xA0000001, 0xC4004780)),
    ("FADD R8, R0, R8", (0xB0000021, 0x00020780)),
    ("FADD R0, -R0, R2", (0xB0000001, 0x04008780)),
    ("FMUL R1 (C0.NEU), R1, c[0x1][0x1]", (0xC0810205, 0x00400680)),
    ("FMUL.TRUNC.C0 R8, R8, R10", (0xC00A1021, 0x0000C7C0)),
    ("FMAD R10, g [A2+0x0], R0, R10", (0xE800C029, 0x00228780)),
    ("FMAD R3, -R2, R3, R1", (0xE003040D, 0x04004780)),
    ("FSET.C0 o[0x7f], R0, c[0x1][0x0], GT", (0xB08001FD, 0x604107C8)),
    ("FSET.C0 o[0x7f], |R2|, c[0x1][0x0], GT", (0xB08005FD, 0x605107C8)),
    ("RRO R2, R0, SIN", (0xB0000009, 0xC0000780)),
    ("COS R1, R2", (0x90000405, 0xA0000780)),
    ("RCP R10, R8", (0x90001029, 0x00000780)),
    ("MOV R2, g [0x6]", (0x1000CC09, 0x0423C780)),
    ("MOV R0 (C0.NE), R124", (0x1000F801, 0x0403C280)),
    ("MOV R0, g [A3+0x0]", (0x1C00C001, 0x0423C780)),
    ("MOV32 R1, g [0x7]", (0x1100EE04,)),
    ("MOV32 R0, g [A1+0xb]", (0x1500F600,)),
    ("MOV32.U16 R0L, R3L", (0x10000C00,)),
    ("MVC R1 (C2.NE), c [0x1] [0x1]", (0x10000205, 0x2440E280)),
    ("MVC R0 (C0.NEU), c[0x1] [0x2]", (0x10000401, 0x2440C680)),
    ("R2A A1, R10, 0x2", (0x00021405, 0xC0000780)),
    ("R2A A2, R11", (0x00001609, 0xC0000780)),
    ("ADA A4, A3, 0x80", (0xDC010011, 0x20000780)),
    ("R2G.U32.U32 g[A1+0x9], R124", (0x04001201, 0xE43F0780)),
    ("IADD R10, -R10, R9", (0x30001429, 0x04024780)),
    ("IADD R3, R10, -R11", (0x2040140D, 0x0402C780)),
    ("IADD R10, R1, c [0x1] [0x2]", (0x21000229, 0x04408780)),
    ("IADD32 R0, g [0x5], R3", (0x2103EA00,)),
    ("IADD32 R14, R14, -R15", (0x204F9C38,)),
    ("IMUL32.U16.U16 R7, R4H, R5L", (0x400A121C,)),
    ("FMUL32 R2, R4, R2", (0xC0020808,)),
    ("GLD.U8 R1, global14 [R9]", (0xD00E1205, 0x80000780)),
    ("GST.U8 global14 [R10], R1", (0xD00E1405, 0xA0000780)),
    ("GLD.S128 R0, global14[R4]", (0xD00E0801, 0x80A00780)),
    ("GST.U32 global14[R5] (C0.EQU), R6", (0xD00E0A19, 0xA0C00500)),
    ("BRA C1.EQ, 0x4c8", (0x10099003, 0x00001100)),
    ("BRA C3.NE, 0x960", (0x1012C003, 0x00003280)),
    ("BRA 0x58", (0x1000B003, 0x00000780)),
    ("SSY 0x508", (0xA00A1003, 0x00000000)),
    ("BAR.ARV.WAIT b0, 0xfff", (0x861FFE03, 0x00000000)),
]
END = [
    ("GST.S128 global14[R4], R0", (0xD00E0801, 0xA0A00781)),
    ("GST.U32 global14[R0], R10", (0xD00E0029, 0xA0C00781)),
    ("NOP", (0xF0000001, 0xE0000001)),
]


# Texture fetches. No cuobjdump sm_1x listing with a TEX and its words was found; these are real
# words from the NV50 fragment programs of the X driver xf86-video-nouveau (src/nv50_accel.c,
# gitlab.freedesktop.org/xorg/driver/xf86-video-nouveau, mirrored as
# github.com/freedesktop/nouveau-xf86-video-nouveau at 3ee7cbca8f91, lines 314-409; MIT), run on
# G80-family hardware, each with envytools' disassembly in the comment next to it (copied here
# verbatim). The test reads the fields from envytools' text, independently of this project's
# table, and checks them against the decoded fields; then our spelling assembles to the words.
NOUVEAU_TEX = [
    ((0xF6400001, 0x0000C785), "exit texauto live $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1 0x0 0x0 0x0", "TEX.E.2D R0, 0x0, 0x0"),
    ((0xF6400001, 0x0000C784), "texauto live $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1 0x0 0x0 0x0", "TEX.2D R0, 0x0, 0x0"),
    ((0xF0400211, 0x00008784), "texauto live #:#:#:$r4 $t1 $s0 $r4:$r5 0x0 0x0 0x0", "TEX.2D R4, 0x1, 0x0, 0x8"),
    ((0xF6400211, 0x0000C784), "texauto live $r4:$r5:$r6:$r7 $t1 $s0 $r4:$r5 0x0 0x0 0x0", "TEX.2D R4, 0x1, 0x0"),
    ((0xF6400201, 0x0000C784), "texauto live $r0:$r1:$r2:$r3 $t1 $s0 $r0:$r1 0x0 0x0 0x0", "TEX.2D R0, 0x1, 0x0"),
    ((0xF0400011, 0x00008784), "texauto live #:#:#:$r4 $t0 $s0 $r4:$r5 0x0 0x0 0x0", "TEX.2D R4, 0x0, 0x0, 0x8"),
    ((0xF0400001, 0x00008784), "texauto live #:#:#:$r0 $t0 $s0 $r0:$r1 0x0 0x0 0x0", "TEX.2D R0, 0x0, 0x0, 0x8"),
    ((0xF0400209, 0x00008784), "texauto live #:#:#:$r2 $t1 $s0 $r2:$r3 0x0 0x0 0x0", "TEX.2D R2, 0x1, 0x0, 0x8"),
    ((0xF0400201, 0x0000C784), "texauto live #:#:$r0:$r1 $t1 $s0 $r0:$r1 0x0 0x0 0x0", "TEX.2D R0, 0x1, 0x0, 0xc"),
]


def envydis_tex_fields(text: str) -> dict[str, int]:
    """Fields of an envydis texauto/texfetch line: destinations ($rN or # per component r g b a,
    consecutive from the base), $t, $s, the coordinate registers and the x y z offsets."""
    words = text.split()
    exit_ = words[0] == "exit"
    op, live, dsts, tex, samp, srcs, *offsets = words[1:] if exit_ else words
    comps = dsts.split(":")
    written = [int(c[2:]) for c in comps if c != "#"]
    coords = [int(c[2:]) for c in srcs.split(":")]
    assert written == list(range(written[0], written[0] + len(written))) and coords[0] == written[0]
    return {
        "marker": 1 if exit_ else 0, "tfetch": int(op == "texfetch"), "tlive": int(live == "live"), "dst": written[0],
        "tmask": sum(1 << i for i, c in enumerate(comps) if c != "#"), "tex": int(tex[2:]), "samp": int(samp[2:]),
        "tcnt": len(coords) - 1, "toff": sum((int(v, 16) & 0xF) << (8 - 4 * i) for i, v in enumerate(offsets)),
    }  # fmt: skip


@pytest.mark.parametrize(("words", "envydis", "text"), NOUVEAU_TEX, ids=[t for _, _, t in NOUVEAU_TEX])
def test_real_texture_words(words: tuple[int, int], envydis: str, text: str) -> None:
    insn = decode(words)
    assert insn.name == "TEX"
    for name, value in envydis_tex_fields(envydis).items():
        assert insn.fields[name] == value, name
    assert normalise(insn.text) == normalise(text)
    assert assemble_instruction(text).words == words


@pytest.mark.parametrize(("text", "words"), KNOWN, ids=[t for t, _ in KNOWN])
def test_known_encoding(text: str, words: tuple[int, ...]) -> None:
    assert normalise(decode(words).text) == normalise(text)
    assert assemble_instruction(text).words == words


@pytest.mark.parametrize(("text", "words"), END, ids=[t for t, _ in END])
def test_known_kernel_end(text: str, words: tuple[int, ...]) -> None:
    insn = decode(words)
    assert insn.marker == 1
    assert normalise(insn.render(implicit_exit=True)) == normalise(text)
    assert tuple(assemble(text).words) == words  # the last instruction of a program gets the exit
