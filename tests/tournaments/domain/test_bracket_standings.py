"""A finished bracket's final standing follows the bracket (no database): the champion
first, the final's (grand final's) loser second, then by the round each player went out in,
the later first; random fields of 2 to 64, random results, random withdrawals. A top cut's
knockout the same, withdrawals in it included."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.tournaments.domain.helpers import with_match_ids
from tournaments.domain import decide, fold
from tournaments.domain.brackets import bracket_data
from tournaments.domain.commands import PairRound, RecordResult, Withdraw
from tournaments.domain.errors import TournamentConflictError
from tournaments.domain.events import PlayerRegistered, ResultEntry, TournamentCreated
from tournaments.domain.seeding import bracket_of
from tournaments.domain.standings import standings_of
from tournaments.domain.state import PENDING, TournamentState

NOW = dt.datetime(2026, 12, 1, 19, 30, tzinfo=dt.UTC)


def _play(
    fmt: str, n: int, picks: list[bool], withdraw_at: dict[int, int], **settings_
) -> tuple[TournamentState, list[tuple[int, int, int]]]:
    """Run a tournament of `n` to its end: each table's winner from `picks`; the player
    withdraw_at[step] withdraws at that step (a table of theirs in play is then won by the
    opponent, as a forfeit). Answers the state and every (round, winner, loser)."""
    state = fold([TournamentCreated(format=fmt, check_in_required=False, **settings_)])
    state = fold([PlayerRegistered(player=p) for p in range(1, n + 1)], state)
    counter, step = [0], 0
    played: list[tuple[int, int, int]] = []
    for number in range(1, 4 * n + 8):
        try:
            events = with_match_ids(decide(state, PairRound(number=number, now=NOW)), counter)
        except TournamentConflictError as exc:
            # Everyone left in the bracket withdrew: it cannot end (refused, as it should).
            assume(exc.code != "too_few")
            raise
        if not events:
            break
        state = fold(events, state)
        for table in state.rounds[number].tables:
            if table.player2 is None or table.status != PENDING:
                continue
            step += 1
            quitter = withdraw_at.get(step)
            if quitter is not None and quitter <= n:
                state = fold(decide(state, Withdraw(player=quitter)), state)
            if table.player1 in state.withdrawn:
                winner = table.player2
            elif table.player2 in state.withdrawn:
                winner = table.player1
            else:
                winner = table.player1 if picks[step % len(picks)] else table.player2
            loser = table.player2 if winner == table.player1 else table.player1
            played.append((number, winner, loser))
            result = ResultEntry(
                round=number, table=table.table, player1=table.player1, player2=table.player2,
                winner=winner, games1=2 if winner == table.player1 else step % 2,
                games2=2 if winner == table.player2 else step % 2, points1=7 * step % 40,
                points2=3 * step % 50, match=table.match, result="played",
            )  # fmt: skip
            state = fold(decide(state, RecordResult(result=result)), state)
        if state.finished:
            break
    assert state.finished, "the tournament never ended"
    return state, played


fields = st.integers(min_value=2, max_value=64)
picks = st.lists(st.booleans(), min_size=1, max_size=64)
withdrawals = st.dictionaries(
    st.integers(min_value=1, max_value=120), st.integers(min_value=1, max_value=64), max_size=6
)


def _group_index(groups: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    return {p: i for i, group in enumerate(groups) for p in group}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=fields,
    reset=st.booleans(),
    picks=picks,
    withdraw_at=withdrawals,
    bye_points=st.sampled_from(["win", "nothing"]),
)
def test_a_double_elimination_ends_in_the_brackets_order(n, reset, picks, withdraw_at, bye_points):
    state, _ = _play(
        "double_elimination", n, picks, withdraw_at, bracket_reset=reset, bye_points=bye_points
    )
    bracket = bracket_of(state)
    lines = standings_of(state)
    grand_final = [m for m in bracket.matches if m.bracket == "GF" and m.loser is not None]
    runner_up = grand_final[-1].loser
    assert lines[0].player == bracket.champion
    if runner_up in {line.player for line in lines}:
        assert lines[1].player == runner_up
    # Later out, better placed; ranks run 1, 2, 3... (a group split by the tiebreaks).
    group = _group_index(bracket.places)
    assert [group[line.player] for line in lines] == sorted(group[line.player] for line in lines)
    assert [line.rank for line in lines] == list(range(1, len(lines) + 1))
    # Within a group, the tiebreak order (as the standings before the bracket ordered it).
    plain = [line.player for line in standings_of(replace(state, status="in_progress"))]
    for members in bracket.places:
        shown = [line.player for line in lines if line.player in members]
        assert shown == [p for p in plain if p in members]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=fields,
    picks=picks,
    withdraw_at=withdrawals,
    bye_points=st.sampled_from(["win", "nothing"]),
)
def test_a_knockout_ends_in_the_brackets_order(n, picks, withdraw_at, bye_points):
    state, played = _play("knockout", n, picks, withdraw_at, bye_points=bye_points)
    lines = standings_of(state)
    last = max(state.rounds)
    final = state.rounds[last].tables
    assert len(final) == 1
    assert lines[0].player == final[0].winner
    if final[0].player2 is not None:
        loser = final[0].player2 if final[0].winner == final[0].player1 else final[0].player1
        assert lines[1].player == loser
    # The round each player went out in: their loss, or the round after the last they
    # played in (a withdrawal); later out, better placed.
    out: dict[int, int] = {}
    for number, _, loser in played:
        out[loser] = number
    appeared: dict[int, int] = {}
    for number, round_ in state.rounds.items():
        for t in round_.tables:
            for p in (t.player1, t.player2):
                if p is not None:
                    appeared[p] = number
    champion = final[0].winner
    went_out = {p: out.get(p, appeared[p] + 1) for p in appeared if p != champion}
    went_out[champion] = last + 1
    keys = [went_out[line.player] for line in lines]
    assert keys == sorted(keys, reverse=True)
    assert [line.rank for line in lines] == list(range(1, len(lines) + 1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=4, max_value=24),
    cut=st.sampled_from([4, 8]),
    third=st.booleans(),
    picks=picks,
    withdraw_at=withdrawals,
)
def test_a_top_cut_ends_with_its_knockout_s_places_first(n, cut, third, picks, withdraw_at):
    if cut > n:
        cut = 4
    state, _ = _play("swiss", n, picks, withdraw_at, rounds=2, top_cut=cut, third_place=third)
    lines = standings_of(state)
    final = next(t for t in state.rounds[max(state.rounds)].tables if t.slot != "3P")
    assert lines[0].player == final.winner
    if final.player2 is not None:
        assert lines[1].player == (
            final.player2 if final.winner == final.player1 else final.player1
        )
    seeds = set(state.cut_seeds)
    assert {line.player for line in lines[: len(seeds)]} == seeds  # the knockout's first
    # In the bracket's order (the third-place match splitting third where it was played).
    places = bracket_data(state)["places"]
    group = {p: i for i, members in enumerate(places) for p in members}
    keys = [group[line.player] for line in lines[: len(seeds)]]
    assert keys == sorted(keys)
