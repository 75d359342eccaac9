"""The example encodings printed in the FlexGripPlus manual (../shared/seeds), read from the seed.

Each example is a line `TEXT (HEX [HEX])`. The manual prints some pairs as `word1 word0` and
some as `word0 word1`; an example matches when one of the two orders decodes to its text and its
text assembles to those words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
MANUAL = SHARED / "seeds" / "000_9fef78f1a33c7237.txt"

_EXAMPLE_RE = re.compile(r"^(?P<text>.*?\S)\s*;?\s*\(\s*(?P<a>[0-9A-Fa-f]{8})(?:\s+(?P<b>[0-9A-Fa-f]{8}))?\s*\)\s*$")


@dataclass(frozen=True)
class Example:
    line: int
    text: str
    hex: tuple[int, ...]  # as printed

    @property
    def orders(self) -> list[tuple[int, ...]]:
        if len(self.hex) == 1:
            return [self.hex]
        return [self.hex, self.hex[::-1]]

    @property
    def id(self) -> str:
        return f"L{self.line}:{self.text}"


def manual_examples() -> list[Example]:
    out = []
    for number, line in enumerate(MANUAL.read_text(encoding="utf-8").splitlines(), 1):
        m = _EXAMPLE_RE.match(line.strip())
        if m:
            words = tuple(int(w, 16) for w in (m.group("a"), m.group("b")) if w)
            out.append(Example(number, m.group("text").rstrip(";").strip(), words))
    return out
