"""What the FP and SFU unit tests share when they run vector files: the tally.

The summary goes as JSON to the unit configuration's `result` (tb/config.py UnitConfig) for
scripts/rtl_vectors.py (`make rtl-vectors`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

MAX_FAILURES = 50  # kept in the summary; the counts are always complete


@dataclass
class Tally:
    unit: str
    passed: int = 0
    failed: int = 0
    other: int = 0  # lines of the files that are not this unit's
    lines: int = 0  # lines run (an SFU line may hold several checks)
    failures: list[str] = field(default_factory=list)
    start: float = field(default_factory=time.perf_counter)
    seconds: float = 0.0

    def fail(self, message: str) -> None:
        self.failed += 1
        if len(self.failures) < MAX_FAILURES:
            self.failures.append(message)

    def finish(self, result: str = "") -> None:
        """Stop the clock and write the summary to `result` when it is set."""
        self.seconds = time.perf_counter() - self.start
        summary = {"unit": self.unit, "passed": self.passed, "failed": self.failed, "other_lines": self.other, "failures": self.failures,
                   "lines": self.lines, "seconds": round(self.seconds, 3)}  # fmt: skip
        if result:
            Path(result).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
