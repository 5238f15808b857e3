"""Team pairing: the individual pairing code (tournaments.pairing) with teams as the paired
units (the same rematch, bye and forbidden-pair rules), then each team match's boards from
the two lineups. On a team match the first team's player deals first on odd boards, the
second team's on even boards (as colours alternate in a chess team match); which team is
first alternates as the Swiss orients its pairs (whoever was first less often)."""

from __future__ import annotations

import math

from tournaments.pairing import Pair, SwissPlayer, round_robin_rounds, swiss_pair_avoiding
from tournaments.teams.domain.events import BoardEntry, TeamPairingEntry
from tournaments.teams.domain.standings import team_standings
from tournaments.teams.domain.state import TeamEventState


def round_count(state: TeamEventState, teams: int) -> int:
    if state.format == "team_round_robin":
        return teams - 1 if teams % 2 == 0 else teams
    return state.rounds_planned or max(1, math.ceil(math.log2(max(teams, 2))))


def seeds(state: TeamEventState, ratings: dict[int, float]) -> list[int]:
    """Teams by their lineup's mean rating (1500 for a player without one), best first; ties
    by registration order."""

    def mean(team: int) -> float:
        lineup = state.lineup(team, 1)
        return sum(ratings.get(p, 1500.0) for p in lineup) / max(len(lineup), 1)

    return sorted(state.teams, key=lambda t: (-mean(t), t))


def played_teams(state: TeamEventState) -> set[frozenset[int]]:
    return {
        frozenset((p.team1, p.team2))
        for r in state.rounds.values()
        for p in r.pairings
        if p.team2 is not None
    }


def team_pairs(state: TeamEventState, number: int) -> list[Pair]:
    ordered = sorted(state.teams, key=lambda t: state.teams[t].seed or t)
    if state.format == "team_round_robin":
        forbidden = [frozenset(f) for f in state.forbidden]
        return round_robin_rounds(ordered, forbidden)[number - 1]
    lines = team_standings(state)
    had_bye = {p.team1 for r in state.rounds.values() for p in r.pairings if p.team2 is None}
    first = {t: 0 for t in state.teams}
    for r in state.rounds.values():
        for p in r.pairings:
            if p.team2 is not None:
                first[p.team1] += 1
    players = [SwissPlayer(id=s.team, score=float(s.match_points), rank=s.rank) for s in lines]
    if number == 1:
        players = [SwissPlayer(id=t, score=0.0, rank=i) for i, t in enumerate(ordered, 1)]
    pairing = swiss_pair_avoiding(
        players=players,
        played=played_teams(state),
        had_bye=had_bye,
        forbidden=[frozenset(f) for f in state.forbidden],
        dealt_first=first,
    )
    return pairing.pairs


def pairing_entries(
    state: TeamEventState, number: int, pairs: list[Pair], match_ids: tuple[str, ...]
) -> tuple[TeamPairingEntry, ...]:
    """The round's team matches with their boards, naming the matches `match_ids` in order.
    Raises IndexError when there are too few ids."""
    ids = iter(match_ids)
    out = []
    real = [p for p in pairs if p.second is not None] + [p for p in pairs if p.second is None]
    for table, pair in enumerate(real, start=1):
        if pair.second is None:
            out.append(TeamPairingEntry(table=table, team1=pair.first, team2=None))
            continue
        one, two = state.lineup(pair.first, number), state.lineup(pair.second, number)
        boards = []
        for b, (p1, p2) in enumerate(zip(one, two, strict=True), start=1):
            match = next(ids, None)
            if match is None:
                raise IndexError("too few match ids for the round's boards")
            boards.append(BoardEntry(b, p1, p2, match, p1 if b % 2 else p2))
        out.append(TeamPairingEntry(table, pair.first, pair.second, tuple(boards)))
    return tuple(out)


def boards_needed(state: TeamEventState) -> int:
    """How many match ids a round may need: every team at a board (byes need none)."""
    return (len(state.teams) // 2) * state.boards
