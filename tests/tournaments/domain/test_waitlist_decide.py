"""Places and the waitlist, pure (issue 40): decide and fold, no database."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments.domain import decide, event_from_stored, fold
from tournaments.domain.commands import (
    ApproveEntry,
    MarkNoShows,
    Register,
    SetCapacity,
    UndoNoShow,
    Withdraw,
)
from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.domain.events import PlayerPromoted, PlayerWaitlisted
from tournaments.domain.state import TournamentState  # noqa: TC001
from tournaments.domain.stored import event_to_stored

T0 = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)


def _run(state: TournamentState, command, at: dt.datetime = T0) -> TournamentState:
    """decide, then store and read back (as the repository does), then fold."""
    events = [event_from_stored(*event_to_stored(e), at=at) for e in decide(state, command)]
    return fold(events, state)


def _tournament(format_: str = "swiss", capacity: int | None = 2) -> TournamentState:
    state = fold([event_from_stored("TournamentCreated", {"format": format_, "rounds": 3})])
    return _run(state, SetCapacity(capacity=capacity)) if capacity else state


def test_beyond_the_capacity_entries_wait_in_order_and_are_promoted_in_order() -> None:
    state = _tournament()
    for player in (1, 2, 3, 4):
        state = _run(state, Register(player=player))
    assert [state.entries[p].status for p in (1, 2, 3, 4)] == [
        "registered", "registered", "waitlisted", "waitlisted",
    ]  # fmt: skip
    assert state.waitlist == (3, 4)
    events = decide(state, Withdraw(player=1))
    assert [type(e).__name__ for e in events] == ["PlayerWithdrawn", "PlayerPromoted"]
    assert events[1] == PlayerPromoted(player=3, cause="withdrawal")
    # A waiting player withdrawing frees no place.
    assert [type(e).__name__ for e in decide(state, Withdraw(player=4))] == ["PlayerWithdrawn"]
    # More places: both waiting players at once.
    raised = decide(state, SetCapacity(capacity=5))
    assert [getattr(e, "player", None) for e in raised[1:]] == [3, 4]
    with pytest.raises(TournamentInputError):
        decide(state, SetCapacity(capacity=1))


def test_approval_then_a_place_or_the_waitlist() -> None:
    state = _tournament(capacity=2)
    state = _run(state, Register(player=1))
    state = _run(state, Register(player=2, approval=True))
    state = _run(state, Register(player=3))
    assert state.entries[2].status == "requested"
    assert decide(state, ApproveEntry(player=2)) == [PlayerWaitlisted(player=2)]
    state = _run(state, ApproveEntry(player=2))
    assert state.entries[2].order == 2  # its place in the order kept
    assert state.waitlist == (2,)


def test_no_shows_at_the_deadline_and_undone_only_before_round_one() -> None:
    state = _tournament(capacity=2)
    for player in (1, 2, 3):
        state = _run(state, Register(player=player))
    deadline = T0 + dt.timedelta(hours=1)
    later = deadline + dt.timedelta(minutes=1)
    state = _run(state, MarkNoShows(deadline=deadline), at=later)
    assert {p: (e.status, e.no_show) for p, e in state.entries.items()} == {
        1: ("withdrawn", True), 2: ("withdrawn", True), 3: ("registered", False),
    }  # fmt: skip
    # Promoted after the deadline: not a no-show by it, however often the job runs.
    assert decide(state, MarkNoShows(deadline=deadline)) == []
    state = _run(state, UndoNoShow(player=1))
    assert state.entries[1].status == "registered" and 1 not in state.withdrawals
    assert decide(state, UndoNoShow(player=1)) == []  # undone already
    paired = event_from_stored(
        "RoundPaired", {"round": 1, "pairings": [{"table": 1, "player1": 1, "player2": 3}]}
    )
    state = fold([paired], state)
    with pytest.raises(TournamentConflictError) as late:
        decide(state, UndoNoShow(player=2))
    assert late.value.code == "already_paired"


def test_no_promotion_after_the_start_of_a_knockout() -> None:
    state = _tournament(format_="knockout", capacity=2)
    for player in (1, 2, 3):
        state = _run(state, Register(player=player))
    state = fold([event_from_stored("TournamentStarted", {"seeds": [1, 2]})], state)
    assert [type(e).__name__ for e in decide(state, Withdraw(player=1))] == ["PlayerWithdrawn"]
