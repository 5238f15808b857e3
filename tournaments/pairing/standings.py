"""Standings with configurable tiebreaks.

Choices (documented because tournaments differ):
- A bye (player2 None) counts as a match win for player1, adds 1 to `byes`, not to
  `played`, and its games/points fields are taken as given (normally 0).
- A finished match without a winner (winner None, player2 set) is a draw: played, no win,
  and half the opponent's match wins towards Sonneborn-Berger.
- Buchholz = sum of the match wins of every opponent met (byes contribute nothing).
- Sonneborn-Berger = sum of the match wins of the opponents beaten (+ half for draws).
- Median Buchholz = Buchholz less the best and the worst opponent's match wins (with fewer
  than three opponents, plain Buchholz).
- Head-to-head: among the players still tied on the tiebreaks before it, the matches each
  won against the others of that group.
- Ranks are sequential (1, 2, 3, ...), never shared: after the chosen tiebreaks (all
  "higher is better"), the lower player id ranks first, so the order is total and stable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

TIEBREAKS = ("match_wins", "games_won", "points_diff", "buchholz", "sonneborn_berger")
# Every tiebreak an organiser may choose (TIEBREAKS, in that order, is the Swiss default).
TIEBREAK_CHOICES = (*TIEBREAKS, "median_buchholz", "head_to_head")


@dataclass(frozen=True)
class Result:
    round: int
    player1: int
    player2: int | None  # None = bye (the winner is player1)
    winner: int | None  # None with player2 set = draw
    games1: int = 0
    games2: int = 0
    points1: int = 0
    points2: int = 0


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    match_wins: int
    played: int
    games_won: int
    points_diff: int
    buchholz: float
    sonneborn_berger: float
    byes: int
    median_buchholz: float = 0.0


@dataclass
class _Tally:
    match_wins: int = 0
    played: int = 0
    games_won: int = 0
    points_diff: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    beaten: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)


def standings(
    *,
    players: Sequence[int],
    results: Sequence[Result],
    tiebreaks: Sequence[str] = TIEBREAKS[:3],
) -> list[Standing]:
    """Order the players by the tiebreaks in turn (higher is better), then by player id."""
    order, _, rows = _ranking(players, results, tiebreaks)
    return [Standing(rank=i, **rows[p]) for i, p in enumerate(order, 1)]


def tied_groups(
    *,
    players: Sequence[int],
    results: Sequence[Result],
    tiebreaks: Sequence[str] = TIEBREAKS[:3],
) -> list[list[int]]:
    """The standings order cut into groups of players equal on every tiebreak (best group
    first; within a group, the player-id order `standings` uses). For decisions that must not
    fall to a player id, such as a top cut (`top_cut.top_cut_seeds`)."""
    order, keys, _ = _ranking(players, results, tiebreaks)
    groups: list[list[int]] = []
    for p in order:
        if groups and keys[groups[-1][0]] == keys[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def _ranking(
    players: Sequence[int], results: Sequence[Result], tiebreaks: Sequence[str]
) -> tuple[list[int], dict[int, list[float]], dict[int, dict]]:
    unknown = [t for t in tiebreaks if t not in TIEBREAK_CHOICES]
    if unknown:
        raise ValueError(f"standings: unknown tiebreaks {unknown}; choose from {TIEBREAK_CHOICES}")
    tallies = {p: _Tally() for p in players}
    if len(tallies) != len(players):
        raise ValueError("standings: duplicate player ids")
    for result in results:
        _count(result, tallies)
    wins = {p: t.match_wins for p, t in tallies.items()}
    rows = {p: _row(p, tallies[p], wins) for p in players}
    keys: dict[int, list[float]] = {p: [] for p in players}
    for tiebreak in tiebreaks:
        if tiebreak == "head_to_head":
            for p, score in _head_to_head(keys, tallies).items():
                keys[p].append(score)
        else:
            for p in players:
                keys[p].append(rows[p][tiebreak])
    order = sorted(players, key=lambda p: (*(-k for k in keys[p]), p))
    return order, keys, rows


def _head_to_head(keys: dict[int, list[float]], tallies: dict[int, _Tally]) -> dict[int, int]:
    """Each player's wins against the others tied with them on the keys so far."""
    groups: dict[tuple[float, ...], set[int]] = {}
    for p, k in keys.items():
        groups.setdefault(tuple(k), set()).add(p)
    out = {}
    for members in groups.values():
        for p in members:
            out[p] = sum(1 for beaten in tallies[p].beaten if beaten in members)
    return out


def _count(result: Result, tallies: dict[int, _Tally]) -> None:
    p1, p2 = result.player1, result.player2
    unknown = [p for p in (p1, p2) if p is not None and p not in tallies]
    if unknown:
        raise ValueError(f"standings: result of round {result.round} names unknown {unknown}")
    if result.winner is not None and result.winner not in (p1, p2):
        raise ValueError(f"standings: winner {result.winner} did not play round {result.round}")
    one = tallies[p1]
    one.games_won += result.games1
    one.points_diff += result.points1 - result.points2
    if p2 is None:
        one.byes += 1
        one.match_wins += 1
        return
    two = tallies[p2]
    two.games_won += result.games2
    two.points_diff += result.points2 - result.points1
    for me, other in ((one, p2), (two, p1)):
        me.played += 1
        me.opponents.append(other)
    if result.winner is None:
        one.drawn.append(p2)
        two.drawn.append(p1)
    else:
        winner, loser = (one, p2) if result.winner == p1 else (two, p1)
        winner.match_wins += 1
        winner.beaten.append(loser)


def _row(player: int, t: _Tally, wins: dict[int, int]) -> dict:
    return {
        "player": player,
        "match_wins": t.match_wins,
        "played": t.played,
        "games_won": t.games_won,
        "points_diff": t.points_diff,
        "buchholz": float(sum(wins[o] for o in t.opponents)),
        "sonneborn_berger": float(
            sum(wins[o] for o in t.beaten) + sum(wins[o] for o in t.drawn) / 2
        ),
        "byes": t.byes,
        "median_buchholz": float(_median_buchholz([wins[o] for o in t.opponents])),
    }


def _median_buchholz(scores: list[int]) -> int:
    if len(scores) < 3:
        return sum(scores)
    return sum(scores) - max(scores) - min(scores)
