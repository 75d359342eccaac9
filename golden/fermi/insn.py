"""A decoded Fermi instruction: what the decoder and the assembler produce and the model executes.

The table (golden/fermi/table.py) says where each piece sits in the 64-bit word; this module says
what the pieces are, so that the ISA layer and the model meet here and nowhere else. Values are
as the operation sees them, not as the word stores them:

- a register operand is its number (63 is RZ, which reads 0 and drops writes); an operation on
  64-bit or 128-bit data uses the aligned pair or quad starting there;
- an immediate is the operand's full bit pattern (a float immediate of a 20-bit field is already
  shifted to the top of its 32- or 64-bit value, a signed integer immediate already sign-extended
  to the operand width);
- a branch target is an absolute byte address;
- modifiers are spelt as the CUDA 5 dialect of `cuobjdump -sass` prints them, without the dot and
  in printed order (``("U32", "HI")``); the model keys on these strings, the disassembler prints
  them, so a modifier has one spelling in the project.
"""

from __future__ import annotations

from dataclasses import dataclass

RZ = 63  # the zero register
PT = 7  # the true predicate


@dataclass(frozen=True, slots=True)
class Reg:
    """A general register. `neg` is the operand's negation as printed: `-R1` for arithmetic, `~R1`
    for a logic operation; `abs` is `|R1|`; `cc` marks a destination that also writes CC (`R0.CC`)."""

    n: int
    neg: bool = False
    abs: bool = False
    cc: bool = False


@dataclass(frozen=True, slots=True)
class Pred:
    """A predicate P0-P6 or PT (7), possibly negated (`!P0`)."""

    n: int
    neg: bool = False


@dataclass(frozen=True, slots=True)
class Imm:
    """An immediate operand: its full bit pattern (see the module docstring), and its negation where
    the form has a separate negate bit."""

    value: int
    neg: bool = False


@dataclass(frozen=True, slots=True)
class Const:
    """A constant-bank operand `c[bank][reg + offset]` (reg is RZ when there is none)."""

    bank: int
    offset: int
    reg: int = RZ
    neg: bool = False
    abs: bool = False


@dataclass(frozen=True, slots=True)
class Addr:
    """A memory address `[reg + offset]` (reg RZ when absent); under `.E` reg is a 64-bit pair."""

    reg: int
    offset: int


@dataclass(frozen=True, slots=True)
class SReg:
    """A special register by its number in the S2R encoding (SR_TID.X, SR_CLOCKLO, ...)."""

    n: int


@dataclass(frozen=True, slots=True)
class Target:
    """A branch or call target: an absolute byte address."""

    addr: int


@dataclass(frozen=True, slots=True)
class CC:
    """The condition-code register as an operand (`CC` in P2R/R2P, `CC.NE` style tests)."""

    test: str = ""


@dataclass(frozen=True, slots=True)
class PR:
    """The predicates P0-P6 as one register (P2R/R2P), bit n being Pn."""


Operand = Reg | Pred | Imm | Const | Addr | SReg | Target | CC | PR


@dataclass(frozen=True, slots=True)
class Insn:
    """One decoded instruction.

    `form` is the table row's unique name, `op` its mnemonic, `family` the semantic routine that
    executes it. `guard` is the `@P` guard (PT when absent). `dsts` and `srcs` are in printed order
    (ISETP.GT.AND P0, PT, R0, R1, PT has dsts (P0, PT), srcs (R0, R1, PT)). `addr` is the byte
    address and `word` the 64-bit instruction word.
    """

    form: str
    op: str
    family: str
    mods: tuple[str, ...]
    guard: Pred
    dsts: tuple[Operand, ...]
    srcs: tuple[Operand, ...]
    addr: int = 0
    word: int = 0
