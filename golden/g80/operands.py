"""Structured operands: what an instruction reads and writes, for the models and coverage.

The encoding table decodes fields; these classes say what the fields mean as operands
(byte addresses, sizes, modifiers), so the golden model and the coverage model need not
re-interpret bits.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RegOperand:
    index: int  # register number, or half-register number (2n + high) when half
    half: bool = False
    neg: bool = False
    abs: bool = False
    inv: bool = False
    kind: str = "reg"

    @property
    def reg(self) -> int:
        return self.index >> 1 if self.half else self.index

    @property
    def high(self) -> bool:
        return self.half and bool(self.index & 1)


@dataclass(frozen=True)
class DiscardOperand:
    kind: str = "discard"


# Memory operands with an address register: the byte address is $a + offset; with postinc the
# address is $a and then $a += offset (ISA.md 7.2), offset then being signed.


@dataclass(frozen=True)
class SharedOperand:
    offset: int  # bytes (the text's offset times the access size)
    size: int  # bytes: 1, 2, 4
    signed: bool = False
    areg: int = 0
    postinc: bool = False
    neg: bool = False
    abs: bool = False
    inv: bool = False
    kind: str = "shared"


@dataclass(frozen=True)
class ConstOperand:
    bank: int
    offset: int  # bytes
    size: int
    signed: bool = False
    areg: int = 0
    postinc: bool = False
    neg: bool = False
    abs: bool = False
    inv: bool = False
    kind: str = "const"


@dataclass(frozen=True)
class GlobalOperand:
    space: int
    reg: int  # register holding the byte address
    kind: str = "global"


@dataclass(frozen=True)
class LocalOperand:
    offset: int  # bytes
    areg: int = 0
    postinc: bool = False
    kind: str = "local"


@dataclass(frozen=True)
class ImmOperand:
    value: int
    neg: bool = False
    kind: str = "imm"


@dataclass(frozen=True)
class NamedOperand:
    prefix: str  # "A" address register, "C" flag register, "SR" special register
    index: int
    kind: str = "named"
