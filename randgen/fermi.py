"""Constrained-random Fermi (sm_20) programs in CUDA 5 cuobjdump text, legal and terminating by construction.

A program is generated as a tree (`FermiProg`: launch, main block and subroutines; blocks of `Op`,
`If`, `Loop`, `Call`, `Pret`, `Exit` and `Bar` items) and rendered as a program of programs/fermi's
format (golden/fermi/program.py). The shrinker (randgen/shrink.py) edits the tree through
`candidates`, so every program it tries is as legal as the generator's.

Where the instructions come from: every form of the encoding table (golden/fermi/table.py) whose
family belongs to a class with a weight in the mix. Its field values are drawn per field (each
modifier over the values the table allows, each operand per kind), the word is encoded by the
table and printed by the disassembler (golden/fermi/disasm.py), so no instruction spelling is
written here. The only hand-written text is the scaffolding: prologue, loops, if/else, calls,
exits and barriers.

Resources (what keeps a program legal and its run bounded):

- R1 holds threadIdx.x and R2:R3 the 64-bit address of the thread's slot of the `data` buffer from
  the prologue on; R4 and R5 the byte offsets of the thread's shared slot and of its neighbour's
  (tid ^ 1: blocks have an even thread count); R6/R7 are the counters and R60/R61 the trip limits
  of loops at nesting levels 0 and 1. No random instruction writes them; random code writes the
  data registers R8.. and the register file's ends R0 and R62 (and RZ);
- 64- and 128-bit operands (FP64, .64/.128 accesses, 64-bit conversions and atomics) take
  registers that are multiples of 4 among the data registers, so every pair and quad is aligned;
- memory: global accesses stay in the thread's slot of `data` (store_bytes), shared ones in the
  thread's slot (loads also in the neighbour's, after a barrier), local ones below local_bytes,
  constant loads in bank 2's `.const` words; every offset is aligned to its size;
- control: if/else under SSY whose parts end in an instruction carrying .S; loops under PBK left
  by a guarded BRK at the top (each thread's trip count differs with its tid), optionally under
  PCNT with a guarded CONT in the body; calls of later subroutines only (no recursion), early RET
  under a guard; PRET regions; guarded EXIT at the top of main and inside if/else parts; BAR only
  at the top level of main, where every warp arrives converged.
- modifiers the model refuses as not modelled (docs/design/fermi-model.md, "Not modelled") are
  never drawn: REFUSED below.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from golden.fermi.asm import encode
from golden.fermi.coverage import NOT_MODELLED
from golden.fermi.disasm import render_word
from golden.fermi.table import BY_NAME, FORMS, Form, Opd

from .config import Knobs
from .shrink import chunk_spans, edited, items_size, tree_lists, without_chunks

# Instruction classes of the mix: the table's families each class draws its forms from.
CLASSES: dict[str, tuple[str, ...]] = {
    "int": ("IADD", "ISCADD", "IMUL", "IMAD", "ISETP", "ISET", "ICMP", "IMNMX", "SHL", "SHR", "LOP", "BFE", "BFI", "FLO", "ISAD",
            "POPC", "SEL", "PRMT"),
    "fp32": ("FADD", "FMUL", "FFMA", "FSETP", "FSET", "FMNMX", "MUFU", "RRO"),
    "fp64": ("DADD", "DMUL", "DFMA", "DSETP", "DSET", "DMNMX"),
    "convert": ("F2F", "F2I", "I2F", "I2I"),
    "predicate": ("PSETP", "PSET", "CSETP", "P2R", "R2P"),
    "move": ("MOV", "S2R"),
    "vote": ("VOTE",),
    "misc": ("NOP", "MEMBAR"),
    "global": ("LD", "LDU", "ST", "CCTL"),
    "atomic": ("ATOM", "RED"),
    "shared": ("LDS", "STS"),
    "local": ("LDL", "STL"),
    "const": ("LDC",),
}  # fmt: skip
DEFAULT_MIX: dict[str, float] = {"int": 5, "fp32": 3, "fp64": 1.5, "convert": 1.5, "predicate": 1, "move": 1.5, "vote": 0.3, "misc": 0.2,
                                 "global": 1.5, "atomic": 0.5, "shared": 1, "local": 0.8, "const": 0.4}  # fmt: skip
# Items of a block: plain instructions, if/else, loops, calls, PRET regions, guarded exits, barrier exchanges
DEFAULT_CONTROL: dict[str, float] = {"ops": 8, "if": 2, "loop": 1.2, "call": 0.8, "pret": 0.3, "exit": 0.4, "bar": 0.5}

# Modifier spellings the model refuses by name (docs/design/fermi-model.md, "Not modelled"), by family
REFUSED = NOT_MODELLED
WIDE_SPELLINGS = frozenset({"64", "128", "F64", "U64", "S64"})
WIDE_FAMILIES = frozenset({"DADD", "DMUL", "DFMA", "DSETP", "DSET", "DMNMX"})
SIZE = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "": 4, "64": 8, "128": 16}

TID, LO, HI, OWN, NEXT = 1, 2, 3, 4, 5  # reserved registers (module docstring)
COUNTERS, LIMITS = (6, 7), (60, 61)
FIRST_DATA = 8
CONST_BANK, CONST_WORDS = 2, 64  # bank 2: the program's special words
SREGS = (0, 33, 34, 35, 37, 38, 39, 41, 42, 43, 44, 45, 46, 47, 50, 56, 57, 58, 59, 60)  # the special registers S2R draws
# 32-bit edge values: zero, one, signs' edges, and float specials (infinities, NaN, denormals, 1.0, -0)
SPECIALS = [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x80000001, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FFFFFFF, 0x00000001, 0x807FFFFF,
            0x3F800000, 0xBF800000, 0x00800000, 0x4B000000, 0x4F000000, 0xCF000000, 0x0000FFFF, 0xFFFF0000, 0x00000020, 0x0000001F]  # fmt: skip


@dataclass(frozen=True)
class FermiConfig(Knobs):
    """The Fermi generator's knobs (docs/guides/random.md, "Fermi programs"); presets below."""

    grid_max: int = 3  # blocks in x, drawn from 1..grid_max
    threads_max: int = 96  # threads per block, an even number drawn from 2..threads_max
    length: int = 40  # random items in the main body (about)
    depth: int = 2  # nesting depth of control structures (loops at most 2 deep: two counters)
    loop_max: int = 3  # a thread's trip count is (tid & loop_max) + 0 or 1: a mask
    subroutines: int = 2  # at most this many subroutines
    data_regs: int = 16  # data registers R8.. that random code writes (a multiple of 4)
    raw: float = 0.5  # probability that a source is a register written by one of the last few instructions
    special: float = 0.4  # probability that an immediate is an edge value
    guard: float = 0.25  # probability that a random instruction carries a guard
    marked_join: float = 0.3  # probability that an if/else part ends in a random instruction carrying .S (else NOP.S)
    exit_depth: float = 0.2  # probability that an if/else part holds a guarded EXIT
    cont: float = 0.5  # probability that a loop's body runs under PCNT with a guarded CONT
    early_break: float = 0.3  # probability that a loop's body has a guarded BRK besides the one at the top
    early_ret: float = 0.3  # probability that a subroutine has a guarded RET in its body
    store_bytes: int = 64  # bytes of each thread's slot of `data` (global accesses), and of its shared slot
    local_bytes: int = 64  # local bytes per thread that accesses reach
    mix: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))
    control: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_CONTROL))

    def check(self) -> None:
        if not 1 <= self.grid_max <= 64:
            raise ValueError(f"grid_max {self.grid_max} out of 1..64")
        if not 2 <= self.threads_max <= 1024:
            raise ValueError(f"threads_max {self.threads_max} out of 2..1024")
        if not 1 <= self.length <= 2000:
            raise ValueError(f"length {self.length} out of 1..2000")
        if not 0 <= self.depth <= 4:
            raise ValueError(f"depth {self.depth} out of 0..4")
        if self.loop_max not in (0, 1, 3, 7, 15):
            raise ValueError(f"loop_max {self.loop_max} must be 0, 1, 3, 7 or 15 (a mask of tid)")
        if not 0 <= self.subroutines <= 8:
            raise ValueError(f"subroutines {self.subroutines} out of 0..8")
        if self.data_regs % 4 or not 4 <= self.data_regs <= LIMITS[0] - FIRST_DATA:
            raise ValueError(
                f"data_regs {self.data_regs} must be a multiple of 4 in 4..{LIMITS[0] - FIRST_DATA} (R{LIMITS[0]}, R{LIMITS[1]} are the loops')"
            )
        if self.store_bytes not in (16, 32, 64, 128, 256):
            raise ValueError(f"store_bytes {self.store_bytes} must be 16, 32, 64, 128 or 256")
        if self.local_bytes % 16 or not 16 <= self.local_bytes <= 0x1000:
            raise ValueError(f"local_bytes {self.local_bytes} must be a multiple of 16 in 16..4096")
        for name in ("raw", "special", "guard", "marked_join", "exit_depth", "cont", "early_break", "early_ret"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} {getattr(self, name)} is a probability: 0..1")
        for name in ("mix", "control"):
            if any(w < 0 for w in getattr(self, name).values()) or not any(getattr(self, name).values()):
                raise ValueError(f"{name}: weights are >= 0 and at least one is > 0")


PRESETS: dict[str, dict] = {
    "default": {},
    # short programs in small grids: what the tests run
    "ci": {"length": 16, "grid_max": 2, "threads_max": 64, "subroutines": 1},
    # integer and FP32 heavy, many edge values
    "int": {"special": 0.6, "mix": {"int": 10, "fp32": 1, "fp64": 0.5, "convert": 1, "predicate": 2}},
    "fp": {"special": 0.7, "mix": {"int": 1, "fp32": 8, "fp64": 4, "convert": 4}},
    # memory heavy: every space, atomics, barrier exchanges
    "memory": {"mix": {"global": 5, "atomic": 2, "shared": 4, "local": 3, "const": 2, "int": 2}, "control": {"bar": 2}},
    # deep control: nested loops and ifs, more calls, exits inside divergence
    "control": {
        "depth": 4,
        "loop_max": 7,
        "subroutines": 4,
        "exit_depth": 0.5,
        "cont": 0.7,
        "early_break": 0.5,
        "early_ret": 0.5,
        "control": {"ops": 4, "if": 3, "loop": 2, "call": 2, "pret": 1, "exit": 1, "bar": 0.5},
    },
    # many warps: large blocks, several blocks
    "many-warps": {"grid_max": 4, "threads_max": 512, "length": 24},
    # what `make bench ISA=fermi` times: long bodies repeated by loops, few early exits
    "bench": {"length": 300, "loop_max": 7, "grid_max": 2, "threads_max": 128, "exit_depth": 0.0, "control": {"exit": 0.05, "loop": 2}},
}


# ---------------------------------------------------------------------------------------------
# the program tree


@dataclass
class Op:
    lines: list[str]  # instructions that stay together


@dataclass
class If:
    setp: str  # the predicate-writing instruction the branch reads
    pred: str  # the branch's guard, "P1" or "!P1"
    then: list
    els: list
    marks: tuple[str | None, str | None]  # the instruction carrying .S at the end of each part (None: NOP.S)


@dataclass
class Loop:
    level: int  # counter COUNTERS[level], limit LIMITS[level]
    mask: int  # trips: (tid & mask) + extra
    extra: int
    body: list
    cont: str | None = None  # the guard of a CONT after the body's first third (None: no PCNT)
    brk: str | None = None  # the guard of a BRK after its second third (None: none)


@dataclass
class Call:
    sub: int


@dataclass
class Pret:
    body: list


@dataclass
class Exit:
    pred: str


@dataclass
class Ret:
    pred: str


@dataclass
class Bar:
    store: str  # STS of the thread's own slot before the barrier
    load: str  # LDS of the neighbour's slot after it


@dataclass
class FermiProg:
    seed: int
    preset: str
    grid: int
    block: int
    store_bytes: int
    consts: list[int]
    init: list[str]  # prologue: data register values
    main: list
    subs: list[list]


# ---------------------------------------------------------------------------------------------
# drawing


def _forms_by_class() -> dict[str, list[Form]]:
    """The table's forms by class, those of families the model executes (a program is checked on the model alone)."""
    from golden.fermi.model import ROUTINES

    out: dict[str, list[Form]] = {c: [] for c in CLASSES}
    for f in FORMS:
        if f.family not in ROUTINES:
            continue
        for c, fams in CLASSES.items():
            if f.family in fams:
                out[c].append(f)
    return out


BY_CLASS = _forms_by_class()


class Gen:
    def __init__(self, r: random.Random, cfg: FermiConfig) -> None:
        self.r, self.cfg = r, cfg
        self.data = list(range(FIRST_DATA, FIRST_DATA + cfg.data_regs))
        self.wide = [x for x in self.data if x % 4 == 0]
        self.recent: list[int] = []

    # -- values and registers ----------------------------------------------------------------------

    def word32(self) -> int:
        r = self.r
        if r.random() < self.cfg.special:
            return r.choice(SPECIALS)
        return r.choice((r.getrandbits(32), r.randrange(-64, 65) & 0xFFFFFFFF, r.getrandbits(12)))

    def imm20(self, kind: str) -> int:
        r = self.r
        if r.random() < self.cfg.special:
            if kind in ("f", "d"):  # the top 20 bits of a float: zero, one, two, signs, infinity, NaN
                return r.choice((0, 0x3F800, 0x40000, 0xBF800, 0x80000, 0x7F800, 0xFF800, 0x7FC00, 0x3FF00, 0xFFFFF))
            return r.choice((0, 1, 0x7FFFF, 0x80000, 0xFFFFF, 0x1F, 0x20, 0xFFFF))
        return r.choice((r.getrandbits(20), r.randrange(0, 64), r.randrange(-32, 0) & 0xFFFFF))

    def src(self, wide: bool) -> int:
        r = self.r
        if wide:
            return r.choice(self.wide)
        if self.recent and r.random() < self.cfg.raw:
            return self.recent[-1] if r.random() < 0.6 else r.choice(self.recent[-3:])
        x = r.random()
        if x < 0.06:
            return 63  # RZ
        if x < 0.14:
            return r.choice((0, 62, 0, 62, TID, LO, OWN))  # the ends of the register file and the reserved ones are read too
        return r.choice(self.data)

    def dst(self, wide: bool) -> int:
        r = self.r
        if wide:
            return r.choice(self.wide)
        x = r.random()
        if x < 0.08:
            return r.choice((0, 62))
        if x < 0.11:
            return 63
        return r.choice(self.data)

    def wrote(self, d: int) -> None:
        if d < 63:
            self.recent = [*self.recent[-3:], d]

    def pred(self, dst: bool = False) -> int:
        r = self.r
        if r.random() < 0.12:
            return 7  # PT
        return r.randrange(0, 7) if not dst else r.randrange(0, 6)

    def guard(self) -> str:
        """A scaffolding guard: P6 is the loop test's, the other predicates are random code's."""
        p = self.r.randrange(0, 6)
        return f"{'!' if self.r.random() < 0.4 else ''}P{p}"

    # -- one instruction from the table ----------------------------------------------------------

    def mods(self, form: Form, f: dict[str, int]) -> bool:
        """Draw the modifier fields; whether the instruction has 64- or 128-bit operands."""
        r = self.r
        refused = REFUSED.get(form.family, frozenset())
        wide = form.family in WIDE_FAMILIES
        for m in form.mods:
            if m.field == "s":
                continue
            choices = [v for v, s in m.values.items() if not set(s.split(".")) & refused]
            if m.field in f and f[m.field] in choices:  # already fixed by the caller
                v = f[m.field]
            else:
                v = r.choice(choices)
            f[m.field] = v
            wide = wide or bool(set(m.values[v].split(".")) & WIDE_SPELLINGS)
        if form.family in ("ATOM", "RED") and f.get("aop") not in (0, 8, 9):
            f["atype"] = r.choice((4, 7))  # 64-bit and float data only with ADD, EXCH and CAS (PTX atom's types)
            wide = False
        return wide

    def insn(self, form: Form, sync: bool = False, guarded: bool | None = None) -> str:
        """One instruction of `form` with drawn fields, as the disassembler prints it."""
        r, cfg = self.r, self.cfg
        f: dict[str, int] = {}
        wide = self.mods(form, f)
        f["s"] = 1 if sync else 0
        if form.guarded and (guarded if guarded is not None else r.random() < cfg.guard):
            f["guard"], f["gneg"] = self.pred(), int(r.random() < 0.4)
        else:
            f["guard"] = 7
        for name, ok in form.extra:
            f[name] = r.choice(ok)
        three = any(o.kind == "c" for o in form.operands)
        wrote = None
        for o in form.operands:
            for flag_name in (o.neg, o.abs):
                if flag_name:
                    f[flag_name] = int(r.random() < 0.25)
            if o.cc:
                f[o.cc] = int(r.random() < 0.2)
            if o.not_:
                f[o.not_] = int(r.random() < 0.3)
            self.operand(form, o, f, wide, three)
            if o.kind == "r" and o.dst:
                wrote = f[o.field]
        if wrote is not None:
            self.wrote(wrote)
        return render_word(encode(form, f))

    def operand(self, form: Form, o: Opd, f: dict[str, int], wide: bool, three: bool) -> None:
        r = self.r
        k = o.kind
        if k == "r":
            f[o.field] = self.dst(wide) if o.dst else self.src(wide)
        elif k == "b":
            sel = r.choices((0, 1, 2, 3), (5, 2, 1 if three else 0, 3))[0]
            f["sel"] = sel
            if sel in (0, 2):
                reg = self.src(wide)
                if sel == 0:
                    f["imm20"] = reg
                else:
                    f["rc"] = reg
            if sel in (1, 2):
                f["imm20"] = self.const(8 if wide else 4)
            if sel == 3:
                f["imm20"] = self.imm20(o.imm)
        elif k == "c":
            if f.get("sel") != 2:
                f["rc"] = self.src(wide)
        elif k == "i32":
            f["imm32"] = self.word32()
        elif k == "p":
            f[o.field] = self.pred(o.dst)
        elif k == "sr":
            f["sr"] = r.choice(SREGS)
        elif k == "n":
            f[o.field] = r.randrange(0, 32) if o.field == "shift5" else r.choice((0, r.getrandbits(16)))
        elif k == "cc" and o.field:
            f[o.field] = r.randrange(0, 32) if form.family == "NOP" else 15
        elif k in ("g", "sl", "a", "cm"):
            self.address(form, o, f)
        elif k in ("cc", "pr", "t"):
            pass
        else:
            raise AssertionError(f"randgen/fermi: no operand drawing for kind {k} of {form.name}")

    def const(self, align: int) -> int:
        """A constant operand's bank and offset (imm20: bank << 16 | offset): bank 2's words, the
        launch's dimensions in bank 0, or bank 1 around the stack pointer."""
        r = self.r
        x = r.random()
        if x < 0.15 and align == 4:
            return 0 << 16 | r.randrange(0x8, 0x20, 4)
        if x < 0.25:
            return 1 << 16 | r.randrange(0xF0, 0x110, align)
        return CONST_BANK << 16 | r.randrange(0, CONST_WORDS * 4, align)

    def size_of(self, form: Form, f: dict[str, int]) -> int:
        for m in form.mods:
            if m.field == "ldty":
                return SIZE[m.values[f["ldty"]]]
        if form.family in ("ATOM", "RED"):
            return 8 if f.get("atype") == 5 else 4
        return 4

    def address(self, form: Form, o: Opd, f: dict[str, int]) -> None:
        r, cfg = self.r, self.cfg
        size = self.size_of(form, f)
        if o.kind == "g":
            f["ra"] = LO
            if form.family == "CCTL":
                f["b7_5"] = r.choice((0, 1, 2, 3))  # query and prefetch: no write-back or invalidate of a line other threads share
            f["goff"] = r.randrange(0, cfg.store_bytes, size)  # .E reads the 64-bit pair R2:R3, else R2 alone (global memory is below 4 GiB)
        elif o.kind == "a":
            f["ra"] = LO
            f["aoff"] = r.randrange(0, cfg.store_bytes, size)
            f["b58"] = 1
        elif o.kind == "sl" and form.family in ("LDS", "STS"):
            f["ra"] = NEXT if form.family == "LDS" and r.random() < 0.3 else OWN
            f["soff"] = r.randrange(0, cfg.store_bytes, size)
        elif o.kind == "sl":
            f["ra"] = 63
            f["soff"] = r.randrange(0, cfg.local_bytes, size)
        else:  # LDC: bank 2's words through RZ
            f["ra"], f["lbank"] = 63, CONST_BANK
            f["loff"] = r.randrange(0, CONST_WORDS * 4, size)

    def random_op(self, sync: bool = False) -> str:
        r, cfg = self.r, self.cfg
        classes = [c for c in CLASSES if cfg.mix.get(c, 0) > 0 and BY_CLASS[c]]
        if sync:  # a join mark rides on an instruction that does not itself change control or memory
            classes = [c for c in classes if c in ("int", "fp32", "move", "predicate")]
        cls = r.choices(classes, [cfg.mix[c] for c in classes])[0] if classes else "int"
        form = r.choice(BY_CLASS[cls])
        return self.insn(form, sync=sync)

    def setp(self) -> tuple[str, int]:
        """An instruction that writes a predicate the next branch reads, and that predicate."""
        form = BY_NAME[self.r.choice(("ISETP", "ISETP", "FSETP", "DSETP", "PSETP"))]
        for _ in range(20):
            text = self.insn(form, guarded=False)
            p = text.split()[1].rstrip(",")
            if p.startswith("P") and p != "PT":
                return text, int(p[1])
        return "ISETP.NE.AND P0, PT, R0, RZ, PT", 0


@dataclass
class Ctx:
    depth: int = 0
    loops: int = 0
    in_sub: int | None = None
    in_pret: bool = False
    nsubs: int = 0


def _block(g: Gen, ctx: Ctx, budget: int) -> list:
    r, cfg = g.r, g.cfg
    items: list = []
    kinds = [k for k, w in cfg.control.items() if w > 0]
    while budget > 0:
        kind = r.choices(kinds, [cfg.control[k] for k in kinds])[0]
        nested = ctx.depth < cfg.depth
        top = ctx.depth == 0 and ctx.in_sub is None
        if kind == "if" and nested:
            inner = replace(ctx, depth=ctx.depth + 1)
            setp, p = g.setp()
            pred = f"{'!' if r.random() < 0.5 else ''}P{p}"
            then = _block(g, inner, r.randint(0, max(1, budget // 3)))
            els = _block(g, inner, r.randint(0, max(1, budget // 4))) if r.random() < 0.6 else []
            for part in (then, els):
                if ctx.in_sub is None and not ctx.in_pret and r.random() < cfg.exit_depth:
                    part.insert(r.randint(0, len(part)), Exit(g.guard()))
            marks = tuple(g.random_op(sync=True) if r.random() < cfg.marked_join else None for _ in range(2))
            items.append(If(setp, pred, then, els, marks))  # type: ignore[arg-type]
            budget -= 4 + _count(then) + _count(els)
        elif kind == "loop" and nested and ctx.loops < len(COUNTERS) and ctx.in_sub is None and not ctx.in_pret:
            inner = replace(ctx, depth=ctx.depth + 1, loops=ctx.loops + 1)
            body = _block(g, inner, r.randint(1, max(1, budget // 2)))
            cont = g.guard() if r.random() < cfg.cont else None
            brk = g.guard() if r.random() < cfg.early_break else None
            items.append(Loop(ctx.loops, cfg.loop_max, r.randint(0, 1), body, cont, brk))
            budget -= 8 + _count(body)
        elif kind == "call" and ctx.nsubs and (ctx.in_sub is None or ctx.in_sub + 1 < ctx.nsubs):
            lo = 0 if ctx.in_sub is None else ctx.in_sub + 1
            items.append(Call(r.randrange(lo, ctx.nsubs)))
            budget -= 1
        elif kind == "pret" and nested and not ctx.in_pret:
            inner = replace(ctx, depth=ctx.depth + 1, in_pret=True)
            items.append(Pret(_block(g, inner, r.randint(1, max(1, budget // 3)))))
            budget -= 3
        elif kind == "exit" and top:
            items.append(Exit(g.guard()))
            budget -= 1
        elif kind == "bar" and top:
            a, b = g.r.choice(g.data), g.r.choice(g.data)
            off = r.randrange(0, cfg.store_bytes, 4)
            items.append(Bar(f"STS [R{OWN}+{off:#x}], R{a}", f"LDS R{b}, [R{NEXT}+{off:#x}]"))
            budget -= 3
        else:
            items.append(Op([g.random_op()]))
            budget -= 1
    return items


def _count(items: list) -> int:
    n = 0
    for it in items:
        if isinstance(it, Op):
            n += len(it.lines)
        elif isinstance(it, If):
            n += 5 + _count(it.then) + _count(it.els)
        elif isinstance(it, Loop):
            n += 8 + _count(it.body)
        elif isinstance(it, Pret):
            n += 2 + _count(it.body)
        else:
            n += 2
    return n


def generate(seed: int, cfg: FermiConfig, preset: str = "custom") -> FermiProg:
    """The program tree of `seed` under `cfg` (the same seed and configuration give the same tree)."""
    r = random.Random(f"randgen-fermi:{seed}")
    g = Gen(r, cfg)
    grid = r.randint(1, cfg.grid_max)
    block = 2 * r.randint(1, cfg.threads_max // 2)
    consts = [g.word32() for _ in range(CONST_WORDS)]
    init: list[str] = []
    for reg in g.data:
        x = r.random()
        if x < 0.7 or reg == g.data[0]:  # the thread's own random words: values, and so predicates and branches, differ by lane
            init.append(f"LD.E R{reg}, [R{LO}+{4 * r.randrange(cfg.store_bytes // 4):#x}]")
        elif x < 0.9:
            init.append(f"MOV32I R{reg}, {g.word32():#x}")
    # P0-P5 from the bits of a random word of the thread's: guards differ by lane from the start
    init.append(f"R2P PR, R{g.data[0]}, 0x3f")
    nsubs = r.randint(0, cfg.subroutines)
    subs = []
    for i in range(nsubs):
        body = _block(g, Ctx(depth=1, in_sub=i, nsubs=nsubs), r.randint(1, max(2, cfg.length // 4)))
        if r.random() < cfg.early_ret:
            body.insert(r.randint(0, len(body)), Ret(g.guard()))
        subs.append(body)
    main = _block(g, Ctx(nsubs=nsubs), cfg.length)
    return FermiProg(seed, preset, grid, block, cfg.store_bytes, consts, init, main, subs)


# ---------------------------------------------------------------------------------------------
# rendering


class _Out:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.n = 0

    def label(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"

    def insn(self, text: str, guard: str = "") -> None:
        if text.startswith("@"):  # a drawn instruction's guard, as the disassembler prints it
            guard, text = text[1:].split(None, 1)
        head = f"@{guard}" if guard else ""
        self.lines.append(f"        {head:6}{text};")

    def at(self, label: str) -> None:
        self.lines.append(f"{label}:")


def _items(items: list, out: _Out) -> None:
    for it in items:
        if isinstance(it, Op):
            for line in it.lines:
                out.insn(line)
        elif isinstance(it, If):
            other, join = out.label("else"), out.label("join")
            out.insn(it.setp)
            out.insn(f"SSY {join}")
            out.insn(f"BRA {other}", it.pred)
            for part, mark, end in ((it.then, it.marks[0], other), (it.els, it.marks[1], join)):
                _items(part, out)
                out.insn(mark or "NOP.S")
                out.at(end)
        elif isinstance(it, Loop):
            c, lim = COUNTERS[it.level], LIMITS[it.level]
            top, nxt, brk = out.label("loop"), out.label("next"), out.label("brk")
            out.insn(f"LOP.AND R{lim}, R{TID}, {it.mask:#x}")
            out.insn(f"IADD R{lim}, R{lim}, {it.extra:#x}")  # trips: (tid & mask) + extra
            out.insn(f"MOV R{c}, RZ")
            out.insn(f"PBK {brk}")
            out.at(top)
            out.insn(f"ISETP.GE.AND P6, PT, R{c}, R{lim}, PT")
            out.insn("BRK", "P6")
            if it.cont is not None:
                out.insn(f"PCNT {nxt}")
            third = len(it.body) // 3
            _items(it.body[:third], out)
            if it.cont is not None:
                out.insn("CONT", it.cont)
            _items(it.body[third : 2 * third], out)
            if it.brk is not None:
                out.insn("BRK", it.brk)
            _items(it.body[2 * third :], out)
            if it.cont is not None:
                out.insn("CONT")
            out.at(nxt)
            out.insn(f"IADD R{c}, R{c}, 0x1")
            out.insn(f"BRA {top}")
            out.at(brk)
        elif isinstance(it, Call):
            out.insn(f"CAL sub{it.sub}")
        elif isinstance(it, Pret):
            after = out.label("pret")
            out.insn(f"PRET {after}")
            _items(it.body, out)
            out.insn("RET")
            out.at(after)
        elif isinstance(it, Exit):
            out.insn("EXIT", it.pred)
        elif isinstance(it, Ret):
            out.insn("RET", it.pred)
        elif isinstance(it, Bar):
            out.insn(it.store)
            out.insn("BAR.RED.POPC RZ, RZ")
            out.insn(it.load)
        else:
            raise AssertionError(f"randgen/fermi: no rendering of {type(it).__name__}")


def render(p: FermiProg) -> str:
    """The program as programs/fermi text: header, directives, prologue, main, subroutines."""
    words = p.grid * p.block * p.store_bytes // 4
    head = [
        f"// randgen Fermi program: seed {p.seed}, preset {p.preset} (python -m randgen gen --isa fermi --seed {p.seed} --preset {p.preset})",
        f".grid {p.grid}",
        f".block {p.block}",
        ".registers 63",
        f".shared {p.block * p.store_bytes}",
        f".buffer data u32 {words} = random({p.seed})",
        ".param data",
        f".const {CONST_BANK} 0x0 u32 " + " ".join(f"{w:#x}" for w in p.consts),
        "",
    ]
    out = _Out()
    shift = p.store_bytes.bit_length() - 1
    for line in (
        f"S2R R{TID}, SR_TID.X",
        f"S2R R{OWN}, SR_CTAID.X",
        f"IMAD R{OWN}, R{OWN}, c[0x0][0x8], R{TID}",  # the thread's index in the grid
        f"ISCADD R{LO}.CC, R{OWN}, c[0x0][0x20], {shift:#x}",
        f"IADD.X R{HI}, RZ, c[0x0][0x24]",  # R2:R3 = data + index * store_bytes
        f"SHL R{OWN}, R{TID}, {shift:#x}",
        f"LOP.XOR R{NEXT}, R{TID}, 0x1",
        f"SHL R{NEXT}, R{NEXT}, {shift:#x}",
    ):
        out.insn(line)
    for line in p.init:
        out.insn(line)
    _items(p.main, out)
    out.insn("EXIT")
    for i, body in enumerate(p.subs):
        out.at(f"sub{i}")
        _items(body, out)
        out.insn("RET")
    return "\n".join(head + out.lines) + "\n"


def instructions(text: str) -> int:
    """Instruction lines of a rendered program (not directives, comments or labels)."""
    return sum(1 for ln in text.splitlines() if ln.startswith(" ") and ln.strip())


# ---------------------------------------------------------------------------------------------
# shrinking


def _children(it: object) -> Iterator[tuple[str, list]]:
    if isinstance(it, If):
        yield "then", it.then
        yield "els", it.els
    elif isinstance(it, Loop | Pret):
        yield "body", it.body


def size(p: FermiProg) -> int:
    """Items of the random part (an Op one, a structure two) and the prologue's lines: what the shrinker minimises."""
    return len(p.init) + items_size(p, _children, Op)


def _flat(it: object) -> list | None:
    if isinstance(it, If):
        return [*it.then, *it.els]
    if isinstance(it, Loop | Pret):
        return [x for x in it.body if not isinstance(x, Exit | Ret)] if isinstance(it, Pret) else list(it.body)
    return None


def candidates(p: FermiProg) -> Iterator[FermiProg]:
    """Smaller programs as legal as `p`: subroutines emptied, chunks of every list removed (halves,
    quarters, ..., single items), structures replaced by their bodies, loops of one trip without
    CONT or early BRK, a smaller launch, the prologue cut."""
    for j, sub in enumerate(p.subs):
        if sub:
            q = copy.deepcopy(p)
            q.subs[j] = []
            yield q
    if p.grid > 1:
        yield replace(p, grid=1)
    if p.block > 2:
        yield replace(p, block=max(2, p.block // 2 // 2 * 2))
    yield from without_chunks(p, _children)
    for path, items in list(tree_lists(p, _children)):
        for i, it in enumerate(items):
            flat = _flat(it)
            if flat is not None and (path[0] == "main" or not any(isinstance(x, Exit) for x in flat)):
                yield edited(p, path, lambda xs, i=i, f=flat: xs[:i] + copy.deepcopy(f) + xs[i + 1 :])
            if isinstance(it, Loop) and (it.cont or it.brk or it.mask or it.extra != 1):
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], cont=None, brk=None, mask=0, extra=1), *xs[i + 1 :]])
            if isinstance(it, If) and any(it.marks):
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], marks=(None, None)), *xs[i + 1 :]])
    for start, chunk in chunk_spans(len(p.init)):
        yield replace(p, init=p.init[:start] + p.init[start + chunk :])
