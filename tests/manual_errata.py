"""Manual examples judged wrong, with the reason and what the printed words really encode.

Each entry is keyed by the example's text and hex exactly as the manual prints them. The tests
check that the words decode to `actual` (so the judgement is itself tested) and that nothing
else in the manual needs an entry.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Erratum:
    reason: str
    actual: str  # what the words encode, in NVIDIA syntax


_HALF = (
    "the text names high halves (RnH) but the source fields hold even numbers, i.e. low halves: "
    "half-register fields are 2n+h everywhere else (the manual's own IMUL32 example R6H=13, the nvcc "
    "listings, envytools); only the manual's IMAD32/IMAD32I examples disagree, all in the same way"
)

ERRATA: dict[tuple[str, str], Erratum] = {
    ("IMAD.U16 R4 (C3.TRUE), -R0H, R1H, R4", "0C012780 60030211"): Erratum(
        "w1[13:12]=2 selects C2, not C3; and w1[27:26]=3 is the add-with-carry operation (ISA.md 3.3), "
        "which has no negated operand",
        "IMAD.U16.CARRY2 R4, R0H, R1H, R4",
    ),
    ("IMAD32.U16 R1, R3H, R5H, R1", "600A0C04"): Erratum(_HALF, "IMAD32.U16 R1, R3L, R5L, R1"),
    ("IMAD32.U16 R11, R9H, R30H, R11", "603C242C"): Erratum(_HALF, "IMAD32.U16 R11, R9L, R30L, R11"),
    ("IMAD32I.S16 R2, R4H, 0x25634, R2", "00002563 60341109"): Erratum(_HALF, "IMAD32I.S16 R2, R4L, 0x25634, R2"),
    ("IMAD32I.S16 R4, R12H, 0x3fffff, R4", "0003FFFF 603F3111"): Erratum(_HALF, "IMAD32I.S16 R4, R12L, 0x3fffff, R4"),
    ("IMAD32I.U16 R2, R4H, 0x25634, R2", "00002563 60341009"): Erratum(_HALF, "IMAD32I.U16 R2, R4L, 0x25634, R2"),
    ("RSQ R0, R0", "40000780 90000009"): Erratum(
        "the destination field w0[8:2] is 2 (R2); the next example, RSQ R3, R0 = 9000000d, uses the same "
        "layout correctly",
        "RSQ R2, R0",
    ),
}
