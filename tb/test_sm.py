"""cocotb test module: one program on the DUT in lock-step with the golden model (pyuvm, tb/sm_env.py).

The configuration (tb/config.py) arrives as one JSON file named by the `+tb_config=PATH` plusarg;
the test publishes it in ConfigDB, where every component reads it. Started by tb/lockstep.py
(make sim, the pytest suites, make regress), never by hand.
"""

from __future__ import annotations

import cocotb
import pyuvm
from pyuvm import ConfigDB

from tb.config import CONFIG_KEY, LockstepConfig
from tb.sm_env import LockstepTest


@pyuvm.test()
class Lockstep(LockstepTest):
    def build_phase(self) -> None:
        ConfigDB().set(None, "*", CONFIG_KEY, LockstepConfig.from_plusargs(cocotb.plusargs))
        super().build_phase()
