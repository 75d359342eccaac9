"""Programs on a golden model with coverage, one JSON file each: the loop every ISA's
`coverage_runs` shares (`golden coverage-runs --isa ...`).

The ISA gives one function, program path -> (its Coverage, the commits sampled); this module
runs it over the programs, saves each program's counts as OUT/NAME.json and writes OUT/NAME.log
(the commit count and the overall figures, or the error). A program that does not assemble or
that its model refuses is logged and reported, and the others still run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import UserError
from ..isa.source import AsmError
from .db import Coverage


def coverage_runs(programs: list[str], outdir: Path, run_program: Callable[[str], tuple[Coverage, int]]) -> list[tuple[str, Path, str | None]]:
    """Each program through `run_program` into OUT/NAME.json and its log OUT/NAME.log:
    (program, log, error or None) per program, in order."""
    out = []
    for program in programs:
        log = outdir / f"{Path(program).stem}.log"
        t0 = time.perf_counter()
        try:
            cov, n = run_program(program)
        except AsmError as e:
            log.write_text(e.format() + "\n", encoding="utf-8")
            out.append((program, log, e.message))
            continue
        except (UserError, OSError, ValueError) as e:  # a model's error is a UserError; an illegal word a ValueError
            log.write_text(f"{program}: error: {e}\n", encoding="utf-8")
            out.append((program, log, str(e)))
            continue
        cov.save(outdir / f"{Path(program).stem}.json")
        log.write_text(f"{program}: {n} commits in {time.perf_counter() - t0:.3f} s; {json.dumps(cov.overall().__dict__)}\n", encoding="utf-8")
        out.append((program, log, None))
    return out
