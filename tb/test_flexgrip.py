"""cocotb test module: one program on FlexGripPlus (fg_top under GHDL) in lock-step with the golden
model, flexgrip profile (tb/flexgrip_env.py). Started by tb/flexgrip_run.py, never by hand."""

from __future__ import annotations

import pyuvm
from flexgrip_env import FlexgripTest


@pyuvm.test()
class FlexgripLockstep(FlexgripTest):
    pass
