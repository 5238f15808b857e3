"""Brute-force oracles for small fields, independent of the code under test."""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def perfect_matchings(items: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def fewest_rematches(
    ids: Sequence[int], played: set[frozenset[int]], bye_candidates: Sequence[int]
) -> int:
    """Minimum rematches over every pairing (and every allowed bye for odd fields)."""
    byes = list(bye_candidates) if len(ids) % 2 else [None]
    best = len(ids)
    for bye in byes:
        rest = [i for i in ids if i != bye]
        for matching in perfect_matchings(rest):
            best = min(best, sum(frozenset(p) in played for p in matching))
            if best == 0:
                return 0
    return best


def max_matching_size(n: int, edges: set[frozenset[int]]) -> int:
    best = 0

    def grow(v: int, used: frozenset[int], size: int) -> None:
        nonlocal best
        best = max(best, size)
        if v >= n or size + (n - v) // 2 <= best:
            return
        if v not in used:
            for w in range(v + 1, n):
                if w not in used and frozenset((v, w)) in edges:
                    grow(v + 1, used | {v, w}, size + 1)
        grow(v + 1, used, size)

    grow(0, frozenset(), 0)
    return best
