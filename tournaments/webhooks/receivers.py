"""Reactions to signals. A receiver only queues a job; the logic is in services."""

from __future__ import annotations

from typing import Any

from tournaments import jobs
from tournaments.webhooks.selectors import (
    team_event_tournament_id,
    tournament_has_active_webhooks,
)


def on_tournament_events_committed(sender: Any, tournament_id: Any, **kwargs: Any) -> None:
    """tournaments.signals.tournament_events_committed: new events may be webhook deliveries."""
    if tournament_has_active_webhooks(tournament_id=tournament_id):
        jobs.webhooks_dispatch_on_commit(tournament_id=tournament_id)


def on_team_event_events_committed(sender: Any, event_id: Any, **kwargs: Any) -> None:
    """tournaments.teams.signals.team_event_events_committed: a team tournament's webhooks
    send its team event's events."""
    tournament_id = team_event_tournament_id(event_id=event_id)
    if tournament_id is not None and tournament_has_active_webhooks(tournament_id=tournament_id):
        jobs.webhooks_dispatch_on_commit(tournament_id=tournament_id)
