"""Special registers read by S2R, by their number in seed 003's list (envytools' $sr numbering).

Values are those the launch gives (PTX's %tid, %ntid, %ctaid, %nctaid, %laneid, %lanemask_*,
%clock) and the profile's generic windows. A number not listed here is not modelled and S2R of it
is an error rather than a guessed value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from golden.fermi.operands import Exec

U32 = np.uint32
M32 = 0xFFFFFFFF


def _lanemask(x: Exec, f: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    return (f(x.lanes.astype(np.int64)) & M32).astype(U32)


def _fill(x: Exec, v: int) -> np.ndarray:
    return np.full(x.n, v & M32, dtype=U32)


# number -> (cuobjdump name, value over the executing lanes)
SREGS: dict[int, tuple[str, Callable[[Exec], np.ndarray]]] = {
    0: ("SR_LANEID", lambda x: x.lanes.astype(U32)),
    # seed 003 lists sr3 ($physid) without its layout; the model reports the warp's number in its CTA
    # in bits 8-13 and SM 0 above them, a layout of its own choosing (docs/design/fermi-model.md)
    3: ("SR_VIRTID", lambda x: _fill(x, x.warp.index << 8)),
    33: ("SR_TID.X", lambda x: x.cta.tid[0][x.threads].astype(U32)),
    34: ("SR_TID.Y", lambda x: x.cta.tid[1][x.threads].astype(U32)),
    35: ("SR_TID.Z", lambda x: x.cta.tid[2][x.threads].astype(U32)),
    37: ("SR_CTAID.X", lambda x: _fill(x, x.cta.ctaid[0])),
    38: ("SR_CTAID.Y", lambda x: _fill(x, x.cta.ctaid[1])),
    39: ("SR_CTAID.Z", lambda x: _fill(x, x.cta.ctaid[2])),
    41: ("SR_NTID.X", lambda x: _fill(x, x.m.block[0])),
    42: ("SR_NTID.Y", lambda x: _fill(x, x.m.block[1])),
    43: ("SR_NTID.Z", lambda x: _fill(x, x.m.block[2])),
    44: ("SR_GRIDID", lambda x: _fill(x, 0)),
    45: ("SR_NCTAID.X", lambda x: _fill(x, x.m.grid[0])),
    46: ("SR_NCTAID.Y", lambda x: _fill(x, x.m.grid[1])),
    47: ("SR_NCTAID.Z", lambda x: _fill(x, x.m.grid[2])),
    48: ("SR_SWINLO", lambda x: _fill(x, x.m.p.shared_window)),
    49: ("SR_SWINSZ", lambda x: _fill(x, x.m.p.window_size)),
    50: ("SR_SMEMSZ", lambda x: _fill(x, x.m.shared_size)),
    52: ("SR_LWINLO", lambda x: _fill(x, x.m.p.local_window)),
    53: ("SR_LWINSZ", lambda x: _fill(x, x.m.p.window_size)),
    56: ("SR_LANEMASK_EQ", lambda x: _lanemask(x, lambda n: 1 << n)),
    57: ("SR_LANEMASK_LT", lambda x: _lanemask(x, lambda n: (1 << n) - 1)),
    58: ("SR_LANEMASK_LE", lambda x: _lanemask(x, lambda n: (2 << n) - 1)),
    59: ("SR_LANEMASK_GT", lambda x: _lanemask(x, lambda n: ~((2 << n) - 1))),
    60: ("SR_LANEMASK_GE", lambda x: _lanemask(x, lambda n: ~((1 << n) - 1))),
    # the model's clock counts warp-instructions issued in the launch (silicon counts cycles, which
    # a functional model has none of; a program can only rely on it not going backwards)
    80: ("SR_CLOCKLO", lambda x: _fill(x, x.m.clock)),
    81: ("SR_CLOCKHI", lambda x: _fill(x, x.m.clock >> 32)),
}

BY_NAME: dict[str, int] = {name: n for n, (name, _) in SREGS.items()}


def read(x: Exec, n: int) -> np.ndarray:
    got = SREGS.get(n)
    if got is None:
        raise ValueError(f"special register {n} is not modelled (golden/fermi/special.py lists those that are)")
    return got[1](x)
