"""A knockout keeps its bracket's slots whoever withdraws (no database): a table both of
whose players withdrew before it was paired is left empty, its neighbour goes on by a bye,
and every later slot stays where the seeding put it."""

from __future__ import annotations

import datetime as dt

from tests.tournaments.domain.helpers import with_match_ids
from tournaments.domain import decide, fold
from tournaments.domain.commands import PairRound, RecordResult, RepairRound, Withdraw
from tournaments.domain.events import PlayerRegistered, ResultEntry, TournamentCreated
from tournaments.domain.standings import standings_of
from tournaments.domain.state import PENDING, TournamentState
from tournaments.pairing.knockout import knockout_next_slots
from tournaments.pairing.knockout_bracket import Board, knockout_bracket
from tournaments.pairing.pair import Pair

NOW = dt.datetime(2026, 12, 1, 19, 30, tzinfo=dt.UTC)


COUNTER = [0]


def _knockout(n: int) -> TournamentState:
    state = fold([TournamentCreated(format="knockout", check_in_required=False)])
    return fold([PlayerRegistered(player=p) for p in range(1, n + 1)], state)


def _pair(state: TournamentState, number: int) -> TournamentState:
    return fold(with_match_ids(decide(state, PairRound(number=number, now=NOW)), COUNTER), state)


def _play(state: TournamentState, number: int) -> TournamentState:
    """Every pending table of the round won by its better seed (player1)."""
    for t in state.rounds[number].tables:
        if t.status != PENDING:
            continue
        result = ResultEntry(
            round=number, table=t.table, player1=t.player1, player2=t.player2,
            winner=t.player1, games1=2, match=t.match, result="played",
        )  # fmt: skip
        state = fold(decide(state, RecordResult(result=result)), state)
    return state


def _withdraw(state: TournamentState, *players: int) -> TournamentState:
    for p in players:
        state = fold(decide(state, Withdraw(player=p)), state)
    return state


def _slots(state: TournamentState, number: int) -> list[tuple[str | None, int, int | None]]:
    return [(t.slot, t.player1, t.player2) for t in state.rounds[number].tables]


def _drawn(state: TournamentState) -> dict[str, tuple]:
    seeds = [e.player for e in sorted(state.entries.values(), key=lambda e: e.seed or 0)]
    rounds = [
        [
            Board(t.player1, t.player2, t.winner, int(t.slot.split("-")[1]) if t.slot else None)
            for t in state.rounds[n].tables
        ]
        for n in sorted(state.rounds)
    ]
    bracket = knockout_bracket(seeded=seeds, rounds=rounds)
    return {m.id: (m.players, m.status, m.winner) for m in bracket.matches}


def test_the_next_round_pairs_by_slot_and_a_lone_winner_goes_on_by_a_bye():
    assert knockout_next_slots([1, 8, None, 5, None, None, 2, 7]) == [
        Pair(1, 8), Pair(5, None), None, Pair(2, 7)
    ]  # fmt: skip


def test_a_round_1_table_both_of_whose_players_withdraw_is_left_empty_when_re_paired():
    # 8 players, seeds in bracket order: 1-8, 4-5, 2-7, 3-6.
    state = _pair(_knockout(8), 1)
    assert _slots(state, 1) == [("K1-1", 1, 8), ("K1-2", 4, 5), ("K1-3", 2, 7), ("K1-4", 3, 6)]
    state = _withdraw(state, 4, 5)  # before any match of round 1 has started
    repaired = decide(state, RepairRound(number=1, now=NOW, started=False))
    state = fold(with_match_ids(repaired, COUNTER), state)
    # The other tables keep their slots (no re-seeding of the six left).
    assert _slots(state, 1) == [("K1-1", 1, 8), ("K1-3", 2, 7), ("K1-4", 3, 6)]
    state = _pair(_play(state, 1), 2)
    # Seed 1 goes on by a bye where the 4-5 winner would have been; 2 meets 3 as seeded.
    assert _slots(state, 2) == [("K2-1", 1, None), ("K2-2", 2, 3)]
    drawn = _drawn(state)
    assert drawn["K1-2"] == ((None, None), "empty", None)
    assert drawn["K2-1"][1:] == ("bye", 1)
    state = _pair(_play(state, 2), 3)
    assert _slots(state, 3) == [("K3-1", 1, 2)]
    state = _play(state, 3)
    assert state.finished
    assert [line.player for line in standings_of(state)][:2] == [1, 2]


def test_two_winners_who_would_meet_both_withdraw_and_the_later_rounds_stay_aligned():
    # 16 players; round 2's first slot would be 1 against 8 (winners of K1-1, K1-2).
    state = _pair(_knockout(16), 1)
    state = _play(state, 1)
    state = _withdraw(state, 1, 8)
    state = _pair(state, 2)
    assert _slots(state, 2) == [("K2-2", 4, 5), ("K2-3", 2, 7), ("K2-4", 3, 6)]
    drawn = _drawn(state)
    assert drawn["K2-1"] == ((None, None), "empty", None)
    assert drawn["K3-1"] == ((None, None), "waiting", None)
    state = _play(state, 2)
    assert _drawn(state)["K3-1"] == ((None, 4), "bye", 4)  # known before it is paired
    state = _pair(state, 3)
    # K3-1: nobody came out of K2-1, so K2-2's winner (4) goes on by a bye; K3-2: 2 - 3.
    assert _slots(state, 3) == [("K3-1", 4, None), ("K3-2", 2, 3)]
    state = _pair(_play(state, 3), 4)
    assert _slots(state, 4) == [("K4-1", 4, 2)]
    state = _play(state, 4)
    assert state.finished
    lines = standings_of(state)
    assert [line.player for line in lines][:2] == [4, 2]
