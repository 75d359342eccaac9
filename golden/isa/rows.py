"""Listing tables, ISA-independent: rows of columns separated by ` | `, `#` lines as comments, and the
`N passed, M failed` line every checker ends with.

testdata/vectors/listings (G80: `addr | words | text | text`) and testdata/lg (`index | word | text`)
share this row format, so the reader of the columns and the tally live here, and each ISA's listing
checker reads only what its columns mean.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Columns are separated by " | " (or a bar at either end of the line); NVIDIA's |Rn| (absolute
# value) has no space inside, so it stays in its column.
_COLUMN_RE = re.compile(r"(?:^|\s)\|(?:\s|$)")


def split_columns(raw: str) -> list[str]:
    """One row's columns, stripped."""
    return [p.strip() for p in _COLUMN_RE.split(raw.rstrip("\n"))]


def table_rows(path: str) -> Iterator[tuple[int, str, list[str]]]:
    """(line number, the line, its columns) of every row of a listing; blank and `#` lines are skipped."""
    with open(path, encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            yield number, raw, split_columns(raw)


def summary(passed: int, failed: int) -> str:
    """The last line of every checker: a count of each, which scripts read."""
    return f"{passed} passed, {failed} failed"
