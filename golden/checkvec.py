"""`check-vectors`: run reference vectors through the model as real instructions.

Each vector line becomes an instruction assembled from the encoding table (for presin/preex2,
the RRO + SIN/COS/EX2 pair), its inputs are placed in registers R1-R3 (and the carry in $c0), one
or more warps execute it, and the destination register and the $c1 flags written by `.C1` are
read back and compared with the line. Lines with the same instruction run together, one lane each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .isa import conditions
from .isa.assembler import assemble
from .memory import Memory
from .profile import G80, Profile
from .sm import SM
from .state import Launch, SMConfig
from .vectors import Vector, read_vectors

ROUND = {"rn": "", "rm": ".FLOOR", "rp": ".CEIL", "rz": ".TRUNC", "rni": "", "rmi": ".FLOOR", "rpi": ".CEIL", "rzi": ".TRUNC"}
F2F = {"mov": "", "sat": ".SAT", "rni": ".ROUND", "rmi": ".FLOOR", "rpi": ".CEIL", "rzi": ".TRUNC"}
ITYPE = {"u32": "", "s32": ".S32", "u16": ".U16", "s16": ".S16"}
MAD_KINDS = {"u16": ".U16", "s16": ".S16", "sat.s16": ".SAT.S16", "u24": ".U24", "s24": ".S24", "sat.s24": ".SAT.S24",
             "hi.u24": ".HI.U24", "hi.s24": ".HI.S24", "sat.hi.s24": ".HI.SAT.S24"}  # fmt: skip


@dataclass
class Case:
    """One vector as an instruction: the program text, the inputs, and what to read back."""

    code: str
    inputs: list[int]  # R1, R2, R3
    cin: int
    outputs: list[tuple[str, int]]  # (register name "R4" or "C1", expected)


def _neg(flag: str, text: str) -> str:
    return f"-{text}" if flag == "1" else text


def case_of(v: Vector) -> Case:
    """Translate one vector line into an instruction and its operands (raises ValueError if unknown)."""
    a = v.args
    h = lambda r, half: f"{r}L" if half else r  # noqa: E731
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
        return Case(f"IADD{mods}.C1 {h('R4', half)}, {s1}, {s2}", [int(x, 16), int(y, 16), 0], int(cin, 16), [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "imul16":
        sa, sb, x, y = a
        return Case(f"IMUL.{sa.upper()}.{sb.upper()}.C1 R4, R1L, R2L", [int(x, 16), int(y, 16), 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "imul24":
        sign, hi, x, y = a
        t = sign.upper()
        return Case(f"IMUL{'.HI' if hi == 'hi' else ''}.{t}.{t}.C1 R4, R1, R2", [int(x, 16), int(y, 16), 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
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
        return Case(f"IMAD{mods}.C1 R4, {s1}, {h('R2', half)}, {s3}", [int(x, 16), int(y, 16), int(z, 16)], int(cin, 16),
                    [("R4", v.result), ("C1", v.flags or 0)])  # fmt: skip
    if v.op in ("isad", "iset", "imin", "imax"):
        t, *rest = a
        half = t.endswith("16")
        cond = ""
        if v.op == "iset":
            cond = ", " + conditions.NAMES[int(rest.pop(0), 16)]
        x, y, *z = rest
        third = ", R3" if v.op == "isad" else ""
        dst = "R4" if v.op == "isad" else h("R4", half)
        return Case(f"{v.op.upper()}{ITYPE[t]}.C1 {dst}, {h('R1', half)}, {h('R2', half)}{third}{cond}",
                    [int(x, 16), int(y, 16), int(z[0], 16) if z else 0], 0, [("R4", v.result), ("C1", v.flags or 0)])  # fmt: skip
    if v.op in ("shl", "shr"):
        t, x, count = a
        half = t.endswith("16")
        mods = "" if v.op == "shl" and t == "b32" else (".U16" if t == "b16" else ITYPE[t])
        return Case(f"{v.op.upper()}{mods}.C1 {h('R4', half)}, {h('R1', half)}, {h('R2', half)}", [int(x, 16), int(count, 16), 0], 0,
                    [("R4", v.result), ("C1", v.flags or 0)])  # fmt: skip
    if v.op == "logic":
        op, width, n1, n2, x, y = a
        half = width == "b16"
        name = {"and": "AND", "or": "OR", "xor": "XOR", "mov2": "PASS_B"}[op]
        s1 = ("~" if n1 == "1" else "") + h("R1", half)
        s2 = ("~" if n2 == "1" else "") + h("R2", half)
        return Case(f"LOP.{name}{'.U16' if half else ''}.C1 {h('R4', half)}, {s1}, {s2}", [int(x, 16), int(y, 16), 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "i2i":
        dst, src, abs_, neg, x = a
        half_src = src in ("u16", "s16", "u8", "s8")
        stype = {"u8": "U16.BEXT", "s8": "S16.BEXT"}.get(src, src.upper())
        operand = h("R1", half_src)
        if abs_ == "1":
            operand = f"|{operand}|"
        operand = _neg(neg, operand)
        half_dst = dst not in ("u32", "s32")
        return Case(f"I2I.{dst.upper()}.{stype}.C1 {h('R4', half_dst)}, {operand}", [int(x, 16), 0, 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op in ("fadd", "fadd.sat", "fmul"):
        rnd, x, y = a
        sat = ".SAT" if v.op == "fadd.sat" else ""
        name = "FADD" if v.op.startswith("fadd") else "FMUL"
        return Case(f"{name}{sat}{ROUND[rnd]}.C1 R4, R1, R2", [int(x, 16), int(y, 16), 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op in ("fmad", "fmad.sat"):
        _, x, y, z = a
        return Case(f"FMAD{'.SAT' if v.op == 'fmad.sat' else ''}.C1 R4, R1, R2, R3", [int(x, 16), int(y, 16), int(z, 16)], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op in ("fmin", "fmax"):
        x, y = a
        return Case(f"{v.op.upper()}.C1 R4, R1, R2", [int(x, 16), int(y, 16), 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "fset":
        cond, x, y = a
        return Case(f"FSET.C1 R4, R1, R2, {conditions.NAMES[int(cond, 16)]}", [int(x, 16), int(y, 16), 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "fslct":
        x, y, z = a
        return Case("FSLCT.C1 R4, R1, R2, R3", [int(x, 16), int(y, 16), int(z, 16)], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "f2i":
        dst, rnd, abs_, neg, x = a
        operand = _neg(neg, "|R1|" if abs_ == "1" else "R1")
        return Case(f"F2I.{dst.upper()}.F32{ROUND[rnd]}.C1 {h('R4', dst.endswith('16'))}, {operand}", [int(x, 16), 0, 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "i2f":
        src, rnd, x = a
        stype = {"u8": "U16.BEXT", "s8": "S16.BEXT"}.get(src, src.upper())
        return Case(f"I2F.F32.{stype}{ROUND[rnd]}.C1 R4, {h('R1', src not in ('u32', 's32'))}", [int(x, 16), 0, 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op == "f2f":
        mode, x = a
        return Case(f"F2F.F32.F32{F2F[mode]}.C1 R4, R1", [int(x, 16), 0, 0], 0, [("R4", v.result), ("C1", v.flags or 0)])
    if v.op in ("rcp", "rsqrt", "lg2"):
        (x,) = a
        name = {"rcp": "RCP", "rsqrt": "RSQ", "lg2": "LG2"}[v.op]
        return Case(f"{name} R4, R1", [int(x, 16), 0, 0], 0, [("R4", v.result)])
    if v.op in ("presin", "preex2"):
        (x,) = a
        if v.op == "presin":
            code = "RRO R4, R1, SIN\nSIN R5, R4\nCOS R6, R4"
            outs = [("R4", v.result), ("R5", v.then["sin"]), ("R6", v.then["cos"])]
        else:
            code = "RRO R4, R1, EX2\nEX2 R5, R4"
            outs = [("R4", v.result), ("R5", v.then["ex2"])]
        return Case(code, [int(x, 16), 0, 0], 0, outs)
    raise ValueError(f"unknown vector operation {v.op!r}")


@dataclass
class Failure:
    vector: Vector
    code: str
    diffs: list[str]

    def format(self) -> str:
        return f"{self.vector.where()}: {self.vector.text}\n    as {self.code.replace(chr(10), '; ')}: " + "; ".join(self.diffs)


def run_cases(cases: list[tuple[Vector, Case]], profile: Profile = G80) -> list[Failure]:
    """Execute cases that share one instruction text, up to 512 lanes per launch."""
    failures: list[Failure] = []
    code = cases[0][1].code
    program = assemble(code + "\nNOP")
    for start in range(0, len(cases), 512):
        chunk = cases[start : start + 512]
        n = len(chunk)
        launch = Launch((1, 1), (-(-n // 32) * 32, 1, 1), 8)
        sm = SM(program.words, launch, Memory("global", 16), {}, profile, SMConfig(max_warps=16, registers=1 << 16))
        for reg in range(3):
            sm.regs[1 + reg, :n] = np.array([c.inputs[reg] for _, c in chunk], np.uint32)
        sm.cc[0, :n] = np.array([(c.cin & 1) << 2 for _, c in chunk], np.uint8)
        sm.run()
        for lane, (vec, case) in enumerate(chunk):
            diffs = []
            for name, want in case.outputs:
                got = int(sm.cc[int(name[1]), lane]) if name[0] == "C" else int(sm.regs[int(name[1:]), lane])
                if got != want:
                    diffs.append(f"{name} = {got:0{1 if name[0] == 'C' else 8}x}, expected {want:0{1 if name[0] == 'C' else 8}x}")
            if diffs:
                failures.append(Failure(vec, case.code, diffs))
    return failures


def check_vectors(vectors: Iterable[Vector], profile: Profile = G80) -> tuple[int, list[Failure], list[str]]:
    """(passed, failures, errors) over the vectors; lines that cannot be translated are errors."""
    groups: dict[str, list[tuple[Vector, Case]]] = {}
    errors: list[str] = []
    total = 0
    for v in vectors:
        total += 1
        try:
            case = case_of(v)
        except (ValueError, KeyError, IndexError) as e:
            errors.append(f"{v.where()}: {v.text}: {e}")
            continue
        groups.setdefault(case.code, []).append((v, case))
    failures: list[Failure] = []
    for cases in groups.values():
        failures.extend(run_cases(cases, profile))
    passed = total - len(failures) - len(errors)
    return passed, failures, errors


def check_files(paths: Iterable[str], profile: Profile = G80) -> tuple[int, list[Failure], list[str]]:
    def all_vectors() -> Iterable[Vector]:
        for p in paths:
            yield from read_vectors(p)

    return check_vectors(all_vectors(), profile)
