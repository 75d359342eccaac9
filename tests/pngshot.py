"""Headless Chromium screenshots of local pages, and the PNG decoder that reads their pixels back.

Shared by the tests that check a generated page renders (the fault-campaign report, the manual).
Chromium runs with the proxy at a closed port and every host name resolving nowhere, so a page
that needs the network renders without what it fetches.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path


def png_rgb(path: Path) -> tuple[int, int, bytes]:
    """(width, height, RGB bytes) of an 8-bit RGB or RGBA PNG (what Chromium's screenshot writes), per the PNG specification."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert head is not None
    w, h, depth, colour, _, _, interlace = head
    assert depth == 8 and colour in (2, 6) and interlace == 0, head
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line if bpp == 3 else bytes(v for k, v in enumerate(line) if k % 4 != 3)
        prev = line
    return w, h, bytes(out)


CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


def screenshot(page: Path, png: Path, size: tuple[int, int] = (1300, 900)) -> subprocess.CompletedProcess[str]:
    """Chromium's screenshot of `page` at `size` (width, height) into `png`, offline."""
    assert CHROMIUM is not None
    return subprocess.run([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                           "--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", f"--window-size={size[0]},{size[1]}",
                           f"--screenshot={png}", page.resolve().as_uri()], capture_output=True, text=True, timeout=120)  # fmt: skip
