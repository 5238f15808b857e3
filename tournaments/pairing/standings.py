"""Standings with configurable tiebreaks.

Choices (documented because tournaments differ):
- A bye (player2 None) adds 1 to `byes`, not to `played`, and its games/points fields are
  taken as given (normally 0). What it scores is a tournament setting, `bye_points`:
  "win" (the default, and the only behaviour before the setting existed) counts it as a
  match win; "nothing" counts no win.
- How the tiebreaks count a bye (each a fixed choice unless named as a setting):
  games won and points difference: the bye's own fields (normally 0); Sonneborn-Berger and
  head-to-head: nothing (a bye beats nobody); Buchholz and median Buchholz: the setting
  `bye_buchholz`. "nothing" (the default, as before) adds nothing for a bye, so a bye costs
  Buchholz; "virtual_opponent" follows FIDE's rule for unplayed rounds: the bye counts as a
  game against a virtual opponent who had the player's match wins before that round, got the
  other result of the round (a loss when the bye scores a win, a win when it scores
  nothing), and drew every later round played so far (half a match win each, as
  Sonneborn-Berger counts a draw). Median Buchholz then drops the best and worst of the real
  and virtual opponents alike.
- A finished match without a winner (winner None, player2 set) is a draw: played, no win,
  and half the opponent's match wins towards Sonneborn-Berger.
- Buchholz = sum of the match wins of every opponent met (and of the virtual opponents
  above, with `bye_buchholz="virtual_opponent"`).
- Sonneborn-Berger = sum of the match wins of the opponents beaten (+ half for draws).
- Median Buchholz = Buchholz less the best and the worst opponent's match wins (with fewer
  than three opponents, plain Buchholz).
- Head-to-head: among the players still tied on the tiebreaks before it, the matches each
  won against the others of that group.
- The order is total and stable: after the chosen tiebreaks (all "higher is better"), the
  lower player id comes first; `rank` is the place in that order (1, 2, 3, ...), which the
  pairing and the seeding use. `place` is what a club reads: players equal on every chosen
  tiebreak share a place ("=2", then 4: standard competition ranking), and a page orders
  them by name in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

TIEBREAKS = ("match_wins", "games_won", "points_diff", "buchholz", "sonneborn_berger")
# Every tiebreak an organiser may choose (TIEBREAKS, in that order, is the Swiss default).
TIEBREAK_CHOICES = (*TIEBREAKS, "median_buchholz", "head_to_head")
# What a bye scores, and how Buchholz counts one (the first of each is the default).
BYE_POINTS = ("win", "nothing")
BYE_BUCHHOLZ = ("nothing", "virtual_opponent")


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
    place: int = 0  # shared by players equal on every tiebreak (module docstring); 0: unset


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
    bye_rounds: list[int] = field(default_factory=list)


def standings(
    *,
    players: Sequence[int],
    results: Sequence[Result],
    tiebreaks: Sequence[str] = TIEBREAKS[:3],
    bye_points: str = BYE_POINTS[0],
    bye_buchholz: str = BYE_BUCHHOLZ[0],
) -> list[Standing]:
    """Order the players by the tiebreaks in turn (higher is better), then by player id.

    `bye_points` and `bye_buchholz`: how a bye counts (module docstring); a tournament
    stores its choice so that a rebuild never changes its standings."""
    order, keys, rows = _ranking(players, results, tiebreaks, bye_points, bye_buchholz)
    lines, place = [], 0
    for i, p in enumerate(order, 1):
        if i == 1 or keys[p] != keys[order[i - 2]]:
            place = i
        lines.append(Standing(rank=i, place=place, **rows[p]))
    return lines


def tied_groups(
    *,
    players: Sequence[int],
    results: Sequence[Result],
    tiebreaks: Sequence[str] = TIEBREAKS[:3],
    bye_points: str = BYE_POINTS[0],
    bye_buchholz: str = BYE_BUCHHOLZ[0],
) -> list[list[int]]:
    """The standings order cut into groups of players equal on every tiebreak (best group
    first; within a group, the player-id order `standings` uses). For decisions that must not
    fall to a player id, such as a top cut (`top_cut.top_cut_seeds`)."""
    order, keys, _ = _ranking(players, results, tiebreaks, bye_points, bye_buchholz)
    groups: list[list[int]] = []
    for p in order:
        if groups and keys[groups[-1][0]] == keys[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def _ranking(
    players: Sequence[int],
    results: Sequence[Result],
    tiebreaks: Sequence[str],
    bye_points: str,
    bye_buchholz: str,
) -> tuple[list[int], dict[int, list[float]], dict[int, dict[str, Any]]]:
    unknown = [t for t in tiebreaks if t not in TIEBREAK_CHOICES]
    if unknown:
        raise ValueError(f"standings: unknown tiebreaks {unknown}; choose from {TIEBREAK_CHOICES}")
    if bye_points not in BYE_POINTS or bye_buchholz not in BYE_BUCHHOLZ:
        raise ValueError(
            f"standings: bye_points in {BYE_POINTS}, bye_buchholz in {BYE_BUCHHOLZ}; "
            f"got {bye_points!r}, {bye_buchholz!r}"
        )
    tallies = {p: _Tally() for p in players}
    if len(tallies) != len(players):
        raise ValueError("standings: duplicate player ids")
    bye_wins = bye_points == "win"
    for result in results:
        _count(result, tallies, bye_wins)
    wins = {p: t.match_wins for p, t in tallies.items()}
    virtual = (
        _virtual_opponents(results, tallies, bye_wins) if bye_buchholz == "virtual_opponent" else {}
    )
    rows = {p: _row(p, tallies[p], wins, virtual.get(p, [])) for p in players}
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


def _count(result: Result, tallies: dict[int, _Tally], bye_wins: bool) -> None:
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
        one.bye_rounds.append(result.round)
        if bye_wins:
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


def _virtual_opponents(
    results: Sequence[Result], tallies: dict[int, _Tally], bye_wins: bool
) -> dict[int, list[float]]:
    """Each bye's virtual opponent's match wins (FIDE's rule, adapted: module docstring)."""
    with_byes = {p for p, t in tallies.items() if t.bye_rounds}
    if not with_byes:
        return {}
    last = max(r.round for r in results)
    out: dict[int, list[float]] = {}
    for p in with_byes:
        for bye_round in tallies[p].bye_rounds:
            before = sum(
                1
                for r in results
                if r.round < bye_round and r.winner == p and (r.player2 is not None or bye_wins)
            )
            out.setdefault(p, []).append(before + (0 if bye_wins else 1) + 0.5 * (last - bye_round))
    return out


def _row(player: int, t: _Tally, wins: dict[int, int], virtual: list[float]) -> dict[str, Any]:
    opponents = [float(wins[o]) for o in t.opponents] + virtual
    return {
        "player": player,
        "match_wins": t.match_wins,
        "played": t.played,
        "games_won": t.games_won,
        "points_diff": t.points_diff,
        "buchholz": float(sum(opponents)),
        "sonneborn_berger": float(
            sum(wins[o] for o in t.beaten) + sum(wins[o] for o in t.drawn) / 2
        ),
        "byes": t.byes,
        "median_buchholz": float(_median_buchholz(opponents)),
    }


def _median_buchholz(scores: list[float]) -> float:
    if len(scores) < 3:
        return sum(scores)
    return sum(scores) - max(scores) - min(scores)
