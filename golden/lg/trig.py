"""The rotation table of the `seed` profile: cos and sin of each whole degree in Q15.16.

`rotate` turns the current matrix by a whole number of degrees; the golden model and the RTL both
read these 360 entries (the RTL through an include generated from this module), so their matrices
agree bit for bit. round() is Python's, ties to even; no entry is a tie at 16 fraction bits.
"""

from __future__ import annotations

import math

ONE = 1 << 16  # 1.0 in Q15.16

COS: tuple[int, ...] = tuple(round(math.cos(math.radians(a)) * ONE) for a in range(360))
SIN: tuple[int, ...] = tuple(round(math.sin(math.radians(a)) * ONE) for a in range(360))
