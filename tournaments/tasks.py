"""Celery jobs of tournaments. Thin: ids in, one service call, guarded by the service.

Every job may run twice (acks_late redelivers after a worker dies; beat and an ETA can both
fire): the services are idempotent, so a repeat does nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from core.errors import VersionConflictError, application_error, refusals
from eventstore import ConcurrencyError
from tournaments.notices import tasks as notices_tasks  # noqa: F401 - registers its jobs
from tournaments.services import tournament_deadlines_enforce as enforce
from tournaments.services import (
    tournament_match_result_record,
    tournament_match_result_withdraw,
    tournament_results_reconcile,
    tournament_round_pair,
    tournament_round_unpairable,
    tournament_rounds_due_queue,
)
from tournaments.services.waitlist import tournament_no_shows_mark, tournaments_no_shows_due

log = logging.getLogger(__name__)

_RETRYING: dict[str, Any] = {
    "acks_late": True,
    # Database hiccups, and a stream that moved on under us (retried on fresh state).
    "autoretry_for": (OperationalError, InterfaceError, VersionConflictError, ConcurrencyError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(name="tournaments.round_pair", **_RETRYING)
def tournament_round_pair_task(tournament_id: int, round_number: int) -> bool:
    """Pair a round for the scheduler. True if this run paired it."""
    try:
        return (
            tournament_round_pair(tournament_id=tournament_id, round_number=round_number)
            is not None
        )
    except (VersionConflictError, ConcurrencyError):
        raise  # retried
    except refusals() as exc:
        # A domain refusal (too few players, previous round in play) will not change by
        # retrying; the organiser sees the round unpaired and acts by hand.
        reason = str(application_error(exc))
        log.warning("round %s of tournament %s not paired: %s", round_number, tournament_id, reason)
        tournament_round_unpairable(
            tournament_id=tournament_id, round_number=round_number, reason=reason
        )
        return False


@shared_task(name="tournaments.match_finished", **_RETRYING)
def tournament_match_finished(match_id: str) -> bool:
    """Record a finished match's result in its tournament (and complete the round)."""
    return tournament_match_result_record(match_id=match_id) is not None


@shared_task(name="tournaments.results_reconcile", **_RETRYING)
def tournament_results_reconcile_task() -> int:
    """Periodic (beat): record results whose `match_finished` job was lost."""
    return len(tournament_results_reconcile())


@shared_task(name="tournaments.match_reopened", **_RETRYING)
def tournament_match_reopened(match_id: str) -> bool:
    """A correction put a finished match back in play: withdraw its recorded result."""
    return tournament_match_result_withdraw(match_id=match_id) is not None


@shared_task(name="tournaments.deadlines_enforce", **_RETRYING)
def tournament_deadlines_enforce() -> int:
    """Periodic (beat): forfeit players past the turn time or the round deadline."""
    return len(enforce())


@shared_task(name="tournaments.rounds_start_due", **_RETRYING)
def tournament_rounds_start_due() -> int:
    """Periodic (beat): queue the pairing of every round whose start time has come."""
    return len(tournament_rounds_due_queue())


@shared_task(name="tournaments.no_shows_mark", **_RETRYING)
def tournament_no_shows_mark_task(tournament_id: int) -> int:
    """At the check-in deadline: withdraw the no-shows, promote the waitlist (issue 40)."""
    return tournament_no_shows_mark(tournament_id=tournament_id)


@shared_task(name="tournaments.no_shows_due", **_RETRYING)
def tournament_no_shows_due_task() -> int:
    """Periodic (beat): the no-shows of every tournament past its check-in deadline whose
    own job was lost (a repeat withdraws nobody)."""
    return sum(tournament_no_shows_mark(tournament_id=t) for t in tournaments_no_shows_due())
