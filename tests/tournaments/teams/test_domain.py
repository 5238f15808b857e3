"""The team event's pure domain: registration, lineups, pairing teams, boards, results,
team standings (no database)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.teams.domain import decide, fold, team_standings
from tournaments.teams.domain.commands import (
    CreateTeamEvent,
    ForbidTeams,
    PairTeamRound,
    RecordBoard,
    RegisterTeam,
    SetLineup,
)
from tournaments.teams.domain.events import BoardResult, TeamEventFinished, TeamRoundPaired
from tournaments.teams.domain.pairing import boards_needed
from tournaments.teams.domain.state import TeamEventState
from tournaments.teams.domain.stored import event_from_stored, event_to_stored


def run(state: TeamEventState, command: object) -> TeamEventState:
    events = decide(state, command)  # type: ignore[arg-type]
    for e in events:  # every event survives its stored form
        assert event_from_stored(*event_to_stored(e)) == e
    return fold(events, state)


def new_event(fmt: str, teams: int, boards: int = 4, roster: int = 5) -> TeamEventState:
    state = run(TeamEventState(), CreateTeamEvent(format=fmt, name="Cup", club=1, boards=boards))
    for t in range(teams):
        players = tuple(100 * (t + 1) + i for i in range(roster))
        state = run(
            state,
            RegisterTeam(name=f"Side {t + 1}", club=t % 3 + 1, captain=players[0], roster=players),
        )
    return state


def ids(state: TeamEventState, round_: int) -> tuple[str, ...]:
    return tuple(f"m-{round_}-{i}" for i in range(boards_needed(state)))


def play_round(state: TeamEventState, number: int, rng: random.Random) -> TeamEventState:
    state = run(state, PairTeamRound(number=number, match_ids=ids(state, number)))
    for p in state.rounds[number].pairings:
        for b in p.boards:
            winner = rng.choice((b.player1, b.player2))
            won = 1 if winner == b.player1 else 2
            r = BoardResult(
                number,
                p.table,
                b.board,
                winner,
                games1=3 - won,
                games2=won - 1,
                points1=rng.randint(0, 300),
                points2=rng.randint(0, 300),
            )
            state = run(state, RecordBoard(r))
    return state


def test_team_swiss_of_8_teams_pairs_three_rounds_without_rematches() -> None:
    rng = random.Random(7)
    state = new_event("team_swiss", 8)
    for n in (1, 2, 3):
        state = play_round(state, n, rng)
    assert state.finished and state.rounds_planned == 3
    met = [frozenset((p.team1, p.team2)) for r in state.rounds.values() for p in r.pairings]
    assert len(met) == len(set(met)) == 12
    lines = team_standings(state)
    assert [s.rank for s in lines] == list(range(1, 9))
    assert sum(s.match_points for s in lines) == 12 * 2  # a draw also shares 2
    assert sum(s.board_points for s in lines) == 12 * 4  # every board has a winner
    key = [(-s.match_points, -s.board_points, -s.hollywood_points) for s in lines]
    assert key == sorted(key)


def test_boards_alternate_the_first_dealer_and_follow_the_lineup() -> None:
    state = new_event("team_swiss", 2)
    state = run(state, SetLineup(team=2, round=1, players=(204, 203, 202, 201)))
    state = run(state, PairTeamRound(number=1, match_ids=ids(state, 1)))
    (match,) = state.rounds[1].pairings
    by_team = {
        match.team1: [b.player1 for b in match.boards],
        match.team2: [b.player2 for b in match.boards],
    }
    assert by_team[2] == [204, 203, 202, 201] and by_team[1] == [100, 101, 102, 103]
    assert [b.dealer == b.player1 for b in match.boards] == [True, False, True, False]
    assert len({b.match for b in match.boards}) == 4


def test_an_odd_field_gives_a_team_bye_at_most_once_in_a_round_robin() -> None:
    state = new_event("team_round_robin", 5, boards=2, roster=2)
    rng = random.Random(1)
    n = 0
    while not state.finished:
        n += 1
        state = play_round(state, n, rng)
    assert n == 5
    byes = [p.team1 for r in state.rounds.values() for p in r.pairings if p.team2 is None]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    assert all(s.byes == 1 and s.played == 5 for s in team_standings(state))


def test_a_team_match_is_won_by_board_wins_then_points_then_board_count() -> None:
    state = new_event("team_swiss", 2, boards=2, roster=2)
    state = run(state, PairTeamRound(number=1, match_ids=ids(state, 1)))
    (p,) = state.rounds[1].pairings
    b1, b2 = p.boards
    # One board each, equal points: board 1 counts more (the board count).
    state = run(state, RecordBoard(BoardResult(1, 1, 1, b1.player1, points1=100, points2=50)))
    state = run(state, RecordBoard(BoardResult(1, 1, 2, b2.player2, points1=50, points2=100)))
    first, second = team_standings(state)
    assert (first.team, first.match_points, second.match_points) == (p.team1, 2, 0)
    assert isinstance(decide(state, PairTeamRound(2, ())), list)


def test_rules_refuse_bad_commands() -> None:
    state = new_event("team_swiss", 3)
    with pytest.raises(TournamentInputError):
        run(state, RegisterTeam(name="Short", club=1, captain=None, roster=(1, 2)))
    with pytest.raises(TournamentConflictError):
        run(state, RegisterTeam(name="Dup", club=1, captain=None, roster=(100, 9, 8, 7)))
    with pytest.raises(TournamentInputError):
        run(state, SetLineup(team=1, round=1, players=(100, 101, 102, 999)))
    with pytest.raises(TournamentInputError):
        run(state, PairTeamRound(number=1, match_ids=()))
    with pytest.raises(TournamentInputError):
        run(state, ForbidTeams(teams=(1, 1)))
    state = run(state, PairTeamRound(number=1, match_ids=ids(state, 1)))
    with pytest.raises(TournamentConflictError):
        run(state, SetLineup(team=1, round=1, players=(100, 101, 102, 103)))
    with pytest.raises(TournamentConflictError):
        run(state, PairTeamRound(number=2, match_ids=ids(state, 2)))
    assert decide(state, PairTeamRound(number=1, match_ids=ids(state, 1))) == []


def test_forbidden_teams_are_kept_apart_when_they_can_be() -> None:
    state = new_event("team_swiss", 4)
    state = run(state, ForbidTeams(teams=(1, 4)))
    state = run(state, PairTeamRound(number=1, match_ids=ids(state, 1)))
    met = {frozenset((p.team1, p.team2)) for p in state.rounds[1].pairings}
    assert frozenset((1, 4)) not in met


def test_a_corrected_board_changes_the_standings_and_the_event_ends_once() -> None:
    rng = random.Random(3)
    state = new_event("team_swiss", 2, boards=1, roster=1)
    events = []
    state = play_round(state, 1, rng)
    assert state.finished
    (p,) = state.rounds[1].pairings
    old = state.rounds[1].results[(1, 1)]
    loser = p.boards[0].player1 if old.winner == p.boards[0].player2 else p.boards[0].player2
    events = decide(state, RecordBoard(replace(old, winner=loser)))
    assert [type(e).__name__ for e in events] == ["BoardResultCorrected"]
    assert not any(isinstance(e, TeamEventFinished | TeamRoundPaired) for e in events)
    after = fold(events, state)
    assert team_standings(after)[0].team != team_standings(state)[0].team
