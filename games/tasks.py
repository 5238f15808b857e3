"""Celery jobs of the games app: thin, idempotent (STYLE 7), queued by games/jobs.py."""

from __future__ import annotations

from celery import shared_task

from games.services import practice


@shared_task(name="games.practice_bot_move", acks_late=True, ignore_result=True)
def practice_bot_move(match_id: str, version: int) -> int:
    """The bot's moves in a practice match at `version` (the version guards a second
    delivery: once the bot has moved, the match is past it and nothing happens)."""
    return practice.practice_bot_play(match_id=match_id, version=version)
