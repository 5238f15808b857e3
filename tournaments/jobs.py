"""Where the tournaments app queues its Celery jobs: one place, through the transactional
outbox (core.outbox), so a job is recorded with the write that calls for it and relayed
after commit; no request waits on the broker, and a job the broker missed is sent by the
outbox's drain (beat's periodic jobs, `tournaments.rounds_start_due` and the reconcile,
remain the second net)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from core.outbox import enqueue_in_tx


def round_pair_on_commit(*, tournament_id: int, round_number: int, eta: dt.datetime | None) -> None:
    """Pair a round after this transaction commits: now, or at `eta`."""
    enqueue_in_tx(task="tournaments.round_pair", args=(tournament_id, round_number), eta=eta)


def match_finished_on_commit(*, match_id: Any) -> None:
    """Record a finished match's result after this transaction commits."""
    enqueue_in_tx(task="tournaments.match_finished", args=(str(match_id),))


def match_reopened_on_commit(*, match_id: Any) -> None:
    """Withdraw a reopened match's result after this transaction commits."""
    enqueue_in_tx(task="tournaments.match_reopened", args=(str(match_id),))


def club_ratings_sync_on_commit(*, tournament_id: int) -> None:
    """Bring the club's ratings up to a finished tournament's events after this commit
    (tournaments.ratings; beat's `ratings.reconcile` is the second net)."""
    enqueue_in_tx(task="ratings.tournament_sync", args=(tournament_id,))


def webhooks_dispatch_on_commit(*, tournament_id: int) -> None:
    """Turn the tournament's new events into webhook deliveries after this commit."""
    enqueue_in_tx(task="tournaments.webhooks_dispatch", args=(tournament_id,))


def webhook_deliver_on_commit(*, delivery_id: int, eta: dt.datetime | None = None) -> None:
    """Send a webhook delivery after this transaction commits: now, or at `eta`."""
    enqueue_in_tx(task="tournaments.webhook_deliver", args=(delivery_id,), eta=eta)


def no_shows_on_commit(*, tournament_id: int, eta: dt.datetime | None) -> None:
    """Withdraw the no-shows at the check-in deadline (`eta`), after this commit."""
    enqueue_in_tx(task="tournaments.no_shows_mark", args=(tournament_id,), eta=eta)


# The tournament events that tell a player something (tournaments.notices).
NOTICE_EVENT_TYPES = frozenset(
    {"PlayerRegistered", "PlayerWaitlisted", "PlayerPromoted", "RoundPaired", "RoundRepaired"}
)


def notices_on_commit(*, tournament_id: int, first: int, last: int) -> None:
    """Turn the tournament's events `first`..`last` (stream versions) into the players'
    notices after this commit (tournaments.notices)."""
    enqueue_in_tx(task="tournaments.notices_send", args=(tournament_id, first, last))


def match_notices_on_commit(*, match_id: Any, what: str, ref: int) -> None:
    """Tell a tournament match's players of its change (tournaments.notices.matches) after
    this commit (or now, when no transaction is open: the games app's signals come after
    theirs)."""
    enqueue_in_tx(task="tournaments.notices_match", args=(str(match_id), what, ref))
