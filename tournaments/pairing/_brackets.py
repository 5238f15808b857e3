"""Pairing score brackets one after another, top down (steps 3 and 5 of `swiss`).

A bracket is a list of player ids: the floaters from above first (`n_floaters` of them, best
score first), then the group's residents in rank order. The search pairs bracket[0] with a
partner or floats it down, then goes on with the rest, trying partners in order of
preference, so the first complete answer it finds is the preferred one. Every pair must keep
the rematch optimum of the players still unpaired (`oracle.keeps_optimum`), which is what
makes the rematch guarantee global; a rematch passes only where the field cannot avoid that
many anyway, and is tried after every fresh partner. `remaining` (the players still
unpaired) is shared with the oracle and updated in place.

Repeated floats are costs counted as the search goes: a resident floated out of its bracket
who floated down last round, and the lower-scored player of a pair across scores who floated
up last round. Limits on those counts prune the search; `_refine` lowers them one step at a
time until no pairing fits, and keeps the last one that did.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain

from tournaments.pairing._rematches import RematchOracle
from tournaments.pairing.floats import Floats

# Backtracking steps allowed per bracket before falling back to the greedy pass (which keeps
# the global no-avoidable-rematch guarantee and only loses some in-group preference); the
# search for fewer repeated floats gets as many again, and keeps its best answer so far.
SEARCH_BUDGET_BASE = 2_000
SEARCH_BUDGET_PER_PLAYER = 20

Found = tuple[list[tuple[int, int]], list[int]]  # pairs made, players floated down


@dataclass(frozen=True)
class History:
    """Scores now and last round's floats: what a choice costs in repeated floats."""

    score: dict[int, float]
    floats: Floats

    def choice(self, bracket: list[int], n_floaters: int, j: int) -> tuple[int, int]:
        """(down, up) repeats of pairing bracket[0] with bracket[j] (j < 0: floating it)."""
        x = bracket[0]
        if j < 0:
            # A floater from above floating on was counted when it left its own group.
            return (0 if n_floaters or x not in self.floats.down else 1), 0
        return 0, self.up(x, bracket[j])

    def rest(self, bracket: list[int], n_floaters: int) -> int:
        """Down repeats of floating all of `bracket` (no more pairs wanted)."""
        return sum(1 for p in bracket[n_floaters:] if p in self.floats.down)

    def found(self, found: Found, residents: set[int]) -> tuple[int, int]:
        pairs, floated = found
        down = sum(1 for p in floated if p in residents and p in self.floats.down)
        return down, sum(self.up(a, b) for a, b in pairs)

    def up(self, a: int, b: int) -> int:
        """1 if the pair floats up a player who floated up last round."""
        if self.score[a] == self.score[b]:
            return 0
        low = b if self.score[a] > self.score[b] else a
        return 1 if low in self.floats.up else 0


@dataclass(frozen=True)
class _Limits:
    down: float
    up: float
    # How many floaters from above of each score may float on: as many as in the preferred
    # pairing, so the players floated out are never higher-scored than there.
    may_float_on: Counter[float]


class _OutOfBudget(Exception):
    pass


def pair_score_groups(
    groups: Sequence[list[int]], remaining: set[int], oracle: RematchOracle, history: History
) -> list[tuple[int, int]]:
    """Pair the groups (best first) in turn: everyone, as `remaining` is even.

    The last bracket holds everyone still unpaired, and whoever comes first in it always has
    a partner that keeps the optimum (its partner in a maximum matching of the "have not
    met" graph, or, if it has none, another player left out of it: an unavoidable rematch).
    So its search (or the greedy pass) pairs the whole bracket and nobody is left over."""
    matched: list[tuple[int, int]] = []
    floaters: list[int] = []
    for group in groups:
        bracket = floaters + group
        pairs, floaters = _pair_bracket(bracket, len(floaters), remaining, oracle, history)
        matched += pairs
    assert not floaters, "the last bracket pairs everyone"
    return matched


def _budget(bracket: list[int]) -> list[int]:
    return [SEARCH_BUDGET_BASE + SEARCH_BUDGET_PER_PLAYER * len(bracket)]


def _pair_bracket(
    bracket: list[int],
    n_floaters: int,
    remaining: set[int],
    oracle: RematchOracle,
    history: History,
) -> Found:
    """Pair as many of the bracket as possible; the rest float down. Mutates `remaining`."""
    budget = _budget(bracket)
    found = None
    for need in range(len(bracket) // 2, -1, -1):
        try:
            found = _search(bracket, n_floaters, need, remaining, oracle, budget)
        except _OutOfBudget:
            break
        if found is not None:
            break
    if found is None:
        found = _greedy(bracket, n_floaters, remaining, oracle)
    return _refine(found, bracket, n_floaters, remaining, oracle, history)


def _refine(
    found: Found,
    bracket: list[int],
    n_floaters: int,
    remaining: set[int],
    oracle: RematchOracle,
    history: History,
) -> Found:
    """The preferred pairing with the fewest repeated floats (down, then up) and as much else."""
    residents = set(bracket[n_floaters:])
    down, up = history.found(found, residents)
    if not down and not up:
        return found
    pairs, floated = found
    from_above = set(bracket[:n_floaters])
    may_float_on = Counter(history.score[p] for p in floated if p in from_above)
    budget = _budget(bracket)
    best = found
    _release(pairs, remaining)

    def fewest(limits: list[_Limits]) -> None:
        """The first of `limits`, tightest first, that a pairing of the bracket meets."""
        nonlocal best
        for limit in limits:
            better = _search(
                bracket, n_floaters, len(pairs), remaining, oracle, budget, limit, history
            )
            if better is not None:
                best = better
                _release(better[0], remaining)
                return

    try:
        fewest([_Limits(down=n, up=float("inf"), may_float_on=may_float_on) for n in range(down)])
        down, up = history.found(best, residents)
        fewest([_Limits(down=down, up=n, may_float_on=may_float_on) for n in range(up)])
    except _OutOfBudget:
        pass
    remaining.difference_update(p for pair in best[0] for p in pair)
    return best


def _release(pairs: list[tuple[int, int]], remaining: set[int]) -> None:
    remaining.update(p for pair in pairs for p in pair)


def _options(
    bracket: list[int],
    n_floaters: int,
    need: int,
    remaining: set[int],
    oracle: RematchOracle,
    fits: Callable[[int], bool] | None = None,
) -> Iterator[int]:
    """Partners for bracket[0] by preference (indices), then -1 for "float it down".

    Where the players left cannot avoid a rematch, a rematch may keep the optimum (and then
    avoid a float); it comes after every fresh partner."""
    x = bracket[0]
    order: Iterator[int] = _preference(bracket, n_floaters)
    if oracle.rematch_needed(remaining):
        fresh = (j for j in order if oracle.allowed(x, bracket[j]))
        again = (j for j in _preference(bracket, n_floaters) if not oracle.allowed(x, bracket[j]))
        order = chain(fresh, again)
    for j in order:
        if (fits is None or fits(j)) and oracle.keeps_optimum(remaining, x, bracket[j]):
            yield j
    if len(bracket) - 1 >= 2 * need and (fits is None or fits(-1)):
        yield -1


def _preference(bracket: list[int], n_floaters: int) -> Iterator[int]:
    if n_floaters:
        # A floater meets the highest resident first, then the other floaters.
        return chain(range(n_floaters, len(bracket)), range(1, n_floaters))
    half = max(len(bracket) // 2, 1)  # never bracket[0] itself
    return chain(range(half, len(bracket)), range(half - 1, 0, -1))


def _step(bracket: list[int], n_floaters: int, j: int) -> tuple[list[int], int]:
    if j < 0:
        return bracket[1:], max(n_floaters - 1, 0)
    lost = (1 if n_floaters else 0) + (1 if j < n_floaters else 0)
    return bracket[1:j] + bracket[j + 1 :], n_floaters - lost


def _search(
    bracket: list[int],
    n_floaters: int,
    need: int,
    remaining: set[int],
    oracle: RematchOracle,
    budget: list[int],
    limits: _Limits | None = None,
    history: History | None = None,
) -> Found | None:
    """Depth-first search (iterative: brackets can hold thousands) for `need` pairs.

    With `limits` (and `history`), only pairings within the limits on repeated floats count.
    """
    pairs: list[tuple[int, int]] = []
    floated: list[int] = []
    used = [0, 0]  # repeated (down, up) floats of the choices on the stack
    floated_on: Counter[float] = Counter()  # scores of the floaters from above floated on
    # frame: [bracket, n_floaters, need, options, last choice or None, its cost or None]
    frames: list[list] = []

    def undo(frame: list) -> None:
        choice = frame[4]
        if choice is None:
            return
        if choice >= 0:
            x, y = pairs.pop()
            remaining.add(x)
            remaining.add(y)
        else:
            p = floated.pop()
            if frame[1] and history is not None:
                floated_on[history.score[p]] -= 1
        if frame[5] is not None:
            used[0] -= frame[5][0]
            used[1] -= frame[5][1]
        frame[4] = frame[5] = None

    def fits_for(b: list[int], nf: int) -> Callable[[int], bool] | None:
        if limits is None or history is None:
            return None
        room_down, room_up = limits.down - used[0], limits.up - used[1]

        def fits(j: int) -> bool:
            if j < 0 and nf and not room_on(b[:1]):
                return False
            down, up = history.choice(b, nf, j)
            return down <= room_down and up <= room_up

        return fits

    def room_on(players: list[int]) -> bool:
        """May these floaters from above float on, after those already floated on?"""
        assert limits is not None and history is not None
        more = Counter(history.score[p] for p in players)
        return all(floated_on[s] + k <= limits.may_float_on[s] for s, k in more.items())

    def complete(b: list[int], nf: int) -> bool:
        """May the rest of the bracket all float down?"""
        if limits is None or history is None:
            return True
        if not room_on(b[:nf]):
            return False
        return used[0] + history.rest(b, nf) <= limits.down

    current = (bracket, n_floaters, need)
    try:
        while True:
            b, nf, k = current
            if k == 0 and complete(b, nf):
                return pairs, floated + b
            if k and len(b) >= 2 * k:
                options = _options(b, nf, k, remaining, oracle, fits_for(b, nf))
                frames.append([b, nf, k, options, None, None])
            while True:
                if not frames:
                    return None
                frame = frames[-1]
                undo(frame)
                budget[0] -= 1
                if budget[0] < 0:
                    raise _OutOfBudget
                j = next(frame[3], None)
                if j is None:
                    frames.pop()
                    continue
                fb, fnf, fk = frame[0], frame[1], frame[2]
                frame[4] = j
                if history is not None and limits is not None:
                    cost = history.choice(fb, fnf, j)
                    frame[5] = cost
                    used[0] += cost[0]
                    used[1] += cost[1]
                if j >= 0:
                    pairs.append((fb[0], fb[j]))
                    remaining.discard(fb[0])
                    remaining.discard(fb[j])
                    current = (*_step(fb, fnf, j), fk - 1)
                else:
                    floated.append(fb[0])
                    if fnf and history is not None:
                        floated_on[history.score[fb[0]]] += 1
                    current = (*_step(fb, fnf, j), fk)
                break
    except _OutOfBudget:
        while frames:
            undo(frames.pop())
        raise


def _greedy(
    bracket: list[int], n_floaters: int, remaining: set[int], oracle: RematchOracle
) -> Found:
    pairs: list[tuple[int, int]] = []
    floated: list[int] = []
    while bracket:
        j = next(_options(bracket, n_floaters, 0, remaining, oracle))
        if j >= 0:
            pairs.append((bracket[0], bracket[j]))
            remaining.discard(bracket[0])
            remaining.discard(bracket[j])
        else:
            floated.append(bracket[0])
        bracket, n_floaters = _step(bracket, n_floaters, j)
    return pairs, floated
