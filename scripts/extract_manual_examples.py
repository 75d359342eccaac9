"""Extract the example encodings printed in the FlexGripPlus manual into testdata/manual_examples.json.

The manual (../shared/seeds/000_9fef78f1a33c7237.txt, the text of the FlexGripPlus manual) prints
about 150 examples as lines `TEXT (HEX [HEX])`, some word pairs as `word1 word0`, some as
`word0 word1`. tests/test_manual_examples.py checks every one against the ISA layer; it reads them
from the JSON file written here, so the tests do not need the manual. The JSON keeps the manual's
line number, the text and the hex words exactly as printed (case included: tests/manual_errata.py
keys its entries by them).

Usage (from the project root):  .venv/bin/python scripts/extract_manual_examples.py [--check] [--manual PATH]
(--check writes nothing and exits 1 when the JSON differs from a fresh extraction; exit 2 when the
manual is not there)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANUAL_NAME = "seeds/000_9fef78f1a33c7237.txt"
MANUAL = ROOT.parent / "shared" / MANUAL_NAME
OUT = ROOT / "testdata" / "manual_examples.json"

# `TEXT (HEX)` or `TEXT (HEX HEX)`, with an optional `;` before the parenthesis
EXAMPLE_RE = re.compile(r"^(?P<text>.*?\S)\s*;?\s*\(\s*(?P<a>[0-9A-Fa-f]{8})(?:\s+(?P<b>[0-9A-Fa-f]{8}))?\s*\)\s*$")


def extract(manual: Path) -> dict:
    """The examples of the manual text, in the JSON layout of testdata/manual_examples.json."""
    raw = manual.read_bytes()
    examples = []
    for number, line in enumerate(raw.decode("utf-8").splitlines(), 1):
        m = EXAMPLE_RE.match(line.strip())
        if m:
            words = [w for w in (m.group("a"), m.group("b")) if w]
            examples.append({"line": number, "text": m.group("text").rstrip(";").strip(), "hex": words})
    return {
        "source": f"../shared/{MANUAL_NAME} (the FlexGripPlus manual as text); extracted by scripts/extract_manual_examples.py",
        "source_sha256": hashlib.sha256(raw).hexdigest(),
        "examples": examples,
    }


def render(data: dict) -> str:
    # one example a line: readable diffs when the extraction changes
    head = {k: v for k, v in data.items() if k != "examples"}
    lines = [json.dumps(head, indent=1)[:-2] + ',\n "examples": [']
    lines.append(",\n".join("  " + json.dumps(e) for e in data["examples"]))
    lines.append(" ]\n}\n")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manual", type=Path, default=MANUAL, help="the manual text (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if the JSON file is stale")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.manual.is_file():
        print(f"no manual at {args.manual}: nothing to extract from", file=sys.stderr)
        return 2
    text = render(extract(args.manual))
    if args.check:
        if not args.out.exists() or args.out.read_text(encoding="utf-8") != text:
            print(f"{args.out} is stale: run scripts/extract_manual_examples.py", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {len(json.loads(text)['examples'])} examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
