"""LG semantic profiles: `seed` (ISA 1.1 as the seed reads, what the project's RTL implements) and
`ta2013` (the TA's functional simulator of the graphics phase, April 2013).

Wherever the sources disagree the model takes a named switch. Each switch carries, as field
metadata, its meaning (`doc`) and where each profile's value comes from (`src`), so the manual's
table and a report can read them from the dataclass rather than from comments that could drift.

Source keys used below:
- seed: ../shared/seeds/004_eb6d6cefbe84d076.txt (the ISA 1.1 slides);
- LG.md: ../shared/reference/LG.md (facts read from the course material of that term);
- project: the choices the LG model and RTL share where the seed is silent (docs/design/lg.md);
- TA: the TA's functional simulator of the graphics phase (simulator.cpp, April 2013), by the
  name of the routine that shows the behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from golden.errors import BadSetting
from golden.isa.profile import ProfileBase, switch

_NUM = "numbers"
_CTRL = "control"
_GFX = "graphics"


@dataclass(frozen=True)
class LgProfile(ProfileBase):
    """One LG semantic profile: every switch at its `seed` value unless the profile departs from it."""

    TITLE = "LG profile"

    name: str = "seed"
    # numbers
    arith: str = switch(
        "fixed", _NUM,
        '"fixed": float registers and vector elements hold Q8.7 bits (int16 / 128) and all arithmetic is '
        'exact 16-bit integer arithmetic, the graphics in Q15.16; "float": a Python float per float register '
        "view and vector element, never re-quantised, the graphics in floats (the TA keeps a separate int "
        "and float view of every scalar register; a float cmpi compares with 0.0 because the TA's decoder "
        "fills only the integer immediate of cmpi)",
        "seed: fixed (LG.md: the RTL stores 1.8.7 bits); TA: float (ScalarRegister has int_value and "
        "float_value; ExecuteInstruction OP_ADD_F, OP_CMPI; DecodeInstruction OP_CMPI)",
    )
    float_imm: str = switch(
        "q8_7", _NUM,
        'how a float immediate (addi.f, movi.f, vmovi, vcompmovi) is read: "q8_7" 1.8.7 two\'s complement '
        '(1.0 = 0x0080), "half" IEEE binary16, "q11_4" 1.11.4 (1.0 = 0x0010); in fixed arithmetic a '
        "non-Q8.7 immediate is converted to Q8.7 by truncation, saturating at the int16 range",
        "seed and TA: q8_7 (LG.md; TA FIXED_TO_FLOAT187); half: the course assembler earlier in the term "
        "(LG.md); q11_4: the 2015 course (LG.md)",
    )
    int_bits: int = switch(
        16, _NUM,
        "width of an integer register (R0-R7, R15): 16, or 32 with CC taken from the low 16 bits as a "
        "signed value and immediates sign-extended",
        "seed: 16 (16-bit scalar registers); TA: 32 (int int_value; SetConditionCodeInt takes int16_t)",
    )
    vcompmov_float_view: bool = switch(
        False, _NUM,
        "vcompmov from a scalar register copies its float view (for R0-R6 that is what a float "
        "instruction last wrote there, 0.0 otherwise) instead of its 16 bits; with fixed arithmetic there "
        "is one view and the switch changes nothing",
        "seed: the bits (project; the students' RTL); TA: float view (ExecuteInstruction OP_VCOMPMOV)",
    )
    # control
    cc_order: str = switch(
        "n0z1p2", _CTRL,
        'bit order of the CC register (and of the record\'s cc): "n0z1p2" N = bit 0, Z = bit 1, P = bit 2; '
        '"n2z1p0" N = 4, Z = 2, P = 1',
        "seed: n0z1p2 (slide 'Registers (Cont'd)'); TA: n2z1p0 (SetConditionCodeInt, OP_BRN..OP_BRNZP)",
    )
    cc_reset: int = switch(
        0, _CTRL,
        "CC after reset, in the profile's bit order (0: no flag set, so a branch before any CC-setting "
        "instruction falls through)",
        "seed: silent (project: 0); TA: 0 (InitializeGlobalVariables clears g_condition_code_register)",
    )
    pc_unit: str = switch(
        "byte", _CTRL,
        'what R15, jump targets and the link register count: "byte" addresses (next = PC + 4, br/jsr '
        'target = next + (offset << 2)) or "insn" instruction indices (next = PC + 1, target = next + offset)',
        "seed: byte (BR and JSR operation, 'PC + pc_offset << 2' from the new PC); TA: insn (main: PC += 1, "
        "then PC += offset; OP_JMP and OP_JSRR targets are indices)",
    )
    loads_set_cc: bool = switch(
        True, _CTRL,
        "ldb/ldw set CC from the loaded value",
        "seed: yes (LD is marked + in the opcode map and SetCC in LDB/LDW); TA: no (OP_LDB, OP_LDW only copy)",
    )
    ldb_merges: bool = switch(
        False, _CTRL,
        "ldb replaces only the low byte of the register (ldw the low 16 bits) instead of zero-extending",
        "seed: silent (project: zero-extend); TA: merges (OP_LDB memcpy of one byte into the register)",
    )
    halt_stops: bool = switch(
        True, _CTRL,
        "halt ends the program; otherwise it does nothing and the program ends by running off its end",
        "seed: no halt in the slides (project: halt stops, the course assembler's enum has it); TA: "
        "OP_HALT is in the enum but ExecuteInstruction has no case for it (a no-op)",
    )
    # graphics
    rotate_unit: int = switch(
        1, _GFX,
        "degrees per unit of the rotate angle vr[0]",
        "seed: 1 (silent; project); TA: 2 (OP_ROTATE: Rotate(2*angle, ...), 'we cannot cover 360 degrees')",
    )
    rotate_ccw: bool = switch(
        True, _GFX,
        "the rotation matrix has -sin at [0][1] and +sin at [1][0] (counterclockwise in x-right, y-up "
        "coordinates); otherwise its transpose, the opposite turn",
        "seed: silent (project: [0][1] = -sin); TA: transpose (Rotate: mat[1][0] = -sin, mat[0][1] = sin)",
    )
    reverse_winding: bool = switch(
        False, _GFX,
        "the triangle drawn is v0, v2, v1 in the edge test; a triangle given in the other order covers "
        "nothing",
        "seed: silent (project: edges v0->v1, v1->v2, v2->v0); TA: reversed (Rasterization: edges "
        "v2->v1, v0->v2, v1->v0 with the same tie rule)",
    )
    bbox_inclusive: bool = switch(
        True, _GFX,
        "the bounding box scan includes its last row and column",
        "seed: silent (project: inclusive); TA: excluded (Rasterization: i < g_fragment_end_y, "
        "j < g_fragment_end_x)",
    )
    draw_clears: bool = switch(
        False, _GFX,
        "draw clears the frame buffer (to black) and the depth buffer (to 3.0) after the frame is shown",
        "seed: no (DRAW: 'draw the contents of the frame buffer'; only FLUSH empties it); TA: yes "
        "(Display clears g_frame_buffer after writing the bitmap)",
    )
    board_colour: str = switch(
        "high_nibble", _GFX,
        'how an 8-bit channel becomes the 4 bits of the board\'s frame-buffer word {R4, G4, B4}: '
        '"high_nibble" c >> 4, or "scaled" round(c * 15 / 255)',
        "seed and TA: silent (LG.md: the course never defines it; the TA writes 8-bit BMPs); project: "
        "high_nibble",
    )

    def __post_init__(self) -> None:
        self.check_choices({
            "arith": ("fixed", "float"),
            "float_imm": ("q8_7", "half", "q11_4"),
            "int_bits": (16, 32),
            "cc_order": ("n0z1p2", "n2z1p0"),
            "pc_unit": ("byte", "insn"),
            "rotate_unit": (1, 2),
            "board_colour": ("high_nibble", "scaled"),
        })  # fmt: skip
        if not 0 <= self.cc_reset <= 7:
            raise BadSetting(f"LG profile {self.name}: cc_reset = {self.cc_reset} is not a 3-bit value (give 0..7)")


SEED = LgProfile()
TA2013 = replace(
    SEED,
    name="ta2013",
    arith="float",
    int_bits=32,
    vcompmov_float_view=True,
    cc_order="n2z1p0",
    pc_unit="insn",
    loads_set_cc=False,
    ldb_merges=True,
    halt_stops=False,
    rotate_unit=2,
    rotate_ccw=False,
    reverse_winding=True,
    bbox_inclusive=False,
    draw_clears=True,
)
PROFILES: dict[str, LgProfile] = {p.name: p for p in (SEED, TA2013)}
