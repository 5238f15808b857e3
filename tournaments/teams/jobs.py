"""Where team events queue their Celery jobs: one place, through the transactional outbox
(core.outbox), as tournaments.jobs does for tournaments: a job is recorded with the write
that calls for it and relayed after commit."""

from __future__ import annotations

from typing import Any

from core.outbox import enqueue_in_tx


def round_pair_on_commit(*, event_id: int, round_number: int) -> None:
    """Pair a team event's round after this transaction commits."""
    enqueue_in_tx(task="teams.round_pair", args=(event_id, round_number))


def board_finished_on_commit(*, match_id: Any) -> None:
    """Record a finished board's result after this transaction commits."""
    enqueue_in_tx(task="teams.board_finished", args=(str(match_id),))
