"""Architectural state of an LG GPU (seed slides "Registers"; LG.md; docs/design/lg.md).

Plain Python lists and ints for everything an instruction touches, so one step costs no numpy call;
the frame and depth buffers are numpy arrays because only endprimitive, flush and draw touch them,
a row span at a time.
"""

from __future__ import annotations

import numpy as np

from golden.lg.graphics import identity
from golden.lg.profile import LgProfile

WIDTH, HEIGHT = 640, 400  # the TA simulator's frame and fragment buffers are 400 rows of 640
MEM_BYTES = 1 << 16  # 16-bit addresses (docs/design/lg.md, "Architectural state")
STACK_DEPTH = 16  # TA PushMatrix: g_matrix_stack_ptr < 15, a 16-entry stack
DEPTH_CLEAR_Q87 = 0x0180  # 3.0 in Q8.7: the TA initialises and clears every depth to 3
DEPTH_CLEAR_FLOAT = 3.0
N_VREGS = 64


class LgState:
    """Registers, CC, vector registers, data memory and the graphics pipeline's state."""

    def __init__(self, profile: LgProfile) -> None:
        self.profile = profile
        self.fixed = profile.arith == "fixed"
        self.reset()

    def reset(self) -> None:
        fixed = self.fixed
        zero: int | float = 0 if fixed else 0.0
        # R: the integer view (under fixed arithmetic the only view: Q8.7 bits for R8-R14)
        self.r: list[int] = [0] * 16
        # F: the float view every register has in the TA simulator (ScalarRegister.float_value);
        # unused under fixed arithmetic
        self.f: list[float] = [0.0] * 16
        self.cc = self.profile.cc_reset
        self.v: list[list[int | float]] = [[zero] * 4 for _ in range(N_VREGS)]
        self.mem = bytearray(MEM_BYTES)
        self.pc = 0
        # graphics
        self.m: list[int | float] = identity(fixed)
        self.stack: list[tuple[list[int | float], int]] = []
        self.colour = 0  # 0xRRGGBB; black at reset (TA InitializeGpuVariables)
        self.verts: list[tuple[int | float, int | float, int | float, int]] = []
        self.prim_type = 0
        self.depth = np.full((HEIGHT, WIDTH), DEPTH_CLEAR_Q87 if fixed else DEPTH_CLEAR_FLOAT,
                             dtype=np.int16 if fixed else np.float64)
        self.fb = np.zeros((HEIGHT, WIDTH, 3), dtype=np.uint8)

    def clear_frame(self) -> None:
        """flush (and draw where it clears): black pixels, depth 3.0."""
        self.fb[:] = 0
        self.depth[:] = DEPTH_CLEAR_Q87 if self.fixed else DEPTH_CLEAR_FLOAT
