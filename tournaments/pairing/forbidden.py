"""Forbidden pairs: players an organiser has marked as never to meet (one household, a team).

What each format does with them:
- Swiss (`swiss_pair_avoiding`): no forbidden pair meets while any pairing of the round (with
  a legal bye) avoids them all. First it pairs as `swiss_pair` does, counting a forbidden pair
  like a rematch: if that pairing meets no forbidden pair, it is the pairing with the fewest
  rematches that meets none, with every Swiss criterion as usual. Only if it does meet one
  (possible only where the round cannot be paired without rematches or forbidden pairs at
  all), the round is paired again with the forbidden pairs as the only pairs to avoid (the
  fewest forbidden pairs possible, normally none), then partners are swapped between boards
  to take away rematches where a swap meets no more forbidden pairs. That pairing may then
  hold more than the fewest rematches, and its score groups may mix more: forbidden pairs
  come first. Where no pairing avoids them all, the answer says so (`forbidden_unavoidable`,
  and `forbidden_met` names the pairs), with as few as possible.
- Knockout and double elimination, first round (`knockout_first_round_avoiding`): the
  standard bracket if it meets no forbidden pair. Otherwise the players of the first round
  (byes stay with the top seeds) are paired best seed first: each takes its standard
  opponent, else the standard opponent of whoever took theirs (a swap of two opponents),
  else the available player whose seed is nearest to its standard opponent's; always
  keeping a pairing of the rest with the fewest forbidden pairs possible (none when any
  exists). Each match keeps its better seed's standard slot where it can. Later rounds
  follow the bracket: the pairs are not checked there. `forbidden_unavoidable` as for Swiss.
- Round robin (`round_robin.round_robin_rounds`): everyone meets everyone, so a forbidden
  pair inside the field is refused (`ForbiddenPairInRoundRobinError`).

A forbidden pair is any two-player collection of ids; pairs naming someone outside the field
are ignored.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain

from tournaments.pairing._rematches import RematchOracle
from tournaments.pairing.knockout import knockout_first_round
from tournaments.pairing.pair import Pair
from tournaments.pairing.standings import Result
from tournaments.pairing.swiss import SwissPlayer, swiss_pair

ForbiddenPairs = Iterable[Collection[int]]


class ForbiddenPairInRoundRobinError(ValueError):
    code = "forbidden_pair_in_round_robin"

    def __init__(self, pairs: Collection[frozenset[int]]) -> None:
        named = sorted(sorted(p) for p in pairs)
        super().__init__(f"round robin: everyone meets everyone, so {named} would meet")
        self.pairs = tuple(sorted(pairs, key=sorted))


@dataclass(frozen=True)
class Pairing:
    """A round's pairs and the forbidden pairs it could not avoid (normally none)."""

    pairs: list[Pair]
    forbidden_met: tuple[frozenset[int], ...] = ()

    @property
    def forbidden_unavoidable(self) -> bool:
        return bool(self.forbidden_met)


def forbidden_within(forbidden: ForbiddenPairs, field: Collection[int]) -> set[frozenset[int]]:
    """The forbidden pairs whose two players are both in the field."""
    present = set(field)
    out = set()
    for pair in forbidden:
        pair = frozenset(pair)
        if len(pair) == 2 and pair <= present:
            out.add(pair)
    return out


def met(pairs: Iterable[Pair], forbidden: Collection[frozenset[int]]) -> tuple[frozenset[int], ...]:
    """The forbidden pairs these boards make, in board order."""
    return tuple(
        frozenset(p.players)
        for p in pairs
        if p.second is not None and frozenset(p.players) in forbidden
    )


def swiss_pair_avoiding(
    *,
    players: Sequence[SwissPlayer],
    played: set[frozenset[int]],
    had_bye: set[int],
    forbidden: ForbiddenPairs,
    dealt_first: dict[int, int] | None = None,
    results: Sequence[Result] = (),
    bye_points: str = "win",
) -> Pairing:
    """`swiss_pair` that keeps forbidden pairs apart (module docstring)."""
    bad = forbidden_within(forbidden, [p.id for p in players])

    def pair(avoid: set[frozenset[int]]) -> list[Pair]:
        return swiss_pair(
            players=players,
            played=avoid,
            had_bye=had_bye,
            dealt_first=dealt_first,
            results=results,
            bye_points=bye_points,
        )

    if not bad:
        return Pairing(pair(played))
    first = pair(set(played) | bad)
    if not met(first, bad):
        return Pairing(first)
    second = _fewer_rematches(pair(bad), played, bad)
    best = min((first, second), key=lambda pairs: (len(met(pairs, bad)), _rematches(pairs, played)))
    return Pairing(best, met(best, bad))


def knockout_first_round_avoiding(seeded_ids: Sequence[int], forbidden: ForbiddenPairs) -> Pairing:
    """`knockout_first_round` that keeps forbidden pairs apart (module docstring)."""
    standard = knockout_first_round(seeded_ids)
    bad = forbidden_within(forbidden, seeded_ids)
    if not met(standard, bad):
        return Pairing(standard)
    seed = {p: s for s, p in enumerate(seeded_ids, 1)}
    by_seed = {s: p for p, s in seed.items()}
    matches = [p for p in standard if p.second is not None]
    opponent: dict[int, int] = {}
    for m in matches:
        assert m.second is not None
        opponent[m.first], opponent[m.second] = m.second, m.first
    playing = sorted(opponent, key=seed.__getitem__)
    oracle = RematchOracle(playing, bad)
    remaining = set(playing)
    made: list[tuple[int, int]] = []
    vacated: dict[int, int] = {}  # player -> the standard opponent of whoever took theirs
    for x in playing:
        if x not in remaining:
            continue
        preferred = [opponent[x], *([vacated[x]] if x in vacated else [])]
        nearest = (by_seed[s] for s in _nearest(seed[opponent[x]], len(seeded_ids)))
        y = next(
            y
            for y in chain(preferred, nearest)
            if y != x and y in remaining and oracle.keeps_optimum(remaining, x, y)
        )
        if y != opponent[x]:
            # y's standard opponent may take x's, which closes the swap.
            vacated[opponent[y]] = opponent[x]
        remaining.difference_update((x, y))
        made.append((x, y))
    slots: list[Pair | None] = [None] * len(matches)
    owner = {m.first: i for i, m in enumerate(matches)}
    leftovers = []
    for x, y in made:
        if x in owner and slots[owner[x]] is None:
            slots[owner[x]] = Pair(first=x, second=y)
        else:
            leftovers.append(Pair(first=x, second=y))
    free = iter(leftovers)
    filled = iter([s if s is not None else next(free) for s in slots])
    pairs = [p if p.second is None else next(filled) for p in standard]
    return Pairing(pairs, met(pairs, bad))


def _nearest(target: int, highest: int) -> Iterator[int]:
    """Seeds 1..highest by distance from `target`, the better seed first on a tie."""
    yield target
    for d in range(1, highest):
        for s in (target - d, target + d):
            if 1 <= s <= highest:
                yield s


def _rematches(pairs: Iterable[Pair], played: Collection[frozenset[int]]) -> int:
    return sum(1 for p in pairs if p.second is not None and frozenset(p.players) in played)


def _fewer_rematches(
    pairs: list[Pair], played: Collection[frozenset[int]], bad: Collection[frozenset[int]]
) -> list[Pair]:
    """Swap partners between two boards (the nearest boards first) while that takes away a
    rematch and meets no forbidden pair."""
    boards = [p for p in pairs if p.second is not None]
    byes = [p for p in pairs if p.second is None]

    def cost(a: int, b: int) -> tuple[int, int]:
        pair = frozenset((a, b))
        return (pair in bad, pair in played)

    improved = True
    while improved:
        improved = False
        for i, board in enumerate(boards):
            if frozenset(board.players) not in played:
                continue
            for j in sorted(range(len(boards)), key=lambda j: abs(j - i)):
                if j == i:
                    continue
                a, b = board.first, board.second
                c, d = boards[j].first, boards[j].second
                assert b is not None and d is not None
                now = _add(cost(a, b), cost(c, d))
                for x, y, z, w in ((a, d, c, b), (a, c, b, d)):
                    then = _add(cost(x, y), cost(z, w))
                    if then[0] <= now[0] and then[1] < now[1]:
                        boards[i], boards[j] = Pair(first=x, second=y), Pair(first=z, second=w)
                        improved = True
                        break
                if improved:
                    break
            if improved:
                break
    return boards + byes


def _add(one: tuple[int, int], two: tuple[int, int]) -> tuple[int, int]:
    return one[0] + two[0], one[1] + two[1]
