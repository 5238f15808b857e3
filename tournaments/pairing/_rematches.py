"""The rematch oracle the Swiss search consults: how many fresh pairs can players still make?

Kept apart from `swiss` and `_brackets` because both need it (the search asks it before
every pair, `swiss` builds it and chooses the bye with it); each imports it from here.
Its guarantee and the Dirac shortcut are described in `swiss` (step 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing._matching import delete_vertices, maximum_matching


class RematchOracle:
    """Answers "how many non-rematch pairs can these players still make at best?".

    Large remainders are settled by Dirac's bound. Small ones keep a maximum matching of
    the "have not met" graph per remainder; removing one or two players repairs the
    parent's matching by searching from the partners those players leave behind.
    """

    CACHE_LIMIT = 2_000  # matchings kept; a cache, so clearing it only costs time

    def __init__(self, ids: Sequence[int], played: set[frozenset[int]]) -> None:
        present = set(ids)
        self.opponents: dict[int, set[int]] = {i: set() for i in ids}
        for meeting in played:
            if len(meeting) == 2 and meeting <= present:
                a, b = meeting
                self.opponents[a].add(b)
                self.opponents[b].add(a)
        most = max((len(s) for s in self.opponents.values()), default=0)
        # Dirac: min degree >= k/2 in the not-met graph whenever k >= 2 * most + 2.
        self.dirac_size = 2 * most + 2
        self._matchings: dict[frozenset[int], dict[int, int]] = {}

    def allowed(self, a: int, b: int) -> bool:
        return b not in self.opponents[a]

    def nu(self, remaining: set[int] | frozenset[int]) -> int:
        if len(remaining) >= self.dirac_size:
            return len(remaining) // 2
        return len(self._matching(frozenset(remaining))) // 2

    def nu_without(self, remaining: set[int] | frozenset[int], *gone: int) -> int:
        left = len(remaining) - len(gone)
        if left >= self.dirac_size:
            return left // 2
        parent_key = frozenset(remaining)
        key = parent_key.difference(gone)
        if key not in self._matchings:
            self._remember(key, self._repair(parent_key, gone))
        return len(self._matchings[key]) // 2

    def keeps_optimum(self, remaining: set[int], a: int, b: int) -> bool:
        """Pairing a with b keeps the fewest rematches the field can have.

        The players left over must then make one non-rematch pair fewer after a fresh pair,
        and as many as before after a rematch (possible only where one is needed anyway)."""
        if self.allowed(a, b):
            return self.nu_without(remaining, a, b) == self.nu(remaining) - 1
        if not self.rematch_needed(remaining):
            return False
        return self.nu_without(remaining, a, b) == self.nu(remaining)

    def rematch_needed(self, remaining: set[int] | frozenset[int]) -> bool:
        """Can these players (an even number) not all be paired without a rematch?"""
        return self.nu(remaining) < len(remaining) // 2

    def _neighbours(self, group: frozenset[int]):
        opponents = self.opponents
        return lambda v: [w for w in group if w != v and w not in opponents[v]]

    def _matching(self, group: frozenset[int]) -> dict[int, int]:
        if group not in self._matchings:
            order = sorted(group)
            self._remember(group, maximum_matching(order, self._neighbours(group)))
        return self._matchings[group]

    def _repair(self, parent_key: frozenset[int], gone: Sequence[int]) -> dict[int, int]:
        parent = self._matching(parent_key)
        # Removing players never adds an edge to the best matching; a pair that could meet
        # takes one away.
        meet = len(gone) == 2 and self.allowed(*gone)
        freed = sorted(parent[g] for g in gone if g in parent and parent[g] not in gone)
        if meet and len(freed) == 2 and self.allowed(*freed):
            # Pairing the two partners it leaves behind loses only that one: no search needed.
            kept = {v: w for v, w in parent.items() if v not in gone and w not in gone}
            kept[freed[0]], kept[freed[1]] = freed[1], freed[0]
            return kept
        best = len(parent) // 2 - (1 if meet else 0)
        order = sorted(parent_key)
        return delete_vertices(parent, gone, order, self._neighbours(parent_key), at_most=best)

    def _remember(self, group: frozenset[int], matching: dict[int, int]) -> None:
        if len(self._matchings) >= self.CACHE_LIMIT:
            self._matchings.clear()
        self._matchings[group] = matching
