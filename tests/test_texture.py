"""Texture instructions (opcode f): decoded with the field layout of envytools, spelt, assembled.

No real sm_1x cuobjdump line with a texture fetch and its words was found (docs/reference/assembly.md, "Spellings not
seen in any NVIDIA listing"); real texauto words from the NV50 driver are in
test_known_encodings.py. The other forms and fields are checked here on words built by hand from
what envytools' disassembler (envydis/g80.c, the G80 tables) states, independently of this
project's table:

- 32-bit texauto/texfetch: match 0xf0000000/0xf1000000 under mask 0xf1000002; register base
  w0[7:2], all four components; $t w0[16:9]; $s w0[21:17]; coordinate count w0[23:22] + 1;
  w0[8] live (1) / all (0).
- 64-bit: w1[31:28] 0 texauto (w0[24] 1: texfetch), 2 texbias, 4 texlod, 6 texsize (w1[19:16] 0);
  w0[27] cube; register base w0[8:2]; components written w0[26:25] (r g) and w1[15:14] (b a);
  live/all w1[2]; deriv w1[3]; texel offsets x w1[27:24], y w1[23:20], z w1[19:16].
decuda (Opcodes.py, class tex) agrees on the texture w0[14:9], sampler w0[21:17], the register
base and the component mask bits.
"""

from __future__ import annotations

import pytest

from golden.g80.isa import IllegalInstruction, assemble_instruction, decode
from golden.g80.listing import normalise


def short_word(*, base: int, tex: int, samp: int, count: int, fetch: int, live: int) -> tuple[int]:
    return (0xF0000000 | fetch << 24 | (count - 1) << 22 | samp << 17 | tex << 9 | live << 8 | base << 2,)


def long_word(*, top: int, base: int, tex: int, samp: int, count: int = 1, fetch: int = 0, cube: int = 0, mask: int = 0xF,
              live: int = 1, deriv: int = 0, off: tuple[int, int, int] = (0, 0, 0), pred: int = 0xF) -> tuple[int, int]:  # fmt: skip
    w0 = 0xF0000001 | cube << 27 | (mask & 3) << 25 | fetch << 24 | (count - 1) << 22 | samp << 17 | tex << 9 | base << 2
    x, y, z = (v & 0xF for v in off)
    w1 = top << 28 | x << 24 | y << 20 | z << 16 | (mask >> 2) << 14 | pred << 7 | deriv << 3 | live << 2
    return w0, w1


# (words built from the envydis layout, the text this project spells them as, decoded fields)
CASES = [
    (short_word(base=5, tex=3, samp=2, count=2, fetch=1, live=1), "TEX32.FETCH.2D R5, 0x3, 0x2",
     {"dst": 5, "tex": 3, "samp": 2, "tcnt": 1, "tfetch": 1, "tlive": 1}),
    (short_word(base=63, tex=0xFF, samp=0x1F, count=4, fetch=0, live=0), "TEX32.4D.ALL R63, 0xff, 0x1f",
     {"dst": 63, "tex": 0xFF, "samp": 0x1F, "tcnt": 3, "tfetch": 0, "tlive": 0}),
    (long_word(top=0, base=4, tex=1, samp=1, fetch=1), "TEX.FETCH.1D R4, 0x1, 0x1",
     {"dst": 4, "tex": 1, "samp": 1, "tfetch": 1, "tmask": 0xF, "tlive": 1, "toff": 0}),
    (long_word(top=0, base=8, tex=2, samp=3, count=2, mask=0x3), "TEX.2D R8, 0x2, 0x3, 0x3",
     {"dst": 8, "tmask": 0x3, "tcnt": 1, "tfetch": 0}),
    (long_word(top=0, base=0x7F, tex=0x80, samp=0, count=3, mask=0x9, off=(1, -2, 7)), "TEX.3D R127, 0x80, 0x0, 0x9, 0x1e7",
     {"dst": 0x7F, "tex": 0x80, "tmask": 0x9, "toff": 0x1E7}),
    (long_word(top=0, base=0, tex=0, samp=0, count=3, cube=1, live=0, deriv=1, pred=0x2), "TEX.CUBE.3D.ALL.DERIV R0 (C0.EQ), 0x0, 0x0",
     {"tcube": 1, "tlive": 0, "tderiv": 1, "pcond": 2}),
    (long_word(top=2, base=12, tex=5, samp=5, count=2), "TEX.BIAS.2D R12, 0x5, 0x5", {"dst": 12, "sec": 1}),
    (long_word(top=4, base=12, tex=5, samp=5, count=3, mask=0x1), "TEX.LOD.3D R12, 0x5, 0x5, 0x1", {"sec": 2, "tmask": 1}),
    (long_word(top=6, base=2, tex=7, samp=7, mask=0x7), "TEX.SIZE R2, 0x7, 0x7, 0x7", {"dst": 2, "sec": 3, "tmask": 7, "tsub": 0}),
]  # fmt: skip


@pytest.mark.parametrize(("words", "text", "fields"), CASES, ids=[t for _, t, _ in CASES])
def test_texture_words_decode_spell_and_assemble_back(words: tuple[int, ...], text: str, fields: dict[str, int]) -> None:
    insn = decode(words)
    assert normalise(insn.text) == normalise(text)
    for name, value in fields.items():
        assert insn.fields[name] == value, name
    assert assemble_instruction(text).words == words


def test_tex32_before_a_64bit_instruction_becomes_tex_with_the_same_meaning() -> None:
    """Alignment promotion: the 64-bit form with all four components and the same live bit."""
    from golden.g80.isa import assemble

    program = assemble("MOV32 R1, R0\nMOV32 R2, R0\nTEX32.FETCH.2D R4, 0x1, 0x2\nNOP")
    tex = program.instructions[2]
    assert tex.name == "TEX" and normalise(tex.text) == normalise("TEX.FETCH.2D R4, 0x1, 0x2")
    assert tex.words == long_word(top=0, base=4, tex=1, samp=2, count=2, fetch=1)


@pytest.mark.parametrize(
    ("words", "phrase"),
    [
        ((0xF0000001, 0x10000784), "bits w1[28]"),  # w1[31:28] = 1: no texture operation (envydis)
        ((0xF1000001, 0x20000784), "bits w0[24]"),  # texbias has no integer-coordinate form
        ((0xF8000001, 0x60000784), "bits w0[27]"),  # texsize takes no cube, count or fetch bits
        ((0xF0000001, 0x60020784), "texquerylod"),
        ((0xF0000001, 0x80000784), "texcsaa"),
    ],
)
def test_texture_words_without_a_compute_form_say_why(words: tuple[int, int], phrase: str) -> None:
    with pytest.raises(IllegalInstruction, match=phrase.replace("[", r"\[").replace("]", r"\]")):
        decode(words)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("TEX R0, 0x0, 0x0", "coordinate registers"),  # the count is always spelt
        ("TEX.2D R0, 0x100, 0x0", "does not fit in 8 bits"),
        ("TEX.2D R0, 0x0, 0x20", "does not fit in 5 bits"),
        ("TEX32.1D R64, 0x0, 0x0", "out of range"),
        ("TEX.SIZE R0, 0x0, 0x0, 0xf, 0x1", "too many operands for TEX"),  # texsize has no texel offsets
        ("TEX.1D R0, 0x0, 0x0, 0x10", "component mask 0x10 out of range"),
        ("TEX.FETCH.1D R0, 0x0, 0x0, 0x0, 0x1000", "texel offsets 0x1000 out of range"),
    ],
)
def test_texture_syntax_errors(text: str, message: str) -> None:
    from golden.g80.isa import AsmError

    with pytest.raises(AsmError, match=message):
        assemble_instruction(text)
