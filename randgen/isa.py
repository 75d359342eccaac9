"""What randgen's engine (randgen/__main__.py: seeds, knobs and presets, progress and resume,
failure folders with the rerun command, shrinking) needs from an instruction set: one `RandIsa`.

The engine calls only these entries, so an ISA brings a generator module (its knobs, presets,
program tree, renderer and shrink candidates) and a runner module (model alone, lock-step), and
nothing of the engine is copied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import Knobs
from .run import Outcome


@dataclass(frozen=True)
class RandIsa:
    name: str
    suffix: str  # program file suffix
    knobs: Knobs | None  # the knob set's defaults (None: G80's Config, the engine's default)
    presets: dict[str, dict] | None  # None: G80's PRESETS
    generate: Callable[[int, Any, str], Any]  # (seed, knobs, preset) -> program tree
    render: Callable[[Any], str]  # tree -> program text
    instructions: Callable[[str], int]  # instructions of a rendered program
    size: Callable[[Any], int]  # what the shrinker minimises
    candidates: Callable[[Any], Iterator[Any]]  # smaller legal trees
    run_golden: Callable[[Path, Path | None], Outcome]  # (program, coverage folder) -> outcome on the model alone
    run_dut: Callable[..., Outcome] | None  # (program, sim, dut, waves, rtl) -> lock-step outcome; None: the engine's G80 path
    unit: str  # what the model's count counts, for the summary line
    # run options of the engine that only G80 has: (option, its value that means "not given")
    g80_only: tuple[tuple[str, Any], ...] = ()
    # no DUT exists: every run is on the model alone, whatever SIM says (the engine says so in one line)
    model_only: bool = False


def _g80() -> RandIsa:
    from . import generator, shrink
    from .run import instructions, run_golden

    return RandIsa("g80", ".sass", None, None, generator.generate, generator.render, instructions, shrink.size, shrink.candidates,
                   run_golden, None, "warp-instructions")  # fmt: skip


def _lg() -> RandIsa:
    from . import lg, lg_run

    def dut(path: Path, sim: str, dut: str = "rtl", waves: bool = False, rtl: str = "") -> Outcome:
        return lg_run.run_rtl(path, sim, dut, waves, rtl=rtl)

    g80_only = (("mutants", None), ("batch", 0), ("defines", ""), ("cov", None), ("baseline", False), ("num_sp", 8))
    return RandIsa("lg", ".lgs", lg.LgConfig(), lg.PRESETS, lg.generate, lg.render, lg.instructions, lg.size, lg.candidates,
                   lg_run.run_golden, dut, "instructions", g80_only)  # fmt: skip


def _fermi() -> RandIsa:
    from . import fermi, fermi_run

    g80_only = (("mutants", None), ("batch", 0), ("defines", ""), ("baseline", False), ("num_sp", 8), ("rtl", ""))
    return RandIsa("fermi", ".sass", fermi.FermiConfig(), fermi.PRESETS, fermi.generate, fermi.render, fermi.instructions, fermi.size,
                   fermi.candidates, fermi_run.run_golden, None, "warp-instructions", g80_only, model_only=True)  # fmt: skip


ISAS: dict[str, Callable[[], RandIsa]] = {"g80": _g80, "lg": _lg, "fermi": _fermi}


def randisa(name: str) -> RandIsa:
    if name not in ISAS:
        raise ValueError(f"ISA={name}: randgen generates programs for {', '.join(ISAS)}")
    return ISAS[name]()
