"""`make bench` (second part): the RTL's issue rate, how close it gets to its bound, and the
lock-step testbench's speed.

    python scripts/bench_rtl.py [--sim verilator] [--sim icarus] [--num-sp 8 --num-sp 32]
                                [--kernel bench/alu.sass] [--suite ci|bench|none] [--ready-p 0.8]
                                [--flexgrip bench/flexgrip_kernels.json] [--json OUT.json]

Each kernel runs on the RTL in lock-step with the golden model (the same run as `make sim`, seed 1),
so a fast but wrong RTL does not pass. The default kernels are bench/alu.sass and cf_rounds, then
the kernel suite of programs/kernels/ (`--suite ci`, the default; `--suite bench` runs the
benchmark sizes of bench/kernels/, `--suite none` none). Printed per run:

- cycles: kernel cycles (start pulse to done); warp-insns: warp-instructions committed;
- issue rate: warp-instructions x 32/NUM_SP / cycles (1.0 is one warp-instruction every
  32/NUM_SP cycles, the aim of docs/design/rtl.md, "How an instruction flows");
- the two bounds, in cycles: `issue` = warp-instructions x 32/NUM_SP (one warp-instruction per
  32/NUM_SP cycles), `memory` = the requests the program needs on the RTL's memory port at one per
  cycle, counted from the golden model (so independently of the RTL) by the port's rules: a
  request is one aligned 64-byte line; a half-warp of a global access of 4-, 8- or 16-byte words
  that follows G80's coalescing rule (lane k takes word k of an aligned segment of 16 such words)
  needs one request per line of the segment holding an executing lane's word, any other access
  (8/16-bit words, scattered addresses, local memory) one per executing lane and 32-bit word;
  `words` is the lane-word count (one per executing lane and 32-bit word of every GLD/GST/LLD/LST,
  a 64-bit access two, 128-bit four): the memory bound of the port before coalescing;
  `rtl req` is what the RTL did issue (the bench fails when it differs from `memory`);
  `g80 txn`: the transactions G80's coalescing rules make of the global accesses (per half-warp:
  one for a coalesced half, two for 16-byte words; otherwise one a lane);
- bound: the larger of the two and which one it is; `% bound` = bound / cycles. The memory bound
  assumes an ideal port that accepts a request every cycle. The testbench's port accepts one with
  probability `ready_p` in each cycle (`--ready-p`, default 0.8 as in `make sim`), which caps a
  memory-bound kernel at ready_p x 100% of that bound; `mem@p` = memory / ready_p is the bound of
  the port the run had, and `% @p` = max(issue, mem@p) / cycles the percentage reached against it;
- FGP cycles: FlexGripPlus's kernel cycles for the same program and NUM_SP, from the figures
  `scripts/flexgrip_regress.py --kernels --json` writes (`--flexgrip`, default
  bench/flexgrip_kernels.json, else build/flexgrip_kernels.json): shown only where the file's entry
  names the same program with the same sha256 and NUM_SP, and it passed there; its outcome
  (`refused`, `fail`) otherwise; `-` where there is no entry or it was measured on another program
  text (`stale`);
- the testbench's speed: wall time of the run including the simulator's start, not the build;
  simulated cycles and commits per second.

The simulators' output goes to build/bench/<run>/sim.log.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np

from golden.g80.commit import Commit
from golden.g80.profile import G80
from golden.g80.program import load_program
from golden.g80.run import build
from tb.lockstep import LockstepRun, quiet, run_lockstep

ROOT = Path(__file__).resolve().parents[1]

KERNELS = [
    ("bench/alu.sass", "issue rate: 24 warps, a 9-instruction integer loop with one branch"),
    ("programs/cf_rounds.sass", "memory and launch: 40 blocks in 10 rounds, GLD/GST"),
]
SUITES = {"ci": ROOT / "programs" / "kernels", "bench": ROOT / "bench" / "kernels"}
OUT = ROOT / "build" / "bench"
MEMORY_OPS = {"GLD", "GST", "LLD", "LST"}
WORDS = {"S64": 2, "S128": 4}  # 32-bit words per lane; U8, S8, U16, S16, U32: one


LINE = 64  # bytes of one memory-port request (docs/design/rtl.md, "Ports")


def memory_need(path: Path) -> tuple[int, int, int, int]:
    """(warp-instructions, lane-words, port requests, G80 transactions) of a program, from the
    golden model's commit records and the addresses of its global accesses, so independently of
    the RTL:

    - lane-words: one per executing lane and 32-bit word of each global/local access (what a
      32-bit port that does not combine accesses needs; the memory bound before coalescing);
    - port requests: what the RTL's 64-byte port needs by its rules: per half-warp of a global
      access of 4-, 8- or 16-byte words where lane k of every executing lane takes word k of a
      segment of 16 such words aligned to its size, one request per 64-byte line of the segment
      that holds an executing lane's word (1 for 4-byte words, up to 2 or 4 for 8- or 16-byte
      words); otherwise, and for every local access, one per executing lane and 32-bit word;
    - G80 transactions: what G80's coalescing (compute capability 1.0) makes of the global
      accesses: the same rule, one transaction (two for 16-byte words) per coalesced half-warp,
      otherwise one per executing lane."""
    sm, gmem = build(load_program(path), G80)
    parts: list[tuple[np.ndarray, np.ndarray, int]] = []  # (lanes, addresses, bytes) of each global access since the last commit

    def spy(method):  # record the lanes and addresses of the global memory's loads and stores
        def wrapped(addr, size, *args, **kw):  # load(addr, size, signed, where, lanes), store(addr, size, value, where, lanes)
            lanes = kw.get("lanes", args[2] if len(args) > 2 else None)
            if lanes is not None:
                parts.append((np.asarray(lanes) % 32, np.asarray(addr, np.int64), size))
            return method(addr, size, *args, **kw)
        return wrapped

    gmem.load, gmem.store = spy(gmem.load), spy(gmem.store)

    def spy_words(method):  # the model's whole-warp word path (load_words/store_words): every lane, 4 bytes
        def wrapped(addr, *args):
            out = method(addr, *args)
            if out is not None and out is not False:  # taken; otherwise the model falls back on load/store
                parts.append((np.arange(len(addr)) % 32, np.asarray(addr, np.int64), 4))
            return out
        return wrapped

    gmem.load_words, gmem.store_words = spy_words(gmem.load_words), spy_words(gmem.store_words)
    words = requests = txn = 0

    def count(c: Commit) -> None:
        nonlocal words, requests, txn
        op, *mods = c.text.split()[0].split(".")
        if op in MEMORY_OPS:
            n = bin(c.exec_mask).count("1") * max((WORDS.get(m, 1) for m in mods), default=1)
            words += n
            if op in ("LLD", "LST"):
                requests += n
        if parts:
            lanes, addr = parts[0][0], parts[0][1]  # the first 32-bit part of each lane: its address
            width = 4 * len(parts) if parts[0][2] == 4 else parts[0][2]
            per_lane = len(parts) if parts[0][2] == 4 else 1  # 32-bit words a lane accesses
            for half in (0, 1):
                sel = lanes // 16 == half
                if not sel.any():
                    continue
                k, a = lanes[sel] % 16, addr[sel]
                base = a - k * width
                if width in (4, 8, 16) and (base == base[0]).all() and base[0] % (16 * width) == 0:
                    txn += 2 if width == 16 else 1
                    requests += len(set((k * width // LINE).tolist()))
                else:
                    txn += int(sel.sum())
                    requests += int(sel.sum()) * per_lane
            parts.clear()

    steps = sm.run(batch=False, record=True, on_commit=count)
    return steps, words, requests, txn




FLEXGRIP_FILES = (ROOT / "bench" / "flexgrip_kernels.json", ROOT / "build" / "flexgrip_kernels.json")


def flexgrip_figures(path: Path | None) -> tuple[dict[str, dict], int | None, str]:
    """FlexGripPlus's kernel figures: (entries by program path relative to the repository, the NUM_SP
    they were measured at, a line saying where they come from). The file is what
    `scripts/flexgrip_regress.py --json` writes: {"provenance": {"num_sp", "date", "commit", ...},
    "kernels": {name: {"program", "sha256", "outcome", "flexgrip_cycles", ...}}}."""
    candidates = [path] if path else [p for p in FLEXGRIP_FILES if p.exists()]
    if not candidates or not candidates[0].exists():
        return {}, None, f"FlexGripPlus cycles: no figures ({path or ' or '.join(str(p.relative_to(ROOT)) for p in FLEXGRIP_FILES)} absent; " \
                         "scripts/flexgrip_regress.py --kernels --json FILE writes them)"
    file = candidates[0]
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
        prov = doc.get("provenance", {})
        entries = {str(e["program"]): e for e in doc["kernels"].values()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SystemExit(f"{file}: not a FlexGripPlus figures file ({type(exc).__name__}: {exc})") from exc
    num_sp = prov.get("num_sp")
    where = ", ".join(f"{k} {prov[k]}" for k in ("date", "commit", "ghdl") if prov.get(k))
    return entries, int(num_sp) if num_sp is not None else None, f"FlexGripPlus cycles: {file} ({where}; NUM_SP {num_sp})"


def flexgrip_cell(entries: dict[str, dict], fg_sp: int | None, path: str, num_sp: int) -> str:
    e = entries.get(path)
    if e is None or fg_sp != num_sp:
        return "-"
    if e.get("sha256") and e["sha256"] != hashlib.sha256((ROOT / path).read_bytes()).hexdigest():
        return "stale"
    if e.get("outcome") == "pass" and e.get("flexgrip_cycles") is not None:
        return str(e["flexgrip_cycles"])
    return str(e.get("outcome", "-"))


def _parser() -> argparse.ArgumentParser:
    """The command line (the manual's command-line reference reads it too)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", action="append", choices=["icarus", "verilator"], help="default: verilator")
    ap.add_argument("--num-sp", action="append", type=int, choices=[8, 16, 32], help="default: 8, 16 and 32")
    ap.add_argument("--kernel", action="append", help="a .sass file (default: " + ", ".join(k for k, _ in KERNELS) + ", then the suite)")
    ap.add_argument("--suite", choices=[*SUITES, "none"], default="ci", help="the kernel suite after the default kernels: "
                    "ci (programs/kernels/, the default), bench (bench/kernels/) or none")  # fmt: skip
    ap.add_argument("--ready-p", type=float, default=0.8, help="probability that the testbench's memory port accepts a request "
                    "in a cycle (default 0.8, as make sim); 1.0: an ideal port")  # fmt: skip
    ap.add_argument("--flexgrip", type=Path, help="FlexGripPlus's kernel figures (default: bench/flexgrip_kernels.json, "
                    "else build/flexgrip_kernels.json, when present)")  # fmt: skip
    ap.add_argument("--json", type=Path, help="also write the rows here")
    return ap


def main() -> int:
    ap = _parser()
    args = ap.parse_args()
    if not 0 < args.ready_p <= 1:
        ap.error(f"--ready-p {args.ready_p}: a probability in (0, 1]")
    fg_entries, fg_sp, fg_where = flexgrip_figures(args.flexgrip)
    rows: list[dict] = []
    if args.kernel:
        kernels = [(k, "") for k in args.kernel]
    else:
        kernels = list(KERNELS)
        if args.suite != "none":
            kernels += [(str(p.relative_to(ROOT)), "") for p in sorted(SUITES[args.suite].glob("*.sass"))]
    print(f"{'kernel':<16} {'sim':<9} {'SPs':>3} {'cycles':>8} {'warp-insns':>10} {'issue rate':>10} {'issue':>8} {'words':>8} {'memory':>8} {'rtl req':>8} "
          f"{'g80 txn':>8} {'bound':>15} {'% bound':>7} {'mem@p':>8} {'% @p':>6} {'FGP cycles':>10} {'wall s':>7} {'cycles/s':>9} {'commits/s':>9}  lock-step")  # fmt: skip
    print(f"(memory: requests at one a cycle, an ideal port; mem@p: at the testbench port's ready_p = {args.ready_p:g}, the port of these runs)")
    ok = True
    for path, what in kernels:
        insns, words, need, txn = memory_need(ROOT / path)
        for sim in args.sim or ["verilator"]:
            for num_sp in args.num_sp or [8, 16, 32]:
                name = Path(path).stem
                out = OUT / f"{'bench-' if path.startswith('bench/kernels') else ''}{name}_{sim}_sp{num_sp}"
                out.mkdir(parents=True, exist_ok=True)
                r = LockstepRun(str((ROOT / path).resolve()), sim, num_sp, out=out, ready_p=args.ready_p)
                with quiet(out / "sim.log"):  # keep the table readable: the simulators' output goes to the run's log
                    r.build()  # not timed
                    res = run_lockstep(r, rerun_with_waves=False)
                ok &= res.passed
                rate = res.commits * (32 / num_sp) / res.cycles if res.cycles else 0.0
                issue = insns * 32 // num_sp
                bound, which = max((issue, "issue"), (need, "memory"))
                pct = 100 * bound / res.cycles if res.cycles else 0.0
                at_p = math.ceil(need / args.ready_p)
                pct_p = 100 * max(issue, at_p) / res.cycles if res.cycles else 0.0
                fgp = flexgrip_cell(fg_entries, fg_sp, path, num_sp)
                print(f"{name:<16} {sim:<9} {num_sp:>3} {res.cycles:>8} {res.commits:>10} {rate:>10.3f} {issue:>8} {words:>8} {need:>8} {res.mem_requests:>8} "
                      f"{txn:>8} {f'{bound} {which}':>15} {pct:>6.1f}% {at_p:>8} {pct_p:>5.1f}% {fgp:>10} {res.wall:>7.1f} {res.cycles / res.wall:>9.0f} {res.commits / res.wall:>9.0f}  "
                      f"{'pass' if res.passed else 'FAIL'}", flush=True)  # fmt: skip
                rows.append({"kernel": name, "program": path, "sim": sim, "num_sp": num_sp, "cycles": res.cycles, "warp_insns": res.commits,
                             "issue_rate": round(rate, 3), "issue_bound": issue, "memory_bound": need, "words": words, "g80_txn": txn,
                             "rtl_requests": res.mem_requests, "bound": which, "pct_bound": round(pct, 1), "ready_p": args.ready_p,
                             "memory_bound_at_p": at_p, "pct_bound_at_p": round(pct_p, 1), "flexgrip_cycles": fgp, "passed": res.passed})  # fmt: skip
                if not res.passed:
                    print(res.summary())
                elif res.commits != insns:
                    print(f"  ({name}: {res.commits} commits on the RTL, {insns} warp-instructions on the model)")
                    ok = False
                elif res.mem_requests != need:
                    print(f"  ({name}: the RTL made {res.mem_requests} memory requests, the port's rules need {need})")
                    ok = False
        if what:
            print(f"  ({what})")
    print(fg_where)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
