"""The golden model alone on an LG program: run it, check its `;! expect` lines, write its frames.

`make sim ISA=lg` runs this before lock-step, as G80's `make sim` runs `golden run`: a program
whose expectations the model itself breaks is a program (or model) problem, told before any RTL is
built. The frames are the ones draw showed, as PNGs: build/sim/lg/<test>/frame_N.png; a program
that never draws gets the frame buffer it ended with as frame_0.png when anything was drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from golden.errors import UserError
from golden.lg.commit import LgCommit
from golden.lg.model import Frame, LgError, Machine
from golden.lg.png import write_png

from .program import LgTest


@dataclass
class GoldenResult:
    steps: int
    ended: str  # "halt" or "ran off the end"
    frames: list[Path] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)  # expectations the model broke, one line each

    def summary(self, name: str) -> str:
        verdict = "PASS" if not self.broken else f"FAIL, {len(self.broken)} expectation(s) broken"
        shown = f", frames: {' '.join(str(p) for p in self.frames)}" if self.frames else ""
        return f"golden model: {name}: {verdict}, {self.steps} instructions, ended by {self.ended}{shown}"


def shown_frames(m: Machine) -> list[Frame]:
    """The frames draw showed; without a draw, the final frame when anything was drawn on it."""
    drawn = [f for f in m.frames if f.reason == "draw"]
    if drawn:
        return drawn
    return [f for f in m.frames if f.reason == "final" and f.rgb.any()]


def check_expects(t: LgTest, m: Machine, records: list[LgCommit]) -> list[str]:
    """Every `;! expect` line the machine's final state breaks, as `file:line: what: expected X, got Y`."""
    st = m.st
    broken = []
    frags = [c.prim_end for c in records if c.prim_end is not None]
    draws = sum(1 for c in records if c.fb_event == "draw")
    for e in t.expects:
        if e.what.startswith("r"):
            got: list[int] = [st.r[int(e.what[1:])]]
        elif e.what.startswith("v"):
            got = [int(x) for x in st.v[int(e.what[1:])]]
        elif e.what == "cc":
            got = [st.cc]
        elif e.what == "frags":
            got = frags
        elif e.what == "draws":
            got = [draws]
        else:  # mem16 ADDR
            addr = int(e.what.split()[1], 0) & 0xFFFF
            got = [st.mem[addr] | st.mem[(addr + 1) & 0xFFFF] << 8]
        if got != e.values:
            broken.append(f"{t.path}:{e.line}: expect {e.what}: expected {' '.join(f'{v:#x}' for v in e.values)}, "
                          f"got {' '.join(f'{v:#x}' for v in got) or '(none)'}")
    return broken


def run_golden(t: LgTest, out_dir: Path) -> GoldenResult:
    """Run the model alone; a program it cannot run (illegal word, runaway) is one UserError line."""
    m = Machine(t.profile)
    m.load(t.words, t.data)
    try:
        records = m.run(t.max_steps)
    except LgError as exc:
        raise UserError(f"{t.path}: {exc}", exc.code) from None
    last = records[-1]
    ended = "halt" if t.words[last.pc // m.unit] >> 24 == 0xC0 else "running off the end"
    result = GoldenResult(len(records), ended, broken=check_expects(t, m, records))
    for old in out_dir.glob("frame_*.png"):
        old.unlink()
    for n, f in enumerate(shown_frames(m)):
        result.frames.append(write_png(f.rgb, out_dir / f"frame_{n}.png"))
    return result
