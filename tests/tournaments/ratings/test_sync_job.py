"""A finished club tournament's ratings job goes the one job path (issue 31): recorded in
the outbox by the write that finishes the tournament, in its transaction, before anything
runs after the commit; a tournament of no club records none."""

from __future__ import annotations

from typing import Any

import pytest

from core.models import OutboxMessage
from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db


def _finished_by_its_last_result(organiser: Any, capture: Any, **kwargs: Any) -> Tournament:
    """A one-round tournament of two, its match forfeited; the result recorded (which
    finishes it) with the after-commit work held back."""
    tournament = make_tournament(organiser, make_bots(2), rounds=1, **kwargs)
    with capture(execute=True):
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    forfeit_round(tournament, organiser)  # its result's job is left unrelayed
    pairing = Pairing.objects.get(round__tournament=tournament)
    with capture(execute=False):
        services.tournament_match_result_record(match_id=pairing.match_id)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def _ratings_jobs(tournament: Tournament) -> list[OutboxMessage]:
    return list(OutboxMessage.objects.filter(task="ratings.tournament_sync", args=[tournament.pk]))


def test_a_club_tournament_s_finish_records_its_ratings_job(
    organiser: Any, club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = _finished_by_its_last_result(
        organiser, django_capture_on_commit_callbacks, club=club
    )
    (job,) = _ratings_jobs(tournament)
    assert job.sent_at is None  # recorded with the events; relayed only after the commit


def test_a_tournament_of_no_club_records_no_ratings_job(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = _finished_by_its_last_result(organiser, django_capture_on_commit_callbacks)
    assert _ratings_jobs(tournament) == []
