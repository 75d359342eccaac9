"""Command line: `python -m golden COMMAND ...` (also installed as `golden`): the ISA tools, the
golden model, and the steps the Makefile's targets are made of (roundtrip, coverage-runs,
coverage-report, regress-summary)."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import isas
from .errors import OneLineParser, UserError, guarded
from .g80.disassembler import format_listing
from .g80.isa import AsmError, IllegalInstruction
from .isa.rows import summary
from .isas import Isa

if TYPE_CHECKING:
    from .g80.assembler import Program
    from .g80.program import KernelSpec


def _int(text: str) -> int:
    return int(text, 0)


def _load(path: str, base: int = 0) -> KernelSpec | None:
    """A program with its directives, or None after printing why it cannot be read."""
    from .g80.program import load_program

    try:
        return load_program(path, base=base)
    except AsmError as e:
        print(e.format(), file=sys.stderr)
    except OSError as e:
        print(f"{path}: error: {e.strerror}", file=sys.stderr)
    return None


def _isa(args: argparse.Namespace) -> Isa:
    isa = isas.get(args.isa)
    if isa.name != "lg" and getattr(args, "float", None):
        raise UserError(f"--float chooses the float-immediate format of --isa lg; {isa.name} has none (drop --float)")
    if isa.name != "fermi" and getattr(args, "dialect", None):
        raise UserError(f"--dialect chooses the cuobjdump dialect of --isa fermi; {isa.name} has none (drop --dialect)")
    return isa


def _asm_fermi(args: argparse.Namespace) -> int:
    from .fermi.asm import assemble

    return _asm_other(args, "Fermi programs start at byte address 0", lambda text: assemble(text, args.file, args.dialect),
                      lambda w: [w & 0xFFFFFFFF, w >> 32])  # fmt: skip


def _disasm_fermi(args: argparse.Namespace) -> int:
    """Fermi words: a file of 32-bit words, word0 (the low half) first, or --hex values of up to 16
    digits (the 64-bit value, high half first, as CUDA 5 cuobjdump prints it)."""
    from .fermi.disasm import format_listing

    if args.base:
        raise UserError("--base places G80 code; Fermi words are numbered from byte address 0 (drop --base)")
    try:
        words = _input_words(args, 64)
        if words is None:
            return 2
        if not args.hex:  # a file holds 32-bit words, the low half of each instruction first
            if len(words) % 2:
                raise ValueError(f"{args.file}: {len(words)} 32-bit words are not whole 64-bit instructions")
            words = [words[i + 1] << 32 | words[i] for i in range(0, len(words), 2)]
        lines, errors = format_listing(words, args.dialect or "cuda5", keep_going=args.keep_going)
    except (ValueError, OSError) as e:  # an illegal word (IllegalWord is a ValueError), a bad --hex, an unreadable file
        print(f"error: {e}", file=sys.stderr)
        return 1
    return _print_listing(lines, errors)


def _input_words(args: argparse.Namespace, bits: int) -> list[int] | None:
    """The words to disassemble: --hex values of up to `bits` bits, or FILE's 32-bit words; None
    (after saying so) when neither is given. ValueError names a --hex value too wide."""
    if args.hex:
        words = [int(w, 16) for w in args.hex]
        if any(w >> bits for w in words):
            isa = "" if bits == 32 else f" of --isa {args.isa}"
            raise ValueError(f"each --hex word{isa} must be at most {bits // 4} hex digits")
        return words
    if args.file:
        return read_words(Path(args.file))
    print("disasm: give a FILE or --hex WORD...", file=sys.stderr)
    return None


def _print_listing(lines: list[str], errors: Sequence[object]) -> int:
    """A disassembly on stdout, then the words that did not decode (--keep-going) on stderr."""
    print("\n".join(lines))
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    return 1 if errors else 0


def _write_words(words: list[list[int]], args: argparse.Namespace) -> None:
    """The image as raw little-endian binary or hex words, one instruction a line (word0 first)."""
    fmt = args.format or ("bin" if args.output else "hex")
    if fmt == "bin":
        data = b"".join(w.to_bytes(4, "little") for insn in words for w in insn)
        if args.output:
            Path(args.output).write_bytes(data)
        else:
            sys.stdout.buffer.write(data)
    else:
        text = "".join(" ".join(f"{w:08x}" for w in insn) + "\n" for insn in words)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)


def _asm_lg(args: argparse.Namespace) -> int:
    from .lg.asm import assemble

    try:
        return _asm_other(args, "LG programs start at instruction 0", lambda text: assemble(text, args.file, args.float), lambda w: [w])
    except ValueError as e:  # an unknown --float
        raise UserError(f"--float: {e}") from None


def _asm_other(args: argparse.Namespace, start: str, assemble: Callable[[str], Any], split: Callable[[int], list[int]]) -> int:
    """`golden asm` for an ISA other than G80: its file through `assemble`, errors as the assembler
    formats them, and each word of the image as `split` cuts it into 32-bit words."""
    if args.base:
        raise UserError(f"--base places G80 code; {start} (drop --base)")
    try:
        program = assemble(Path(args.file).read_text(encoding="utf-8"))
    except AsmError as e:
        print(e.format(), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{args.file}: error: {e.strerror}", file=sys.stderr)
        return 1
    _write_words([split(w) for w in program.words], args)
    return 0


def cmd_asm(args: argparse.Namespace) -> int:
    if _isa(args).name == "lg":
        return _asm_lg(args)
    if _isa(args).name == "fermi":
        return _asm_fermi(args)
    # program directives (.block, .buffer, ...) are accepted and checked, and do not emit code
    spec = _load(args.file, args.base)
    if spec is None:
        return 1
    program = spec.program
    for note in program.notes:
        print(f"note: {note}", file=sys.stderr)
    fmt = args.format or ("bin" if args.output else "hex")
    if fmt == "bin":
        data = program.to_bytes()
        if args.output:
            Path(args.output).write_bytes(data)
        else:
            sys.stdout.buffer.write(data)
    else:
        text = _hex_text(program)
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    return 0


def _hex_text(program: Program) -> str:
    """Hex words, one instruction a line (word0 first)."""
    return "".join(" ".join(f"{w:08x}" for w in insn.words) + "\n" for insn in program.instructions)


_HEX_WORDS_RE = re.compile(r"^(?:\s*(?:0x)?[0-9a-fA-F]{1,8}\b)*\s*$")


def read_words(path: Path) -> list[int]:
    """A code image: a text file of hex words (whitespace separated, `#`/`//` comments), or raw
    little-endian binary."""
    data = path.read_bytes()
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        body = "\n".join(re.split(r"#|//", line, maxsplit=1)[0] for line in text.splitlines())
        if _HEX_WORDS_RE.match(body) and body.strip():
            return [int(w, 16) for w in body.split()]
    if len(data) % 4:
        raise ValueError(f"{path}: binary code image of {len(data)} bytes is not a whole number of 32-bit words")
    return [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]


def _disasm_lg(args: argparse.Namespace, words: list[int]) -> int:
    from .lg.disasm import format_listing
    from .lg.table import IllegalWord

    try:
        lines, errors = format_listing(words, args.float or "fixed187", keep_going=args.keep_going)
    except IllegalWord as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except ValueError as e:  # an unknown --float
        raise UserError(f"--float: {e}") from None
    return _print_listing(lines, errors)


def cmd_disasm(args: argparse.Namespace) -> int:
    isa = _isa(args)
    if isa.name == "lg" and args.base:
        raise UserError("--base places G80 code; LG words are numbered from instruction 0 (drop --base)")
    if isa.name == "fermi":
        return _disasm_fermi(args)
    try:
        words = _input_words(args, 32)
        if words is None:
            return 2
        if isa.name == "lg":
            return _disasm_lg(args, words)
        lines, errors = format_listing(words, args.base, keep_going=args.keep_going)
    except IllegalInstruction as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return _print_listing(lines, errors)


def cmd_check_listing(args: argparse.Namespace) -> int:
    isa = _isa(args)
    total_passed = total_failed = 0
    for name in args.files:
        try:
            if isa.name == "fermi":
                from .fermi.listing import check_listing

                passed, failures = check_listing(name, args.dialect)
            else:
                passed, failures = isa.check_listing(name)
        except (OSError, ValueError) as e:
            print(f"{name}: error: {e}", file=sys.stderr)
            total_failed += 1
            continue
        if not passed and not failures:
            print(f"{name}: error: no instruction rows", file=sys.stderr)
            total_failed += 1
            continue
        for failure in failures:
            print(failure.format())
        if not args.quiet:
            print(f"{name}: {summary(passed, len(failures))}", file=sys.stderr)
        total_passed += passed
        total_failed += len(failures)
    print(summary(total_passed, total_failed))
    return 0 if total_failed == 0 and total_passed > 0 else 1


def cmd_roundtrip(args: argparse.Namespace) -> int:
    """The text -> words -> text -> words check of `make sim`: assemble the program (OUT/NAME.hex),
    disassemble the words (OUT/NAME.dis, also printed), assemble that text again (OUT/NAME.rt.hex)
    and compare the two images."""
    source = Path(args.program)
    name = source.stem
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    spec = _load(str(source))
    if spec is None:
        return 1
    for note in spec.program.notes:
        print(f"note: {note}", file=sys.stderr)
    hex_path, dis_path, rt_path = out / f"{name}.hex", out / f"{name}.dis", out / f"{name}.rt.hex"
    hex_path.write_text(_hex_text(spec.program), encoding="utf-8")
    try:
        lines, _ = format_listing(read_words(hex_path))
    except (IllegalInstruction, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    dis_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    again = _load(str(dis_path))
    if again is None:
        return 1
    for note in again.program.notes:
        print(f"note: {note}", file=sys.stderr)
    rt_path.write_text(_hex_text(again.program), encoding="utf-8")
    if rt_path.read_bytes() != hex_path.read_bytes():
        print(f"{name}: round trip differs (diff {hex_path} {rt_path})")
        return 1
    print(f"{name}: {len(spec.program.instructions)} instructions, text -> words -> text -> words identical")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from .errors import ModelError
    from .g80.profile import PROFILES
    from .g80.run import format_commit, run_program

    spec = _load(args.program)
    if spec is None:
        return 1
    profile = PROFILES[args.profile]
    trace = (lambda c: print(format_commit(c))) if args.trace else None
    try:
        if args.cov or args.cov_cross:
            from .g80.coverage import Coverage, CrossCoverage
            from .g80.coverage_run import run_with_coverage

            run = f"golden {profile.name} {Path(args.program).stem}"
            cov = Coverage(run=run) if args.cov else None
            cross = CrossCoverage(run=run) if args.cov_cross else None
            result = run_with_coverage(spec, profile, cov, trace=trace, cross=cross)
            if cov is not None:
                cov.save(args.cov)
            if cross is not None:
                cross.save(args.cov_cross)
        else:
            result = run_program(spec, profile, trace=trace)
    except ModelError as e:
        print(f"{args.program}: error: {e}", file=sys.stderr)
        return 1
    for c in result.checks:
        status = "ok  " if c.passed else "FAIL"
        print(f"{status} {args.program}:{c.line}: {c.buffer}: {c.detail}")
    rate = result.thread_instructions / result.seconds if result.seconds else 0.0
    print(f"{args.program}: profile {profile.name}, {result.warp_instructions} warp-instructions, "
          f"{result.thread_instructions} thread-instructions, {rate / 1e6:.2f} M thread-instructions/s", file=sys.stderr)  # fmt: skip
    failed = len(result.failed)
    print(f"{len(result.checks) - failed} passed, {failed} failed")
    if not result.checks and not args.no_expect:
        print(f"{args.program}: error: the program declares no .expect, so nothing was checked", file=sys.stderr)
        return 1
    return 1 if failed else 0


def cmd_check_vectors(args: argparse.Namespace) -> int:
    from .g80.checkvec import check_files
    from .g80.profile import PROFILES

    try:
        passed, failures, errors = check_files(args.files, PROFILES[args.profile])
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for failure in failures[: args.max_failures]:
        print(failure.format())
    if len(failures) > args.max_failures:
        print(f"... {len(failures) - args.max_failures} more failures")
    for error in errors:
        print(f"error: {error}")
    failed = len(failures) + len(errors)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


def cmd_run_flexgrip(args: argparse.Namespace) -> int:
    from .errors import ModelError
    from .g80.flexgrip_bundle import run_bundle

    total_pass = total_fail = 0
    for name in args.bundles:
        try:
            r = run_bundle(name)
        except (OSError, ValueError, ModelError) as e:
            print(f"{name}: error: {e}")
            total_fail += 1
            continue
        for w in r.int_failed[:20]:
            print(f"{name}: word {w.addr:#07x}: expected {w.expected:#010x}, got {w.got:#010x}")
        for w in r.float_failed[:20]:
            print(f"{name}: float word {w.addr:#07x}: expected {w.expected:#010x}, got {w.got:#010x} ({w.ulps} ulp apart)")
        nf = r.float_passed + len(r.float_failed)

        def shown(addrs: list[int]) -> str:
            return ", ".join(f"{a:#07x}" for a in addrs[:8]) + (", ..." if len(addrs) > 8 else "")

        if r.undefined:
            print(f"{name}: {len(r.undefined)} undefined (U/X) words in the dump, not compared: {shown(r.undefined)}")
        if r.undefined_control:
            # the model stopped where it would have to guess: nothing is compared, and that is no pass
            print(f"{name}: undefined control flow, nothing compared ({r.undefined_inputs} undefined input words): {r.undefined_control}")
            total_fail += 1
            continue
        if r.undefined_results:
            print(f"{name}: {len(r.undefined_results)} results undefined (computed from {r.undefined_inputs} undefined input words), "
                  f"not compared: {shown(r.undefined_results)}")  # fmt: skip
        if r.undefined_kept:
            print(f"{name}: {len(r.undefined_kept)} undefined input words left as they were (defined in the dump), not compared: {shown(r.undefined_kept)}")
        print(f"{name}: all words compared exactly: {r.int_passed + len(r.int_failed)} integer words, {r.int_passed} passed; "
              f"{nf} words computed by FP/SFU instructions, {r.float_passed} passed; "
              f"{len(r.undefined)} undefined in the dump; {len(r.undefined_results) + len(r.undefined_kept)} undefined in the model "
              f"(from {r.undefined_inputs} undefined input words); {r.warp_instructions} warp-instructions")  # fmt: skip
        total_pass += r.int_passed + r.float_passed
        total_fail += len(r.int_failed) + len(r.float_failed)
    print(f"{total_pass} passed, {total_fail} failed")
    return 0 if total_fail == 0 and total_pass > 0 else 1


def cmd_flexgrip_export(args: argparse.Namespace) -> int:
    from .g80.assembler import AsmError
    from .g80.flexgrip_export import NotRunnable, export

    try:
        files = export(args.program, args.output, args.cores)
    except (AsmError, NotRunnable, OSError, ValueError) as e:
        print(f"{args.program}: error: {e}", file=sys.stderr)
        return 1
    for f in files:
        print(f)
    return 0


def cmd_coverage_runs(args: argparse.Namespace) -> int:
    """`make coverage`, first step: every program on the golden model with commit sampling, `--jobs`
    at a time, each in its own process: OUT/NAME.json (coverage) and OUT/NAME.log (its output)."""
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    isa = _isa(args)
    if args.profile is not None and args.profile not in isa.profiles:
        raise UserError(f"--profile {args.profile}: {isa.name} has the profiles {', '.join(isa.profiles)} (choose one of them)")
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    names = [Path(p).stem for p in args.programs]
    clash = sorted({n for n in names if names.count(n) > 1})
    if clash:
        print(f"coverage-runs: error: programs with the same name would share one output file: {', '.join(clash)}", file=sys.stderr)
        return 2
    if isa.name != "g80":
        return _coverage_runs_in_process(isa, args, out)
    profile = args.profile or isa.default_profile

    def one(program: str) -> tuple[str, Path, int]:
        name = Path(program).stem
        log = out / f"{name}.log"
        cmd = [sys.executable, "-m", "golden", "run", program, "--profile", profile, "--cov", str(out / f"{name}.json"),
               "--cov-cross", str(out / f"{name}.cross.json"), *(["--no-expect"] if args.no_expect else [])]  # fmt: skip
        with log.open("w", encoding="utf-8") as f:
            code = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=False).returncode
        return program, log, code

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, args.programs))
    failed = [(p, log) for p, log, code in results if code]
    for program, log in failed:
        print(f"coverage: {program} failed (see {log})", file=sys.stderr)
    print(f"coverage: {len(results) - len(failed)} of {len(results)} programs run on the golden model with coverage into {out}")
    return 1 if failed or not results else 0


def _coverage_runs_in_process(isa: Isa, args: argparse.Namespace, out: Path) -> int:
    """An ISA whose programs run in a moment (LG): each on its model in this process, through the
    ISA's coverage module; the program's own profile unless --profile names one."""
    results = isa.coverage.coverage_runs(args.programs, out, args.profile)
    failed = [(p, log) for p, log, err in results if err]
    for program, log in failed:
        print(f"coverage: {program} failed (see {log})", file=sys.stderr)
    print(f"coverage: {len(results) - len(failed)} of {len(results)} programs run on the {isa.name} model with coverage into {out}")
    return 1 if failed or not results else 0


def cmd_coverage_report(args: argparse.Namespace) -> int:
    """Merge coverage JSON files (golden-model runs, testbench runs) and write the reports:
    coverage.html (self-contained page), coverage.txt (summary with the holes), coverage.ucis.xml
    (UCIS database, pyucis) and the merged coverage.json; print the headline figures."""
    from .coverage import write_reports

    files: list[str] = []
    sources: dict[str, list[str]] = {}
    for name in args.files:
        label, sep, rest = name.partition("=")
        label, name = (label, rest) if sep and not Path(name).exists() else ("", name)
        path = Path(name)
        got = sorted(str(p) for p in path.glob("*.json")) if path.is_dir() else [name]
        files += got
        sources.setdefault(label or "(unlabelled)", []).extend(got)
    if not files:
        print(f"coverage: error: no coverage files in {', '.join(args.files)}", file=sys.stderr)
        return 1
    try:
        cov = write_reports(files, args.outdir, args.code, sources)
    except (OSError, ValueError) as e:
        print(f"coverage: error: {e}", file=sys.stderr)
        return 1
    o = cov.overall()
    print(f"coverage: {len(files)} files, {cov.samples} commits; {o.total} bins, {o.excluded} excluded, "
          f"{o.hit}/{o.reachable} reachable hit = {o.percent:.1f}%, {len(cov.holes())} holes")  # fmt: skip
    cross = getattr(cov, "cross", None)
    if cross is not None and cross.samples:
        x = cross.overall()
        print(f"coverage: crosses: {cross.samples} commits; {x.total} bins, {x.excluded} excluded, "
              f"{x.hit}/{x.reachable} reachable hit = {x.percent:.1f}%, {len(cross.holes())} holes")  # fmt: skip
        xbad = cross.excluded_hit()
        if xbad:
            print(f"coverage: WARNING: {len(xbad)} excluded cross bins were hit: {', '.join(b.key for b in xbad[:5])}", file=sys.stderr)
    uarch = getattr(cov, "uarch", None)
    check_failed = bool(uarch is not None and uarch.check_failures())
    if uarch is not None and uarch.runs:
        u = uarch.overall()
        print(f"coverage: micro-architecture: {len(uarch.runs)} runs; {u.total} bins, {u.excluded} excluded, "
              f"{u.hit}/{u.reachable} reachable hit = {u.percent:.1f}%, {len(uarch.holes())} holes")  # fmt: skip
        for name, (sampled, independent) in uarch.check_failures().items():
            print(f"coverage: WARNING: sampler cross-check failed: {name}: sampled {sampled}, independent count {independent}", file=sys.stderr)
    for label, m in (getattr(cov, "by_source", None) or {}).items():
        figs = ", ".join(f"{t} {c.overall().percent:.1f}%" for t, c in m.present())
        print(f"coverage: {label} alone: {figs}")
    bad = cov.excluded_hit()
    if bad:
        print(f"coverage: WARNING: {len(bad)} excluded bins were hit: {', '.join(b.key for b in bad[:5])}", file=sys.stderr)
    print(f"coverage: reports in {args.outdir}: coverage.html coverage.txt coverage.ucis.xml coverage.json")
    if args.fail_under is not None and o.percent < args.fail_under:
        print(f"coverage: {o.percent:.1f}% is below --fail-under {args.fail_under}", file=sys.stderr)
        return 1
    return 1 if bad or check_failed else 0


def cmd_regress_summary(args: argparse.Namespace) -> int:
    from .regress_summary import main as summary

    return summary(args)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="golden", description="SM_1.0 (G80) SASS tools and golden model")
    sub = parser.add_subparsers(dest="command", required=True)

    isa_help = f"instruction set: {', '.join(isas.ISAS)} (default g80)"
    float_help = "LG float-immediate format: fixed187 (default), half, fixed1114, or a profile's name (seed, ta2013)"

    p = sub.add_parser("asm", help="assemble NVIDIA-syntax SASS (or, with --isa lg, LG assembly) into instruction words")
    p.add_argument("file", help="SASS source (LG: .lgs source)")
    p.add_argument("--isa", default="g80", help=isa_help)
    p.add_argument("--float", metavar="FORMAT", help=float_help + "; overrides the program's .float")
    p.add_argument("-o", "--output", help="output file (default: hex words on standard output)")
    p.add_argument("--format", choices=["bin", "hex"], help="raw little-endian binary or hex words, one instruction a line")
    p.add_argument("--base", type=_int, default=0, help="address of the first instruction (default 0)")
    p.add_argument("--dialect", choices=["cuda4", "cuda5"], help="--isa fermi: cuobjdump text of CUDA 4.x or 5 (default: detected; disasm: cuda5)")
    p.set_defaults(func=cmd_asm)

    p = sub.add_parser("disasm", help="disassemble instruction words into NVIDIA-syntax SASS (or, with --isa lg, LG assembly)")
    p.add_argument("file", nargs="?", help="code image: hex words text or raw little-endian binary")
    p.add_argument("--isa", default="g80", help=isa_help)
    p.add_argument("--float", metavar="FORMAT", help=float_help)
    p.add_argument("--hex", nargs="+", metavar="WORD", help="words on the command line, word0 first")
    p.add_argument("--base", type=_int, default=0, help="address of the first word (default 0)")
    p.add_argument("--keep-going", action="store_true", help="report illegal words and go on")
    p.add_argument("--dialect", choices=["cuda4", "cuda5"], help="--isa fermi: cuobjdump text of CUDA 4.x or 5 (default: detected; disasm: cuda5)")
    p.set_defaults(func=cmd_disasm)

    p = sub.add_parser("check-listing", help="check listings: words -> NVIDIA text -> words (--isa lg: INDEX | 0xWORD | TEXT rows)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--isa", default="g80", help=isa_help)
    p.add_argument("-q", "--quiet", action="store_true", help="no per-file summary")
    p.add_argument("--dialect", choices=["cuda4", "cuda5"], help="--isa fermi: cuobjdump text of CUDA 4.x or 5 (default: detected; disasm: cuda5)")
    p.set_defaults(func=cmd_check_listing)

    p = sub.add_parser("run", help="run a program of programs/ on the golden model and check it")
    p.add_argument("program", help="SASS program with launch and .expect directives")
    p.add_argument("--profile", choices=["g80", "flexgrip"], default="g80", help="semantics (default g80 silicon)")
    p.add_argument("--trace", action="store_true", help="print every commit record with its disassembly")
    p.add_argument("--cov", metavar="FILE", help="run one warp-instruction at a time and write functional coverage (JSON) to FILE")
    p.add_argument("--cov-cross", metavar="FILE", help="the same for the cross model (operand values x modifiers, hazards, guard x flags, SIMT): JSON to FILE")
    p.add_argument("--no-expect", action="store_true",
                   help="a program without .expect lines is not an error (random programs: lock-step and final memory check them)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("check-vectors", help="run int/fp32/sfu reference vectors as real instructions")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--profile", choices=["g80", "flexgrip"], default="g80")
    p.add_argument("--max-failures", type=int, default=50, help="failures printed (all are counted)")
    p.set_defaults(func=cmd_check_vectors)

    p = sub.add_parser("run-flexgrip", help="run FlexGripPlus kernel bundles under the flexgrip profile")
    p.add_argument("bundles", nargs="+", metavar="BUNDLE.txt")
    p.set_defaults(func=cmd_run_flexgrip)

    p = sub.add_parser("flexgrip-export", help="write FlexGripPlus testbench files (TP_instructions.vhd, pick_bench.vhd, .mif) for a program")
    p.add_argument("program", help="a program (.sass with directives) or a FlexGripPlus kernel bundle (.txt)")
    p.add_argument("-o", "--output", required=True, help="output directory")
    p.add_argument("--cores", type=int, choices=[8, 16, 32], help="SPs per SM (default: 8, or the bundle's)")
    p.set_defaults(func=cmd_flexgrip_export)

    p = sub.add_parser("roundtrip", help="assemble, disassemble, assemble again and compare the words (make sim)")
    p.add_argument("program", help="SASS program")
    p.add_argument("-o", "--outdir", default="build", help="where NAME.hex, NAME.dis and NAME.rt.hex go (default build)")
    p.set_defaults(func=cmd_roundtrip)

    p = sub.add_parser("coverage-runs", help="programs on the golden model with functional coverage, in parallel (make coverage)")
    p.add_argument("programs", nargs="+", metavar="PROGRAM")
    p.add_argument("-o", "--outdir", required=True, help="NAME.json and NAME.log per program")
    p.add_argument("-j", "--jobs", type=int, default=2, help="programs run at once (default 2)")
    p.add_argument("--isa", default="g80", help=isa_help)
    p.add_argument("--profile", help="semantics: g80 (default) or flexgrip; with --isa lg, seed or ta2013 (default: the program's .profile, else seed)")
    p.add_argument("--no-expect", action="store_true",
                   help="a program without .expect lines is not an error (random programs: lock-step and final memory check them)")
    p.set_defaults(func=cmd_coverage_runs)

    p = sub.add_parser("coverage-report", help="merge coverage files and write HTML, text and UCIS reports")
    p.add_argument("files", nargs="+", metavar="[LABEL=]FILE.json|DIR",
                   help="coverage files (golden run --cov, the testbench), or folders of them; LABEL= names their source "
                        "(directed, random): with two or more labels the report adds each source's figures alone")
    p.add_argument("-o", "--outdir", default="build/coverage/report", help="report directory")
    p.add_argument("--code", metavar="COVERAGE.DAT", help="Verilator code coverage of rtl/ (scripts/rtl_code_coverage.py) to add to the report")
    p.add_argument("--fail-under", type=float, default=None, metavar="PCT", help="exit 1 when overall coverage is below PCT")
    p.set_defaults(func=cmd_coverage_report)

    from .regress_summary import add_arguments

    p = sub.add_parser("regress-summary", help="one-page summary of a lock-step regression (make regress)")
    add_arguments(p)
    p.set_defaults(func=cmd_regress_summary)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return guarded("golden", lambda: int(args.func(args)))


def _script(command: str) -> int:
    return main([command, *sys.argv[1:]])


def asm_main() -> int:
    return _script("asm")


def disasm_main() -> int:
    return _script("disasm")


def check_listing_main() -> int:
    return _script("check-listing")
