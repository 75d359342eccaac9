"""The DUT adapters (tb/dut.py), by the name `DUT=` gives.

An adapter module is imported only when its DUT is asked for, so a DUT whose tools are missing
does not stop the others. To add one: write a module here with a `DutAdapter` subclass (and its
`DutBfm`) and name it in ADAPTERS.
"""

from __future__ import annotations

from importlib import import_module

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
        raise ValueError(f"unknown DUT {name!r} (known: {', '.join(ADAPTERS)})")
    module, cls = target.split(":")
    try:
        mod = import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            raise ValueError(f"DUT {name!r} has no adapter yet ({module.replace('.', '/')}.py is missing)") from None
        raise
    return getattr(mod, cls)()
