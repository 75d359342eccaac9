"""The DUT adapters (tb/dut.py), by the name `DUT=` gives.

An adapter module is imported only when its DUT is asked for, so a DUT whose tools are missing
does not stop the others. To add one: write a module here with a `DutAdapter` subclass (and its
`DutBfm`) and name it in ADAPTERS.
"""

from __future__ import annotations

from importlib import import_module

from golden.errors import BadSetting

from ..dut import DutAdapter

ADAPTERS: dict[str, str] = {
    "rtl": "tb.adapters.rtl:RtlAdapter",  # the Verilog SM of rtl/ on Icarus or Verilator
    "flexgrip": "tb.adapters.flexgrip:FlexgripAdapter",  # FlexGripPlus under GHDL
}
DEFAULT = "rtl"


def adapter(name: str) -> DutAdapter:
    """The adapter of DUT `name`; a clear error for an unknown name or a missing adapter module."""
    target = ADAPTERS.get(name)
    if target is None:
        raise BadSetting(f"unknown DUT {name!r}: DUT= (--dut) is one of {', '.join(ADAPTERS)}")
    module, cls = target.split(":")
    try:
        mod = import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            raise BadSetting(f"DUT {name!r} has no adapter yet ({module.replace('.', '/')}.py is missing)") from None
        raise
    return getattr(mod, cls)()


def check_setup(name: str, sim: str | None = None, also: str = "") -> str:
    """The simulator a run of DUT `name` uses (`sim`, or the DUT's first), after checking what a run
    needs before anything is built: a known DUT, a simulator it runs on, that simulator on PATH, and
    for FlexGripPlus the checkout FLEXGRIP_DIR names. Each miss is a UserError with its one line;
    `also` names what else the caller accepts for SIM (randgen's golden)."""
    dut = adapter(name)
    sim = sim or dut.simulators[0]
    if sim not in dut.simulators:
        raise BadSetting(f"SIM={sim}: DUT={name} runs on {', '.join(dut.simulators)}{also} (SIM=, --sim)")
    dut.check_available(sim)
    return sim
