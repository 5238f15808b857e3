"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Swiss pairing uses it as an oracle: "can the players still unpaired all be paired without a
rematch (or with as few as possible)?". Vertices are any hashable ids; the graph is given by
a `neighbours` function so that callers need not build it. A matching is a dict
{vertex: mate} holding both directions of every matched edge.

The search from one free root is the classic BFS over an alternating tree that contracts
odd cycles (blossoms) into their base. Edmonds' theorem makes one pass over the free roots
enough: a root with no augmenting path never gets one later. Deleting one vertex frees
only its mate, so a maximum matching of what is left needs at most one search, from that
mate; `delete_vertices` repairs a matching after several deletions one vertex at a time.
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


def delete_vertices(
    mate: dict[V, V],
    gone: Iterable[V],
    vertices: Sequence[V],
    neighbours: Neighbours,
    at_most: int | None = None,
) -> dict[V, V]:
    """A maximum matching of the graph without `gone`, from a maximum matching `mate` of it.

    `at_most` is a bound on the answer's size the caller may know. Any augmenting path left
    ends at a freed mate (else `mate` had one), but one search can match two freed mates to
    each other where matching each to a vertex that was free all along gains an edge more,
    and no search starts from those. So searching from each freed mate is enough only while
    a single edge can be missing; otherwise the vertices go one at a time, each leaving a
    single free vertex to search from.
    """
    order = list(dict.fromkeys(gone))  # the caller's order, so the result is deterministic
    kept = _without(mate, order)
    if at_most is not None and len(kept) // 2 + 1 >= at_most:
        # One edge at most to win back: the first freed mate with an augmenting path settles it.
        alive = [v for v in vertices if v not in order]
        inside = _restricted(neighbours, set(order))
        for g in order:
            if g in mate and mate[g] not in order and len(kept) // 2 < at_most:
                augment(mate[g], alive, inside, kept)
        return kept
    left = dict(mate)
    deleted: set[V] = set()
    for g in order:
        deleted.add(g)
        partner = left.pop(g, None)
        if partner is None:
            continue
        del left[partner]
        if partner in order:
            # Both ends of an edge of a maximum matching: the rest stays maximum (the best
            # matching without them has one edge fewer, else `mate` had an augmenting path).
            deleted.add(partner)
            continue
        alive = [v for v in vertices if v not in deleted]
        augment(partner, alive, _restricted(neighbours, deleted), left)
    return left


def _without(mate: dict[V, V], gone: Sequence[V]) -> dict[V, V]:
    return {v: w for v, w in mate.items() if v not in gone and w not in gone}


def _restricted(neighbours: Neighbours, deleted: set) -> Neighbours:
    return lambda v: [w for w in neighbours(v) if w not in deleted]


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
