"""Functional coverage in the testbench: a pyuvm subscriber on the scoreboard's analysis port.

It samples the golden model's record of every commit the scoreboard compared equal (so what is
counted is what the RTL really did) with the warp's SIMT stack depth, and saves the counts as
JSON at the end of a passing run; `make coverage` merges these files with the golden-model runs.
"""

from __future__ import annotations

from pathlib import Path

from pyuvm import uvm_subscriber

from golden.coverage import Coverage

from .scoreboard import Compared


class CoverageSubscriber(uvm_subscriber):
    def __init__(self, name: str, parent, path: Path, run: str) -> None:
        super().__init__(name, parent)
        self.path = path
        self.coverage = Coverage(run)

    def write(self, item: Compared) -> None:
        self.coverage.sample(item.model, item.stack_depth)

    def report_phase(self) -> None:  # reached only when the run passed (check_phase raises otherwise)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.coverage.save(self.path)
