"""Issue 14, item 6: schedule durations are range-checked when a tournament is created or its
settings change. Out of range is a 400 with a machine-readable code, and nothing is written."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.helpers import FAST_RULES
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BAD = [
    ("round_duration", "999999999 00:00:00"),  # 999999999 days: timedelta's own maximum
    ("round_duration", "1000000000 00:00:00"),  # past it: must not overflow into a 500
    ("round_duration", "-00:10:00"),
    ("round_duration", "-1 00:00:00"),
    ("round_duration", "00:00:00"),
    ("turn_time", "-00:00:20"),
    ("turn_time", "-1 23:59:40"),
    ("turn_time", "31 00:00:00"),
    ("round_interval", "-7 00:00:00"),
    ("round_interval", "99999999999999999999 00:00:00"),
    ("round_duration", "P999999999D"),
    ("turn_time", "P-1D"),
    ("round_duration", 1e308),
    ("turn_time", -5),
]


@pytest.fixture
def org_client(api_client, organiser):
    api_client.force_authenticate(organiser)
    return api_client


def _create(client, **fields):
    body = {"name": "Durations", "format": "swiss", "rounds": 2, "ruleset": FAST_RULES, **fields}
    return client.post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize(("field", "value"), BAD)
def test_an_out_of_range_duration_is_refused_and_nothing_is_written(org_client, field, value):
    response = _create(org_client, **{field: value})
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["message"]
    assert not Tournament.objects.exists()


def test_durations_in_range_are_accepted_and_shown_back(org_client):
    response = _create(org_client, round_duration="01:30:00", turn_time="00:02:00")
    assert response.status_code == 201, response.json()
    assert response.json()["round_duration"] == "01:30:00"
    assert response.json()["turn_time"] == "00:02:00"


def test_the_longest_allowed_duration_pairs_a_round_without_error(org_client, jobs):
    from tests.tournaments.helpers import make_bots

    tid = _create(org_client, round_duration="30 00:00:00", turn_time="30 00:00:00").json()["id"]
    for bot in make_bots(2):
        org_client.post(f"/api/tournaments/{tid}/registrations/", {"player": bot.pk}, format="json")
        org_client.post(
            f"/api/tournaments/{tid}/registrations/check-in/", {"player": bot.pk}, format="json"
        )
    with jobs():
        started = org_client.post(f"/api/tournaments/{tid}/rounds/start/", {}, format="json")
    assert started.status_code == 201, started.json()
    assert started.json()["deadline"] is not None


@pytest.mark.parametrize(
    "changes",
    [
        {"round_duration": dt.timedelta(days=999999999)},
        {"round_duration": dt.timedelta(minutes=-10)},
        {"turn_time": dt.timedelta(seconds=-20)},
        {"round_interval": dt.timedelta(0)},
    ],
)
def test_a_settings_change_out_of_range_is_refused_and_writes_nothing(organiser, changes):
    from core.errors import ValidationError
    from tests.tournaments.helpers import make_tournament
    from tournaments import services

    tournament = make_tournament(organiser, [])
    version = tournament.version
    with pytest.raises(ValidationError) as refused:
        services.tournament_settings_change(
            tournament_id=tournament.pk, by=organiser, changes=changes
        )
    assert refused.value.code == "validation_error"
    assert refused.value.extra["reason"] == "out_of_range"
    tournament.refresh_from_db()
    assert tournament.version == version
    assert tournament.round_duration is None and tournament.turn_time is None
