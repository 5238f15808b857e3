"""Issue 26 (8): a tournament's `round_starts` must be in order and no longer than its
rounds: otherwise a 400 validation_error naming `round_starts`, and nothing is written."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.helpers import FAST_RULES
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(api_client, organiser):
    api_client.force_authenticate(organiser)
    return api_client


def starts(n: int) -> list[str]:
    first = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    return [(first + dt.timedelta(hours=i)).strftime("%Y-%m-%dT%H:%M:%SZ") for i in range(n)]


def create(client, **fields):
    body = {"name": "Starts", "format": "swiss", "rounds": 3, "ruleset": FAST_RULES, **fields}
    return client.post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize(
    "fields",
    [
        {"round_starts": ["2030-01-01T12:00:00Z", "2030-01-01T10:00:00Z"]},  # out of order
        {"round_starts": ["2030-01-01T12:00:00Z", "2030-01-01T12:00:00Z"]},  # two at once
        {"round_starts": ["2030-01-01T10:00:00Z", "2030-01-01T11:00:00+02:00"]},  # 09:00 UTC
        {"round_starts": starts(4)},  # more than its 3 rounds
        {"round_starts": starts(5000)},
        {"format": "knockout", "round_starts": starts(5000)},
    ],
    ids=["out-of-order", "twice-the-same", "out-of-order-in-utc", "4-for-3", "5000-for-3",
         "5000-for-a-knockout"],
)  # fmt: skip
def test_round_starts_out_of_order_or_too_many_are_refused(org_client, fields):
    response = create(org_client, **fields)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error" and "round_starts" in error["fields"]
    assert not Tournament.objects.exists()


def test_round_starts_in_order_and_up_to_the_rounds_are_accepted(org_client):
    response = create(org_client, round_starts=starts(3))
    assert response.status_code == 201, response.content
    assert response.json()["round_starts"] == starts(3)
    assert create(org_client, round_starts=starts(2)).status_code == 201


ADMIN_ADD = {
    "name": "Berlin open", "format": "swiss", "rounds_planned": "2", "play_mode": "table",
    "check_in_required": "on", "is_public": "on", "time_zone": "Europe/Berlin",
    "starts_at_0": "2030-03-03", "starts_at_1": "19:30", "round_starts_text": "",
    "games": "3", "knock_limit": "8", "gin_bonus": "25", "undercut_bonus": "10",
    "game_target": "100", "game_bonus": "0", "box_bonus": "0", "tiebreak_1": "match_wins",
    "registrations-TOTAL_FORMS": "0", "registrations-INITIAL_FORMS": "0",
    "rounds-TOTAL_FORMS": "0", "rounds-INITIAL_FORMS": "0",
    "standings-TOTAL_FORMS": "0", "standings-INITIAL_FORMS": "0",
}  # fmt: skip


@pytest.mark.parametrize(
    "text",
    ["2030-03-03 21:00\n2030-03-03 19:30", "2030-03-03 19:30\n2030-03-03 20:30\n2030-03-03 21:30"],
    ids=["out-of-order", "3-for-2"],
)
def test_the_admin_refuses_them_too(client, text):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser(username="root", password="pw-root-123")
    client.force_login(admin)
    body = {**ADMIN_ADD, "round_starts_text": text}
    response = client.post("/admin/tournaments/tournament/add/", body)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not Tournament.objects.exists()
    body["round_starts_text"] = "2030-03-03 19:30\n2030-03-03 21:00"
    assert client.post("/admin/tournaments/tournament/add/", body).status_code == 302
    assert Tournament.objects.count() == 1
