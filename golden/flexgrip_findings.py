"""FlexGripPlus 4.4 behaviours found by running programs on it in lock-step with the golden model
(tb/flexgrip_env.py, `make sim DUT=flexgrip`), one entry each.

Every divergence is either a golden-model bug (fixed in the model, not listed here) or one of these
behaviours. `handling` says how the lock-step treats it: `profile:<switch>` (golden/profile.py
models it under the flexgrip profile), `loader` (the FlexGripPlus loader adapts the program, as
FlexGripPlus's users do by hand) or `open` (neither: a program that shows it fails lock-step at
the instruction named). `bug` marks what looks like a genuine FlexGripPlus bug (README lists
them) rather than a documented departure from G80.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    name: str
    description: str
    first: str  # the first instruction that shows it: program, PC, disassembly
    program: str  # a program that reproduces it (programs/ path)
    handling: str
    bug: bool


FINDINGS: tuple[Finding, ...] = (
    Finding(
        "exit_marker_ignored",
        "The exit marker (.E) does nothing: a warp runs on past its last instruction into whatever the instruction memory holds "
        "(zeros) and never finishes. Kernels must end with RET.",
        "vecadd PC 0x48 (the word after GST.E.U32 global14[R0], R1)",
        "programs/vecadd.sass",
        "profile:exit_marker_ignored + loader (golden/flexgrip_export.with_ret appends RET, as every shipped FlexGripPlus kernel has by hand)",
        False,
    ),
    Finding(
        "c2r_writes_r0",
        "C2R Rd, Cn writes the flags to R0 instead of Rd (the destination field is not decoded for the FLAGS move).",
        "iadd PC 0x60: C2R R6, C1 (FlexGripPlus writes R0, the model R6)",
        "programs/iadd.sass",
        "open",
        True,
    ),
)

FINDINGS += (
    Finding(
        "r2c_flag_values",
        "R2C Cn, Rk writes $c values that differ from the model's (the low 4 bits of Rk) in 30 of 32 lanes; the cause "
        "(which bits FlexGripPlus takes from Rk) is not yet analysed.",
        "fadd PC 0x38: R2C C3, R1 (also sfu PC 0x18)",
        "programs/fadd.sass",
        "open",
        False,
    ),
)

BY_NAME = {f.name: f for f in FINDINGS}
