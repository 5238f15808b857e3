"""Season standings, pure: a named span of a club's tournaments scored by final place
(a points table), participation points and the best N of M tournaments, ties broken by a
stated order (tournaments won, match wins, the mini-table of the tied players' matches,
then shared). No Django."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

TIE_KEYS = ("tournaments_won", "match_wins", "mini_table", "shared")


@dataclass(frozen=True)
class SeasonRules:
    place_points: tuple[int, ...]
    participation: int = 0
    best_of: int | None = None  # None: every tournament counts
    tie_order: tuple[str, ...] = TIE_KEYS


@dataclass(frozen=True)
class SeasonTournament:
    """One tournament of the season: each player's final place and match wins, and its
    results (player1, player2, winner or None)."""

    tournament: int
    places: dict[int, int]
    match_wins: dict[int, int]
    results: tuple[tuple[int, int, int | None], ...] = ()


@dataclass(frozen=True)
class Counted:
    tournament: int
    points: int
    place: int


@dataclass(frozen=True)
class SeasonLine:
    player: int
    rank: int
    points: int
    played: int
    counted: tuple[Counted, ...]
    tournaments_won: int
    match_wins: int
    shared: bool


def tournament_points(place: int, rules: SeasonRules) -> int:
    table = rules.place_points
    return (table[place - 1] if 0 < place <= len(table) else 0) + rules.participation


def _mini_table(
    group: Sequence[int], results_of: dict[int, list[tuple[int, int, int | None]]]
) -> dict[int, int]:
    """Wins of each player of `group` in the season's matches between players of it
    (`results_of`: each player's results in which they were player 1)."""
    members = set(group)
    wins = dict.fromkeys(group, 0)
    for player in group:
        for _, p2, winner in results_of.get(player, ()):
            if p2 in members and winner in members:
                wins[winner] += 1
    return wins


def _results_by_first(
    tournaments: Sequence[SeasonTournament],
) -> dict[int, list[tuple[int, int, int | None]]]:
    out: dict[int, list[tuple[int, int, int | None]]] = {}
    for t in tournaments:
        for result in t.results:
            out.setdefault(result[0], []).append(result)
    return out


def season_standings(
    tournaments: Sequence[SeasonTournament], rules: SeasonRules
) -> list[SeasonLine]:
    """The season's standings, best first: total of each player's best N tournament
    points; ties broken in `rules.tie_order`; players still tied share the rank."""
    per_player: dict[int, list[Counted]] = {}
    won: dict[int, int] = {}
    wins: dict[int, int] = {}
    for t in tournaments:
        for player, place in t.places.items():
            per_player.setdefault(player, []).append(
                Counted(t.tournament, tournament_points(place, rules), place)
            )
            won[player] = won.get(player, 0) + (place == 1)
            wins[player] = wins.get(player, 0) + t.match_wins.get(player, 0)
    counted: dict[int, tuple[Counted, ...]] = {}
    order = {t.tournament: i for i, t in enumerate(tournaments)}
    for player, items in per_player.items():
        # The best N; of equal points, the earlier tournament (the season's order).
        best = sorted(items, key=lambda c: (-c.points, order[c.tournament]))
        chosen = best if rules.best_of is None else best[: rules.best_of]
        counted[player] = tuple(sorted(chosen, key=lambda c: order[c.tournament]))
    total = {p: sum(c.points for c in cs) for p, cs in counted.items()}

    results_of: dict[int, list[tuple[int, int, int | None]]] = {}

    def mini_table(group: Sequence[int]) -> dict[int, int]:
        if not results_of:  # indexed once, when a tie first needs it
            results_of.update(_results_by_first(tournaments))
        return _mini_table(group, results_of)

    keys: dict[str, Callable[[Sequence[int]], dict[int, int]]] = {
        "tournaments_won": lambda group: {p: won[p] for p in group},
        "match_wins": lambda group: {p: wins[p] for p in group},
        "mini_table": mini_table,
    }

    def refine(group: list[int], order: Sequence[str]) -> list[list[int]]:
        if len(group) == 1 or not order or order[0] == "shared":
            return [sorted(group)]
        key = keys.get(order[0])
        if key is None:
            return refine(group, order[1:])
        values = key(group)
        out: list[list[int]] = []
        for value in sorted(set(values.values()), reverse=True):
            out += refine([p for p in group if values[p] == value], order[1:])
        return out

    groups: list[list[int]] = []
    for points in sorted(set(total.values()), reverse=True):
        groups += refine([p for p in total if total[p] == points], rules.tie_order)
    lines = []
    rank = 1
    for group in groups:
        for player in group:
            lines.append(
                SeasonLine(
                    player=player,
                    rank=rank,
                    points=total[player],
                    played=len(per_player[player]),
                    counted=counted[player],
                    tournaments_won=won[player],
                    match_wins=wins[player],
                    shared=len(group) > 1,
                )
            )
        rank += len(group)
    return lines
