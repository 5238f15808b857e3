"""The round clock through the API (issue 24, "The roster and the round"): the director
starts it when play begins (POST …/rounds/{n}/clock/, organisers only, once per pairing),
the round's deadline and the deadline job's forfeits follow it; round 1 started more than
an hour before its scheduled time needs `confirm` (409 before_schedule without it)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Round

pytestmark = pytest.mark.django_db

DURATION = dt.timedelta(minutes=50)


def _started(organiser, jobs, **kwargs):
    tournament = make_tournament(organiser, make_bots(4), rounds=2, round_duration=DURATION,
                                 **kwargs)  # fmt: skip
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    return tournament


def _clock_url(tournament, number=1):
    return f"/api/tournaments/{tournament.pk}/rounds/{number}/clock/"


def test_the_director_starts_the_clock_and_the_deadline_follows(
    api_client, organiser, jobs, monkeypatch
):
    tournament = _started(organiser, jobs)
    paired = Round.objects.get(tournament=tournament, number=1)
    assert (paired.clock_started_at, paired.clock_started_by_hand) == (paired.paired_at, False)
    begins = paired.paired_at + dt.timedelta(minutes=20)
    monkeypatch.setattr(timezone, "now", lambda: begins)
    api_client.force_authenticate(organiser)
    response = api_client.post(_clock_url(tournament), {"reason": "play begins"}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["clock_started_by_hand"] is True
    assert dt.datetime.fromisoformat(body["clock_started_at"]) == begins
    assert dt.datetime.fromisoformat(body["deadline"]) == begins + DURATION
    row = Round.objects.get(pk=paired.pk)
    assert (row.clock_started_at, row.deadline) == (begins, begins + DURATION)
    again = api_client.post(_clock_url(tournament), {}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["reason"] == "clock_started"
    # The round's clock is what the live clock shows.
    clock = api_client.get(f"/api/tournaments/{tournament.pk}/rounds/")
    assert clock.json()["results"][0]["clock_started_at"] == body["clock_started_at"]


def test_the_deadline_job_forfeits_by_the_started_clock(organiser, jobs, monkeypatch):
    tournament = _started(organiser, jobs)
    paired = Round.objects.get(tournament=tournament, number=1)
    begins = paired.paired_at + dt.timedelta(minutes=30)
    monkeypatch.setattr(timezone, "now", lambda: begins)
    services.tournament_round_clock_start(tournament_id=tournament.pk, round_number=1, by=organiser)
    monkeypatch.undo()
    # Past the deadline the pairing set, within the one the clock set: nobody forfeits.
    assert (
        services.tournament_deadlines_enforce(now=paired.paired_at + DURATION + DURATION / 5) == []
    )
    with jobs():
        ruled = services.tournament_deadlines_enforce(
            now=begins + DURATION + dt.timedelta(seconds=1)
        )
    assert sorted(ruled) == sorted(
        Pairing.objects.filter(round=paired, match__isnull=False).values_list("pk", flat=True)
    )


def test_who_may_start_the_clock_and_of_which_round(api_client, organiser, jobs):
    tournament = _started(organiser, jobs)
    url = _clock_url(tournament)
    assert api_client.post(url, {}, format="json").status_code == 401
    stranger = get_user_model().objects.create_user(username="stranger")
    api_client.force_authenticate(stranger)
    assert api_client.post(url, {}, format="json").status_code in (403, 404)
    api_client.force_authenticate(organiser)
    unpaired = api_client.post(_clock_url(tournament, 2), {}, format="json")
    assert (unpaired.status_code, unpaired.json()["error"]["reason"]) == (409, "round_not_in_play")
    nowhere = api_client.post(f"/api/tournaments/{tournament.pk + 99}/rounds/1/clock/", {},
                              format="json")  # fmt: skip
    assert nowhere.status_code == 404
    assert Round.objects.get(tournament=tournament, number=1).clock_started_by_hand is False


def test_round_1_hours_before_its_time_asks_for_a_confirmation(api_client, organiser):
    starts = timezone.now() + dt.timedelta(hours=11)
    tournament = make_tournament(organiser, make_bots(4), rounds=2, starts_at=starts)
    api_client.force_authenticate(organiser)
    url = f"/api/tournaments/{tournament.pk}/rounds/start/"
    early = api_client.post(url, {"reason": "early"}, format="json")
    assert early.status_code == 409
    error = early.json()["error"]
    assert (error["code"], error["reason"]) == ("conflict", "before_schedule")
    assert dt.datetime.fromisoformat(error["scheduled_at"]) == starts
    assert not Round.objects.filter(tournament=tournament).exists()
    confirmed = api_client.post(url, {"reason": "early", "confirm": True}, format="json")
    assert confirmed.status_code == 201, confirmed.json()
    assert confirmed.json()["number"] == 1
