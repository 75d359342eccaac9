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
from dataclasses import dataclass, field
from pathlib import Path

from .isa import conditions

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
class FpOperation:
    """The fields of one fp32.txt line, named (columns as in the file's header)."""

    vector: Vector
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

    @property
    def result(self) -> int:
        return self.vector.result

    @property
    def flags(self) -> int:
        return self.vector.flags or 0


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


def _int_case(v: Vector) -> Case:
    a = v.args
    h = _half
    out = (("R4", v.result), ("C1", v.flags or 0))

    def case(insn: Instruction, x: str, y: str = "0", z: str = "0", cin: str = "0") -> Case:
        return Case(v, (insn,), (int(x, 16), int(y, 16), int(z, 16)), int(cin, 16), out)

    if v.op == "iadd":
        op, width, sat, x, y, cin = a
        half = width == "b16"
        mods = (".SAT" if sat == "1" else "") + (".U16" if half else "")
        s1, s2 = h("R1", half), h("R2", half)
        if op == "sub":
            s2 = "-" + s2
        elif op == "subr":
            s1 = "-" + s1
        elif op == "addc":
            mods += ".CARRY0"
        return case(_insn("IADD", f"{mods}.C1", h("R4", half), s1, s2), x, y, cin=cin)
    if v.op == "imul16":
        sa, sb, x, y = a
        return case(_insn("IMUL", f".{sa.upper()}.{sb.upper()}.C1", "R4", "R1L", "R2L"), x, y)
    if v.op == "imul24":
        sign, hi, x, y = a
        t = sign.upper()
        return case(_insn("IMUL", f"{'.HI' if hi == 'hi' else ''}.{t}.{t}.C1", "R4", "R1", "R2"), x, y)
    if v.op == "imad":
        kind, addop, x, y, z, cin = a
        half = kind.endswith("16")
        s1, s3 = h("R1", half), "R3"
        mods = MAD_KINDS[kind]
        if addop == "sub":
            s3 = "-R3"
        elif addop == "subr":
            s1 = "-" + s1
        elif addop == "addc":
            mods += ".CARRY0"
        return case(_insn("IMAD", f"{mods}.C1", "R4", s1, h("R2", half), s3), x, y, z, cin)
    if v.op in ("isad", "iset", "imin", "imax"):
        t, *rest = a
        half = t.endswith("16")
        cond = [conditions.NAMES[int(rest.pop(0), 16)]] if v.op == "iset" else []
        x, y, *z = rest
        third = ["R3"] if v.op == "isad" else []
        dst = "R4" if v.op == "isad" else h("R4", half)
        return case(_insn(v.op.upper(), f"{ITYPE[t]}.C1", dst, h("R1", half), h("R2", half), *third, *cond), x, y, z[0] if z else "0")
    if v.op in ("shl", "shr"):
        t, x, count = a
        half = t.endswith("16")
        mods = "" if v.op == "shl" and t == "b32" else (".U16" if t == "b16" else ITYPE[t])
        return case(_insn(v.op.upper(), f"{mods}.C1", h("R4", half), h("R1", half), h("R2", half)), x, count)
    if v.op == "logic":
        op, width, n1, n2, x, y = a
        half = width == "b16"
        name = {"and": "AND", "or": "OR", "xor": "XOR", "mov2": "PASS_B"}[op]
        s1 = ("~" if n1 == "1" else "") + h("R1", half)
        s2 = ("~" if n2 == "1" else "") + h("R2", half)
        return case(_insn("LOP", f".{name}{'.U16' if half else ''}.C1", h("R4", half), s1, s2), x, y)
    if v.op == "i2i":
        dst, src, abs_, neg, x = a
        stype = {"u8": "U16.BEXT", "s8": "S16.BEXT"}.get(src, src.upper())
        operand = h("R1", src in ("u16", "s16", "u8", "s8"))
        if abs_ == "1":
            operand = f"|{operand}|"
        if neg == "1":
            operand = f"-{operand}"
        return case(_insn("I2I", f".{dst.upper()}.{stype}.C1", h("R4", dst not in ("u32", "s32")), operand), x)
    raise ValueError(f"{v.where()}: unknown vector operation {v.op!r}")


def case_of(v: Vector) -> Case:
    """One vector line as the instruction(s) that compute it; ValueError (or KeyError/IndexError
    for an integer line whose fields do not fit) for a line that cannot be translated."""
    if v.op in FP_OPS:
        return _fp_case(fp_operation(v))
    if v.op in SFU_OPS:
        return _sfu_case(sfu_operation(v))
    return _int_case(v)
