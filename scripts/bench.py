"""`make bench`: speed of the free-running golden model (thread-instructions per second).

Each kernel runs three times (the best is kept) in free-running mode (warps at the same PC run
as one batch) and once one warp-instruction at a time with commit records (the lock-step mode).
The kernels' expectations are checked too, so a fast wrong model does not pass.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import run_program

ROOT = Path(__file__).resolve().parents[1]


KERNELS = [
    ("bench/alu.sass", "ALU-heavy: 24 warps, integer hash loop"),
    ("programs/cf_rounds.sass", "memory: 40 blocks in 10 rounds, GLD/GST"),
    ("programs/cf_loop.sass", "divergent loop, SSY/join"),
    ("programs/cf_barrier.sass", "shared memory and BAR"),
]


def _parser() -> argparse.ArgumentParser:
    """The command line: no options (the manual's command-line reference reads it too)."""
    return argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)


def main() -> int:
    _parser().parse_args()
    print(f"{'kernel':<28} {'mode':<10} {'warp-insns':>11} {'thread-insns':>13} {'seconds':>8} {'M thread-insn/s':>16}  checks")
    ok = True
    for path, what in KERNELS:
        spec = load_program(ROOT / path)
        best = None
        for _ in range(3):
            r = run_program(spec, G80)
            if best is None or r.seconds < best.seconds:
                best = r
        assert best is not None
        records: list[object] = []
        t0 = time.perf_counter()
        single = run_program(spec, G80, trace=records.append)
        single_s = time.perf_counter() - t0
        for mode, r, secs in (("batched", best, best.seconds), ("lock-step", single, single_s)):
            checks = "ok" if r.checks and not r.failed else "FAILED"
            ok &= checks == "ok"
            print(f"{Path(path).name:<28} {mode:<10} {r.warp_instructions:>11} {r.thread_instructions:>13} {secs:>8.3f} "
                  f"{r.thread_instructions / secs / 1e6:>16.2f}  {checks}")  # fmt: skip
        print(f"  ({what})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
