"""Frames as the LG board sees them (12-bit words {R4, G4, B4}) and the diff image of a frame mismatch.

The frame-buffer port carries 12-bit words, so both sides of a frame check are kept in that form:
a 400 x 640 array of uint16, address row * 640 + col. The diff image puts three panels side by
side, expected | got | difference: the difference panel shows the expected frame dimmed, every
pixel that differs in magenta, and a white square around the first wrong pixel, so a missing
edge, a shifted triangle or a wrong colour can be told apart at a glance.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from golden.lg.state import HEIGHT, WIDTH

GAP = 4  # grey columns between the panels
DIFF_RGB = (255, 0, 255)


def blank() -> np.ndarray:
    """A black board frame."""
    return np.zeros((HEIGHT, WIDTH), dtype=np.uint16)


def to_rgb(frame: np.ndarray) -> np.ndarray:
    """12-bit words -> RGB888, each nibble n as n * 17 (0xF -> 0xFF), as the VGA DAC scales them."""
    r, g, b = (frame >> 8) & 0xF, (frame >> 4) & 0xF, frame & 0xF
    return (np.stack([r, g, b], axis=-1) * 17).astype(np.uint8)


def pixel(addr: int) -> tuple[int, int]:
    """(row, col) of a frame-buffer address."""
    return divmod(addr, WIDTH)


def diff_image(expected: np.ndarray, got: np.ndarray, path: Path, first: int | None = None) -> Path:
    """Write expected | got | difference as one PNG; `first` is the address of the first wrong pixel."""
    exp_rgb, got_rgb = to_rgb(expected), to_rgb(got)
    diff = (exp_rgb // 3).astype(np.uint8)
    diff[expected != got] = DIFF_RGB
    if first is not None:
        row, col = pixel(first)
        r0, r1, c0, c1 = max(0, row - 6), min(HEIGHT - 1, row + 6), max(0, col - 6), min(WIDTH - 1, col + 6)
        diff[r0, c0:c1 + 1] = diff[r1, c0:c1 + 1] = 255
        diff[r0:r1 + 1, c0] = diff[r0:r1 + 1, c1] = 255
    gap = np.full((HEIGHT, GAP, 3), 96, dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    # three panels wide: golden.lg.png.write_png takes one frame only, so Pillow writes it here
    Image.fromarray(np.concatenate([exp_rgb, gap, got_rgb, gap, diff], axis=1), "RGB").save(path, format="PNG")
    return path


def differing(expected: np.ndarray, got: np.ndarray) -> int:
    """How many pixels differ."""
    return int((expected != got).sum())
