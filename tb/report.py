"""The failure report of a lock-step run (DESIGN.md section 6), as console text and as JSON.

One `FailureReport` describes why a run failed: a field mismatch (with a lane table of the
differing lanes), a hang, an RTL error, X/Z on the commit port, an unimplemented instruction or
an end-of-test difference. It carries where (cycle, block index and the slot it occupies, warp,
PC, disassembly), the warp's last instructions (a line marks where a new block began in the
warp slot), what the golden model says about the same instruction when the DUT stopped with an
error, and the command that reruns the test with waveforms. The orchestrator (tb/lockstep.py)
adds the wave file after the automatic rerun.

A field's `source` says where the DUT's value came from when the DUT only passed it through
(a load's value supplied by the testbench's memory), so that the report blames the right party.
The console text groups lanes that differ the same way (`group_lanes`); the JSON keeps every row.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from itertools import pairwise
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
    source: str = ""  # where the DUT's value came from when the DUT only passed it through ("testbench memory"); "" = the DUT itself


BLOCK_MARK = "----"  # history lines starting with it mark where a new block began in the warp slot
SHOWN_ROWS = 16  # lane-table rows printed per field before "... more"


def lane_list(lanes: list[int]) -> str:
    """`0-3,5,7-9`: lane numbers as ranges."""
    out: list[str] = []
    start = prev = None
    for lane in sorted(lanes):
        if prev is not None and lane == prev + 1:
            prev = lane
            continue
        if start is not None:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
        start = prev = lane
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ",".join(out)


def _int(text: str) -> int | None:
    try:
        return int(text, 16) if text.startswith("0x") else None
    except ValueError:
        return None


def group_lanes(rows: list[LaneDiff], min_group: int = 2) -> list[tuple[str, str, str]]:
    """Console rows (lanes, expected, actual) of a lane table, lanes that differ the same way on one
    row: the same difference (actual = expected + d, modulo the width of the printed value), else
    the same differing bits (actual = expected ^ x), with the first lane's values as an example, or
    as the values themselves when every lane of the group has the same pair; then lanes where one
    side is the same and the other steps evenly from lane to lane; then identical pairs of values
    that are not numbers. Rows not about a lane (memory bytes) stay as they are, last."""
    out = [("-", r.expected, r.actual) for r in rows if r.lane is None]
    single = sorted((r.lane, r.expected, r.actual) for r in rows if r.lane is not None)
    pairs: list[tuple[int, tuple[str, str, str]]] = []
    for relation in ("+", "^"):
        groups: dict[int, list[tuple[int, str, str]]] = {}
        rest: list[tuple[int, str, str]] = []
        for lane, exp, act in single:
            e, a = _int(exp), _int(act)
            if e is None or a is None or len(exp) != len(act):
                rest.append((lane, exp, act))
                continue
            width = 4 * (len(exp) - 2)
            key = (a - e) % (1 << width) if relation == "+" else a ^ e
            groups.setdefault(key, []).append((lane, exp, act))
        single = rest
        for key, members in groups.items():
            if len(members) < min_group:
                single.extend(members)
                continue
            lane, exp, act = members[0]
            lanes = lane_list([m[0] for m in members])
            if all(m[1:] == (exp, act) for m in members):
                pairs.append((lane, (lanes, exp, act)))
                continue
            width = 4 * (len(exp) - 2)
            if relation == "+":
                signed = key - (1 << width) if key >> (width - 1) else key
                rule = f"actual = expected {'+' if signed >= 0 else '-'} {abs(signed):#x}"
            else:
                rule = f"actual = expected ^ {key:#x}"
            pairs.append((lane, (lanes, rule, f"(lane {lane}: {exp} -> {act})")))
        single.sort()
    # one side the same in every lane, the other a progression over the lanes: one row
    for fixed, moving in ((1, 2), (2, 1)):
        groups2: dict[str, list[tuple[int, str, str]]] = {}
        for member in single:
            groups2.setdefault(member[fixed], []).append(member)
        single = []
        for value, members in groups2.items():
            steps = {(_int(m2[moving]) or 0) - (_int(m1[moving]) or 0) for m1, m2 in pairwise(members)}
            lanes_ok = all(m2[0] == m1[0] + 1 for m1, m2 in pairwise(members))
            numeric = all(_int(m[moving]) is not None for m in members)
            if len(members) >= max(min_group, 3) and numeric and lanes_ok and len(steps) == 1:
                step = steps.pop()
                run = f"{members[0][moving]}..{members[-1][moving]} ({'+' if step >= 0 else '-'}{abs(step):#x} a lane)"
                row = (value, run) if fixed == 1 else (run, value)
                pairs.append((members[0][0], (lane_list([m[0] for m in members]), *row)))
            else:
                single.extend(members)
        single.sort()
    by_pair: dict[tuple[str, str], list[int]] = {}
    for lane, exp, act in single:
        by_pair.setdefault((exp, act), []).append(lane)
    pairs.extend((lanes[0], (lane_list(lanes), exp, act)) for (exp, act), lanes in by_pair.items())
    return [p for _, p in sorted(pairs, key=lambda x: x[0])] + out


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
    cta: int | None = None  # the block slot the DUT reports (commit_cta)
    block: int | None = None  # the block index (blockIdx, counted x-fastest over the grid) that slot held
    warp: int | None = None
    pc: int | None = None
    text: str = ""  # disassembly of the instruction
    diffs: list[FieldDiff] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # the warp's last instructions, oldest first; BLOCK_MARK lines between blocks
    model_says: str = ""  # DUT errors: what the golden model does with the same instruction of the same warp
    dut: str = "RTL"  # how the report names the design under test
    warps: str = ""  # each warp's last PC (hangs, end-of-test)
    rerun: str = ""
    wave_file: str | None = None
    mismatches: int = 1  # how many mismatches this run saw (the configuration's max_mismatches lets more through)
    image: str | None = None  # a picture of the failure (LG: the frame expected | got | difference)

    def to_text(self) -> str:
        where = []
        if self.cycle is not None:
            where.append(f"cycle {self.cycle}")
        if self.block is not None:
            where.append(f"block {self.block}" + (f" (slot {self.cta})" if self.cta is not None else ""))
        elif self.cta is not None:
            where.append(f"block slot {self.cta}")
        if self.warp is not None:
            where.append(f"warp {self.warp}")
        if self.pc is not None:
            where.append(f"PC {self.pc:#06x}")
        # seed and NUM_SP are G80's settings; a DUT without them (LG: num_sp 0) is named by simulator and profile
        setting = f" seed {self.seed} on {self.simulator}, NUM_SP={self.num_sp}," if self.num_sp else f" on {self.simulator},"
        lines = [f"LOCK-STEP FAILURE ({self.kind}): {self.test}{setting} profile {self.profile}"]
        if where:
            lines.append("  at " + ", ".join(where) + (f":  {self.text}" if self.text else ""))
        lines.append(f"  {self.message}")
        if self.model_says:
            lines.append(f"  golden model on the same instruction: {self.model_says}")
        for d in self.diffs:
            source = f"from {d.source} via {self.dut}" if d.source else self.dut
            lines.append(f"  field {d.field}: expected (model) {d.expected}   actual ({source}) {d.actual}")
            if d.lanes:
                rows = group_lanes(d.lanes)
                lanes_w = max(5, *(len(r[0]) for r in rows))
                lines.append(f"    {'lanes':>{lanes_w}}  {'expected':>12}  {'actual':>12}")
                lines.extend(f"    {r[0]:>{lanes_w}}  {r[1]:>12}  {r[2]:>12}" for r in rows[:SHOWN_ROWS])
                if len(rows) > SHOWN_ROWS:
                    lines.append(f"    ... {len(rows) - SHOWN_ROWS} more rows (every lane is in report.json)")
        if self.history:
            lines.append(f"  last instructions{' of this warp' if self.warp is not None else ''} (oldest first):")
            lines.extend("    " + h for h in self.history)
        if self.warps:
            lines.append(f"  warps: {self.warps}")
        if self.image:
            lines.append(f"  diff image: {self.image} (expected | got | difference)")
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


def waived_text(waived: dict[str, int]) -> str:
    """The waivers a run applied, `name xN, ...` in name order, as every report of a run prints them."""
    return ", ".join(f"{name} x{count}" for name, count in sorted(waived.items()))
