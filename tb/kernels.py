"""What the testbench loads into the DUT and the golden model: a program of programs/ or a
FlexGripPlus kernel bundle (testdata/vectors/flexgrip_kernels/NAME.txt, used to compare cycle
counts with FlexGripPlus on its own kernels).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from golden.g80.flexgrip_bundle import CONST_BYTES, GLOBAL_BYTES, load_bundle, read_mif
from golden.g80.memory import Memory
from golden.g80.profile import Profile
from golden.g80.program import KernelSpec, load_program
from golden.g80.run import build
from golden.g80.sm import SM
from golden.g80.state import FLEXGRIP_SM, Launch, SMConfig

from .dut import LaunchConfig


@dataclass
class Kernel:
    words: list[int]
    consts: list[tuple[int, int, bytes]]  # (bank, byte offset, data)
    launch: LaunchConfig
    params: bytes
    model: SM
    gmem: Memory


# programs kept assembled, by path: None unless a process that runs one program many times asks
# for it (keep_programs). A spec is only read after its assembly (golden/run.build copies what it
# takes), so one spec serves every run; the model and memories are still built afresh for each run
_SPECS: dict[Path, KernelSpec] | None = None


def keep_programs() -> None:
    """Assemble each program once in this process instead of once per run: a fault campaign's
    process runs one program for every fault, and its assembly was about a fifth of the Python time
    of a short kernel's fault (docs/measurements.md, "Where a fault's time goes")."""
    global _SPECS
    if _SPECS is None:
        _SPECS = {}


def _spec(path: Path) -> KernelSpec:
    if _SPECS is None:
        return load_program(path)
    key = path.resolve()
    if key not in _SPECS:
        _SPECS[key] = load_program(path)
    return _SPECS[key]


def load_kernel(path: Path, profile: Profile) -> Kernel:
    if path.suffix == ".sass":
        spec = _spec(path)
        model, gmem = build(spec, profile)
        params = spec.param_bytes(profile.param_slot_bytes_pointer)
        launch = LaunchConfig((spec.grid[0], spec.grid[1]), tuple(spec.block), spec.registers, spec.shared, len(params), model.config.local_bytes)
        return Kernel(list(model.code), list(spec.consts), launch, params, model, gmem)
    # a FlexGripPlus bundle: 4-byte parameter words, constant bank 0, the shipped global image
    b = load_bundle(path)
    gmem = Memory("global", GLOBAL_BYTES, read_mif(b.files()[0]))
    const = np.array(b.consts, np.uint32).tobytes()
    params = np.array(b.params, np.uint32).tobytes()
    shared = max(0, b.shared - len(params))
    registers = max(1, min(b.registers, 128))
    config = SMConfig()
    if profile.name == "flexgrip":  # FlexGripPlus's SM (golden/g80/state.FLEXGRIP_SM) with the bundle's blocks per round
        config = replace(FLEXGRIP_SM, max_blocks=max(1, b.blocks_per_core))
    model = SM(b.code, Launch(b.grid, b.block, registers, shared, params), gmem, {0: Memory("constant", CONST_BYTES, const)}, profile, config)
    launch = LaunchConfig((b.grid[0], b.grid[1]), tuple(b.block), registers, shared, len(params), model.config.local_bytes)
    return Kernel(b.code, [(0, 0, const)] if const else [], launch, params, model, gmem)
