"""G80's operand kinds: registers and their halves, memory operands, immediates, condition names,
branch targets, in NVIDIA cuobjdump spelling.

They follow the operand protocol of golden.isa.syntax (render, parse, check, fields, describe);
the protocol's pieces (Fields, Mods, ParseContext, SyntaxProblem, ...) are re-exported here so
that the table names all its spelling pieces from one module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..isa.syntax import (  # noqa: F401 (re-exported: the table takes every spelling piece from here)
    NUMBER,
    NUMBER_RE,
    Cond,
    Fields,
    Mods,
    Operand,
    ParseContext,
    SyntaxProblem,
    choice,
    clear,
    flag,
    float_bits,
    force,
    hexs,
    holds,
    parse_int,
)
from . import conditions

_REG_RE = re.compile(r"R(\d+)([LH]?)$", re.IGNORECASE)


def render_reg(value: int, half: bool) -> str:
    return f"R{value >> 1}{'LH'[value & 1]}" if half else f"R{value}"


def parse_reg(text: str, col: int, half: bool, limit: int) -> int:
    m = _REG_RE.match(text.strip())
    if not m:
        want = "a half register RnL/RnH" if half else "a register Rn"
        raise SyntaxProblem(col, f"expected {want}, got {text.strip()!r}")
    n = int(m.group(1))
    suffix = m.group(2).upper()
    if half and not suffix:
        raise SyntaxProblem(col, f"expected a half register (R{n}L or R{n}H) for a 16-bit operand")
    if not half and suffix:
        raise SyntaxProblem(col, f"expected a full register, got the half register {text.strip()}")
    value = (n << 1 | (suffix == "H")) if half else n
    if value > limit:
        span = f"R0L..R{limit >> 1}H" if half else f"R0..R{limit}"
        why = ": 32-bit forms have 6-bit register fields, an encoding limit (ISA.md 1.3); the 64-bit form takes more" if limit == 63 else ""
        raise SyntaxProblem(col, f"register {text.strip()} out of range for this field ({span}{why})")
    return value


HalfWhen = Cond | bool  # True: always half; False: always full; (field, value): half when it holds


def is_half(f: Fields, half: HalfWhen) -> bool:
    if isinstance(half, bool):
        return half
    return holds(f, half)


def _decide_half(f: Fields, half: HalfWhen, text: str, col: int) -> bool:
    """When parsing, the register spelling (RnL/RnH or Rn) can decide an undecided width field."""
    if isinstance(half, bool):
        return half
    name, _ = half
    if name in f:
        return holds(f, half)
    m = _REG_RE.match(text.strip())
    want_half = bool(m and m.group(2))
    if want_half:
        force(f, half, col, "a half register")
    else:
        clear(f, half)
        if holds(f, half):
            raise SyntaxProblem(col, "this operand must be a half register here")
    return want_half


@dataclass
class Reg(Operand):
    """A register operand held in one field (destination or source)."""

    name: str
    half: HalfWhen = False
    bits: int = 7
    role: str = ""

    def render(self, f: Fields) -> str:
        return render_reg(f[self.name], is_half(f, self.half))

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        half = _decide_half(f, self.half, text, col)
        f[self.name] = parse_reg(text, col, half, (1 << self.bits) - 1)

    def fields(self) -> set[str]:
        return {self.name}

    def describe(self, f: Fields) -> object:
        from .operands import RegOperand

        return RegOperand(f[self.name], is_half(f, self.half))


@dataclass
class Dst(Operand):
    """Destination register of a long instruction, or `o[0x7f]` (discard) when `dst_o` is set."""

    half: HalfWhen = False
    allow_o: bool = True
    name: str = "dst"
    bits: int = 7
    role: str = "dst"

    def render(self, f: Fields) -> str:
        if self.allow_o and f.get("dst_o"):
            return f"o[0x{f[self.name]:x}]"
        return render_reg(f[self.name], is_half(f, self.half))

    def check(self, f: Fields) -> str | None:
        if f.get("dst_o") and f[self.name] != 0x7F:
            return (
                f"output register o[0x{f[self.name]:x}] exists only in vertex/geometry programs; "
                "compute programs write o[0x7f] (discard)"
            )
        return None

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip()
        m = re.fullmatch(r"o\s*\[\s*(\S+)\s*\]", t, re.IGNORECASE)
        if m:
            if not self.allow_o:
                raise SyntaxProblem(col, "this instruction cannot discard its result to o[0x7f]")
            value = parse_int(m.group(1), col)
            if value != 0x7F:
                raise SyntaxProblem(col, "compute programs can only write o[0x7f] (discard)")
            f["dst_o"] = 1
            f[self.name] = 0x7F
            if not isinstance(self.half, bool) and self.half[0] not in f:
                clear(f, self.half)
            return
        if self.allow_o:
            f["dst_o"] = 0
        half = _decide_half(f, self.half, t, col)
        f[self.name] = parse_reg(t, col, half, (1 << self.bits) - 1)

    def fields(self) -> set[str]:
        return {self.name} | ({"dst_o"} if self.allow_o else set())

    def describe(self, f: Fields) -> object:
        from .operands import DiscardOperand, RegOperand

        if self.allow_o and f.get("dst_o"):
            return DiscardOperand()
        return RegOperand(f[self.name], is_half(f, self.half))


# Shared-memory access modes of a source operand (ISA.md 7.2): size in bytes and suffix.
SHARED_MODES = {0: (1, ".U8"), 1: (2, ".U16"), 2: (2, ".S16"), 3: (4, "")}
SHARED_SUFFIX = {".U8": 0, ".U16": 1, ".S16": 2, "": 3}

_ADDR_RE = re.compile(
    r"^\s*(?:A(?P<a>\d)\s*(?P<pi>\+\+)?\s*(?P<sign>[+-])\s*)?(?P<off>" + NUMBER + r")\s*$",
    re.IGNORECASE,
)
_AREG_ONLY_RE = re.compile(r"^\s*A(?P<a>\d)\s*(?P<pi>\+\+)?\s*$", re.IGNORECASE)


def render_addr(areg: int, postinc: int, offset: int) -> str:
    """`0x4`, `A1+0x4`, `A1+++0x4` (post-increment), `A1++-0x4`."""
    if not areg and not postinc:
        return hexs(offset)
    inc = "++" if postinc else ""
    sign = "-" if offset < 0 else "+"
    return f"A{areg}{inc}{sign}0x{abs(offset):x}"


def parse_addr(text: str, col: int, max_areg: int) -> tuple[int, int, int]:
    m = _ADDR_RE.match(text)
    if not m:
        m2 = _AREG_ONLY_RE.match(text)
        if not m2:
            raise SyntaxProblem(col, f"expected an address (0x.., An+0x.. or An+++0x..), got {text.strip()!r}")
        areg, postinc, offset = int(m2.group("a")), int(bool(m2.group("pi"))), 0
    else:
        areg = int(m.group("a") or 0)
        postinc = int(bool(m.group("pi")))
        offset = parse_int(m.group("off"), col, "an offset")
        if m.group("sign") == "-":
            offset = -offset
        elif m.group("a") is None and offset < 0:
            raise SyntaxProblem(col, "an offset without an address register cannot be negative")
    if areg > max_areg:
        raise SyntaxProblem(col, f"address register A{areg} does not exist here (A0..A{max_areg})")
    return areg, postinc, offset


def check_offset(offset: int, bits: int, signed: bool, col: int, unit: int, what: str, field: str = "") -> int:
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= offset <= hi:
        why = f"; the offset field {field} has {bits} bits (ISA.md 7.2): an encoding limit, an address register reaches further" if field else ""
        raise SyntaxProblem(
            col, f"{what} offset {hexs(offset)} out of range {hexs(lo)}..{hexs(hi)} (units of {unit} bytes{why})"
        )
    return offset & ((1 << bits) - 1)


def signed_value(raw: int, bits: int) -> int:
    return raw - (1 << bits) if raw >> (bits - 1) else raw


# ENV-DIS decodes c[] in both slot 2 and slot 3 only for geometry programs.
TWO_CONSTS = "an instruction reads at most one constant-memory operand (two are for geometry programs)"


@dataclass
class SlotFormat:
    """Where the pieces of a source slot live, per instruction format."""

    reg_bits: int  # width of the register field
    shared_mode_shift: int  # shared: mode = field >> shift, offset = field & ((1 << shift) - 1)
    const_split: bool  # short c[]: bank is the top bit of the field, offset the low 5 bits
    max_areg: int  # A0..A3 (short) or A0..A7 (long; A5..A7 are not on G80 but encodable)


LONG_SLOT = SlotFormat(reg_bits=7, shared_mode_shift=5, const_split=False, max_areg=7)
SHORT_SLOT = SlotFormat(reg_bits=6, shared_mode_shift=4, const_split=True, max_areg=3)


def first_memory_slot(f: Fields) -> int:
    """The source slot that owns $a and post-increment: the first memory operand (ENV-DIS)."""
    if f.get("src1_s"):
        return 1
    if f.get("src2_c"):
        return 2
    if f.get("src3_c"):
        return 3
    return 0


@dataclass
class Src(Operand):
    """A source slot: register, or shared memory (slot 1), or constant memory (slots 2, 3).

    `neg`, `abs_`, `not_`: conditions under which the operand is printed with -, |..| or ~.
    """

    slot: int
    fmt: SlotFormat = field(default_factory=lambda: LONG_SLOT)
    half: HalfWhen = False
    shared: bool = False
    const: bool = False
    neg: Cond | None = None
    abs_: Cond | None = None
    not_: Cond | None = None
    role: str = ""

    @property
    def reg_field(self) -> str:
        return f"src{self.slot}"

    @property
    def mem_flag(self) -> str | None:
        if self.shared:
            return "src1_s"
        if self.const:
            return f"src{self.slot}_c"
        return None

    def _is_mem(self, f: Fields) -> bool:
        return self.mem_flag is not None and bool(f.get(self.mem_flag))

    def _mem_parts(self, f: Fields) -> tuple[str, int, int, int, str]:
        """(space, areg, postinc, offset in units, suffix) of a memory source."""
        raw = f[self.reg_field]
        owner = first_memory_slot(f) == self.slot
        areg = f.get("areg", 0) if owner else 0
        postinc = f.get("postinc", 0) if owner else 0
        if self.shared:
            shift = self.fmt.shared_mode_shift
            mode, offset = raw >> shift, raw & ((1 << shift) - 1)
            if postinc:
                offset = signed_value(offset, shift)
            return "g", areg, postinc, offset, SHARED_MODES[mode][1]
        if self.fmt.const_split:
            offset = raw & 0x1F
            if postinc:
                offset = signed_value(offset, 5)
            return f"c{raw >> 5}", areg, postinc, offset, ""
        offset = signed_value(raw, self.fmt.reg_bits) if postinc else raw
        return f"c{f.get('cbank', 0)}", areg, postinc, offset, ""

    def render(self, f: Fields) -> str:
        if self._is_mem(f):
            space, areg, postinc, offset, suffix = self._mem_parts(f)
            addr = render_addr(areg, postinc, offset)
            body = f"g [{addr}]{suffix}" if space == "g" else f"c[0x{int(space[1:]):x}][{addr}]"
        else:
            body = render_reg(f[self.reg_field], is_half(f, self.half))
        if holds(f, self.abs_):
            body = f"|{body}|"
        if holds(f, self.not_):
            body = f"~{body}"
        if holds(f, self.neg):
            body = f"-{body}"
        return body

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip()
        lead = len(text) - len(text.lstrip())
        col += lead
        for prefix, cond in (("-", self.neg), ("~", self.not_)):
            if t.startswith(prefix):
                if cond is None:
                    raise SyntaxProblem(col, f"this operand cannot be written with {prefix}")
                force(f, cond, col, prefix)
                t = t[1:].lstrip()
                col += 1
            else:
                clear(f, cond)
        if t.startswith("|"):
            if self.abs_ is None:
                raise SyntaxProblem(col, "this operand cannot take an absolute value |..|")
            if not t.endswith("|"):
                raise SyntaxProblem(col, "missing closing | of an absolute value")
            force(f, self.abs_, col, "|..|")
            t = t[1:-1].strip()
            col += 1
        else:
            clear(f, self.abs_)
        m = re.fullmatch(r"(g|c)\s*\[(.*?)\]\s*(?:\[(.*)\])?\s*(\.[A-Za-z0-9]+)?", t, re.IGNORECASE)
        if m:
            self._parse_mem(m, col, f)
            return
        if self.mem_flag:
            f[self.mem_flag] = 0
        half = _decide_half(f, self.half, t, col)
        f[self.reg_field] = parse_reg(t, col, half, (1 << self.fmt.reg_bits) - 1)

    def _parse_mem(self, m: re.Match[str], col: int, f: Fields) -> None:
        space = m.group(1).lower()
        suffix = (m.group(4) or "").upper()
        if space == "g":
            if not self.shared:
                raise SyntaxProblem(col, "shared memory g[..] is not allowed in this operand position")
            if m.group(3) is not None:
                raise SyntaxProblem(col, "shared memory takes one [address]")
            if suffix not in SHARED_SUFFIX:
                raise SyntaxProblem(col, f"shared access size must be .U8, .U16, .S16 or none (32-bit), got {suffix}")
            mode = SHARED_SUFFIX[suffix]
            areg, postinc, offset = parse_addr(m.group(2), col, self.fmt.max_areg)
            shift = self.fmt.shared_mode_shift
            unit = SHARED_MODES[mode][0]
            raw = check_offset(offset, shift, bool(postinc), col, unit, "shared", f"w0[{8 + shift}:9]")
            f["src1_s"] = 1
            f[self.reg_field] = mode << shift | raw
        else:
            if not self.const:
                raise SyntaxProblem(col, "constant memory c[..][..] is not allowed in this operand position")
            if m.group(3) is None:
                raise SyntaxProblem(col, "constant memory is written c[bank][address]")
            if suffix:
                raise SyntaxProblem(col, f"a constant operand takes no size suffix here, got {suffix}")
            bank = parse_int(m.group(2), col, "a constant bank")
            areg, postinc, offset = parse_addr(m.group(3), col, self.fmt.max_areg)
            if self.slot == 3 and f.get("src2_c"):
                raise SyntaxProblem(col, TWO_CONSTS)
            f[f"src{self.slot}_c"] = 1
            if self.fmt.const_split:
                if bank > 1:
                    raise SyntaxProblem(col, "32-bit instructions can only read constant banks c[0x0] and c[0x1]")
                raw = check_offset(offset, 5, bool(postinc), col, 4, "constant")
                f[self.reg_field] = bank << 5 | raw
            else:
                if bank > 15:
                    raise SyntaxProblem(col, "constant bank must be 0x0..0xf")
                raw = check_offset(offset, self.fmt.reg_bits, bool(postinc), col, 4, "constant")
                if "cbank" in f and f["cbank"] != bank:
                    raise SyntaxProblem(col, "all constant operands of one instruction share one bank")
                f["cbank"] = bank
                f[self.reg_field] = raw
        self._claim_areg(f, areg, postinc, col)

    def _claim_areg(self, f: Fields, areg: int, postinc: int, col: int) -> None:
        if first_memory_slot(f) != self.slot:
            if areg or postinc:
                raise SyntaxProblem(
                    col, "only the first memory operand of an instruction can use an address register (an instruction has one $a "
                         "field, w0[27:26] with w1[2] in 64-bit forms: an encoding limit, ISA.md 1.3)"
                )
            return
        for name, value in (("areg", areg), ("postinc", postinc)):
            if f.get(name, value) != value:
                raise SyntaxProblem(col, "address register conflicts with another operand")
            f[name] = value

    def check(self, f: Fields) -> str | None:
        if self.slot == 3 and f.get("src3_c") and f.get("src2_c"):
            return TWO_CONSTS
        return None

    def fields(self) -> set[str]:
        out = {self.reg_field}
        for cond in (self.neg, self.abs_, self.not_):
            if cond is not None:
                out.add(cond[0])
        if self.mem_flag:
            out |= {self.mem_flag, "areg", "postinc"}
        if self.const and not self.fmt.const_split:
            out.add("cbank")
        return out

    def describe(self, f: Fields) -> object:
        from .operands import ConstOperand, RegOperand, SharedOperand

        mods = dict(neg=holds(f, self.neg), abs=holds(f, self.abs_), inv=holds(f, self.not_))
        if self._is_mem(f):
            space, areg, postinc, offset, suffix = self._mem_parts(f)
            if space == "g":
                mode = SHARED_SUFFIX[suffix]
                size = SHARED_MODES[mode][0]
                return SharedOperand(offset * size, size, mode == 2, areg, bool(postinc), **mods)
            return ConstOperand(int(space[1:]), offset * 4, 4, False, areg, bool(postinc), **mods)
        return RegOperand(f[self.reg_field], is_half(f, self.half), **mods)


@dataclass
class Imm(Operand):
    """An immediate. kind: 'u' (unsigned hex), 'f32' (float bit pattern, printed as signed hex
    the way cuobjdump does; float literals accepted), 'count' (shift count)."""

    name: str = "imm"
    kind: str = "u"
    bits: int = 32
    neg: Cond | None = None
    role: str = "imm"

    def render(self, f: Fields) -> str:
        value = f[self.name]
        if self.kind == "f32":
            text = hexs(signed_value(value, 32))
            return f"-({text})" if holds(f, self.neg) else text
        text = f"0x{value:x}"
        return f"-{text}" if holds(f, self.neg) else text

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip()
        if self.kind == "f32":
            m = re.fullmatch(r"-\s*\((.*)\)", t)
            if m:
                if self.neg is None:
                    raise SyntaxProblem(col, "this immediate cannot be negated")
                force(f, self.neg, col, "-(..)")
                t = m.group(1).strip()
            else:
                clear(f, self.neg)
            f[self.name] = self._float_or_bits(t, col)
            return
        if self.neg is not None:
            if t.startswith("-"):
                force(f, self.neg, col, "-")
                t = t[1:].strip()
            else:
                clear(f, self.neg)
        value = parse_int(t, col, "an immediate")
        if value < 0:
            if value < -(1 << (self.bits - 1)):
                raise SyntaxProblem(col, f"immediate {t} does not fit in {self.bits} bits")
            value &= (1 << self.bits) - 1
        if value >> self.bits:
            raise SyntaxProblem(col, f"immediate {t} does not fit in {self.bits} bits")
        f[self.name] = value

    @staticmethod
    def _float_or_bits(t: str, col: int) -> int:
        if re.fullmatch(r"[+-]?0[xX][0-9a-fA-F]+", t):
            value = int(t, 16)
            if not -(1 << 31) <= value < (1 << 32):
                raise SyntaxProblem(col, f"float bit pattern {t} does not fit in 32 bits")
            return value & 0xFFFFFFFF
        if not NUMBER_RE.match(t):
            raise SyntaxProblem(col, f"expected a float (1.5, -2e3) or a bit pattern (0x3fc00000), got {t!r}")
        try:
            return float_bits(float(t))
        except OverflowError:
            raise SyntaxProblem(col, f"float {t} is out of single-precision range") from None

    def fields(self) -> set[str]:
        return {self.name} | ({self.neg[0]} if self.neg else set())

    def describe(self, f: Fields) -> object:
        from .operands import ImmOperand

        return ImmOperand(f[self.name], neg=holds(f, self.neg))


@dataclass
class OptImm(Imm):
    """An immediate left out of the text when it is zero (R2A's shift)."""

    optional: bool = True

    def render(self, f: Fields) -> str:
        return "" if f[self.name] == 0 else super().render(f)

    def default(self, f: Fields) -> None:
        f[self.name] = 0


@dataclass
class CondOperand(Operand):
    """The compare condition of ISET/FSET, a bare name as the last operand."""

    name: str = "setcond"
    bits: int = 3
    role: str = "cond"

    def render(self, f: Fields) -> str:
        return conditions.NAMES[f[self.name]]

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip().upper()
        code = conditions.CODES.get(t)
        if code is None or code >> self.bits:
            valid = " ".join(conditions.NAMES[c] for c in range(1 << self.bits))
            raise SyntaxProblem(col, f"expected a comparison ({valid}), got {text.strip()!r}")
        f[self.name] = code

    def fields(self) -> set[str]:
        return {self.name}


@dataclass
class Keyword(Operand):
    """A bare word chosen by a field: RRO's SIN/EX2."""

    name: str
    words: dict[int, str]
    role: str = "op"

    def render(self, f: Fields) -> str:
        return self.words[f[self.name]]

    def check(self, f: Fields) -> str | None:
        return None if f[self.name] in self.words else f"{self.name}={f[self.name]} has no spelling"

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip().upper()
        for value, word in self.words.items():
            if word == t:
                f[self.name] = value
                return
        raise SyntaxProblem(col, f"expected one of {', '.join(self.words.values())}, got {text.strip()!r}")

    def fields(self) -> set[str]:
        return {self.name}


@dataclass
class Named(Operand):
    """A register of another file named by a letter: An, Cn, SRn."""

    name: str
    prefix: str
    limit: int
    role: str = ""

    def render(self, f: Fields) -> str:
        return f"{self.prefix}{f[self.name]}"

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        m = re.fullmatch(re.escape(self.prefix) + r"(\d+)", text.strip(), re.IGNORECASE)
        if not m or int(m.group(1)) > self.limit:
            raise SyntaxProblem(col, f"expected {self.prefix}0..{self.prefix}{self.limit}, got {text.strip()!r}")
        value = int(m.group(1))
        if self.name in f and f[self.name] != value:
            if self.name == "preg":  # C2R's source: the guard's $c field
                raise SyntaxProblem(col, f"{self.prefix}{value} must be the guard's register C{f[self.name]}: this instruction reads the "
                                         "guard's flag register (one field, w1[13:12], names both; an encoding limit, ISA.md 1.3 and 2.2)")
            raise SyntaxProblem(col, f"{self.prefix}{value} conflicts with another operand sharing its bits")
        f[self.name] = value

    def fields(self) -> set[str]:
        return {self.name}

    def describe(self, f: Fields) -> object:
        from .operands import NamedOperand

        return NamedOperand(self.prefix, f[self.name])


@dataclass
class Target(Operand):
    """A code address (byte address, printed in hex) or a label."""

    name: str = "target"
    role: str = "target"

    def render(self, f: Fields) -> str:
        return f"0x{f[self.name] << 2:x}"

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        t = text.strip()
        if t.startswith("!"):
            t = t[1:].strip()
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", t):
            addr = int(t, 0)
        elif re.fullmatch(r"[A-Za-z_.$][\w.$]*", t):
            addr = ctx.resolve(t, col)
        else:
            raise SyntaxProblem(col, f"expected a code address or a label, got {t!r}")
        if addr & 3:
            raise SyntaxProblem(col, f"code address {addr:#x} is not a multiple of 4")
        if addr >> 24:
            raise SyntaxProblem(col, f"code address {addr:#x} is beyond the 24-bit code space")
        f[self.name] = addr >> 2

    def fields(self) -> set[str]:
        return {self.name}

    def describe(self, f: Fields) -> object:
        from .operands import ImmOperand

        return ImmOperand(f[self.name] << 2)


@dataclass
class Custom(Operand):
    """An operand whose spelling is a pair of functions (rare, one-instruction syntaxes)."""

    render_fn: Callable[[Fields], str]
    parse_fn: Callable[[str, int, Fields, ParseContext], None]
    names: frozenset[str]
    check_fn: Callable[[Fields], str | None] | None = None
    describe_fn: Callable[[Fields], object] | None = None
    role: str = ""

    def render(self, f: Fields) -> str:
        return self.render_fn(f)

    def parse(self, text: str, col: int, f: Fields, ctx: ParseContext) -> None:
        self.parse_fn(text, col, f, ctx)

    def check(self, f: Fields) -> str | None:
        return self.check_fn(f) if self.check_fn else None

    def fields(self) -> set[str]:
        return set(self.names)

    def describe(self, f: Fields) -> object:
        return self.describe_fn(f) if self.describe_fn else None
