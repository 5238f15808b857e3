"""Where the tournaments app queues its Celery jobs: one place, always after commit (STYLE 6).

Jobs are looked up by name in the Celery app (the tasks module registers them when the app
is ready), so the services that queue them need not import the tasks that call them. A
queueing failure (broker unreachable) is logged, not raised: the write has committed, and
beat's periodic jobs pick the work up (`tournaments.rounds_start_due`)."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)


def _queue(name: str, args: tuple[Any, ...], eta: dt.datetime | None = None) -> None:
    try:
        task = current_app.tasks[name]
        if eta is None:
            task.delay(*args)
        else:
            task.apply_async(args, eta=eta)
    except Exception:  # noqa: BLE001 - the write committed; never turn this into a 500
        log.exception("could not queue %s%r; the periodic jobs will pick it up", name, args)


def round_pair_on_commit(*, tournament_id: int, round_number: int, eta: dt.datetime | None) -> None:
    """Pair a round after this transaction commits: now, or at `eta`."""
    args = (tournament_id, round_number)
    transaction.on_commit(lambda: _queue("tournaments.round_pair", args, eta))


def match_finished_on_commit(*, match_id: Any) -> None:
    """Record a finished match's result after this transaction commits."""
    transaction.on_commit(lambda: _queue("tournaments.match_finished", (str(match_id),)))


def match_reopened_on_commit(*, match_id: Any) -> None:
    """Withdraw a reopened match's result after this transaction commits."""
    transaction.on_commit(lambda: _queue("tournaments.match_reopened", (str(match_id),)))


def webhooks_dispatch_on_commit(*, tournament_id: int) -> None:
    """Turn the tournament's new events into webhook deliveries after this commit."""
    transaction.on_commit(lambda: _queue("tournaments.webhooks_dispatch", (tournament_id,)))


def webhook_deliver_on_commit(*, delivery_id: int, eta: dt.datetime | None = None) -> None:
    """Send a webhook delivery after this transaction commits: now, or at `eta`."""
    transaction.on_commit(lambda: _queue("tournaments.webhook_deliver", (delivery_id,), eta))
