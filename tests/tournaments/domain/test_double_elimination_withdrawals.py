"""A double elimination whose last match a withdrawal decides between rounds (a finalist
withdraws before the grand final) is over: the withdrawal finishes it. A history recorded
before this was so (the withdrawal, then nothing left to pair) finishes at the next pairing
instead of refusing with "nobody is left to pair" (the exchange's generator found it: about
one double elimination in twenty with withdrawals stuck)."""

from __future__ import annotations

import random

from tests.tournaments.exchange.individual_helpers import NOW, TIEBREAK_ORDERS, entered, run
from tournaments.domain import decide
from tournaments.domain.commands import PairRound, RecordResult, Withdraw
from tournaments.domain.events import (
    PlayerWithdrawn,
    ResultEntry,
    TournamentCreated,
    TournamentFinished,
)
from tournaments.domain.evolve import evolve
from tournaments.domain.seeding import bracket_of
from tournaments.domain.state import TournamentState


def _before_the_grand_final() -> tuple[TournamentState, tuple[int, int]]:
    """Four players, no reset: rounds played until only the grand final is left; its two
    finalists."""
    rng, counter = random.Random(5), [0]
    created = TournamentCreated(
        format="double_elimination", name="DE", rounds=None, tiebreaks=TIEBREAK_ORDERS[0],
        bracket_reset=False,
    )  # fmt: skip
    state, ids = entered(created, 4, rng, counter)
    n = 0
    while True:
        wave = bracket_of(state).next_wave if state.rounds else ()
        if wave and all(m.id.startswith("GF") for m in wave):
            (final,) = wave
            return state, (final.pair.first, final.pair.second)
        n += 1
        state = run(state, PairRound(number=n, now=NOW, ratings={p: p for p in ids}), counter)
        for t in state.rounds[n].tables:
            if t.player2 is None or t.status == "finished":
                continue
            winner = rng.choice((t.player1, t.player2))
            entry = ResultEntry(n, t.table, t.player1, t.player2, winner, 2, 0, 200, 50, t.match)
            state = run(state, RecordResult(result=entry), counter)


def test_a_finalist_withdrawing_before_the_grand_final_finishes_it() -> None:
    state, (first, second) = _before_the_grand_final()
    assert not state.finished and state.rounds[state.current_round].status == "completed"
    events = decide(state, Withdraw(player=second))
    assert [type(e) for e in events] == [PlayerWithdrawn, TournamentFinished]
    for e in events:
        state = evolve(state, e)
    assert state.finished and bracket_of(state).champion == first


def test_an_old_history_stuck_after_the_withdrawal_finishes_at_the_next_pairing() -> None:
    state, (first, second) = _before_the_grand_final()
    state = evolve(state, PlayerWithdrawn(player=second))  # as it was recorded before the fix
    assert not state.finished
    events = decide(state, PairRound(number=state.current_round + 1, now=NOW))
    assert events == [TournamentFinished(rounds=state.current_round)]
    assert bracket_of(evolve(state, events[0])).champion == first
