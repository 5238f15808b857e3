"""Reactions to other apps' signals. A receiver only queues a job; the logic is in services."""

from __future__ import annotations

from typing import Any

from games.selectors import match_outcomes
from tournaments import jobs
from tournaments.models import Pairing


def on_match_finished(sender: Any, match_id: Any, **kwargs: Any) -> None:
    """games.signals.match_finished (sent after the match's commit): record the result."""
    # A cancelled match (its round re-paired) has no result to record, and its pairing
    # has been replaced anyway.
    if not Pairing.objects.filter(match_id=match_id).exists():
        return  # a friendly match, not part of any tournament
    outcome = match_outcomes(match_ids=[match_id]).get(str(match_id))
    if outcome is None or outcome.finish_reason == "cancelled":
        return  # cancelled by a re-pairing: its pairing has been replaced anyway
    jobs.match_finished_on_commit(match_id=match_id)


def on_match_reopened(sender: Any, match_id: Any, **kwargs: Any) -> None:
    """games.signals.match_reopened (after commit): the match's result no longer stands."""
    if Pairing.objects.filter(match_id=match_id).exists():
        jobs.match_reopened_on_commit(match_id=match_id)
