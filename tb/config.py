"""The configuration of one lock-step run: built on the host (tb/lockstep.py from make/CLI
arguments), carried to the simulator as one JSON file named by the `+tb_config=PATH` plusarg,
and published to every component in pyuvm's ConfigDB under the key "config" by the test
(tb/test_sm.py). Components read ConfigDB, never the environment.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

PLUSARG = "tb_config"
CONFIG_KEY = "config"  # ConfigDB key


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
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{path}: unknown lock-step setting(s) {', '.join(unknown)}")
        data["defines"] = tuple(data.get("defines", ()))
        return cls(**data)

    @classmethod
    def from_plusargs(cls, plusargs: dict[str, object]) -> LockstepConfig:
        """The configuration the runner passed (`+tb_config=PATH`)."""
        path = plusargs.get(PLUSARG)
        if not isinstance(path, str) or not path:
            raise RuntimeError(f"no +{PLUSARG}=PATH plusarg: the lock-step test is started by tb/lockstep.py (make sim), not by hand")
        return cls.read(Path(path))

    def plusarg(self, path: Path) -> str:
        return f"+{PLUSARG}={path}"
