"""What the FP and SFU unit tests share when they run vector files: which files, and the tally.

The summary goes to $RESULT as JSON for scripts/rtl_vectors.py (`make rtl-vectors`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

MAX_FAILURES = 50  # kept in the summary; the counts are always complete


def vector_paths(default: Path) -> list[Path]:
    """$VECTORS (os.pathsep-separated files) or the default file of testdata/vectors."""
    env = os.environ.get("VECTORS")
    return [Path(p) for p in env.split(os.pathsep) if p] if env else [default]


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

    def finish(self) -> None:
        """Stop the clock and write the summary to $RESULT when it is set."""
        self.seconds = time.perf_counter() - self.start
        summary = {"unit": self.unit, "passed": self.passed, "failed": self.failed, "other_lines": self.other, "failures": self.failures,
                   "lines": self.lines, "seconds": round(self.seconds, 3)}  # fmt: skip
        if os.environ.get("RESULT"):
            Path(os.environ["RESULT"]).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
