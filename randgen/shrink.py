"""Delta debugging of a failing generated program, on its tree (randgen/generator.py).

Every candidate is a program tree derived from the failing one by a change that keeps it legal:
smaller launch (blocks, threads per dimension), chunks of items removed (halves, quarters, ...,
single items: delta debugging over instructions and structures), a control structure replaced by
its body (if/else, loops; a BRK left without its loop goes too), a loop's trip-count mask lowered,
a subroutine emptied, an exchange or early exit removed. A candidate is kept when it still fails
the same way (`same`, e.g. the same failure kind and differing fields); the search repeats until no
candidate is kept or the budget of runs is spent.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from .generator import Break, Diverge, Exchange, If, Loop, Op, Prog, Skip

Path_ = tuple
# The lists a tree item holds, as (attribute, list) pairs: an ISA's program tree tells the walk
# below which of its structures have bodies. Every ISA's tree has `main` and `subs` lists of items.
Children = Callable[[Any], Iterator[tuple[str, list]]]


def walk(items: list, path: Path_, children: Children) -> Iterator[tuple[Path_, list]]:
    """(path, list) of `items` and of every list nested in them, outermost first."""
    yield path, items
    for i, it in enumerate(items):
        for attr, inner in children(it):
            yield from walk(inner, (*path, i, attr), children)


def tree_lists(p: Any, children: Children) -> Iterator[tuple[Path_, list]]:
    """Every list of a program tree: the main body's, then each subroutine's."""
    yield from walk(p.main, ("main",), children)
    for j, sub in enumerate(p.subs):
        yield from walk(sub, ("subs", j), children)


def get_list(p: Any, path: Path_) -> list:
    """The list at `path` (as `walk` names it) in a program tree."""
    if path[0] == "main":
        items, rest = p.main, path[1:]
    else:
        items, rest = p.subs[path[1]], path[2:]
    while rest:
        i, attr = rest[0], rest[1]
        items = getattr(items[i], attr)
        rest = rest[2:]
    return items


def edited(p: Any, path: Path_, fn: Callable[[list], list | None]) -> Any:
    """A copy of the tree with the list at `path` replaced by `fn` of its copy; None when `fn` gives None."""
    q = copy.deepcopy(p)
    items = get_list(q, path)
    new = fn(items)
    if new is None:
        return None
    items[:] = new
    return q


def chunk_spans(n: int) -> Iterator[tuple[int, int]]:
    """(start, length) of every chunk of n items, largest first: the whole, halves, quarters, ...,
    single items (the deletions of delta debugging)."""
    chunk = n
    while chunk >= 1:
        for start in range(0, n, chunk):
            yield start, chunk
        chunk //= 2


def without_chunks(p: Any, children: Children) -> Iterator[Any]:
    """The tree with one chunk of one of its lists removed, for each list and chunk in turn."""
    for path, items in list(tree_lists(p, children)):
        for start, chunk in chunk_spans(len(items)):
            yield edited(p, path, lambda xs, s=start, c=chunk: xs[:s] + xs[s + c :])


def items_size(p: Any, children: Children, op: type) -> int:
    """The tree's items, an `op` one and a structure two: what the shrinker minimises."""
    return sum(1 if isinstance(it, op) else 2 for _, items in tree_lists(p, children) for it in items)


def _children(it: object) -> Iterator[tuple[str, list]]:
    if isinstance(it, If):
        yield "then", it.then
        yield "els", it.els
    elif isinstance(it, Loop | Skip | Diverge):
        yield "body", it.body


def all_lists(p: Prog) -> Iterator[tuple[Path_, list]]:
    return tree_lists(p, _children)


def size(p: Prog) -> int:
    """Instructions of the random part (Op items and structures), what the shrinker minimises."""
    return items_size(p, _children, Op)


def _flatten(it: object) -> list | None:
    if isinstance(it, If):
        return [*it.then, *it.els]
    if isinstance(it, Loop):
        return [x for x in it.body if not isinstance(x, Break)]
    if isinstance(it, Skip | Diverge):
        return list(it.body)
    return None


def candidates(p: Prog) -> Iterator[Prog]:
    # the launch first: fewer blocks and threads make every later run quicker
    if p.grid != (1, 1):
        yield replace(p, grid=(1, 1))
        yield replace(p, grid=(max(1, p.grid[0] // 2), max(1, p.grid[1] // 2)))
    bx, by, bz = p.block
    for blk in [(1, 1, 1), (min(bx, 32), 1, 1), (max(1, bx // 2), by, bz), (bx, max(1, by // 2), bz), (bx, by, max(1, bz // 2))]:
        if blk != p.block and blk[0] * blk[1] * blk[2] < p.nthreads:
            yield replace(p, block=blk)
    if p.dump:
        yield replace(p, dump=False)
    if p.back:
        yield replace(p, back=False)
    if p.last_ssy:
        yield replace(p, last_ssy=False)
    for j, sub in enumerate(p.subs):
        if sub:
            q = copy.deepcopy(p)
            q.subs[j] = []
            yield q
    # chunks of each list, largest first (delta debugging)
    yield from without_chunks(p, _children)
    # structures replaced by their bodies, loops with fewer trips
    for path, items in list(all_lists(p)):
        for i, it in enumerate(items):
            flat = _flatten(it)
            if flat is not None:
                yield edited(p, path, lambda xs, i=i, f=flat: xs[:i] + copy.deepcopy(f) + xs[i + 1 :])  # type: ignore[misc]
            if isinstance(it, Loop) and it.mask:
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], mask=xs[i].mask >> 1), *xs[i + 1:]])  # type: ignore[misc]
            if isinstance(it, Exchange) and (it.bars or it.ssy):  # the plain BAR.ARV.WAIT, no SSY around it
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], bars=None, ssy=0), *xs[i + 1:]])  # type: ignore[misc]
            if isinstance(it, If) and it.join is not None:
                yield edited(p, path, lambda xs, i=i: [*xs[:i], replace(xs[i], join=None), *xs[i + 1:]])  # type: ignore[misc]


def shrink(p: Any, fails: Callable[[Any], bool], budget: int = 200, log: Callable[[str], None] = lambda s: None,
           first_failing: Callable[[list[Any]], int | None] | None = None, chunk: int = 8,
           edits: Callable[[Any], Iterator[Any]] | None = None, measure: Callable[[Any], int] | None = None) -> tuple[Any, int]:
    """The smallest failing tree found, and the number of candidate runs it took.

    With `first_failing` (the index of the first of a list of candidates that fails the same way, or
    None), candidates are tried `chunk` at a time: one simulator process for several candidates
    (randgen/__main__.py runs them in a batch, then confirms the failing one alone).
    `edits` and `measure` are another ISA's candidates and size (randgen/isa.py); G80's by default:
    the search itself knows nothing of the tree."""
    edits = candidates if edits is None else edits
    measure = size if measure is None else measure
    runs = 0
    progress = True
    while progress and runs < budget:
        progress = False
        pending = (q for q in edits(p) if q is not None)
        while runs < budget:
            group = [q for _, q in zip(range(min(chunk if first_failing else 1, budget - runs)), pending, strict=False)]
            if not group:
                break
            if first_failing is None:
                hit = 0 if fails(group[0]) else None
            else:
                hit = first_failing(group)
            runs += len(group) if hit is None else hit + 1
            if hit is not None:
                q = group[hit]
                shape = f", {q.nblocks} blocks of {q.nthreads} threads" if isinstance(q, Prog) else ""
                log(f"  shrink: {measure(p)} -> {measure(q)} items{shape} (run {runs})")
                p = q
                progress = True
                break
    return p, runs
