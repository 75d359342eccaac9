"""The lock-step configuration object (tb/config.py): what the runner writes is what the test reads
from ConfigDB, and a bad or missing configuration is an error that says what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from tb.config import PLUSARG, UNIT_PLUSARG, LockstepConfig, UnitConfig
from tb.lockstep import LockstepRun


def test_run_settings_reach_the_test_unchanged(tmp_path: Path) -> None:
    run = LockstepRun("cf_ifelse", "verilator", 16, 7, "flexgrip", ("MUTANT_CARRY",), max_latency=3, ready_p=0.5, watchdog=99,
                      coverage=tmp_path / "c.json", max_mismatches=4)  # fmt: skip
    config = run.config(tmp_path / "result.json")
    path = config.write(tmp_path / "config.json")
    back = LockstepConfig.from_plusargs({PLUSARG: str(path)})
    assert back == config
    assert (back.program, back.sim, back.num_sp, back.seed, back.profile, back.defines) == (str(run.path), "verilator", 16, 7, "flexgrip", ("MUTANT_CARRY",))
    assert (back.max_latency, back.ready_p, back.watchdog, back.max_mismatches, back.dut) == (3, 0.5, 99, 4, "rtl")
    assert back.result == str(tmp_path / "result.json") and back.coverage == str(tmp_path / "c.json")
    assert back.rerun == "make sim TEST=cf_ifelse SIM=verilator NUM_SP=16 SEED=7 PROFILE=flexgrip DEFINES=MUTANT_CARRY WAVES=1"
    assert config.plusarg(path) == f"+tb_config={path}"
    assert back.coverage_run == "rtl:cf_ifelse:verilator:sp16:s7"


def test_request_order_reaches_the_test_and_its_rerun_command(tmp_path: Path) -> None:
    run = LockstepRun("global", "verilator", seed=2, mem_order="request")
    back = LockstepConfig.read(run.config().write(tmp_path / "config.json"))
    assert back.mem_order == "request"
    assert back.rerun == "make sim TEST=global SIM=verilator NUM_SP=8 SEED=2 MEM_ORDER=request WAVES=1"
    assert run.out_dir.name == "global_verilator_sp8_s2_requestorder"
    default = LockstepRun("global", "verilator", seed=2)
    assert default.config().mem_order == "any" and "MEM_ORDER" not in default.rerun_command()


def test_bad_configurations_are_named(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match=r"no \+tb_config=PATH plusarg"):
        LockstepConfig.from_plusargs({})
    path = tmp_path / "config.json"
    path.write_text('{"program": "x.sass", "num_sps": 8}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"config.json: unknown lock-step setting\(s\) num_sps"):
        LockstepConfig.read(path)


def test_another_dut_gets_its_own_run_folder_and_rerun_command() -> None:
    run = LockstepRun("iadd", "ghdl", dut="flexgrip")
    assert run.out_dir.name == "flexgrip_iadd_ghdl_sp8_s1"
    assert run.rerun_command().startswith("make sim TEST=iadd DUT=flexgrip SIM=ghdl")
    assert LockstepRun("iadd").out_dir.name == "iadd_icarus_sp8_s1"


def test_unit_test_settings_travel_as_one_plusarg(tmp_path: Path) -> None:
    """The RTL unit tests (tb/test_*_unit.py) read their vector files, result file, seed and count
    from one UnitConfig, never from the environment; without the plusarg they use the defaults."""
    config = UnitConfig(vectors=(str(tmp_path / "a.txt"), str(tmp_path / "b.txt")), result=str(tmp_path / "r.json"), seed=9, random=12)
    path = config.write(tmp_path / "unit.json")
    assert config.plusarg(path) == f"+{UNIT_PLUSARG}={path}"
    back = UnitConfig.from_plusargs({UNIT_PLUSARG: str(path)})
    assert back == config
    assert back.vector_paths(Path("default.txt")) == [tmp_path / "a.txt", tmp_path / "b.txt"]
    plain = UnitConfig.from_plusargs({})
    assert (plain.vectors, plain.result, plain.seed, plain.random) == ((), "", 1, None)
    assert plain.vector_paths(Path("default.txt")) == [Path("default.txt")]
    path.write_text('{"vector": ["x.txt"]}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"unit.json: unknown unit test setting\(s\) vector"):
        UnitConfig.from_plusargs({UNIT_PLUSARG: str(path)})
