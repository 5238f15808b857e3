"""Where the games app queues its Celery jobs: after commit (STYLE 6), looked up by name in
the Celery app (games/tasks.py registers them), so the services need not import the tasks.
A queueing failure is logged, never raised: the move has committed; the player's next look
at the match (the practice page asks again) queues the bot once more
(`games.practice.practice_bot_nudge`)."""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)

# The bot "thinks" this long before it moves when a worker runs the job (eager jobs under
# `make run` run at once; the page then shows the bot's move after a short pause itself).
BOT_COUNTDOWN_SECONDS = 0.6


def _queue(name: str, args: tuple[Any, ...]) -> None:
    try:
        task = current_app.tasks[name]
        if task.app.conf.task_always_eager:
            task.delay(*args)
        else:
            task.apply_async(args, countdown=BOT_COUNTDOWN_SECONDS)
    except Exception:  # noqa: BLE001 - the write committed; never turn this into a 500
        log.exception("could not queue %s%r", name, args)


def practice_bot_move_on_commit(*, match_id: Any, version: int) -> None:
    """The bot of a practice match moves after this transaction commits (the match at
    `version`: a job for an older version does nothing)."""
    args = (str(match_id), version)
    transaction.on_commit(lambda: _queue("games.practice_bot_move", args))


def practice_bot_move_now(*, match_id: Any, version: int) -> None:
    """The same job queued at once (no transaction is open: a nudge from a page)."""
    _queue("games.practice_bot_move", (str(match_id), version))
