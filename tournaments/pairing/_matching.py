"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Swiss pairing uses it as an oracle: "can the players still unpaired all be paired without a
rematch (or with as few as possible)?". Vertices are any hashable ids; the graph is given by
a `neighbours` function so that callers need not build it. A matching is a dict
{vertex: mate} holding both directions of every matched edge.

The search from one free root is the classic BFS over an alternating tree that contracts
odd cycles (blossoms) into their base. Edmonds' theorem makes one pass over the free roots
enough: a root with no augmenting path never gets one later. The same fact lets callers
repair a maximum matching after deleting a few vertices by searching only from the
vertices whose mates were deleted (`augment`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

V = TypeVar("V", bound=Hashable)
Neighbours = Callable[[V], Iterable[V]]


def maximum_matching(
    vertices: Sequence[V], neighbours: Neighbours, start: dict[V, V] | None = None
) -> dict[V, V]:
    """A maximum matching; `start` (a valid matching) is extended, not modified."""
    mate: dict[V, V] = dict(start) if start else {}
    if start is None:
        # A greedy start leaves only a few augmentations to find.
        for v in vertices:
            if v not in mate:
                for w in neighbours(v):
                    if w not in mate and w != v:
                        mate[v], mate[w] = w, v
                        break
    for root in vertices:
        if root not in mate:
            augment(root, vertices, neighbours, mate)
    return mate


def matching_size(vertices: Sequence[V], neighbours: Neighbours) -> int:
    return len(maximum_matching(vertices, neighbours)) // 2


def augment(root: V, vertices: Sequence[V], neighbours: Neighbours, mate: dict[V, V]) -> bool:
    """Find one augmenting path from the free vertex `root` and flip it (in place)."""
    if root in mate:
        return False
    parent: dict[V, V] = {}
    base = {v: v for v in vertices}
    outer = {root}  # even vertices of the alternating tree
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for w in neighbours(v):
            if base[v] == base[w] or mate.get(v) == w:
                continue
            if w == root or (w in mate and mate[w] in parent):
                # v and w are both outer: an odd cycle, contract it into its base.
                _contract(v, w, vertices, base, parent, mate, outer, queue)
            elif w not in parent:
                parent[w] = v
                if w not in mate:
                    _flip(w, parent, mate)
                    return True
                outer.add(mate[w])
                queue.append(mate[w])
    return False


def _contract(v, w, vertices, base, parent, mate, outer, queue) -> None:
    lca = _common_base(v, w, base, parent, mate)
    in_blossom: set = set()
    _mark_path(v, lca, w, base, parent, mate, in_blossom)
    _mark_path(w, lca, v, base, parent, mate, in_blossom)
    for u in vertices:
        if base[u] in in_blossom:
            base[u] = lca
            if u not in outer:
                outer.add(u)
                queue.append(u)


def _common_base(a, b, base, parent, mate):
    seen = set()
    while True:
        a = base[a]
        seen.add(a)
        if a not in mate:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if b in seen:
            return b
        b = parent[mate[b]]


def _mark_path(v, lca, child, base, parent, mate, in_blossom) -> None:
    while base[v] != lca:
        in_blossom.add(base[v])
        in_blossom.add(base[mate[v]])
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _flip(v, parent, mate) -> None:
    while True:
        pv = parent[v]
        next_v = mate.get(pv)
        mate[v], mate[pv] = pv, v
        if next_v is None:
            return
        v = next_v
