"""The CC tests of Fermi (`CC.NE` operands of BRA, CSETP, NOP): names as seed 001 lists them.

Seed 003: the Fermi CC "works like one of the Tesla $c0-$c3 registers", so codes 0-15 (F .. T) are
G80's compare conditions, taken from golden/g80/conditions.py rather than restated. Codes 16-23
name one flag each, in pairs (seed 001's order OFF LO SFF LS HI SFT HS OFT): the project reads
them as O clear, C clear (unsigned lower), S clear, C clear or Z (lower or same), C set and Z clear
(higher), S set, C set (higher or same), O set. Codes 24-31 (CSM_*, FCSM_*, RLE, RGT) concern
graphics and are not modelled.
"""

from __future__ import annotations

import numpy as np

from golden.fermi.state import CC_C, CC_O, CC_S, CC_Z
from golden.fermi.table import COND
from golden.g80 import conditions as tesla

# the spellings are the table's (one list for the decoder, the disassembler and the model)
NAMES = tuple(COND[code] for code in range(24))

_FLAG_TESTS = {
    "OFF": lambda f: not f & CC_O,
    "LO": lambda f: not f & CC_C,
    "SFF": lambda f: not f & CC_S,
    "LS": lambda f: not f & CC_C or bool(f & CC_Z),
    "HI": lambda f: bool(f & CC_C) and not f & CC_Z,
    "SFT": lambda f: bool(f & CC_S),
    "HS": lambda f: bool(f & CC_C),
    "OFT": lambda f: bool(f & CC_O),
}

# name -> 16-entry truth table over the flag nibble
TABLES: dict[str, np.ndarray] = {}
for _code, _name in enumerate(NAMES):
    if _code < 16:
        TABLES[_name] = np.array([tesla.holds(_code, f) for f in range(16)], dtype=bool)
    else:
        TABLES[_name] = np.array([bool(_FLAG_TESTS[_name](f)) for f in range(16)], dtype=bool)


def test(name: str, cc: np.ndarray) -> np.ndarray:
    """Per lane, whether CC test `name` holds for the flags `cc` (uint8 lanes)."""
    return TABLES[name][cc & 0xF]
