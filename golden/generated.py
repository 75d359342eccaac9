"""Files generated from the one source of a fact (an encoding table, a ROM) and checked in.

The RTL includes what the golden model's tables say (opcodes, field slices, constants); a
generator writes them, and the same generator with --check (run by `make lint`) fails when a
checked-in file differs from what it would write now, so the two sides cannot drift apart.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def parser(description: str) -> argparse.ArgumentParser:
    """A generator's command line: writes its files, or with --check only compares them."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a checked-in file differs from a regeneration")
    return ap


def write_or_check(outputs: dict[Path, Callable[[], str]], check: bool, command: str) -> int:
    """Write each output (path -> its text), or with `check` report the stale ones; exit status."""
    stale = []
    for out, make in outputs.items():
        text = make()
        if check:
            if not out.exists() or out.read_text(encoding="utf-8") != text:
                stale.append(out)
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")
    for out in stale:
        print(f"{out} is out of date: run {command}", file=sys.stderr)
    return 1 if stale else 0
