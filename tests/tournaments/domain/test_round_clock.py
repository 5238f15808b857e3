"""The round clock (issue 24, "The roster and the round"), pure: it starts when the round
is paired, again when it is re-paired, and when the director starts it (RoundClockStarted,
once per pairing); the deadline follows it. Round 1 started more than an hour before its
scheduled time needs a confirmation. No database."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from tournaments.domain import TournamentConflictError, decide, event_from_stored, fold
from tournaments.domain.commands import (
    MoveDeadline,
    PairRound,
    Register,
    RepairRound,
    StartRoundClock,
)
from tournaments.domain.events import RoundClockStarted, RoundPaired, TournamentCreated
from tournaments.domain.snapshot import state_from_dict, state_to_dict
from tournaments.domain.stored import event_to_stored

PAIRED_AT = dt.datetime(2026, 12, 1, 19, 30, tzinfo=dt.UTC)
HOUR = dt.timedelta(hours=1)


def _recorded(events, at):
    """As the store gives them back: with the time they were recorded at."""
    return [replace(e, at=at) for e in events]


def _paired(duration: float | None = 3600.0, **created):
    state = fold([TournamentCreated(format="swiss", rounds=3, check_in_required=False,
                                    round_duration=duration, **created)])  # fmt: skip
    for p in (1, 2, 3, 4):
        state = fold(decide(state, Register(player=p)), state)
    events = decide(state, PairRound(number=1, now=PAIRED_AT))
    return fold(_recorded(events, PAIRED_AT), state)


def test_the_clock_starts_when_the_round_is_paired():
    round_ = _paired().rounds[1]
    assert (round_.clock_started_at, round_.clock_by_hand) == (PAIRED_AT, False)
    assert round_.deadline == PAIRED_AT + HOUR


def test_the_director_starts_it_when_play_begins_and_the_deadline_follows():
    state = _paired()
    begins = PAIRED_AT + dt.timedelta(minutes=25)
    events = decide(state, StartRoundClock(round=1, now=begins))
    assert events == [
        RoundClockStarted(
            round=1, started_at=begins.isoformat(), deadline=(begins + HOUR).isoformat()
        )
    ]
    round_ = fold(_recorded(events, begins), state).rounds[1]
    assert (round_.clock_started_at, round_.clock_by_hand) == (begins, True)
    assert round_.deadline == begins + HOUR


def test_without_a_round_duration_the_deadline_stays_as_it_is():
    state = _paired(duration=None)
    moved = PAIRED_AT + 2 * HOUR
    state = fold(decide(state, MoveDeadline(round=1, deadline=moved)), state)
    state = fold(decide(state, StartRoundClock(round=1, now=PAIRED_AT + HOUR)), state)
    assert state.rounds[1].deadline == moved


def test_a_second_start_is_refused_with_when_it_started():
    state = _paired()
    begins = PAIRED_AT + dt.timedelta(minutes=5)
    state = fold(decide(state, StartRoundClock(round=1, now=begins)), state)
    with pytest.raises(TournamentConflictError) as refused:
        decide(state, StartRoundClock(round=1, now=begins + HOUR))
    assert refused.value.code == "clock_started"
    assert refused.value.extra == {"started_at": begins.isoformat()}


@pytest.mark.parametrize("number", [2, 7])
def test_only_a_round_in_play_has_a_clock(number):
    with pytest.raises(TournamentConflictError) as refused:
        decide(_paired(), StartRoundClock(round=number, now=PAIRED_AT))
    assert refused.value.extra == {"reason": "round_not_in_play"}


def test_a_re_pairing_starts_the_clock_again_from_the_re_pairing():
    """The documented choice: the re-paired round's clock runs from the re-pairing (its
    deadline one round duration later), not unstarted; the director may start it again
    when play begins."""
    state = _paired()
    state = fold(decide(state, StartRoundClock(round=1, now=PAIRED_AT + HOUR / 4)), state)
    again = PAIRED_AT + HOUR / 2
    events = decide(state, RepairRound(number=1, started=False, now=again))
    repaired = next(e for e in events if isinstance(e, RoundPaired))
    assert repaired.deadline == (again + HOUR).isoformat()
    round_ = fold(_recorded(events, again), state).rounds[1]
    assert (round_.clock_started_at, round_.clock_by_hand) == (again, False)
    assert round_.paired_at == PAIRED_AT  # when it was first paired stays
    assert decide(fold(_recorded(events, again), state), StartRoundClock(round=1, now=again))


def test_the_event_is_stored_and_read_back_and_the_state_snapshots():
    event = RoundClockStarted(round=2, started_at="2026-12-01T20:00:00+00:00", deadline=None)
    type_, data = event_to_stored(event)
    assert (type_, data) == (
        "RoundClockStarted",
        {"round": 2, "started_at": "2026-12-01T20:00:00+00:00", "deadline": None},
    )
    assert event_from_stored(type_, data) == event
    state = fold(decide(_paired(), StartRoundClock(round=1, now=PAIRED_AT)), _paired())
    assert state_from_dict(state_to_dict(state)) == state


def _registered(starts_at: dt.datetime):
    state = fold([TournamentCreated(format="swiss", rounds=3, check_in_required=False,
                                    starts_at=starts_at.isoformat())])  # fmt: skip
    for p in (1, 2):
        state = fold(decide(state, Register(player=p)), state)
    return state


def test_round_1_more_than_an_hour_early_needs_a_confirmation():
    scheduled = PAIRED_AT + 11 * HOUR
    state = _registered(scheduled)
    with pytest.raises(TournamentConflictError) as refused:
        decide(state, PairRound(number=1, now=PAIRED_AT, confirm=False))
    assert refused.value.code == "before_schedule"
    assert refused.value.extra == {"scheduled_at": scheduled.isoformat()}
    assert decide(state, PairRound(number=1, now=PAIRED_AT, confirm=True))
    # Within the hour, no question; the scheduler waits for the time, never asks.
    assert decide(state, PairRound(number=1, now=scheduled - HOUR / 2, confirm=False))
    assert decide(state, PairRound(number=1, now=PAIRED_AT, by_scheduler=True)) == []
