"""FlexGripPlus's commit records: what its internal signals show each warp-instruction did, as
golden.g80.commit.Commit (tb/dut.py's DutCommit).

FlexGripPlus's register file is written whole: a 16-bit destination is read-modify-write there, so
the half a record names comes from the DUT's own fetched instruction word (the ISA decoder says
whether its destination is a half register) and the value is that half of the register written.
Memory is written byte by byte, lane after lane, so stores are not rebuilt into per-lane records:
global bytes go to the scoreboard's memory-port check (multisets of address and byte, as for the
RTL's memory port), and the record's `mem` field is marked unchecked.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from golden.g80 import flexgrip_decode
from golden.g80.commit import Commit, RegWrite
from golden.g80.decoder import IllegalInstruction, decode, size_of
from golden.g80.operands import RegOperand
from golden.g80.profile import FLEXGRIP

from ..dut import UnknownValue

STATE_NAMES = ("ready", "active", "barrier", "finished")
SHARED_MASK = 0x3FFF  # 16 KiB shared memory, addresses wrap (FLEXGRIPPLUS.md 3)


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
        for en_name, files, acc in (("gprs_wr_en_b", self.gprf, self.gpr), ("pred_regs_wr_en_b", self.predf, self.cc), ("addr_regs_wr_en_b", self.addrf, self.addr)):
            text = str(k[en_name].value)
            if "1" not in text:
                continue
            for i in range(self.cores):
                if text[self.cores - 1 - i] != "1":
                    continue
                f = files[i]
                lane = int(f["warp_lane_id_b"].value) * self.cores + i
                reg = int(f["reg_num_b" if files is self.gprf else "reg_addr_b"].value)
                if files is self.addrf:
                    reg += 1  # the address-register file holds $a1..$a4 at 0..3 (address_register_controller subtracts 1)
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
        if bad:  # the testbench's X/Z failure (tb/dut.py), naming FlexGripPlus's fields
            warp, pc = (record.warp, record.pc) if record else (None, None)
            where = f"warp {warp} PC {pc:#06x}" if record else "between commits"
            raise UnknownValue(cycle, bad, f"FlexGripPlus, {where}", warp, pc, prefix="")
        return record


def _dst_half(insn: int, size: int) -> str | None:
    """"L"/"H" when the instruction's destination is a 16-bit half register (the ISA decoder on the
    DUT's fetched word), else None."""
    try:
        decoded = decode([insn & 0xFFFFFFFF, insn >> 32] if size == 8 else [insn])
    except IllegalInstruction:
        return None
    # as FlexGripPlus's decoder reads the word (golden/g80/flexgrip_decode.py: LOP32I is 16-bit unless bit 30 of
    # its immediate is set, and its register fields then name half registers)
    dst = flexgrip_decode.adapt(FLEXGRIP, decoded, dict(decoded.operands)).get("dst")
    if isinstance(dst, RegOperand) and dst.half:
        return "H" if dst.index & 1 else "L"
    return None


def to_commit(raw: RawCommit, seq: int) -> Commit:
    """The DUT-neutral record of one FlexGripPlus warp-instruction (memory bytes: `RawCommit.mem`)."""
    size = size_of(raw.insn & 0xFFFFFFFF)  # bit 0 of word0: a 64-bit instruction (ISA.md 1.1)
    insn = raw.insn & 0xFFFFFFFF if size == 4 else raw.insn
    c = Commit(cta=raw.cta, warp=raw.warp, seq=seq, pc=raw.pc, insn=insn, size=size, active_mask=raw.active, exec_mask=raw.exec,
               next_pc=raw.next_pc, next_mask=raw.next_mask, done=raw.state == 3, barrier=raw.state == 2)  # fmt: skip
    half = _dst_half(insn, size)
    for kind, acc, out in (("gpr", raw.gpr, c.gpr), ("cc", raw.cc, c.cc), ("addr", raw.addr, c.addr)):
        for reg in sorted(acc):
            _, values = acc[reg]
            v = np.array([values.get(i, 0) for i in range(32)], np.uint32)
            name = half if kind == "gpr" else None
            if name:
                v = (v >> 16) if name == "H" else (v & 0xFFFF)
            out.append(RegWrite(kind, reg, v, name))
    return c
