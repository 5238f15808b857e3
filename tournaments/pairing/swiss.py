"""Swiss pairing: score groups, top half against bottom half, floaters, no avoidable rematch.

What it optimises, most important first (a later criterion never buys an earlier one):
no avoidable rematch; at most one bye each; the most pairs inside each score bracket (the
fewest floaters) and floaters from above paired before residents float on; no player floating
down two rounds in a row, then none floating up two rounds in a row (fewest of each); then
the top half against the bottom half.

How it works
------------
1. Players are ordered by score (match points, best first), then rank, then id.
2. Odd field: the bye goes to the lowest-ranked player without a bye whose removal still
   lets the rest be paired with the fewest rematches possible (normally the very lowest).
   Only when every player has had a bye does anyone get a second one (lowest rank again).
3. Score groups are paired from the top. A bracket is the players floated down from above
   (paired first, against the highest residents) followed by the group's residents, which
   are paired top half against bottom half. Whoever cannot be paired floats to the next
   group. A bounded backtracking search maximises the pairs made inside each bracket.
4. Global guarantee: a pair is only accepted if the players still unpaired can afterwards
   be paired with as few rematches as the whole field allows. The check is a maximum-
   cardinality matching on the "have not met" graph (`RematchOracle`), skipped by Dirac's
   theorem while the remainder is large: if everyone has met fewer than half of the
   remaining players, the remainder has a Hamiltonian cycle, hence a perfect matching.
   So no rematch is ever made when a rematch-free pairing of the field exists, and when it
   does not, the number of rematches is the minimum. Those unavoidable rematches are pairs
   like any other, made inside a bracket where they keep that minimum (a fresh partner is
   always tried first), so which players replay each other is decided by the same criteria,
   repeated floats included; the last bracket always pairs everyone left.
5. Floats (steps 3-4 decide them bracket by bracket, top down, as FIDE's Dutch system does):
   the search of step 3 finds the preferred pairing with the most pairs. If it makes a player
   float down who floated down last round (or floated up after floating up), the bracket is
   searched again for the fewest such repeats, down-floats first, with the same number of
   pairs and no higher scores floated on (no more floaters from above of any score float on
   than before); among the pairings with the fewest repeats, the preferred one of step 3
   is taken. Last round's floats come from `results` (see `floats.py`); a bye counts as a
   down-float.
6. The dealer: whoever has dealt first less often deals first; on a tie the higher-ranked
   player deals first on odd boards, the lower-ranked on even boards.

Deterministic: the same input always gives the same pairs in the same order, whatever the
order of `players`. Not done: a bracket's choice of floaters does not look ahead to whether
the next bracket could then avoid a repeated float (only rematches are checked globally),
floats two rounds back, and the finer FIDE Dutch transposition/exchange rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from tournaments.pairing._brackets import History, pair_score_groups
from tournaments.pairing._rematches import RematchOracle
from tournaments.pairing.floats import last_round_floats
from tournaments.pairing.pair import Pair
from tournaments.pairing.standings import Result


@dataclass(frozen=True)
class SwissPlayer:
    id: int
    score: float
    rank: int  # 1 = best current standing (ties broken by the caller)


def swiss_pair(
    *,
    players: Sequence[SwissPlayer],
    played: set[frozenset[int]],
    had_bye: set[int],
    dealt_first: dict[int, int] | None = None,
    results: Sequence[Result] = (),
    bye_points: str = "win",
) -> list[Pair]:
    """Pair one Swiss round. Byes last; boards ordered from the top score group down.

    `results` are the previous rounds' results (with round numbers): the last of them tells
    who floated last round. Without them nobody counts as having floated. `bye_points` is
    what a bye scores in this tournament (`standings.BYE_POINTS`), for those float scores.
    """
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("swiss_pair: duplicate player ids")
    if not players:
        return []
    by_score = sorted(players, key=lambda p: (-p.score, p.rank, p.id))
    oracle = RematchOracle(ids, played)
    remaining = set(ids)
    bye = None
    if len(players) % 2:
        bye = _choose_bye(players, had_bye, oracle)
        remaining.discard(bye)
    groups = [
        [p.id for p in group]
        for _, group in groupby((p for p in by_score if p.id != bye), key=lambda p: p.score)
    ]
    floats = last_round_floats(results, bye_points)
    history = History(score={p.id: p.score for p in players}, floats=floats)
    matched = pair_score_groups(groups, remaining, oracle, history)
    rank = {p.id: (p.rank, p.id) for p in players}
    result = [
        _orient(a, b, board, rank, dealt_first or {}) for board, (a, b) in enumerate(matched, 1)
    ]
    if bye is not None:
        result.append(Pair(first=bye, second=None))
    return result


def count_rematches(pairs: Iterable[Pair], played: set[frozenset[int]]) -> int:
    return sum(1 for p in pairs if p.second is not None and frozenset(p.players) in played)


def min_rematches(
    *, players: Sequence[SwissPlayer], played: set[frozenset[int]], had_bye: set[int]
) -> int:
    """The fewest rematches any pairing of the field (with a legal bye) can have."""
    oracle = RematchOracle([p.id for p in players], played)
    everyone = {p.id for p in players}
    if len(everyone) % 2:
        bye = _choose_bye(players, had_bye, oracle)
        everyone.discard(bye)
    return len(everyone) // 2 - oracle.nu(everyone)


def _choose_bye(players: Sequence[SwissPlayer], had_bye: set[int], oracle: RematchOracle) -> int:
    lowest_first = sorted(players, key=lambda p: (p.rank, p.id), reverse=True)
    # At most one bye each; only if everyone has had one does a second bye happen.
    candidates = [p.id for p in lowest_first if p.id not in had_bye] or [p.id for p in lowest_first]
    everyone = {p.id for p in players}
    best, best_nu = candidates[0], -1
    for candidate in candidates:
        nu = oracle.nu_without(everyone, candidate)
        if nu == (len(everyone) - 1) // 2:
            return candidate
        if nu > best_nu:
            best, best_nu = candidate, nu
    return best


def _orient(
    a: int, b: int, board: int, rank: dict[int, tuple[int, int]], dealt_first: dict[int, int]
) -> Pair:
    da, db = dealt_first.get(a, 0), dealt_first.get(b, 0)
    if da != db:
        return Pair(first=a, second=b) if da < db else Pair(first=b, second=a)
    high, low = (a, b) if rank[a] < rank[b] else (b, a)
    return Pair(first=high, second=low) if board % 2 else Pair(first=low, second=high)
