"""Constrained-random SIMT programs for the G80 SM, legal, terminating and race-free by construction.

A program is generated as a tree (`Prog`: launch, main block, subroutines; blocks of `Op`, `If`,
`Loop`, `Break`, `Call`, `Ret`, `Exchange`, `Exit` items) and rendered to the project's program
format (golden/g80/program.py). The shrinker edits the tree, so every program it tries is as legal as
the generator's.

Where the instructions come from: every non-control, non-texture form of the encoding table
(golden/g80/table.py) whose family has a weight in the mix. Its fields are drawn at random (every
modifier group, guard condition and register, `$c` write, `o[0x7f]`, `$a` and post-increment,
constant and shared operands, immediates biased to special values), the word is decoded by the
table, and the decoded operands are checked against the program's resources (below); a draw that
fails the check is drawn again. No instruction spelling is written by hand except the fixed
scaffolding (prologue, address arithmetic, control flow, dump).

Resources, per thread (what makes the program legal and race-free):
- registers: R0 (tid, launch value, read only), R1 (own slot of `out`), data registers R2..RD
  (the only ones random code writes), then RI (`in` base), RT and RV (scratch of the templates),
  one loop counter per nesting level;
- shared memory: bytes 0..0x27 header and parameters (read only), then one slot of S bytes per
  thread at SBASE + S * ltid, held in A1. Random code reads and writes only its own slot
  (`g[A1+off]`, or `g[A2...]` right after `ADA A2, A1, 0x0` for post-increment); an `Exchange` at
  the top level of the main block reads the slot of thread (ltid + k) mod n between two BARs;
- local memory: bytes 0..L, written in the prologue before any read;
- global memory: `in` and `spec` are read only (any element), `out` holds one slot per thread:
  the dump of every data register, the four `$c` registers, A1-A3, the shared slot and the local
  bytes, then the words random stores write. Every computed value ends up there;
- constant banks 0 and 1 (512 bytes each, special values), `$a` never used to address them;
- control: divergence under SSY/join, loops with per-thread trip counts from a mask, PBK/BRK,
  CAL/RET to later subroutines (no recursion; subroutines have no loops, so no counter is shared),
  BAR only at the top level of the main block and before any early exit; the SIMT stack depth is
  bounded by construction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from golden.g80.conditions import ALWAYS, NAMES
from golden.g80.isa import AsmError, Form, IllegalInstruction, Instruction, assemble, decode
from golden.g80.memsyntax import MEM_SIZES
from golden.g80.operands import ConstOperand, GlobalOperand, LocalOperand, NamedOperand, RegOperand, SharedOperand
from golden.g80.table import FORMS

from .config import Config

HDR = 0x28  # shared header (16 bytes) + three 8-byte pointer parameters (in, out, spec) under g80
SBASE = 0x40  # first byte of the per-thread shared slots
SPARE = 0x30  # shared bytes SPARE..SBASE-1: no data; every thread may write zero there (a store to a direct address)
CONST_WORDS = 128
CONST_BANKS = (0, 1)
SPEC_WORDS = 64
SHARED_BYTES = 16384
REG_FILE = 8192
STACK_BUDGET = 28  # SIMT stack entries a warp may reach (the model and RTL have 32)
TEMPLATE_FAMILIES = {"gld", "gst"}
SKIP_FAMILIES = {"control", "tex"}

# Special 32-bit values: FP zeros, denormals, infinities, NaNs, rounding and conversion boundaries,
# integer edges. Drawn for data words, constants and immediates.
SPECIALS = [
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x007FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
    0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0x3F800000, 0xBF800000, 0x3F000000,
    0x3FC00000, 0x40200000, 0xBFC00000, 0x3F7FFFFF, 0x3F800001, 0x4B000000, 0x4B7FFFFF, 0x4AFFFFFF, 0x4B800000,
    0x4EFFFFFF, 0x4F000000, 0xCF000000, 0xCF000001, 0x4F800000, 0x5F000000, 0x477FE000, 0x477FF000, 0x47800000,
    0x38800000, 0x33800000, 0x40490FDB, 0x42C80000, 0xC2FE0000, 0x43000000, 0x3E800000,
    0x7FFFFFFF, 0xFFFFFFFF, 0x00007FFF, 0x00008000, 0x0000FFFF, 0x00010000, 0xFFFF8000, 0x80000001, 0x00FFFFFF,
    0x01000000, 0x00000002, 0x00000003, 0x0000001F, 0x00000020, 0x00000021, 0x000000FF, 0x00000080,
]  # fmt: skip


# Special f16 values (a half register, FP_SFU.md appendix A): a denormal with each count of leading
# zeros (0x0001 << k), the largest denormal, the smallest and largest normals, zeros, infinities,
# NaNs, one and halves around the rounding points; a word holds two of them (knob f16_specials).
F16_SPECIALS = [
    *(1 << k for k in range(10)), *(0x8000 | 1 << k for k in range(10)), 0x03FF, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF, 0x0000, 0x8000,
    0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00, 0x3C00, 0xBC00, 0x3800, 0x3BFF, 0x3C01, 0x0155, 0x02AA,
]  # fmt: skip
# Integers whose low half has each count of leading zeros (I2F to f16 depends on it), and their negatives
INT_SPECIALS = [*(1 << k for k in range(10, 17)), *((-(1 << k)) & 0xFFFFFFFF for k in range(10, 17)), 0x0000FFFE, 0x3FFFFFE0, 0x3FFFFFFF]


def f16_special(r: random.Random) -> int:
    """A word of two special f16 values, or an integer special for the 16-bit conversions."""
    if r.random() < 0.25:
        return r.choice(INT_SPECIALS)
    return r.choice(F16_SPECIALS) << 16 | r.choice(F16_SPECIALS)


def _cond_names() -> list[str]:
    names = NAMES if isinstance(NAMES, list | tuple) else [NAMES[k] for k in sorted(NAMES)]
    return [n for n in names if n and not n.startswith("COND")]


def _promotable(text: str) -> bool:
    """A 32-bit instruction left alone before a 64-bit one is assembled as its 64-bit form (docs/reference/assembly.md,
    "Lines", Alignment); keep only those whose 64-bit form can say the same."""
    try:
        assemble(f"{text}\nNOP\n", "<randgen>")
    except AsmError:
        return False
    return True


def _words(form: Form, word: int) -> tuple[int, ...]:
    return (word & 0xFFFFFFFF,) if form.size == 4 else (word & 0xFFFFFFFF, word >> 32)


# ---------------------------------------------------------------------------------------------
# the program tree


@dataclass
class Op:
    lines: list[str]  # one instruction and the scaffolding it needs (address arithmetic, $a reset)


@dataclass
class Cond:
    lines: list[str]  # instructions that write the flags register
    creg: int
    code: str  # condition the branch tests


@dataclass
class If:
    cond: Cond
    then: list
    els: list
    join: str | None = None  # an ALU instruction carrying the join marker, or None for NOP.S


@dataclass
class Loop:
    kind: str  # "while" (SSY, exit test at the top) or "pbk" (PBK, BRK at the bottom)
    src: int  # register the per-thread trip count is taken from
    mask: int  # trip count = src & mask (+1 for pbk)
    level: int
    creg: int
    body: list


@dataclass
class Skip:  # a uniform branch (the same outcome for every lane): BRA over the body or not, no divergence
    creg: int
    compare: str  # the ISET condition comparing R124 with itself
    code: str  # the condition the branch tests
    body: list


@dataclass
class Break:  # BRK of the enclosing pbk loop, at the top level of its body
    cond: Cond | None  # None: an unguarded BRK (knob diverge)


@dataclass
class Call:
    sub: int
    noinc: bool = True  # CAL.NOINC or CAL (the call-limit bit: no effect on this SM, ISA.md 6.1)


@dataclass
class Ret:  # RET of some lanes, at the top level of a subroutine
    cond: Cond


@dataclass
class Exchange:  # BAR; read the slot of thread (ltid + k) mod n; BAR
    k: int
    reads: list[tuple[int, int, int]]  # (size 2/4, register field value, offset in units)
    creg: int
    barrier: int = 0  # b0-b15
    count: str = "0xfff"  # the whole block: 0xfff or the "all" form
    bars: tuple[str, str] | None = None  # the two BARs in full (knob bar_variants); else BAR.ARV.WAIT b<barrier>, <count>
    ssy: int = 0  # uniform SSYs around the exchange (0-2): its BARs issue at that SIMT stack depth


@dataclass
class Exit:  # dump, then RET for some lanes (top level of main, after the last BAR)
    cond: Cond


@dataclass
class ExitMarked:  # dump, then some lanes end by an instruction carrying the exit marker (.E), inside an if (SIMT depth 1+)
    cond: Cond
    insn: str


@dataclass
class Diverge:  # a divergent BRA with no SSY (tail of main): the lanes that do not branch run the body and everything after it,
    cond: Cond  # to the end of the program, then the others run from the label on (the stack's branch entry)
    body: list


@dataclass
class Prog:
    seed: int
    preset: str
    grid: tuple[int, int]
    block: tuple[int, int, int]
    data_regs: int
    loop_levels: int
    slot: int  # shared bytes per thread
    local: int
    store_words: int
    in_words: int  # fixed at generation: random code masks indices into `in` with it
    specials: list[int]
    consts: dict[int, list[int]]
    main: list
    subs: list[list]
    dump: bool = True  # the final dump of every thread's state (the shrinker may drop it when the failure is elsewhere)
    last: str | None = None  # an ALU instruction carrying the exit marker (.E) after the final dump: the threads end there
    last_ssy: bool = False  # `last` inside a uniform SSY (the exit marker at SIMT depth 1)
    aregs: int = 3  # address registers dumped: A1-A3, or A1-A7 when random code writes A4-A7 (knob aregs_high)
    back: bool = False  # subroutines placed in reverse order: a subroutine's call of a later one goes backward (knob back_calls)

    @property
    def nthreads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def nblocks(self) -> int:
        return self.grid[0] * self.grid[1]


# ---------------------------------------------------------------------------------------------
# register and memory layout (shared by generation and rendering)


@dataclass(frozen=True)
class Layout:
    data_regs: int
    loop_levels: int
    slot: int
    local: int
    store_words: int
    aregs: int = 3  # A1..A<aregs> in the dump

    @property
    def last_data(self) -> int:
        return 1 + self.data_regs

    @property
    def ri(self) -> int:
        return self.last_data + 1

    @property
    def rt(self) -> int:
        return self.last_data + 2

    @property
    def rv(self) -> int:
        return self.last_data + 3

    def loop_reg(self, level: int) -> int:
        return self.last_data + 4 + level

    @property
    def registers(self) -> int:
        return self.last_data + 4 + self.loop_levels

    # out slot, in words
    @property
    def off_flags(self) -> int:
        return self.data_regs

    @property
    def off_aregs(self) -> int:
        return self.off_flags + 4

    @property
    def off_shared(self) -> int:
        return self.off_aregs + self.aregs

    @property
    def off_local(self) -> int:
        return self.off_shared + self.slot // 4

    @property
    def off_store(self) -> int:
        return -(-(self.off_local + self.local // 4) // 4) * 4

    @property
    def slot_words(self) -> int:
        return self.off_store + self.store_words


def layout_of(p: Prog) -> Layout:
    return Layout(p.data_regs, p.loop_levels, p.slot, p.local, p.store_words, p.aregs)


def reg_budget(threads: int) -> int:
    warps = -(-threads // 32)
    return min(64, REG_FILE // (warps * 32))


def slot_budget(threads: int, want: int) -> int:
    s = want
    while s > 16 and SBASE + threads * s > SHARED_BYTES:
        s //= 2
    return s


# ---------------------------------------------------------------------------------------------
# instructions from the table


class Generator:
    def __init__(self, rng: random.Random, cfg: Config, lay: Layout, nthreads: int) -> None:
        self.rng, self.cfg, self.lay = rng, cfg, lay
        self.nthreads = nthreads
        self.forms: dict[str, list[Form]] = {}
        for f in FORMS:
            if f.family in SKIP_FAMILIES or f.name.startswith("TEX"):
                continue
            self.forms.setdefault(f.family, []).append(f)
        self.families = [fam for fam, w in cfg.mix.items() if w > 0 and fam in self.forms]
        self.weights = [cfg.mix[fam] for fam in self.families]
        self.flag_forms = [f for fam in self.families for f in self.forms[fam] if "cwe" in f.fields and fam not in TEMPLATE_FAMILIES]
        self.marker_families = [fam for fam in self.families if any("marker" in f.fields for f in self.forms[fam])]
        # every form that can carry a marker, in table order: what knob marker_sweep walks through
        self.marker_forms = [f for fam in self.marker_families for f in self.forms[fam] if "marker" in f.fields]
        self.conds = _cond_names()

    # -- field values ----------------------------------------------------------------------

    def special(self) -> int:
        if self.cfg.f16_specials and self.rng.random() < self.cfg.f16_specials:  # no draw at all when the knob is 0
            return f16_special(self.rng)
        return self.rng.choice(SPECIALS) if self.rng.random() < self.cfg.special else self.rng.getrandbits(32)

    def reg_value(self, write: bool) -> int:
        r = self.rng
        lay = self.lay
        x = r.random()
        if x < 0.45:
            return r.randint(2, lay.last_data)  # a full data register
        if x < 0.85:
            return r.randint(4, 2 * lay.last_data + 1)  # a half of a data register
        if write:
            return r.randint(2, lay.last_data)
        return r.choice([0, 1, 124, lay.ri, lay.rt, lay.rv, r.randint(0, lay.registers - 1)])

    def draw_fields(self, form: Form, ctx: Ctx) -> dict[str, int]:
        r, lay = self.rng, self.lay
        f = {name: r.randint(0, bf.max_value) for name, bf in form.fields.items() if name not in form.fixed}
        chosen: dict[str, int] = {}
        for group in form.mods:
            _, values = r.choice(group.options)
            f.update(values)
            chosen.update(values)
        for name in ("dst", "dst7"):
            if name in f:
                f[name] = self.reg_value(True)
        for name in ("src1", "src2", "src3"):
            if name in f:
                f[name] = self.reg_value(False)
        if "marker" in f:
            f["marker"] = 0
        if "dst_o" in f:
            f["dst_o"] = int(r.random() < 0.1)
            if f["dst_o"]:
                f["dst"] = 0x7F
        if "areg" in f:
            f["areg"] = r.choice([0, 0, 0, 1, 1, 2])
            if self.cfg.addr_modes and r.random() < self.cfg.addr_modes:
                f["areg"] = 2  # the $a-relative and post-increment forms of shared and constant operands (A2 set before)
            if lay.aregs > 3 and form.family in ("a2r", "ada") and r.random() < self.cfg.aregs_high:
                f["areg"] = r.randint(3, 7)  # the source $a of A2R/ADA: A4-A7 too (set in the prologue)
        if "postinc" in f:
            f["postinc"] = int(f.get("areg") == 2 and r.random() < 0.5)
        for name in ("src2_c", "src3_c"):
            if name in f:
                f[name] = int(r.random() < 0.25 + 0.5 * self.cfg.addr_modes)
        if f.get("src2_c"):
            f["src2"] = r.randint(0, CONST_WORDS - 1)
        if f.get("src3_c"):
            f["src3"] = r.randint(0, CONST_WORDS - 1)
        if "cbank" in f and not ("cbank" in chosen and not f.get("src2_c") and not f.get("src3_c")):
            f["cbank"] = r.choice(CONST_BANKS)  # the bank of a constant operand; without one, FMAD's rounding hint (cbank) stays as drawn
        if "src1_s" in f:
            f["src1_s"] = int(r.random() < 0.25 + 0.5 * self.cfg.addr_modes)
            if f["src1_s"]:
                shift = 5 if form.fields["src1"].max_value >= 127 else 4  # access size in src1[6:5] (7-bit field) or src1[5:4] (6-bit: 32-bit and 32I forms)
                f["src1"] = r.randint(0, 3) << shift | r.randint(0, 15)
        if self.cfg.edges:  # no draw at all when the knob is 0: the older presets keep their programs
            # values at the edges, which independent random registers almost never give: x - x (ISAD's
            # zero sum with a zero src3, equal compares), a zero addend, and a shift by 1 (SHR's O flag)
            # or by the width (random register numbers as counts are 2..27, seldom 0 or 1)
            if "src1" in f and "src2" in f and not f.get("src1_s") and not f.get("src2_c") and r.random() < self.cfg.edges:
                f["src2"] = f["src1"]
            if "src3" in f and not f.get("src3_c") and r.random() < self.cfg.edges:
                f["src3"] = 124
            if "shimm" in f and r.random() < self.cfg.edges:
                f.update(shimm=1, src2_c=0, src2=r.choice([0, 1, 1, 1, 1, 15, 16, 31, 32]))
        if "pcond" in f:
            if r.random() < self.cfg.guard:
                f["pcond"] = r.randint(0, 31)
            else:
                f["pcond"] = ALWAYS
        if "cwe" in f:
            f["cwe"] = int(r.random() < 0.4)
        if "imm" in f:
            f["imm"] = self.special() & form.fields["imm"].max_value if r.random() < 0.6 else f["imm"]
        if "soff" in f:
            f["soff"] = r.randint(0, lay.slot - 1)
        if "coff" in f:
            f["coff"] = r.randint(0, 2 * CONST_WORDS)
        if "loff" in f:
            size = MEM_SIZES.get(f.get("msize", -1), (None, 4, False))[1]
            f["loff"] = r.randrange(0, lay.local - size + 1, size)  # aligned, inside the bytes written
            if size == 16 and "dst" in f and lay.last_data >= 7:
                f["dst"] = r.choice([k for k in range(4, lay.last_data - 2, 4)])  # a 128-bit load fills an aligned quad of data registers
        if "sreg" in f:
            f["sreg"] = r.choice([0, *range(2, 16)])
            if self.cfg.clock and r.random() < self.cfg.clock:
                f["sreg"] = 1
        if "adst" in f:
            f["adst"] = r.choice([3, 3, 3, 0])
            if lay.aregs > 3 and r.random() < self.cfg.aregs_high:
                f["adst"] = r.randint(4, 7)
                if form.family == "ada" and r.random() < 0.15:  # A1 (the slot pointer) rewritten with its own value
                    f.update(adst=1, areg=1, aoff=0)
        if form.family == "r2g" and lay.aregs > 3 and r.random() < 0.15 * self.cfg.aregs_high:
            # a direct shared address (not $a-relative): the spare header word every thread writes with zero
            f.update(areg=0, postinc=0, src3=124, soff=r.choice([SPARE, SPARE // 2, SPARE // 4]))  # bytes, halves or words: fits() keeps the right one
        if "gspace" in f:
            f["gspace"] = 14
            f["src1"] = lay.rt
        f.update(form.fixed)
        return f

    # -- the check of a decoded instruction against the program's resources -------------------

    def fits(self, insn: Instruction, ctx: Ctx) -> list[str] | None:
        """None when the instruction breaks a rule; else the scaffolding lines it needs before it."""
        lay = self.lay
        fam = insn.form.family
        prefix: list[str] = []
        size = MEM_SIZES.get(insn.fields.get("msize", -1), (None, 4, False))[1]
        for name, op in insn.operands:
            writes = name == "dst" or (name == "data" and fam in ("gld", "lld"))
            if isinstance(op, RegOperand):
                reg = op.index >> 1 if op.half else op.index
                n = max(1, size // 4) if name == "data" else 1
                if writes:
                    if not (reg >= 2 and reg + n - 1 <= lay.last_data):
                        return None
                elif not (reg + n - 1 < lay.registers or (reg == 124 and n == 1)):
                    return None
            elif isinstance(op, SharedOperand):
                if ctx.exchange:
                    return None
                if op.areg == 2:
                    prefix = ["ADA A2, A1, 0x0"]
                    if op.postinc:
                        continue
                elif op.postinc or op.areg not in (0, 1):
                    return None
                if op.areg == 0 and writes:
                    data = next((o for n, o in insn.operands if isinstance(o, RegOperand)), None)
                    if not (op.offset >= SPARE and op.offset + op.size <= SBASE and data is not None and data.index == 124 and not op.postinc):
                        return None  # a direct shared store: only zero, only into the spare words (the same value from every thread)
                    continue
                if op.areg == 0 and op.offset + op.size > HDR:
                    return None
                if op.areg and not 0 <= op.offset <= lay.slot - op.size:
                    return None
            elif isinstance(op, ConstOperand):
                if op.bank not in CONST_BANKS:
                    return None
                if op.areg == 2:  # $a-indexed: A2 is set to a small base first, so the address stays in the defined words
                    room = 4 * CONST_WORDS - (0 if op.postinc else op.offset) - op.size
                    if self.cfg.addr_modes and room >= 0:
                        # a base that fits the offset: drawn independently (below), a large offset almost
                        # always ran past the defined words and the draw was rejected, so that c[An+x] of
                        # the forms with a 7-bit offset was hardly ever kept
                        base = self.rng.randrange(0, min(2 * CONST_WORDS, room) + 1, 4)
                    else:
                        base = self.rng.randrange(0, 2 * CONST_WORDS, 4)
                    prefix = [f"ADA A2, A0, {base:#x}"]
                    last = base + (0 if op.postinc else op.offset) + op.size
                    if not base + (0 if op.postinc else op.offset) >= 0 or last > 4 * CONST_WORDS:
                        return None
                elif op.areg or op.postinc or not 0 <= op.offset <= 4 * CONST_WORDS - op.size:
                    return None
            elif isinstance(op, LocalOperand):
                if op.areg == 2:
                    prefix = ["ADA A2, A0, 0x0"]
                elif op.areg or op.postinc:
                    return None
                if not op.postinc and (op.offset % size or not 0 <= op.offset <= lay.local - size):
                    return None
            elif isinstance(op, GlobalOperand):
                if op.space != 14 or op.reg != lay.rt:
                    return None
            elif isinstance(op, NamedOperand):
                high = lay.aregs > 3
                a1_kept = high and name == "dst" and op.index == 1 and fam == "ada" and insn.fields.get("areg") == 1 and insn.fields.get("aoff") == 0
                written = (0, 3, 4, 5, 6, 7) if high else (0, 3)
                if op.prefix == "A" and (op.index > (7 if high else 4) or (name == "dst" and op.index not in written)) and not a1_kept:
                    return None  # random code writes A3 (A0 discards) and, with aregs_high, A4-A7; A1 and A2 belong to the scaffolding (A1 = A1 + 0 kept)
                if op.prefix == "SR" and op.index == 1 and not self.cfg.clock:
                    return None  # the clock: synchronised from the RTL, differs between configurations (knob clock: cleared at once)
        return prefix

    def instruction(self, ctx: Ctx, family: str | None = None, tweak=None, paired: bool = False) -> tuple[Instruction, list[str]]:
        """A random instruction that fits the program (and the lines it needs before it). A 32-bit form
        whose 64-bit form cannot say the same is kept only when `paired` (a second 32-bit one follows)."""
        for _ in range(400):
            fam = family or self.rng.choices(self.families, self.weights)[0]
            form = self.rng.choice(self.forms[fam])
            f = self.draw_fields(form, ctx)
            if tweak is not None and not tweak(form, f):
                continue
            try:
                insn = decode(_words(form, form.encode(f)))
            except (IllegalInstruction, ValueError):
                continue
            if insn.form is not form:
                continue
            prefix = self.fits(insn, ctx)
            if prefix is not None and (form.size == 8 or paired or _promotable(insn.text)):
                return insn, prefix
        raise RuntimeError(f"no legal instruction of family {family} after 400 draws")

    def op(self, ctx: Ctx) -> Op:
        # the assembler keeps a 32-bit form only beside another one (docs/reference/assembly.md, "Lines", Alignment): a paired
        # 32-bit instruction gets a second one right after it, so that the short forms themselves get
        # executed, even those (FMUL32.SAT) that a 64-bit form cannot say
        paired = self.rng.random() < self.cfg.pair_short
        insn, prefix = self.instruction(ctx, paired=paired)
        lines = self.with_scaffolding(insn, prefix, ctx)
        if insn.form.size == 4 and paired:
            # with addr_modes the second one may use $a too (c[A2++x], g[A2+x]): its A2 set-up goes before
            # the pair, which stays adjacent; only when the first one needs none (it then leaves A2 alone)
            second = self.short_insn(ctx, with_prefix=bool(self.cfg.addr_modes) and not prefix)
            if second is None and not _promotable(insn.text):
                return self.op(replace(ctx))  # no second one: this one would not assemble alone
            if second is not None:
                lines = [*second[0], *lines, second[1]]
        return Op(lines)

    def with_scaffolding(self, insn: Instruction, prefix: list[str], ctx: Ctx) -> list[str]:
        """The instruction after what it needs: `prefix` ($a set-up) and, for global loads and
        stores, the address arithmetic of their template in RT."""
        lines = [*prefix]
        fam = insn.form.family
        lay, r = self.lay, self.rng
        if fam == "gst":
            size = MEM_SIZES[insn.fields["msize"]][1]
            off = r.randrange(0, lay.store_words * 4, size)
            lines.append(f"IADD32I R{lay.rt}, R1, {4 * lay.off_store + off:#x}")
        elif fam == "gld":
            size = MEM_SIZES[insn.fields["msize"]][1]
            mode = r.randrange(3)
            if mode == 0:  # any element of in or spec, a data-dependent index
                src = r.randint(2, lay.last_data)
                lines.append(f"LOP32I.AND R{lay.rt}, R{src}, {(SPEC_WORDS * 4 - 1) & -size:#x}")
                lines.append(f"IADD R{lay.rt}, g [0x8], R{lay.rt}")
            elif mode == 1:
                src = r.randint(2, lay.last_data)
                lines.append(f"LOP32I.AND R{lay.rt}, R{src}, {(ctx.in_bytes - 1) & -size:#x}")
                lines.append(f"IADD R{lay.rt}, R{lay.rt}, R{lay.ri}")
            else:  # back from this thread's own slot of out
                off = r.randrange(0, lay.slot_words * 4, size)
                lines.append(f"IADD32I R{lay.rt}, R1, {off:#x}")
        lines.append(insn.text)
        if insn.form.name == "S2R" and insn.fields.get("sreg") == 1:
            # the clock: lock-step takes the RTL's value (synchronised, not compared) and it depends on the
            # schedule, so the register is cleared at once: nothing computed from it reaches memory
            lines.append(f"MOV R{insn.fields['dst']}, R124")
        return lines

    def short_insn(self, ctx: Ctx, with_prefix: bool = False) -> tuple[list[str], str] | None:
        """A random 32-bit instruction of the mix that needs no scaffolding but, when `with_prefix`, its
        $a set-up: (set-up lines, instruction)."""

        def short(form: Form, f: dict) -> bool:
            return form.size == 4 and form.family not in TEMPLATE_FAMILIES

        try:
            insn, prefix = self.instruction(ctx, None, short)
        except RuntimeError:
            return None
        return None if prefix and not with_prefix else (prefix, insn.text)

    def cond_tid(self) -> Cond:
        """A condition on the thread index: divergence guaranteed for most masks."""
        creg = self.rng.randrange(4)
        mask = self.rng.randint(1, 0x3F)
        return Cond([f"LOP32I.AND R{self.lay.rt}, R0, {mask:#x}", f"ISET.C{creg} o[0x7f], R{self.lay.rt}, R124, NE"], creg, "NE")

    def cond(self, ctx: Ctx) -> Cond:
        if self.rng.random() < 0.4:
            return self.cond_tid()
        creg = self.rng.randrange(4)

        def flags(form: Form, f: dict) -> bool:
            if "cwe" not in f:
                return False
            f["cwe"], f["cdst"], f["pcond"] = 1, creg, ALWAYS
            return True

        fam_forms = self.flag_forms
        for _ in range(50):
            form = self.rng.choice(fam_forms)
            insn, prefix = self.instruction(ctx, form.family, flags)
            if insn.fields.get("cwe") == 1:
                return Cond([*prefix, insn.text], creg, self.rng.choice(self.conds))
        raise RuntimeError("no flag-writing instruction")

    def join_insn(self, ctx: Ctx) -> str | None:
        if self.rng.random() >= self.cfg.marked_join:
            return None
        return self.marked_insn(ctx, 2)

    def marked_insn(self, ctx: Ctx, marker: int, want: Form | None = None) -> str | None:
        """A random instruction of the mix carrying a marker (2: join `.S`, 1: exit `.E`), unguarded,
        after its scaffolding (lines joined by newlines: the last one carries the marker); of form
        `want` when given (its fields still random)."""

        def marked(form: Form, f: dict) -> bool:
            if "marker" not in f or (want is not None and form is not want):
                return False
            f["marker"] = marker
            if "pcond" in f:
                f["pcond"] = ALWAYS
            return True

        for _ in range(20):
            family = None
            if want is not None:
                family = want.family
            elif self.cfg.marker_spread and self.rng.random() < self.cfg.marker_spread:
                # every family alike: the marker bins are per form, and by the mix the forms of a lightly
                # weighted family (S2R at 0.3) carried .E once in hundreds of programs
                family = self.rng.choice(self.marker_families)
            insn, prefix = self.instruction(ctx, family, marked)
            if insn.fields.get("marker") == marker and not (insn.form.name == "S2R" and insn.fields.get("sreg") == 1):
                return "\n".join(self.with_scaffolding(insn, prefix, ctx))
        return None


@dataclass
class Ctx:
    in_bytes: int
    depth: int = 0
    stack: int = 0  # SIMT stack entries an enclosing structure may hold
    loop_level: int = 0
    in_sub: int | None = None  # index of the subroutine being generated
    in_pbk: bool = False  # directly in the body of a pbk loop (BRK allowed)
    exchange: bool = False
    top_main: bool = False
    subs: int = 0


# ---------------------------------------------------------------------------------------------
# structure


def _block(g: Generator, ctx: Ctx, budget: int) -> list:
    """Items adding up to about `budget` random instructions."""
    items: list = []
    cfg, r = g.cfg, g.rng
    while budget > 0:
        kinds = ["ops"]
        if ctx.depth < cfg.depth:
            kinds.append("skip")
            if ctx.stack + 2 <= STACK_BUDGET:
                kinds.append("if")
            if ctx.in_sub is None and ctx.loop_level < g.lay.loop_levels and ctx.stack + cfg.loop_max + 3 <= STACK_BUDGET:
                kinds += ["loop", "pbk"]
        callable_subs = range(ctx.in_sub + 1 if ctx.in_sub is not None else 0, ctx.subs)
        if len(callable_subs) and ctx.stack + 3 * cfg.subroutines + 2 <= STACK_BUDGET:
            kinds.append("call")
        kind = r.choices(kinds, [cfg.control.get(k, 0) or 0.001 for k in kinds])[0]
        inner = replace(ctx, depth=ctx.depth + 1, top_main=False, in_pbk=False)
        if kind == "ops":
            n = min(budget, r.randint(1, 6))
            items += [g.op(ctx) for _ in range(n)]
            budget -= n
        elif kind == "if":
            c = g.cond(ctx)
            sub = replace(inner, stack=ctx.stack + 2)
            share = max(1, budget // 3)
            then = _block(g, sub, r.randint(1, share))
            els = _block(g, sub, r.randint(0, share)) if r.random() < 0.7 else []
            items.append(If(c, then, els, g.join_insn(ctx)))
            budget -= 2 + share
        elif kind in ("loop", "pbk"):
            level = ctx.loop_level
            sub = replace(inner, stack=ctx.stack + cfg.loop_max + 3, loop_level=level + 1, in_pbk=kind == "pbk")
            share = max(1, budget // 3)
            body = _block(g, sub, r.randint(1, share))
            if kind == "pbk" and r.random() < 0.6:
                brk = Break(g.cond(sub))
                if cfg.diverge and r.random() < 0.2 * cfg.diverge:
                    brk.cond = None
                body.insert(r.randint(0, len(body)), brk)
            items.append(Loop(kind, r.randint(0, g.lay.last_data) if r.random() < 0.7 else 0, cfg.loop_max, level, r.randrange(4), body))
            budget -= 3 + share
        elif kind == "skip":
            share = max(1, budget // 4)
            body = _block(g, inner, r.randint(1, share))
            items.append(Skip(r.randrange(4), r.choice(["EQ", "NE", "LT", "GE"]), r.choice(g.conds), body))
            budget -= 2 + share
        elif kind == "call":
            call = Call(r.choice(list(callable_subs)))
            if cfg.back_calls:  # both spellings of the call (drawn only under this knob: older presets keep their programs)
                call.noinc = r.random() < 0.5
            items.append(call)
            budget -= 1
    if ctx.in_pbk and not any(isinstance(i, Break) for i in items) and r.random() < 0.3:
        items.append(Break(g.cond(ctx)))
    return items


def generate(seed: int, cfg: Config, preset: str = "custom") -> Prog:
    """The program tree of `seed` under `cfg` (the same seed and configuration give the same tree)."""
    r = random.Random(f"randgen:{seed}")
    dims = r.randint(1, cfg.dims_max)
    threads = r.randint(1, cfg.threads_max) if r.random() < 0.7 else r.choice([32, 64, min(cfg.threads_max, 96), cfg.threads_max])
    bx = threads
    by = bz = 1
    if dims >= 2 and not (dims == 3 and cfg.z_max > 4):  # tall blocks (z_max > 4) put their second dimension in z
        by = r.randint(1, max(1, min(8, threads // 2)))
        bx = max(1, threads // by)
    if dims == 3:
        bz = r.randint(1, max(1, min(cfg.z_max, bx // 2)))
        bx = max(1, bx // bz)
    bx = min(bx, 512)
    block = (bx, by, bz)
    n = bx * by * bz
    grid = (r.randint(1, cfg.grid_max[0]), r.randint(1, cfg.grid_max[1]))
    loop_levels = min(cfg.depth, 3)
    data_regs = max(2, min(cfg.data_regs, reg_budget(n) - 5 - loop_levels))
    lay = Layout(data_regs, loop_levels, slot_budget(n, cfg.shared_slot), cfg.local_bytes, cfg.store_words, 7 if cfg.aregs_high else 3)
    if lay.registers > reg_budget(n):
        raise ValueError(f"a block of {n} threads cannot hold {lay.registers} registers each; lower depth or threads_max")
    in_bytes = _in_words(n * grid[0] * grid[1], data_regs) * 4
    g = Generator(r, cfg, lay, n)
    specials = [f16_special(r) if cfg.f16_specials and r.random() < cfg.f16_specials else r.choice(SPECIALS) if r.random() < 0.8 else r.getrandbits(32)
                for _ in range(SPEC_WORDS)]  # fmt: skip
    consts = {b: [g.special() for _ in range(CONST_WORDS)] for b in CONST_BANKS}
    nsubs = r.randint(0, cfg.subroutines)
    subs: list[list] = []
    base = Ctx(in_bytes, subs=nsubs)
    for j in range(nsubs):
        ctx = replace(base, in_sub=j, depth=max(0, cfg.depth - 1), stack=1)
        body = _block(g, ctx, r.randint(2, max(2, cfg.length // 4)))
        if r.random() < 0.6:
            body.insert(r.randint(0, len(body)), Ret(g.cond(ctx)))
        subs.append(body)
    # main: segments, with BAR exchanges between them and an early exit after the last one
    nbar = r.randint(0, cfg.barriers)
    segments = nbar + 1
    main: list = []
    for s in range(segments):
        main += _block(g, replace(base, top_main=True), max(1, cfg.length // segments))
        if s < nbar:
            reads = []
            for _ in range(r.randint(1, 4)):
                size = r.choice([2, 4])
                reg = r.randint(2, lay.last_data) if size == 4 else r.randint(4, 2 * lay.last_data + 1)
                reads.append((size, reg, r.randint(0, lay.slot // size - 1)))
            ex = Exchange(r.randint(0, 1 << 16), reads, r.randrange(4), r.choice([0, 0, r.randint(1, 15)]), r.choice(["0xfff", "ALL"]))
            if cfg.bar_variants and r.random() < cfg.bar_variants:
                ex = replace(ex, bars=(_bar_text(r), _bar_text(r)), ssy=r.choice([0, 1, 1, 2]))
            main.append(ex)
    # knob marker_sweep: the two exit-marked instructions of seed s take forms 2s and 2s+1 of the
    # marker forms (table order, modulo their number), so that any run of len(forms) consecutive seeds
    # puts .E on every form as the final instruction and inside divergence, instead of leaving it to
    # the mix (FMIN carried .E once in 80 seeds); the early exits then test the thread index
    # (`tid & mask != 0`), so that thread 0 of every block reaches the final one
    sweep = g.marker_forms if cfg.marker_sweep else []
    if r.random() < cfg.early_exit:
        main.insert(r.randint(len(main) - _tail_len(main), len(main)), Exit(g.cond_tid() if sweep else g.cond(base)))
    # drawn last, so that the rest of a seed's program does not depend on this knob
    last = g.marked_insn(base, 1, sweep[2 * seed % len(sweep)] if sweep else None) if r.random() < cfg.exit_marker else None
    # the knobs below draw nothing when they are 0, so the older presets' seeds give the programs they always gave
    last_ssy = back = False
    if cfg.exit_depth and r.random() < cfg.exit_depth:
        insn = g.marked_insn(base, 1, sweep[(2 * seed + 1) % len(sweep)] if sweep else None)
        if insn is not None:
            main.insert(r.randint(len(main) - _tail_len(main), len(main)), ExitMarked(g.cond_tid() if sweep else g.cond(base), insn))
        last_ssy = last is not None and r.random() < 0.5
    if cfg.diverge and r.random() < cfg.diverge:
        at = r.randint(len(main) - _tail_len(main), len(main))
        body = _block(g, replace(base, depth=1, stack=1), r.randint(1, max(1, cfg.length // 4)))
        main.insert(at, Diverge(g.cond_tid(), body))
    if cfg.back_calls and len(subs) > 1:
        back = r.random() < cfg.back_calls
        if back:  # the first subroutine calls the second, placed before it: a call backward
            subs[0].insert(r.randint(0, len(subs[0])), Call(1, noinc=r.random() < 0.5))
    return Prog(seed, preset, grid, block, data_regs, loop_levels, lay.slot, lay.local, lay.store_words, in_bytes // 4, specials, consts, main, subs,
                last=last, last_ssy=last_ssy, aregs=lay.aregs, back=back)  # fmt: skip


def _bar_text(r: random.Random) -> str:
    """A BAR of any form. The model and the RTL treat every BAR as arrive-and-wait of the whole block
    (docs/design/architecture.md, "Semantics: one model, two profiles"), so each is a full barrier whatever its modifiers, id and count."""
    mods = r.choice(["", ".ARV", ".WAIT", ".ARV.WAIT"])
    count = "ALL" if r.random() < 0.3 else r.choice(["0xfff", f"{r.randint(0, 0xFFF):#x}"])
    return f"BAR{mods} b{r.randrange(16)}, {count}"


def _tail_len(main: list) -> int:
    """Items after the last Exchange (where an early exit may go)."""
    for i in range(len(main) - 1, -1, -1):
        if isinstance(main[i], Exchange):
            return len(main) - 1 - i
    return len(main)


def _in_words(threads: int, data_regs: int) -> int:
    need = max(256, threads * data_regs)
    return 1 << (need - 1).bit_length()


# ---------------------------------------------------------------------------------------------
# rendering


class _Labels:
    def __init__(self) -> None:
        self.n = 0

    def new(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"


def _render_items(items: list, p: Prog, lay: Layout, labels: _Labels, out: list[str], pbk_label: str | None = None) -> None:
    for it in items:
        if isinstance(it, Op):
            out += it.lines
        elif isinstance(it, If):
            join, els = labels.new("join"), labels.new("else")
            out.append(f"SSY {join}")
            out += it.cond.lines
            out.append(f"BRA C{it.cond.creg}.{it.cond.code}, {els}")
            *setup, marked = (it.join or "NOP.S").split("\n")
            _render_items(it.then, p, lay, labels, out, pbk_label)
            out += setup  # the join instruction's scaffolding, at the end of both sides: every lane at the join ran it
            out.append(f"BRA {join}")
            out.append(f"{els}:")
            _render_items(it.els, p, lay, labels, out, pbk_label)
            out += setup
            out.append(f"{join}:")
            out.append(marked)
        elif isinstance(it, Loop):
            rc, c = lay.loop_reg(it.level), it.creg
            top, done = labels.new("top"), labels.new("done")
            out.append(f"LOP32I.AND R{rc}, R{it.src}, {it.mask:#x}")
            if it.kind == "while":
                out += [f"SSY {done}", f"ISET.C{c} o[0x7f], R{rc}, R124, EQ", f"{top}:", f"BRA C{c}.NE, {done}"]
                _render_items(it.body, p, lay, labels, out, None)
                out += [f"IADD32I R{rc}, R{rc}, -0x1", f"ISET.C{c} o[0x7f], R{rc}, R124, EQ", f"BRA {top}", f"{done}:", "NOP.S"]
            else:
                out += [f"IADD32I R{rc}, R{rc}, 0x1", f"PBK {done}", f"{top}:"]
                _render_items(it.body, p, lay, labels, out, done)
                out += [f"IADD32I R{rc}, R{rc}, -0x1", f"ISET.C{c} o[0x7f], R{rc}, R124, EQ", f"BRK C{c}.NE", f"BRA {top}", f"{done}:"]
        elif isinstance(it, Skip):
            after = labels.new("skip")
            out.append(f"ISET.C{it.creg} o[0x7f], R124, R124, {it.compare}")
            out.append(f"BRA C{it.creg}.{it.code}, {after}")
            _render_items(it.body, p, lay, labels, out, pbk_label)
            out.append(f"{after}:")
        elif isinstance(it, Break) and it.cond is None:
            out.append("BRK")  # every active lane leaves the loop
        elif isinstance(it, Break):
            out += it.cond.lines
            out.append(f"BRK C{it.cond.creg}.{it.cond.code}")
        elif isinstance(it, Call):
            if it.sub < len(p.subs):
                out.append(f"CAL{'.NOINC' if it.noinc else ''} sub{it.sub}")
        elif isinstance(it, Ret):
            out += it.cond.lines
            out.append(f"RET C{it.cond.creg}.{it.cond.code}")
        elif isinstance(it, Exchange):
            _render_exchange(it, p, lay, labels, out)
        elif isinstance(it, Exit):
            out += it.cond.lines
            _render_dump(lay, out)
            out.append(f"RET C{it.cond.creg}.{it.cond.code}")
        elif isinstance(it, ExitMarked):
            join, ex = labels.new("xjoin"), labels.new("xend")
            out += it.cond.lines
            _render_dump(lay, out)  # no flags touched: the condition survives it
            out += [f"SSY {join}", f"BRA C{it.cond.creg}.{it.cond.code}, {ex}", f"BRA {join}", f"{ex}:", *it.insn.split("\n"), f"{join}:", "NOP.S"]
        elif isinstance(it, Diverge):
            after = labels.new("split")
            out += it.cond.lines
            out.append(f"BRA C{it.cond.creg}.{it.cond.code}, {after}")
            _render_items(it.body, p, lay, labels, out, pbk_label)
            out.append(f"{after}:")
        else:
            raise TypeError(f"unknown item {it!r}")


def _render_exchange(it: Exchange, p: Prog, lay: Layout, labels: _Labels, out: list[str]) -> None:
    n, s = p.nthreads, lay.slot
    k = it.k % n
    sh = s.bit_length() - 1
    rt, rv, c = lay.rt, lay.rv, it.creg
    bar = f"BAR.ARV.WAIT b{it.barrier}, {it.count}"
    first, second = it.bars or (bar, bar)
    joins = [labels.new("barjoin") for _ in range(it.ssy)]
    out += [f"SSY {j}" for j in joins]
    out += [
        first,
        f"A2R R{rt}, A1",
        f"IADD32I R{rt}, R{rt}, -{SBASE:#x}",
        f"SHR R{rt}, R{rt}, {sh:#x}",  # ltid
        f"IADD32I R{rt}, R{rt}, {k:#x}",
        f"IADD32I R{rv}, R{rt}, -{n:#x}",
        f"ISET.S32.C{c} o[0x7f], R{rv}, R124, GE",
        f"MOV R{rt} (C{c}.NE), R{rv}",  # (ltid + k) mod n
        f"SHL R{rt}, R{rt}, {sh:#x}",
        f"IADD32I R{rt}, R{rt}, {SBASE:#x}",
        f"R2A A2, R{rt}",
    ]
    for size, reg, off in it.reads:
        if size == 4:
            out.append(f"MOV R{reg}, g [A2+{off:#x}]")
        else:
            out.append(f"MOV.U16 R{reg >> 1}{'LH'[reg & 1]}, g [A2+{off:#x}].U16")
    out.append(second)
    for j in reversed(joins):
        out += [f"{j}:", "NOP.S"]


def _render_dump(lay: Layout, out: list[str]) -> None:
    """Store every data register, $c, $a, the shared slot and the local bytes into the out slot;
    touches only RT and RV (no flags), so that it can precede an early exit's RET."""
    rt, rv = lay.rt, lay.rv

    def store(word: int, reg: int) -> None:
        out.append(f"IADD32I R{rt}, R1, {4 * word:#x}")
        out.append(f"GST.U32 global14[R{rt}], R{reg}")

    for i in range(lay.data_regs):
        store(i, 2 + i)
    for c in range(4):
        out.append(f"C2R R{rv}, C{c}")
        store(lay.off_flags + c, rv)
    for a in range(lay.aregs):
        out.append(f"A2R R{rv}, A{a + 1}")
        store(lay.off_aregs + a, rv)
    for w in range(lay.slot // 4):
        out.append(f"MOV R{rv}, g [A1+{w:#x}]")
        store(lay.off_shared + w, rv)
    for w in range(lay.local // 4):
        out.append(f"LLD.U32 R{rv}, local[{4 * w:#x}]")
        store(lay.off_local + w, rv)


def _prologue(p: Prog, lay: Layout, out: list[str]) -> None:
    bx, by, bz = p.block
    rt, rv, ri = lay.rt, lay.rv, lay.ri
    sh = lay.slot.bit_length() - 1
    out.append(f"LOP32I.AND R{rt}, R0, 0xffff")  # tid.x
    if by > 1 or bz > 1:
        out += [f"SHR R{rv}, R0, 0x10", f"LOP32I.AND R{rv}, R{rv}, 0x3ff"]  # tid.y
        if bz > 1:
            out += ["SHR R2, R0, 0x1a", f"IMUL32I.U24.U24 R2, R2, {by:#x}", f"IADD R{rv}, R{rv}, R2"]
        out += [f"IMUL32I.U24.U24 R{rv}, R{rv}, {bx:#x}", f"IADD R{rt}, R{rt}, R{rv}"]
    # A1: own shared slot
    out += [f"SHL R2, R{rt}, {sh:#x}", f"IADD32I R2, R2, {SBASE:#x}", "R2A A1, R2"]
    # global thread index: linear block * threads + ltid
    out.append("I2I.U32.U16 R3, g [0x6].U16")
    if p.grid[1] > 1:
        out += ["I2I.U32.U16 R2, g [0x7].U16", f"IMUL32I.U24.U24 R2, R2, {p.grid[0]:#x}", "IADD R3, R3, R2"]
    out += [f"IMUL32I.U24.U24 R3, R3, {p.nthreads:#x}", f"IADD R{rt}, R{rt}, R3"]
    out += [f"IMUL32I.U24.U24 R1, R{rt}, {4 * lay.slot_words:#x}", "IADD R1, g [0x6], R1"]
    out += [f"MOV R{ri}, g [0x4]", f"IMUL32I.U24.U24 R{rv}, R{rt}, {4 * lay.data_regs:#x}", f"IADD R{rv}, R{rv}, R{ri}"]
    for i in range(lay.data_regs):
        out.append(f"GLD.U32 R{2 + i}, global14[R{rv}]")
        out.append(f"IADD32I R{rv}, R{rv}, 0x4")
    # some data registers take a special value instead, picked per thread
    for i in range(0, lay.data_regs, 3):
        out += [f"LOP32I.AND R{rv}, R{2 + i}, {(SPEC_WORDS - 1) * 4:#x}", f"IADD R{rv}, g [0x8], R{rv}", f"GLD.U32 R{2 + i}, global14[R{rv}]"]
    for w in range(lay.slot // 4):
        out.append(f"R2G.U32.U32 g[A1+{w:#x}], R{2 + w % lay.data_regs}")
    for w in range(lay.local // 4):
        out.append(f"LST.U32 local[{4 * w:#x}], R{2 + (w + 1) % lay.data_regs}")
    for a in range(4, lay.aregs + 1):  # A4-A7 hold defined values before random code reads them
        out.append(f"R2A A{a}, R{2 + a % lay.data_regs}")


def render(p: Prog) -> str:
    lay = layout_of(p)
    n = p.nthreads
    total = n * p.nblocks
    words = max(p.in_words, _in_words(total, p.data_regs))
    head = [
        f"// randgen seed {p.seed}, preset {p.preset}: generated (randgen/generator.py); checked by lock-step and final memory, no .expect",
        f".grid {p.grid[0]} {p.grid[1]}",
        f".block {p.block[0]} {p.block[1]} {p.block[2]}",
        f".registers {lay.registers}",
        f".shared {SBASE - HDR + n * lay.slot}",
        f".buffer in u32 {words} = random({p.seed & 0x7FFFFFFF})",
        f".buffer out u32 {total * lay.slot_words} = random({(p.seed + 1) & 0x7FFFFFFF})",
        f".buffer spec u32 {SPEC_WORDS} = " + " ".join(f"{v:#x}" for v in p.specials),
        ".param in",
        ".param out",
        ".param spec",
    ]
    for bank, values in p.consts.items():
        head.append(f".const {bank} 0x0 u32 " + " ".join(f"{v:#x}" for v in values))
    body: list[str] = []
    _prologue(p, lay, body)
    labels = _Labels()
    _render_items(p.main, p, lay, labels, body)
    if p.dump:
        _render_dump(lay, body)
    if p.last and p.last_ssy:
        body += ["SSY lastjoin", *p.last.split("\n"), "lastjoin:", "NOP.S"]  # the threads end at p.last, at SIMT depth 1
    elif p.last:
        body += p.last.split("\n")
    if p.subs or not (p.dump or p.last):
        # the end of main: the assembler marks the last instruction with .E only when it is a 64-bit
        # normal one (the dump's GST is); a shrunk program without the dump could end on another one
        body.append("RET")
    if p.subs:
        order = list(enumerate(p.subs))
        for j, sub in reversed(order) if p.back else order:
            body.append(f"sub{j}:")
            _render_items(sub, p, lay, labels, body)
            body.append("RET")
    code = [ln if ln.endswith(":") else "        " + ln for ln in body]
    return "\n".join(head + code) + "\n"


__all__ = ["SPECIALS", "Break", "Call", "Diverge", "Exchange", "Exit", "ExitMarked", "If", "Layout", "Loop", "Op", "Prog", "Ret", "Skip", "generate", "layout_of", "render"]
