"""The LG lock-step scoreboard: the DUT leads, the golden model follows one instruction per commit.

For every record on the commit port (`commit`), the model executes its next instruction
(`Machine.step`) and the two records are compared field by field in the contract's order; the
first field that differs ends the run with a report naming the cycle, the PC, the instruction's
disassembly, the field, the expected (model) and the actual (DUT) value, and the last
instructions before it. The report is G80's (tb/report.py `FailureReport`), so both ISAs read
alike.

Frame-buffer events are checked where they leave the core, as one ordered stream: the model's
endprimitive gives its pixel writes (address, 12-bit word) in scan order, flush a clear and draw a
draw; the DUT's port gives its events as they happen (`fb_event`). The port may run ahead of the
commit port (a pixel written before its endprimitive retires) or behind it (registered writes),
so DUT events wait in a queue until the model has produced the events they are compared with.
The first event that differs is a frame mismatch: the run goes on for a while to collect the
rest of that primitive's writes (`settle`), then the report names the first wrong pixel and the
primitive's instruction, and writes the diff image (tb/lg/frames.py).

A field the model did not write must not be written by the DUT either (a write enable is a field
like any other); values are compared only where written. `depth` has no write enable on the port:
the port carries the stack depth on every record (docs/design/lg-rtl.md), so it is compared on
every record. A byte store's data is compared in its low byte (the contract's data is the byte
written).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from golden.lg.commit import LgCommit
from golden.lg.disasm import render
from golden.lg.model import LgError, Machine
from golden.lg.table import IllegalWord, decode
from tb.report import FailureReport, FieldDiff

from . import frames
from .harness import COMMIT_WIDTHS
from .program import LgTest

HISTORY = 8
MASK32 = 0xFFFFFFFF


@functools.lru_cache(maxsize=4096)
def text_of(word: int) -> str:
    """The instruction's disassembly (its hex word when it is no instruction). Cached: a program
    has few distinct words and each commit names its own, which decoding anew made the largest
    cost of the scoreboard."""
    try:
        return render(decode(word))
    except IllegalWord:
        return f".word {word:#010x}"


def _hex(v: int, bits: int) -> str:
    return f"{v:#0{(bits + 3) // 4 + 2}x}"


def _elements(vals: tuple[int | float, ...] | None, bits: int, count: int) -> int:
    """A tuple of elements (element 0 first) packed as the port carries it (element k at bits k*bits)."""
    out = 0
    for k, v in enumerate(vals or (0,) * count):
        out |= (int(v) & ((1 << bits) - 1)) << (k * bits)
    return out


def expected_port(c: LgCommit, depth: int) -> dict[str, int]:
    """The model's record as the commit port would carry it (write enables, packed buses); fields
    not written are absent, so that their value on the port is not compared. `depth` is the
    matrix-stack depth after the instruction: the port carries it on every record."""
    e: dict[str, int] = {"pc": c.pc, "insn": c.insn, "next_pc": c.next_pc}
    e["rd_we"] = int(c.rd is not None)
    if c.rd is not None:
        e["rd"], e["rd_val"] = c.rd, int(c.rd_val or 0) & 0xFFFF
    e["cc_we"] = int(c.cc is not None)
    if c.cc is not None:
        e["cc"] = c.cc
    e["vd_we"] = int(c.vd is not None)
    if c.vd is not None:
        e["vd"], e["vd_val"] = c.vd, _elements(c.vd_val, 16, 4)
    e["mem_we"] = int(c.mem is not None)
    if c.mem is not None:
        e["mem_addr"], e["mem_size"] = c.mem.addr, c.mem.size
        e["mem_data"] = c.mem.data & (0xFF if c.mem.size == 1 else 0xFFFF)
    e["mat_we"] = int(c.mat is not None)
    if c.mat is not None:
        e["mat"] = _elements(c.mat, 32, 16)
    e["depth"] = c.depth if c.depth is not None else depth
    e["col_we"] = int(c.colour is not None)
    if c.colour is not None:
        e["col"] = c.colour
    e["vtx_we"] = int(c.vertex is not None)
    if c.vertex is not None:
        v = c.vertex
        e["vtx_idx"], e["vtx_x"], e["vtx_y"] = v.index, int(v.x) & MASK32, int(v.y) & MASK32
        e["vtx_z"], e["vtx_col"] = int(v.z) & 0xFFFF, v.colour
    e["prim_begin"] = int(c.prim_begin is not None)
    if c.prim_begin is not None:
        e["prim_type"] = c.prim_begin
    e["prim_end"] = int(c.prim_end is not None)
    if c.prim_end is not None:
        e["frags"] = c.prim_end
    e["done"] = int(c.done)
    return e


WIDTHS = {name: width for name, width in COMMIT_WIDTHS.items() if width > 1}


def show(name: str, value: int) -> str:
    """A port value as the report prints it: elements for the packed buses, hex otherwise."""
    if name == "vd_val":
        return "[" + " ".join(_hex((value >> (16 * k)) & 0xFFFF, 16) for k in range(4)) + "]"
    if name == "mat":
        return "[" + " ".join(_hex((value >> (32 * k)) & MASK32, 32) for k in range(16)) + "]"
    if name == "cc":
        return f"{value:#05b} ({'N' if value & 1 else '-'}{'Z' if value & 2 else '-'}{'P' if value & 4 else '-'})"
    if name.endswith("_we") or name in ("prim_begin", "prim_end", "done"):
        return str(value)
    return _hex(value, WIDTHS.get(name, 16))


@dataclass
class FbChunk:
    """Expected frame-buffer events of one instruction: its pixel writes, or a clear, or a draw."""

    kind: str  # "write", "clear" or "draw"
    seq: int
    pc: int
    text: str
    addr: np.ndarray | None = None
    data: int = 0
    pos: int = 0  # writes of this chunk already matched

    def left(self) -> int:
        return 0 if self.addr is None else len(self.addr) - self.pos


class LgScoreboard:
    """Compares the DUT's commits and frame-buffer events with the golden model's."""

    def __init__(self, test: LgTest, context: dict, out_dir: Path, on_fail: Callable[[], None] = lambda: None) -> None:
        self.test = test
        self.context = context  # test, simulator, profile, rerun: copied into the report
        self.out_dir = out_dir
        self.model = Machine(test.profile)
        self.model.load(test.words, test.data)
        self.commits = 0
        self.report: FailureReport | None = None
        self.history: deque[str] = deque(maxlen=HISTORY)
        self.expected: deque[FbChunk] = deque()
        self.got: deque[tuple] = deque()  # DUT frame-buffer events waiting for the model's
        self.exp_fb, self.got_fb = frames.blank(), frames.blank()
        self.fb_writes = 0
        self.frame_fail: dict | None = None  # a frame mismatch waiting for its primitive's remaining writes
        self.done = False
        self._on_fail = on_fail

    # -- verdict -----------------------------------------------------------------------------------

    def fail(self, report: FailureReport) -> None:
        if self.report is None:
            for key, value in self.context.items():
                setattr(report, key, value)
            report.history = list(self.history)
            self.report = report
            self._on_fail()

    @property
    def failed(self) -> bool:
        return self.report is not None

    # -- commits -----------------------------------------------------------------------------------

    def commit(self, cycle: int, got: dict[str, int]) -> None:
        """One DUT record (the port's fields by name, without the cm_ prefix)."""
        if self.failed or self.frame_fail:
            return
        text = text_of(got.get("insn", 0))
        if self.commits >= self.test.max_steps:
            self.fail(FailureReport("runaway", f"the program did not end within {self.test.max_steps} instructions (;! max_steps, default "
                                    f"{self.test.max_steps}): check its loops", cycle=cycle, pc=got.get("pc"), text=text))
            return
        if self.model.done:
            self.fail(FailureReport("mismatch", f"the DUT retired an instruction after the program ended (commit {self.commits}; the model "
                                    "ended with the one before)", cycle=cycle, pc=got.get("pc"), text=text))
            return
        try:
            c = self.model.step()
        except LgError as exc:
            self.fail(FailureReport("model_error", f"the golden model cannot run the next instruction: {exc}", cycle=cycle, pc=got.get("pc"), text=text))
            return
        exp = expected_port(c, len(self.model.st.stack))
        text = text_of(c.insn)
        diffs = [FieldDiff(name, show(name, want), show(name, got.get(name, 0))) for name, want in exp.items() if got.get(name, 0) != want]
        if diffs:
            first = diffs[0].field
            self.fail(FailureReport("mismatch", f"commit {c.seq}: field {first} differs" + (f" (and {len(diffs) - 1} more)" if len(diffs) > 1 else ""),
                                    cycle=cycle, pc=c.pc, text=text, diffs=diffs))
            return
        self.commits += 1
        self.history.append(f"{c.pc:#06x}  {text}")
        if c.fb is not None and len(c.fb):
            self.expected.append(FbChunk("write", c.seq, c.pc, text, np.asarray(c.fb.addr), c.fb.data))
        elif c.fb_event is not None:
            self.expected.append(FbChunk("clear" if c.fb_event == "flush" else "draw", c.seq, c.pc, text))
        if c.done:
            self.done = True
        self._drain(cycle)

    # -- frame buffer ------------------------------------------------------------------------------

    def fb_event(self, cycle: int, event: tuple) -> None:
        """One DUT frame-buffer event: ("write", addr, data), ("clear",) or ("draw",)."""
        if self.frame_fail is not None:
            if self.frame_fail["budget"] > 0:
                self.frame_fail["budget"] -= 1
                self._apply_got(event)
            return
        if self.failed:
            return
        self.got.append((cycle, event))
        self._drain(cycle)

    def _apply_got(self, event: tuple) -> None:
        if event[0] == "write":
            addr = event[1]
            if 0 <= addr < self.got_fb.size:
                self.got_fb.flat[addr] = event[2]
        elif event[0] == "clear":
            self.got_fb[:] = 0

    def _drain(self, cycle: int) -> None:
        """Compare waiting DUT events with the model's, as far as both go."""
        while self.got and self.frame_fail is None:
            while self.expected and self.expected[0].kind == "write" and self.expected[0].left() == 0:
                self.expected.popleft()
            if not self.expected:
                return
            at, event = self.got[0]
            head = self.expected[0]
            if head.kind == "write" and event[0] == "write":
                assert head.addr is not None
                want = int(head.addr[head.pos])
                if event[1] == want and event[2] == head.data:
                    self.got.popleft()
                    head.pos += 1
                    self.fb_writes += 1
                    self.exp_fb.flat[want] = head.data
                    self._apply_got(event)
                    continue
            elif head.kind == event[0]:
                self.got.popleft()
                self.expected.popleft()
                if head.kind == "clear":
                    self.exp_fb[:] = 0
                    self.got_fb[:] = 0
                continue
            self._frame_mismatch(at, head, event)

    def _frame_mismatch(self, cycle: int, head: FbChunk, event: tuple) -> None:
        """The first frame-buffer event that differs: finish the expected frame with the rest of the
        primitive's writes, and keep collecting the DUT's for `settle` (the report comes then)."""
        if head.kind == "write":
            assert head.addr is not None
            want_addr = int(head.addr[head.pos])
            self.exp_fb.flat[head.addr[head.pos:]] = head.data
            expected = f"write {_hex(head.data, 12)} at {want_addr} (row {want_addr // 640}, col {want_addr % 640})"
            first = want_addr if event[0] != "write" or event[1] == want_addr else min(want_addr, event[1])
        else:
            if head.kind == "clear":
                self.exp_fb[:] = 0
            expected = f"{head.kind} (fb_{head.kind})"
            first = event[1] if event[0] == "write" else None
        if event[0] == "write":
            actual = f"write {_hex(event[2], 12)} at {event[1]} (row {event[1] // 640}, col {event[1] % 640})"
        else:
            actual = f"{event[0]} (fb_{event[0]})"
        if head.kind == "write" and event[0] == "write" and event[1] == int(head.addr[head.pos]):  # type: ignore[index]
            field = "fb_data"
        elif head.kind == "write" and event[0] == "write":
            field = "fb_addr"
        else:
            field = "fb_event"
        # the DUT's frame gets as many of its events as the model's primitive had left (the wrong one
        # included), so that the diff image shows that primitive, not the next one drawn over it
        budget = max(1, head.left())
        for _, e in self.got:
            if budget == 0:
                break
            budget -= 1
            self._apply_got(e)
        self.got.clear()
        self.frame_fail = {"cycle": cycle, "head": head, "expected": expected, "actual": actual, "field": field, "first": first,
                           "remaining": head.left(), "budget": budget}  # fmt: skip

    def settled(self, waited: int) -> bool:
        """Whether a frame mismatch has collected what it waits for: the DUT's events up to the
        number the primitive had left, or `waited` cycles past what they could take (one a cycle,
        with a margin for the rows of the bounding box the triangle does not cover)."""
        ff = self.frame_fail
        return ff is None or ff["budget"] <= 0 or waited > 4 * ff["remaining"] + 2000

    def finish_frame_failure(self) -> None:
        """Write the diff image and fail with the frame mismatch's report."""
        ff = self.frame_fail
        if ff is None:
            return
        self.frame_fail = None
        head: FbChunk = ff["head"]
        first = ff["first"]
        image = frames.diff_image(self.exp_fb, self.got_fb, self.out_dir / "frame_diff.png", first)
        bad = frames.differing(self.exp_fb, self.got_fb)
        where = ""
        if first is not None:
            row, col = frames.pixel(first)
            where = (f"; first wrong pixel (row {row}, col {col}): expected {_hex(int(self.exp_fb.flat[first]), 12)}, "
                     f"got {_hex(int(self.got_fb.flat[first]), 12)}")
        if head.seq >= 0:
            what, pc = f"after {head.pos} matching write(s) of commit {head.seq}", head.pc
        else:  # an event after everything the model expected: no instruction to name
            what, pc = "after the model's last frame-buffer event", None
        report = FailureReport("frame_mismatch", f"frame buffer differs {what}: {bad} pixel(s) differ{where}", cycle=ff["cycle"], pc=pc,
                               text=head.text, diffs=[FieldDiff(ff["field"], ff["expected"], ff["actual"])], image=str(image))  # fmt: skip
        self.fail(report)

    # -- end of run --------------------------------------------------------------------------------

    def pending_fb(self) -> bool:
        """Whether the model still expects frame-buffer events the DUT has not given."""
        return any(ch.kind != "write" or ch.left() for ch in self.expected)

    def end(self, cycle: int, finished: bool, hang_cycles: int | None = None) -> None:
        """The run stopped at `cycle`: judge what is left (a hang, missing or extra frame-buffer
        events, no commit at all)."""
        self.finish_frame_failure()
        if self.failed:
            return
        if not finished:
            at = f"after commit {self.commits - 1} ({self.history[-1].strip()})" if self.history else "before the first commit"
            self.fail(FailureReport("hang", f"no commit and no frame-buffer event for {hang_cycles} cycles, {at} (the core stalls or lost "
                                    "cm_valid; raise the bound with --hang-cycles if a primitive really takes longer)", cycle=cycle))
            return
        if self.commits == 0:
            self.fail(FailureReport("no_commits", "the run compared zero commits (cm_valid never rose): check the DUT's commit port", cycle=cycle))
            return
        if self.pending_fb():
            head = next(ch for ch in self.expected if ch.kind != "write" or ch.left())
            if head.kind == "write":
                self._frame_mismatch(cycle, head, ("none",))
                self.frame_fail["actual"] = f"no event (the DUT ended after {head.pos} of the {len(head.addr)} writes)"  # type: ignore[index, arg-type]
                self.frame_fail["field"] = "fb_we"  # type: ignore[index]
                self.finish_frame_failure()
            else:
                self.fail(FailureReport("frame_mismatch", f"the DUT never gave the {head.kind} of commit {head.seq} (fb_{head.kind} did not pulse)",
                                        cycle=cycle, pc=head.pc, text=head.text, diffs=[FieldDiff("fb_event", head.kind, "none")]))
            return
        if self.got:
            at, event = self.got[0]
            self.expected.append(FbChunk("none", -1, 0, ""))
            self._frame_mismatch(at, self.expected[0], event)
            self.frame_fail["expected"] = "no event (the model's frame was complete)"  # type: ignore[index]
            self.finish_frame_failure()
