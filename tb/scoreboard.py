"""The lock-step scoreboard (DESIGN.md sections 5 and 6).

The RTL leads: for every record of the commit port the golden model executes the next instruction
of the same warp (`SM.step`) and the two records are compared field by field. Values the model
cannot know (the clock special register) are taken from the RTL and marked synchronised. Every
compared pair is published on `ap` (coverage subscribes there). The first failure (or the
MAX_MISMATCHES-th mismatch) ends the run through `Verdict`.

`commit_barrier` is not compared: whether the last warp to arrive "waits" is a matter of naming.
What matters is checked by the model itself: stepping a warp the model still holds at a barrier
raises, so an RTL that releases a barrier early is reported at that warp's next commit.

Stores are also checked where they leave the SM: the memory agent's analysis port feeds
`port_export`, and the global/local bytes written on the memory port since the previous commit
(one instruction executes at a time) must be exactly the bytes the model's record stores. A wrong
byte enable or a lost store is so reported at its instruction, not only by the final memory image.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from commit_agent import RtlCommit
from mem_agent import MemRequest
from pyuvm import uvm_analysis_port, uvm_subscriber
from report import FailureReport, FieldDiff, LaneDiff

from golden.commit import Commit
from golden.errors import ModelError
from golden.sm import SM

HISTORY = 8
SPACES = ("shared", "global", "local")


def lanes(value: int, mask: int, width: int = 32) -> list[int]:
    m = (1 << width) - 1
    return [(value >> (width * i)) & m if mask >> i & 1 else 0 for i in range(32)]


@dataclass
class Compared:
    """One warp-instruction both sides agreed on: what coverage samples."""

    model: Commit
    rtl: RtlCommit
    stack_depth: int  # the warp's SIMT stack depth when the instruction issued


class Verdict:
    """The run's outcome so far: the first failure report, or none."""

    def __init__(self, context: dict, on_end: Callable[[], None]) -> None:
        self.context = context  # test, seed, simulator, num_sp, profile, rerun
        self.report: FailureReport | None = None
        self.mismatches = 0
        self._on_end = on_end

    def fail(self, report: FailureReport) -> None:
        if self.report is None:
            for key, value in self.context.items():
                setattr(report, key, value)
            self.report = report
        self._on_end()


def _hex(value: int, width: int = 32) -> str:
    return f"{value:#0{width // 4 + 2}x}"


class Scoreboard(uvm_subscriber):
    def __init__(self, name: str, parent, model: SM, verdict: Verdict, max_mismatches: int = 1) -> None:
        super().__init__(name, parent)
        self.model, self.verdict, self.max_mismatches = model, verdict, max_mismatches
        self.compared = 0
        self.history: dict[int, deque[str]] = {}

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.port_export = uvm_subscriber.uvm_AnalysisImp("port_export", self, self.write_request)
        self.port_stores: list[MemRequest] = []

    def write_request(self, req: MemRequest) -> None:
        if req.we:
            self.port_stores.append(req)

    # -- one record ------------------------------------------------------------------------------

    def write(self, rtl: RtlCommit) -> None:
        if self.verdict.report is not None and self.verdict.mismatches >= self.max_mismatches:
            return
        try:
            self._compare(rtl)
        except ModelError as exc:  # the model refuses (e.g. the RTL commits for a finished warp)
            self._fail("mismatch", f"the golden model cannot follow the RTL: {exc}", rtl)

    def _fail(self, kind: str, message: str, rtl: RtlCommit, text: str = "", diffs: list[FieldDiff] | None = None) -> None:
        self.verdict.mismatches += 1
        report = FailureReport(kind, message, cycle=rtl.cycle, cta=rtl.cta, warp=rtl.warp, pc=rtl.pc, text=text, diffs=diffs or [],
                               history=list(self.history.get(rtl.warp, [])), mismatches=self.verdict.mismatches)  # fmt: skip
        if self.verdict.report is not None:
            self.verdict.report.mismatches = self.verdict.mismatches
            self.logger.error(report.to_text())
        if kind != "mismatch" or self.verdict.mismatches >= self.max_mismatches or self.verdict.report is None:
            self.verdict.fail(report)

    def _compare(self, rtl: RtlCommit) -> None:
        model = self.model
        if all(w.done for w in model.warps) and not model._start_round():
            self._fail("mismatch", "the RTL commits after the model finished every block", rtl)
            return
        if rtl.warp >= len(model.warps):
            self._fail("mismatch", f"the RTL commits for warp slot {rtl.warp}, which the model has not placed (it has {len(model.warps)})", rtl)
            return
        warp = model.warps[rtl.warp]
        plan = model.plan(rtl.pc)
        if rtl.unimpl:
            self._fail("unimplemented", f"the RTL does not implement {plan.text} ({plan.insn.form.name}, family {plan.insn.form.family})", rtl, plan.text)
            return
        if plan.insn.form.name == "S2R" and plan.insn.fields["sreg"] == 1:
            # the clock cannot be known by the model: take the RTL's values (DESIGN.md 5), marked synchronised
            model.sync_clock = np.array(lanes(rtl.gpr_data, 0xFFFFFFFF), np.uint32)
        depth = len(warp.stack)
        c = model.step(warp)
        assert c is not None
        history = self.history.setdefault(rtl.warp, deque(maxlen=HISTORY))
        history.append(f"{c.pc:04x}  {c.text}")
        diffs = self._diffs(rtl, c) + self._port_diffs(c, warp.base)
        if diffs:
            fields = ", ".join(d.field for d in diffs)
            self._fail("mismatch", f"{fields} differ{'s' if len(diffs) == 1 else ''}", rtl, c.text, diffs)
            return
        self.compared += 1
        self.ap.write(Compared(c, rtl, depth))

    # -- field by field --------------------------------------------------------------------------

    def _diffs(self, rtl: RtlCommit, c: Commit) -> list[FieldDiff]:
        diffs: list[FieldDiff] = []
        for name, got, want, width in (("pc", rtl.pc, c.pc, 24), ("seq", rtl.seq, c.seq, 32), ("insn", rtl.insn if rtl.long else rtl.insn & 0xFFFFFFFF, c.insn, 64),
                                       ("active_mask", rtl.active, c.active_mask, 32), ("exec_mask", rtl.exec, c.exec_mask, 32)):  # fmt: skip
            if got != want:
                diffs.append(FieldDiff(name, _hex(want, width), _hex(got, width)))
        exe = c.exec_mask
        half_names = (None, "L", "H")
        # registers: (register, half) written and the values of the lanes that executed
        want_gpr = [(w.index, w.half, [int(x) for x in w.values]) for w in c.gpr]
        got_gpr = [(rtl.gpr_reg + k, half_names[rtl.gpr_half] if rtl.gpr_half < 3 else "?", lanes(rtl.gpr_data >> (1024 * k), exe))
                   for k in range(rtl.gpr_count)] if rtl.gpr_we else []  # fmt: skip
        diffs += self._writes("gpr", got_gpr, want_gpr, exe, lambda r: f"R{r[0]}{r[1] or ''}", 32)
        want_cc = [(w.index, None, [int(x) for x in w.values]) for w in c.cc]
        got_cc = [(rtl.cc_reg, None, lanes(rtl.cc_data, exe, 4))] if rtl.cc_we else []
        diffs += self._writes("cc", got_cc, want_cc, exe, lambda r: f"$c{r[0]}", 4)
        want_a = [(w.index, None, [int(x) for x in w.values]) for w in c.addr[-1:]]  # post-increment after R2A: the last write wins
        got_a = [(rtl.a_reg, None, lanes(rtl.a_data, exe, 16))] if rtl.a_we else []
        diffs += self._writes("addr", got_a, want_a, exe, lambda r: f"$a{r[0]}", 16)
        diffs += self._mem(rtl, c)
        for name, got, want, width in (("next_pc", rtl.next_pc, c.next_pc, 24), ("next_mask", rtl.next_mask, c.next_mask, 32)):
            if got != want:
                diffs.append(FieldDiff(name, _hex(want, width), _hex(got, width)))
        if bool(rtl.done) != c.done:
            diffs.append(FieldDiff("done", str(c.done), str(bool(rtl.done))))
        return diffs

    def _port_diffs(self, c: Commit, base: int) -> list[FieldDiff]:
        """The bytes this instruction wrote through the memory port against the model's stores.

        Compared as multisets of (space, byte address, value), one entry per lane and byte, so a
        byte enable too many is caught even when a later lane overwrites that byte again."""
        got: Counter[tuple[str, int, int]] = Counter()
        for req in self.port_stores:
            for j in range(4):
                if req.be >> j & 1:
                    got["local" if req.local else "global", req.addr + j, (req.wdata >> (8 * j)) & 0xFF] += 1
        self.port_stores = []
        want: Counter[tuple[str, int, int]] = Counter()
        local_bytes = self.model.config.local_bytes
        for m in c.mem:
            if m.space == "shared":
                continue
            for lane in range(32):
                if m.lanes >> lane & 1:
                    addr = int(m.addr[lane]) + ((base + lane) * local_bytes if m.space == "local" else 0)
                    for j in range(m.size):
                        want[m.space, addr + j, (int(m.data[lane]) >> (8 * j)) & 0xFF] += 1
        if got == want:
            return []
        extra, missing = sorted((got - want).elements()), sorted((want - got).elements())
        rows = [LaneDiff(None, "not written", f"{k[0]}[{k[1]:#x}]={k[2]:#04x}") for k in extra[:8]]
        rows += [LaneDiff(None, f"{k[0]}[{k[1]:#x}]={k[2]:#04x}", "not written") for k in missing[:8]]
        return [FieldDiff("memory port", f"{sum(want.values())} byte writes", f"{sum(got.values())} byte writes: {len(extra)} unexpected, {len(missing)} missing", rows)]

    @staticmethod
    def _writes(field: str, got: list, want: list, exe: int, name: Callable, width: int) -> list[FieldDiff]:
        if got == want:
            return []
        shape_got = [name(r) for r in got] or ["no write"]
        shape_want = [name(r) for r in want] or ["no write"]
        if shape_got != shape_want:
            return [FieldDiff(field, ", ".join(shape_want), ", ".join(shape_got))]
        out = []
        for (reg, half, g), (_, _, w) in zip(got, want, strict=True):
            if g != w:
                rows = [LaneDiff(i, _hex(w[i], width), _hex(g[i], width)) for i in range(32) if exe >> i & 1 and g[i] != w[i]]
                out.append(FieldDiff(field, name((reg, half)), name((reg, half)) + f" ({len(rows)} lane{'s' if len(rows) != 1 else ''} differ)", rows))
        return out

    @staticmethod
    def _mem(rtl: RtlCommit, c: Commit) -> list[FieldDiff]:
        if not rtl.mem_we and not c.mem:
            return []
        if not rtl.mem_we or not c.mem:
            want = f"{c.mem[0].space} store of {c.mem[0].size * len(c.mem)} bytes" if c.mem else "no store"
            got = f"{SPACES[rtl.mem_space] if rtl.mem_space < 3 else '?'} store of {rtl.mem_size} bytes" if rtl.mem_we else "no store"
            return [FieldDiff("mem", want, got)]
        first = c.mem[0]
        size = first.size if len(c.mem) == 1 else 4 * len(c.mem)
        space = SPACES[rtl.mem_space] if rtl.mem_space < 3 else f"space {rtl.mem_space}"
        if (space, rtl.mem_size, rtl.mem_lanes) != (first.space, size, first.lanes):
            return [FieldDiff("mem", f"{first.space} store of {size} bytes, lanes {first.lanes:#010x}", f"{space} store of {rtl.mem_size} bytes, lanes {rtl.mem_lanes:#010x}")]
        m = first.lanes
        out = []
        got_addr = lanes(rtl.mem_addr, m)
        rows = [LaneDiff(i, _hex(int(first.addr[i])), _hex(got_addr[i])) for i in range(32) if m >> i & 1 and got_addr[i] != int(first.addr[i])]
        if rows:
            out.append(FieldDiff("mem.addr", f"{first.space} addresses", f"{len(rows)} lane(s) differ", rows))
        keep = (1 << (8 * min(size, 4))) - 1
        for k, part in enumerate(c.mem):
            got_data = lanes(rtl.mem_data >> (1024 * k), m)
            rows = [LaneDiff(i, _hex(int(part.data[i]) & keep), _hex(got_data[i] & keep)) for i in range(32) if m >> i & 1 and (got_data[i] ^ int(part.data[i])) & keep]
            if rows:
                out.append(FieldDiff(f"mem.data[{k}]", f"{first.space} store data", f"{len(rows)} lane(s) differ", rows))
        return out
