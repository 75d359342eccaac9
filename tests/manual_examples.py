"""The example encodings printed in the FlexGripPlus manual, read from testdata/manual_examples.json
(extracted from the manual by scripts/extract_manual_examples.py; tests/test_manual_examples.py
checks the file against a fresh extraction when ../shared is there).

Each example is a line `TEXT (HEX [HEX])` of the manual. The manual prints some pairs as
`word1 word0` and some as `word0 word1`; an example matches when one of the two orders decodes to
its text and its text assembles to those words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "testdata" / "manual_examples.json"


@dataclass(frozen=True)
class Example:
    line: int  # in the manual text
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


def manual_examples(path: Path = DATA) -> list[Example]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Example(e["line"], e["text"], tuple(int(w, 16) for w in e["hex"])) for e in data["examples"]]
