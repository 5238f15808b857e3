"""Reactions to the tournaments' signals. A receiver only queues a job."""

from __future__ import annotations

from typing import Any


def on_tournament_events_committed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    """A finished club tournament's events committed (its finish, a result corrected
    after it): queue its ratings job. Beat's reconciler catches a job that is lost."""
    from tournaments.models import Tournament
    from tournaments.ratings import jobs

    finished = Tournament.objects.filter(
        pk=tournament_id, club__isnull=False, status=Tournament.Status.FINISHED
    ).exists()
    if finished:
        jobs.club_ratings_sync_queue(tournament_id=tournament_id)
