"""Rulings and deadlines: forfeits by an organiser, by withdrawal or by the deadline job,
and moving a round's deadline. load → decide (RuleResult / MoveDeadline) → save.

A forfeit is a ruling on the match (games.services.match_rule); its result reaches the
tournament like any other finished match's, through the `match_finished` signal.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.transactions import write_service
from games.selectors import MatchOutcome, match_get, match_outcomes, user_can_organise_match
from games.services import match_rule_in_tx
from players.models import Player
from tournaments.domain.commands import MoveDeadline, RuleResult, StartRoundClock
from tournaments.domain.errors import TournamentConflictError
from tournaments.domain.state import PAIRED, PENDING, Table, TournamentState
from tournaments.models import Pairing, Round, Tournament
from tournaments.repository import TournamentWrite, system_user, tournament_load, tournament_save
from tournaments.selectors import user_can_organise
from tournaments.services._common import ORGANISERS_ONLY, decided, run

log = logging.getLogger(__name__)


def tables_in_play_of(state: TournamentState, player: int) -> Iterator[tuple[int, Table]]:
    """The tables in play where `player` sits, with their round numbers."""
    for number, round_ in sorted(state.rounds.items()):
        for table in round_.tables:
            if table.status == PENDING and table.match and player in (table.player1, table.player2):
                yield number, table


def table_forfeit_in_tx(
    write: TournamentWrite,
    *,
    round_number: int,
    table: int,
    winner: int,
    by: AbstractBaseUser | None,
    reason: str,
) -> None:
    """Rule the table's match won by forfeit (ResultRuled); the result follows when the
    match's `match_finished` signal is handled, like any other finished match."""
    events = decided(write, RuleResult(round=round_number, table=table, winner=winner))
    match_id = events[0].match  # type: ignore[union-attr]
    ruler, why = by, reason
    if by is None or not user_can_organise_match(user=by, match=match_get(match_id=match_id)):
        # The scheduler, or an organiser added after the match was made: the system rules
        # on the match. The match's events are the players' to read, so they say only that
        # an organiser asked; the tournament's log names them to its organisers.
        ruler = system_user()
        why = reason if by is None else f"{reason} (ruled by a tournament organiser)"
    match_rule_in_tx(
        match_id=match_id, by=ruler, type="forfeit", player=Player.objects.get(pk=winner),
        reason=why,
    )  # fmt: skip
    tournament_save(write, events, by=by, reason=reason)


@write_service
def tournament_result_rule(
    *,
    tournament_id: int,
    round_number: int,
    table: int,
    winner: Player,
    by: AbstractBaseUser,
    reason: str,
) -> Pairing:
    """An organiser rules a match in play won (by forfeit) by `winner`."""
    if not reason.strip():
        raise ValidationError("a ruling needs a reason", code="reason_required")
    write = tournament_load(tournament_id=tournament_id)
    if not user_can_organise(user=by, tournament=write.row):
        raise PermissionDeniedError(ORGANISERS_ONLY)
    table_forfeit_in_tx(
        write, round_number=round_number, table=table, winner=winner.pk, by=by,
        reason=reason.strip(),
    )  # fmt: skip
    return Pairing.objects.select_related("round", "player1", "player2").get(
        round__tournament=write.row, round__number=round_number, table=table
    )


@write_service
def tournament_round_deadline_move(
    *,
    tournament_id: int,
    round_number: int,
    deadline: dt.datetime | None,
    by: AbstractBaseUser,
    reason: str,
) -> Round:
    """Move (or, with None, lift) a round's deadline."""
    if deadline is not None and timezone.is_naive(deadline):
        raise ValidationError("the deadline needs a time zone", code="naive_datetime")
    write = tournament_load(tournament_id=tournament_id)
    if not user_can_organise(user=by, tournament=write.row):
        raise PermissionDeniedError(ORGANISERS_ONLY)
    run(write, MoveDeadline(round=round_number, deadline=deadline), by=by, reason=reason)
    return Round.objects.get(tournament=write.row, number=round_number)


@write_service
def tournament_round_clock_start(
    *, tournament_id: int, round_number: int, by: AbstractBaseUser, reason: str = ""
) -> Round:
    """Start a round's clock now, as play begins (RoundClockStarted): its deadline is one
    round duration from now, and the deadline job's forfeits follow it. Once per pairing:
    a second start is 409 (reason clock_started); a re-pairing starts the clock again."""
    write = tournament_load(tournament_id=tournament_id)
    if not user_can_organise(user=by, tournament=write.row):
        raise PermissionDeniedError(ORGANISERS_ONLY)
    now = timezone.now()
    command = StartRoundClock(round=round_number, now=now)
    tournament_save(write, decided(write, command), by=by, reason=reason, at=now)
    return Round.objects.get(tournament=write.row, number=round_number)


def _overdue_loser(
    table: Table, state: TournamentState, number: int, turn_time: dt.timedelta | None,
    match: MatchOutcome | None, now: dt.datetime,
) -> tuple[int, str] | None:  # fmt: skip
    """The player (id) who has not acted in time, and why; None if nobody is overdue.
    Only online matches have a player to move; table matches are left to the organisers."""
    if match is None or match.status != "in_progress" or match.turn_player is None:
        return None
    round_ = state.rounds[number]
    since = match.last_action_at or round_.clock_started_at or round_.paired_at
    if turn_time is not None and since is not None and now - since > turn_time:
        return match.turn_player, "turn time exceeded"
    if round_.deadline is not None and now > round_.deadline:
        return match.turn_player, "round deadline passed"
    return None


@write_service
def _deadline_forfeit(
    match_id: str, tournament_id: int, number: int, table_no: int, now: dt.datetime
) -> bool:
    """Forfeit one table whose player to move is overdue, if it still is under the lock.
    True if it was ruled."""
    write = tournament_load(tournament_id=tournament_id)
    round_ = write.state.rounds.get(number)
    table = round_.table(table_no) if round_ else None
    if table is None or table.status != PENDING or round_.status != PAIRED:
        return False  # finished meanwhile
    fresh = match_outcomes(match_ids=[match_id]).get(match_id)
    overdue = _overdue_loser(table, write.state, number, write.row.turn_time, fresh, now)
    if overdue is None:
        return False  # finished or moved meanwhile, or the deadline was moved
    loser, why = overdue
    winner = table.player2 if loser == table.player1 else table.player1
    assert winner is not None
    table_forfeit_in_tx(
        write, round_number=number, table=table_no, winner=winner, by=None, reason=why
    )
    return True


def tournament_deadlines_enforce(*, now: dt.datetime | None = None) -> list[int]:
    """Forfeit every match whose player to move is past the turn time or the round deadline
    (a ResultRuled event by the system). Returns the pairing ids ruled."""
    now = now or timezone.now()
    pending = list(
        Pairing.objects.filter(
            status=Pairing.Status.PENDING,
            match__isnull=False,
            round__status=Round.Status.PAIRED,
            round__tournament__status=Tournament.Status.IN_PROGRESS,
        ).values_list("pk", "match_id", "round__tournament_id", "round__number", "table")
    )
    outcomes = match_outcomes(match_ids=[p[1] for p in pending])
    ruled = []
    for pk, match_id, tournament_id, number, table_no in pending:
        if outcomes.get(str(match_id)) is None:
            continue
        try:
            if _deadline_forfeit(str(match_id), tournament_id, number, table_no, now):
                ruled.append(pk)
        except (ConflictError, TournamentConflictError):
            log.warning("deadline forfeit of pairing %s lost a race; next run retries", pk)
    return ruled
