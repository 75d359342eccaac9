"""LG's coverage, plugged into golden/coverage: the ISA bins derived from golden/lg/table.py, plus
what only the commit records say.

From the table alone (golden/coverage/derive.py): every opcode issued; each scalar register
operand over r0-r15 (r15 excluded as a destination: it is the PC), each vector register operand
over v0, v1-v62 and v63, the element index 0-3, the primitive type's ends, a branch or jsr
offset backward / zero / forward, an integer immediate's corners (zero, one, extremes, minus one,
other values of each sign) and a float immediate's sign.

From the commit records (sampled in program order, with the little state they need):

- the CC each CC-setting opcode wrote: N, Z, P (in the profile's bit order, read back to N/Z/P);
- each conditional branch taken and not taken (a zero offset counts as not taken);
- the matrix stack: a push to 1-15 and to full, a push ignored at full, a pop to 1-15 and to
  empty, a pop ignored when empty;
- endprimitive: 0, 1, 2, 3 vertices, and 3 with further setvertex dropped; the winding of a
  triangle (signed area of its transformed vertices); the depth test over its fragments (all
  pass, some fail, all fail).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..coverage import db, runs
from ..coverage.derive import Kind, derive, each_value, ends_and_middle, int_corners, sign_classes
from ..coverage.model import Builder, Fields, Group, Model
from ..errors import UserError
from . import table
from .commit import LgCommit
from .profile import PROFILES, LgProfile
from .state import STACK_DEPTH

FORMAT = "lg-coverage"
CATEGORIES = ("issued", "operands", "CC", "control", "graphics")

PC_DEST = "r15 is the PC: the assembler rejects it as a destination (golden/lg/table.py, scalar_dest)"


def _offset(v: int) -> str:
    v &= 0xFFFF
    return "zero" if v == 0 else "backward" if v >> 15 else "forward"


KINDS: dict[str, Kind] = {
    "r": each_value("r", 16),
    "r dest": Kind(each_value("r", 16).bins, each_value("r", 16).classify, "each destination register", {"r15": PC_DEST}),
    "base": each_value("r", 16, "the register holding the address"),
    "v": ends_and_middle("v", 64),
    "idx": each_value("element ", 4, "each element 0-3"),
    "type": ends_and_middle("type", 16, "the primitive type's ends and the values between"),
    "off": Kind(("backward", "zero", "forward"), _offset, "PC offset: backward, zero (the next instruction), forward"),
    "imm int": int_corners(16),
    "imm float": sign_classes(16, "float immediate by its sign bit (zero: all bits 0)"),
}


def operands_of(op: table.Op) -> list[tuple[str, str, str]]:
    """(point, field, kind) of each operand of a row."""
    dest = table.scalar_dest(op)
    out = []
    for name, kind in op.operands:
        if kind == "imm":
            kind = "imm float" if op.imm == "float" else "imm int"
        elif kind == "r" and name == dest:
            kind = "r dest"
        out.append((name, name, kind))
    return out


# -- what a commit record adds: one packed int (Dyn below) ------------------------------------------

CC_BINS = ("N", "Z", "P")
BRANCH_BINS = ("taken", "not taken")
PUSH_BINS = ("to 1-15", "to full (16)", "ignored: already full")
POP_BINS = ("to 1-15", "to empty (0)", "ignored: already empty")
VERTEX_BINS = ("0", "1", "2", "3", "3, more dropped")
WINDING_BINS = ("counter-clockwise", "clockwise", "degenerate")
DEPTH_BINS = ("all pass", "some fail", "all fail")

# bit fields of the packed value: (shift, width)
_CC, _BRANCH, _STACK, _VERTS, _WIND, _DEPTH = (0, 3), (3, 2), (5, 3), (8, 3), (11, 2), (13, 2)


def _get(dyn: int, where: tuple[int, int]) -> int:
    return dyn >> where[0] & ((1 << where[1]) - 1)


def _put(where: tuple[int, int], value: int) -> int:
    return value << where[0]


def _cc_labels(f: Fields, dyn: int) -> list[str]:
    cc = _get(dyn, _CC)  # N = 4, Z = 2, P = 1 whatever the profile's order
    return [name for name, bit in zip(CC_BINS, (4, 2, 1), strict=True) if cc & bit]


def _choice(where: tuple[int, int], names: tuple[str, ...]) -> Any:
    def labels(f: Fields, dyn: int) -> list[str]:
        v = _get(dyn, where)
        return [names[v - 1]] if v else []

    return labels


def _add_commit_points(b: Builder, g: Group, op: table.Op) -> None:
    if op.setcc:
        b.point(g, "CC", "CC", list(CC_BINS), _cc_labels, dynamic=True, doc="the condition the written CC says")
    if op.family == "branch":
        b.point(g, "outcome", "control", list(BRANCH_BINS), _choice(_BRANCH, BRANCH_BINS), dynamic=True, doc="the branch went to its target or on")
    if op.mnemonic == "pushmatrix":
        b.point(g, "stack", "graphics", list(PUSH_BINS), _choice(_STACK, PUSH_BINS), dynamic=True, doc="the matrix stack after the push")
    if op.mnemonic == "popmatrix":
        b.point(g, "stack", "graphics", list(POP_BINS), _choice(_STACK, POP_BINS), dynamic=True, doc="the matrix stack after the pop")
    if op.mnemonic == "endprimitive":
        b.point(g, "vertices", "graphics", list(VERTEX_BINS), _choice(_VERTS, VERTEX_BINS), dynamic=True, doc="vertices set since beginprimitive")
        b.point(g, "winding", "graphics", list(WINDING_BINS), _choice(_WIND, WINDING_BINS), dynamic=True,
                doc="a triangle's winding: the sign of its signed area (x right, y up)")  # fmt: skip
        b.point(g, "depth test", "graphics", list(DEPTH_BINS), _choice(_DEPTH, DEPTH_BINS), dynamic=True,
                doc="the depth test over the fragments the triangle covered")  # fmt: skip


@cache
def model() -> Model:
    b = Builder()
    for g in derive(b, table.OPS, operands_of, KINDS):
        _add_commit_points(b, g, g.form)
    return b.model("LG coverage model", CATEGORIES)


class Shadow:
    """The state sampling needs across commits: the matrix-stack depth and the vertices set since
    the primitive began."""

    def __init__(self) -> None:
        self.depth = 0
        self.verts: list[tuple[float, float]] = []
        self.dropped = False


def dyn_of(c: LgCommit, op: table.Op, p: LgProfile, s: Shadow) -> int:
    """The packed commit-side value of one record, updating the shadow state."""
    dyn = 0
    if c.cc is not None:
        n, z, pos = (1, 2, 4) if p.cc_order == "n0z1p2" else (4, 2, 1)
        dyn |= _put(_CC, (4 if c.cc & n else 0) | (2 if c.cc & z else 0) | (1 if c.cc & pos else 0))
    if op.family == "branch":
        step = 4 if p.pc_unit == "byte" else 1
        dyn |= _put(_BRANCH, 2 if c.next_pc == (c.pc + step) & 0xFFFF else 1)
    if op.mnemonic in ("pushmatrix", "popmatrix") and c.depth is not None:
        before, after = s.depth, c.depth
        if op.mnemonic == "pushmatrix":
            v = 3 if before == after == STACK_DEPTH else 2 if after == STACK_DEPTH else 1
        else:
            v = 3 if before == after == 0 else 2 if after == 0 else 1
        dyn |= _put(_STACK, v)
    if c.depth is not None:
        s.depth = c.depth
    if op.mnemonic == "beginprimitive":
        s.verts, s.dropped = [], False
    elif op.mnemonic == "setvertex":
        if c.vertex is None:
            s.dropped = True
        else:
            s.verts.append((float(c.vertex.x), float(c.vertex.y)))
    elif op.mnemonic == "endprimitive":
        n = len(s.verts)
        dyn |= _put(_VERTS, 5 if n == 3 and s.dropped else n + 1)
        if n == 3:
            (x0, y0), (x1, y1), (x2, y2) = s.verts
            area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
            dyn |= _put(_WIND, 1 if area > 0 else 2 if area < 0 else 3)
        frags = c.prim_end or 0
        if frags:
            passed = len(c.fb) if c.fb is not None else 0
            dyn |= _put(_DEPTH, 1 if passed == frags else 3 if passed == 0 else 2)
        s.verts, s.dropped = [], False
    return dyn


DYN_BITS = 15


class Coverage(db.Coverage):
    """Counts of LG's ISA bins. `sample(commit)` in program order (the shadow state follows it)."""

    FORMAT = FORMAT
    TITLE = "LG (CS3220 ISA 1.1) functional coverage"
    SOURCE = "golden/lg/table.py"
    UCIS_INSTANCE = "lg_isa"
    DESCRIPTION = ("every opcode, each operand field's values or corners, the CC each CC-setting opcode wrote, branches taken and "
                   "not taken, the matrix stack's ends, primitives by vertex count, winding and depth test.")  # fmt: skip

    def __init__(self, run: str | None = None, profile: LgProfile | None = None) -> None:
        super().__init__(run)
        self.profile = profile or PROFILES["seed"]
        self.shadow = Shadow()
        self._insns: dict[int, table.Insn] = {}

    @classmethod
    def build_model(cls) -> Model:
        return model()

    def sample(self, c: LgCommit) -> None:
        insn = self._insns.get(c.insn)
        if insn is None:
            insn = self._insns[c.insn] = table.decode(c.insn)
        key = c.insn << DYN_BITS | dyn_of(c, insn.op, self.profile, self.shadow)
        self._raw[key] = self._raw.get(key, 0) + 1

    def hits_of(self, key: int) -> list[int]:
        insn = self._insns[key >> DYN_BITS]
        return self.model.hits(insn.op, {"opcode": insn.op.opcode, **insn.fields}, key & ((1 << DYN_BITS) - 1))


CLASSES: tuple[type[db.Coverage], ...] = (Coverage,)


def run_program(path: str, profile_name: str | None = None) -> tuple[Coverage, int]:
    """Assemble and run one LG program on the model, sampling every commit: (coverage, commits).
    The profile is `profile_name`, else the program's own .profile directive, else seed."""
    from .asm import assemble
    from .model import Machine

    text = Path(path).read_text(encoding="utf-8")
    prog = assemble(text, path)
    name = profile_name or prog.profile or "seed"
    if name not in PROFILES:
        raise UserError(f"{path}: unknown LG profile {name!r} (choose one of {', '.join(PROFILES)})")
    profile = PROFILES[name]
    data = bytearray(max(prog.data, default=-1) + 1)
    for addr, byte in prog.data.items():
        data[addr] = byte
    m = Machine(profile)
    m.load(prog.words, bytes(data))
    cov = Coverage(run=Path(path).stem, profile=profile)
    commits = m.run()
    for c in commits:
        cov.sample(c)
    return cov, len(commits)


def coverage_runs(programs: list[str], outdir: Path, profile_name: str | None = None) -> list[tuple[str, Path, str | None]]:
    """Each program on the model with coverage into OUT/NAME.json and its log OUT/NAME.log:
    (program, log, error or None) per program, in order."""
    return runs.coverage_runs(programs, outdir, lambda program: run_program(program, profile_name))
