"""Where the ratings queue their Celery jobs: one place. A queueing failure is logged,
never raised (the write committed; beat's `ratings.reconcile` picks the work up)."""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)


def club_ratings_sync_queue(*, tournament_id: int) -> None:
    """Queue the tournament's ratings job once the current transaction (if any) commits."""

    def queue() -> None:
        try:
            current_app.tasks["ratings.tournament_sync"].delay(tournament_id)
        except Exception:  # noqa: BLE001 - never turn a committed write into an error
            log.exception(
                "could not queue ratings of tournament %s; beat reconciles", tournament_id
            )

    transaction.on_commit(queue)
