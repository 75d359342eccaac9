"""Architectural state of one SM: launch configuration, blocks, warps and their SIMT stacks.

Per-thread state lives in SM-wide arrays indexed [register, thread] (thread = 32 * warp slot +
lane), so that warps at the same PC can execute one instruction together as a batch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import LaunchError

WARP = 32
SHARED_BYTES = 16 * 1024  # per block, the shared address space (ISA.md 7.3)

# Stack entry types (ISA.md 6.2)
BRANCH, CALL, BREAK, JOINAT = "BRANCH", "CALL", "BREAK", "JOINAT"


@dataclass(frozen=True)
class SMConfig:
    """Resources of one SM (G80: 8192 registers, 16 KiB shared memory, 24 warps, 8 blocks)."""

    registers: int = 8192
    shared_bytes: int = SHARED_BYTES
    max_warps: int = 24
    max_blocks: int = 8
    stack_depth: int = 32  # entries per warp before a reported overflow
    local_bytes: int = 4096  # local memory per thread
    max_threads: int = 512  # per block (sm_1x: 512, blocks up to 512 x 512 x 64)


FLEXGRIP_SM = SMConfig(registers=16384, max_warps=32, max_blocks=8, stack_depth=31, max_threads=1024)  # FlexGripPlus runs 1024-thread blocks


@dataclass(frozen=True)
class Launch:
    """Grid and block shape, registers per thread, shared memory, kernel parameters."""

    grid: tuple[int, int] = (1, 1)
    block: tuple[int, int, int] = (32, 1, 1)
    registers: int = 16
    shared: int = 0  # user shared bytes after the header and parameters
    params: bytes = b""  # the parameter area, copied to shared byte 0x10

    @property
    def threads_per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def warps_per_block(self) -> int:
        return -(-self.threads_per_block // WARP)

    @property
    def num_blocks(self) -> int:
        return self.grid[0] * self.grid[1]

    @property
    def shared_per_block(self) -> int:
        return 16 + len(self.params) + self.shared

    def validate(self, max_threads: int = 512) -> None:
        bx, by, bz = self.block
        if not (1 <= bx <= max_threads and 1 <= by <= max_threads and 1 <= bz <= 64 and self.threads_per_block <= max_threads):
            raise LaunchError(f"block {self.block}: at most {max_threads} threads, x and y <= {max_threads}, z <= 64")
        gx, gy = self.grid
        if not (1 <= gx <= 65535 and 1 <= gy <= 65535):
            raise LaunchError(f"grid {self.grid}: each dimension must be 1..65535")
        if not 1 <= self.registers <= 128:
            raise LaunchError(f"{self.registers} registers per thread: must be 1..128")
        if self.shared_per_block > SHARED_BYTES:
            raise LaunchError(f"{self.shared_per_block} bytes of shared memory per block exceed 16 KiB")

    def blocks_per_round(self, sm: SMConfig) -> int:
        """How many blocks fit on the SM at once (registers, shared memory, warps, blocks)."""
        limits = {
            "blocks": sm.max_blocks,
            "warps": sm.max_warps // self.warps_per_block,
            "registers": sm.registers // (self.warps_per_block * WARP * self.registers),
            "shared memory": sm.shared_bytes // self.shared_per_block,
        }
        n = min(limits.values())
        if n < 1:
            short = min(limits, key=lambda k: limits[k])
            raise LaunchError(f"one block of {self.threads_per_block} threads does not fit on the SM ({short})")
        return n


@dataclass
class Entry:
    kind: str
    pc: int
    mask: int


@dataclass
class Block:
    slot: int  # resident block slot (the commit record's cta)
    index: int  # linear block index in the grid
    ctaid: tuple[int, int]
    warps: list[Warp] = field(default_factory=list)


@dataclass
class Warp:
    wid: int  # warp id in the SM (slot)
    block: Block
    index: int  # warp number in its block
    base: int  # first thread slot
    init_mask: int
    pc: int = 0
    active: int = 0
    exited: int = 0
    broke: int = 0
    returned: int = 0
    stack: list[Entry] = field(default_factory=list)
    done: bool = False
    waiting: bool = False  # at a barrier
    seq: int = 0

    def __post_init__(self) -> None:
        self.active = self.init_mask

    @property
    def ready(self) -> bool:
        return not self.done and not self.waiting



def bits_mask(bits: np.ndarray) -> int:
    return int(np.packbits(bits.astype(np.uint8), bitorder="little").view(np.uint32)[0])
