"""Operands of the memory-access instructions, whose address has a field of its own.

R2G's shared destination and MVC's constant source have a 16-bit offset field at w0[24:9]
counted in units of the access size (ISA.md 7.2, ENV-DIS F*SHARED/F*CONST); local memory has
the same field counted in bytes; global memory is addressed by a register only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .operands import ConstOperand, GlobalOperand, LocalOperand, SharedOperand
from .syntax import (
    Fields,
    Operand,
    ParseContext,
    SyntaxProblem,
    parse_addr,
    parse_int,
    render_addr,
    render_reg,
)

# Access sizes of the 3-bit size field of GLD/GST/LLD/LST (ISA.md 7.2): suffix, bytes, signed.
MEM_SIZES = {
    0: (".U8", 1, False),
    1: (".S8", 1, True),
    2: (".U16", 2, False),
    3: (".S16", 2, True),
    4: (".S64", 8, False),
    5: (".S128", 16, False),
    6: (".U32", 4, False),
}

# R2G sizes (field stsize = w1[22] | w1[26] << 1): bytes per unit
STORE_UNITS = {0: 2, 1: 1, 2: 4}
# MVC sizes (field csize = w1[15:14]): bytes, suffix
CONST_SIZES = {0: (1, ".U8"), 1: (2, ".U16"), 2: (2, ".S16"), 3: (4, "")}

_OFFSET_BITS = 16  # the w0[24:9] field


def _unit_bits(unit: int) -> int:
    """How many low bits of the 16-bit field an offset in units of `unit` bytes may use."""
    return _OFFSET_BITS - (unit.bit_length() - 1)


def _check_field(f: Fields, name: str, unit: int) -> str | None:
    if f[name] >> _unit_bits(unit):
        return f"offset field {f[name]:#x} uses bits above the {_unit_bits(unit)} allowed for {unit}-byte units"
    return None


def _store_offset(offset: int, unit: int, col: int) -> int:
    bits = _unit_bits(unit)
    if not 0 <= offset < 1 << bits:
        raise SyntaxProblem(col, f"offset {offset:#x} out of range 0..{(1 << bits) - 1:#x} (units of {unit} bytes)")
    return offset


@dataclass
class SharedStore(Operand):
    """R2G destination: `g[A1+0xc]`, offset in units of the store size."""

    role: str = "dst"

    def render(self, f: Fields) -> str:
        return f"g[{render_addr(f['areg'], f['postinc'], f['soff'])}]"

    def check(self, f: Fields) -> str | None:
        unit = STORE_UNITS.get(f["stsize"])
        return None if unit is None else _check_field(f, "soff", unit)

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        m = re.fullmatch(r"\s*g\s*\[(.*)\]\s*", text, re.IGNORECASE)
        if not m:
            raise SyntaxProblem(col, f"expected a shared-memory destination g[..], got {text.strip()!r}")
        areg, postinc, offset = parse_addr(m.group(1), col, 7)
        if offset < 0:
            raise SyntaxProblem(col, "a shared store offset cannot be negative")
        f["areg"], f["postinc"] = areg, postinc
        f["_soff"] = offset  # range-checked once the size is known, in finish()

    def finish(self, f: Fields, col: int) -> None:
        f["soff"] = _store_offset(f.pop("_soff"), STORE_UNITS[f["stsize"]], col)

    def fields(self) -> set[str]:
        return {"soff", "areg", "postinc"}

    def describe(self, f: Fields) -> object:
        unit = STORE_UNITS[f["stsize"]]
        return SharedOperand(f["soff"] * unit, unit, False, f["areg"], bool(f["postinc"]))


@dataclass
class StoreSource(Operand):
    """R2G data register: full or half per w1[21]; for byte stores from a half register
    cuobjdump prints the raw half-register index as `Rk` (gpgpu-sim's cuobjdump_to_ptxplus notes
    this), so the text is kept that way."""

    role: str = "src"

    def _half(self, f: Fields) -> bool:
        return not f["stfull"] and f["stsize"] != 1

    def render(self, f: Fields) -> str:
        return render_reg(f["src3"], self._half(f))

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip()
        m = re.fullmatch(r"R(\d+)([LH]?)", t, re.IGNORECASE)
        if not m:
            raise SyntaxProblem(col, f"expected a register, got {t!r}")
        n, hl = int(m.group(1)), m.group(2).upper()
        if f["stsize"] == 1:  # byte store: full/half decided by the mnemonic types
            if hl:
                raise SyntaxProblem(col, "byte stores name the register as Rk (R2G.U16.U8: raw half index)")
            value = n
        else:
            f["stfull"] = 0 if hl else 1
            value = (n << 1 | (hl == "H")) if hl else n
        if value > 0x7F:
            raise SyntaxProblem(col, f"register {t} out of range")
        f["src3"] = value

    def fields(self) -> set[str]:
        return {"src3", "stfull"}

    def describe(self, f: Fields) -> object:
        from .operands import RegOperand

        half = not f["stfull"]
        return RegOperand(f["src3"], half)


@dataclass
class ConstLoad(Operand):
    """MVC source: `c[0x1] [A1+0x2].U16`, offset in units of the access size."""

    role: str = "src"

    def render(self, f: Fields) -> str:
        suffix = CONST_SIZES[f["csize"]][1]
        return f"c[0x{f['cbank']:x}] [{render_addr(f['areg'], f['postinc'], f['coff'])}]{suffix}"

    def check(self, f: Fields) -> str | None:
        return _check_field(f, "coff", CONST_SIZES[f["csize"]][0])

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        m = re.fullmatch(r"\s*c\s*\[(.*?)\]\s*\[(.*?)\]\s*(\.[A-Za-z0-9]+)?\s*", text, re.IGNORECASE)
        if not m:
            raise SyntaxProblem(col, f"expected a constant operand c[bank] [address], got {text.strip()!r}")
        bank = parse_int(m.group(1), col, "a constant bank")
        if bank > 15:
            raise SyntaxProblem(col, "constant bank must be 0x0..0xf")
        suffix = (m.group(3) or "").upper()
        sizes = {s: k for k, (_, s) in CONST_SIZES.items()}
        if suffix not in sizes:
            raise SyntaxProblem(col, f"constant access size must be .U8, .U16, .S16 or none, got {suffix}")
        areg, postinc, offset = parse_addr(m.group(2), col, 7)
        if offset < 0:
            raise SyntaxProblem(col, "a constant offset cannot be negative")
        f["cbank"], f["csize"], f["areg"], f["postinc"] = bank, sizes[suffix], areg, postinc
        f["coff"] = _store_offset(offset, CONST_SIZES[sizes[suffix]][0], col)

    def fields(self) -> set[str]:
        return {"coff", "cbank", "csize", "areg", "postinc"}

    def describe(self, f: Fields) -> object:
        unit, suffix = CONST_SIZES[f["csize"]]
        return ConstOperand(f["cbank"], f["coff"] * unit, unit, suffix == ".S16", f["areg"], bool(f["postinc"]))


@dataclass
class GlobalMem(Operand):
    """`global14[R5]`: the space number and the register holding the byte address."""

    role: str = "mem"

    def render(self, f: Fields) -> str:
        return f"global{f['gspace']}[R{f['src1']}]"

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        m = re.fullmatch(r"\s*global(\d+)\s*\[\s*R(\d+)\s*\]\s*", text, re.IGNORECASE)
        if not m:
            raise SyntaxProblem(col, f"expected a global address globalN[Rn], got {text.strip()!r}")
        space, reg = int(m.group(1)), int(m.group(2))
        if space > 15 or reg > 127:
            raise SyntaxProblem(col, "global space must be 0..15 and the register R0..R127")
        f["gspace"], f["src1"] = space, reg

    def fields(self) -> set[str]:
        return {"gspace", "src1"}

    def describe(self, f: Fields) -> object:
        return GlobalOperand(f["gspace"], f["src1"])


@dataclass
class LocalMem(Operand):
    """`local[A1+0x10]`: per-thread local memory, offset in bytes."""

    role: str = "mem"

    def render(self, f: Fields) -> str:
        return f"local[{render_addr(f['areg'], f['postinc'], f['loff'])}]"

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        m = re.fullmatch(r"\s*local\s*\[(.*)\]\s*", text, re.IGNORECASE)
        if not m:
            raise SyntaxProblem(col, f"expected a local address local[..], got {text.strip()!r}")
        areg, postinc, offset = parse_addr(m.group(1), col, 7)
        if not 0 <= offset <= 0xFFFF:
            raise SyntaxProblem(col, f"local offset {offset:#x} out of range 0..0xffff")
        f["areg"], f["postinc"], f["loff"] = areg, postinc, offset

    def fields(self) -> set[str]:
        return {"loff", "areg", "postinc"}

    def describe(self, f: Fields) -> object:
        return LocalOperand(f["loff"], f["areg"], bool(f["postinc"]))


@dataclass
class DataReg(Operand):
    """The data register of GLD/GST/LLD/LST: a vector base register for 64/128-bit accesses."""

    role: str = "data"

    def render(self, f: Fields) -> str:
        return f"R{f['dst']}"

    def check(self, f: Fields) -> str | None:
        size = MEM_SIZES.get(f["msize"])
        if size and size[1] > 4 and f["dst"] % (size[1] // 4):
            return f"{size[1] * 8}-bit access needs a register multiple of {size[1] // 4}, got R{f['dst']}"
        return None

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        m = re.fullmatch(r"\s*R(\d+)\s*", text, re.IGNORECASE)
        if not m or int(m.group(1)) > 127:
            raise SyntaxProblem(col, f"expected a register R0..R127, got {text.strip()!r}")
        f["dst"] = int(m.group(1))
        problem = self.check(f)
        if problem:
            raise SyntaxProblem(col, problem)

    def fields(self) -> set[str]:
        return {"dst"}

    def describe(self, f: Fields) -> object:
        from .operands import RegOperand

        return RegOperand(f["dst"])
