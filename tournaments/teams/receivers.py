"""Reactions to other apps' signals: a finished board's match queues its result's job."""

from __future__ import annotations

from typing import Any

from tournaments.teams import jobs
from tournaments.teams.models import TeamBoard


def on_board_match_finished(sender: Any, match_id: Any, **kwargs: Any) -> None:
    """games.signals.match_finished (after the match's commit): record the board's result."""
    if TeamBoard.objects.filter(match_id=match_id).exists():
        jobs.board_finished_on_commit(match_id=match_id)
