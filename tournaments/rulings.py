"""Rulings and deadlines: forfeits by an organiser, by withdrawal or by the deadline job,
and moving a round's deadline. Re-exported by tournaments.services.

A forfeit is a ruling on the match (games.services.match_rule); its result reaches the
tournament like any other finished match's, through the `match_finished` signal.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.transactions import service_transaction
from games.selectors import MatchOutcome, match_get, match_outcomes, user_can_organise_match
from games.services import match_rule_in_tx
from players.models import Player
from tournaments import stream
from tournaments.models import Pairing, Round, Tournament
from tournaments.rounds import paired_round_lock
from tournaments.selectors import tournament_lock, user_can_organise
from tournaments.stream import system_user

log = logging.getLogger(__name__)


def _require_organiser(user: AbstractBaseUser, tournament: Tournament) -> None:
    if not user_can_organise(user=user, tournament=tournament):
        raise PermissionDeniedError("only the tournament's organisers may do this")


def pairing_forfeit(
    *,
    tournament: Tournament,
    pairing: Pairing,
    winner: Player,
    by: AbstractBaseUser | None,
    reason: str,
) -> None:
    """Rule the pairing's match won by forfeit; the result follows when the match's
    `match_finished` signal is handled, like any other finished match."""
    ruler, why = by, reason
    if by is None or not user_can_organise_match(
        user=by, match=match_get(match_id=pairing.match_id)
    ):
        # The scheduler, or an organiser added after the match was made: the system rules
        # on the match. The match's events are the players' to read, so they say only that
        # an organiser asked; the tournament's log names them to its organisers.
        ruler = system_user()
        why = reason if by is None else f"{reason} (ruled by a tournament organiser)"
    match_rule_in_tx(match_id=pairing.match_id, by=ruler, type="forfeit", player=winner, reason=why)
    data = {"round": pairing.round.number, "table": pairing.table, "winner": winner.pk}
    data["match"] = str(pairing.match_id)
    stream.stream_append(
        tournament=tournament, events=[(stream.RESULT_RULED, data)], by=by, reason=reason
    )


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
    with service_transaction():
        tournament = tournament_lock(tournament_id=tournament_id)
        _require_organiser(by, tournament)
        pairing = (
            Pairing.objects.filter(round__tournament=tournament, round__number=round_number)
            .select_related("round", "player1", "player2")
            .filter(table=table)
            .first()
        )
        if pairing is None:
            raise ValidationError("no such table in that round", code="pairing")
        if pairing.status == Pairing.Status.FINISHED or pairing.match_id is None:
            raise ConflictError("this pairing already has a result", code="finished")
        if winner.pk not in (pairing.player1_id, pairing.player2_id):
            raise ValidationError("the winner must be one of the pairing's players")
        pairing_forfeit(
            tournament=tournament, pairing=pairing, winner=winner, by=by, reason=reason.strip()
        )
    return pairing


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
    with service_transaction():
        tournament, round_ = paired_round_lock(
            tournament_id=tournament_id,
            round_number=round_number,
            by=by,
            conflict="only a round in play has a deadline to move",
        )
        previous = round_.deadline
        round_.deadline = deadline
        round_.save(update_fields=["deadline"])
        data = {
            "round": round_number,
            "deadline": deadline.isoformat() if deadline else None,
            "previous": previous.isoformat() if previous else None,
        }
        stream.stream_append(
            tournament=tournament,
            events=[(stream.ROUND_DEADLINE_MOVED, data)],
            by=by,
            reason=reason,
        )
    return round_


def _overdue_loser(
    pairing: Pairing, match: MatchOutcome | None, now: dt.datetime
) -> tuple[int, str] | None:
    """The player (id) who has not acted in time, and why; None if nobody is overdue.
    Only online matches have a player to move; table matches are left to the organisers."""
    if match is None or match.status != "in_progress" or match.turn_player is None:
        return None
    turn_time = pairing.round.tournament.turn_time
    since = match.last_action_at or pairing.round.paired_at
    if turn_time is not None and since is not None and now - since > turn_time:
        return match.turn_player, "turn time exceeded"
    if pairing.round.deadline is not None and now > pairing.round.deadline:
        return match.turn_player, "round deadline passed"
    return None


def _outcome(pairing: Pairing) -> MatchOutcome | None:
    return match_outcomes(match_ids=[pairing.match_id]).get(str(pairing.match_id))


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
        ).select_related("round", "round__tournament", "player1", "player2")
    )
    outcomes = match_outcomes(match_ids=[p.match_id for p in pending])
    ruled = []
    for pairing in pending:
        overdue = _overdue_loser(pairing, outcomes.get(str(pairing.match_id)), now)
        if overdue is None:
            continue
        loser, why = overdue
        winner = pairing.player2 if loser == pairing.player1_id else pairing.player1
        try:
            with service_transaction():
                tournament = tournament_lock(tournament_id=pairing.round.tournament_id)
                fresh = Pairing.objects.select_related("round").get(pk=pairing.pk)
                if fresh.status != Pairing.Status.PENDING:
                    continue  # finished meanwhile
                if _overdue_loser(fresh, _outcome(fresh), now) is None:
                    continue  # finished or moved meanwhile, or the deadline was moved
                pairing_forfeit(
                    tournament=tournament, pairing=fresh, winner=winner, by=None, reason=why
                )
            ruled.append(pairing.pk)
        except ConflictError:
            log.warning("deadline forfeit of pairing %s lost a race; next run retries", pairing.pk)
    return ruled
