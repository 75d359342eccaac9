"""G80's instruction form: the generic form of golden.isa.form with G80's formats, guards and markers.

A form names its fields (bit positions), the values that identify it (`fixed`), and its
spelling (mnemonic, modifier groups, operands). From that alone it encodes, decodes, renders and
parses; the decoder, assembler, disassembler, coverage model and RTL constants all read forms.
What is G80's own here: the five formats and their sizes, the `(Cn.COND)` guard spellings, the
join/exit markers and the functional units.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..isa.bits import BitField
from ..isa.form import FormBase
from . import conditions
from .syntax import Cond, Fields, Mods, Operand, ParseContext, SyntaxProblem, holds

# Instruction formats (ISA.md 1.1): w0[1:0], and w1[1:0] for the long ones.
SHORT, LONG, IMM, CTRL, SCTRL = "short", "long", "imm", "ctrl", "sctrl"
SIZE = {SHORT: 4, SCTRL: 4, LONG: 8, IMM: 8, CTRL: 8}

# Functional units (the RTL's decode takes an instruction's unit from the generated header).
UNITS = ("int", "fp", "sfu")

# Markers of long normal instructions (ISA.md 1.2): w1[1:0].
MARK_NONE, MARK_EXIT, MARK_JOIN = 0, 1, 2

GUARD_RE = re.compile(r"^(?P<body>.*?)\s*\(\s*C(?P<reg>\d)\s*\.\s*(?P<cond>\w+)\s*\)\s*$", re.DOTALL)
CTRL_GUARD_RE = re.compile(r"^\s*C(?P<reg>\d)\s*\.\s*(?P<cond>\w+)\s*$")


@dataclass
class Form(FormBase):
    name: str  # unique, e.g. "IADD", "IADD32", "IADD32I"
    mnemonic: str  # base text
    fmt: str
    family: str  # semantic family, shared by the forms one execution routine serves
    fields: dict[str, BitField]
    fixed: dict[str, int]
    mods: list[Mods]
    operands: list[Operand]
    guard: str = "none"  # "dst": (Cn.COND) after the first operand; "ctrl": first operand; "none"
    guard_default: int = conditions.ALWAYS  # the condition printed as nothing
    reg_shown: bool | Cond = False  # the guard's $c register is spelt elsewhere (.CARRYn, C2R's source)
    promote: str | None = None  # the long form a short one becomes to keep alignment
    unit: str = "int"  # the functional unit computing the result: "int", "fp" or "sfu" (UNITS)
    float_result: bool = False  # the register result is a float (f32, or f16 in a half register)
    doc: str = ""
    match_mask: int = field(init=False)
    match_value: int = field(init=False)
    covered: int = field(init=False)

    def __post_init__(self) -> None:
        self.derive_masks()
        used = set(self.fixed)
        for piece in [*self.mods, *self.operands]:
            used |= piece.fields()
        if self.guard != "none":
            used |= {"pcond", "preg"}
        if self.unit not in UNITS:
            raise ValueError(f"form {self.name}: unit {self.unit!r} is not one of {UNITS}")
        missing = used - set(self.fields)
        if missing:
            raise ValueError(f"form {self.name}: spelling uses undeclared fields {sorted(missing)}")

    @property
    def size(self) -> int:
        return SIZE[self.fmt]

    # -- bits: matches, extract, encode and stray come from FormBase ----------------------------

    def problems(self, f: Fields) -> list[str]:
        """Why decoded field values have no spelling (empty when they have one)."""
        out = []
        for piece in [*self.mods, *self.operands]:
            problem = piece.check(f)
            if problem:
                out.append(problem)
        return out

    # -- text -------------------------------------------------------------------------------

    def render(self, f: Fields) -> str:
        text = self.mnemonic + "".join(m.render(f) or "" for m in self.mods)
        ops = [o.render(f) for o in self.operands]
        guard = self._guard_text(f)
        if guard and self.guard == "dst":
            ops[0] = f"{ops[0]} ({guard})"
        elif guard and self.guard == "ctrl":
            ops.insert(0, guard)
        ops = [o for o in ops if o]
        return f"{text} {', '.join(ops)}" if ops else text

    def _guard_text(self, f: Fields) -> str:
        if self.guard == "none":
            return ""
        cond, reg = f["pcond"], f["preg"]
        shown = self.reg_shown if isinstance(self.reg_shown, bool) else holds(f, self.reg_shown)
        if cond == self.guard_default and (reg == 0 or shown):
            return ""
        return f"C{reg}.{conditions.NAMES[cond]}"

    def parse(self, suffixes: list[str], operand_texts: list[tuple[str, int]], ctx: ParseContext) -> Fields:
        """Fields from a mnemonic's suffixes and the operand texts (with their columns).

        Raises SyntaxProblem; a column of -1 means "in the mnemonic".
        """
        f: Fields = {}
        i = 0
        for group in self.mods:
            try:
                i = group.parse(suffixes, i, f)
            except SyntaxProblem as e:
                raise SyntaxProblem(-1, e.message) from None
        if i < len(suffixes):
            raise SyntaxProblem(-1, f"unexpected modifier .{suffixes[i]} for {self.mnemonic}")
        texts = list(operand_texts)
        self._parse_guard(texts, f)
        self._parse_operands(texts, f, ctx)
        for name, value in self.fixed.items():
            f[name] = value
        return f

    def _parse_guard(self, texts: list[tuple[str, int]], f: Fields) -> None:
        guard: tuple[int, str, int, int] | None = None
        if self.guard == "dst" and texts:
            m = GUARD_RE.match(texts[0][0])
            if m:
                guard = (int(m.group("reg")), m.group("cond"), texts[0][1] + m.start("reg") - 1, texts[0][1] + m.start("cond"))
                texts[0] = (m.group("body"), texts[0][1])
        elif self.guard == "ctrl" and texts:
            m = CTRL_GUARD_RE.match(texts[0][0])
            if m:
                guard = (int(m.group("reg")), m.group("cond"), texts[0][1] + m.start("reg") - 1, texts[0][1] + m.start("cond"))
                texts.pop(0)
        elif texts and GUARD_RE.match(texts[0][0]):
            raise SyntaxProblem(texts[0][1] + texts[0][0].index("("), f"{self.mnemonic} cannot be predicated")
        if guard is None:
            if self.guard != "none":
                f["pcond"] = self.guard_default  # the register defaults to C0 unless spelt elsewhere
            return
        reg, name, col, name_col = guard
        code = conditions.CODES.get(name.upper())
        if code is None:
            raise SyntaxProblem(name_col, f"unknown condition {name!r} (expected e.g. EQ, NE, LT, EQU, TRUE)")
        if reg > 3:
            raise SyntaxProblem(col, f"flag register C{reg} does not exist (C0..C3)")
        if "preg" in f and f["preg"] != reg:
            raise SyntaxProblem(col, f"guard register C{reg} must be the carry register C{f['preg']}: .CARRY{f['preg']} reads the guard's "
                                     "register (one field, w1[13:12], names both; an encoding limit, ISA.md 1.3 and 2.2)")
        f["pcond"], f["preg"] = code, reg

    def _parse_operands(self, texts: list[tuple[str, int]], f: Fields, ctx: ParseContext) -> None:
        k = 0
        for spec in self.operands:
            if k >= len(texts):
                if spec.optional:
                    spec.default(f)
                    continue
                raise SyntaxProblem(texts[-1][1] + len(texts[-1][0]) if texts else -1, "missing operand")
            text, col = texts[k]
            if spec.optional and not spec.trailing:
                try:
                    spec.parse(text, col, f, ctx)
                except SyntaxProblem:
                    spec.default(f)
                    continue
            else:
                spec.parse(text, col, f, ctx)
            k += 1
        if k < len(texts):
            raise SyntaxProblem(texts[k][1], f"too many operands for {self.mnemonic}")
        for spec in self.operands:
            finish = getattr(spec, "finish", None)
            if finish:
                finish(f, texts[0][1] if texts else 0)

    def describe(self, f: Fields) -> list[tuple[str, object]]:
        return [(o.role, o.describe(f)) for o in self.operands]
