"""A round's time: its clock (started when the round is paired, again when it is re-paired,
and by the director when play begins), its deadline (one round duration after the clock
started; the organiser may move it), and the warning before round 1 starts early."""

from __future__ import annotations

import datetime as dt

from tournaments.domain.commands import MoveDeadline, PairRound, StartRoundClock
from tournaments.domain.decide.common import round_in_play
from tournaments.domain.errors import TournamentConflictError
from tournaments.domain.events import RoundClockStarted, RoundDeadlineMoved, TournamentEvent
from tournaments.domain.state import RoundState, TournamentState

# Starting round 1 this much before its scheduled time asks the organiser to confirm.
EARLY_START = dt.timedelta(hours=1)


def iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def deadline_from(
    state: TournamentState, start: dt.datetime | None, round_: RoundState | None
) -> dt.datetime | None:
    """The deadline of a round whose clock starts at `start`: one round duration later;
    without a duration (or a start), the round's deadline as it is (None: none)."""
    if start is not None and state.round_duration is not None:
        return start + state.round_duration
    return round_.deadline if round_ is not None else None


def start_clock(state: TournamentState, command: StartRoundClock) -> list[TournamentEvent]:
    round_ = round_in_play(state, command.round, "only a round in play has a clock to start")
    if round_.clock_by_hand:
        raise TournamentConflictError(
            "the round's clock has already been started",
            code="clock_started",
            extra={"started_at": iso(round_.clock_started_at)},
        )
    deadline = deadline_from(state, command.now, round_)
    return [
        RoundClockStarted(
            round=command.round, started_at=command.now.isoformat(), deadline=iso(deadline)
        )
    ]


def move_deadline(state: TournamentState, command: MoveDeadline) -> list[TournamentEvent]:
    round_ = round_in_play(state, command.round, "only a round in play has a deadline to move")
    return [
        RoundDeadlineMoved(
            round=command.round, deadline=iso(command.deadline), previous=iso(round_.deadline)
        )
    ]


def check_early_start(
    state: TournamentState, command: PairRound, scheduled: dt.datetime | None
) -> None:
    """An organiser starting round 1 more than EARLY_START before its scheduled time must
    confirm it (409 before_schedule): the evening may be 11 hours away."""
    if command.confirm or command.by_scheduler or command.number != 1 or scheduled is None:
        return
    if scheduled - command.now > EARLY_START:
        raise TournamentConflictError(
            "round 1 is scheduled for %(scheduled)s: confirm to start it now",
            code="before_schedule",
            params={"scheduled": scheduled.isoformat()},
            extra={"scheduled_at": scheduled.isoformat()},
        )
