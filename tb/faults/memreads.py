"""Where the large arrays of the RTL are indexed, from the design itself (Verilator's netlist), for
the memory-word shortcut of the fast engine (tb/faults/test_campaign.py, "Memory words").

A fault in a word of a large array (shared, constant, instruction memory) can reach the rest of
the design only through an access that selects that word. Every `array[index]` of such an array in
the RTL (reads and writes, in continuous assignments and in processes, but not in `initial`
blocks, which run before the kernel) is turned here into an expression of signals that the
fault-free run samples (twice a cycle) to know which words were selected at which cycles. A word
no access selects from the injection cycle on keeps the fault to itself until the end of the run:
the faulty run is then the fault-free run with one stored bit different, and its outcome is known
without simulating it.

The expressions are kept conservative: an index that uses a variable assigned by a blocking
assignment in a process (a temporary whose sampled value need not be the one the index used), an
operation this evaluator does not know, or a use of the whole array, and the array has no shortcut
at all (its faults are simulated as by the cocotb engine). The one blocking variable an index may
use is the counter of an enclosing `for` loop with constant bounds that its body does not assign
(the shared memory's row fills and per-lane stores): the access is then one expression for each of
the counter's values, every word the loop may select. An access counts whether or not its process
or its consumer uses it (a conditional read, a write whose enable is low, every iteration of a
loop): more simulated faults, never a wrong shortcut.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

from .sites import TOPLEVEL, _children, _Netlist, _span, _tree

LARGE = 4096  # words: an array at least this large is not re-read at a checkpoint but for its faulted word, and has the shortcut
Expr = tuple  # ("const", value) | ("sig", path) | (operation, width, operands...)


class NotEvaluable(ValueError):
    pass


def _const(name: str) -> int:
    """A Verilator constant's value from its name: 32'h2, 1'b1, 8'sh7f."""
    if "'" not in name:
        return int(name)
    _, _, digits = name.partition("'")
    digits = digits.lstrip("s")
    base = {"h": 16, "b": 2, "d": 10, "o": 8}[digits[0]]
    text = digits[1:].replace("_", "")
    if any(c in "xXzZ?" for c in text):
        raise NotEvaluable(f"constant {name} has x/z bits")
    return int(text, base)


class _Module:
    """One module's variables, the array accesses in it and the variables its processes assign with blocking assignments."""

    def __init__(self, net: _Netlist, module: dict) -> None:
        self.net = net
        self.names: dict[str, str] = {}  # var addr -> prefix + name
        self.blocking: set[str] = set()  # var addrs assigned by `=` in a process
        self.accesses: dict[str, list[tuple[dict, dict[str, range]]]] = {}  # array var addr -> (index node, enclosing loops' counters)
        self.whole: set[str] = set()  # array var addrs used without an index
        self.loops: dict[str, range] = {}  # the counters of the loops being visited: var addr -> its values
        self.wires: dict[str, dict] = {}  # var addr -> the right-hand side of its continuous assignment to the whole variable
        self.drivers: dict[str, int] = {}  # var addr -> the assignments that write it (or might: every variable of a compound left-hand side)
        self.inlining: set[str] = set()
        for stmt in module.get("stmtsp", []):
            self._visit(stmt, "", False)

    def _loop(self, init: dict | None, loop: dict) -> tuple[str, range] | None:
        """The counter and its values of a `for` loop as Verilator writes it (an assignment of a
        constant to the counter just before a LOOP whose first statement tests it against a
        constant and whose last adds or takes one), when its body does not assign the counter too."""
        stmts = loop.get("stmtsp", [])
        if init is None or init.get("type") != "ASSIGN" or len(stmts) < 2:
            return None
        try:
            start, var = init["rhsp"][0], init["lhsp"][0]
            test, step = stmts[0]["condp"][0], stmts[-1]
            if start["type"] != "CONST" or var["type"] != "VARREF" or stmts[0]["type"] != "LOOPTEST" or step.get("type") != "ASSIGN":
                return None
            counter = var["varp"]
            bound, tested = test["lhsp"][0], test["rhsp"][0]
            if bound["type"] != "CONST" or tested.get("varp") != counter or step["lhsp"][0].get("varp") != counter:
                return None
            first, limit, change = _const(start["name"]), _const(bound["name"]), step["rhsp"][0]
            operands = [change.get("lhsp", [{}])[0], change.get("rhsp", [{}])[0]]
            one = [o for o in operands if o.get("type") == "CONST" and _const(o["name"]) == 1]
            if not one or not any(o.get("varp") == counter for o in operands):
                return None
            if test["type"] == "GTS" and change["type"] == "ADD":  # limit > counter, counter + 1
                values = range(first, limit)
            elif test["type"] == "LTES" and change["type"] == "SUB" and operands[0].get("varp") == counter:  # limit <= counter, counter - 1
                values = range(limit, first + 1)
            else:
                return None
        except (KeyError, IndexError, NotEvaluable):
            return None
        stack = [s for s in stmts[1:-1]]
        while stack:  # the body must not assign the counter
            n = stack.pop()
            if n.get("type") in ("ASSIGN", "ASSIGNDLY") and _target(n["lhsp"][0]) in (counter, None):
                return None
            stack.extend(_children(n))
        return counter, values

    def _visit(self, node: dict, prefix: str, in_process: bool) -> None:
        kind = node.get("type")
        if (kind or "").startswith("ASSIGN") and node.get("lhsp"):  # every kind of assignment counts as a driver
            lhs = node["lhsp"][0]
            for target in {_target(lhs)} if _target(lhs) is not None else {r["varp"] for r in _refs([lhs])}:
                self.drivers[target] = self.drivers.get(target, 0) + 1
            if kind == "ASSIGNW" and lhs.get("type") == "VARREF":
                self.wires[lhs["varp"]] = node["rhsp"][0]
        if in_process and kind == "BEGIN":
            stmts = node.get("stmtsp", [])
            for i, stmt in enumerate(stmts):  # a loop's counter is known where the loop's statements are visited
                counted = self._loop(stmts[i - 1] if i else None, stmt) if stmt.get("type") == "LOOP" else None
                if counted is not None and counted[0] not in self.loops:
                    self.loops[counted[0]] = counted[1]
                    self._visit(stmt, prefix, in_process)
                    del self.loops[counted[0]]
                else:
                    self._visit(stmt, prefix, in_process)
            for child in _children({k: v for k, v in node.items() if k != "stmtsp"}):
                self._visit(child, prefix, in_process)
            return
        if kind == "GENBLOCK" and not node.get("implied"):
            prefix = f"{prefix}{node['name']}."
        elif kind == "VAR":
            self.names[node["addr"]] = prefix + node["name"]
        elif kind == "CELL":
            return  # another module's body: its own _Module
        elif kind == "INITIAL" or kind == "INITIALSTATIC":
            return  # runs before the kernel
        elif kind == "ALWAYS":
            in_process = node.get("keyword") != "cont_assign"
        elif kind == "ASSIGN" and in_process:
            stack = list(node.get("lhsp", []))
            while stack:
                n = stack.pop()
                if n.get("type") == "VARREF":
                    self.blocking.add(n["varp"])
                stack.extend(_children(n))
        elif kind == "ARRAYSEL":
            target = (node.get("fromp") or [{}])[0]
            if target.get("type") == "VARREF":
                self.accesses.setdefault(target["varp"], []).extend((index, dict(self.loops)) for index in node.get("bitp", []))
                for child in node.get("bitp", []):
                    self._visit(child, prefix, in_process)
                return
        elif kind == "VARREF":
            self.whole.add(node["varp"])  # a reference outside an ARRAYSEL's array position
        for child in _children(node):
            self._visit(child, prefix, in_process)

    def width(self, node: dict) -> int:
        return self.net.shape(node["dtypep"])[0]

    def exprs(self, node: dict, prefix: str, loops: dict[str, range]) -> list[Expr]:
        """The index `node` as expressions of signals: one, or one for each value of the loop
        counters it uses (`loops`: the counters of the loops around it)."""
        used = sorted({r["varp"] for r in _refs([node]) if r.get("varp") in loops})
        return [self.expr(node, prefix, dict(zip(used, values, strict=True))) for values in itertools.product(*(loops[u] for u in used))]

    def expr(self, node: dict, prefix: str, counters: dict[str, int] | None = None) -> Expr:
        kind = node.get("type")
        if kind == "CONST":
            return ("const", _const(node["name"]))
        if kind == "VARREF":
            if counters and node["varp"] in counters:
                return ("const", counters[node["varp"]])
            wire = node["varp"]
            if wire in self.wires and self.drivers.get(wire) == 1 and wire not in self.inlining:
                # a wire with one continuous assignment is its right-hand side (at every sample,
                # taken in the read-only phase): fewer signals to read, the array's own inputs
                self.inlining.add(wire)
                try:
                    return ("mask", self.width(node), self.expr(self.wires[wire], prefix, counters))
                except NotEvaluable:
                    pass  # the wire itself then, as any signal
                finally:
                    self.inlining.discard(wire)
            if node["varp"] in self.blocking:
                raise NotEvaluable(f"{node['name']} is assigned by a blocking assignment in a process")
            if node["varp"] not in self.names:
                raise NotEvaluable(f"{node['name']} is not a variable of the module")
            return ("sig", prefix + self.names[node["varp"]])
        one = lambda key: self.expr(node[key][0], prefix, counters)  # noqa: E731
        width = self.width(node)
        if kind == "SEL":
            if "widthConst" not in node:
                raise NotEvaluable("a part select of variable width")
            return ("sel", int(node["widthConst"]), one("fromp"), one("lsbp"))
        if kind in ("EXTEND", "CCAST"):
            return ("mask", width, one("lhsp"))
        if kind in ("ADD", "SUB", "MUL", "SHIFTL", "SHIFTR", "AND", "OR", "XOR"):
            return (kind.lower(), width, one("lhsp"), one("rhsp"))
        if kind == "MULS":  # a product's low `width` bits are the same signed or unsigned
            return ("mul", width, one("lhsp"), one("rhsp"))
        if kind == "CONCAT":
            return ("concat", width, one("lhsp"), one("rhsp"), self.width(node["rhsp"][0]))
        raise NotEvaluable(f"operation {kind} in an index")


def _target(node: dict) -> str | None:
    """The variable an assignment's left-hand side writes (through its selects), None if not plain."""
    while node.get("type") in ("SEL", "ARRAYSEL"):
        node = node["fromp"][0]
    return node.get("varp") if node.get("type") == "VARREF" else None


def _refs(nodes: list) -> list[dict]:
    """The VARREF nodes in `nodes` and below them."""
    out, stack = [], list(nodes)
    while stack:
        n = stack.pop()
        if n.get("type") == "VARREF":
            out.append(n)
        stack.extend(_children(n))
    return out


def evaluate(e: Expr, read) -> int:
    """The value of an index expression, `read(path)` giving a signal's value."""
    op = e[0]
    if op == "const":
        return e[1]
    if op == "sig":
        return read(e[1])
    if op == "sel":
        return evaluate(e[2], read) >> evaluate(e[3], read) & ((1 << e[1]) - 1)
    mask = (1 << e[1]) - 1
    if op == "mask":
        return evaluate(e[2], read) & mask
    a, b = evaluate(e[2], read), evaluate(e[3], read)
    if op == "concat":
        return (a << e[4] | b) & mask
    value = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "shiftl": lambda: a << b, "shiftr": lambda: a >> b,
             "and": lambda: a & b, "or": lambda: a | b, "xor": lambda: a ^ b}[op]()  # fmt: skip
    return value & mask


_OPERATORS = {"add": "+", "sub": "-", "mul": "*", "shiftl": "<<", "shiftr": ">>", "and": "&", "or": "|", "xor": "^"}


def _source(e: Expr, slot: dict[str, int]) -> str:
    """`e` as a Python expression of the list `v` of its signals' values (`slot`: a signal's place in it), as `evaluate` computes it."""
    op = e[0]
    if op == "const":
        return str(e[1])
    if op == "sig":
        return f"v[{slot.setdefault(e[1], len(slot))}]"
    mask = (1 << e[1]) - 1
    if op == "sel":
        return f"(({_source(e[2], slot)} >> {_source(e[3], slot)}) & {mask})"
    if op == "mask":
        return f"({_source(e[2], slot)} & {mask})"
    if op == "concat":
        return f"((({_source(e[2], slot)} << {e[4]}) | {_source(e[3], slot)}) & {mask})"
    return f"(({_source(e[2], slot)} {_OPERATORS[op]} {_source(e[3], slot)}) & {mask})"


def compiled(es: tuple[Expr, ...] | list) -> tuple[Callable[[list[int]], tuple[int, ...]], list[str]]:
    """One function computing every index of `es` at once from the values of its signals (the
    returned list of paths, in the order the function takes them). A fault task's recording run
    samples all of an array's indices twice a cycle: the shared memory's loops make it hundreds,
    which one compiled expression computes at a small fraction of `evaluate`'s cost."""
    slot: dict[str, int] = {}
    body = ", ".join(_source(tuple(e), slot) for e in es)
    fn = eval(compile(f"lambda v: ({body}{',' if es else ''})", "<index expressions>", "eval"))  # the source is built here from the netlist's operators alone
    return fn, list(slot)


@cache
def index_expressions(defines: tuple[str, ...], parameters: tuple[tuple[str, object], ...], min_words: int) -> dict[str, tuple[Expr, ...] | None]:
    """For every array of at least `min_words` words, by its path under the top level: the index
    expressions of all its accesses, or None when one of them cannot be evaluated (no shortcut)."""
    net = _Netlist(_tree(defines, parameters))
    top = next((m for m in net.modules.values() if m.get("origName") == TOPLEVEL and m.get("level") == 1), None)
    if top is None:
        raise RuntimeError(f"no top module {TOPLEVEL} in Verilator's netlist")
    parsed: dict[str, _Module] = {}
    out: dict[str, tuple[Expr, ...] | None] = {}

    def walk(module: dict, prefix: str) -> None:
        m = parsed.setdefault(module["addr"], _Module(net, module))
        state, cells = net.module_state(module)
        by_name = {name: addr for addr, name in m.names.items()}
        for name, dtype in state:
            _, words, _ = net.shape(dtype)
            addr = by_name.get(name)
            if words < min_words or addr is None:
                continue
            try:
                d = net.dtypes[dtype]
                if d["type"] != "UNPACKARRAYDTYPE" or _span(d["declRange"])[0] != words:
                    raise NotEvaluable("not a one-dimensional array")  # an index selects a row of words, not one
                if addr in m.whole:
                    raise NotEvaluable("the whole array is used")
                out[prefix + name] = tuple(e for node, loops in m.accesses.get(addr, []) for e in m.exprs(node, prefix, loops))
            except NotEvaluable:
                out[prefix + name] = None
        for name, addr in cells:
            walk(net.modules[addr], f"{prefix}{name}.")

    walk(top, "")
    return out
