"""`make sim ISA=fermi`: a Fermi program's words round-tripped, then the program on the golden model.

    python scripts/sim.py --isa fermi TEST|PATH.sass [--max-steps N]

TEST is a name under programs/fermi/ (`integer`, `kernels/saxpy`, `bad/runaway`) or the path of a
.sass program. Steps: assemble it and read its directives (golden/fermi/run.py); check that each
word's disassembly, in both cuobjdump dialects, assembles back to the same word; run it on the
golden model as its directives launch it and check every `.expect` line. No Fermi DUT exists yet,
so no lock-step run follows, and the last line says so.

Exit 0 when the round trip and the model pass, 1 when either fails or the model stops on a fault or
a runaway, 2 for a usage error or a program that does not assemble. Every error is one line.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from golden.errors import FAILURE, USAGE, OneLineParser, UserError, guarded
from golden.fermi.run import load, round_trip, run
from golden.isa.source import AsmError

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "programs" / "fermi"
NO_DUT = "lock-step: not run: no Fermi DUT exists yet, so the golden model alone checked the program (docs/guides/fermi.md)"


def _parser() -> argparse.ArgumentParser:
    ap = OneLineParser(prog="sim.py --isa fermi", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("test", help="a name under programs/fermi/ (integer, kernels/saxpy, bad/runaway) or the path of a .sass program")
    ap.add_argument("--max-steps", type=int, help="the runaway bound in warp-instructions (default: the program's .max_steps)")
    ap.add_argument("--dut", help="refused: no Fermi DUT exists yet")
    return ap


def resolve(test: str) -> Path:
    """The program a TEST names: a path as given, or programs/fermi/TEST.sass."""
    given = Path(test)
    if given.suffix == ".sass" or given.exists():
        path = given
    else:
        path = PROGRAMS / f"{test}.sass"
        rel = os.path.relpath(path)
        path = Path(rel) if not rel.startswith("..") else path  # the short name when run from the checkout
    if not path.is_file():
        raise UserError(f"TEST={test}: no program {path} (give a name under programs/fermi, e.g. integer or kernels/saxpy, "
                        "or the path of a .sass file)")  # fmt: skip
    return path


def main(argv: list[str]) -> int:
    return guarded("sim", lambda: _main(argv))


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.dut is not None:
        raise UserError(f"--dut {args.dut}: no Fermi DUT exists yet; make sim ISA=fermi runs the golden model alone (leave DUT out)")
    if args.max_steps is not None and args.max_steps < 1:
        raise UserError(f"--max-steps {args.max_steps}: give a positive number of warp-instructions")
    path = resolve(args.test)
    try:
        spec = load(path)
    except AsmError as e:
        errors = getattr(e, "errors", [e])
        more = f" (and {len(errors) - 1} more: golden asm --isa fermi {path} lists them all)" if len(errors) > 1 else ""
        raise UserError(f"{e.file}:{e.line}:{e.col}: {e.message}{more}", USAGE) from None
    words = list(spec.program.words)
    bad = round_trip(words)
    if bad:
        for m in bad:
            print(f"  FAIL round trip: {m}")
        print(f"round trip: FAIL: {len(bad)} of {2 * len(words)} renderings (both dialects) do not assemble back to their word")
    else:
        print(f"round trip: PASS: {len(words)} words, disassembled in both dialects and assembled back to the same words")
    result = run(spec, args.max_steps)
    print("\n".join(result.lines()), flush=True)
    print(NO_DUT)
    return 0 if result.passed and not bad else FAILURE
