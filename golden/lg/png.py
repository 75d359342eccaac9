"""Frames of the LG model as PNG files (640 x 400, RGB888), written with Pillow."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

from golden.lg.model import Frame
from golden.lg.state import HEIGHT, WIDTH


def write_png(rgb: np.ndarray, path: str | Path) -> Path:
    """One frame (HEIGHT x WIDTH x 3 uint8, row 0 at the top, as the board shows it) to `path`."""
    if rgb.shape != (HEIGHT, WIDTH, 3) or rgb.dtype != np.uint8:
        raise ValueError(f"a frame is a {HEIGHT}x{WIDTH}x3 uint8 array, not {rgb.shape} {rgb.dtype}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rgb, "RGB").save(path, format="PNG")
    return path


def read_png(path: str | Path) -> np.ndarray:
    """A PNG written by write_png, back as an array (for tests and diff images)."""
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8).copy()


def write_frames(frames: Sequence[Frame], outdir: str | Path, stem: str) -> list[Path]:
    """Every frame of a run (Machine.frames) as outdir/stem-NN-reason.png, in order."""
    return [write_png(f.rgb, Path(outdir) / f"{stem}-{n:02d}-{f.reason}.png")
            for n, f in enumerate(frames)]
