"""Building Fermi test programs as decoded instructions, without the assembler.

`ins("IADD", "R4", "R1", "-R2", mods=("SAT",))` gives an Insn; operand strings follow the
cuobjdump spelling: R3 -R3 ~R3 |R3| RZ R4.CC, P0 !P0 PT, 0x10 (an immediate, its full pattern),
c[0x2][0x10] c[0x2][R3+0x10], [R2+0x4], SR_TID.X (the disassembler's names) or SR41 (a number),
CC.NE, PR, @0x40 (a branch target). The first
`ndst` operands are destinations (default: 2 for the ...SETP families, 0 for stores and control,
else 1).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Sequence

import numpy as np

from golden.fermi.disasm import SREGS
from golden.fermi.insn import CC, PR, PT, RZ, Addr, Const, Imm, Insn, Operand, Pred, Reg, SReg, Target
from golden.fermi.model import Machine

NO_DST = {"ST", "STS", "STL", "RED", "SSY", "BRA", "CAL", "PRET", "RET", "EXIT", "PBK", "BRK", "PCNT", "CONT",
          "NOP", "MEMBAR"}  # fmt: skip
TWO_DST = {"ISETP", "FSETP", "DSETP", "PSETP", "CSETP"}


def _reg(t: str) -> int:
    return RZ if t == "RZ" else int(t[1:])


def operand(t: str) -> Operand:
    t = t.strip()
    if t.startswith("@"):
        return Target(int(t[1:], 0))
    if t == "PR":
        return PR()
    if t.startswith("CC"):
        return CC(t[3:] if "." in t else "")
    if t.startswith("SR"):
        by_name = {cuda5: n for n, (cuda5, _) in SREGS.items()}
        return SReg(by_name[t] if t in by_name else int(t[2:]))
    if t in ("PT", "!PT") or re.fullmatch(r"!?P\d", t):
        neg = t.startswith("!")
        name = t.lstrip("!")
        return Pred(PT if name == "PT" else int(name[1:]), neg)
    m = re.fullmatch(r"(-?)c\[(\w+)\]\[(?:(R\d+|RZ)\+?)?(-?\w+)?\]", t)
    if m:
        return Const(int(m[2], 0), int(m[4], 0) if m[4] else 0, _reg(m[3]) if m[3] else RZ, neg=bool(m[1]))
    m = re.fullmatch(r"\[(R\d+|RZ)?\+?(-?0x[0-9a-fA-F]+|-?\d+)?\]", t)
    if m:
        return Addr(_reg(m[1]) if m[1] else RZ, int(m[2], 0) if m[2] else 0)
    m = re.fullmatch(r"([-~]?)(\|?)(R\d+|RZ)\|?(\.CC)?", t)
    if m:
        return Reg(_reg(m[3]), neg=bool(m[1]), abs=bool(m[2]), cc=bool(m[4]))
    neg = t.startswith("-")
    return Imm(int(t.lstrip("-"), 0), neg=neg)


def ins(op: str, *ops: str, mods: Sequence[str] = (), guard: str = "PT", ndst: int | None = None, family: str | None = None) -> Insn:
    if ndst is None:
        ndst = 0 if op in NO_DST else 2 if op in TWO_DST else 1
    parsed = tuple(operand(t) for t in ops)
    g = operand(guard)
    assert isinstance(g, Pred)
    return Insn(op, op, family or op, tuple(mods), g, parsed[:ndst], parsed[ndst:])


def place(program: Sequence[Insn]) -> list[Insn]:
    """The program with byte addresses 0, 8, 16, ... (the model runs by position; the address is
    for messages and records)."""
    from dataclasses import replace

    return [replace(p, addr=8 * k, word=0x1000 + k) for k, p in enumerate(program)]


def words(data: Sequence[int]) -> bytes:
    return np.array(data, dtype="<u4").tobytes()


def f32bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


# a 32-lane kernel over three input arrays a, b, c (global 0x000, 0x100, 0x200) and an output
# array at 0x300: R1, R2, R3 hold a[tid], b[tid], c[tid], R11 &a[tid]; the body writes R4
LOAD3 = [
    ins("S2R", "R10", "SR_TID.X"),
    ins("ISCADD", "R11", "R10", "RZ", "0x2"),
    ins("LD", "R1", "[R11]"),
    ins("LD", "R2", "[R11+0x100]"),
    ins("LD", "R3", "[R11+0x200]"),
]
STORE = [ins("ST", "[R11+0x300]", "R4"), ins("EXIT")]


def run_lanes(body: Sequence[Insn], a: Sequence[int], b: Sequence[int] = (), c: Sequence[int] = (), out: int = 0x300) -> tuple[np.ndarray, Machine]:
    """Run LOAD3 + body + STORE on one warp of len(a) threads; the uint32 outputs and the machine."""
    n = len(a)
    mem = bytearray(0x400)
    for base, arr in ((0, a), (0x100, b), (0x200, c)):
        mem[base : base + 4 * len(arr)] = words(arr)
    m = Machine()
    m.launch(place([*LOAD3, *body, *STORE]), block=n, global_mem=bytes(mem))
    m.run(10_000)
    return m.mem.glob[out : out + 4 * n].view("<u4").copy(), m


def linked(build: Callable[[dict[str, int]], list[Insn | str]]) -> list[Insn]:
    """A program with labels: `build(labels)` gives instructions and label names (strings) in order,
    branch targets written `f"@{labels['loop']:#x}"`; it is called once to place the labels and
    again with their addresses."""
    from collections import defaultdict

    items = build(defaultdict(int))
    labels: dict[str, int] = {}
    pc = 0
    for it in items:
        if isinstance(it, str):
            labels[it] = pc
        else:
            pc += 8
    return place([it for it in build(labels) if not isinstance(it, str)])
