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
assignment in a process (a loop variable, a temporary whose sampled value need not be the one the
index used), an operation this evaluator does not know, or a use of the whole array, and the
array has no shortcut at all (its faults are simulated as by the cocotb engine). An access counts
whether or not its process or its consumer uses it (a conditional read, a write whose enable is
low): more simulated faults, never a wrong shortcut.
"""

from __future__ import annotations

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
        self.accesses: dict[str, list[dict]] = {}  # array var addr -> index nodes of its accesses
        self.whole: set[str] = set()  # array var addrs used without an index
        for stmt in module.get("stmtsp", []):
            self._visit(stmt, "", False)

    def _visit(self, node: dict, prefix: str, in_process: bool) -> None:
        kind = node.get("type")
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
                self.accesses.setdefault(target["varp"], []).extend(node.get("bitp", []))
                for child in node.get("bitp", []):
                    self._visit(child, prefix, in_process)
                return
        elif kind == "VARREF":
            self.whole.add(node["varp"])  # a reference outside an ARRAYSEL's array position
        for child in _children(node):
            self._visit(child, prefix, in_process)

    def width(self, node: dict) -> int:
        return self.net.shape(node["dtypep"])[0]

    def expr(self, node: dict, prefix: str) -> Expr:
        kind = node.get("type")
        if kind == "CONST":
            return ("const", _const(node["name"]))
        if kind == "VARREF":
            if node["varp"] in self.blocking:
                raise NotEvaluable(f"{node['name']} is assigned by a blocking assignment in a process")
            if node["varp"] not in self.names:
                raise NotEvaluable(f"{node['name']} is not a variable of the module")
            return ("sig", prefix + self.names[node["varp"]])
        one = lambda key: self.expr(node[key][0], prefix)  # noqa: E731
        width = self.width(node)
        if kind == "SEL":
            if "widthConst" not in node:
                raise NotEvaluable("a part select of variable width")
            return ("sel", int(node["widthConst"]), one("fromp"), one("lsbp"))
        if kind in ("EXTEND", "CCAST"):
            return ("mask", width, one("lhsp"))
        if kind in ("ADD", "SUB", "MUL", "SHIFTL", "SHIFTR", "AND", "OR", "XOR"):
            return (kind.lower(), width, one("lhsp"), one("rhsp"))
        if kind == "CONCAT":
            return ("concat", width, one("lhsp"), one("rhsp"), self.width(node["rhsp"][0]))
        raise NotEvaluable(f"operation {kind} in an index")


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
                out[prefix + name] = tuple(m.expr(node, prefix) for node in m.accesses.get(addr, []))
            except NotEvaluable:
                out[prefix + name] = None
        for name, addr in cells:
            walk(net.modules[addr], f"{prefix}{name}.")

    walk(top, "")
    return out
