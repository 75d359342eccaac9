"""Constrained-random LG programs (the CS3220 LG GPU, golden/lg/), legal and terminating by construction.

A program is generated as a tree (`LgProg`: main block and subroutines; blocks of `Op`, `If`,
`Loop`, `Call`, `Jump` and `Gfx` items) and rendered as .lgs text for the LG assembler
(golden/lg/asm.py). The shrinker (randgen/shrink.py) edits the tree through `candidates`, so every
program it tries is as legal as the generator's.

Where the instructions come from: every opcode of the encoding table (golden/lg/table.py) whose
family has a weight in the mix; its operands are drawn per kind (the row's operand list), with
sources biased to the registers written just before (back-to-back RAW on scalar and vector
registers, load-use) and immediates biased to 16-bit edge values. The only hand-written spellings
are the scaffolding: prologue, loop counters, branches, calls and the graphics sequences.

Resources (what keeps a program legal and its run bounded):

- r6 holds the data region's base (DATA) from the prologue on; no random instruction writes it.
  Stores go to DATA + 0 .. STORE_BYTES only, so the return-address save slots above them survive;
  loads read the region, or any address through a random base register (the whole 64 KiB exists);
- r5 and r4 are the counters of loops at nesting levels 0 and 1; nothing else writes them, so every
  loop runs the trip count it set (counted down with addi/brp or up with addi/cmpi/brn);
- r7 is the link register: random code in main may write it (a later jsr overwrites it), a
  subroutine that calls another saves it in its slot of the data region and reloads it before ret;
  subroutine i calls only subroutines j > i, so there is no recursion;
- branches are forward (if/else, and jmp over dead code) except the loops' back edges;
- graphics sequences set the vectors they draw from (v56-v63) right before using them, with
  coordinates that keep a triangle's bounding box small (knob tri_size), on or off the screen, in
  either winding; random vector code writes v0..vregs-1 only. Matrix-stack pushes and pops may run
  past the 16-deep stack's ends (the model and the RTL ignore them there).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from golden.lg.asm import FORMATS
from golden.lg.table import OPS
from golden.lg.table import Op as Row

from .config import Knobs
from .shrink import chunk_spans, edited, items_size, tree_lists, without_chunks

DATA = 0x0100  # first byte of the data region (r6)
DATA_WORDS = 64  # initialised words of the region (.data)
STORE_BYTES = 0xC0  # stores write DATA .. DATA + STORE_BYTES - 1
SAVE = 0xC0  # subroutine i saves r7 at DATA + SAVE + 2 i
LOAD_BYTES = 0x100  # loads through r6 read DATA .. DATA + LOAD_BYTES - 1
INT_REGS = (0, 1, 2, 3)  # random integer destinations
FLOAT_REGS = tuple(range(8, 15))
COUNTERS = (5, 4)  # loop counter of nesting level 0, 1
BASE = 6
LINK = 7
GFX_V = tuple(range(56, 64))  # the graphics sequences' own vector registers
Q = 128  # Q8.7: 1.0

# 16-bit edge values: zero, one, the signs' edges, byte and Q8.7 boundaries
SPECIALS = [0x0000, 0x0001, 0xFFFF, 0x7FFF, 0x8000, 0x8001, 0x7FFE, 0x00FF, 0x0100, 0x0080, 0xFF80, 0x00FE, 0xFF00, 0x0002, 0x4000, 0xC000]

FAMILIES = ("alu", "move", "compare", "vector", "load", "store")
DEFAULT_MIX: dict[str, float] = {"alu": 4, "move": 2, "compare": 1.5, "vector": 2.5, "load": 1.5, "store": 1.5}
# Items of a block: plain instructions, forward if/else, counted loops, calls, a jmp over dead code,
# graphics sequences
DEFAULT_CONTROL: dict[str, float] = {"ops": 8, "if": 2, "loop": 1.2, "call": 1, "jump": 0.5, "gfx": 1}


@dataclass(frozen=True)
class LgConfig(Knobs):
    """The LG generator's knobs (docs/guides/random.md, "LG programs"); presets below."""

    length: int = 40  # random items in the main body (about)
    depth: int = 2  # nesting depth of control structures (loops at most 2 deep: two counters)
    loop_max: int = 3  # trip counts are drawn from 1..loop_max
    subroutines: int = 2  # at most this many subroutines
    raw: float = 0.6  # probability that a source is a register written by one of the last few instructions
    special: float = 0.4  # probability that an immediate is a 16-bit edge value
    r15: float = 0.03  # probability that a scalar source is r15 (reads the next instruction's address)
    wild_base: float = 0.15  # probability that a load's base is a random register (any address)
    vregs: int = 8  # vector registers random code writes (v0..vregs-1)
    tri_size: float = 1.0  # largest extent of a triangle, in model units (1.0 = 64 x 40 pixels)
    offscreen: float = 0.25  # probability that a triangle is placed off or across the screen's edge
    winding: float = 0.7  # probability that a triangle's vertices come in the order the seed profile draws (else the reverse: it covers nothing)
    stack_edge: float = 0.15  # probability that a graphics sequence pushes past the stack's 16 entries
    halt: float = 0.85  # probability that main ends in halt when there is no subroutine (else it runs off the end)
    mix: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))
    control: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_CONTROL))

    def check(self) -> None:
        if not 1 <= self.length <= 2000:
            raise ValueError(f"length {self.length} out of 1..2000")
        if not 0 <= self.depth <= 4:
            raise ValueError(f"depth {self.depth} out of 0..4")
        if not 1 <= self.loop_max <= 20:
            raise ValueError(f"loop_max {self.loop_max} out of 1..20")
        if not 0 <= self.subroutines <= 8:
            raise ValueError(f"subroutines {self.subroutines} out of 0..8")
        if not 1 <= self.vregs <= len(range(GFX_V[0])):
            raise ValueError(f"vregs {self.vregs} out of 1..{GFX_V[0]} (v{GFX_V[0]}-v63 are the graphics sequences')")
        if not 0.1 <= self.tri_size <= 10:
            raise ValueError(f"tri_size {self.tri_size} out of 0.1..10 (model units; 10 spans the screen)")
        for name in ("raw", "special", "r15", "wild_base", "offscreen", "winding", "stack_edge", "halt"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} {getattr(self, name)} is a probability: 0..1")
        for name in ("mix", "control"):
            if any(w < 0 for w in getattr(self, name).values()) or not any(getattr(self, name).values()):
                raise ValueError(f"{name}: weights are >= 0 and at least one is > 0")


PRESETS: dict[str, dict] = {
    "default": {},
    # what `make test` runs on the LG core: short programs
    "ci": {"length": 20, "subroutines": 1, "tri_size": 0.6},
    # back-to-back dependencies through few registers: RAW, load-use, branch right after a CC write
    "hazard": {"length": 80, "depth": 1, "raw": 0.95, "vregs": 2, "control": {"ops": 12, "if": 3, "loop": 1, "call": 0.5, "jump": 0.3, "gfx": 0.3},
               "mix": {"load": 3, "store": 2}},
    # graphics heavy: matrix stack at and past its ends, transforms, triangles on and off the screen
    "graphics": {"length": 30, "stack_edge": 0.4, "offscreen": 0.4, "control": {"ops": 3, "if": 1, "loop": 0.8, "call": 0.5, "jump": 0.3, "gfx": 4}},
    # deep control: nested loops and ifs, more calls and jumps
    "control": {"depth": 4, "loop_max": 4, "subroutines": 4, "control": {"ops": 4, "if": 3, "loop": 2, "call": 2, "jump": 1.5, "gfx": 0.3}},
    # memory heavy
    "memory": {"wild_base": 0.3, "mix": {"load": 5, "store": 5, "move": 2}},
}


# ---------------------------------------------------------------------------------------------
# the program tree


@dataclass
class Op:
    lines: list[str]  # instructions that stay together (a vector set-up and the graphics op that reads it)


@dataclass
class If:
    cond: str  # a CC-setting instruction
    branch: str  # br mnemonic: taken to the else part (or past the then part)
    then: list
    els: list | None = None  # None: no else part


@dataclass
class Loop:
    level: int  # counter COUNTERS[level]
    trips: int
    up: bool  # count up with cmpi/brn, else down with brp/brnp
    back: str  # the back edge's branch mnemonic
    body: list


@dataclass
class Call:
    sub: int
    via: int | None = None  # None: jsr label; else jsrr through this register


@dataclass
class Jump:  # jmp over dead code (never executed)
    reg: int
    dead: list[str]


@dataclass
class Gfx:  # a graphics sequence: each item an Op whose lines stay together
    body: list


@dataclass
class LgProg:
    seed: int
    preset: str
    data: list[int]  # DATA_WORDS initial words of the data region
    init: list[str]  # prologue: register and vector values
    main: list
    subs: list[list]
    calls: list[bool]  # subroutine i calls another (saves r7)
    halt: bool = True


# ---------------------------------------------------------------------------------------------
# drawing


def _q(x: float) -> int:
    """A real number as Q8.7 bits (truncated toward zero, as the assembler's fixed187 format)."""
    n = max(-32768, min(32767, int(x * Q)))
    return n & 0xFFFF


def _fimm(bits: int) -> str:
    return FORMATS["fixed187"].render(bits)


class Gen:
    def __init__(self, r: random.Random, cfg: LgConfig) -> None:
        self.r, self.cfg = r, cfg
        self.recent_r: list[int] = []  # scalar registers written last, newest last
        self.recent_v: list[int] = []
        by_family: dict[str, list[Row]] = {}
        for row in OPS:
            by_family.setdefault(row.family, []).append(row)
        self.rows = by_family

    # -- values and registers ----------------------------------------------------------------------

    def imm16(self) -> int:
        r = self.r
        if r.random() < self.cfg.special:
            return r.choice(SPECIALS)
        return r.choice((r.randrange(-16, 17) & 0xFFFF, r.getrandbits(16), r.randrange(-512, 513) & 0xFFFF))

    def int_text(self, v: int) -> str:
        v &= 0xFFFF
        signed = v - 0x10000 if v & 0x8000 else v
        return self.r.choice((str(signed), f"{v:#x}"))

    def float_text(self, v: int) -> str:
        return f"{v & 0xFFFF:#06x}" if self.r.random() < 0.3 else _fimm(v)

    def src_r(self, floaty: bool = False) -> int:
        r = self.r
        if r.random() < self.cfg.r15:
            return 15
        if self.recent_r and r.random() < self.cfg.raw:  # mostly the last write: back to back in the pipeline
            return self.recent_r[-1] if r.random() < 0.7 else r.choice(self.recent_r[-3:])
        pool = FLOAT_REGS if floaty else INT_REGS
        if r.random() < 0.15:  # the other class, the reserved ones and the link register are read too
            pool = (*INT_REGS, 4, 5, 6, 7, *FLOAT_REGS)
        return r.choice(pool)

    def dst_r(self, floaty: bool, ctx: Ctx) -> int:
        r = self.r
        pool = FLOAT_REGS if floaty else INT_REGS
        if r.random() < 0.1:
            pool = FLOAT_REGS if not floaty else INT_REGS
        if ctx.in_sub is None and not floaty and r.random() < 0.05:
            pool = (LINK,)
        return r.choice(pool)

    def wrote_r(self, d: int) -> None:
        self.recent_r = [*self.recent_r[-3:], d]

    def src_v(self) -> int:
        r = self.r
        if self.recent_v and r.random() < self.cfg.raw:
            return self.recent_v[-1] if r.random() < 0.7 else r.choice(self.recent_v[-3:])
        return r.randrange(self.cfg.vregs) if r.random() < 0.85 else r.randrange(64)

    def dst_v(self) -> int:
        return self.r.randrange(self.cfg.vregs)

    # -- one instruction ---------------------------------------------------------------------------

    def insn(self, ctx: Ctx, family: str | None = None, setcc: bool = False) -> str:
        r, cfg = self.r, self.cfg
        if family is None:
            fams = [f for f in FAMILIES if cfg.mix.get(f, 0) > 0 and (not setcc or f in ("alu", "move", "compare", "load"))]
            if not fams:
                fams = ["compare"]
            family = r.choices(fams, [cfg.mix.get(f, 0) or 1 for f in fams])[0]
        rows = [row for row in self.rows[family] if not setcc or row.setcc]
        row = r.choice(rows)
        floaty = row.mnemonic.endswith(".f")
        ops: list[str] = []
        wrote_r = wrote_v = None  # recorded after the sources are drawn: a source is then one of the instructions before
        for name, kind in row.operands:
            if kind == "r" or kind == "base":
                if name in ("rd", "rm") and row.family in ("alu", "load", "move"):
                    wrote_r = self.dst_r(floaty, ctx)
                    ops.append(f"r{wrote_r}")
                elif name == "base":
                    ops.append(f"r{BASE}" if r.random() >= cfg.wild_base or row.family == "store" else f"r{self.src_r()}")
                elif name == "rd" and row.family == "store":
                    ops.append(f"r{self.src_r()}")
                else:
                    ops.append(f"r{self.src_r(floaty)}")
            elif kind == "v" and name == "vd":
                wrote_v = self.dst_v()
                ops.append(f"v{wrote_v}")
            elif kind == "v":
                ops.append(f"v{self.src_v()}")
            elif kind == "idx":
                ops.append(str(r.randrange(4)))
            elif kind == "imm":
                if row.family == "load":
                    size = 1 if row.mnemonic == "ldb" else 2
                    base_is_r6 = ops[-1] == f"r{BASE}"
                    ops.append(str(r.randrange(0, LOAD_BYTES, size)) if base_is_r6 else self.int_text(self.imm16()))
                elif row.family == "store":
                    size = 1 if row.mnemonic == "stb" else 2
                    ops.append(str(r.randrange(0, STORE_BYTES, size)))
                elif row.imm == "float":
                    ops.append(self.float_text(self.imm16()))
                else:
                    ops.append(self.int_text(self.imm16()))
            else:
                raise AssertionError(f"randgen/lg: no operand drawing for kind {kind} of {row.mnemonic}")
        if wrote_r is not None:
            self.wrote_r(wrote_r)
        if wrote_v is not None:
            self.recent_v = [*self.recent_v[-3:], wrote_v]
        return " ".join([row.mnemonic, *ops]) if ops else row.mnemonic

    # -- graphics ----------------------------------------------------------------------------------

    def vec(self, v: int, values: list[float | None]) -> list[str]:
        """Set the elements of v that are not None: vmovi of the first, vcompmovi of the others that differ."""
        out: list[str] = []
        given = [(i, x) for i, x in enumerate(values) if x is not None]
        first = _q(given[0][1])  # type: ignore[arg-type]
        if self.r.random() < 0.5:
            out.append(f"vmovi v{v} {_fimm(first)}")
            rest = [(i, x) for i, x in given if _q(x) != first]  # type: ignore[arg-type]
        else:
            rest = given
        out += [f"vcompmovi v{v} {i} {_fimm(_q(x))}" for i, x in rest]  # type: ignore[arg-type]
        return out

    def gfx(self, ctx: Ctx) -> Gfx:
        r, cfg = self.r, self.cfg
        body: list[Op] = []
        if r.random() < 0.4:
            body.append(Op(["loadidentity"]))
        if r.random() < 0.2:
            body.append(Op(["flush"]))
        pushes = r.choice((0, 1, 1, 2))
        if r.random() < cfg.stack_edge:
            pushes = r.choice((15, 16, 17, 18))  # up to and past the 16 entries
        body += [Op(["pushmatrix"]) for _ in range(pushes)]
        for _ in range(r.choice((0, 1, 1, 2, 3))):
            kind = r.choice(("translate", "scale", "rotate"))
            v = r.choice(GFX_V)
            if kind == "translate":
                vals: list[float | None] = [None, r.uniform(-2, 2), r.uniform(-2, 2), None]
            elif kind == "scale":
                vals = [None, r.choice((-1, 1)) * r.uniform(0.25, 1.5), r.choice((-1, 1)) * r.uniform(0.25, 1.5), None]
            else:
                vals = [r.uniform(-255, 255), None, None, r.choice((-1.0, 1.0, 0.0))]
            if r.random() < 0.1 and kind != "scale":  # any vector: a wild translation moves later triangles off the screen
                body.append(Op([f"{kind} v{self.src_v()}"]))
            else:
                body.append(Op([*self.vec(v, vals), f"{kind} v{v}"]))
        if r.random() < 0.8:
            v = r.choice(GFX_V)
            rgb: list[float | None] = [r.choice((0, 255, r.uniform(0, 255))) for _ in range(3)]
            body.append(Op([*self.vec(v, [*rgb, None]), f"setcolor v{v}"]))
        body.append(Op([f"beginprimitive {r.randrange(16)}"]))
        n = r.choices((0, 1, 2, 3, 4), (1, 1, 1, 8, 2))[0]
        for x, y, z in self.triangle(n):
            v = r.choice(GFX_V)
            body.append(Op([*self.vec(v, [None, x, y, z]), f"setvertex v{v}"]))
        if r.random() < 0.9:
            body.append(Op(["endprimitive"]))
        pops = r.choice((0, 1, 1, 2, 3)) if pushes < 15 else r.choice((pushes, pushes + 2, 3))
        body += [Op(["popmatrix"]) for _ in range(pops)]
        if r.random() < 0.3:
            body.append(Op(["draw"]))
        return Gfx(body)

    def triangle(self, n: int) -> list[tuple[float, float, float]]:
        """n vertices around a centre on the screen (x, y in -5..5 model units) or off or across its
        edge; the first three in either winding."""
        r, s = self.r, self.cfg.tri_size
        if r.random() < self.cfg.offscreen:
            cx, cy = r.choice((-1, 1)) * r.uniform(4.5, 8), r.uniform(-7, 7)
            if r.random() < 0.5:
                cx, cy = cy, cx
        else:
            cx, cy = r.uniform(-4.5, 4.5), r.uniform(-4.5, 4.5)
        pts = [(cx + r.uniform(-s, s) / 2, cy + r.uniform(-s, s) / 2, r.choice((r.uniform(-1, 3.5), 0.5, 3.0))) for _ in range(n)]
        if n >= 3:
            # the seed profile covers a pixel when it is left of every edge v0->v1->v2->v0 in screen
            # coordinates (docs/design/lg.md, the `seed` profile's edge functions): cross(v1 - v0, v2 - v0) > 0; a transform
            # with a negative scale turns the order over again
            (x0, y0, _), (x1, y1, _), (x2, y2, _) = pts[:3]
            drawn = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) > 0
            if drawn != (r.random() < self.cfg.winding):
                pts[1], pts[2] = pts[2], pts[1]
        return pts


@dataclass
class Ctx:
    depth: int = 0
    loops: int = 0  # loop levels in use
    in_sub: int | None = None  # the subroutine being generated (None: main)
    nsubs: int = 0


def _block(g: Gen, ctx: Ctx, budget: int) -> list:
    r, cfg = g.r, g.cfg
    items: list = []
    kinds = [k for k, w in cfg.control.items() if w > 0]
    while budget > 0:
        kind = r.choices(kinds, [cfg.control[k] for k in kinds])[0]
        nested = ctx.depth < cfg.depth
        if kind == "if" and nested:
            inner = replace(ctx, depth=ctx.depth + 1)
            n = r.randint(0, max(1, budget // 3))
            then = _block(g, inner, n)
            els = _block(g, inner, r.randint(1, max(1, budget // 4))) if r.random() < 0.4 else None
            br = r.choice(("brn", "brz", "brp", "brnz", "brnp", "brzp", "brnzp"))
            items.append(If(g.insn(ctx, setcc=True), br, then, els))
            budget -= 2 + sum(_count(x) for x in then) + (sum(_count(x) for x in els) if els else 0)
        elif kind == "loop" and nested and ctx.loops < len(COUNTERS) and ctx.in_sub is None:
            inner = replace(ctx, depth=ctx.depth + 1, loops=ctx.loops + 1)
            body = _block(g, inner, r.randint(1, max(1, budget // 2)))
            up = r.random() < 0.5
            back = r.choice(("brn",)) if up else r.choice(("brp", "brnp"))
            items.append(Loop(ctx.loops, r.randint(1, cfg.loop_max), up, back, body))
            budget -= 3 + sum(_count(x) for x in body)
        elif kind == "call" and ctx.nsubs and (ctx.in_sub is None or ctx.in_sub + 1 < ctx.nsubs):
            lo = 0 if ctx.in_sub is None else ctx.in_sub + 1
            sub = r.randrange(lo, ctx.nsubs)
            via = None
            if r.random() < 0.4:
                via = r.choice((*INT_REGS, LINK))
                g.wrote_r(via)
            items.append(Call(sub, via))
            budget -= 2
        elif kind == "jump":
            reg = r.choice(INT_REGS)
            g.wrote_r(reg)
            items.append(Jump(reg, [g.insn(ctx) for _ in range(r.randint(0, 2))]))
            budget -= 2
        elif kind == "gfx":
            gx = g.gfx(ctx)
            items.append(gx)
            budget -= max(3, len(gx.body) // 2)
        else:
            items.append(Op([g.insn(ctx)]))
            budget -= 1
    return items


def _count(it: object) -> int:
    if isinstance(it, Op):
        return len(it.lines)
    if isinstance(it, If):
        return 2 + sum(_count(x) for x in it.then) + (1 + sum(_count(x) for x in it.els) if it.els is not None else 0)
    if isinstance(it, Loop):
        return 3 + sum(_count(x) for x in it.body)
    if isinstance(it, Gfx):
        return sum(_count(x) for x in it.body)
    return 2


def generate(seed: int, cfg: LgConfig, preset: str = "custom") -> LgProg:
    """The program tree of `seed` under `cfg` (the same seed and configuration give the same tree)."""
    r = random.Random(f"randgen-lg:{seed}")
    g = Gen(r, cfg)
    data = [g.imm16() for _ in range(DATA_WORDS)]
    init: list[str] = []
    for reg in (*INT_REGS, *FLOAT_REGS):
        if r.random() < 0.8:  # the others keep their reset value 0
            floaty = reg in FLOAT_REGS
            init.append(f"movi.{'f' if floaty else 'd'} r{reg} {g.float_text(g.imm16()) if floaty else g.int_text(g.imm16())}")
    for v in range(cfg.vregs):
        if r.random() < 0.7:
            init.append(f"vmovi v{v} {g.float_text(g.imm16())}")
            init += [f"vcompmovi v{v} {i} {g.float_text(g.imm16())}" for i in range(4) if r.random() < 0.5]
    nsubs = r.randint(0, cfg.subroutines)
    subs = []
    calls = []
    for i in range(nsubs):
        ctx = Ctx(depth=1, in_sub=i, nsubs=nsubs)
        body = _block(g, ctx, r.randint(1, max(2, cfg.length // 4)))
        subs.append(body)
        calls.append(any(isinstance(x, Call) for x in _walk(body)))
    main = _block(g, Ctx(nsubs=nsubs), cfg.length)
    halt = bool(nsubs) or r.random() < cfg.halt
    return LgProg(seed, preset, data, init, main, subs, calls, halt)


def _walk(items: list) -> Iterator[object]:
    for it in items:
        yield it
        for sub in _sublists(it):
            yield from _walk(sub)


def _sublists(it: object) -> list[list]:
    if isinstance(it, If):
        return [it.then] + ([it.els] if it.els is not None else [])
    if isinstance(it, Loop | Gfx):
        return [it.body]
    return []


# ---------------------------------------------------------------------------------------------
# rendering


class _Out:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.n = 0

    def label(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"

    def insn(self, text: str) -> None:
        self.lines.append("        " + text)

    def at(self, label: str) -> None:
        self.lines.append(f"{label}:")


def _items(items: list, out: _Out, ctx: LgProg) -> None:
    for it in items:
        if isinstance(it, Op):
            for line in it.lines:
                out.insn(line)
        elif isinstance(it, If):
            other, end = out.label("else"), out.label("endif")
            out.insn(it.cond)
            out.insn(f"{it.branch} {other}")  # right after the CC write: the branch reads it from the pipeline
            _items(it.then, out, ctx)
            if it.els is not None:
                out.insn(f"brnzp {end}")  # CC holds one flag after the CC write above: always taken
                out.at(other)
                _items(it.els, out, ctx)
                out.at(end)
            else:
                out.at(other)
        elif isinstance(it, Loop):
            c, top = COUNTERS[it.level], out.label("loop")
            out.insn(f"movi.d r{c} {0 if it.up else it.trips}")
            out.at(top)
            _items(it.body, out, ctx)
            if it.up:
                out.insn(f"addi.d r{c} r{c} 1")
                out.insn(f"cmpi r{c} {it.trips}")
            else:
                out.insn(f"addi.d r{c} r{c} -1")
            out.insn(f"{it.back} {top}")
        elif isinstance(it, Call):
            if it.via is None:
                out.insn(f"jsr sub{it.sub}")
            else:
                out.insn(f"movi.d r{it.via} @sub{it.sub}")
                out.insn(f"jsrr r{it.via}")
        elif isinstance(it, Jump):
            past = out.label("past")
            out.insn(f"movi.d r{it.reg} @{past}")
            out.insn(f"jmp r{it.reg}")
            for line in it.dead:
                out.insn(line)
            out.at(past)
        elif isinstance(it, Gfx):
            _items(it.body, out, ctx)
        else:
            raise AssertionError(f"randgen/lg: no rendering of {type(it).__name__}")


def render(p: LgProg) -> str:
    """The program as .lgs text: header, data region, prologue, main, subroutines."""
    out = _Out()
    head = [f"; randgen LG program: seed {p.seed}, preset {p.preset} (python -m randgen gen --isa lg --seed {p.seed} --preset {p.preset})"]
    for i in range(0, len(p.data), 16):
        chunk = p.data[i : i + 16]
        head.append(f".data {DATA + 2 * i:#06x} " + " ".join(f"{w:#06x}" for w in chunk))
    out.insn(f"movi.d r{BASE} {DATA}")
    for line in p.init:
        out.insn(line)
    _items(p.main, out, p)
    if p.halt:
        out.insn("halt")
    elif not out.lines[-1].startswith(" "):  # a label at the very end would name no instruction
        out.insn(f"mov r0 r{BASE}")
    for i, body in enumerate(p.subs):
        out.at(f"sub{i}")
        if p.calls[i]:
            out.insn(f"stw r{LINK} r{BASE} {SAVE + 2 * i}")
        _items(body, out, p)
        if p.calls[i]:
            out.insn(f"ldw r{LINK} r{BASE} {SAVE + 2 * i}")
        out.insn("ret")
    return "\n".join(head + _resolve(out.lines)) + "\n"


def _resolve(lines: list[str]) -> list[str]:
    """`@label` operands (a movi.d of an address for jmp/jsrr) as the label's byte address: every
    instruction line is one word at 4 x its index (the seed profile's byte PC)."""
    where: dict[str, int] = {}
    index = 0
    for line in lines:
        if line.startswith(" "):
            index += 1
        else:
            where[line[:-1]] = 4 * index
    out = []
    for line in lines:
        if "@" in line:
            head, _, name = line.rpartition("@")
            line = f"{head}{where[name]}"
        out.append(line)
    return out


def instructions(text: str) -> int:
    return sum(1 for ln in text.splitlines() if ln.startswith(" ") and ln.strip())


# ---------------------------------------------------------------------------------------------
# shrinking


def _children(it: object) -> Iterator[tuple[str, list]]:
    if isinstance(it, If):
        yield "then", it.then
        if it.els is not None:
            yield "els", it.els
    elif isinstance(it, Loop | Gfx):
        yield "body", it.body


def size(p: LgProg) -> int:
    """Items of the random part (an Op one, a structure two), what the shrinker minimises; the prologue counts its lines."""
    return len(p.init) + items_size(p, _children, Op)


def _flat(it: object) -> list | None:
    if isinstance(it, If):
        return [*it.then, *(it.els or [])]
    if isinstance(it, Loop | Gfx):
        return list(it.body)
    return None


def candidates(p: LgProg) -> Iterator[LgProg]:
    """Smaller programs as legal as `p`: subroutines emptied, chunks of every list removed (halves,
    quarters, ..., single items), structures replaced by their bodies, loops with one trip, else
    parts and dead code dropped, the prologue cut."""
    for j, sub in enumerate(p.subs):
        if sub:
            q = copy.deepcopy(p)
            q.subs[j], q.calls[j] = [], False
            yield q
    yield from without_chunks(p, _children)
    for path, items in list(tree_lists(p, _children)):
        for i, it in enumerate(items):
            flat = _flat(it)
            if flat is not None:
                yield edited(p, path, lambda xs, i=i, f=flat: xs[:i] + copy.deepcopy(f) + xs[i + 1 :])
            if isinstance(it, Loop) and it.trips > 1:
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], trips=1), *xs[i + 1 :]])
            if isinstance(it, If) and it.els is not None:
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], els=None), *xs[i + 1 :]])
            if isinstance(it, Jump) and it.dead:
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], dead=[]), *xs[i + 1 :]])
    for start, chunk in chunk_spans(len(p.init)):
        yield replace(p, init=p.init[:start] + p.init[start + chunk :])
