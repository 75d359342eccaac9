"""Per-warp control state: PC, active mask, exited lanes and one reconvergence stack.

The sources leave this state undescribed (seed 003: "describe me"), so the model takes the usual
reading of the SSY/PBK/PCNT/PRET instructions (seed 001: each pushes an address that a later
instruction returns to) with one stack per warp. An entry is (kind, pc, mask):

- SSY t pushes SYNC(t, active). The lanes that execute an instruction with .S are done with their
  path: they leave the active mask (the SYNC entry still holds them); once no lane is active the
  warp pops, and a DIV entry resumes the other side of a divergent branch, a SYNC entry reconverges
  at its address with the lanes that were active at the SSY. nvcc's code relies on a guarded .S
  stopping only the lanes whose guard holds (`@!P0 NOP.S` between two loops in
  testdata/fermi/cuda4_globalscan.sass);
- a divergent BRA pushes DIV(the side that waits, its lanes) and runs the other side
  (profile `diverge_first`); BRA.U does not diverge (profile `bra_u`);
- PBK t pushes BREAK(t, active); PCNT t pushes CONT(t, active); CAL t pushes CALL(pc + 8, lanes)
  and PRET t pushes CALL(t, active);
- BRK, CONT and RET take their lanes out of the active mask and out of every entry above the
  nearest BREAK, CONT or CALL entry (so a nested SSY or a waiting branch side will not bring them
  back); those lanes wait in the entry they unwound to;
- EXIT takes its lanes out of the active mask and out of every entry: they are gone;
- whenever the active mask becomes empty the warp pops: entries whose lanes are all gone are
  dropped, and the first one left supplies the next PC and mask. An empty stack with no active
  lane means every lane has exited: the warp is done.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SYNC, DIV, BREAK, CONT, CALL = "SYNC", "DIV", "BREAK", "CONT", "CALL"
FULL = 0xFFFFFFFF


class StackMisuse(Exception):
    """BRK, CONT or RET with no entry of its kind on the stack; .S with an empty stack."""


@dataclass(slots=True)
class Entry:
    kind: str
    pc: int
    mask: int


@dataclass
class Warp:
    """One warp of a CTA."""

    cta: int  # linear CTA id
    index: int  # warp number in its CTA
    base: int  # its first thread in the CTA's arrays
    live: int  # lanes that exist and have not exited
    pc: int = 0
    active: int = 0
    stack: list[Entry] = field(default_factory=list)
    seq: int = 0
    at_barrier: bool = False

    def __post_init__(self) -> None:
        self.active = self.live

    @property
    def done(self) -> bool:
        return self.live == 0

    def push(self, kind: str, pc: int, mask: int) -> None:
        self.stack.append(Entry(kind, pc, mask))

    def resume(self) -> None:
        """Continue at the first stack entry that still has lanes (the active mask is empty)."""
        while self.stack:
            e = self.stack.pop()
            mask = e.mask & self.live
            if mask:
                self.pc, self.active = e.pc, mask
                return
        self.active = 0
        if self.live:  # lanes that wait on nothing: a BRK/CONT/RET that had no entry would do this
            raise StackMisuse("the stack emptied while lanes still live (a missing SSY, PBK, PCNT or CAL)")

    def sync(self, lanes: int) -> None:
        """.S executed by `lanes`: they are done with this path and wait for the entry that will
        bring them back (the SYNC entry of their SSY holds them); the other active lanes go on. With
        no lane left active the warp continues from the top entry."""
        if not self.stack:
            raise StackMisuse(".S with an empty stack (no SSY before it)")
        self.active &= ~lanes
        if not self.active:
            self.resume()

    def unwind(self, kind: str, lanes: int) -> bool:
        """BRK/CONT/RET by `lanes`: they leave the active mask and the entries above the nearest
        entry of `kind`, where they wait. True when the warp moved to a stack entry (no lane was
        left active), False when the remaining lanes go on to the next instruction."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].kind == kind:
                break
            self.stack[i].mask &= ~lanes
        else:
            raise StackMisuse(f"no {kind} entry on the stack")
        self.active &= ~lanes
        if not self.active:
            self.resume()
            return True
        return False

    def exit(self, lanes: int) -> bool:
        """EXIT by `lanes`: they are gone from the warp, its mask and every entry. True when the
        warp moved (to a stack entry, or it is done), False when active lanes remain."""
        self.live &= ~lanes
        self.active &= ~lanes
        for e in self.stack:
            e.mask &= ~lanes
        if self.active:
            return False
        if self.live:
            self.resume()
        else:
            self.stack.clear()
        return True
