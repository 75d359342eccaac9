"""Run a FlexGripPlus application on FlexGripPlus's own testbench under GHDL; make its bundle.

    python scripts/flexgrip_ghdl_app.py APP_DIR NAME [-o OUT_DIR] [--build DIR]

Builds FlexGripPlus's full design and testbench (the 121 files of lib_m/gpgpu_compile.tcl, in its
order, from FLEXGRIP_DIR, default ../shared/flexgripplus) with the application's TP_instructions.vhd
and a copy of its pick_bench.vhd in which the constants the current TP_configuration.vhd needs and
an older pick_bench lacks are declared as 0 (FLEXGRIPPLUS.md section 7); runs it with the
application's global_mem.mif (GHDL's llvm back end when installed, else mcode; FLEXGRIPPLUS.md
section 10) until the testbench's deliberate "simulation Ends" failure; then writes the bundle of
scripts/flexgrip_app_bundle.py with that run's gpgpu_rdata.log as the expected memory, so
`python -m golden run-flexgrip OUT_DIR/NAME.txt` compares the model with FlexGripPlus's own
output rather than the authors' dump. Slow: minutes per application.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from flexgrip_app_bundle import make_bundle  # noqa: E402

from golden.errors import FAILURE, UserError, guarded  # noqa: E402

FLAGS = ["--std=08", "-frelaxed", "-fsynopsys"]


def flexgrip_root() -> Path:
    from tb.adapters.flexgrip_build import flexgrip_dir

    return flexgrip_dir()  # the FlexGripPlus_4.4 folder, or the one line that says FLEXGRIP_DIR names none


def padded_pick_bench(app_pick: Path, default_pick: Path) -> str:
    """The application's pick_bench with every constant of the default one it lacks, as zeros."""
    text = app_pick.read_text(encoding="latin-1")
    have = {n.upper() for n in re.findall(r"constant\s+(\w+)\s*:", re.sub(r"--[^\n]*", "", text))}
    extra = []
    for line in re.sub(r"--[^\n]*", "", default_pick.read_text(encoding="latin-1")).splitlines():
        m = re.match(r"\s*constant\s+(BENCH_\w+)\s*:\s*(std_logic_vector\s*\(\s*\d+\s+downto\s+0\s*\))\s*:=", line)
        if m and m.group(1).upper() not in have:
            extra.append(f"    constant {m.group(1)} : {m.group(2)} := (others => '0');  -- added: absent here, 0")
    end = re.search(r"end\s+pick_bench\s*;", text, re.I)
    if not end:
        raise ValueError(f"{app_pick}: no `end pick_bench;`")
    return text[:end.start()] + "\n".join(extra) + "\n" + text[end.start():]


def run_app(app: Path, build: Path) -> Path:
    root = flexgrip_root()
    rtl = root / "RTL"
    tcl = (root / "lib_m" / "gpgpu_compile.tcl").read_text(encoding="latin-1")
    files = [f.replace("$GPGPU_GENERIC_ROOT", str(rtl)) for f in re.findall(r'"(\$GPGPU_GENERIC_ROOT/[^"]+)"', tcl)]
    build.mkdir(parents=True, exist_ok=True)
    pick = build / "pick_bench.vhd"
    pick.write_text(padded_pick_bench(app / "pick_bench.vhd", rtl / "TB" / "configuration" / "pick_bench.vhd"))
    files = [str(pick) if f.endswith("TB/configuration/pick_bench.vhd") else
             str(app / "TP_instructions.vhd") if f.endswith("TB/TP/TP_instructions.vhd") else f for f in files]  # fmt: skip
    env = dict(os.environ, GHDL_BACKEND=os.environ.get("GHDL_BACKEND", "llvm" if shutil.which("ghdl-llvm") else "mcode"))
    for stale in build.glob("*.cf"):
        stale.unlink()
    subprocess.run(["ghdl", "-i", *FLAGS, f"--workdir={build}", *files], check=True, env=env, capture_output=True)
    make = subprocess.run(["ghdl", "-m", *FLAGS, f"--workdir={build}", "-O2", "-o", str(build / "tb_top_level"), "tb_top_level"],
                          env=env, capture_output=True, text=True, cwd=build)  # fmt: skip
    if make.returncode:
        raise RuntimeError(f"GHDL could not build {app}: {make.stderr[-2000:]}")
    run = build / "run"
    run.mkdir(exist_ok=True)
    for name in ("constant_mem.mif", "system_mem.mif", "dummy.mif"):
        shutil.copy(root / "lib_m" / name, run / name)
    shutil.copy(app / "global_mem.mif", run / "global_mem.mif")
    dump = run / "gpgpu_rdata.log"
    dump.unlink(missing_ok=True)
    if env["GHDL_BACKEND"] == "llvm":  # its executable fills the 256 KiB memories on the stack
        cmd = f"ulimit -s unlimited; exec {build / 'tb_top_level'} --max-stack-alloc=0 --ieee-asserts=disable"
    else:
        cmd = f"exec ghdl -r {' '.join(FLAGS)} --workdir={build} tb_top_level --max-stack-alloc=0 --ieee-asserts=disable"
    t0 = time.time()
    sim = subprocess.run(["bash", "-c", cmd], cwd=run, env=env, capture_output=True, text=True)
    if "simulation Ends" not in sim.stdout + sim.stderr or not dump.exists():
        raise RuntimeError(f"FlexGripPlus's testbench did not finish for {app}: {(sim.stdout + sim.stderr)[-2000:]}")
    print(f"flexgrip_ghdl_app: {app.name}: FlexGripPlus ran in {time.time() - t0:.0f} s ({env['GHDL_BACKEND']})")
    return dump


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("app", type=Path)
    ap.add_argument("name")
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "build" / "flexgrip_apps")
    ap.add_argument("--build", type=Path, help="GHDL work folder (default OUT/NAME.ghdl)")
    return ap


def main() -> int:
    ap = _parser()
    args = ap.parse_args()
    return guarded("flexgrip_ghdl_app", lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    try:
        dump = run_app(args.app.resolve(), (args.build or args.out / f"{args.name}.ghdl").resolve())
        print(make_bundle(args.app, args.name, args.out, dump))
    except UserError:
        raise
    except (OSError, ValueError, RuntimeError, subprocess.CalledProcessError) as e:
        raise UserError(str(e), FAILURE) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
