"""Pairing test helpers: brute-force oracles for small fields, independent of the code under
test, and a Swiss event played round after round with random (seeded) results."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from tournaments.pairing import Pair, Result, SwissPlayer, swiss_pair

# --- brute-force oracles for small fields --------------------------------------------


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


# --- a Swiss event with seeded results --------------------------------------------------


class Simulation:
    def __init__(self, n: int, seed: int) -> None:
        self.ids = list(range(101, 101 + n))
        self.rng = random.Random(seed)
        self.score = dict.fromkeys(self.ids, 0)
        self.played: set[frozenset[int]] = set()
        self.had_bye: set[int] = set()
        self.dealt_first: Counter[int] = Counter()
        self.results: list[Result] = []
        # Who floated in the last round, worked out here independently of floats.py.
        self.floated_down: set[int] = set()
        self.floated_up: set[int] = set()

    def field(self) -> list[SwissPlayer]:
        order = sorted(self.ids, key=lambda p: (-self.score[p], p))
        return [SwissPlayer(id=p, score=self.score[p], rank=r) for r, p in enumerate(order, 1)]

    def pair(self) -> list[Pair]:
        return swiss_pair(
            players=self.field(),
            played=self.played,
            had_bye=self.had_bye,
            dealt_first=dict(self.dealt_first),
            results=self.results,
        )

    def play(self, pairs: list[Pair]) -> None:
        number = len({r.round for r in self.results}) + 1
        before = dict(self.score)
        self.floated_down, self.floated_up = set(), set()
        for pair in pairs:
            if pair.second is None:
                self.had_bye.add(pair.first)
                self.score[pair.first] += 1
                self.floated_down.add(pair.first)
                self.results.append(Result(number, pair.first, None, pair.first))
                continue
            a, b = pair.players
            if before[a] != before[b]:
                high, low = (a, b) if before[a] > before[b] else (b, a)
                self.floated_down.add(high)
                self.floated_up.add(low)
            self.played.add(frozenset(pair.players))
            self.dealt_first[pair.first] += 1
            winner = self.rng.choice(pair.players)
            self.score[winner] += 1
            self.results.append(Result(number, a, b, winner))


def cheapest_matching(items: Sequence[int], cost) -> tuple[int, ...]:
    """The least total cost (a tuple, compared in order) of a perfect matching of `items`
    (an even number, at most ~16): a dynamic programme over the players still unpaired."""
    from functools import cache

    items = list(items)
    n = len(items)

    @cache
    def best(mask: int) -> tuple[int, ...]:
        if mask == (1 << n) - 1:
            return ()
        i = next(b for b in range(n) if not mask >> b & 1)
        options = []
        for j in range(i + 1, n):
            if not mask >> j & 1:
                rest = best(mask | 1 << i | 1 << j)
                here = cost(items[i], items[j])
                options.append(
                    tuple(x + y for x, y in zip(here, rest or (0,) * len(here), strict=True))
                )
        return min(options)

    return best(0) if n else ()
