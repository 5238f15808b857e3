"""Where the games app queues its Celery jobs: through the transactional outbox
(core.outbox), so a job is recorded with the move that calls for it and relayed after
commit without a request ever waiting on the broker; a job the broker missed is sent by the
outbox's drain, and the player's next look at the match (the play page, or
`GET /api/matches/{id}/` by one of its players) queues the bot once more
(`games.services.practice.practice_bot_nudge`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from core.outbox import enqueue_in_tx

# The bot "thinks" this long before it moves when a worker runs the job (eager jobs under
# `make run` run at once; the page then shows the bot's move after a short pause itself).
BOT_COUNTDOWN_SECONDS = 0.6


def _queue(name: str, args: tuple[Any, ...]) -> None:
    eta = timezone.now() + dt.timedelta(seconds=BOT_COUNTDOWN_SECONDS)
    enqueue_in_tx(task=name, args=args, eta=eta)


def practice_bot_move_on_commit(*, match_id: Any, version: int) -> None:
    """The bot of a practice match moves after this transaction commits (the match at
    `version`: a job for an older version does nothing)."""
    _queue("games.practice_bot_move", (str(match_id), version))


def practice_bot_move_now(*, match_id: Any, version: int) -> None:
    """The same job queued at once (no transaction is open: a nudge from a page)."""
    _queue("games.practice_bot_move", (str(match_id), version))
