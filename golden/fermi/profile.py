"""The Fermi model's semantic profile: `sm20`, with every choice the sources leave open as a switch.

Each switch carries, as field metadata, what it means (`doc`) and where its value comes from
(`src`), so docs/design/fermi-model.md and reports read them from the dataclass.

Source keys:
- seed 001: ../shared/seeds/001_609c4e5534398aac.txt (asfermi wiki, OpcodeExecution);
- seed 002: ../shared/seeds/002_7e1f68021c007635.txt (asfermi wiki, OpcodeInteger);
- seed 003: ../shared/seeds/003_d476a4748d5a1922.txt (envytools, Fermi CUDA ISA overview);
- FERMI.md: ../shared/reference/FERMI.md (facts beyond the seeds, and its list of open questions);
- PTX: NVIDIA's PTX ISA manual, for what an operation computes;
- project: a choice the sources do not make, taken here and documented in docs/design/fermi-model.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from golden.errors import BadSetting

_INT = "integer"
_CTRL = "control"
_MEM = "memory"
_LAUNCH = "launch"


def _switch(default: Any, group: str, doc: str, src: str) -> Any:
    """A switch: its `sm20` value, its group, what it means and the source of the value."""
    return field(default=default, metadata={"group": group, "doc": doc, "src": src})


@dataclass(frozen=True)
class FermiProfile:
    """One Fermi semantic profile."""

    name: str = "sm20"
    # integer
    iadd_po: str = _switch(
        "plus_one", _INT,
        'IADD/IMAD/ISCADD .PO (both negate bits set): "plus_one" adds the operands as they are plus a '
        'carry-in of 1 (a + b + 1); "negate" takes both negations (-a - b)',
        "seed 002: both negate bits print as .PO, 'not tested'; FERMI.md lists it open; project: the "
        "adder's single carry-in cannot complete two two's-complement negations, so the bits select "
        "'plus one'",
    )
    cc_other_ops: str = _switch(
        "zs", _INT,
        'the CC flags a non-additive operation with a .CC destination writes: "zs" sets Z and S from the '
        "32-bit result and clears C and O",
        "seed 003: C and O are defined for integer addition only, Z and S for any integer result; "
        "project: clear C and O elsewhere",
    )
    imul_default_signed: bool = _switch(
        True, _INT,
        "IMUL/IMAD without a type modifier treat both operands as signed (.S32.S32); one printed type "
        "names both operands",
        "seed 002: the type bits select .U32 (0) or .S32 (1) per operand; project: cuobjdump prints "
        ".U32 for unsigned and nothing for the signed default",
    )
    popc_two_source: str = _switch(
        "and", _INT,
        'POPC a, b counts the set bits of "and": a & b (each operand possibly inverted by ~)',
        "FERMI.md: two-source POPC is open; project: the AND, so POPC RZ-free forms with b = ~RZ "
        "count a alone",
    )
    p2r_merge: bool = _switch(
        True, _INT,
        "P2R d, PR, a, mask writes (a & ~mask) | (flags & mask); R2P writes only the predicates (or CC "
        "flags) whose bit is set in mask",
        "seed 003: $flags holds P0-P6 in bits 0-6 and $c in bits 12-15; project: the bits outside the "
        "mask come from the register operand",
    )
    # control
    diverge_first: str = _switch(
        "taken", _CTRL,
        'which side of a divergent BRA runs first: "taken" runs the branch target and pushes the '
        'fall-through lanes; "fallthrough" the opposite',
        "project: the sources do not say (seed 003: 'describe me' for the per-warp control state)",
    )
    bra_u: str = _switch(
        "all", _CTRL,
        'BRA.U: "all" branches the whole warp when the guard holds in every active lane and otherwise '
        "lets the whole warp fall through (it never diverges)",
        "NVIDIA's sm_20 listings (testdata/fermi/cuda4_globalscan.sass, cuda4_bwt.sass): `@P0 BRA.U L` "
        "is followed by `@!P0` instructions up to L, which are needed only if a warp with mixed lanes "
        "falls through, and a barrier at L that a diverged warp would reach with part of its lanes",
    )
    # memory
    shared_window: int = _switch(
        0x01000000, _MEM,
        "generic address where the shared window starts (special register 48); the window is window_size long",
        "seed 003: g[] can have two holes mapped to s[] and l[] (sr48 $swinbase); project: the base",
    )
    local_window: int = _switch(
        0x02000000, _MEM,
        "generic address where the local window starts (special register 52); the window is window_size long",
        "seed 003: sr52 $lwinbase; project: the base",
    )
    window_size: int = _switch(
        0x01000000, _MEM,
        "bytes of each generic window (special registers 49 and 53)",
        "seed 003: sr49 $swinsz, sr53 $lwinsz; project: 16 MiB each",
    )
    atomic_lane_order: str = _switch(
        "ascending", _MEM,
        "the order in which the lanes of one ATOM/RED update memory when their addresses collide",
        "PTX: the order of atomics is unspecified; project: lane 0 first",
    )
    # launch
    param_base: int = _switch(
        0x20, _LAUNCH, "byte offset in c0 where the kernel parameters start", "FERMI.md: parameters from c[0x0][0x20]"
    )
    ntid_offset: int = _switch(
        0x8, _LAUNCH,
        "byte offset in c0 of ntid.x, .y, .z (three words), followed by nctaid.x, .y, .z",
        "FERMI.md: ntid in c[0x0][0x8]; project: nctaid in the three words after it (0x14)",
    )
    stack_pointer: int = _switch(
        0x100, _LAUNCH,
        "byte offset in c1 where launch writes the initial stack pointer: the per-thread local size, "
        "so a stack growing down starts at the top of local memory",
        "FERMI.md: the stack pointer from c[0x1][0x100]; project: its value",
    )
    local_size: int = _switch(0x1000, _LAUNCH, "bytes of local memory per thread", "project (seed 003: any multiple of 0x10)")

    @staticmethod
    def switch_doc(name: str) -> tuple[str, str, str]:
        """(group, meaning, source) of switch `name`."""
        meta = FermiProfile.__dataclass_fields__[name].metadata
        return meta["group"], meta["doc"], meta["src"]

    @staticmethod
    def switches() -> list[str]:
        return [f.name for f in fields(FermiProfile) if f.name != "name"]

    def __post_init__(self) -> None:
        allowed = {
            "iadd_po": ("plus_one", "negate"),
            "cc_other_ops": ("zs",),
            "popc_two_source": ("and",),
            "diverge_first": ("taken", "fallthrough"),
            "atomic_lane_order": ("ascending",),
        }
        for name, values in allowed.items():
            if getattr(self, name) not in values:
                raise BadSetting(f"Fermi profile {self.name}: {name} = {getattr(self, name)!r} is not one of {values} (choose one of them)")
        if self.local_size <= 0 or self.local_size % 0x10:
            raise BadSetting(f"Fermi profile {self.name}: local_size = {self.local_size:#x} is not a positive multiple of 0x10 (give one)")
        lo, hi = sorted((self.shared_window, self.local_window))
        if lo + self.window_size > hi:
            raise BadSetting(f"Fermi profile {self.name}: the shared and local windows overlap (move one of them)")


SM20 = FermiProfile()
PROFILES: dict[str, FermiProfile] = {SM20.name: SM20}
