"""Keep what FlexGripPlus computed for a program as reference data (testdata/flexgrip_runs/NAME.BUFFER.out).

    python scripts/flexgrip_keep_run.py NAME [--buffer out] [--skip 256-287,300]

Reads the final global memory of the last `make sim TEST=NAME DUT=flexgrip` run (GHDL, 8 SPs, seed 1:
build/sim/flexgrip_NAME_ghdl_sp8_s1/final_global.bin, written by the testbench after the run) and writes
the words of one output buffer, one hex word a line, under a header naming the word indices to skip (those a waived, unmodelled finding produced). tests/test_flexgrip_int.py checks the
golden model's flexgrip profile against these files without a simulator.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from golden.g80.program import load_program

ROOT = Path(__file__).resolve().parents[1]


def indices(text: str) -> list[int]:
    out: list[int] = []
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out += range(int(lo, 0), int(hi or lo, 0) + 1)
    return out


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("--buffer", default="out")
    ap.add_argument("--skip", default="", help="word indices (a-b ranges, comma-separated) a waived finding produced")
    return ap


def main() -> int:
    ap = _parser()
    args = ap.parse_args()
    dump = ROOT / "build" / "sim" / f"flexgrip_{args.name}_ghdl_sp8_s1" / "final_global.bin"
    if not dump.is_file():
        print(f"{dump} not found: run make sim TEST={args.name} DUT=flexgrip first", file=sys.stderr)
        return 2
    spec = load_program(ROOT / "programs" / f"{args.name}.sass")
    buf = spec.buffers[args.buffer]
    data = np.fromfile(dump, np.uint8)
    if data.size < buf.addr + buf.nbytes:
        print(f"{dump}: {data.size} bytes, buffer {args.buffer} ends at {buf.addr + buf.nbytes}", file=sys.stderr)
        return 2
    words = data[buf.addr : buf.addr + buf.nbytes].view(np.uint32)
    skip = ",".join(str(i) for i in indices(args.skip))
    out = ROOT / "testdata" / "flexgrip_runs" / f"{args.name}.{args.buffer}.out"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(f"# skip={skip}\n" + "".join(f"{int(w):08x}\n" for w in words), encoding="utf-8")
    print(f"{out}: {words.size} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
