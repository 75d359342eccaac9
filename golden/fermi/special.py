"""Special registers read by S2R, by their number in seed 003's list (envytools' $sr numbering).

Values are those the launch gives (PTX's %tid, %ntid, %ctaid, %nctaid, %laneid, %lanemask_*,
%clock) and the profile's generic windows. A number not listed here is not modelled and S2R of it
is an error rather than a guessed value. The SASS spelling of a number is the disassembler's
(golden/fermi/disasm.py SREGS); here each carries the PTX name of what it holds, for the docs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from golden.fermi.disasm import sreg_name

if TYPE_CHECKING:
    from golden.fermi.operands import Exec

U32 = np.uint32
M32 = 0xFFFFFFFF


def _lanemask(x: Exec, f: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    return (f(x.lanes.astype(np.int64)) & M32).astype(U32)


def _fill(x: Exec, v: int) -> np.ndarray:
    return np.full(x.n, v & M32, dtype=U32)


# number -> (what it holds, PTX's name where it has one; value over the executing lanes)
SREGS: dict[int, tuple[str, Callable[[Exec], np.ndarray]]] = {
    0: ("%laneid", lambda x: x.lanes.astype(U32)),
    # seed 003 lists sr3 ($physid) without its layout; the model reports the warp's number in its CTA
    # in bits 8-13 and SM 0 above them, a layout of its own choosing (docs/design/fermi-model.md)
    3: ("%warpid in bits 8-13", lambda x: _fill(x, x.warp.index << 8)),
    33: ("%tid.x", lambda x: x.cta.tid[0][x.threads].astype(U32)),
    34: ("%tid.y", lambda x: x.cta.tid[1][x.threads].astype(U32)),
    35: ("%tid.z", lambda x: x.cta.tid[2][x.threads].astype(U32)),
    37: ("%ctaid.x", lambda x: _fill(x, x.cta.ctaid[0])),
    38: ("%ctaid.y", lambda x: _fill(x, x.cta.ctaid[1])),
    39: ("%ctaid.z", lambda x: _fill(x, x.cta.ctaid[2])),
    41: ("%ntid.x", lambda x: _fill(x, x.m.block[0])),
    42: ("%ntid.y", lambda x: _fill(x, x.m.block[1])),
    43: ("%ntid.z", lambda x: _fill(x, x.m.block[2])),
    44: ("%gridid", lambda x: _fill(x, 0)),
    45: ("%nctaid.x", lambda x: _fill(x, x.m.grid[0])),
    46: ("%nctaid.y", lambda x: _fill(x, x.m.grid[1])),
    47: ("%nctaid.z", lambda x: _fill(x, x.m.grid[2])),
    48: ("shared window base", lambda x: _fill(x, x.m.p.shared_window)),
    49: ("shared window size", lambda x: _fill(x, x.m.p.window_size)),
    50: ("shared memory size", lambda x: _fill(x, x.m.shared_size)),
    52: ("local window base", lambda x: _fill(x, x.m.p.local_window)),
    53: ("local window size", lambda x: _fill(x, x.m.p.window_size)),
    56: ("%lanemask_eq", lambda x: _lanemask(x, lambda n: 1 << n)),
    57: ("%lanemask_lt", lambda x: _lanemask(x, lambda n: (1 << n) - 1)),
    58: ("%lanemask_le", lambda x: _lanemask(x, lambda n: (2 << n) - 1)),
    59: ("%lanemask_gt", lambda x: _lanemask(x, lambda n: ~((2 << n) - 1))),
    60: ("%lanemask_ge", lambda x: _lanemask(x, lambda n: ~((1 << n) - 1))),
    # the model's clock counts warp-instructions issued in the launch (silicon counts cycles, which
    # a functional model has none of; a program can only rely on it not going backwards)
    80: ("%clock", lambda x: _fill(x, x.m.clock)),
    81: ("%clock64 >> 32", lambda x: _fill(x, x.m.clock >> 32)),
}

def read(x: Exec, n: int) -> np.ndarray:
    got = SREGS.get(n)
    if got is None:
        raise ValueError(f"special register {sreg_name(n, 'cuda5')} (number {n}) is not modelled (golden/fermi/special.py lists those that are)")
    return got[1](x)
