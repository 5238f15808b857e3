"""Calendar feeds (issue 40): a club's tournaments and a player's rounds parse as
iCalendar, each at its time in the tournament's zone."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from icalendar import Calendar
from rest_framework.test import APIClient

from players.models import Player
from tests.tournaments.helpers import make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db

ZONE = "Europe/Bucharest"


def _players(n: int) -> list[Player]:
    users = get_user_model().objects
    return [
        Player.objects.create(name=f"Cal {i}", user=users.create_user(username=f"cal{i}"))
        for i in range(1, n + 1)
    ]


def test_the_club_calendar_lists_its_tournament_at_its_start_in_its_zone(
    organiser: Any, club: Any
) -> None:
    starts = dt.datetime(2027, 1, 15, 19, 30, tzinfo=ZoneInfo(ZONE))
    t = services.tournament_create(
        name="January evening", format="swiss", rounds=3, created_by=organiser, club=club,
        time_zone=ZONE, starts_at=starts,
    )  # fmt: skip
    services.tournament_create(
        name="Private one", format="swiss", rounds=3, created_by=organiser, club=club,
        time_zone=ZONE, starts_at=starts, is_public=False,
    )  # fmt: skip
    response = APIClient().get(f"/api/clubs/{club.pk}/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    cal = Calendar.from_ical(response.content)
    events = [c for c in cal.walk("VEVENT")]
    assert [str(e["summary"]) for e in events] == [t.name]  # not the private one
    start = events[0].decoded("dtstart")
    assert start == starts and str(start.tzinfo) == ZONE
    assert events[0]["dtstart"].params["TZID"] == ZONE
    assert any(str(z["tzid"]) == ZONE for z in cal.walk("VTIMEZONE"))
    assert APIClient().get("/api/clubs/999999/calendar.ics").status_code == 404


def test_a_players_feed_lists_their_round_with_its_table(organiser: Any, club: Any) -> None:
    players = _players(4)
    t = make_tournament(organiser, players, time_zone=ZONE, club=club)
    services.tournament_start(tournament_id=t.pk, by=organiser)
    me = players[0]
    client = APIClient()
    client.force_authenticate(me.user)
    url = client.get("/api/me/calendar/").json()["url"]
    path = url.split("testserver", 1)[1]
    body = APIClient().get(path)  # no token: the address is the secret
    assert body.status_code == 200
    events = list(Calendar.from_ical(body.content).walk("VEVENT"))
    (round_1,) = [e for e in events if "round 1" in str(e["summary"])]
    assert "table" in str(round_1["location"])
    table = str(round_1["location"]).split()[-1]
    assert str(round_1["summary"]).startswith(f"{t.name}: round 1, table {table}")
    assert round_1["dtstart"].params["TZID"] == ZONE
    # A new address revokes the old one.
    new = client.post("/api/me/calendar/").json()["url"]
    assert new != url
    assert APIClient().get(path).status_code == 404
    assert APIClient().get(new.split("testserver", 1)[1]).status_code == 200
