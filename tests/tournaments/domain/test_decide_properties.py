"""decide/evolve without a database: random command sequences, and every invariant of a
tournament holds in the folded state after each step."""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.domain.helpers import with_match_ids
from tournaments.domain import TournamentError, decide, evolve, fold
from tournaments.domain.commands import (
    AllowPair,
    CheckIn,
    ForbidPair,
    MoveDeadline,
    PairRound,
    RecordResult,
    Register,
    RepairRound,
    RuleResult,
    StartRoundClock,
    Withdraw,
    WithdrawResult,
)
from tournaments.domain.events import ResultEntry, TournamentCreated
from tournaments.domain.snapshot import state_from_dict, state_to_dict
from tournaments.domain.standings import standings_of
from tournaments.domain.state import COMPLETED, FINISHED, PENDING, TournamentState

NOW = dt.datetime(2026, 12, 1, 19, 30, tzinfo=dt.UTC)


def _check(state: TournamentState, withdrawn_before: dict[int, int]) -> None:
    for number, round_ in state.rounds.items():
        seated = [p for t in round_.tables for p in (t.player1, t.player2) if p is not None]
        assert len(seated) == len(set(seated)), "a player twice in one round"
        assert sum(t.player2 is None for t in round_.tables) <= 1, "two byes in one round"
        assert [t.table for t in round_.tables] == list(range(1, len(round_.tables) + 1))
        if round_.status == COMPLETED:
            assert all(t.status == FINISHED for t in round_.tables)
        assert not round_.clock_by_hand or round_.clock_started_at is not None
        for p in seated:  # nobody is paired after withdrawing
            assert withdrawn_before.get(p, 10**9) >= number or round_.repaired
        for t in round_.tables:
            if t.status == FINISHED:
                assert t.winner in (t.player1, t.player2, None)
            if t.player2 is None:
                assert t.status == FINISHED and t.winner == t.player1
    assert state.current_round == max(state.rounds, default=0)
    if state.finished:
        assert state.rounds[state.current_round].status == COMPLETED
    lines = standings_of(state)
    wins = sum(1 for r in state.results.values() if r.winner is not None)
    assert sum(line.match_wins for line in lines) == wins
    assert [line.rank for line in lines] == sorted(line.rank for line in lines)
    assert state_from_dict(state_to_dict(state)) == state
    assert all(a < b and a in state.entries and b in state.entries for a, b in state.forbidden)


commands = st.lists(
    st.tuples(
        st.sampled_from(
            ["register", "check_in", "withdraw", "pair", "result", "correct", "reopen",
             "rule", "repair", "deadline", "forbid", "allow", "clock"]
        ),
        st.integers(min_value=1, max_value=12),
        st.integers(min_value=0, max_value=5),
    ),
    min_size=1,
    max_size=80,
)  # fmt: skip


def _command(state: TournamentState, kind: str, a: int, b: int):  # noqa: PLR0911
    number = state.current_round
    round_ = state.rounds.get(number)
    tables = list(round_.tables) if round_ else []
    table = tables[b % len(tables)] if tables else None
    if kind == "register":
        return Register(player=a)
    if kind == "check_in":
        return CheckIn(player=a)
    if kind == "withdraw":
        return Withdraw(player=a)
    if kind == "pair":
        return PairRound(number=number + (1 if b else 0), now=NOW)
    if kind == "repair":
        return RepairRound(number=number, started=b == 0)
    if kind == "forbid":
        return ForbidPair(players=(a, b + 1))
    if kind == "allow":
        return AllowPair(players=(a, b + 1))
    if kind == "deadline":
        return MoveDeadline(round=number, deadline=NOW + dt.timedelta(minutes=a))
    if kind == "clock":
        return StartRoundClock(round=number, now=NOW + dt.timedelta(minutes=a))
    if table is None or table.player2 is None:
        return None
    if kind == "rule":
        return RuleResult(round=number, table=table.table, winner=table.player1)
    if kind == "reopen":
        return WithdrawResult(round=number, table=table.table)
    winner = table.player1 if (a + b) % 2 else table.player2
    games = (2, b % 2) if winner == table.player1 else (b % 2, 2)
    result = ResultEntry(
        round=number, table=table.table, player1=table.player1, player2=table.player2,
        winner=winner, games1=games[0], games2=games[1], points1=10 * a, points2=5 * b,
        match=table.match, result="played",
    )  # fmt: skip
    if kind == "correct" and table.status != FINISHED:
        return None
    return RecordResult(result=result)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fmt=st.sampled_from(["swiss", "round_robin", "knockout"]),
    check_in=st.booleans(),
    steps=commands,
)
def test_random_commands_keep_every_invariant(fmt, check_in, steps):
    created = TournamentCreated(
        format=fmt, rounds=3 if fmt == "swiss" else None, check_in_required=check_in
    )
    log = [created]
    state = evolve(TournamentState(), created)
    withdrawn_at_round: dict[int, int] = {}
    counter = [0]
    for kind, a, b in steps:
        command = _command(state, kind, a, b)
        if command is None:
            continue
        try:
            events = with_match_ids(decide(state, command), counter)
        except TournamentError:
            continue  # refused: nothing changes
        for event in events:
            state = evolve(state, event)
        log += events
        if isinstance(command, Withdraw) and events:
            withdrawn_at_round[command.player] = state.current_round
        _check(state, withdrawn_at_round)
    # The state is the fold of the events, however they are cut.
    assert fold(log) == state
    assert fold(log[len(log) // 2 :], fold(log[: len(log) // 2])) == state


def test_a_repeated_pairing_or_result_decides_nothing():
    state = fold([TournamentCreated(format="swiss", rounds=2, check_in_required=False)])
    for p in (1, 2, 3, 4):
        state = fold(decide(state, Register(player=p)), state)
    events = decide(state, PairRound(number=1, now=NOW))
    state = fold(with_match_ids(events, [0]), state)
    assert decide(state, PairRound(number=1, now=NOW)) == []
    table = state.rounds[1].tables[0]
    result = ResultEntry(
        round=1, table=1, player1=table.player1, player2=table.player2, winner=table.player1,
        games1=2, match=table.match, result="played",
    )  # fmt: skip
    state = fold(decide(state, RecordResult(result=result)), state)
    assert decide(state, RecordResult(result=result)) == []
    assert state.rounds[1].tables[0].status == FINISHED
    assert state.rounds[1].tables[1].status == PENDING


def test_the_scheduler_waits_for_the_start_and_an_organiser_does_not():
    later = (NOW + dt.timedelta(hours=1)).isoformat()
    state = fold([TournamentCreated(format="swiss", rounds=1, starts_at=later,
                                    check_in_required=False)])  # fmt: skip
    for p in (1, 2):
        state = fold(decide(state, Register(player=p)), state)
    assert decide(state, PairRound(number=1, now=NOW, by_scheduler=True)) == []
    assert decide(state, PairRound(number=1, now=NOW))  # by hand, early


def test_a_bye_scores_what_the_tournament_says():
    from tournaments.domain.events import PlayerRegistered

    def standings_after_round_1(bye_points: str):
        state = fold([TournamentCreated(format="swiss", rounds=2, check_in_required=False,
                                        bye_points=bye_points)])  # fmt: skip
        state = fold([PlayerRegistered(player=p) for p in (1, 2, 3)], state)
        state = fold(with_match_ids(decide(state, PairRound(number=1, now=NOW)), [0]), state)
        bye = next(t for t in state.rounds[1].tables if t.player2 is None)
        return {line.player: line.match_wins for line in standings_of(state)}, bye.player1

    wins, bye_player = standings_after_round_1("win")
    assert wins[bye_player] == 1
    nothing, bye_player = standings_after_round_1("nothing")
    assert nothing[bye_player] == 0


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=20),
    reset=st.booleans(),
    picks=st.lists(st.booleans(), min_size=200, max_size=200),
)
def test_a_double_elimination_runs_to_its_champion(n, reset, picks):
    from tournaments.domain.events import PlayerRegistered

    state = fold([TournamentCreated(format="double_elimination", check_in_required=False,
                                    bracket_reset=reset)])  # fmt: skip
    state = fold([PlayerRegistered(player=p) for p in range(1, n + 1)], state)
    losses: dict[int, int] = {}
    counter, i = [0], 0
    for number in range(1, 4 * n + 8):
        events = with_match_ids(decide(state, PairRound(number=number, now=NOW)), counter)
        if not events:
            break
        state = fold(events, state)
        for table in state.rounds[number].tables:
            winner = table.player1 if picks[i % len(picks)] else table.player2
            i += 1
            loser = table.player2 if winner == table.player1 else table.player1
            losses[loser] = losses.get(loser, 0) + 1
            result = ResultEntry(
                round=number, table=table.table, player1=table.player1, player2=table.player2,
                winner=winner, games1=2 if winner == table.player1 else 0,
                games2=2 if winner == table.player2 else 0, match=table.match, result="played",
            )  # fmt: skip
            state = fold(decide(state, RecordResult(result=result)), state)
        _check(state, {})
        if state.finished:
            break
    assert state.finished, "the bracket never ended"
    from tournaments.domain.seeding import bracket_of

    bracket = bracket_of(state)
    assert bracket.over and bracket.champion in range(1, n + 1)
    # Every player but the champion is put out exactly once; nobody lost three times, and
    # the champion lost at most once (a reset grand final).
    assert set(bracket.eliminated) == set(range(1, n + 1)) - {bracket.champion}
    assert max(losses.values()) <= 2 and losses.get(bracket.champion, 0) <= 1
    if not reset:
        assert losses.get(bracket.champion, 0) <= 1
