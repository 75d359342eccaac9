"""The failure report of a lock-step run (DESIGN.md section 6), as console text and as JSON.

One `FailureReport` describes why a run failed: a field mismatch (with a lane table of the
differing lanes), a hang, an RTL error, X/Z on the commit port, an unimplemented instruction or
an end-of-test difference. It carries where (cycle, CTA, warp, PC, disassembly), the warp's last
instructions and the command that reruns the test with waveforms. The orchestrator
(tb/lockstep.py) adds the wave file after the automatic rerun.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class LaneDiff:
    lane: int | None  # None: a row about a memory byte, not a lane
    expected: str  # golden model
    actual: str  # RTL


@dataclass
class FieldDiff:
    field: str  # gpr, cc, addr, mem, next_pc, ...
    expected: str
    actual: str
    lanes: list[LaneDiff] = field(default_factory=list)


@dataclass
class FailureReport:
    kind: str  # mismatch, hang, rtl_error, x_or_z, unimplemented, memory_fault, end_of_test
    message: str
    test: str = ""
    seed: int = 0
    simulator: str = ""
    num_sp: int = 0
    profile: str = "g80"
    cycle: int | None = None
    cta: int | None = None
    warp: int | None = None
    pc: int | None = None
    text: str = ""  # disassembly of the instruction
    diffs: list[FieldDiff] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # the warp's last instructions, oldest first
    warps: str = ""  # each warp's last PC (hangs, end-of-test)
    rerun: str = ""
    wave_file: str | None = None
    mismatches: int = 1  # how many mismatches this run saw (the configuration's max_mismatches lets more through)

    def to_text(self) -> str:
        where = []
        if self.cycle is not None:
            where.append(f"cycle {self.cycle}")
        if self.cta is not None:
            where.append(f"CTA {self.cta}")
        if self.warp is not None:
            where.append(f"warp {self.warp}")
        if self.pc is not None:
            where.append(f"PC {self.pc:#06x}")
        lines = [f"LOCK-STEP FAILURE ({self.kind}): {self.test} seed {self.seed} on {self.simulator}, NUM_SP={self.num_sp}, profile {self.profile}"]
        if where:
            lines.append("  at " + ", ".join(where) + (f":  {self.text}" if self.text else ""))
        lines.append(f"  {self.message}")
        for d in self.diffs:
            lines.append(f"  field {d.field}: expected (model) {d.expected}   actual (RTL) {d.actual}")
            if d.lanes:
                lines.append(f"    {'lane':>4}  {'expected':>12}  {'actual':>12}")
                lines.extend(f"    {'-' if x.lane is None else x.lane:>4}  {x.expected:>12}  {x.actual:>12}" for x in d.lanes)
        if self.history:
            lines.append("  last instructions of this warp (oldest first):")
            lines.extend("    " + h for h in self.history)
        if self.warps:
            lines.append(f"  warps: {self.warps}")
        if self.wave_file:
            lines.append(f"  waveform: {self.wave_file} (look at cycle {self.cycle}, time {self.cycle * 10 if self.cycle is not None else '?'} ns)")
        if self.rerun:
            lines.append(f"  rerun: {self.rerun}")
        return "\n".join(lines)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)

    def write(self, path: Path) -> None:
        path.write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> FailureReport:
        return cls.read_dict(json.loads(path.read_text(encoding="utf-8")))

    @classmethod
    def read_dict(cls, data: dict) -> FailureReport:
        data = dict(data)
        data["diffs"] = [FieldDiff(**{**d, "lanes": [LaneDiff(**x) for x in d["lanes"]]}) for d in data["diffs"]]
        return cls(**data)
