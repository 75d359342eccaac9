"""The reference vector formats of testdata/vectors (int.txt, fp32.txt, sfu.txt): the reader, the
ops of each unit, and what each line means as an instruction.

A line is `OP [fields...] inputs -> result [flags]`, all numbers hex; SFU lines may add
`; sin -> x ; cos -> y` (or `; ex2 -> y`) for the second instruction of a pair. The `#` header of
each file says which column is which. This module is the one place that reads those columns:

- `read_vectors` gives the raw lines (`Vector`);
- `fp_operation` / `sfu_operation` name the fields of an FP / SFU line (rounding, saturation,
  types, source modifiers, operands), checking them with errors that name file:line;
- `case_of` turns any line into the instruction(s) that compute it (`Instruction`: mnemonic,
  modifiers, operands, as the assembler spells them), with the input registers R1-R3, the carry in
  and the registers/flags to read back. `golden check-vectors` runs those; the RTL unit tests drive
  the units from the named fields; tests/test_fp.py and test_sfu.py call the arithmetic from them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import conditions

# the ops of each file's header: what each unit runs
INT_OPS = ("iadd", "imul16", "imul24", "imad", "isad", "iset", "imin", "imax", "shl", "shr", "logic", "i2i")
FP_OPS = ("fadd", "fadd.sat", "fmul", "fmad", "fmad.sat", "fmin", "fmax", "fset", "fslct", "f2i", "i2f", "f2f")
SFU_OPS = ("rcp", "rsqrt", "lg2", "presin", "preex2")
# the `; name -> value` follow-ups an SFU line may carry: the second instruction on the pre-op's code
SFU_FOLLOW_UPS: dict[str, tuple[str, ...]] = {"rcp": (), "rsqrt": (), "lg2": (), "presin": ("sin", "cos"), "preex2": ("ex2", "ex2.sat")}

ROUNDINGS = ("rn", "rm", "rp", "rz")  # to nearest even, down, up, towards zero
# rounding tokens of the files: rn..rz, and the rni..rzi spellings of f2i
_ROUND_TOKENS = {"rn": "rn", "rm": "rm", "rp": "rp", "rz": "rz", "rni": "rn", "rmi": "rm", "rpi": "rp", "rzi": "rz"}
_ROUND_MOD = {"rn": "", "rm": ".FLOOR", "rp": ".CEIL", "rz": ".TRUNC"}  # the assembler's rounding modifiers
_RINT_MOD = {"rn": ".ROUND", "rm": ".FLOOR", "rp": ".CEIL", "rz": ".TRUNC"}  # F2F round to an integer
F2F_MODES = {"mov": ("rn", False, False), "sat": ("rn", False, True), "rni": ("rn", True, False), "rmi": ("rm", True, False),
             "rpi": ("rp", True, False), "rzi": ("rz", True, False)}  # mode -> (rounding, round to integer, saturate)  # fmt: skip
F2I_TYPES = ("u32", "s32", "u16", "s16")
I2F_TYPES = ("u8", "s8", "u16", "s16", "u32", "s32")
_ARITY = {"fadd": 3, "fadd.sat": 3, "fmul": 3, "fmad": 4, "fmad.sat": 4, "fmin": 2, "fmax": 2, "fset": 3, "fslct": 3, "f2i": 5, "i2f": 3, "f2f": 2}

ITYPE = {"u32": "", "s32": ".S32", "u16": ".U16", "s16": ".S16"}
MAD_KINDS = {"u16": ".U16", "s16": ".S16", "sat.s16": ".SAT.S16", "u24": ".U24", "s24": ".S24", "sat.s24": ".SAT.S24",
             "hi.u24": ".HI.U24", "hi.s24": ".HI.S24", "sat.hi.s24": ".HI.SAT.S24"}  # fmt: skip


@dataclass(frozen=True)
class Vector:
    file: str
    line: int
    op: str
    args: tuple[str, ...]  # the tokens between OP and "->"
    result: int
    flags: int | None
    then: dict[str, int] = field(default_factory=dict)  # SFU follow-ups: {"sin": .., "cos": ..}
    text: str = ""

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def read_vectors(path: str | Path) -> Iterator[Vector]:
    path = Path(path)
    with path.open(encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            segments = [s.strip() for s in text.split(";")]
            head, sep, tail = segments[0].partition("->")
            if not sep:
                raise ValueError(f"{path}:{number}: no '->' in {text!r}")
            tokens = head.split()
            out = tail.split()
            if not tokens or not 1 <= len(out) <= 2:
                raise ValueError(f"{path}:{number}: expected 'OP args -> result [flags]', got {text!r}")
            then = {}
            for seg in segments[1:]:
                name, sep, value = seg.partition("->")
                if not sep:
                    raise ValueError(f"{path}:{number}: bad follow-up {seg!r}")
                then[name.strip()] = int(value.strip(), 16)
            yield Vector(
                str(path), number, tokens[0], tuple(tokens[1:]), int(out[0], 16),
                int(out[1], 16) if len(out) > 1 else None, then, text,
            )  # fmt: skip


# ----------------------------------------------------------------------------------------------
# the fields of FP and SFU lines


def _word(v: Vector, text: str) -> int:
    try:
        value = int(text, 16)
    except ValueError:
        raise ValueError(f"{v.where()}: {text!r} is not a hex number: {v.text}") from None
    if not 0 <= value < 1 << 32:
        raise ValueError(f"{v.where()}: {text!r} does not fit 32 bits: {v.text}")
    return value


def _pick(v: Vector, choices: dict | tuple, key: str, what: str) -> str:
    if key not in choices:
        raise ValueError(f"{v.where()}: unknown {what} {key!r} for {v.op} (expected one of {', '.join(choices)}): {v.text}")
    return key


def _bit(v: Vector, text: str, what: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError(f"{v.where()}: {what} must be 0 or 1, not {text!r}: {v.text}")
    return text == "1"


@dataclass(frozen=True)
class _Operation:
    """A vector line with its fields named (the subclasses): the expected result and flags."""

    vector: Vector

    @property
    def result(self) -> int:
        return self.vector.result

    @property
    def flags(self) -> int:
        return self.vector.flags or 0


@dataclass(frozen=True)
class FpOperation(_Operation):
    """The fields of one fp32.txt line, named (columns as in the file's header)."""

    op: str  # fadd fmul fmad fmin fmax fset fslct f2i i2f f2f (the line's op without .sat)
    rnd: str = "rn"  # one of ROUNDINGS; fmad's column is carried although G80 ignores it (FP_SFU.md 4)
    sat: bool = False
    rint: bool = False  # f2f: round to an integer
    cond: int = 0  # fset: the 4-bit compare mask (bit0 l, bit1 e, bit2 g, bit3 u)
    dst: str = ""  # f2i: one of F2I_TYPES
    src: str = ""  # i2f: one of I2F_TYPES
    abs_a: bool = False  # f2i: |a| ...
    neg_a: bool = False  # ... then -a, on the raw source bits (FP_SFU.md 1.6)
    a: int = 0
    b: int = 0
    c: int = 0


def fp_operation(v: Vector) -> FpOperation:
    """The named fields of an FP line; ValueError naming file:line for a line that does not fit."""
    if v.op not in FP_OPS:
        raise ValueError(f"{v.where()}: {v.op!r} is not an FP op (expected one of {', '.join(FP_OPS)}): {v.text}")
    a = v.args
    if len(a) != _ARITY[v.op]:
        raise ValueError(f"{v.where()}: {v.op} takes {_ARITY[v.op]} fields before '->', got {len(a)}: {v.text}")
    if v.flags is not None and not 0 <= v.flags < 16:
        raise ValueError(f"{v.where()}: flags {v.flags:x} do not fit 4 bits: {v.text}")
    if not 0 <= v.result < 1 << 32:
        raise ValueError(f"{v.where()}: result {v.result:x} does not fit 32 bits: {v.text}")
    name, sat = v.op.removesuffix(".sat"), v.op.endswith(".sat")
    if name in ("fadd", "fmul"):
        if a[0] not in ("rn", "rz"):
            raise ValueError(f"{v.where()}: {v.op} rounds rn or rz on G80, not {a[0]!r}: {v.text}")
        return FpOperation(v, name, rnd=a[0], sat=sat, a=_word(v, a[1]), b=_word(v, a[2]))
    if name == "fmad":
        rnd = _ROUND_TOKENS[_pick(v, _ROUND_TOKENS, a[0], "rounding")]
        return FpOperation(v, name, rnd=rnd, sat=sat, a=_word(v, a[1]), b=_word(v, a[2]), c=_word(v, a[3]))
    if name in ("fmin", "fmax"):
        return FpOperation(v, name, a=_word(v, a[0]), b=_word(v, a[1]))
    if name == "fset":
        cond = _word(v, a[0])
        if cond > 15:
            raise ValueError(f"{v.where()}: fset condition {a[0]!r} is not a 4-bit mask: {v.text}")
        return FpOperation(v, name, cond=cond, a=_word(v, a[1]), b=_word(v, a[2]))
    if name == "fslct":
        return FpOperation(v, name, a=_word(v, a[0]), b=_word(v, a[1]), c=_word(v, a[2]))
    if name == "f2i":
        return FpOperation(v, name, dst=_pick(v, F2I_TYPES, a[0], "destination"), rnd=_ROUND_TOKENS[_pick(v, _ROUND_TOKENS, a[1], "rounding")],
                           abs_a=_bit(v, a[2], "abs"), neg_a=_bit(v, a[3], "neg"), a=_word(v, a[4]))  # fmt: skip
    if name == "i2f":
        return FpOperation(v, name, src=_pick(v, I2F_TYPES, a[0], "source type"), rnd=_ROUND_TOKENS[_pick(v, _ROUND_TOKENS, a[1], "rounding")],
                           a=_word(v, a[2]))  # fmt: skip
    rnd, rint, f2f_sat = F2F_MODES[_pick(v, F2F_MODES, a[0], "mode")]
    return FpOperation(v, name, rnd=rnd, rint=rint, sat=f2f_sat, a=_word(v, a[1]))


@dataclass(frozen=True)
class SfuOperation:
    """The fields of one sfu.txt line: the op on x, its result, and the follow-ups on that result
    (presin: sin and cos of the code; preex2: ex2), in the line's order."""

    vector: Vector
    op: str  # one of SFU_OPS
    x: int
    result: int
    follow_ups: tuple[tuple[str, int], ...]  # (name, expected)


def sfu_operation(v: Vector) -> SfuOperation:
    """The named fields of an SFU line; ValueError naming file:line for a line that does not fit."""
    if v.op not in SFU_OPS:
        raise ValueError(f"{v.where()}: {v.op!r} is not an SFU op (expected one of {', '.join(SFU_OPS)}): {v.text}")
    if len(v.args) != 1:
        raise ValueError(f"{v.where()}: {v.op} takes one input, got {v.args!r}: {v.text}")
    try:
        x = int(v.args[0], 16)
    except ValueError:
        raise ValueError(f"{v.where()}: input {v.args[0]!r} is not hex: {v.text}") from None
    if any(not 0 <= n < 1 << 32 for n in (x, v.result, *v.then.values())):
        raise ValueError(f"{v.where()}: a value does not fit 32 bits: {v.text}")
    unknown = sorted(set(v.then) - set(SFU_FOLLOW_UPS[v.op]))
    if unknown:
        raise ValueError(f"{v.where()}: {v.op} has no follow-up {', '.join(unknown)}: {v.text}")
    return SfuOperation(v, v.op, x, v.result, tuple(v.then.items()))


# ----------------------------------------------------------------------------------------------
# the fields of integer lines

# int.txt spellings -> the instruction field values they stand for (ISA.md section 3): the list
# position is the field's value (addop of IADD/IMAD, LOP's op, IMAD's multiply kind in MAD_KINDS' order)
INT_ADDOPS = ("add", "sub", "subr", "addc")
LOGIC_OPS = ("and", "or", "xor", "mov2")
INT_TYPES = ("u16", "s16", "u32", "s32")
I2I_TYPES = ("u8", "s8", "u16", "s16", "u32", "s32")
# I2I's source-type field (ISA.md 3.9): u8 and s8 each have two encodings, the first is canonical
I2I_SRC_CODES: dict[str, tuple[int, ...]] = {"u16": (0,), "u32": (1,), "u8": (2, 3), "s16": (4,), "s32": (5,), "s8": (6, 7)}
# each op: its modifier columns (before the numbers) and its number columns (a, b, c, cin as it has them)
_INT_COLUMNS: dict[str, tuple[int, tuple[str, ...]]] = {
    "iadd": (3, ("a", "b", "cin")), "imul16": (2, ("a", "b")), "imul24": (2, ("a", "b")), "imad": (2, ("a", "b", "c", "cin")),
    "isad": (1, ("a", "b", "c")), "iset": (2, ("a", "b")), "imin": (1, ("a", "b")), "imax": (1, ("a", "b")),
    "shl": (1, ("a", "b")), "shr": (1, ("a", "b")), "logic": (4, ("a", "b")), "i2i": (4, ("a",)),
}  # fmt: skip


@dataclass(frozen=True)
class IntOperation(_Operation):
    """The fields of one int.txt line, named (columns as in the file's header). `mods` is the
    modifier columns as written: lines with equal `mods` differ only in their numbers."""

    op: str  # one of INT_OPS
    mods: tuple[str, ...]
    width: int = 32  # operand width: 16 for b16/u16/s16 (and imad's 16-bit kinds), else 32
    signed: bool = False  # the typed ops' s16/s32 (shr's too), imul16's first operand, imul24's s24
    addop: str = "add"  # iadd, imad: one of INT_ADDOPS
    sat: bool = False  # iadd
    signed_b: bool = False  # imul16: signed is the first operand's sign, this the second's
    hi: bool = False  # imul24: bits 16..47 of the product
    kind: str = ""  # imad: one of MAD_KINDS
    cond: int = 0  # iset: the compare mask (l=1, e=2, g=4)
    lop: str = ""  # logic: one of LOGIC_OPS
    not1: bool = False
    not2: bool = False
    dst: str = ""  # i2i: one of I2I_TYPES
    src: str = ""  # i2i: one of I2I_TYPES
    abs_: bool = False  # i2i: |a| ...
    neg: bool = False  # ... then -a
    a: int = 0
    b: int = 0  # shl/shr: the count
    c: int = 0
    cin: int = 0

    @property
    def addop_code(self) -> int:
        return INT_ADDOPS.index(self.addop)

    @property
    def kind_code(self) -> int:
        return list(MAD_KINDS).index(self.kind)

    @property
    def lop_code(self) -> int:
        return LOGIC_OPS.index(self.lop)

    @property
    def dst_bits(self) -> int:
        return int(self.dst[1:])


def int_operation(v: Vector) -> IntOperation:
    """The named fields of an integer line; ValueError naming file:line for a line that does not fit."""
    if v.op not in _INT_COLUMNS:
        raise ValueError(f"{v.where()}: {v.op!r} is not an integer op (expected one of {', '.join(INT_OPS)}): {v.text}")
    nmods, numbers = _INT_COLUMNS[v.op]
    if len(v.args) != nmods + len(numbers):
        raise ValueError(f"{v.where()}: {v.op} takes {nmods + len(numbers)} fields before '->', got {len(v.args)}: {v.text}")
    if v.flags is not None and not 0 <= v.flags < 16:
        raise ValueError(f"{v.where()}: flags {v.flags:x} do not fit 4 bits: {v.text}")
    if not 0 <= v.result < 1 << 32:
        raise ValueError(f"{v.where()}: result {v.result:x} does not fit 32 bits: {v.text}")
    m = v.args[:nmods]
    values = {name: _word(v, text) for name, text in zip(numbers, v.args[nmods:], strict=True)}
    o = IntOperation(v, v.op, m, **values)
    if v.op == "iadd":
        return replace(
            o, addop=_pick(v, INT_ADDOPS, m[0], "add op"), width=int(_pick(v, ("b16", "b32"), m[1], "width")[1:]), sat=_bit(v, m[2], "sat")
        )
    if v.op == "imul16":
        return replace(o, width=16, signed=_pick(v, ("u16", "s16"), m[0], "type") == "s16", signed_b=_pick(v, ("u16", "s16"), m[1], "type") == "s16")
    if v.op == "imul24":
        return replace(o, signed=_pick(v, ("u24", "s24"), m[0], "type") == "s24", hi=_pick(v, ("lo", "hi"), m[1], "half") == "hi")
    if v.op == "imad":
        kind = _pick(v, MAD_KINDS, m[0], "multiply kind")
        return replace(o, kind=kind, width=16 if kind.endswith("16") else 32, addop=_pick(v, INT_ADDOPS, m[1], "add op"))
    if v.op == "logic":
        return replace(o, lop=_pick(v, LOGIC_OPS, m[0], "logic op"), width=int(_pick(v, ("b16", "b32"), m[1], "width")[1:]),
                       not1=_bit(v, m[2], "not1"), not2=_bit(v, m[3], "not2"))  # fmt: skip
    if v.op == "i2i":
        return replace(o, dst=_pick(v, I2I_TYPES, m[0], "destination type"), src=_pick(v, I2I_TYPES, m[1], "source type"),
                       abs_=_bit(v, m[2], "abs"), neg=_bit(v, m[3], "neg"))  # fmt: skip
    t = _pick(v, ("b16", "b32") if v.op == "shl" else INT_TYPES, m[0], "type")  # shl is untyped
    o = replace(o, width=int(t[1:]), signed=t[0] == "s")
    if v.op == "iset":
        cond = _word(v, m[1])
        if cond > 7:
            raise ValueError(f"{v.where()}: iset condition {m[1]!r} is not a 3-bit l/e/g mask: {v.text}")
        o = replace(o, cond=cond)
    return o


# ----------------------------------------------------------------------------------------------
# a line as instructions


@dataclass(frozen=True)
class Instruction:
    mnemonic: str  # IADD, FADD, RRO, ...
    modifiers: tuple[str, ...]  # in assembly order, with their dots: (".SAT", ".TRUNC", ".C1")
    operands: tuple[str, ...]  # destination first, as the assembler spells them

    @property
    def text(self) -> str:
        return f"{self.mnemonic}{''.join(self.modifiers)} {', '.join(self.operands)}"


def _insn(mnemonic: str, modifiers: str, *operands: str) -> Instruction:
    """`modifiers` as one string (".SAT.U16.C1"), split at the dots."""
    return Instruction(mnemonic, tuple(f".{m}" for m in modifiers.split(".") if m), operands)


@dataclass(frozen=True)
class Case:
    """One vector as instructions: inputs in R1-R3 and the carry in $c0, what to read back."""

    vector: Vector
    instructions: tuple[Instruction, ...]
    inputs: tuple[int, int, int]  # R1, R2, R3
    cin: int
    outputs: tuple[tuple[str, int], ...]  # (register name "R4" or "C1", expected)

    @property
    def code(self) -> str:
        return "\n".join(i.text for i in self.instructions)


def _half(reg: str, half: bool) -> str:
    return f"{reg}L" if half else reg


def _fp_case(o: FpOperation) -> Case:
    v = o.vector
    one = lambda insn, *inputs: Case(v, (insn,), (*inputs, 0, 0, 0)[:3], 0, (("R4", o.result), ("C1", o.flags)))  # noqa: E731
    sat = ".SAT" if o.sat else ""
    if o.op in ("fadd", "fmul"):
        return one(_insn(o.op.upper(), f"{sat}{_ROUND_MOD[o.rnd]}.C1", "R4", "R1", "R2"), o.a, o.b)
    if o.op == "fmad":  # no rounding modifier: the chip ignores it (FP_SFU.md 4)
        return one(_insn("FMAD", f"{sat}.C1", "R4", "R1", "R2", "R3"), o.a, o.b, o.c)
    if o.op in ("fmin", "fmax"):
        return one(_insn(o.op.upper(), ".C1", "R4", "R1", "R2"), o.a, o.b)
    if o.op == "fset":
        return one(_insn("FSET", ".C1", "R4", "R1", "R2", conditions.NAMES[o.cond]), o.a, o.b)
    if o.op == "fslct":
        return one(_insn("FSLCT", ".C1", "R4", "R1", "R2", "R3"), o.a, o.b, o.c)
    if o.op == "f2i":
        operand = "|R1|" if o.abs_a else "R1"
        operand = f"-{operand}" if o.neg_a else operand
        return one(_insn("F2I", f".{o.dst.upper()}.F32{_ROUND_MOD[o.rnd]}.C1", _half("R4", o.dst.endswith("16")), operand), o.a)
    if o.op == "i2f":  # 8-bit sources: a 16-bit register read with byte extraction
        stype = {"u8": "U16.BEXT", "s8": "S16.BEXT"}.get(o.src, o.src.upper())
        return one(_insn("I2F", f".F32.{stype}{_ROUND_MOD[o.rnd]}.C1", "R4", _half("R1", o.src not in ("u32", "s32"))), o.a)
    mode = _RINT_MOD[o.rnd] if o.rint else ".SAT" if o.sat else ""
    return one(_insn("F2F", f".F32.F32{mode}.C1", "R4", "R1"), o.a)


def _sfu_case(o: SfuOperation) -> Case:
    v = o.vector
    if o.op in ("rcp", "rsqrt", "lg2"):
        name = {"rcp": "RCP", "rsqrt": "RSQ", "lg2": "LG2"}[o.op]
        return Case(v, (_insn(name, "", "R4", "R1"),), (o.x, 0, 0), 0, (("R4", o.result),))
    # the pre-op into R4, then each follow-up on R4 into R5, R6, ...
    insns = [_insn("RRO", "", "R4", "R1", "SIN" if o.op == "presin" else "EX2")]
    outputs = [("R4", o.result)]
    for reg, (name, want) in enumerate(o.follow_ups, 5):
        op, _, sat = name.partition(".")
        insns.append(_insn(op.upper(), ".SAT" if sat else "", f"R{reg}", "R4"))
        outputs.append((f"R{reg}", want))
    return Case(v, tuple(insns), (o.x, 0, 0), 0, tuple(outputs))


def _int_case(o: IntOperation) -> Case:
    h = _half
    half = o.width == 16
    out = (("R4", o.result), ("C1", o.flags))

    def case(insn: Instruction) -> Case:
        return Case(o.vector, (insn,), (o.a, o.b, o.c), o.cin, out)

    def added(s1: str, s2: str, mods: str) -> tuple[str, str, str]:
        """The operands and modifiers of an add op: sub negates the second, subr the first."""
        if o.addop == "sub":
            s2 = "-" + s2
        elif o.addop == "subr":
            s1 = "-" + s1
        elif o.addop == "addc":
            mods += ".CARRY0"
        return s1, s2, mods

    typed = (".U16" if o.width == 16 else "") if not o.signed else f".S{o.width}"  # ITYPE of u16/s16/u32/s32
    if o.op == "iadd":
        s1, s2, mods = added(h("R1", half), h("R2", half), (".SAT" if o.sat else "") + (".U16" if half else ""))
        return case(_insn("IADD", f"{mods}.C1", h("R4", half), s1, s2))
    if o.op == "imul16":
        return case(_insn("IMUL", f".{'S' if o.signed else 'U'}16.{'S' if o.signed_b else 'U'}16.C1", "R4", "R1L", "R2L"))
    if o.op == "imul24":
        t = "S24" if o.signed else "U24"
        return case(_insn("IMUL", f"{'.HI' if o.hi else ''}.{t}.{t}.C1", "R4", "R1", "R2"))
    if o.op == "imad":
        s1, s3, mods = added(h("R1", half), "R3", MAD_KINDS[o.kind])
        return case(_insn("IMAD", f"{mods}.C1", "R4", s1, h("R2", half), s3))
    if o.op in ("isad", "iset", "imin", "imax"):
        cond = [conditions.NAMES[o.cond]] if o.op == "iset" else []
        third = ["R3"] if o.op == "isad" else []
        dst = "R4" if o.op == "isad" else h("R4", half)
        return case(_insn(o.op.upper(), f"{typed}.C1", dst, h("R1", half), h("R2", half), *third, *cond))
    if o.op in ("shl", "shr"):
        mods = "" if o.op == "shl" and not half else (".U16" if o.mods[0] == "b16" else typed)
        return case(_insn(o.op.upper(), f"{mods}.C1", h("R4", half), h("R1", half), h("R2", half)))
    if o.op == "logic":
        name = {"and": "AND", "or": "OR", "xor": "XOR", "mov2": "PASS_B"}[o.lop]
        s1 = ("~" if o.not1 else "") + h("R1", half)
        s2 = ("~" if o.not2 else "") + h("R2", half)
        return case(_insn("LOP", f".{name}{'.U16' if half else ''}.C1", h("R4", half), s1, s2))
    stype = {"u8": "U16.BEXT", "s8": "S16.BEXT"}.get(o.src, o.src.upper())  # i2i
    operand = h("R1", o.src not in ("u32", "s32"))
    if o.abs_:
        operand = f"|{operand}|"
    if o.neg:
        operand = f"-{operand}"
    return case(_insn("I2I", f".{o.dst.upper()}.{stype}.C1", h("R4", o.dst not in ("u32", "s32")), operand))


def case_of(v: Vector) -> Case:
    """One vector line as the instruction(s) that compute it; ValueError naming file:line for a line
    that cannot be translated."""
    if v.op in FP_OPS:
        return _fp_case(fp_operation(v))
    if v.op in SFU_OPS:
        return _sfu_case(sfu_operation(v))
    if v.op in INT_OPS:
        return _int_case(int_operation(v))
    raise ValueError(f"{v.where()}: unknown vector operation {v.op!r}: {v.text}")
