"""scripts/bench_rtl.py: the memory bound it counts from the golden model, and how it reads
FlexGripPlus's kernel figures. The request counts are checked against what each kernel's geometry
fixes (its size, from the header gen_kernels.py writes), not against the counter itself."""

from __future__ import annotations

import hashlib
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import bench_rtl  # noqa: E402


def _size(path: Path) -> dict[str, int]:
    """The size variables of a generated kernel, from its first line `... size ci (W=48, H=32)`."""
    head = path.read_text().splitlines()[0]
    m = re.search(r"size \w+ \(([^)]*)\)", head)
    assert m, f"{path}: no size in its header line"
    return {k.strip(): int(v) for k, v in (kv.split("=") for kv in m.group(1).split(","))}


def test_sobel_needs_a_request_per_byte_access_of_each_interior_pixel() -> None:
    """Each interior pixel's thread loads its 8 neighbours and stores one byte; 8-bit accesses never
    coalesce (G80's rule covers 4-, 8- and 16-byte words), so each is one request, one lane-word and
    one G80 transaction; border threads leave before any access."""
    path = ROOT / "programs" / "kernels" / "sobel.sass"
    s = _size(path)
    _, words, requests, txn = bench_rtl.memory_need(path)
    interior = (s["W"] - 2) * (s["H"] - 2)
    assert words == requests == txn == 9 * interior


def test_saxpy_needs_one_line_per_half_warp_and_access() -> None:
    """x[i] and y[i] loads and the y[i] store, i < N: lane k of a half-warp takes word k of a 64-byte
    aligned segment (buffers are line aligned), so each access is one request per half-warp with an
    executing lane: ceil(N / 16) a pass over the array, three passes; lane-words: 3 N."""
    path = ROOT / "programs" / "kernels" / "saxpy.sass"
    n = _size(path)["N"]
    _, words, requests, txn = bench_rtl.memory_need(path)
    assert words == 3 * n
    assert requests == txn == 3 * math.ceil(n / 16)


def _figures(tmp: Path, entry: dict, num_sp: int = 8) -> Path:
    f = tmp / "fg.json"
    f.write_text(json.dumps({"provenance": {"num_sp": num_sp, "date": "2026-11-24", "commit": "abc"}, "kernels": {"sobel": entry}}))
    return f


def test_flexgrip_cycles_shown_only_for_the_same_program_text_and_width(tmp_path: Path) -> None:
    prog = "programs/kernels/sobel.sass"
    sha = hashlib.sha256((ROOT / prog).read_bytes()).hexdigest()
    entries, sp, where = bench_rtl.flexgrip_figures(_figures(tmp_path, {"program": prog, "sha256": sha, "outcome": "pass", "flexgrip_cycles": 123456}))
    assert sp == 8 and "2026-11-24" in where
    assert bench_rtl.flexgrip_cell(entries, sp, prog, 8) == "123456"
    assert bench_rtl.flexgrip_cell(entries, sp, prog, 16) == "-"  # measured at another NUM_SP
    assert bench_rtl.flexgrip_cell(entries, sp, "programs/kernels/saxpy.sass", 8) == "-"  # no entry
    entries, sp, _ = bench_rtl.flexgrip_figures(_figures(tmp_path, {"program": prog, "sha256": "0" * 64, "outcome": "pass", "flexgrip_cycles": 1}))
    assert bench_rtl.flexgrip_cell(entries, sp, prog, 8) == "stale"  # figures of another version of the program
    entries, sp, _ = bench_rtl.flexgrip_figures(_figures(tmp_path, {"program": prog, "sha256": sha, "outcome": "refused", "reason": "x"}))
    assert bench_rtl.flexgrip_cell(entries, sp, prog, 8) == "refused"


def test_missing_or_malformed_flexgrip_figures(tmp_path: Path) -> None:
    entries, sp, where = bench_rtl.flexgrip_figures(tmp_path / "absent.json")
    assert entries == {} and sp is None and "absent" in where
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    try:
        bench_rtl.flexgrip_figures(bad)
    except SystemExit as exc:
        assert "bad.json" in str(exc) and "not a FlexGripPlus figures file" in str(exc)
    else:
        raise AssertionError("a malformed figures file was accepted")
