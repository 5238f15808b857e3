"""Celery jobs of team events: ids in, one idempotent service call (a repeat does nothing)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from core.errors import VersionConflictError
from eventstore import ConcurrencyError
from tournaments.teams.services import team_board_record, team_round_pair

_RETRYING: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError, VersionConflictError, ConcurrencyError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(name="teams.round_pair", **_RETRYING)
def team_round_pair_task(event_id: int, round_number: int) -> bool:
    return team_round_pair(event_id=event_id, round_number=round_number)


@shared_task(name="teams.board_finished", **_RETRYING)
def team_board_finished_task(match_id: str) -> bool:
    return team_board_record(match_id=match_id)
