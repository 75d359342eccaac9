"""The lock-step scoreboard (DESIGN.md sections 5 and 6), the same for every DUT.

The DUT leads: for every record the DUT commits (a `DutCommit`: the golden model's own `Commit`
plus the cycle, made by the DUT's adapter, tb/dut.py) the golden model executes the next
instruction of the same warp (`SM.step`) and the two records are compared field by field. Values
the model cannot know (the clock special register) are taken from the DUT and marked
synchronised. Every compared pair is published on `ap` (coverage subscribes there). The first
failure (or the max_mismatches-th mismatch, tb/config.py) ends the run through `Verdict`.

`barrier` is not compared: whether the last warp to arrive "waits" is a matter of naming.
What matters is checked by the model itself: stepping a warp the model still holds at a barrier
raises, so a DUT that releases a barrier early is reported at that warp's next commit.

Reports name the block index with its slot, mark in the warp's history where a new block began
in that warp slot, and, for a DUT whose global/local memory the testbench serves (`tb_memory`),
say that a load's value came from the testbench's memory through the DUT: the DUT only passed
it on. `explain_error` gives a DUT error's report the instruction, the block and what the golden
model does with the same instruction of the same warp (its fault with lane and address, or its
record when it executes without one).

Stores are also checked where they leave the SM, for a DUT whose adapter observes its memory
interface (`check_stores`): at a GST/LST commit, the store requests on `port_export` since the
previous GST/LST commit (one instruction issues requests at a time, and a store's are accepted
before it commits; other warps' loads may commit in between) must write exactly the global/local
bytes the model's record stores. A wrong byte enable or a lost store is so reported at its instruction, not only by the
final memory image.
"""

from __future__ import annotations

import copy
import re
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
from pyuvm import uvm_analysis_port, uvm_subscriber

from golden.errors import MemoryFault, ModelError
from golden.g80.commit import Commit, MemWrite, RegWrite
from golden.g80.sm import SM

from .dut import DutCommit
from .mem_agent import MemRequest
from .report import BLOCK_MARK, FailureReport, FieldDiff, LaneDiff

HISTORY = 8
LOADS = {"gld": "global", "lld": "local"}  # families whose register value the memory supplies
MEMORY_FAMILIES = {"global": {"gld", "gst"}, "local": {"lld", "lst"}}
STORE_FAMILIES = {"gst", "lst"}  # families whose memory effect the port shows (check_stores)
_BITS = np.arange(32, dtype=np.uint64)


@lru_cache(maxsize=4096)
def _keep(mask: int) -> np.ndarray:
    return ((np.uint64(mask) >> _BITS) & np.uint64(1)).astype(bool)


def lane_values(values: np.ndarray, mask: int) -> list[int]:
    """The 32 lane values with the lanes outside `mask` as 0 (only executing lanes are compared)."""
    return np.where(_keep(mask), np.asarray(values, np.uint64), 0).tolist()


def store_size(mem: list[MemWrite]) -> int:
    """Bytes per lane of one store instruction (its records are 32-bit parts when wider than 4 bytes)."""
    return mem[0].size if len(mem) == 1 else 4 * len(mem)


@dataclass
class Compared:
    """One warp-instruction both sides agreed on: what coverage samples."""

    model: Commit
    dut: DutCommit
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


class Waiver(Protocol):
    """A known DUT behaviour (golden/g80/flexgrip_findings.py) whose mismatches are not failures."""

    name: str
    forms: tuple[str, ...]
    fields: frozenset[str]
    when: tuple[tuple[str, int, int], ...]  # (instruction field, mask, value) that must hold as well (e.g. addop 3: with carry)
    dut_value: int | None  # when set: only if the DUT wrote this value in every lane that differs


def _lane_value(text: str) -> int | None:
    try:
        return int(text.split()[0], 16)
    except (ValueError, IndexError):
        return None


def _waiver_fields(diffs: list[FieldDiff]) -> set[str]:
    return {d.field.split(".")[0] for d in diffs}


class Scoreboard(uvm_subscriber):
    def __init__(self, name: str, parent, model: SM, verdict: Verdict, max_mismatches: int = 1, check_stores: bool = True,
                 tb_memory: bool = False, waivers: tuple[Waiver, ...] = ()) -> None:  # fmt: skip
        super().__init__(name, parent)
        self.model, self.verdict, self.max_mismatches, self.check_stores = model, verdict, max_mismatches, check_stores
        self.tb_memory = tb_memory  # the testbench's memory answers the DUT's global/local loads
        self.waivers = waivers
        self.waived: dict[str, int] = {}  # waiver name -> instructions it let through
        self.compared = 0
        # warp slot -> (block index, block slot, pc, text, note): formatted only when a report needs it
        self.history: dict[int, deque[tuple[int, int, int, str, str]]] = {}
        # warp slot -> (the last SR1 each lane read, which lanes have read it), for the clock's one check
        self.clock_reads: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def _clock_advances(self, dut: DutCommit) -> bool:
        """SR1 is the MP's cycle counter (ISA.md 7.1): its value is the DUT's to give (DESIGN.md 5:
        synchronised into the model, not compared), but a later read in the same warp slot (the
        same thread, or a later block's thread in that slot) is a later cycle and must give a
        larger value. A DUT whose clock stands still or goes back fails here (the value 0 for every
        read, say, which the model would otherwise take and agree with)."""
        d = dut.commit
        lanes = _keep(d.exec_mask)
        value = np.asarray(d.gpr[0].values, np.uint64)
        last, seen = self.clock_reads.setdefault(d.warp, (np.zeros(32, np.uint64), np.zeros(32, bool)))
        stuck = lanes & seen & (value <= last)
        if stuck.any():
            lane = int(np.flatnonzero(stuck)[0])
            self._fail("mismatch", f"SR1 (the clock, ISA.md 7.1) reads {int(value[lane]):#x} in lane {lane}, not after that lane's "
                                   f"previous read in this warp slot ({int(last[lane]):#x}): the clock does not advance", dut)  # fmt: skip
            return False
        last[lanes], seen[lanes] = value[lanes], True
        return True

    def history_of(self, warp: int | None) -> list[str]:
        """The warp slot's last instructions, oldest first, with a line where a new block began in the slot."""
        if warp is None:
            return []
        out: list[str] = []
        last = None
        for block, slot, pc, text, note in self.history.get(warp, []):
            if last is not None and block != last:
                out.append(f"{BLOCK_MARK} block {block} begins (slot {slot}, warp slot {warp}) {BLOCK_MARK}")
            out.append(f"{pc:04x}  {text}{note}")
            last = block
        return out

    def block_of(self, warp: int) -> int | None:
        return self.model.warps[warp].block.index if warp < len(self.model.warps) else None

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.port_export = uvm_subscriber.uvm_AnalysisImp("port_export", self, self.write_request)
        self.port_stores: list[MemRequest] = []

    def write_request(self, req: MemRequest) -> None:
        if req.we:
            self.port_stores.append(req)

    # -- one record ------------------------------------------------------------------------------

    def write(self, dut: DutCommit) -> None:
        if self.verdict.report is not None and self.verdict.mismatches >= self.max_mismatches:
            return
        try:
            self._compare(dut)
        except ModelError as exc:  # the model refuses (e.g. the DUT commits for a finished warp)
            self._fail("mismatch", f"the golden model cannot follow the RTL: {exc}", dut)

    def _fail(self, kind: str, message: str, dut: DutCommit, text: str = "", diffs: list[FieldDiff] | None = None) -> None:
        self.verdict.mismatches += 1
        d = dut.commit
        report = FailureReport(kind, message, cycle=dut.cycle, cta=d.cta, block=self.block_of(d.warp), warp=d.warp, pc=d.pc, text=text,
                               diffs=diffs or [], history=self.history_of(d.warp), mismatches=self.verdict.mismatches)  # fmt: skip
        if self.verdict.report is not None:
            self.verdict.report.mismatches = self.verdict.mismatches
            self.logger.error(report.to_text())
        if kind != "mismatch" or self.verdict.mismatches >= self.max_mismatches or self.verdict.report is None:
            self.verdict.fail(report)

    def _compare(self, dut: DutCommit) -> None:
        model = self.model
        d = dut.commit
        # a round is done only when every warp is: while the committing warp is not, it is not (the check walks all warps)
        busy = d.warp < len(model.warps) and not model.warps[d.warp].done
        if not busy and model.round_done and not model.start_next_round():
            self._fail("mismatch", "the RTL commits after the model finished every block", dut)
            return
        if d.warp >= len(model.warps):
            self._fail("mismatch", f"the RTL commits for warp slot {d.warp}, which the model has not placed (it has {len(model.warps)})", dut)
            return
        warp = model.warps[d.warp]
        plan = model.plan(d.pc)
        if dut.unimplemented:
            self._fail("unimplemented", f"the RTL does not implement {plan.text} ({plan.insn.form.name}, family {plan.insn.form.family})", dut, plan.text)
            return
        if plan.insn.form.name == "S2R" and plan.insn.fields["sreg"] == 1 and d.gpr:
            # the clock cannot be known by the model: take the DUT's values (DESIGN.md 5), marked
            # synchronised, once they pass the one check a clock allows
            if not self._clock_advances(dut):
                return
            model.sync_clock = np.asarray(d.gpr[0].values, np.uint32)
        depth = len(warp.stack)
        threads = slice(warp.base, warp.base + 32)
        before = (model.regs[:, threads].copy(), model.cc[:, threads].copy(), model.areg[:, threads].copy()) if self.waivers else None
        c = model.step(warp)
        assert c is not None
        history = self.history.get(d.warp)
        if history is None:
            history = self.history[d.warp] = deque(maxlen=HISTORY)
        history.append((warp.block.index, warp.block.slot, c.pc, c.text, ""))
        # the port's stores since the last store are this one's: a store's requests are all accepted
        # before it commits, and only one instruction issues requests at a time, but another warp's
        # load may commit in between (a parked load, docs/design/rtl.md, "Memory-level parallelism")
        is_store = plan.insn.form.family in STORE_FAMILIES
        diffs = self._diffs(dut, c)
        if is_store and self.check_stores:
            diffs += self._port_diffs(c, warp.base)
        waiver = self._waiver(plan.insn, diffs) if diffs and before is not None else None
        if waiver is not None and before is not None:
            self._take_dut_writes(threads, before, d)
            self.waived[waiver.name] = self.waived.get(waiver.name, 0) + 1
            block, slot, pc, text, _ = history[-1]
            history[-1] = (block, slot, pc, text, f"   (waived: {waiver.name})")
            diffs = []
        if diffs:
            fields = ", ".join(f.field for f in diffs)
            message = f"{fields} differ{'s' if len(diffs) == 1 else ''}"
            space = LOADS.get(plan.insn.form.family)
            if space and self.tb_memory:
                for f in diffs:
                    if f.field == "gpr":
                        f.source = f"testbench {space} memory"
                message += (f" (a loaded value: the {self.verdict.context.get('dut', 'DUT')} passed on what the testbench's {space} memory returned "
                            "for the addresses it requested)")
            self._fail("mismatch", message, dut, c.text, diffs)
            return
        self.compared += 1
        if self.ap.subscribers:  # (coverage): no record to build for nobody
            self.ap.write(Compared(c, dut, depth))

    def _waiver(self, insn, diffs: list[FieldDiff]) -> Waiver | None:
        fields = _waiver_fields(diffs)
        for w in self.waivers:
            if insn.form.name in w.forms and fields <= w.fields and all(insn.fields.get(k, 0) & m == v for k, m, v in w.when):
                lanes = [x for d in diffs for x in d.lanes]
                if w.dut_value is not None and not (lanes and all(_lane_value(x.actual) == w.dut_value for x in lanes)):
                    continue
                return w
        return None

    def _take_dut_writes(self, threads: slice, before: tuple[np.ndarray, np.ndarray, np.ndarray], d: Commit) -> None:
        """A waived instruction: the model's register, flag and address-register state of the warp
        becomes what it was before the instruction plus the DUT's writes (lanes that executed)."""
        model = self.model
        regs, cc, areg = before
        model.regs[:, threads], model.cc[:, threads], model.areg[:, threads] = regs, cc, areg
        exe = _keep(d.exec_mask)
        for w in d.gpr:
            if w.index >= model.regs.shape[0] - 1:
                continue  # a sink (o[0x7f]) or past the allocation
            old = model.regs[w.index, threads]
            v = np.asarray(w.values, np.uint32)
            if w.half == "L":
                v = (old & np.uint32(0xFFFF0000)) | (v & np.uint32(0xFFFF))
            elif w.half == "H":
                v = (old & np.uint32(0xFFFF)) | (v << np.uint32(16))
            model.regs[w.index, threads] = np.where(exe, v, old)
        for w in d.cc:
            model.cc[w.index, threads] = np.where(exe, np.asarray(w.values, np.uint8), model.cc[w.index, threads])
        for w in d.addr:
            model.areg[w.index, threads] = np.where(exe, np.asarray(w.values, np.uint32), model.areg[w.index, threads])

    # -- a DUT error ------------------------------------------------------------------------------

    def explain_error(self, warp: int | None, pc: int | None) -> dict:
        """What a DUT error's report needs (FailureReport fields text, cta, block, history,
        model_says): the golden model executes the same instruction of the same warp, so that the
        report says at once whether the program (the model faults as well, with lane and address)
        or the DUT (the model executes it) is wrong."""
        out: dict = {"text": "", "cta": None, "block": None, "history": self.history_of(warp), "model_says": ""}
        if warp is None or pc is None:
            return out
        model = self.model
        try:
            out["text"] = model.plan(pc).text
        except ModelError as exc:
            out["model_says"] = f"no instruction at PC {pc:#06x}: {exc}"
            return out
        if model.round_done and not model.start_next_round():
            out["model_says"] = "every block has finished in the model"
            return out
        if warp >= len(model.warps):
            out["model_says"] = f"the model has no warp slot {warp} (it has {len(model.warps)})"
            return out
        w = model.warps[warp]
        out["cta"], out["block"] = w.block.slot, w.block.index
        if w.done:
            out["model_says"] = f"warp {warp} has finished in the model (block {w.block.index})"
            return out
        if w.pc != pc:
            out["model_says"] = f"the model's warp {warp} is at PC {w.pc:#06x} ({model.plan(w.pc).text}), not at {pc:#06x}"
            return out
        try:
            c = model.step(w)
        except ModelError as exc:
            out["model_says"] = f"it stops too, so the program is at fault: {type(exc).__name__}: {exc}"
        else:
            assert c is not None
            writes = [f"R{g.index}{g.half or ''}" for g in c.gpr] + [f"$c{x.index}" for x in c.cc] + [f"$a{x.index}" for x in c.addr]
            writes += [f"{m.space} store of {m.size} bytes" for m in c.mem[:1]]
            out["model_says"] = (f"it executes without an error, so the {self.verdict.context.get('dut', 'DUT')} is wrong: lanes "
                                 f"{c.exec_mask:#010x} execute, writes {', '.join(writes) or 'nothing'}, next PC {c.next_pc:#06x}")  # fmt: skip
        lines = out["history"]
        seen = self.history.get(warp)
        if seen and seen[-1][0] != w.block.index:
            lines.append(f"{BLOCK_MARK} block {w.block.index} begins (slot {w.block.slot}, warp slot {warp}) {BLOCK_MARK}")
        if not lines or not lines[-1].startswith(f"{pc:04x}"):
            lines.append(f"{pc:04x}  {out['text']}   <- the {self.verdict.context.get('dut', 'DUT')} stopped here")
        return out

    def explain_memory_fault(self, local: bool, addr: int, lane: int | None) -> dict:
        """A DUT request outside the testbench's memory: which warp made it and what the model says.
        The faulting memory instruction has not committed, so it is the next instruction of its
        warp in the model; each warp whose next instruction is a global/local access is stepped on
        a copy of the model, and the one that faults in the same lane (and, for global memory, in
        the same 32-bit word) is reported with the model's fault."""
        out: dict = {"text": "", "cta": None, "block": None, "warp": None, "pc": None, "history": [], "model_says": ""}
        space = "local" if local else "global"
        trial = copy.deepcopy(self.model)
        if trial.round_done and not trial.start_next_round():
            out["model_says"] = "every block has finished in the model"
            return out
        found = []
        for w in trial.warps:
            if w.done or w.waiting or trial.plan(w.pc).insn.form.family not in MEMORY_FAMILIES[space]:
                continue
            pc, block, slot = w.pc, w.block.index, w.block.slot
            try:
                trial.step(w)
            except MemoryFault as exc:
                fault_lane = int(m.group(1)) if (m := re.search(r"lane (\d+)", str(exc))) else None
                if (lane is None or fault_lane == lane) and (local or exc.addr & ~3 == addr):
                    found.append((w.wid, pc, block, slot, f"it faults too, so the program is at fault: {exc}"))
            except ModelError:
                continue
        if not found:
            out["model_says"] = f"no warp's next {space} access faults in the model (lane {lane}), so the {self.verdict.context.get('dut', 'DUT')} is wrong"
            return out
        warp, pc, block, slot, says = found[0]
        out.update(warp=warp, pc=pc, block=block, cta=slot, text=self.model.plan(pc).text, history=self.history_of(warp), model_says=says)
        out["history"].append(f"{pc:04x}  {out['text']}   <- the request of this instruction")
        return out

    # -- field by field --------------------------------------------------------------------------

    def _diffs(self, dut: DutCommit, c: Commit) -> list[FieldDiff]:
        d = dut.commit
        skip = dut.unchecked
        if (not skip and (d.pc, d.seq, d.insn, d.active_mask, d.exec_mask, d.next_pc, d.next_mask, d.done)
                == (c.pc, c.seq, c.insn, c.active_mask, c.exec_mask, c.next_pc, c.next_mask, c.done)
                and _same_writes(d.gpr, c.gpr) and (not (d.cc or c.cc) or _same_writes(d.cc, c.cc))
                and (not (d.addr or c.addr) or _same_writes(d.addr[-1:], c.addr[-1:])) and _same_mem(d.mem, c.mem)):  # fmt: skip
            return []  # every field the same, bit for bit (most records): the checks below, in fewer steps
        diffs: list[FieldDiff] = []
        if (d.pc, d.seq, d.insn, d.active_mask, d.exec_mask) != (c.pc, c.seq, c.insn, c.active_mask, c.exec_mask):
            for name, got, want, width in (("pc", d.pc, c.pc, 24), ("seq", d.seq, c.seq, 32), ("insn", d.insn, c.insn, 64),
                                           ("active_mask", d.active_mask, c.active_mask, 32), ("exec_mask", d.exec_mask, c.exec_mask, 32)):  # fmt: skip
                if got != want and name not in skip:
                    diffs.append(FieldDiff(name, _hex(want, width), _hex(got, width)))
        exe = c.exec_mask
        # registers: (register, half) written and the values of the lanes that executed
        if "gpr" not in skip and not _same_writes(d.gpr, c.gpr):
            diffs += self._writes("gpr", _regs(d.gpr, exe), _regs(c.gpr, exe), exe, lambda r: f"R{r[0]}{r[1] or ''}", 32)
        if "cc" not in skip and (d.cc or c.cc) and not _same_writes(d.cc, c.cc):
            diffs += self._writes("cc", _regs(d.cc, exe), _regs(c.cc, exe), exe, lambda r: f"$c{r[0]}", 4)
        if "addr" not in skip and (d.addr or c.addr) and not _same_writes(d.addr[-1:], c.addr[-1:]):  # post-increment after R2A: the last write wins
            diffs += self._writes("addr", _regs(d.addr[-1:], exe), _regs(c.addr[-1:], exe), exe, lambda r: f"$a{r[0]}", 16)
        if "mem" not in skip:
            diffs += self._mem(d, c)
        for name, got, want, width in (("next_pc", d.next_pc, c.next_pc, 24), ("next_mask", d.next_mask, c.next_mask, 32)):
            if got != want and name not in skip:
                diffs.append(FieldDiff(name, _hex(want, width), _hex(got, width)))
        if d.done != c.done and "done" not in skip:
            diffs.append(FieldDiff("done", str(c.done), str(d.done)))
        return diffs

    def _port_diffs(self, c: Commit, base: int) -> list[FieldDiff]:
        """The bytes this instruction wrote through the memory port against the model's stores.

        Compared as multisets of (space, byte address, value), one entry per lane and byte, so a
        byte enable too many is caught even when a later lane overwrites that byte again."""
        if not self.port_stores and all(m.space == "shared" for m in c.mem):
            return []  # most instructions: no store on either side
        if np.array_equal(_port_keys(self.port_stores), _store_keys(c, base, self.model.config.local_bytes)):
            self.port_stores = []
            return []  # the same bytes (sorted keys: equal multisets), decided in numpy; otherwise counted below for the report
        got: Counter[tuple[str, int, int]] = Counter()
        for req in self.port_stores:
            for j in range(req.be.bit_length()):
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
    def _mem(d: Commit, c: Commit) -> list[FieldDiff]:
        if not d.mem and not c.mem:
            return []
        if not d.mem or not c.mem:
            want = f"{c.mem[0].space} store of {c.mem[0].size * len(c.mem)} bytes" if c.mem else "no store"
            got = f"{d.mem[0].space} store of {store_size(d.mem)} bytes" if d.mem else "no store"
            return [FieldDiff("mem", want, got)]
        first, dfirst = c.mem[0], d.mem[0]
        size, dsize = store_size(c.mem), store_size(d.mem)
        if (dfirst.space, dsize, dfirst.lanes) != (first.space, size, first.lanes):
            return [FieldDiff("mem", f"{first.space} store of {size} bytes, lanes {first.lanes:#010x}", f"{dfirst.space} store of {dsize} bytes, lanes {dfirst.lanes:#010x}")]
        if len(d.mem) != len(c.mem):  # a DUT record that does not split a wide store into 32-bit parts as golden/g80/commit.py says
            return [FieldDiff("mem", f"{len(c.mem)} 32-bit part(s)", f"{len(d.mem)} record(s)")]
        m = first.lanes
        out = []
        got_addr, want_addr = lane_values(dfirst.addr, m), lane_values(first.addr, m)
        rows = [LaneDiff(i, _hex(want_addr[i]), _hex(got_addr[i])) for i in range(32) if got_addr[i] != want_addr[i]]
        if rows:
            out.append(FieldDiff("mem.addr", f"{first.space} addresses", f"{len(rows)} lane(s) differ", rows))
        keep = (1 << (8 * min(size, 4))) - 1
        for k, part in enumerate(c.mem):
            got_data, want_data = lane_values(d.mem[k].data, m), lane_values(part.data, m)
            rows = [LaneDiff(i, _hex(want_data[i] & keep), _hex(got_data[i] & keep)) for i in range(32) if (got_data[i] ^ want_data[i]) & keep]
            if rows:
                out.append(FieldDiff(f"mem.data[{k}]", f"{first.space} store data", f"{len(rows)} lane(s) differ", rows))
        return out


_BYTE = np.arange(4, dtype=np.int64)
_LOCAL_KEY = 60  # key bit of the space (global 0, local 1), above any byte address (<< 8) and value


def _port_keys(stores: list[MemRequest]) -> np.ndarray:
    """One sorted int64 key (space, byte address, value) per byte the requests write. A request's
    line is wider than int64: the enable masks and data of all requests go through bytes into one
    array each (a loop over the 64 bytes of each line was most of a store's compare, and one array
    operation per request most of the rest)."""
    if not stores:
        return np.zeros(0, np.int64)
    nbytes = max(1, *((r.be.bit_length() + 7) // 8 for r in stores))  # enable bytes of the widest request (the others' extra bits are 0)
    width = 8 * nbytes  # data bytes a request spans
    keep = (1 << (8 * width)) - 1
    be = np.frombuffer(b"".join(r.be.to_bytes(nbytes, "little") for r in stores), np.uint8).reshape(len(stores), nbytes)
    enabled = np.unpackbits(be, axis=1, bitorder="little").astype(bool)
    data = np.frombuffer(b"".join((r.wdata & keep).to_bytes(width, "little") for r in stores), np.uint8).reshape(len(stores), width)
    base = np.array([(int(r.local) << _LOCAL_KEY) | (r.addr << 8) for r in stores], np.int64)
    keys = (base[:, None] + (np.arange(width, dtype=np.int64) << 8)) | data
    return np.sort(keys[enabled])


def _store_keys(c: Commit, base: int, local_bytes: int) -> np.ndarray:
    """The keys of `_port_keys` for the global and local bytes the model's record stores."""
    parts = []
    for m in c.mem:
        if m.space == "shared":
            continue
        lanes = np.flatnonzero(_keep(m.lanes))
        local = m.space == "local"
        addr = np.asarray(m.addr, np.int64)[lanes] + ((base + lanes) * local_bytes if local else 0)
        k = _BYTE[: m.size]
        values = (np.asarray(m.data, np.int64)[lanes, None] >> (8 * k)) & 0xFF
        parts.append(((int(local) << _LOCAL_KEY) | ((addr[:, None] + k) << 8) | values).ravel())
    return np.sort(np.concatenate(parts)) if parts else np.zeros(0, np.int64)


def _same_writes(got: list[RegWrite], want: list[RegWrite]) -> bool:
    """The same registers with the same value in every lane, checked on the raw bytes: the common
    case, decided without masking to the executing lanes. False means "compare properly" (values
    outside the executing lanes, or another dtype, may differ where the compare would not)."""
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        gv, wv = g.values, w.values
        if (g.index != w.index or g.half != w.half or not isinstance(gv, np.ndarray) or not isinstance(wv, np.ndarray) or gv.dtype != wv.dtype
                or gv.tobytes() != wv.tobytes()):  # fmt: skip
            return False
    return True


def _same_mem(got: list[MemWrite], want: list[MemWrite]) -> bool:
    """The same stores, every lane's address and data equal (as `_same_writes`, before masking to the
    executing lanes: False means "compare properly"). The model's addresses are int64 and a DUT's
    may be uint32, so they are compared by value."""
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        if (g.space != w.space or g.size != w.size or g.lanes != w.lanes or not isinstance(g.data, np.ndarray) or not isinstance(w.data, np.ndarray)
                or g.data.dtype != w.data.dtype or g.data.tobytes() != w.data.tobytes() or not np.array_equal(g.addr, w.addr)):  # fmt: skip
            return False
    return True


def _regs(writes: list[RegWrite], exe: int) -> list[tuple[int, str | None, list[int]]]:
    """(index, half, executing lanes' values) of register writes, in a form compared with ==."""
    return [(w.index, w.half, lane_values(w.values, exe)) for w in writes]
