"""Standings and results as CSV from the API (the desk's columns, the JSON endpoints'
visibility), and one format for every instant the tournaments API writes: ISO 8601 in UTC
with a `Z`, while inputs keep their offsets or the tournament's zone."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing, Standing

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(organiser, jobs):
    """A public and a private Berlin tournament of five (a bye), round 1 played and round 2
    paired."""
    made = {}
    for name, public in (("public", True), ("private", False)):
        bots = make_bots(5, prefix=name)
        bots[0].name = "=HYPERLINK(1)"  # a name a spreadsheet would run
        bots[0].save()
        t = make_tournament(
            organiser, bots, rounds=2, is_public=public, time_zone="Europe/Berlin",
            round_duration=dt.timedelta(hours=1),
        )  # fmt: skip
        with jobs():
            services.tournament_round_pair(tournament_id=t.pk, round_number=1, by=organiser)
        with jobs():
            forfeit_round(t, organiser)
        made[name] = t.pk
    return made


def rows(response):
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def test_standings_csv_has_the_desks_columns_and_rows(evening):
    tid = evening["public"]
    table = rows(APIClient().get(f"/api/tournaments/{tid}/standings.csv"))
    assert table[0] == [
        "rank", "player_id", "player", "played", "match_wins", "games_won", "points_diff",
        "buchholz", "sonneborn_berger", "byes", "withdrawn", "place", "federation_id",
    ]  # fmt: skip
    standings = Standing.objects.filter(tournament_id=tid).order_by("rank")
    assert [(int(r[0]), int(r[1])) for r in table[1:]] == [(s.rank, s.player_id) for s in standings]
    assert len(table) == 6
    assert "'=HYPERLINK(1)" in [r[2] for r in table]  # written as text, not a formula
    json_rows = APIClient().get(f"/api/tournaments/{tid}/standings/").json()["results"]
    assert [r[2].lstrip("'") for r in table[1:]] == [r["player_name"] for r in json_rows]


def test_results_csv_lists_every_pairing_with_its_result(evening):
    tid = evening["public"]
    table = rows(APIClient().get(f"/api/tournaments/{tid}/results.csv"))
    assert table[0] == [
        "round", "table", "player1", "player2", "status", "winner", "games1", "games2",
        "points1", "points2", "result", "match_id",
    ]  # fmt: skip
    pairings = Pairing.objects.filter(round__tournament_id=tid).order_by("round__number", "table")
    assert len(table) == 1 + pairings.count() == 7  # two rounds of two tables and a bye
    assert [(int(r[0]), int(r[1])) for r in table[1:]] == [
        (p.round.number, p.table) for p in pairings
    ]
    byes = [r for r in table[1:] if r[10] == "bye"]
    assert len(byes) == 2 and all(r[3] == "" and r[11] == "" and r[5] == r[2] for r in byes)
    played, pairing = table[1], pairings.first()
    assert played[11] == str(pairing.match_id) and played[4] == "finished"
    assert played[5].lstrip("'") == pairing.winner.name


def test_csv_follows_the_json_endpoints_visibility(evening, organiser, api_client):
    for what in ("standings.csv", "results.csv"):
        private = f"/api/tournaments/{evening['private']}/{what}"
        missing = APIClient().get(private)
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "not_found"  # errors stay JSON
        stranger = get_user_model().objects.create_user(username=f"stranger-{what}")
        api_client.force_authenticate(stranger)
        assert api_client.get(private).status_code == 404
        api_client.force_authenticate(organiser)
        assert api_client.get(private).status_code == 200
        assert APIClient().get(f"/api/tournaments/999999/{what}").status_code == 404


INSTANT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")


def instants(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from instants(v)
    elif isinstance(value, list):
        for v in value:
            yield from instants(v)
    elif isinstance(value, str) and INSTANT.match(value):
        yield value


def test_every_instant_the_tournaments_api_writes_is_utc_with_a_z(evening, organiser, api_client):
    tid = evening["public"]
    api_client.force_authenticate(organiser)
    later = api_client.post(
        f"/api/tournaments/{tid}/rounds/2/deadline/",
        {"deadline": "2030-03-01T20:00:00", "reason": "slow table"},  # Berlin time: 19:00Z
        format="json",
    )
    assert later.status_code == 200, later.json()
    assert later.json()["deadline"] == "2030-03-01T19:00:00Z"
    seen = []
    for what in ("", "registrations/", "rounds/", "pairings/", "standings/", "events/"):
        body = api_client.get(f"/api/tournaments/{tid}/{what}").json()
        seen += list(instants(body))
    seen += list(instants(api_client.get("/api/tournaments/").json()))
    assert len(seen) > 20
    wrong = [s for s in seen if not s.endswith("Z")]
    assert not wrong, wrong
    for value in seen:
        dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    events = api_client.get(f"/api/tournaments/{tid}/events/").json()["results"]
    moved = next(e for e in events if e["type"] == "RoundDeadlineMoved")
    assert moved["data"]["deadline"] == "2030-03-01T19:00:00Z"
