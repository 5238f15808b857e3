"""The notices' jobs (issue 40): thin, ids in; a repeat sends nothing (Notice.key, and the
claim before each e-mail)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from tournaments.notices.services import (
    match_notices_send,
    tournament_notices_send,
    tournament_reminders_send,
)

_RETRYING: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


@shared_task(name="tournaments.notices_send", **_RETRYING)
def tournament_notices_send_task(tournament_id: int, first: int, last: int) -> int:
    """The notices of a tournament's new events; returns the e-mails sent by this run."""
    return tournament_notices_send(tournament_id=tournament_id, first=first, last=last)


@shared_task(name="tournaments.notices_reminders", **_RETRYING)
def tournament_notices_reminders_task() -> int:
    """Periodic (beat, hourly): the reminders the day before a tournament."""
    return tournament_reminders_send()


@shared_task(name="tournaments.notices_match", **_RETRYING)
def match_notices_send_task(match_id: str, what: str, ref: int) -> int:
    """The notices of a tournament match's change (an entry to confirm, a dispute ruled)."""
    return match_notices_send(match_id=match_id, what=what, ref=ref)
