"""A Swiss event played round after round with random (seeded) results, for the tests."""

from __future__ import annotations

import random
from collections import Counter

from tournaments.pairing import Pair, Result, SwissPlayer, swiss_pair


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
