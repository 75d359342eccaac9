"""The configuration of one lock-step run: built on the host (tb/lockstep.py from make/CLI
arguments), carried to the simulator as one JSON file named by the `+tb_config=PATH` plusarg,
and published to every component in pyuvm's ConfigDB under the key "config" by the test
(tb/test_sm.py). Components read ConfigDB, never the environment.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TypeVar

PLUSARG = "tb_config"
CONFIG_KEY = "config"  # ConfigDB key
UNIT_PLUSARG = "tb_unit"
_C = TypeVar("_C")


def _read(cls: type[_C], path: Path, what: str) -> _C:
    """A configuration dataclass from its JSON file: unknown keys are an error naming the file;
    lists come back as the tuples the dataclasses hold."""
    data = json.loads(path.read_text(encoding="utf-8"))
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{path}: unknown {what} setting(s) {', '.join(unknown)}")
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


@dataclass(frozen=True)
class LockstepConfig:
    program: str  # absolute path of a programs/*.sass file or a FlexGripPlus kernel bundle
    dut: str = "rtl"  # the adapter (tb/adapters): rtl | flexgrip
    sim: str = "icarus"
    num_sp: int = 8
    seed: int = 1  # draws memory latency and back-pressure
    profile: str = "g80"  # golden-model semantics
    defines: tuple[str, ...] = ()  # HDL defines, or a MUTANT_* variant of the RTL (tb/mutants.py)
    max_latency: int = 8  # memory response latency 1..max_latency cycles
    ready_p: float = 0.8  # probability that the memory port accepts a request in a cycle
    max_mismatches: int = 1  # mismatches let through before the run ends
    watchdog: int = 200_000  # cycles without a commit that count as a hang
    result: str = ""  # where the test writes its outcome (result.json); "" for none
    rerun: str = ""  # the command a failure report prints to rerun the test
    coverage: str = ""  # functional coverage JSON of the compared commits; "" for none
    extra: dict[str, str] = field(default_factory=dict)  # adapter-specific settings (e.g. a FlexGripPlus checkout)
    visibility: str = "lean"  # what VPI reaches in a Verilator model: "lean" (the ports) or "full" (tb/runner.py VISIBILITY)
    lockstep: bool = True  # False: free-running, the DUT's commit trace compared with the model after the run (tb/trace.py)
    trace: str = ""  # write the DUT's commit trace (tb/trace.py) here; "" for none
    mem_order: str = "any"  # load responses: "any" (each after its own latency, may overtake) | "request" (in request order); tb/mem_agent.py

    @property
    def name(self) -> str:
        return Path(self.program).stem

    @property
    def coverage_run(self) -> str:
        """The run's name in merged coverage databases."""
        return f"{self.dut}:{self.name}:{self.sim}:sp{self.num_sp}:s{self.seed}"

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    def write(self, path: Path) -> Path:
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def read(cls, path: Path) -> LockstepConfig:
        return _read(cls, Path(path), "lock-step")

    @classmethod
    def from_plusargs(cls, plusargs: dict[str, object]) -> LockstepConfig:
        """The configuration the runner passed (`+tb_config=PATH`)."""
        path = plusargs.get(PLUSARG)
        if not isinstance(path, str) or not path:
            raise RuntimeError(f"no +{PLUSARG}=PATH plusarg: the lock-step test is started by tb/lockstep.py (make sim), not by hand")
        return cls.read(Path(path))

    def plusarg(self, path: Path) -> str:
        return f"+{PLUSARG}={path}"


@dataclass(frozen=True)
class UnitConfig:
    """The settings of an RTL unit test (tb/test_*_unit.py), written by the host-side caller
    (tests/test_rtl_*.py, scripts/rtl_vectors.py) and passed as `+tb_unit=PATH`; without the
    plusarg a unit test runs with these defaults."""

    vectors: tuple[str, ...] = ()  # vector files to run; () for the unit's own file of testdata/vectors
    result: str = ""  # where a vector run writes its summary (JSON, scripts/rtl_vectors.py); "" for none
    seed: int = 1  # of the random operations compared with the golden model
    random: int | None = None  # how many; None for the unit's default

    def write(self, path: Path) -> Path:
        path.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")
        return path

    def plusarg(self, path: Path) -> str:
        return f"+{UNIT_PLUSARG}={path}"

    def vector_paths(self, default: Path) -> list[Path]:
        return [Path(p) for p in self.vectors] or [default]

    @classmethod
    def from_plusargs(cls, plusargs: dict[str, object]) -> UnitConfig:
        path = plusargs.get(UNIT_PLUSARG)
        return _read(cls, Path(path), "unit test") if isinstance(path, str) and path else cls()
