"""FlexGripPlus's commit port (hdl/flexgrip/fg_top.vhd) read into golden.commit.Commit records, and
the DUT-neutral comparison of two Commit records (golden model vs DUT).

FlexGripPlus's record carries what its probe saw: per-lane register file writes (whole 32-bit
registers: a 16-bit write is read-modify-write there), $c and $a writes, and the bytes written to
shared and global memory in the order they were written (memory is byte-serial in FlexGripPlus).
So a Commit built from it has `gpr` entries without halves and `mem` entries of one byte each
(`size` 1, `lanes` 0: the lane is unknown); `compare` takes the model's half from the full
register and compares memory as multisets of (space, address, byte).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from golden.commit import Commit, MemWrite, RegWrite
from golden.isa.decoder import size_of

STATE_NAMES = ("ready", "active", "barrier", "finished")
SHARED_MASK = 0x3FFF  # 16 KiB shared memory, addresses wrap (FLEXGRIPPLUS.md 3)


class UnknownField(AssertionError):
    """U/X/Z on a field of a FlexGripPlus commit record."""

    def __init__(self, cycle: int, fields: list[str], warp: int | None, pc: int | None) -> None:
        self.cycle, self.fields, self.warp, self.pc, self.cta = cycle, fields, warp, pc, None
        where = f"warp {warp} PC {pc:#06x}" if warp is not None and pc is not None else "warp/PC unknown"
        super().__init__(f"cycle {cycle}: U/X/Z on FlexGripPlus commit field(s) {', '.join(fields)} ({where})")


@dataclass
class RawCommit:
    """One warp-instruction as FlexGripPlus's signals showed it (assembled by `Probe`)."""

    cycle: int
    warp: int
    cta: int
    pc: int
    insn: int
    active: int
    exec: int
    next_pc: int
    next_mask: int
    state: int  # 0 ready, 1 active, 2 barrier, 3 finished
    shmem_base: int
    gpr: dict  # register -> (lanes mask, {lane: value})
    cc: dict  # $c register -> (lanes, {lane: nibble})
    addr: dict  # $a register -> (lanes, {lane: value})
    mem: list  # (shared?, address, byte) in write order


def _children(handle) -> dict:
    return {h._name: h for h in handle}


class Probe:
    """Reads FlexGripPlus's internal signals through GHDL's VPI and assembles commit records.

    GHDL 2.0 supports neither VHDL-2008 external names (an internal error at elaboration) nor, in
    its VPI, signals whose type is an array of vectors, and cocotb cannot index its generate
    scopes: the per-SP register-file ports are reached by iterating the SM's children. Every
    clock, in the read-only phase, the probe reads the write enables of the register files' write
    ports (driven only by the write stage), the shared and global memory write enables and the
    done strobes of fetch, execute and write; details are read only when one is set. Per warp it
    keeps the PC, instruction and mask fetched for sub-warp 0, and the instruction mask the read
    stage computed; the record is complete when the write stage finishes the warp's last
    sub-warp (the warp checker then stores its next PC and mask and its state)."""

    def __init__(self, dut, cores: int) -> None:
        self.top = dut.u_gpu
        sm = self.sm = _children(self.top)["ustreamingmultiprocessor"]
        kids = _children(sm)
        self.cores = cores
        self.last_lane = 32 // cores - 1

        def inner(name: str, i: int):
            return next(iter(kids[f"{name}({i})"]))

        self.gprf = [_children(inner("gregisterfile", i)) for i in range(cores)]
        self.predf = [_children(inner("gpredicateregisters", i)) for i in range(cores)]
        self.addrf = [_children(inner("gaddressregisters", i)) for i in range(cores)]
        t = _children(self.top)
        self.gmem = [(t["smp_gmem_wr_en_a"], t["smp_gmem_addr_a"], t["smp_gmem_wr_data_a"]), (t["smp_gmem_wr_en_b"], t["smp_gmem_addr_b"], t["smp_gmem_wr_data_b"])]
        self.gmem_host = t["gmem_cntrl_en_in"]
        self.k = kids
        self.fetched: dict[int, tuple[int, int, int]] = {}
        self.issued: dict[int, tuple[int, int]] = {}
        self._reset_acc()

    def _reset_acc(self) -> None:
        self.gpr: dict[int, list] = {}
        self.cc: dict[int, list] = {}
        self.addr: dict[int, list] = {}
        self.mem: list[tuple[bool, int, int]] = []

    @staticmethod
    def _int(handle, name: str, bad: list[str]) -> int:
        try:
            return int(handle.value)
        except ValueError:
            bad.append(name)
            return 0

    def sample(self, cycle: int) -> RawCommit | None:
        """One clock (read-only phase): accumulate writes; the record when an instruction completes."""
        k = self.k
        bad: list[str] = []
        if str(k["pipeline_fd_done"].value) == "1" and int(k["warp_lane_id_fd"].value) == 0:
            w = int(k["warp_id_fd"].value)
            self.fetched[w] = (self._int(k["program_cntr_fd"], "pc", bad), self._int(k["instruction_fd"], "insn", bad),
                               self._int(k["current_mask_fd"], "active", bad))  # fmt: skip
        if str(k["pipeline_execute_done"].value) == "1" and int(k["warp_lane_id_ew"].value) == 0:
            w = int(k["warp_id_ew"].value)
            self.issued[w] = (self._int(k["instr_mask_ew"], "exec", bad), self._int(k["shmem_base_addr_ew"], "shmem_base", bad))
        for en_name, files, acc, width in (("gprs_wr_en_b", self.gprf, self.gpr, 32), ("pred_regs_wr_en_b", self.predf, self.cc, 4),
                                           ("addr_regs_wr_en_b", self.addrf, self.addr, 32)):  # fmt: skip
            text = str(k[en_name].value)
            if "1" not in text:
                continue
            for i in range(self.cores):
                if text[self.cores - 1 - i] != "1":
                    continue
                f = files[i]
                lane = int(f["warp_lane_id_b"].value) * self.cores + i
                reg = int(f["reg_num_b" if width == 32 and files is self.gprf else "reg_addr_b"].value)
                try:
                    value = int(f["din_b"].value)
                except ValueError:
                    bad.append(f"{en_name[:-5]} lane {lane}")
                    value = 0
                entry = acc.setdefault(reg, [0, {}])
                entry[0] |= 1 << lane
                entry[1][lane] = value
        if str(k["shmem_wr_en_b"].value) == "1":
            self.mem.append((True, self._int(k["shmem_addr_b"], "shared address", bad), self._int(k["shmem_wr_data_b"], "shared data", bad)))
        if str(self.gmem_host.value) != "1":
            for we, a, d in self.gmem:
                if str(we.value) == "1":
                    self.mem.append((False, self._int(a, "global address", bad), self._int(d, "global data", bad)))
        record = None
        if str(k["pipeline_write_done"].value) == "1" and int(k["warp_lane_id_ww"].value) == self.last_lane:
            w = self._int(k["warp_id_ww"], "warp", bad)
            pc, insn, active = self.fetched.get(w, (0, 0, 0))
            exe, shbase = self.issued.get(w, (0, 0))
            record = RawCommit(cycle, w, self._int(k["cta_id_ww"], "cta", bad), pc, insn, active, exe, self._int(k["next_pc_ww"], "next_pc", bad),
                               self._int(k["current_mask_ww"], "next_mask", bad), self._int(k["warp_state_ww"], "state", bad), shbase,
                               self.gpr, self.cc, self.addr, self.mem)  # fmt: skip
            self._reset_acc()
        if bad:
            w = record.warp if record else None
            raise UnknownField(cycle, bad, w, record.pc if record else None)
        return record


def to_commit(raw: RawCommit, seq: int) -> Commit:
    """The DUT-neutral record of one FlexGripPlus warp-instruction."""
    size = size_of(raw.insn & 0xFFFFFFFF)  # bit 0 of word0: a 64-bit instruction (ISA.md 1.1)
    insn = raw.insn & 0xFFFFFFFF if size == 4 else raw.insn
    c = Commit(cta=raw.cta, warp=raw.warp, seq=seq, pc=raw.pc, insn=insn, size=size, active_mask=raw.active, exec_mask=raw.exec,
               next_pc=raw.next_pc, next_mask=raw.next_mask, done=raw.state == 3, barrier=raw.state == 2)  # fmt: skip
    for kind, acc, out in (("gpr", raw.gpr, c.gpr), ("cc", raw.cc, c.cc), ("addr", raw.addr, c.addr)):
        for reg in sorted(acc):
            lanes, values = acc[reg]
            w = RegWrite(kind, reg, np.array([values.get(i, 0) for i in range(32)], np.uint32))
            w.lanes = lanes  # type: ignore[attr-defined]
            out.append(w)
    for shared, addr, byte in raw.mem:
        c.mem.append(MemWrite("shared" if shared else "global", 1, 0, np.array([addr], np.int64), np.array([byte], np.uint32)))
    return c


def _hex(value: int, width: int = 32) -> str:
    return f"{value:#0{width // 4 + 2}x}"


def compare(want: Commit, got: Commit, shmem_base: int) -> list:
    """Field-by-field differences between the model's record `want` and FlexGripPlus's `got`."""
    from report import FieldDiff, LaneDiff

    diffs: list = []
    for name, g, w, width in (("pc", got.pc, want.pc, 24), ("insn", got.insn, want.insn, 64), ("active_mask", got.active_mask, want.active_mask, 32),
                              ("exec_mask", got.exec_mask, want.exec_mask, 32)):  # fmt: skip
        if g != w:
            diffs.append(FieldDiff(name, _hex(w, width), _hex(g, width)))
    exe = want.exec_mask
    # registers: the model's writes (register, half) against the DUT's full-register writes
    got_regs = {r.index: r for r in got.gpr}
    want_names = [f"R{w.index}{w.half or ''}" for w in want.gpr]
    if sorted({w.index for w in want.gpr}) != sorted(got_regs) and exe:
        diffs.append(FieldDiff("gpr", ", ".join(want_names) or "no write", ", ".join(f"R{i}" for i in sorted(got_regs)) or "no write"))
    elif exe:
        for w in want.gpr:
            g = got_regs[w.index]
            shift = 16 if w.half == "H" else 0
            keep = 0xFFFF if w.half else 0xFFFFFFFF
            rows = [LaneDiff(i, _hex(int(w.values[i]), 16 if w.half else 32), _hex((int(g.values[i]) >> shift) & keep if g.lanes >> i & 1 else 0, 16 if w.half else 32)
                             + ("" if g.lanes >> i & 1 else " (not written)"))
                    for i in range(32) if exe >> i & 1 and (not g.lanes >> i & 1 or (int(g.values[i]) >> shift) & keep != int(w.values[i]))]  # fmt: skip
            extra = g.lanes & ~exe
            if extra:
                rows += [LaneDiff(i, "not written", _hex(int(g.values[i]))) for i in range(32) if extra >> i & 1]
            if rows:
                diffs.append(FieldDiff("gpr", f"R{w.index}{w.half or ''}", f"R{w.index}{w.half or ''} ({len(rows)} lane(s) differ)", rows))
    for field, width in (("cc", 4), ("addr", 32)):
        ws, gs = getattr(want, field), getattr(got, field)
        ws = ws[-1:] if field == "addr" else ws  # post-increment after R2A: the last write wins
        label = "$c" if field == "cc" else "$a"
        if [w.index for w in ws] != [g.index for g in gs] and (exe or gs):
            diffs.append(FieldDiff(field, ", ".join(f"{label}{w.index}" for w in ws) or "no write", ", ".join(f"{label}{g.index}" for g in gs) or "no write"))
            continue
        for w, g in zip(ws, gs, strict=False):
            rows = [LaneDiff(i, _hex(int(w.values[i]), width), _hex(int(g.values[i]), width) if g.lanes >> i & 1 else "not written")
                    for i in range(32) if exe >> i & 1 and (not g.lanes >> i & 1 or int(g.values[i]) != int(w.values[i]))]  # fmt: skip
            rows += [LaneDiff(i, "not written", _hex(int(g.values[i]), width)) for i in range(32) if (g.lanes & ~exe) >> i & 1]
            if rows:
                diffs.append(FieldDiff(field, f"{label}{w.index}", f"{label}{w.index} ({len(rows)} lane(s) differ)", rows))
    diffs += _mem_diffs(want, got, shmem_base)
    if got.done != want.done:
        diffs.append(FieldDiff("done", str(want.done), str(got.done)))
    elif not want.done and not want.barrier:
        for name, g, w, width in (("next_pc", got.next_pc, want.next_pc, 24), ("next_mask", got.next_mask, want.next_mask, 32)):
            if g != w:
                diffs.append(FieldDiff(name, _hex(w, width), _hex(g, width)))
    return diffs


def byte_writes(c: Commit, shmem_base: int) -> Counter:
    """The record's stores as a multiset of (space, byte address, value); shared addresses physical."""
    out: Counter = Counter()
    for m in c.mem:
        if m.space == "local":
            continue
        lanes = range(len(m.addr)) if m.lanes == 0 else [i for i in range(32) if m.lanes >> i & 1]
        for lane in lanes:
            for j in range(m.size):
                addr = int(m.addr[lane]) + j
                if m.space == "shared" and m.lanes:
                    addr = (shmem_base + addr) & SHARED_MASK
                out[m.space, addr, (int(m.data[lane]) >> (8 * j)) & 0xFF] += 1
    return out


def _mem_diffs(want: Commit, got: Commit, shmem_base: int) -> list:
    from report import FieldDiff, LaneDiff

    w, g = byte_writes(want, shmem_base), byte_writes(got, shmem_base)
    if w == g:
        return []
    extra, missing = sorted((g - w).elements()), sorted((w - g).elements())
    rows = [LaneDiff(None, "not written", f"{k[0]}[{k[1]:#x}]={k[2]:#04x}") for k in extra[:8]]
    rows += [LaneDiff(None, f"{k[0]}[{k[1]:#x}]={k[2]:#04x}", "not written") for k in missing[:8]]
    return [FieldDiff("mem", f"{sum(w.values())} byte writes", f"{sum(g.values())} byte writes: {len(extra)} unexpected, {len(missing)} missing", rows)]
