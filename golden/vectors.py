"""Reader for the reference vector files of testdata/vectors (int.txt, fp32.txt, sfu.txt).

A line is `OP [fields...] inputs -> result [flags]`, all numbers hex; SFU lines may add
`; sin -> x ; cos -> y` (or `; ex2 -> y`) for the second instruction of a pair. The `#` header of
each file says which column is which; interpreting the fields is up to the consumer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Vector:
    file: str
    line: int
    op: str
    args: tuple[str, ...]  # the tokens between OP and "->"
    result: int
    flags: int | None
    then: dict[str, int] = field(default_factory=dict)  # SFU follow-ups: {"sin": .., "cos": ..}
    text: str = ""

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def read_vectors(path: str | Path) -> Iterator[Vector]:
    path = Path(path)
    with path.open(encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            segments = [s.strip() for s in text.split(";")]
            head, sep, tail = segments[0].partition("->")
            if not sep:
                raise ValueError(f"{path}:{number}: no '->' in {text!r}")
            tokens = head.split()
            out = tail.split()
            if not tokens or not 1 <= len(out) <= 2:
                raise ValueError(f"{path}:{number}: expected 'OP args -> result [flags]', got {text!r}")
            then = {}
            for seg in segments[1:]:
                name, sep, value = seg.partition("->")
                if not sep:
                    raise ValueError(f"{path}:{number}: bad follow-up {seg!r}")
                then[name.strip()] = int(value.strip(), 16)
            yield Vector(
                str(path), number, tokens[0], tuple(tokens[1:]), int(out[0], 16),
                int(out[1], 16) if len(out) > 1 else None, then, text,
            )  # fmt: skip
