"""Team standings and the score of a team match, from a team event's state.

A team match is won by the side with more board wins; on equal board wins, by more
Hollywood points over its boards; then by the board count (a board won counts
`boards - board + 1`: the top board most); equal on all three: drawn. It scores the
event's match points (2/1/0 by default). The standings order teams by match points, then
board points (boards won over the event, the olympiad's game points), then Hollywood points,
then their number (registration order). A bye scores a won match with every board won and
no Hollywood points."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.teams.domain.events import TeamPairingEntry
from tournaments.teams.domain.state import TeamEventState, TeamRound


@dataclass(frozen=True)
class MatchScore:
    """A finished team match from both sides (team2 None: a bye)."""

    round: int
    table: int
    team1: int
    team2: int | None
    boards1: int  # boards won
    boards2: int
    points1: int  # Hollywood points over the boards
    points2: int
    count1: int  # board count
    count2: int
    outcome1: str  # "win", "draw", "loss"

    @property
    def outcome2(self) -> str:
        return {"win": "loss", "loss": "win", "draw": "draw"}[self.outcome1]


@dataclass(frozen=True)
class TeamStanding:
    team: int
    rank: int
    match_points: int
    board_points: int
    hollywood_points: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int


def match_score(state: TeamEventState, round_: TeamRound, p: TeamPairingEntry) -> MatchScore | None:
    """The team match's score once every board has a result (None before)."""
    n = state.boards
    if p.team2 is None:
        return MatchScore(round_.number, p.table, p.team1, None, n, 0, 0, 0, 0, 0, "win")
    b1 = b2 = h1 = h2 = c1 = c2 = 0
    for board in p.boards:
        r = round_.results.get((p.table, board.board))
        if r is None:
            return None
        h1, h2 = h1 + r.points1, h2 + r.points2
        weight = n - board.board + 1
        if r.winner == board.player1:
            b1, c1 = b1 + 1, c1 + weight
        elif r.winner == board.player2:
            b2, c2 = b2 + 1, c2 + weight
    one, two = (b1, h1, c1), (b2, h2, c2)
    outcome = "win" if one > two else "loss" if one < two else "draw"
    return MatchScore(round_.number, p.table, p.team1, p.team2, b1, b2, h1, h2, c1, c2, outcome)


def match_scores(state: TeamEventState) -> list[MatchScore]:
    out = []
    for number in sorted(state.rounds):
        round_ = state.rounds[number]
        for p in round_.pairings:
            score = match_score(state, round_, p)
            if score is not None:
                out.append(score)
    return out


def team_standings(state: TeamEventState) -> list[TeamStanding]:
    win, draw, loss = state.match_points
    points = {"win": win, "draw": draw, "loss": loss}
    acc = {t: [0, 0, 0, 0, 0, 0, 0, 0] for t in state.teams}  # mp bp hp played w d l byes
    for s in match_scores(state):
        sides = [(s.team1, s.boards1, s.points1, s.outcome1)]
        if s.team2 is not None:
            sides.append((s.team2, s.boards2, s.points2, s.outcome2))
        for team, boards, hollywood, outcome in sides:
            a = acc.setdefault(team, [0] * 8)
            a[0] += points[outcome]
            a[1] += boards
            a[2] += hollywood
            a[3] += 1
            a[{"win": 4, "draw": 5, "loss": 6}[outcome]] += 1
            a[7] += s.team2 is None
    order = sorted(acc, key=lambda t: (-acc[t][0], -acc[t][1], -acc[t][2], t))
    return [TeamStanding(t, rank, *acc[t]) for rank, t in enumerate(order, start=1)]
