"""The golden model of one SM: launch, per-warp execution with the SIMT stack, and scheduling.

`SM.step(warp)` executes the next instruction of one warp and returns its Commit (lock-step with
the RTL, DESIGN.md section 5); a lock-step user that runs out of ready warps calls
`SM.start_next_round()` once `SM.round_done`. `SM.run()` runs all blocks of the grid with a
round-robin warp scheduler, executing warps that are at the same PC as one batch (the free-running
mode); `SM.commits()` is the same scheduler one warp at a time, yielding every commit record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import MemoryFault, ModelError, RunawayError, StackError, TrapError, UndefinedControl
from . import conditions, flexgrip_decode
from .commit import Commit, MemWrite, RegWrite
from .decoder import IllegalInstruction, Instruction, decode
from .execute import FAMILIES
from .form import CTRL, LONG
from .memory import Memory
from .operands import NamedOperand, SharedOperand
from .profile import G80, Profile
from .state import BRANCH, BREAK, CALL, JOINAT, SHARED_BYTES, WARP, Block, Entry, Launch, SMConfig, Warp, bits_mask

U32 = np.uint32
FULL = 0xFFFFFFFF
LANES = np.arange(WARP, dtype=np.int64)
_CONDS = np.array([[conditions.holds(code, flags) for flags in range(16)] for code in range(32)], dtype=bool)


@dataclass
class Plan:
    """A decoded instruction and what executing it needs, cached per PC."""

    insn: Instruction
    ops: dict[str, object]
    run: object  # the family routine, or None for control instructions
    text: str
    size: int
    # what every execution of the instruction asks of its fields, decided once (a step's fixed cost is paid on every commit)
    guarded: bool = False  # a condition other than "always": the executing lanes depend on $c
    pcond: int = 0
    preg: int = 0
    marker: int = 0  # a long form's marker field (1 exit, 2 join), else 0
    float_result: bool = False  # tracked like a float: a float result, or an RRO code (computed by the SFU)


_LANE_SETS: dict[tuple[int, ...], tuple[slice | np.ndarray, np.ndarray]] = {}
_WARP_LANES: dict[int, tuple[slice, np.ndarray]] = {}  # one warp's, by its first thread (a lock-step step's batch)


def _lanes_of(warps: list[Warp]) -> tuple[slice | np.ndarray, np.ndarray]:
    """(selector, thread numbers) of a group of warps; groups recur, so they are cached."""
    if len(warps) == 1:
        base = warps[0].base
        one = _WARP_LANES.get(base)
        if one is None:
            one = _WARP_LANES[base] = (slice(base, base + WARP), base + LANES)
        return one
    key = tuple(w.base for w in warps)
    got = _LANE_SETS.get(key)
    if got is None:
        threads = np.concatenate([base + LANES for base in key])
        got = _LANE_SETS[key] = (threads, threads)
    return got


_MASK_BITS: dict[int, np.ndarray] = {}


def _mask_bits(mask: int) -> np.ndarray:
    """The 32 lanes of an active mask as bools, read-only (masks recur: a warp's stays the same for long stretches)."""
    got = _MASK_BITS.get(mask)
    if got is None:
        if len(_MASK_BITS) > 65536:
            _MASK_BITS.clear()
        got = np.unpackbits(np.array([mask], "<u4").view(np.uint8), bitorder="little").astype(bool)
        got.flags.writeable = False
        _MASK_BITS[mask] = got
    return got


class Batch:
    """The lanes one instruction executes on: one warp, or several warps at the same PC."""

    def __init__(self, warps: list[Warp]) -> None:
        self.warps = warps
        self.n = WARP * len(warps)
        self.sel, self.threads = _lanes_of(warps)
        if len(warps) == 1:  # lock-step: one warp a step
            self.active = _mask_bits(warps[0].active)
        else:
            masks = np.array([w.active for w in warps], "<u4")
            self.active = np.unpackbits(masks.view(np.uint8), bitorder="little").astype(bool)
        self.exec = self.active
        self.full = False  # every lane of the batch executes (set by SM._execute): writes need no lane select
        self.float_result = False  # the instruction computes a float (FP/SFU family)
        # SM.track_undefined: lanes where something the instruction read so far is undefined (its
        # results there are undefined); None when not tracking
        self.undef: np.ndarray | None = None
        self.undef_addr: np.ndarray | None = None  # the same, as it stood once a store's address was read
        self.records: list[Commit] | None = None
        self.pending: list[tuple[int, np.ndarray, int]] = []  # post-increments ($a, new value, access size in bytes)


# Read/convert_data_types.vhd, mv_size_to_data_type (w1 bits 23:21) -> the bytes Write/increment_address.vhd
# scales a step by (DT_NONE: sll 4)
_MV_SIZE_BYTES = {0: 1, 1: 1, 2: 2, 3: 2, 6: 4}


def _postinc_a4_step(insn: Instruction, size: int) -> int:
    """What FlexGripPlus adds to $a4 after an instruction with a post-increment operand (postinc_a4):
    Write/pipeline_write.vhd (CHECK_INCREMENT_ADDR) hands increment_address dest_in, scaled by a data
    type. dest_in is the destination field (w0 bits 8:2) for a load or ALU instruction, scaled by the
    access size; for a store to shared memory (R2G) the decoder's dest_i is the offset field (w0 bits
    21:9) and the scale is the store's mov_size type (flexgrip_findings r2g_postinc_step)."""
    if insn.form.family == "r2g" and len(insn.words) == 2:
        return ((insn.words[0] >> 9) & 0x1FFF) * _MV_SIZE_BYTES.get((insn.words[1] >> 21) & 7, 16)
    # otherwise the scale is sm_type_to_data_type of the decoder's sm_type_i, the shared operand's type
    # bits, and "00" (DT_U8: 1 byte) when the first source is not shared (a constant operand)
    shared = any(isinstance(op, SharedOperand) for role, op in insn.operands if role != "dst")
    return ((insn.words[0] >> 2) & 0x7F) * (size if shared else 1)


class SM:
    """The golden model of one SM running a grid: `code` (instruction words placed at byte address
    `base`), the `launch` (grid, block, registers, parameters), global memory and constant banks,
    computed as `profile` says. See the module's docstring for the lock-step and free-running APIs."""

    def __init__(
        self,
        code: Sequence[int],
        launch: Launch,
        global_mem: Memory,
        const_banks: dict[int, Memory] | None = None,
        profile: Profile = G80,
        config: SMConfig | None = None,
        max_steps: int = 10_000_000,
        base: int = 0,
    ) -> None:
        self.config = config or SMConfig()
        launch.validate(self.config.max_threads)
        self.code = list(code)
        self.base = base
        self.launch = launch
        self.profile = profile
        self.gmem = global_mem
        self.cmem = const_banks if const_banks is not None else {}
        self.max_steps = max_steps
        self.plans: dict[int, Plan] = {}
        self.per_round = launch.blocks_per_round(self.config)
        self.next_block = 0
        self.blocks: list[Block] = []
        self.warps: list[Warp] = []
        # lock-step: lane values the model cannot know (the clock), taken from the RTL's record
        self.sync_clock: np.ndarray | None = None
        # run-flexgrip: which global words hold results of FP/SFU instructions (counted apart in its report)
        self.track_floats = False
        self.float_words: set[int] = set()
        # run-flexgrip: undefinedness (golden/g80/flexgrip_bundle.py): a taint bit per lane and register,
        # flag register and address register, and per byte of global and shared memory. Set before
        # the first step (`track_undefined_global`); off, the model pays one attribute test per access.
        self.track_undefined = False
        self.gundef: np.ndarray | None = None  # global bytes that hold undefined values
        self.gstored: np.ndarray | None = None
        self.lundef: np.ndarray | None = None  # local bytes that hold undefined values (for `lundef_of`, this round's local memory)
        self.lundef_of: Memory | None = None
        self.undef_stores = 0  # lanes whose global store wrote an undefined value
        self.steps = 0
        self.thread_steps = 0  # lanes active at issue, summed over executed instructions
        self.clock = 0
        self.round = -1
        self.start_next_round()

    # -- launch ---------------------------------------------------------------------------------

    @property
    def round_done(self) -> bool:
        """Every warp of the current round has finished (the next round may be placed)."""
        return all(w.done for w in self.warps)

    def start_next_round(self) -> bool:
        """Place the next round of blocks on the SM (DESIGN.md section 3). False when none is left.

        Call it only once `round_done`: the blocks of the current round are dropped."""
        launch = self.launch
        if self.next_block >= launch.num_blocks:
            return False
        self.round += 1
        count = min(self.per_round, launch.num_blocks - self.next_block)
        wpb = launch.warps_per_block
        nthreads = count * wpb * WARP
        nregs = 128 if self.profile.only_r124_zero else launch.registers
        self.nregs = nregs
        self.regs = np.zeros((nregs + 1, nthreads), U32)  # the last row stays 0: reads past the allocation
        self.cc = np.zeros((4, nthreads), np.uint8)
        self.areg = np.zeros((8, nthreads), U32)
        self.freg = np.zeros((nregs + 1, nthreads), bool)  # register last written by an FP/SFU instruction
        # undefinedness (track_undefined): registers, flags, address registers and shared bytes start
        # defined (launch values, zeroes); the last register row, read past the allocation, stays so
        self.ureg = np.zeros((nregs + 1, nthreads), bool)
        self.ucc = np.zeros((4, nthreads), bool)
        self.uareg = np.zeros((8, nthreads), bool)
        self.shundef = np.zeros(count * SHARED_BYTES, bool)
        self.shared = Memory("shared", count * SHARED_BYTES)
        # local memory reads 0 at the start of every block (docs/design/architecture.md, "Semantics: one model, two profiles"; silicon leaves
        # it undefined): allocated zeroed on first use in each round, as the testbench's memory
        # zeroes a finished warp's threads for the RTL (tb/sm_env.py, SmEnv.warp_done)
        self.local: Memory | None = None
        self.thread_block = np.repeat(np.arange(count, dtype=np.int64), wpb * WARP)
        self.blocks, self.warps = [], []
        bx, by, bz = launch.block
        tpb = launch.threads_per_block
        for slot in range(count):
            index = self.next_block + slot
            ctaid = (index % launch.grid[0], index // launch.grid[0])
            block = Block(slot, index, ctaid)
            header = np.array([0, bx, by, bz, launch.grid[0], launch.grid[1], ctaid[0], ctaid[1]], np.uint16)
            self.shared.write_bytes(slot * SHARED_BYTES, header.tobytes() + launch.params)
            for w in range(wpb):
                first = w * WARP
                live = min(WARP, tpb - first)
                init = FULL if self.profile.partial_warps_full or live == WARP else (1 << live) - 1
                warp = Warp(len(self.warps), block, w, (slot * wpb + w) * WARP, init, pc=self.base)
                block.warps.append(warp)
                self.warps.append(warp)
            # R0 = tid.x | tid.y << 16 | tid.z << 26, threads numbered x-fastest
            t = np.arange(wpb * WARP, dtype=np.int64)
            tid = (t % bx) | ((t // bx) % by) << 16 | (t // (bx * by)) << 26
            tid[t >= tpb] = 0
            start = slot * wpb * WARP
            if nregs:
                self.regs[0, start : start + wpb * WARP] = tid.astype(U32)
            self.blocks.append(block)
        self.next_block += count
        return True

    def track_undefined_global(self, undefined: np.ndarray) -> None:
        """Track undefinedness from here on, with `undefined` (a bool per byte of global memory) the
        bytes of global memory whose value is unknown (a FlexGripPlus input line its reader could
        not parse: that byte is U in FlexGripPlus's memory, and 0 in the model's)."""
        self.track_undefined = True
        self.gundef = np.zeros(self.gmem.size, bool)
        self.gundef[: undefined.size] = undefined
        self.gstored = np.zeros(self.gmem.size, bool)  # global bytes a store wrote (results, not inputs left as they were)

    def _taint(self, b: Batch, lanes: np.ndarray) -> None:
        """Mark lanes of the batch's instruction as having read something undefined."""
        if b.undef is None:
            b.undef = np.zeros(b.n, bool)
        b.undef |= lanes

    def _bytes_undefined(self, undef: np.ndarray, b: Batch, addr: np.ndarray, size: int) -> np.ndarray:
        """Per lane: whether any of the `size` bytes at `addr` is undefined (lanes that execute; an
        address outside the memory is the access's own fault, reported by the load or store)."""
        out = np.zeros(b.n, bool)
        lanes = np.flatnonzero(b.exec)
        if lanes.size:
            a = np.asarray(addr, np.int64)[lanes]
            inside = (a >= 0) & (a + size <= undef.size)
            idx = a[inside, None] + np.arange(size)
            out[lanes[inside]] = undef[idx].any(axis=1)
        return out

    def _mark_store(self, undef: np.ndarray, b: Batch, addr: np.ndarray, size: int, written: bool = False) -> int:
        """A store of `size` bytes at `addr` in the executing lanes: its bytes become undefined
        where the instruction read something undefined, defined elsewhere. Returns how many lanes
        stored an undefined value. A store whose address is undefined stops the run: the memory it
        changes is unknown."""
        lanes = np.flatnonzero(b.exec)
        if not lanes.size:
            return 0
        if b.undef_addr is not None and b.undef_addr[lanes].any():
            lane = int(lanes[np.flatnonzero(b.undef_addr[lanes])[0]])
            raise UndefinedControl(f"{self.where(b)}, lane {lane % WARP}: a store to an address computed from undefined input; "
                                   "the memory it changes is unknown")  # fmt: skip
        a = np.asarray(addr, np.int64)[lanes]
        inside = (a >= 0) & (a + size <= undef.size)
        # written: mark the bytes stored (gstored) instead of their undefinedness
        bad = np.ones(lanes.size, bool) if written else np.zeros(lanes.size, bool) if b.undef is None else b.undef[lanes]
        idx = a[inside, None] + np.arange(size)
        undef[idx] = bad[inside, None]
        return int(bad[inside].sum())

    def note_store_address(self, b: Batch) -> None:
        """A store's address has been read (golden.g80.execute): what was undefined so far is its address's."""
        if self.track_undefined:
            b.undef_addr = None if b.undef is None else b.undef.copy()

    # -- decoding -------------------------------------------------------------------------------

    def plan(self, pc: int) -> Plan:
        plan = self.plans.get(pc)
        if plan is None:
            i = (pc - self.base) // 4
            if pc < self.base or pc % 4 or i >= len(self.code):
                raise ModelError(f"PC {pc:#06x} is outside the program (0x{self.base:x}..0x{self.base + 4 * len(self.code):x})")
            try:
                insn = decode(self.code[i : i + 2], pc)
            except IllegalInstruction as e:
                raise ModelError(str(e)) from None
            ops: dict[str, object] = {}
            for role, op in insn.operands:
                ops[role or f"op{len(ops)}"] = op
            ops = flexgrip_decode.adapt(self.profile, insn, ops)
            run = None if insn.form.fmt in (CTRL, "sctrl") else FAMILIES[insn.form.family]
            f = insn.fields
            plan = Plan(insn, ops, run, insn.text, insn.size, guarded="pcond" in f and f["pcond"] != conditions.ALWAYS, pcond=f.get("pcond", 0),
                        preg=f.get("preg", 0), marker=f.get("marker", 0) if insn.form.fmt == LONG else 0,
                        # FlexGripPlus does not reproduce the SFU's RRO codes bit for bit either
                        float_result=insn.form.float_result or insn.form.unit == "sfu")  # fmt: skip
            self.plans[pc] = plan
        return plan

    # -- operand access (used by golden.g80.execute) -----------------------------------------------------

    def where(self, b: Batch) -> str:
        w = b.warps[0]
        return f"block {w.block.index} warp {w.wid} PC {w.pc:#06x}"

    def read_reg(self, b: Batch, index: int, half: bool) -> np.ndarray:
        reg = index >> 1 if half else index
        if self.profile.only_r124_zero and index == 124:
            reg = self.nregs
        elif reg >= self.nregs:
            reg = self.nregs  # past the allocation: reads 0 (ISA.md 7.1)
        if self.track_undefined:
            self._taint(b, self.ureg[reg, b.sel])
        value = self.regs[reg, b.sel]
        if half:
            return (value >> U32(16)) if index & 1 else (value & U32(0xFFFF))
        return value

    def write_reg(self, b: Batch, index: int, half: bool, value: np.ndarray) -> None:
        reg = index >> 1 if half else index
        value = np.asarray(value, U32)
        if half:
            value = value & U32(0xFFFF)
        if self.profile.only_r124_zero and index == 127 and not half:
            # FlexGripPlus's register sink (o[0x7f]): nothing reaches its register file, not even a write
            # strobe (GHDL, mov PC 0x1b8: MVI R127, 0xdead commits no register write), so no record either
            return
        full = b.full and value.shape == (b.n,)  # every lane written: no select (the record is a copy: value may be a view of a register)
        if b.records is not None:
            record = value.copy() if full else np.where(b.exec, value, 0).astype(U32)
            b.records[0].gpr.append(RegWrite("gpr", reg, record, ("H" if index & 1 else "L") if half else None))
        if reg >= self.nregs or (self.profile.only_r124_zero and index == 127):
            return  # past the allocation, or FlexGripPlus's register sink: dropped
        if self.track_floats:
            self.freg[reg, b.sel] = np.where(b.exec, b.float_result, self.freg[reg, b.sel])
        if self.track_undefined:
            undef = np.zeros(b.n, bool) if b.undef is None else b.undef
            # a 16-bit write leaves the other half as it was: an undefined half keeps the register undefined
            self.ureg[reg, b.sel] = np.where(b.exec, undef | self.ureg[reg, b.sel] if half else undef, self.ureg[reg, b.sel])
        if full and not half:
            self.regs[reg, b.sel] = value
            return
        old = self.regs[reg, b.sel]
        if half:
            new = (old & U32(0xFFFF)) | (value << U32(16)) if index & 1 else (old & U32(0xFFFF0000)) | value
        else:
            new = value
        self.regs[reg, b.sel] = np.where(b.exec, new, old)

    def cc_of(self, b: Batch, reg: int) -> np.ndarray:
        if self.track_undefined:
            self._taint(b, self.ucc[reg, b.sel])
        return self.cc[reg, b.sel]

    def write_cc(self, b: Batch, reg: int, flags: np.ndarray) -> None:
        flags = np.asarray(flags, np.uint8) & np.uint8(0xF)
        if self.track_undefined:
            undef = np.zeros(b.n, bool) if b.undef is None else b.undef
            self.ucc[reg, b.sel] = np.where(b.exec, undef, self.ucc[reg, b.sel])
        if b.full and flags.shape == (b.n,):  # every lane written: no select
            if b.records is not None:
                b.records[0].cc.append(RegWrite("cc", reg, flags.astype(U32)))
            self.cc[reg, b.sel] = flags
            return
        if b.records is not None:
            b.records[0].cc.append(RegWrite("cc", reg, np.where(b.exec, flags, 0).astype(U32)))
        self.cc[reg, b.sel] = np.where(b.exec, flags, self.cc[reg, b.sel])

    def areg_of(self, b: Batch, reg: int) -> np.ndarray:
        if not reg:
            return np.zeros(b.n, U32)
        if self.track_undefined:
            self._taint(b, self.uareg[reg, b.sel])
        return self.areg[reg, b.sel]

    def write_areg(self, b: Batch, reg: int, value: np.ndarray) -> None:
        # G80 address registers are 16 bits (ISA.md 7.1); FlexGripPlus's address_register_file holds 32
        value = np.asarray(value, U32) & U32(0xFFFFFFFF if self.profile.areg_32bit else 0xFFFF)
        if b.records is not None:
            b.records[0].addr.append(RegWrite("addr", reg, np.where(b.exec, value, 0).astype(U32)))
        if reg:
            self.areg[reg, b.sel] = np.where(b.exec, value, self.areg[reg, b.sel])
            if self.track_undefined:
                undef = np.zeros(b.n, bool) if b.undef is None else b.undef
                self.uareg[reg, b.sel] = np.where(b.exec, undef, self.uareg[reg, b.sel])

    def mem_address(self, b: Batch, areg: int, offset: int, postinc: bool, size: int = 4, store: bool = False) -> np.ndarray:
        """$a + offset, or with post-increment $a (and $a += offset after the instruction; `size`:
        the access size in bytes, which the flexgrip profile's postinc_a4 scales by; `store`: the
        operand is a shared-memory store's destination)."""
        a = self.areg_of(b, areg).astype(np.int64)
        if postinc:
            b.pending.append((areg, (a + offset).astype(U32), size))
            # FlexGripPlus reads at $a + offset as without post-increment (postinc_a4), but stores at $a:
            # Write/pipeline_write.vhd gives a shared store with addr_inc_in = '1' the address 0 (+ $a)
            return a + offset if self.profile.postinc_a4 and not store else a
        return a + offset

    def _shared_wrap(self, addr: np.ndarray) -> np.ndarray:
        # FlexGripPlus's shared memory controller keeps the low SHMEM_ADDR_SIZE (14) bits of an effective
        # address (shared_memory_controller.vhd: offset(i)(ADDRESS_SIZE - 1 downto 0)), so a negative or large
        # $a-relative address wraps inside the 16 KiB instead of faulting (flexgrip_findings shared_addr_wrap)
        bits = self.profile.shared_addr_bits
        return (np.asarray(addr, np.int64) & ((1 << bits) - 1)) if bits else addr

    def shared_load(self, b: Batch, addr: np.ndarray, size: int, signed: bool) -> np.ndarray:
        addr = self._shared_wrap(addr)
        self._shared_check(b, addr, size)
        # lanes that do not execute read nothing: their $a may hold anything (found by randgen's
        # hypothesis test: a post-incremented g [A2+++k] in lanes whose A2 was never set)
        if self.track_undefined:
            self._taint(b, self._bytes_undefined(self.shundef, b, self._shared_abs(b, np.where(b.exec, addr, 0)), size))
        return self.shared.load(self._shared_abs(b, np.where(b.exec, addr, 0)), size, signed)

    def shared_load_uniform(self, b: Batch, offset: int, size: int, signed: bool) -> np.ndarray | None:
        """`shared_load` of g [offset] ($a0: the same address in every lane) for a one-warp batch,
        the case of most shared operands (kernel parameters, blockIdx): one read broadcast, where
        the general path's twenty-odd array operations were a large part of a step.
        Lanes that do not execute get what the general path gives them, the block's byte 0 on.
        None where the general path must run: several warps, or an address outside shared
        memory (its fault)."""
        if len(b.warps) != 1 or self.track_undefined:  # undefinedness: the general path reads it per lane
            return None
        bits = self.profile.shared_addr_bits
        addr = offset & ((1 << bits) - 1) if bits else offset
        if addr < 0 or addr + size > SHARED_BYTES:
            return None
        base = b.warps[0].block.slot * SHARED_BYTES  # a warp's threads are in one block (thread_block of its threads)
        data = self.shared.data
        here = int.from_bytes(data[base + addr : base + addr + size].tobytes(), "little")
        if signed and size < 4:
            here = (here ^ (1 << (8 * size - 1))) - (1 << (8 * size - 1)) & 0xFFFFFFFF
        if b.full or b.exec.all():
            return np.full(WARP, here, np.uint32)
        first = int.from_bytes(data[base : base + size].tobytes(), "little")
        if signed and size < 4:
            first = (first ^ (1 << (8 * size - 1))) - (1 << (8 * size - 1)) & 0xFFFFFFFF
        return np.where(b.exec, np.uint32(here), np.uint32(first))

    def shared_store(self, b: Batch, addr: np.ndarray, size: int, value: np.ndarray) -> None:
        addr = self._shared_wrap(addr)
        self._shared_check(b, addr, size)
        lanes = np.flatnonzero(b.exec)
        if self.track_undefined:
            self._mark_store(self.shundef, b, self._shared_abs(b, addr), size)
        self.shared.store(self._shared_abs(b, addr)[lanes], size, np.asarray(value, U32)[lanes])
        if b.records is not None:
            b.records[0].mem.append(MemWrite("shared", size, bits_mask(b.exec), np.where(b.exec, addr, 0), np.where(b.exec, value, 0).astype(U32)))

    def _shared_abs(self, b: Batch, addr: np.ndarray) -> np.ndarray:
        return self.thread_block[b.threads] * SHARED_BYTES + addr

    def _shared_check(self, b: Batch, addr: np.ndarray, size: int) -> None:
        bad = b.exec & ((addr < 0) | (addr + size > SHARED_BYTES))
        if bad.any():
            lane = int(np.flatnonzero(bad)[0])
            raise MemoryFault("shared", int(addr[lane]), size, SHARED_BYTES, f"{self.where(b)}, lane {lane % WARP}")

    def const_load(self, b: Batch, bank: int, addr: np.ndarray, size: int, signed: bool) -> np.ndarray:
        if self.profile.const_bank_ignored:
            bank = 0
        mem = self.cmem.get(bank)
        if mem is None:
            mem = self.cmem[bank] = Memory(f"constant bank c[{bank:#x}]", 64 * 1024)
        lanes = np.flatnonzero(b.exec)
        out = np.zeros(b.n, U32)
        if lanes.size:
            out[lanes] = mem.load(addr[lanes], size, signed, lambda: self.where(b), lanes % WARP)
        return out

    def _global_wrap(self, addr: np.ndarray) -> np.ndarray:
        # FlexGripPlus's global memory port takes the low global_addr_bits of the address (its memory
        # is 256 KiB): a larger address wraps instead of faulting (flexgrip_findings global_addr_18bit)
        bits = self.profile.global_addr_bits
        return addr & ((1 << bits) - 1) if bits else addr

    def global_load(self, b: Batch, addr: np.ndarray, size: int, signed: bool) -> list[np.ndarray]:
        addr = self._global_wrap(addr)
        if self.track_undefined and self.gundef is not None:
            self._taint(b, self._bytes_undefined(self.gundef, b, addr, size))
        return self._load(self.gmem, b, addr, size, signed)

    def global_store(self, b: Batch, addr: np.ndarray, size: int, values: list[np.ndarray], reg: int | None = None) -> None:
        addr = self._global_wrap(addr)
        if self.track_undefined and self.gundef is not None:
            self.undef_stores += self._mark_store(self.gundef, b, addr, size)
            self._mark_store(self.gstored, b, addr, size, written=True)
        self._store(self.gmem, "global", b, addr, size, values)
        if self.track_floats and reg is not None and size >= 4:
            for part in range(len(values)):
                row = min(reg + part, self.nregs)
                tagged = b.exec & self.freg[row, b.sel]
                self.float_words.update((addr[tagged] + 4 * part).tolist())
                self.float_words.difference_update((addr[b.exec & ~self.freg[row, b.sel]] + 4 * part).tolist())

    def _local(self) -> Memory:
        if self.local is None:
            self.local = Memory("local", self.regs.shape[1] * self.config.local_bytes)
        return self.local

    def _local_abs(self, b: Batch, addr: np.ndarray, size: int) -> np.ndarray:
        limit = self.config.local_bytes
        bad = b.exec & ((addr < 0) | (addr + size > limit))
        if bad.any():
            lane = int(np.flatnonzero(bad)[0])
            raise MemoryFault("local", int(addr[lane]), size, limit, f"{self.where(b)}, lane {lane % WARP}")
        return b.threads * limit + addr

    def _local_undefined(self) -> np.ndarray:
        # undefinedness of local memory, which starts defined (zeroed) in every round, as the memory does
        mem = self._local()
        if self.lundef is None or self.lundef_of is not mem:
            self.lundef, self.lundef_of = np.zeros(mem.size, bool), mem
        return self.lundef

    def local_load(self, b: Batch, addr: np.ndarray, size: int, signed: bool) -> list[np.ndarray]:
        abs_addr = self._local_abs(b, addr, size)
        if self.track_undefined:
            self._taint(b, self._bytes_undefined(self._local_undefined(), b, abs_addr, size))
        return self._load(self._local(), b, abs_addr, size, signed)

    def local_store(self, b: Batch, addr: np.ndarray, size: int, values: list[np.ndarray]) -> None:
        if self.track_undefined:
            self._mark_store(self._local_undefined(), b, self._local_abs(b, addr, size), size)
        self._store(self._local(), "local", b, self._local_abs(b, addr, size), size, values, record_addr=addr)

    def _load(self, mem: Memory, b: Batch, addr: np.ndarray, size: int, signed: bool) -> list[np.ndarray]:
        if size == 4 and b.full:  # every lane loads a word: the common case, in a few array operations
            words = mem.load_words(addr)
            if words is not None:
                return [words]
        lanes = np.flatnonzero(b.exec)
        parts = max(size // 4, 1)
        out = [np.zeros(b.n, U32) for _ in range(parts)]
        if lanes.size:
            if size > 4 and (addr[lanes] % size).any():
                lane = int(lanes[np.flatnonzero(addr[lanes] % size)[0]])
                raise MemoryFault(mem.name, int(addr[lane]), size, mem.size, f"{self.where(b)}, lane {lane % WARP}: misaligned")
            for part in range(parts):
                out[part][lanes] = mem.load(addr[lanes] + 4 * part, min(size, 4), signed, lambda: self.where(b), lanes % WARP)
        return out

    def _store(self, mem: Memory, space: str, b: Batch, addr: np.ndarray, size: int, values: list[np.ndarray],
               record_addr: np.ndarray | None = None) -> None:  # fmt: skip
        # every lane stores a word: the common case, in a few array operations
        if not (size == 4 and b.full and mem.store_words(addr, values[0])):
            lanes = np.flatnonzero(b.exec)
            if lanes.size:
                for part, value in enumerate(values):
                    mem.store(addr[lanes] + 4 * part, min(size, 4), value[lanes], lambda: self.where(b), lanes % WARP)
        if b.records is not None:
            shown = addr if record_addr is None else record_addr
            for part, value in enumerate(values):
                data = value & U32((1 << (8 * size)) - 1) if size < 4 else value
                if b.full:  # every lane executes: nothing to zero (copies: the record must not change with the registers)
                    b.records[0].mem.append(MemWrite(space, min(size, 4), FULL, shown + 4 * part, data.astype(U32)))
                else:
                    b.records[0].mem.append(MemWrite(space, min(size, 4), bits_mask(b.exec), np.where(b.exec, shown + 4 * part, 0),
                                                     np.where(b.exec, data, 0).astype(U32)))  # fmt: skip

    def special(self, b: Batch, sreg: int) -> np.ndarray:
        """S2R: SR0 physid = warp << 8 | lane (MP and TPC 0), SR1 the clock (one tick per executed
        instruction), others 0 (ISA.md 7.1)."""
        if sreg == 0:
            return np.concatenate([(w.wid << 8) + LANES for w in b.warps]).astype(U32)
        if sreg == 1:
            if b.records is not None:
                b.records[0].synced.append("SR1 (clock)")
            if self.sync_clock is not None:
                value, self.sync_clock = self.sync_clock, None
                return np.asarray(value, U32)
            return np.full(b.n, self.clock & FULL, U32)
        return np.zeros(b.n, U32)

    def read_named(self, b: Batch, op: NamedOperand) -> np.ndarray:
        if op.prefix == "A":
            return self.areg_of(b, op.index)
        if op.prefix == "C":
            return self.cc_of(b, op.index).astype(U32)
        return self.special(b, op.index)

    # -- execution ------------------------------------------------------------------------------

    def step(self, warp: Warp, record: bool = True) -> Commit | None:
        """Execute the next instruction of `warp` (lock-step API)."""
        if warp.done:
            raise ModelError(f"warp {warp.wid} has finished; it has no next instruction")
        if warp.waiting:
            raise ModelError(f"warp {warp.wid} is waiting at a barrier (block {warp.block.index})")
        commits = self._execute([warp], record)
        return commits[0] if commits else None

    def _execute(self, warps: list[Warp], record: bool) -> list[Commit]:
        w = warps[0]
        pc = w.pc
        plan = self.plans.get(pc) or self.plan(pc)
        insn = plan.insn
        b = Batch(warps)
        one = len(warps) == 1
        guarded = plan.guarded
        if self.track_undefined:
            b.undef = np.zeros(b.n, bool)
            if guarded and (b.active & self.ucc[plan.preg, b.sel]).any():
                lane = int(np.flatnonzero(b.active & self.ucc[plan.preg, b.sel])[0])
                raise UndefinedControl(f"{self.where(b)} {plan.text}, lane {lane % WARP}: guarded by flags C{plan.preg} computed from undefined "
                                       "input; whether the lane executes is unknown")  # fmt: skip
        if guarded:
            b.exec = b.active & _CONDS[plan.pcond, self.cc[plan.preg, b.sel]]
        elif b.exec is b.active and b.active.flags.writeable:
            b.exec = b.active.copy()  # (a cached, read-only mask needs no copy: writing into it would raise)
        b.full = not guarded and one and w.active == FULL
        commits: list[Commit] = []
        if record:
            # unguarded, one warp: the lanes that execute are the active ones
            exec_mask = bits_mask(b.exec) if guarded or not one else w.active
            c = Commit(w.block.slot, w.wid, w.seq, pc, insn.word, plan.size, w.active, exec_mask, 0, 0, False, text=plan.text)
            commits.append(c)
            b.records = commits
        if one:
            self.steps += 1
            self.thread_steps += w.active.bit_count()
            w.seq += 1
        else:
            self.steps += len(warps)
            self.thread_steps += sum(x.active.bit_count() for x in warps)
            for x in warps:
                x.seq += 1
        self.clock += 1
        if self.steps > self.max_steps:
            raise RunawayError(f"more than {self.max_steps} warp-instructions: runaway program? last PCs " + self.last_pcs())
        if plan.run is not None:
            if (w.active != 0 if not guarded and one else b.exec.any()):
                b.float_result = plan.float_result
                plan.run(self, b, insn, plan.ops)  # type: ignore[operator]
            for areg, value, size in b.pending:
                if self.profile.postinc_a4:
                    # FlexGripPlus's write stage hands its incrementer register number 0 (read and written as
                    # $a4) and the instruction's destination field (w0 bits 8:2) as the step, scaled by the
                    # access size like an offset (flexgrip_findings postinc_increments_a4)
                    areg = 4
                if self.track_undefined:  # the increment is undefined where the register was (not the instruction's sources)
                    b.undef = np.zeros(b.n, bool)
                    self.areg_of(b, areg)
                if self.profile.postinc_a4:
                    value = self.areg_of(b, 4) + U32(_postinc_a4_step(insn, size))
                self.write_areg(b, areg, value)
            nxt = pc + plan.size
            for x in warps:
                x.pc = nxt
            if plan.marker:
                for x in warps:
                    self._marker(x, plan.marker, pc)
        else:
            if self.profile.bit25_incr_a4 and (insn.words[0] >> 25) & 1:
                # Decode/pipeline_decode.vhd: addr_incr_i <= instruction_in(25) for every instruction, and
                # Write/pipeline_write.vhd (CHECK_INCREMENT_ADDR) then runs increment_address on register
                # number 0 ($a4) with the destination field as the step, which a control instruction
                # decodes as 0: $a4 is read and written back unchanged (flexgrip_findings bar_writes_a4)
                if self.track_undefined:
                    b.undef = np.zeros(b.n, bool)
                self.write_areg(b, 4, self.areg_of(b, 4))
            for i, w in enumerate(warps):
                self._control(w, insn, b.exec[i * WARP : (i + 1) * WARP], pc)
        if record:
            w = warps[0]
            commits[0].next_pc, commits[0].next_mask, commits[0].done = w.pc, w.active, w.done
            commits[0].barrier = w.waiting
        return commits

    def last_pcs(self) -> str:
        return ", ".join(f"warp {w.wid} {w.pc:#06x}" for w in self.warps if not w.done)

    # -- SIMT control (ISA.md 6.3) ----------------------------------------------------------------------

    def _push(self, w: Warp, kind: str, target: int, mask: int, at: int) -> None:
        if len(w.stack) >= self.config.stack_depth:
            raise StackError(f"block {w.block.index} warp {w.wid} PC {at:#06x}: SIMT stack overflow ({self.config.stack_depth} entries)")
        w.stack.append(Entry(kind, target, mask))

    def _control(self, w: Warp, insn: Instruction, exec_bits: np.ndarray, pc: int) -> None:
        name = insn.form.name
        taken = bits_mask(exec_bits)
        nxt = pc + insn.size
        f = insn.fields
        w.pc = nxt
        if name == "BRA":
            target = f["target"] << 2
            if taken == w.active:
                w.pc = target
            elif taken:
                # divergence: the taken side runs first, the fall-through waits on the stack (as FlexGripPlus)
                self._push(w, BRANCH, nxt, w.active & ~taken, pc)
                w.active, w.pc = taken, target
        elif name == "SSY":
            self._push(w, JOINAT, f["target"] << 2, w.active, pc)
        elif name == "PBK":
            self._push(w, BREAK, f["target"] << 2, w.active, pc)
        elif name == "CAL":
            self._push(w, CALL, nxt, w.active, pc)
            w.pc = f["target"] << 2
        elif name == "RET":
            self._ret(w, taken)
        elif name == "BRK":
            self._brk(w, taken, pc)
        elif name == "BAR":
            self._barrier(w, pc)
        elif name in ("TRAP", "TRAP32"):
            raise TrapError(f"block {w.block.index} warp {w.wid} PC {pc:#06x}: TRAP")
        if w.active == 0 and not w.done:
            self._unwind(w, pc)

    def _ret(self, w: Warp, taken: int) -> None:
        if self.profile.ret_pops_any:
            if not w.stack:
                w.exited |= taken
                w.active &= ~taken
                if w.active == 0:
                    w.done = True
            else:
                e = w.stack.pop()
                w.pc, w.active = e.pc, e.mask
            return
        if any(e.kind == CALL for e in w.stack):
            w.returned |= taken
        else:
            w.exited |= taken  # RET with no CALL entry ends the threads (ISA.md 6.3)
        w.active &= ~taken

    def _brk(self, w: Warp, taken: int, pc: int) -> None:
        if self.profile.ret_pops_any:  # FlexGripPlus: pop when every current thread breaks
            if taken == w.active and w.stack:
                e = w.stack.pop()
                w.pc, w.active = e.pc, e.mask
            else:
                w.active &= ~taken
            return
        if not any(e.kind == BREAK for e in w.stack):
            raise StackError(f"block {w.block.index} warp {w.wid} PC {pc:#06x}: BRK without a PBK entry on the stack")
        w.broke |= taken
        w.active &= ~taken

    def _marker(self, w: Warp, marker: int, pc: int) -> None:
        if marker == 1:  # exit: the active threads finish after the instruction
            if self.profile.exit_marker_ignored:
                return
            w.exited |= w.active
            w.active = 0
            self._unwind(w, pc)
        elif marker == 2:  # join: pop the top entry
            if not w.stack:
                if self.profile.ret_pops_any:
                    w.active = w.init_mask & ~w.exited
                    return
                raise StackError(f"block {w.block.index} warp {w.wid} PC {pc:#06x}: join (.S) with an empty SIMT stack")
            e = w.stack.pop()
            if e.kind == BRANCH:
                w.pc, w.active = e.pc, e.mask & ~w.exited
            elif e.kind == JOINAT:
                w.active = e.mask & ~(w.exited | w.broke | w.returned)
            elif self.profile.ret_pops_any:
                w.pc, w.active = e.pc, e.mask
            else:
                raise StackError(f"block {w.block.index} warp {w.wid} PC {pc:#06x}: join (.S) pops a {e.kind} entry")
            if w.active == 0:
                self._unwind(w, pc)

    def _unwind(self, w: Warp, pc: int) -> None:
        """No thread is active: resume the next pending work from the stack, or finish."""
        while w.active == 0:
            if not w.stack:
                w.done = True
                self._barrier_recheck(w.block)
                return
            e = w.stack.pop()
            gone = w.exited
            if e.kind == BRANCH:
                w.pc, w.active = e.pc, e.mask & ~gone
            elif e.kind == JOINAT:
                # the parked threads go on after the join instruction at the SSY target
                w.active = e.mask & ~(gone | w.broke | w.returned)
                w.pc = e.pc + self.plan(e.pc).insn.size
            elif e.kind == BREAK:
                w.broke &= ~e.mask
                w.pc, w.active = e.pc, e.mask & ~(gone | w.returned)
            elif e.kind == CALL:
                w.returned &= ~e.mask
                w.pc, w.active = e.pc, e.mask & ~gone

    def _barrier(self, w: Warp, pc: int) -> None:
        w.waiting = True
        self._barrier_recheck(w.block)

    def _barrier_recheck(self, block: Block) -> None:
        """Release the block's barrier once every warp that has not finished has arrived."""
        live = [x for x in block.warps if not x.done]
        if live and all(x.waiting for x in live):
            for x in live:
                x.waiting = False

    # -- free running ------------------------------------------------------------------------------

    def run(self, batch: bool = True, record: bool = False, on_commit: Callable[[Commit], object] | None = None) -> int:
        """Run every block of the grid. Returns the number of warp-instructions executed."""
        start = self.steps
        for commits in self._schedule(batch, record):
            if on_commit is not None:
                for c in commits:
                    on_commit(c)
        return self.steps - start

    def commits(self) -> Iterator[Commit]:
        """Run every block of the grid one warp-instruction at a time, round-robin over the ready
        warps, and yield each commit record (the order a lock-step DUT with a round-robin
        scheduler may commit in). While a record is being handled, `warps` is still its round's."""
        for group in self._schedule(batch=False, record=True):
            yield from group

    def _schedule(self, batch: bool, record: bool) -> Iterator[list[Commit]]:
        """The free-running scheduler: round after round, the next ready warp after the last one
        executed (with `batch`, together with every ready warp at the same PC)."""
        while True:
            rr = 0
            n = len(self.warps)
            while True:
                ready = [w for w in self.warps if w.ready]
                if not ready:
                    if any(not w.done for w in self.warps):
                        stuck = ", ".join(f"warp {w.wid} at {w.pc:#06x}" for w in self.warps if not w.done)
                        raise ModelError(f"deadlock: warps wait at a barrier that cannot complete ({stuck})")
                    break
                w = next(self.warps[(rr + k) % n] for k in range(n) if self.warps[(rr + k) % n].ready)
                rr = (w.wid + 1) % n
                group = [x for x in ready if x.pc == w.pc] if batch and not record else [w]
                yield self._execute(group, record)
            if not self.start_next_round():
                return
