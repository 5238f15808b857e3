"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Swiss pairing uses it as an oracle: "can the players still unpaired all be paired without a
rematch (or with as few as possible)?". Graphs handed to it are small (the fast Dirac test in
swiss.py covers large remainders), so the simple O(V^3) formulation is enough.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def maximum_matching(adjacency: Sequence[Sequence[int]]) -> list[int]:
    """Return mate[v] (or -1) for a maximum matching of the graph on vertices 0..n-1."""
    n = len(adjacency)
    mate = [-1] * n
    # A greedy start leaves only a few augmentations to find.
    for v in range(n):
        if mate[v] == -1:
            for w in adjacency[v]:
                if mate[w] == -1 and w != v:
                    mate[v], mate[w] = w, v
                    break
    for root in range(n):
        if mate[root] == -1:
            _augment_from(root, adjacency, mate)
    return mate


def matching_size(adjacency: Sequence[Sequence[int]]) -> int:
    return sum(1 for v, w in enumerate(maximum_matching(adjacency)) if w > v)


def _augment_from(root: int, adjacency: Sequence[Sequence[int]], mate: list[int]) -> bool:
    """Search one augmenting path from the free vertex `root`; flip it if found."""
    n = len(adjacency)
    parent = [-1] * n
    base = list(range(n))
    in_tree = [False] * n  # "even" (outer) vertices of the alternating tree
    in_tree[root] = True
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for w in adjacency[v]:
            if base[v] == base[w] or mate[v] == w:
                continue
            if w == root or (mate[w] != -1 and parent[mate[w]] != -1):
                # v and w are both outer: an odd cycle, contract it into its base.
                _contract(v, w, base, parent, mate, in_tree, queue)
            elif parent[w] == -1:
                parent[w] = v
                if mate[w] == -1:
                    _flip(w, parent, mate)
                    return True
                in_tree[mate[w]] = True
                queue.append(mate[w])
    return False


def _contract(v, w, base, parent, mate, in_tree, queue) -> None:
    n = len(base)
    lca = _common_base(v, w, base, parent, mate)
    in_blossom = [False] * n
    _mark_path(v, lca, w, base, parent, mate, in_blossom)
    _mark_path(w, lca, v, base, parent, mate, in_blossom)
    for u in range(n):
        if in_blossom[base[u]]:
            base[u] = lca
            if not in_tree[u]:
                in_tree[u] = True
                queue.append(u)


def _common_base(a, b, base, parent, mate) -> int:
    seen = [False] * len(base)
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark_path(v, lca, child, base, parent, mate, in_blossom) -> None:
    while base[v] != lca:
        in_blossom[base[v]] = True
        in_blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _flip(v: int, parent: list[int], mate: list[int]) -> None:
    while v != -1:
        pv = parent[v]
        next_v = mate[pv]
        mate[v], mate[pv] = pv, v
        v = next_v
