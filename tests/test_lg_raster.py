"""The LG rasteriser against an independent numpy rasteriser written here from the equations of
docs/design/lg.md ("Rasteriser"): every pixel centre of the 640 x 400 screen tested at once with
broadcasting, the bounding box as a mask, the viewport with exact fractions. The model instead
solves each row's span (golden/lg/raster.py); both must give the same coverage, depth buffer,
frame buffer and list of frame-buffer writes, for many random triangles of both windings,
degenerate and off-screen ones, and triangles whose edges and corners sit on pixel centres.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from golden.lg.profile import SEED, TA2013
from golden.lg.raster import rasterise
from golden.lg.state import LgState

W, H = 640, 400
COLS = np.arange(W, dtype=np.int64)[None, :]
ROWS = np.arange(H, dtype=np.int64)[:, None]


def ref_screen(x: int, y: int) -> tuple[int, int]:
    """Q15.16 -> 1/16 pixel: floor(((x / 2^16) + 5) * 64 * 16), floor(((y / 2^16) + 5) * 40 * 16)."""
    fx = (Fraction(x, 1 << 16) + 5) * 64 * 16
    fy = (Fraction(y, 1 << 16) + 5) * 40 * 16
    return math.floor(fx), math.floor(fy)


def ref_cover(pts: list[tuple[int, int]], inclusive: bool = True) -> np.ndarray:
    """A (400, 640) bool mask: the pixels whose centre (16 px + 8, 16 py + 8) passes all three
    edges of pts[0] -> pts[1] -> pts[2] (E > 0, or E == 0 with A > 0, or A == 0 and B > 0) and
    lies in the clamped bounding box."""
    cx, cy = 16 * COLS + 8, 16 * ROWS + 8
    cov = np.ones((H, W), dtype=bool)
    for i in range(3):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 3]
        a, b = ay - by, bx - ax
        e = a * (cx - ax) + b * (cy - ay)
        tie = a > 0 or (a == 0 and b > 0)
        cov &= (e > 0) | ((e == 0) & tie)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    lo_x, hi_x = max(0, min(xs) // 16), min(W - 1, max(xs) // 16)
    lo_y, hi_y = max(0, min(ys) // 16), min(H - 1, max(ys) // 16)
    if not inclusive:
        hi_x, hi_y = hi_x - 1, hi_y - 1
    inside = (lo_x <= COLS) & (hi_x >= COLS) & (lo_y <= ROWS) & (hi_y >= ROWS)
    return cov & inside


class RefBuffers:
    """Frame and depth buffers drawn by the reference, flat shading from v0, depth test `<`."""

    def __init__(self) -> None:
        self.depth = np.full((H, W), 3 * 128, dtype=np.int64)  # 3.0 in Q8.7
        self.fb = np.zeros((H, W, 3), dtype=np.uint8)

    def draw(self, mask: np.ndarray, z_bits: int, rgb: tuple[int, int, int]) -> np.ndarray:
        z = z_bits - 0x10000 if z_bits >= 0x8000 else z_bits
        passed = mask & (z < self.depth)
        self.depth[passed] = z
        self.fb[passed] = rgb
        return np.flatnonzero(passed)  # row-major: the scan order


def model_draw(st: LgState, verts: list[tuple[int, int, int, int]]) -> tuple[int, np.ndarray]:
    frags, writes = rasterise(st, verts)
    return frags, np.asarray(writes.addr, dtype=np.int64)


def rand_vertex(rng: np.random.Generator, span: float) -> tuple[int, int]:
    """A Q15.16 position, usually on screen (-5..5), sometimes far off it."""
    lim = int(span * 65536)
    return int(rng.integers(-lim, lim)), int(rng.integers(-lim, lim))


def test_ref_screen_matches_the_viewport_by_hand() -> None:
    # x = -5 is column 0's left edge; x = 0 is column 320; y = 0 is row 200 (40 rows a unit)
    assert ref_screen(-5 << 16, -5 << 16) == (0, 0)
    assert ref_screen(0, 0) == (320 * 16, 200 * 16)
    assert ref_screen(1 << 15, 1 << 15) == (352 * 16, 220 * 16)  # 0.5 -> +32 columns, +20 rows


@pytest.mark.parametrize("span", [4.0, 1.0, 12.0])
def test_random_triangles_cover_and_depth_as_the_reference(span: float) -> None:
    rng = np.random.default_rng(int(span * 10) + 3220)
    st, ref = LgState(SEED), RefBuffers()
    total = 0
    for n in range(120):
        p = [rand_vertex(rng, span) for _ in range(3)]
        z = int(rng.integers(-3 * 128, 3 * 128)) & 0xFFFF
        rgb = tuple(int(c) for c in rng.integers(0, 256, 3))
        colour = rgb[0] << 16 | rgb[1] << 8 | rgb[2]
        order = [0, 1, 2] if n % 2 else [0, 2, 1]  # both windings, equally often
        verts = [(p[i][0], p[i][1], z, colour) for i in order]
        mask = ref_cover([ref_screen(v[0], v[1]) for v in verts])
        want_addr = ref.draw(mask, z, rgb)
        frags, addr = model_draw(st, verts)
        assert frags == int(mask.sum()), f"triangle {n}: {verts}"
        assert np.array_equal(addr, want_addr), f"triangle {n}: {verts}"
        total += frags
    assert np.array_equal(st.depth.astype(np.int64), ref.depth)
    assert np.array_equal(st.fb, ref.fb)
    assert total > 0  # the seeds do draw something


def test_reverse_order_covers_nothing_that_the_forward_order_covers() -> None:
    rng = np.random.default_rng(7)
    drawn = 0
    for _ in range(60):
        p = [ref_screen(*rand_vertex(rng, 4.0)) for _ in range(3)]
        fwd, rev = ref_cover(p), ref_cover([p[0], p[2], p[1]])
        assert not (fwd & rev).any()
        st = LgState(SEED)
        f1, _ = model_draw(st, [(*_inv(q), 0, 0xFFFFFF) for q in p])
        st = LgState(SEED)
        f2, _ = model_draw(st, [(*_inv(q), 0, 0xFFFFFF) for q in (p[0], p[2], p[1])])
        assert (f1, f2) == (int(fwd.sum()), int(rev.sum()))
        drawn += (f1 > 0) + (f2 > 0)
    assert drawn >= 50  # one of the two orders draws almost every random triangle


def _inv(q: tuple[int, int]) -> tuple[int, int]:
    """A Q15.16 position whose screen position is exactly q (1/16 pixel): x = q/1024 - 5 units,
    y = q/640 - 5 units, rounded up to the next Q15.16 step so the floor lands on q."""
    x = math.ceil(Fraction(q[0], 1024) * 65536) - (5 << 16)
    y = math.ceil(Fraction(q[1], 640) * 65536) - (5 << 16)
    assert ref_screen(x, y) == q
    return x, y


TIES = [
    # corners on pixel centres, axis-aligned edges through centres (A == 0 and B == 0 edges)
    [(8, 8), (16 * 10 + 8, 8), (8, 16 * 10 + 8)],
    [(8, 8), (8, 16 * 10 + 8), (16 * 10 + 8, 8)],
    [(16 * 5 + 8, 16 * 5 + 8), (16 * 20 + 8, 16 * 5 + 8), (16 * 20 + 8, 16 * 20 + 8)],
    [(16 * 5 + 8, 16 * 5 + 8), (16 * 20 + 8, 16 * 20 + 8), (16 * 20 + 8, 16 * 5 + 8)],
    # a square split along its diagonal: the two halves share the diagonal's centres, once each
    [(16 * 30 + 8, 16 * 30 + 8), (16 * 40 + 8, 16 * 30 + 8), (16 * 40 + 8, 16 * 40 + 8)],
    [(16 * 30 + 8, 16 * 30 + 8), (16 * 40 + 8, 16 * 40 + 8), (16 * 30 + 8, 16 * 40 + 8)],
    # degenerate: a line, a point, two equal corners
    [(0, 0), (16 * 50, 16 * 50), (16 * 100, 16 * 100)],
    [(16 * 7 + 8, 16 * 7 + 8)] * 3,
    [(16 * 7 + 8, 16 * 7 + 8), (16 * 7 + 8, 16 * 7 + 8), (16 * 30, 16 * 2)],
    # off screen: left of, below, around the whole screen, and on its last row and column
    [(-16 * 100, 0), (-16 * 10, 0), (-16 * 50, 16 * 100)],
    [(0, 16 * 500), (16 * 600, 16 * 500), (0, 16 * 700)],
    [(-16 * 2000, -16 * 2000), (16 * 4000, -16 * 2000), (-16 * 2000, 16 * 4000)],
    [(16 * 600, 16 * 380), (16 * 640, 16 * 380), (16 * 600, 16 * 400)],
]


def test_small_triangles_near_pixel_centres() -> None:
    # corners a few 1/16 pixel off the centres, so edge functions of -1, 0 and 1 occur at centres
    # and every rounding of the span solution is exercised
    rng = np.random.default_rng(5)
    st, ref = LgState(SEED), RefBuffers()
    off_by_one = 0
    for n in range(400):
        base = rng.integers(0, 60, 2)
        pts = [(int(16 * (base[0] + rng.integers(0, 4)) + 8 + rng.integers(-3, 4)),
                int(16 * (base[1] + rng.integers(0, 4)) + 8 + rng.integers(-3, 4))) for _ in range(3)]
        for i in range(3):
            (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 3]
            e = (ay - by) * (16 * COLS[:, :64] + 8 - ax) + (bx - ax) * (16 * ROWS[:64] + 8 - ay)
            off_by_one += int((abs(e) == 1).any())
        z = n % 200
        mask = ref_cover(pts)
        want = ref.draw(mask, z, (n % 256, 0, 0))
        frags, addr = model_draw(st, [(*_inv(v), z, (n % 256) << 16) for v in pts])
        assert frags == int(mask.sum()) and np.array_equal(addr, want), f"triangle {n}: {pts}"
    assert off_by_one > 50
    assert np.array_equal(st.depth.astype(np.int64), ref.depth) and np.array_equal(st.fb, ref.fb)


@pytest.mark.parametrize("pts", TIES)
@pytest.mark.parametrize("inclusive", [True, False])
def test_ties_degenerate_and_off_screen_triangles(pts: list[tuple[int, int]], inclusive: bool) -> None:
    prof = replace(SEED, bbox_inclusive=inclusive)
    for order in ([0, 1, 2], [0, 2, 1], [1, 2, 0]):
        q = [pts[i] for i in order]
        st = LgState(prof)
        frags, addr = model_draw(st, [(*_inv(v), 0, 0xFF0000) for v in q])
        mask = ref_cover(q, inclusive)
        assert frags == int(mask.sum())
        assert np.array_equal(addr, np.flatnonzero(mask))


def test_split_square_covers_each_diagonal_centre_once() -> None:
    a, b = TIES[4], TIES[5]
    ma, mb = ref_cover(a), ref_cover(b)
    assert not (ma & mb).any()
    st = LgState(SEED)
    fa, _ = model_draw(st, [(*_inv(v), 0, 0xFFFFFF) for v in a])
    fb, _ = model_draw(st, [(*_inv(v), 0, 0xFFFFFF) for v in b])
    # the 11 x 11 centres of the closed square, less its right column and bottom row, which the
    # tie rule leaves to the neighbours: 55 above the diagonal with it, 45 below
    assert (fa, fb) == (int(ma.sum()), int(mb.sum())) == (55, 45)


def test_reversed_winding_profile_draws_the_other_order() -> None:
    prof = replace(SEED, reverse_winding=True, bbox_inclusive=False)
    rng = np.random.default_rng(11)
    for _ in range(40):
        p = [ref_screen(*rand_vertex(rng, 4.0)) for _ in range(3)]
        st = LgState(prof)
        frags, addr = model_draw(st, [(*_inv(v), 0, 0x00FF00) for v in p])
        mask = ref_cover([p[0], p[2], p[1]], inclusive=False)
        assert frags == int(mask.sum())
        assert np.array_equal(addr, np.flatnonzero(mask))


def test_equal_depth_does_not_overwrite() -> None:
    st = LgState(SEED)
    tri = [(*_inv((16 * 10 + 8, 16 * 10 + 8)), 0x40, 0xFF0000), (*_inv((16 * 60 + 8, 16 * 10 + 8)), 0, 0),
           (*_inv((16 * 10 + 8, 16 * 60 + 8)), 0, 0)]
    f1, a1 = model_draw(st, tri)
    f2, a2 = model_draw(st, [(tri[0][0], tri[0][1], 0x40, 0x00FF00), tri[1], tri[2]])
    assert f1 == f2 > 0 and len(a1) == f1 and len(a2) == 0
    assert tuple(st.fb[20, 20]) == (255, 0, 0)
    f3, a3 = model_draw(st, [(tri[0][0], tri[0][1], 0x3F, 0x0000FF), tri[1], tri[2]])
    assert len(a3) == f3 and tuple(st.fb[20, 20]) == (0, 0, 255) and st.depth[20, 20] == 0x3F


def test_ta2013_float_raster_on_a_hand_triangle() -> None:
    # the TA draws the order v0, v2, v1 (its edges v2->v1, v0->v2, v1->v0) and scans rows y0..y1-1,
    # columns x0..x1-1. Screen corners (0, 0), (0, 10), (10, 0) pixels, in that order, exact in
    # binary: the triangle x + y < 10 (the hypotenuse's centres fail the tie rule, a < 0) over
    # pixel centres (j + 0.5, i + 0.5): i + j <= 8, 45 pixels
    def unit(px: float, py: float) -> tuple[float, float]:
        return px / 64 - 5, py / 40 - 5
    v = [unit(0, 0), unit(0, 10), unit(10, 0)]
    st = LgState(TA2013)
    frags, w = rasterise(st, [(x, y, 0.5, 0xFFFFFF) for x, y in v])
    want = {(i, j) for i in range(10) for j in range(10) if i + j <= 8}
    got = {(int(a) // W, int(a) % W) for a in w.addr}
    assert got == want and frags == len(want) == 45
    assert st.depth[0, 0] == 0.5 and tuple(st.fb[8, 0]) == (255, 255, 255) and tuple(st.fb[9, 0]) == (0, 0, 0)
    # the same corners in the seed's order cover nothing under the TA's winding
    frags2, _ = rasterise(LgState(TA2013), [(x, y, 0.5, 0xFFFFFF) for x, y in (v[0], v[2], v[1])])
    assert frags2 == 0


def ref_cover_ta(pts: list[tuple[float, float]]) -> np.ndarray:
    """The TA's rule over the whole screen: edges v2->v1, v0->v2, v1->v0 (as given: the order
    drawn is v0, v2, v1), E = a x + b y + c with c from the edge's second point, at (j + 0.5,
    i + 0.5), the box from the clamped, truncated extremes with its last row and column left out."""
    x, y = COLS + 0.5, ROWS + 0.5
    cov = np.ones((H, W), dtype=bool)
    for (x1, y1), (x2, y2) in ((pts[2], pts[1]), (pts[0], pts[2]), (pts[1], pts[0])):
        a, b = y1 - y2, x2 - x1
        e = a * x + b * y + (-a * x2 - b * y2)
        cov &= (e > 0) | ((e == 0) & (a > 0 or (a == 0 and b > 0)))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    bx0, by0 = int(max(min(xs), 0)), int(max(min(ys), 0))
    bx1, by1 = math.trunc(min(max(xs), 639)), math.trunc(min(max(ys), 399))
    return cov & (bx0 <= COLS) & (bx1 > COLS) & (by0 <= ROWS) & (by1 > ROWS)


def test_ta2013_random_triangles_as_the_ta_rule() -> None:
    rng = np.random.default_rng(2013)
    st = LgState(TA2013)
    depth = np.full((H, W), 3.0)
    drawn = 0
    for n in range(80):
        v = [(float(rng.uniform(-6, 6)), float(rng.uniform(-6, 6))) for _ in range(3)]
        z = float(rng.uniform(-3, 3))
        mask = ref_cover_ta([((a + 5) * 64.0, (b + 5) * 40.0) for a, b in v])
        passed = mask & (z < depth)
        depth[passed] = z
        frags, w = rasterise(st, [(a, b, z, 0x808080) for a, b in v])
        assert frags == int(mask.sum()) and np.array_equal(np.asarray(w.addr), np.flatnonzero(passed)), f"triangle {n}"
        drawn += frags > 0
    assert np.array_equal(st.depth, depth) and drawn > 10
