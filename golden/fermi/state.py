"""Per-thread state of one CTA: registers, predicates and condition codes (seed 003).

Arrays are indexed [register, thread] so one warp's view of a register is a contiguous slice and a
warp-instruction reads and writes its 32 lanes at once:

- `r` (64, threads) uint32: R0-R62 and row 63, RZ, which stays 0 because writes to it are dropped;
  a 64-bit value lives in an aligned pair (low half in the even register), a 128-bit value in an
  aligned quad, lowest word first (seed 003);
- `p` (8, threads) bool: P0-P6 and row 7, PT, which stays true;
- `cc` (threads,) uint8: the 4-bit CC, bit 0 Z, bit 1 S, bit 2 C, bit 3 O (seed 003).
"""

from __future__ import annotations

import numpy as np

from golden.fermi.insn import PT, RZ

WARP = 32
NREGS = 64
NPREDS = 8

CC_Z, CC_S, CC_C, CC_O = 1, 2, 4, 8

# $flags (seed 003): P0-P6 in bits 0-6, the CC in bits 12-15
FLAGS_CC_SHIFT = 12


class CtaState:
    """Registers, predicates and CC of every thread of one CTA (threads padded to whole warps)."""

    def __init__(self, nthreads: int) -> None:
        self.nwarps = -(-nthreads // WARP)
        n = self.nwarps * WARP
        self.r = np.zeros((NREGS, n), dtype=np.uint32)
        self.p = np.zeros((NPREDS, n), dtype=bool)
        self.p[PT] = True
        self.cc = np.zeros(n, dtype=np.uint8)

    def check_invariants(self) -> None:
        """RZ reads 0 and PT reads true: every write path drops writes to them, so a breach is a bug."""
        assert not self.r[RZ].any() and self.p[PT].all()
