"""A team event's state as an HGX 1 exchange (pure: the names and federation ids come in)."""

from __future__ import annotations

from tournaments.exchange.hgx import Exchange, XBoard, XPlayer, XTeam
from tournaments.teams.domain import TeamEventState, team_standings


def exchange_of(
    state: TeamEventState, *, name: str, names: dict[int, str], feds: dict[int, str]
) -> Exchange:
    """Players by start number, team by team in roster order."""
    order = [p for n in sorted(state.teams) for p in state.teams[n].roster]
    start = {p: i for i, p in enumerate(order, 1)}
    lines = {s.team: s for s in team_standings(state)}
    x = Exchange(name=name, format=state.format, rounds=state.current_round,
                 boards=state.boards, match_points=state.match_points)  # fmt: skip
    for n in sorted(state.teams):
        t, s = state.teams[n], lines[n]
        x.teams.append(XTeam(n, t.name, tuple(start[p] for p in t.roster), s.match_points,
                             s.board_points, s.hollywood_points, s.rank))  # fmt: skip
        x.players += [XPlayer(start[p], names.get(p, ""), feds.get(p, ""), n) for p in t.roster]
    for number in sorted(state.rounds):
        round_ = state.rounds[number]
        for p in round_.pairings:
            x.matches.append((number, p.table, p.team1, p.team2))
            for b in p.boards:
                r = round_.results.get((p.table, b.board))
                if r is None:
                    continue
                x.results.append(XBoard(
                    number, p.table, b.board, start[b.player1], start[b.player2], start[b.dealer],
                    start[r.winner] if r.winner is not None else None, r.games1, r.games2,
                    r.points1, r.points2, r.result == "forfeit",
                ))  # fmt: skip
    return x
