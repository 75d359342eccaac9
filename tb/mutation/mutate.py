"""RTL mutants generated from the sources of rtl/, all instrumented into one build.

Where the mutants come from: Verilator parses the SM (`--json-only`, the parser the project
already builds with) and its tree gives, for every expression operator, literal, condition,
assignment and instance port, the exact place in the source (file, line and column of its token).
Nothing is listed by hand and no line number is written anywhere: a new line of rtl/ becomes a
mutation site by being parsed. The text at each place is checked against what the tree says it is
(an operator token, a literal) before it is used, so a location that does not point at plain
source text (a macro expansion, an expression folded from parameters) is left out.

Mutation operators (one change per mutant):
    operator   a binary operator replaced (`+`/`-`, `&`/`|`, `&&`/`||`, `==`/`!=`, `<`/`<=`,
               `<<`/`>>`, ...), or a unary `~`/`!`/`-` removed
    constant   a literal's lowest bit flipped (`5'd3` -> `5'd2`, `1'b0` -> `1'b1`, `4` -> `5`)
    condition  the condition of an `if` or of a `?:` inverted
    drop       a procedural assignment not done
    stuck0/1   a bit (lowest or highest) of a module instance's output stuck at 0 or 1

Runtime selection (one build for all mutants): every changed expression becomes
`(sm_top.mut_sel == K) ? (mutated) : (original)` (several mutants of one expression nest), a
dropped assignment `begin if (sm_top.mut_sel != K) <assignment> end`, and a stuck output goes
through a wire of its own in the parent. `mut_sel` is a register of the top level that nothing in
the design drives: the testbench writes it over VPI before each run (0: the design unchanged), so
one simulator process runs any number of mutants and programs (test_mutation.py). The arms of the
`?:` are context-determined like the expression they replace, so the unmutated arm computes
exactly what the original did.

Positions where Verilog requires a constant (a part-select's range, the width of `+:`, a
replication count, `for` headers) are left out; the instrumented sources are then linted with
Verilator and a mutant whose edit a lint error points at is dropped (the loop repeats until the
build is clean), so the generator needs no Verilog knowledge beyond the tokens it changes.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..faults.sites import _Netlist
from ..runner import ROOT, SM_FILE_LIST, FileList, _environment, read_file_list

TOPLEVEL = "sm_top"
SELECT = "sm_top.mut_sel"  # the runtime mutant id, written by the testbench
SELECT_BITS = 16
KINDS = ("operator", "constant", "condition", "drop", "stuck0", "stuck1")

# binary operator -> its replacement (the closest wrong one: a boundary, the dual, the inverse)
BINARY = {"+": "-", "-": "+", "*": "+", "&": "|", "|": "&", "^": "|", "&&": "||", "||": "&&", "==": "!=", "!=": "==",
          "<": "<=", "<=": "<", ">": ">=", ">=": ">", "<<": ">>", ">>": "<<", ">>>": ">>", "<<<": "<<"}  # fmt: skip
BINARY_NODES = {"ADD", "SUB", "MUL", "MULS", "AND", "OR", "XOR", "LOGAND", "LOGOR", "EQ", "NEQ", "LT", "LTS", "LTE", "LTES", "GT", "GTS",
                "GTE", "GTES", "SHIFTL", "SHIFTR", "SHIFTRS", "EQCASE", "NEQCASE"}  # fmt: skip
UNARY_NODES = {"NOT", "LOGNOT", "NEGATE"}
ASSIGNS = {"ASSIGN", "ASSIGNDLY", "ASSIGNW"}
PROCEDURAL = {"ALWAYS", "FUNC", "TASK"}
LITERAL = re.compile(r"(?:(\d+)?'([sS]?)([bBoOdDhH])([0-9a-fA-F_]+)|(\d+))")


@dataclass(frozen=True)
class Mutant:
    id: int  # 1.. (0 is the unmutated design)
    module: str
    file: str  # relative to the repository root
    line: int  # where the change is, for reading a report (never part of the key)
    kind: str  # one of KINDS
    original: str  # the changed text, before
    mutated: str  # and after
    key: str  # stable identity: module, kind and a digest of the change in its context

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def describe(self) -> str:
        return f"{self.kind} {self.original!r} -> {self.mutated!r}"


@dataclass
class _Context:
    """A span of source that is rewritten as a whole: an assignment's right-hand side, an `if` condition."""

    file: str
    module: str
    start: int
    end: int
    procedural: bool
    stmt: tuple[int, int] | None = None  # the whole assignment statement (for a dropped one)


@dataclass
class _Candidate:
    file: str
    module: str
    kind: str
    line: int
    original: str
    mutated: str
    key: str
    ctx: tuple[int, int] = (0, 0)  # the context span (for stuck: the pin's expression)
    edit: tuple[int, int, str] = (0, 0, "")  # offsets in the file and the new text (within ctx)
    extra: dict = field(default_factory=dict)


def _blank_comments(text: str) -> str:
    """The text with comments and strings replaced by spaces (same length: offsets stay valid)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


OPEN, CLOSE = "([{", ")]}"


def _match(code: str, i: int) -> int:
    """Offset of the bracket closing the one at `i`."""
    depth = 0
    for j in range(i, len(code)):
        c = code[j]
        if c in OPEN:
            depth += 1
        elif c in CLOSE:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unbalanced bracket at offset {i}")


def _balance(code: str, start: int, end: int) -> tuple[int, int]:
    """Widen [start, end) until its brackets balance (a sub-expression whose first operand is parenthesised)."""
    while True:
        depth, low = 0, 0
        for c in code[start:end]:
            if c in OPEN:
                depth += 1
            elif c in CLOSE:
                depth -= 1
                low = min(low, depth)
        if low < 0:  # a closer without its opener: take the opener in
            d, s = 0, start - 1
            while s >= 0:
                c = code[s]
                if c in CLOSE:
                    d += 1
                elif c in OPEN:
                    if d == 0:
                        break
                    d -= 1
                s -= 1
            start = s
            continue
        if depth > 0:  # an opener without its closer
            end = _match(code, _last_unclosed(code, start, end)) + 1
            continue
        return start, end


def _last_unclosed(code: str, start: int, end: int) -> int:
    stack: list[int] = []
    for j in range(start, end):
        if code[j] in OPEN:
            stack.append(j)
        elif code[j] in CLOSE and stack:
            stack.pop()
    return stack[0]


def _terminator(code: str, i: int) -> int:
    """Offset of the `;` that ends the statement going on at `i` (brackets balanced)."""
    depth = 0
    for j in range(i, len(code)):
        c = code[j]
        if c in OPEN:
            depth += 1
        elif c in CLOSE:
            depth -= 1
            if depth < 0:
                return -1  # inside a bracket that closes first: a `for` header's step
        elif c == ";" and depth == 0:
            return j
    return -1


def _for_headers(code: str) -> list[tuple[int, int]]:
    spans = []
    for m in re.finditer(r"\bfor\s*\(", code):
        open_ = m.end() - 1
        spans.append((m.start(), _match(code, open_) + 1))
    return spans


def _constant_position(code: str, start: int, p: int) -> bool:
    """Whether offset p, in an expression starting at `start`, is where Verilog needs a constant:
    a range `[a:b]`, the width of `[base +: w]`, a replication count `{n{...}}`."""
    stack: list[int] = []
    for j in range(start, p):
        c = code[j]
        if c in OPEN:
            stack.append(j)
        elif c in CLOSE and stack:
            stack.pop()
    for b in stack:
        close = _match(code, b)
        depth, k = 0, b + 1
        if code[b] == "[":
            while k < close:
                c = code[k]
                if c in OPEN:
                    depth += 1
                elif c in CLOSE:
                    depth -= 1
                elif c == "?" and depth == 0:
                    break  # a conditional index: no range
                elif c == ":" and depth == 0:
                    indexed = code[k - 1] in "+-"
                    if not indexed or p > k:
                        return True
                    break
                k += 1
        elif code[b] == "{":
            while k < close:
                c = code[k]
                if c in "([" and depth == 0:
                    depth += 1
                elif c in ")]" and depth > 0:
                    depth -= 1
                elif depth == 0 and c in ",}":
                    break
                elif depth == 0 and c == "{":
                    if p < k:
                        return True  # the count of a replication
                    break
                k += 1
    return False


def _flip_literal(text: str) -> str | None:
    m = LITERAL.fullmatch(text)
    if m is None:
        return None
    if m.group(5) is not None:
        return str(int(m.group(5)) ^ 1)
    size, signed, base, digits = m.group(1) or "", m.group(2), m.group(3), m.group(4).replace("_", "")
    radix = {"b": 2, "o": 8, "d": 10, "h": 16}[base.lower()]
    try:
        value = int(digits, radix) ^ 1
    except ValueError:
        return None
    body = {2: f"{value:b}", 8: f"{value:o}", 10: str(value), 16: f"{value:x}"}[radix]
    if radix != 10:
        body = body.zfill(len(digits))
    return f"{size}'{signed}{base}{body}"


def _digest(*parts: str) -> str:
    return hashlib.sha1("\x00".join(parts).encode()).hexdigest()[:10]


def _norm(text: str) -> str:
    return " ".join(text.split())


class _Source:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.rel = str(path.relative_to(ROOT))
        self.text = path.read_text(encoding="utf-8")
        self.code = _blank_comments(self.text)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        self.for_spans = _for_headers(self.code)

    def offset(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col - 1

    def line_of(self, offset: int) -> int:
        lo, hi = 0, len(self.line_starts)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    def lead(self, p: int) -> str:
        """The text of p's line before p (part of a mutant's key)."""
        return self.text[self.line_starts[self.line_of(p) - 1] : p]

    def in_for(self, p: int) -> bool:
        return any(a <= p < b for a, b in self.for_spans)


def _tree(files: FileList) -> tuple[dict, dict]:
    _environment("verilator")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["verilator", "--json-only", "--top-module", TOPLEVEL, "-Mdir", tmp, *(f"-I{d}" for d in files.includes), *map(str, files.sources)]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise RuntimeError(f"verilator --json-only failed:\n{done.stderr[-2000:]}")
        tree = json.loads((Path(tmp) / f"V{TOPLEVEL}.tree.json").read_text(encoding="utf-8"))
        meta = json.loads((Path(tmp) / f"V{TOPLEVEL}.tree.meta.json").read_text(encoding="utf-8"))
    return tree, meta


def _loc(node: dict) -> tuple[str, int, int, int, int] | None:
    loc = node.get("loc")
    if not loc:
        return None
    fid, a, b = loc.split(",")
    la, ca = a.split(":")
    lb, cb = b.split(":")
    return fid, int(la), int(ca), int(lb), int(cb)


def _walk(node: object) -> Iterator[dict]:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if "type" in n:
                yield n
            stack.extend(v for v in n.values() if isinstance(v, (dict, list)))
        elif isinstance(n, list):
            stack.extend(n)


class _Finder:
    """Walks Verilator's tree and collects contexts, sites and stuck-output connections per source file."""

    def __init__(self, tree: dict, meta: dict, files: FileList) -> None:
        wanted = {p.resolve() for p in files.sources if p.parent.resolve() == (ROOT / "rtl").resolve()}
        self.sources: dict[str, _Source] = {}
        for fid, info in meta["files"].items():
            p = (ROOT / info["filename"]).resolve()
            if p in wanted:
                self.sources[fid] = _Source(p)
        self.net = _Netlist(tree)
        self.vars = {n["addr"]: n for n in _walk(tree) if n.get("type") == "VAR"}
        self.contexts: dict[tuple[str, int, int], _Context] = {}
        self.cands: list[_Candidate] = []
        self._seen: set[object] = set()
        self._pending: list[tuple] = []
        for module in tree["modulesp"]:
            if module.get("type") == "MODULE":
                self._module(module)

    # -- spans

    def _span(self, node: dict) -> tuple[_Source, int, int] | None:
        loc = _loc(node)
        if loc is None or loc[0] not in self.sources:
            return None
        src = self.sources[loc[0]]
        return src, src.offset(loc[1], loc[2]), src.offset(loc[3], loc[4])

    def _extent(self, node: dict, src: _Source, lo: int, hi: int) -> tuple[int, int] | None:
        """Source extent of a sub-tree: its tokens' span within [lo, hi), brackets balanced."""
        start, end = None, None
        for n in _walk(node):
            s = self._span(n)
            if s is None or s[0] is not src or not (lo <= s[1] < hi):
                continue
            start = s[1] if start is None else min(start, s[1])
            end = s[2] if end is None else max(end, s[2])
        if start is None or end is None:
            return None
        try:
            a, b = _balance(src.code, start, end)
        except (ValueError, IndexError):
            return None
        return (a, b) if lo <= a and b <= hi else None

    # -- the walk

    def _module(self, module: dict) -> None:
        name = module.get("origName", module["name"])

        def visit(node: object, proc: str | None) -> None:
            if isinstance(node, list):
                for x in node:
                    visit(x, proc)
                return
            if not isinstance(node, dict):
                return
            kind = node.get("type")
            if kind in PROCEDURAL or kind == "INITIAL":
                proc = kind
            if kind in ASSIGNS and proc != "INITIAL":
                self._assignment(node, name, proc in PROCEDURAL)
            elif kind == "IF" and proc in PROCEDURAL:
                self._if(node, name)
            elif kind == "CELL":
                self._cell(node, name)
            for key, value in node.items():
                if isinstance(value, (dict, list)) and key not in ("dtypep", "childDTypep"):
                    visit(value, proc)

        visit(module.get("stmtsp", []), None)
        # sites: operators, literals and `?:` conditions anywhere in this module, kept when inside a context
        for n in _walk(module.get("stmtsp", [])):
            kind = n.get("type")
            if kind in BINARY_NODES or kind in UNARY_NODES or kind == "CONST" or kind == "COND":
                self._site(n, name)

    def _assignment(self, node: dict, module: str, procedural: bool) -> None:
        s = self._span(node)
        if s is None:
            return
        src, a, b = s
        if src.text[a:b] not in ("=", "<=") or src.in_for(a):
            return
        end = _terminator(src.code, b)
        if end < 0:
            return
        stmt = None
        if procedural and node["type"] != "ASSIGNW" and node.get("lhsp"):
            ext = self._extent(node["lhsp"], src, src.line_starts[max(0, src.line_of(a) - 40)], a)
            before = src.code[: ext[0]].rstrip() if ext is not None else ""
            # the left-hand side must start a statement (after `;`, `)`, a case label, begin/else/end)
            if ext is not None and (before.endswith((";", ")", ":")) or re.search(r"\b(begin|else|end)$", before)):
                stmt = (ext[0], end + 1)
        key = (src.rel, b, end)
        if key not in self.contexts:
            self.contexts[key] = _Context(src.rel, module, b, end, procedural, stmt)
            if stmt is not None:
                text = src.text[stmt[0] : stmt[1]]
                self._add(src, module, "drop", stmt[0], text, "(not done)", (b, end), (stmt[0], stmt[1], ""), text)

    def _if(self, node: dict, module: str) -> None:
        s = self._span(node)
        if s is None:
            return
        src, a, b = s
        if src.text[a:b] != "if":
            return
        k = b
        while k < len(src.code) and src.code[k].isspace():
            k += 1
        if k >= len(src.code) or src.code[k] != "(":
            return
        close = _match(src.code, k)
        key = (src.rel, k + 1, close)
        if key not in self.contexts:
            self.contexts[key] = _Context(src.rel, module, k + 1, close, True)
        cond = src.text[k + 1 : close]
        self._add(src, module, "condition", k + 1, cond, f"!({cond.strip()})", (k + 1, close), (k + 1, close, f"!({cond})"), src.lead(k + 1) + cond)

    def _site(self, node: dict, module: str) -> None:
        s = self._span(node)
        if s is None:
            return
        src, a, b = s
        token = src.text[a:b]
        kind = node["type"]
        if kind in BINARY_NODES and token in BINARY:
            self._pending.append((src, module, "operator", a, token, BINARY[token], (a, b, BINARY[token])))
        elif kind in UNARY_NODES and token in ("~", "!", "-") and src.code[b : b + 1] not in ("&", "|", "^", "~"):
            self._pending.append((src, module, "operator", a, token, "", (a, b, "")))
        elif kind == "CONST":
            flipped = _flip_literal(token)
            if flipped is not None and (a == 0 or not (src.code[a - 1].isalnum() or src.code[a - 1] in "_'$")):
                self._pending.append((src, module, "constant", a, token, flipped, (a, b, flipped)))
        elif kind == "COND" and token == "?" and node.get("condp"):
            ctx = self._context_of(src, a)
            if ctx is None:
                return
            ext = self._extent(node["condp"], src, ctx.start, a)
            if ext is None or src.code[ext[1] : a].strip():
                return
            start = ext[0]
            while start > ctx.start and src.code[start - 1] in "~!":  # `~x ? a : b` parses as `x ? b : a`: the text's condition is `~x`
                start -= 1
            ext = (start, ext[1])
            cond = src.text[ext[0] : ext[1]]
            self._pending.append((src, module, "condition", ext[0], cond, f"!({cond.strip()})", (ext[0], ext[1], f"!({cond})")))

    def _context_of(self, src: _Source, p: int) -> _Context | None:
        best = None
        for (f, a, b), ctx in self.contexts.items():
            if f == src.rel and a <= p < b and (best is None or b - a < best.end - best.start):
                best = ctx
        return best

    def resolve(self) -> None:
        """Keep the sites that lie in a context, away from constant positions and `for` headers."""
        for src, _module, kind, a, original, mutated, edit in self._pending:
            ctx = self._context_of(src, a)
            if ctx is None or src.in_for(a) or _constant_position(src.code, ctx.start, a):
                continue
            text = src.text[ctx.start : ctx.end]
            marked = text[: edit[0] - ctx.start] + "\u27e8" + text[edit[0] - ctx.start : edit[1] - ctx.start] + "\u27e9" + text[edit[1] - ctx.start :]
            marked = src.lead(ctx.start) + marked  # `x =` or `if (`: the same change in another statement is another mutant
            self._add(src, ctx.module, kind, a, original, mutated, (ctx.start, ctx.end), edit, marked)
        self._pending = []

    def _add(self, src: _Source, module: str, kind: str, at: int, original: str, mutated: str, ctx: tuple[int, int], edit: tuple[int, int, str],
             marked: str, extra: dict | None = None) -> None:  # fmt: skip
        ident = (src.rel, kind, edit)
        if ident in self._seen:
            return
        self._seen.add(ident)
        key = f"{module}:{kind}:{_digest(_norm(marked), mutated)}"
        self.cands.append(_Candidate(src.rel, module, kind, src.line_of(at), _norm(original), _norm(mutated), key, ctx, edit, extra or {}))

    def _cell(self, node: dict, parent: str) -> None:
        """Output ports of an instance connected to a plain signal: stuck-at mutants of their lowest and highest bit."""
        s = self._span(node)
        if s is None:
            return
        src, a, b = s
        if src.text[a:b] != node["name"]:
            return
        mod_name = node.get("modName", "")
        found = list(re.finditer(rf"\b{re.escape(mod_name)}\b", src.code[:a]))
        if not found:
            return
        m = found[-1]
        insert = src.line_starts[src.line_of(m.start()) - 1]
        for pin in node.get("pinsp", []):
            var = self.vars.get(pin.get("modVarp", ""))
            expr = pin.get("exprp") or []
            if var is None or var.get("direction") != "OUTPUT" or len(expr) != 1 or expr[0].get("type") != "VARREF":
                continue
            ps, es = self._span(pin), self._span(expr[0])
            if ps is None or es is None:
                continue
            ident = expr[0]["name"]
            _, ea, eb = es
            if src.text[ea:eb] != ident or src.code[ps[1] - 1 : ps[1]] != ".":
                continue
            try:
                width, words, _ = self.net.shape(expr[0]["dtypep"])
            except (KeyError, ValueError):
                continue
            if words != 1:
                continue
            for bit in sorted({0, width - 1}):
                for stuck in (0, 1):
                    tag = f"{node['name']}.{pin['name']}[{bit}]"
                    key = f"{parent}:stuck{stuck}:{tag}"
                    if key in self._seen:
                        continue
                    self._seen.add(key)
                    self.cands.append(_Candidate(src.rel, parent, f"stuck{stuck}", src.line_of(ea), f"{tag} ({ident})", f"stuck at {stuck}", key, (ea, eb),
                                                 (ea, eb, ident), {"ident": ident, "width": width, "bit": bit, "stuck": stuck, "insert": insert}))  # fmt: skip


def candidates(file_list: Path = SM_FILE_LIST) -> list[_Candidate]:
    """Every mutant the sources allow, in a stable order (file, position, kind)."""
    files = read_file_list(file_list)
    tree, meta = _tree(files)
    f = _Finder(tree, meta, files)
    f.resolve()
    cands = sorted(f.cands, key=lambda c: (c.file, c.edit[0], c.kind, c.edit[1], c.mutated))
    seen: dict[str, int] = {}
    for c in cands:  # the same change in the same text twice in a module (`if (rst)`): numbered in source order
        seen[c.key] = seen.get(c.key, 0) + 1
        if seen[c.key] > 1:
            c.key = f"{c.key}#{seen[c.key]}"
    return cands


def _rank(seed: int, key: str) -> str:
    return hashlib.sha256(f"{seed}:{key}".encode()).hexdigest()


def sample(cands: list[_Candidate], n: int, seed: int) -> list[_Candidate]:
    """n candidates, spread over the kinds (each kind gets its share of the candidates, at least a
    few), drawn with `seed`; all of them when n is 0 or at least their number."""
    if n <= 0 or n >= len(cands):
        return list(cands)
    by_kind: dict[str, list[_Candidate]] = {}
    for c in cands:
        by_kind.setdefault(c.kind, []).append(c)
    share = {k: max(min(len(v), 8), round(n * len(v) / len(cands))) for k, v in by_kind.items()}
    while sum(share.values()) > n:  # the minimums pushed it over: take from the largest
        k = max(share, key=lambda x: share[x])
        share[k] -= 1
    while sum(share.values()) < n:  # rounding left it short: give to the kind with the most left over
        k = max(share, key=lambda x: len(by_kind[x]) - share[x])
        share[k] += 1
    # each kind's candidates ranked by a hash of (seed, key), not by a generator over their list:
    # the draw depends only on the keys, so after an RTL change a candidate whose statement did not
    # change stays drawn (unless its kind's share shrank or new keys rank before it), and the ones
    # that replace vanished keys are the next in the same ranking (campaign.py resumes on that)
    chosen = [c for k, v in by_kind.items() for c in sorted(v, key=lambda c: _rank(seed, c.key))[: share[k]]]
    return sorted(chosen, key=lambda c: (c.file, c.edit[0], c.kind, c.edit[1], c.mutated))


def _guard(k: int) -> str:
    return f"({SELECT} == {SELECT_BITS}'d{k})"


def instrument(chosen: list[_Candidate], out_dir: Path, file_list: Path = SM_FILE_LIST) -> tuple[list[Mutant], FileList]:
    """Write the sources with every chosen mutant behind its id (ids 1.. in the given order) into
    out_dir; returns the mutants and the file list of the instrumented design."""
    files = read_file_list(file_list)
    out_dir.mkdir(parents=True, exist_ok=True)
    mutants = [Mutant(i + 1, c.module, c.file, c.line, c.kind, c.original, c.mutated, c.key) for i, c in enumerate(chosen)]
    per_file: dict[str, list[tuple[int, _Candidate]]] = {}
    for m, c in zip(mutants, chosen, strict=True):
        per_file.setdefault(c.file, []).append((m.id, c))
    sources = []
    for path in files.sources:
        rel = str(path.relative_to(ROOT))
        text = path.read_text(encoding="utf-8")
        text = _rewrite(text, per_file.get(rel, []))
        if path.stem == TOPLEVEL:
            text = _declare_select(text)
        dest = out_dir / path.name
        dest.write_text(text, encoding="utf-8")
        sources.append(dest)
    return mutants, FileList(tuple(sources), files.includes)


def _declare_select(text: str) -> str:
    """The mutant id register, at the end of the top level (nothing in the design drives it)."""
    pos = text.rfind("endmodule")
    decl = (f"    // mutation campaign (tb/mutation): the mutant id, written by the testbench; 0 = the design unchanged\n"
            f"    reg [{SELECT_BITS - 1}:0] mut_sel /* verilator public_flat_rw */;\n")  # fmt: skip
    return text[:pos] + decl + text[pos:]


def _rewrite(text: str, items: list[tuple[int, _Candidate]]) -> str:
    """Apply the mutants of one file: per context one nested `?:`, dropped statements wrapped, stuck outputs through a wire."""
    edits: list[tuple[int, int, str]] = []  # non-overlapping (start, end, text)
    contexts: dict[tuple[int, int], list[tuple[int, _Candidate]]] = {}
    drops: dict[tuple[int, int], list[tuple[int, _Candidate]]] = {}
    stuck: dict[tuple[int, int], list[tuple[int, _Candidate]]] = {}
    for k, c in items:
        if c.kind == "drop":
            drops.setdefault((c.edit[0], c.edit[1]), []).append((k, c))
        elif c.kind.startswith("stuck"):
            stuck.setdefault(c.ctx, []).append((k, c))
        else:
            contexts.setdefault(c.ctx, []).append((k, c))

    def guarded(span: tuple[int, int]) -> str:
        a, b = span
        base = text[a:b]
        arms = []
        for k, c in contexts.get(span, []):
            s, e, new = c.edit
            arms.append(f"{_guard(k)} ? ({text[a:s]}{new}{text[e:b]}) : ")
        return f" ({''.join(arms)}({base.strip()}))" if arms else base

    used: set[tuple[int, int]] = set()
    for (s, e), ds in drops.items():
        inner = [span for span in contexts if s <= span[0] and span[1] <= e]
        body = text[s:e]
        for span in sorted(inner, reverse=True):
            body = body[: span[0] - s] + guarded(span) + body[span[1] - s :]
            used.add(span)
        conds = " && ".join(f"{SELECT} != {SELECT_BITS}'d{k}" for k, _ in ds)
        edits.append((s, e, f"begin if ({conds}) {body} end"))
    for span in contexts:
        if span not in used:
            edits.append((span[0], span[1], guarded(span)))
    inserts: dict[int, list[str]] = {}
    for (a, b), ss in stuck.items():
        c0 = ss[0][1]
        ident, width, insert = c0.extra["ident"], c0.extra["width"], c0.extra["insert"]
        wire = f"{ident}__mut"
        value = wire
        for k, c in reversed(ss):
            mask = 1 << c.extra["bit"]
            forced = f"({wire} | {width}'h{mask:x})" if c.extra["stuck"] else f"({wire} & ~{width}'h{mask:x})"
            value = f"{_guard(k)} ? {forced} : {value}"
        # the wire takes the signal's width at the parameters of the build ($bits), not the width the
        # tree gave at the default ones (`width`, which names the mutant's top bit in its key): a bus of
        # NUM_SP x 32 bits is 1,024 wide at NUM_SP 32. The masks are sized at `width`; in the wider
        # context of the expression Verilog extends them with zeros before `~`, so the upper bits pass.
        inserts.setdefault(insert, []).append(f"    wire [$bits({ident}) - 1:0] {wire};  // tb/mutation: stuck bits of {ident}\n"
                                              f"    assign {ident} = {value};\n")  # fmt: skip
        edits.append((a, b, wire))
    for pos, lines in inserts.items():
        edits.append((pos, pos, "".join(lines)))
    edits.sort(key=lambda x: (x[0], x[1]))
    for (s1, e1, _), (s2, _, _) in itertools.pairwise(edits):
        if s2 < e1:
            raise ValueError(f"overlapping mutation edits at offsets {s1} and {s2}")
    for s, e, new in reversed(edits):
        text = text[:s] + new + text[e:]
    return text


_LINT_ERROR = re.compile(r"%Error[^:]*: ([^:\s]+):(\d+):")


def lint_errors(files: FileList) -> list[tuple[str, int]]:
    """(file name, line) of each error Verilator reports on the instrumented design."""
    _environment("verilator")
    cmd = ["verilator", "--lint-only", "-Wno-fatal", "--top-module", TOPLEVEL, *(f"-I{d}" for d in files.includes), *map(str, files.sources)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    errors = [(Path(m.group(1)).name, int(m.group(2))) for m in _LINT_ERROR.finditer(done.stderr)]
    if done.returncode != 0 and not errors:
        raise RuntimeError(f"verilator --lint-only failed on the instrumented design:\n{done.stderr[-2000:]}")
    return errors


def generate(out_dir: Path, n: int = 300, seed: int = 1, file_list: Path = SM_FILE_LIST) -> tuple[list[Mutant], FileList, list[dict]]:
    """Candidates from the sources, n of them drawn with the seed, instrumented into out_dir and
    linted; mutants a lint error points at are dropped (returned as the third element, with the error's line)."""
    chosen = sample(candidates(file_list), n, seed)
    dropped: list[dict] = []
    for _ in range(20):
        mutants, files = instrument(chosen, out_dir, file_list)
        errors = lint_errors(files)
        if not errors:
            return mutants, files, dropped
        bad = set()
        for name, line in errors:
            text = (out_dir / name).read_text(encoding="utf-8").splitlines()
            row = text[line - 1] if 0 < line <= len(text) else ""
            bad |= {int(k) for k in re.findall(rf"{re.escape(SELECT)} [!=]= {SELECT_BITS}'d(\d+)", row)}
        if not bad:
            raise RuntimeError(f"lint errors in the instrumented design that name no mutant: {errors[:5]} (see {out_dir})")
        dropped += [{**mutants[k - 1].to_dict(), "reason": "does not compile"} for k in sorted(bad)]
        chosen = [c for i, c in enumerate(chosen) if i + 1 not in bad]
    raise RuntimeError(f"the instrumented design still does not lint after 20 rounds (see {out_dir})")
