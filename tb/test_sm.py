"""cocotb test module: one program on sm_top in lock-step with the golden model (pyuvm, tb/sm_env.py).

Environment: PROGRAM (a programs/*.sass path), SEED, PROFILE (g80 | flexgrip), MAX_LATENCY,
READY_P, MAX_MISMATCHES, WATCHDOG_CYCLES, RESULT (JSON outcome file), RERUN (the command printed
in a failure report), NUM_SP and SIM (for the report), FUNC_COVERAGE (functional coverage JSON to write; COVERAGE is cocotb's own variable).
Started by tb/lockstep.py, never by hand.
"""

from __future__ import annotations

import pyuvm
from sm_env import LockstepTest


@pyuvm.test()
class Lockstep(LockstepTest):
    pass
