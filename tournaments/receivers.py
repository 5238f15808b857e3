"""Reactions to other apps' signals. A receiver only queues a job; the logic is in services."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def on_match_finished(sender: Any, match_id: Any, **kwargs: Any) -> None:
    """games.signals.match_finished (sent after the match's commit): record the result."""
    from tournaments.models import Pairing
    from tournaments.tasks import tournament_match_finished

    # A cancelled match (its round re-paired) has no result to record, and its pairing
    # has been replaced anyway.
    pairings = Pairing.objects.filter(match_id=match_id).exclude(match__finish_reason="cancelled")
    if not pairings.exists():
        return  # a friendly match, not part of any tournament
    transaction.on_commit(lambda: tournament_match_finished.delay(str(match_id)))
