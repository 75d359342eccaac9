"""G80's coverage, plugged into golden/coverage: its ISA bins (derived from the table in
coverage_model.py), its architectural crosses (coverage_cross.py) and the RTL's
micro-architecture model (golden/coverage/uarch.py), each a Coverage of its own file format.

`Coverage.sample(commit, stack_depth)`: `commit` is the golden model's record of the instruction
(what `SM.step(warp)` returned), `stack_depth` the number of entries on that warp's SIMT stack when
the instruction issued, i.e. `len(warp.stack)` read just before `SM.step(warp)`.
"""

from __future__ import annotations

from ..coverage import db
from ..coverage.model import Model
from ..coverage.uarch import UarchCoverage
from .commit import Commit
from .coverage_cross import CrossCoverage, cross_model
from .coverage_model import DYN_BITS, Dyn, model
from .coverage_sample import WordPlan, dyn_key, plan_word

FORMAT = "g80-sm1-coverage"


class Coverage(db.Coverage):
    """Counts of G80's ISA bins."""

    FORMAT = FORMAT
    TITLE = "G80 SM_1.0 functional coverage"
    SOURCE = "golden/g80/table.py"
    UCIS_INSTANCE = "sm1_isa"
    DESCRIPTION = ("every form's modifiers, operands, guard, $c write and marker, result classes and flags of the commit records, "
                   "SIMT situations.")  # fmt: skip

    def __init__(self, run: str | None = None) -> None:
        super().__init__(run)
        self._plans: dict[int, WordPlan] = {}

    @classmethod
    def build_model(cls) -> Model:
        return model()

    def sample(self, commit: Commit, stack_depth: int) -> None:
        plan = self._plans.get(commit.insn)
        if plan is None:
            plan = self._plans[commit.insn] = plan_word(commit.insn, commit.size)
        key = commit.insn << DYN_BITS | dyn_key(commit, plan, stack_depth)  # an int: no tuple for the collector to track
        raw = self._raw
        raw[key] = raw.get(key, 0) + 1

    def hits_of(self, key: int) -> list[int]:
        insn = self._plans[key >> DYN_BITS].insn
        return self.model.hits(insn.form, insn.fields, Dyn.unpack(key & ((1 << DYN_BITS) - 1)))


# the ISA bins first, then the other models a G80 run may write (golden.coverage.Merged reads this)
CLASSES: tuple[type[db.Coverage], ...] = (Coverage, CrossCoverage, UarchCoverage)

__all__ = ["CLASSES", "FORMAT", "Coverage", "CrossCoverage", "UarchCoverage", "cross_model", "model"]
