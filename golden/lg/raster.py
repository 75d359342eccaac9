"""Triangle rasterisation of endprimitive: viewport, bounding box, edge functions, depth test.

Two number systems, one rule (docs/design/lg.md, "Rasteriser"):
- fixed (`seed`): screen coordinates in 1/16 pixel, sx = ((x + (5 << 16)) * 64) >> 12 from Q15.16,
  edge functions exact on integers at pixel centres (16 px + 8, 16 py + 8). Each row's covered
  columns are solved for exactly (a span per row, from the three linear inequalities) instead of
  testing every pixel, which keeps a large triangle cheap in plain Python.
- float (`ta2013`): the TA's Rasterization: viewport (x + 5) * 64, (y + 5) * 40, edge function
  a x + b y + c with c from the edge's end point, at (j + 0.5, i + 0.5), in doubles (the TA uses
  C floats, so a pixel exactly on an edge can differ).
Both cover a pixel when every edge function is > 0, or == 0 with a > 0, or a == 0 and b > 0 (the TA's
`inside`). Flat shading: depth and colour are v0's; a pixel is written when its depth is below the
depth buffer's (TA ProcessZBuffer: `<`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from golden.lg.commit import LgFbWrites
from golden.lg.state import HEIGHT, WIDTH, LgState

Vtx = tuple[int | float, int | float, int | float, int]  # x, y, z, colour 0xRRGGBB


def board_word(rgb: int, mapping: str) -> int:
    """The 12-bit frame-buffer word {R4, G4, B4} of an RGB888 colour (profile switch board_colour)."""
    r, g, b = rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF
    if mapping == "high_nibble":
        return (r >> 4) << 8 | (g >> 4) << 4 | b >> 4
    # round(c * 15 / 255) = round(c / 17); c / 17 is never halfway for an integer c
    return ((2 * r + 17) // 34) << 8 | ((2 * g + 17) // 34) << 4 | (2 * b + 17) // 34


def screen_fixed(x: int, y: int) -> tuple[int, int]:
    """Q15.16 (x, y) -> screen position in 1/16 pixel (floor: `>>` of a Python int)."""
    return ((x + (5 << 16)) * 64) >> 12, ((y + (5 << 16)) * 40) >> 12


def _bbox_fixed(pts: Sequence[tuple[int, int]], inclusive: bool) -> tuple[int, int, int, int]:
    """First and last column and row to scan (the last may be below the first: nothing to scan)."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, x1 = max(0, min(xs) >> 4), min(WIDTH - 1, max(xs) >> 4)
    y0, y1 = max(0, min(ys) >> 4), min(HEIGHT - 1, max(ys) >> 4)
    if not inclusive:  # the TA's loops stop before g_fragment_end_x / _y
        x1, y1 = x1 - 1, y1 - 1
    return x0, x1, y0, y1


def cover_fixed(pts: Sequence[tuple[int, int]], inclusive: bool) -> tuple[int, int, np.ndarray]:
    """Coverage of the triangle pts[0] -> pts[1] -> pts[2] (1/16-pixel integers): (x0, y0, mask)
    with mask[row, col] for the bounding box's pixels."""
    x0, x1, y0, y1 = _bbox_fixed(pts, inclusive)
    if x1 < x0 or y1 < y0:
        return 0, 0, np.zeros((0, 0), dtype=bool)
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), dtype=bool)
    edges = []
    for i in range(3):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 3]
        a, b = ay - by, bx - ax
        # E >= t covers: t = 0 where the tie rule admits E == 0, else 1
        t = 0 if (a > 0 or (a == 0 and b > 0)) else 1
        edges.append((a, b, ax, ay, t))
    for py in range(y0, y1 + 1):
        cy = 16 * py + 8
        lo, hi = x0, x1
        for a, b, ax, ay, t in edges:
            # E(px) = 16 a px + c, c = a (8 - ax) + b (cy - ay); solve E(px) >= t for px
            c = a * (8 - ax) + b * (cy - ay)
            if a > 0:
                lo = max(lo, -((c - t) // (16 * a)))  # ceil((t - c) / 16a)
            elif a < 0:
                hi = min(hi, (c - t) // (-16 * a))  # floor((c - t) / -16a)
            elif c < t:
                hi = lo - 1
            if hi < lo:
                break
        if lo <= hi:
            mask[py - y0, lo - x0:hi - x0 + 1] = True
    return x0, y0, mask


def cover_float(pts: Sequence[tuple[float, float]], inclusive: bool) -> tuple[int, int, np.ndarray]:
    """The TA's coverage of pts[0] -> pts[1] -> pts[2] in screen pixels (floats)."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    if not all(math.isfinite(v) for v in xs + ys):
        return 0, 0, np.zeros((0, 0), dtype=bool)
    # TA: clamp min to 0 and max to 639/399, then (int) conversions (truncation toward zero)
    x0, y0 = int(max(0.0, min(min(xs), WIDTH))), int(max(0.0, min(min(ys), HEIGHT)))
    x1, y1 = int(max(-1.0, min(max(xs), WIDTH - 1))), int(max(-1.0, min(max(ys), HEIGHT - 1)))
    if not inclusive:
        x1, y1 = x1 - 1, y1 - 1
    if x1 < x0 or y1 < y0:
        return 0, 0, np.zeros((0, 0), dtype=bool)
    cx = np.arange(x0, x1 + 1, dtype=np.float64)[None, :] + 0.5
    cy = np.arange(y0, y1 + 1, dtype=np.float64)[:, None] + 0.5
    mask = np.ones((y1 - y0 + 1, x1 - x0 + 1), dtype=bool)
    for i in range(3):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 3]
        a, b = ay - by, bx - ax
        c = -a * bx - b * by  # TA edgefunctionsetup: c from the edge's second point
        e = a * cx + b * cy + c
        mask &= (e > 0) | ((e == 0) & (a > 0 or (a == 0 and b > 0)))
    return x0, y0, mask


def rasterise(st: LgState, verts: Sequence[Vtx]) -> tuple[int, LgFbWrites]:
    """Draw the triangle of three vertices into st's buffers: (fragments covered, the writes)."""
    p = st.profile
    if st.fixed:
        pts = [screen_fixed(int(v[0]), int(v[1])) for v in verts]
        cover = cover_fixed
    else:
        pts = [((v[0] + 5) * 64.0, (v[1] + 5) * 40.0) for v in verts]
        cover = cover_float  # type: ignore[assignment]
    if p.reverse_winding:
        pts = [pts[0], pts[2], pts[1]]
    x0, y0, mask = cover(pts, p.bbox_inclusive)  # type: ignore[arg-type]
    z, rgb = verts[0][2], verts[0][3]
    if st.fixed:
        z = z - 0x10000 if int(z) & 0x8000 else z  # Q8.7 bits -> signed, as the depth buffer holds
    h, w = mask.shape
    box = st.depth[y0:y0 + h, x0:x0 + w]
    passed = mask & (box > z)
    box[passed] = z
    st.fb[y0:y0 + h, x0:x0 + w][passed] = (rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF)
    rows, cols = np.nonzero(passed)
    addr = ((rows + y0) * WIDTH + cols + x0).astype(np.int32)
    return int(mask.sum()), LgFbWrites(addr, board_word(rgb, p.board_colour), rgb)
