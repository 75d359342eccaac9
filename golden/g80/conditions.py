"""Condition codes: the 5-bit predicate field, and the 3/4-bit compare codes of ISET/FSET.

Flags of a `$c` register: bit0 Z, bit1 S, bit2 C, bit3 O (ISA.md 2.1). Codes 0x00-0x0f are the
compare conditions (bit0 l, bit1 e, bit2 g, bit3 u); ISET uses codes 0-7, FSET 0-15.
Spellings: NVIDIA cuobjdump where known (ISA.md 2.2, the manual, gpgpu-sim's sm_1x lexer);
codes 0x14-0x1b have no name anywhere and are always false on silicon.
"""

from __future__ import annotations

from collections.abc import Callable

FLAG_Z, FLAG_S, FLAG_C, FLAG_O = 1, 2, 4, 8

# code -> (NVIDIA spelling, envytools spelling, predicate over the flags nibble)
_TABLE: dict[int, tuple[str, str, Callable[[bool, bool, bool, bool], bool]]] = {
    0x00: ("FALSE", "never", lambda z, s, c, o: False),
    0x01: ("LT", "l", lambda z, s, c, o: (s and not z) != o),
    0x02: ("EQ", "e", lambda z, s, c, o: z and not s),
    0x03: ("LE", "le", lambda z, s, c, o: s != (z or o)),
    0x04: ("GT", "g", lambda z, s, c, o: not z and s == o),
    0x05: ("NE", "lg", lambda z, s, c, o: not z),
    0x06: ("GE", "ge", lambda z, s, c, o: s == o),
    0x07: ("NUM", "lge", lambda z, s, c, o: not z or not s),
    0x08: ("NAN", "u", lambda z, s, c, o: z and s),
    0x09: ("LTU", "lu", lambda z, s, c, o: s != o),
    0x0A: ("EQU", "eu", lambda z, s, c, o: z),
    0x0B: ("LEU", "leu", lambda z, s, c, o: z or (s != o)),
    0x0C: ("GTU", "gu", lambda z, s, c, o: (not s) != (z or o)),
    0x0D: ("NEU", "lgu", lambda z, s, c, o: not z or s),
    0x0E: ("GEU", "geu", lambda z, s, c, o: ((not s) or z) != o),
    0x0F: ("TRUE", "always", lambda z, s, c, o: True),
    0x10: ("OFL", "o", lambda z, s, c, o: o),
    0x11: ("CARRY", "c", lambda z, s, c, o: c),
    0x12: ("ABOVE", "a", lambda z, s, c, o: not z and c),
    0x13: ("SIGN", "s", lambda z, s, c, o: s),
    0x1C: ("NOT_SIGN", "ns", lambda z, s, c, o: not s),
    0x1D: ("NOT_ABOVE", "na", lambda z, s, c, o: z or not c),
    0x1E: ("NOT_CARRY", "nc", lambda z, s, c, o: not c),
    0x1F: ("NOT_OFL", "no", lambda z, s, c, o: not o),
}
for _code in range(0x14, 0x1C):
    _TABLE[_code] = (f"COND{_code:02X}", f"cond{_code:02x}", lambda z, s, c, o: False)

NAMES: dict[int, str] = {code: spec[0] for code, spec in _TABLE.items()}
CODES: dict[str, int] = {name: code for code, name in NAMES.items()}
# Spellings accepted on input besides the canonical ones.
CODES.update({"F": 0x00, "T": 0x0F, "NEVER": 0x00, "ALWAYS": 0x0F, "OF": 0x10, "CF": 0x11, "SF": 0x13})

ALWAYS = 0x0F
NEVER = 0x00


def holds(code: int, flags: int) -> bool:
    """Whether condition `code` is true for the 4-bit flags value `flags`."""
    return _TABLE[code][2](bool(flags & FLAG_Z), bool(flags & FLAG_S), bool(flags & FLAG_C), bool(flags & FLAG_O))


def truth_table(code: int) -> int:
    """16-bit mask: bit f set when the condition holds for flags value f (RTL lookup table)."""
    return sum(1 << f for f in range(16) if holds(code, f))


def envytools_name(code: int) -> str:
    return _TABLE[code][1]
