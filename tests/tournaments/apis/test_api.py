"""The tournaments API: thin views over the services, times in the tournament's zone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.helpers import FAST_RULES, forfeit_round, make_bots
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(api_client, organiser):
    api_client.force_authenticate(organiser)
    return api_client


def create(client, **overrides):
    body = {"name": "Tuesday Swiss", "format": "swiss", "rounds": 2, "ruleset": FAST_RULES}
    body.update(overrides)
    return client.post("/api/tournaments/", body, format="json")


def test_times_are_entered_in_the_tournament_zone_and_shown_in_utc(org_client):
    # 19:30 in London in July is 18:30 UTC (summer time); in January it is 19:30 UTC. The
    # API writes every instant in UTC with a Z (README); `time_zone` says how to show it.
    summer = create(org_client, time_zone="Europe/London", starts_at="2026-07-07T19:30:00")
    winter = create(org_client, time_zone="Europe/London", starts_at="2026-01-06T19:30:00")
    assert summer.status_code == 201, summer.json()
    assert summer.json()["starts_at"] == "2026-07-07T18:30:00Z"
    assert summer.json()["time_zone"] == "Europe/London"
    assert winter.json()["starts_at"] == "2026-01-06T19:30:00Z"
    # An offset given is taken as it is.
    offset = create(org_client, time_zone="Europe/London", starts_at="2026-07-07T19:30:00+02:00")
    assert offset.json()["starts_at"] == "2026-07-07T17:30:00Z"
    stored = Tournament.objects.get(pk=summer.json()["id"]).starts_at
    assert stored == dt.datetime(2026, 7, 7, 18, 30, tzinfo=dt.UTC)
    # Per-round start times across the October clock change, entered as local times.
    rounds = create(
        org_client,
        time_zone="Europe/London",
        round_starts=["2026-10-24T19:00:00", "2026-10-25T19:00:00"],
    )
    assert rounds.status_code == 201, rounds.json()
    assert rounds.json()["round_starts"] == ["2026-10-24T18:00:00Z", "2026-10-25T19:00:00Z"]
    stored = Tournament.objects.get(pk=rounds.json()["id"])
    assert stored.round_starts == ["2026-10-24T18:00:00+00:00", "2026-10-25T19:00:00+00:00"]
    assert stored.starts_at == dt.datetime(2026, 10, 24, 18, 0, tzinfo=dt.UTC)


def test_errors_use_the_one_error_format(org_client, api_client):
    bad = create(org_client, format="swiss", rounds=None)
    assert bad.status_code == 400
    assert set(bad.json()["error"]) >= {"code", "message"}
    zone = create(org_client, time_zone="Nowhere/Land")
    assert zone.status_code == 400 and zone.json()["error"]["code"] == "validation_error"
    refused = zone.json()["error"]
    assert refused["reason"] == "unknown" and "time_zone" in refused["fields"]
    missing = org_client.get("/api/tournaments/999999/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    api_client.force_authenticate(None)
    assert create(api_client).status_code == 401  # reading public ones needs no sign-in


def test_a_non_organiser_cannot_create_or_start(api_client, org_client):
    tid = create(org_client).json()["id"]
    player_user = get_user_model().objects.create_user(username="pat")
    api_client.force_authenticate(player_user)
    assert create(api_client).status_code == 403
    started = api_client.post(f"/api/tournaments/{tid}/rounds/start/", {}, format="json")
    assert started.status_code == 403
    assert started.json()["error"]["code"] == "permission_denied"


def test_an_evening_through_the_api(org_client, organiser, jobs):
    tid = create(org_client, rounds=1).json()["id"]
    bots = make_bots(4)
    for bot in bots:
        reg = org_client.post(
            f"/api/tournaments/{tid}/registrations/", {"player": bot.pk}, format="json"
        )
        assert reg.status_code == 201, reg.json()
        checked = org_client.post(
            f"/api/tournaments/{tid}/registrations/check-in/", {"player": bot.pk}, format="json"
        )
        assert checked.json()["status"] == "checked_in"
    regs = org_client.get(f"/api/tournaments/{tid}/registrations/").json()
    assert regs["count"] == 4 and len(regs["results"]) == 4
    with jobs():
        started = org_client.post(
            f"/api/tournaments/{tid}/rounds/start/", {"reason": "7pm"}, format="json"
        )
    assert started.status_code == 201 and started.json()["number"] == 1
    again = org_client.post(f"/api/tournaments/{tid}/rounds/start/", {}, format="json")
    assert again.status_code == 409
    pairings = org_client.get(f"/api/tournaments/{tid}/pairings/?round=1").json()["results"]
    assert [p["table"] for p in pairings] == [1, 2] and all(p["match"] for p in pairings)
    with jobs():
        forfeit_round(Tournament.objects.get(pk=tid), organiser)
    standings = org_client.get(f"/api/tournaments/{tid}/standings/").json()["results"]
    assert [s["rank"] for s in standings] == [1, 2, 3, 4]
    assert sorted(s["match_wins"] for s in standings) == [0, 0, 1, 1]
    detail = org_client.get(f"/api/tournaments/{tid}/").json()
    assert detail["status"] == "finished"
    events = org_client.get(f"/api/tournaments/{tid}/events/").json()["results"]
    page = org_client.get(f"/api/tournaments/{tid}/events/?limit=2&offset=1").json()
    assert page["count"] == len(events) and page["results"] == events[1:3]
    types = [e["type"] for e in events]
    assert types[0] == "TournamentCreated" and types[-1] == "TournamentFinished"
    paired = next(e for e in events if e["type"] == "RoundPaired")
    assert paired["by"]["username"] == "org" and paired["reason"] == "7pm"
    assert org_client.get(f"/api/tournaments/{tid}/events/?after=x").status_code == 400


def started(client, jobs, **overrides):
    """A one-round tournament of four bots, registered, checked in and started: (id, bots)."""
    tid = create(client, rounds=1, **overrides).json()["id"]
    bots = make_bots(4)
    for bot in bots:
        client.post(f"/api/tournaments/{tid}/registrations/", {"player": bot.pk}, format="json")
        client.post(
            f"/api/tournaments/{tid}/registrations/check-in/", {"player": bot.pk}, format="json"
        )
    with jobs():
        client.post(f"/api/tournaments/{tid}/rounds/start/", {}, format="json")
    return tid, bots


def test_round_actions_through_the_api(org_client, jobs):
    tid, bots = started(org_client, jobs, round_duration="01:00:00")
    a, b, c, d = (bot.pk for bot in bots)
    with jobs():
        repaired = org_client.post(
            f"/api/tournaments/{tid}/rounds/1/repair/",
            {"reason": "same club", "pairs": [[a, c], [b, d]]},
            format="json",
        )
    assert repaired.status_code == 200, repaired.json()
    pairs = {
        (p["player1"], p["player2"])
        for p in org_client.get(f"/api/tournaments/{tid}/pairings/").json()["results"]
    }
    assert pairs == {(a, c), (b, d)}
    moved = org_client.post(
        f"/api/tournaments/{tid}/rounds/1/deadline/",
        {"deadline": "2030-01-01T20:00:00", "reason": "late start"},
        format="json",
    )
    assert moved.status_code == 200 and moved.json()["deadline"].startswith("2030-01-01T20:00:00")
    listed = org_client.get(f"/api/tournaments/{tid}/pairings/?round=1").json()["results"]
    assert [p["overdue"] for p in listed] == [False, False]
    with jobs():
        ruled = org_client.post(
            f"/api/tournaments/{tid}/rounds/1/rulings/",
            {"table": 1, "winner": c, "reason": "no-show"},
            format="json",
        )
    assert ruled.status_code == 200, ruled.json()
    table1 = org_client.get(f"/api/tournaments/{tid}/pairings/?round=1").json()["results"][0]
    assert table1["winner"] == c and table1["result"] == "forfeit"
    with jobs():
        withdrawn = org_client.post(
            f"/api/tournaments/{tid}/registrations/withdraw/",
            {"player": d, "reason": "ill", "forfeit_current": True},
            format="json",
        )
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    rounds = org_client.get(f"/api/tournaments/{tid}/rounds/").json()["results"]
    assert rounds[0]["status"] == "completed"


def test_private_tournaments_are_hidden_from_strangers(api_client, org_client):
    tid = create(org_client, is_public=False).json()["id"]
    stranger = get_user_model().objects.create_user(username="stranger")
    api_client.force_authenticate(stranger)
    assert api_client.get(f"/api/tournaments/{tid}/").status_code == 404
    assert all(t["id"] != tid for t in api_client.get("/api/tournaments/").json()["results"])


def test_creating_is_idempotent_with_a_key(org_client):
    body = {"name": "Once", "format": "knockout"}
    first = org_client.post("/api/tournaments/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    second = org_client.post("/api/tournaments/", body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] == second.json()["id"]
    assert Tournament.objects.filter(name="Once").count() == 1


def test_the_schema_covers_the_tournament_endpoints(org_client):
    schema = org_client.get("/api/schema/?format=json").json()
    paths = [p for p in schema["paths"] if p.startswith("/api/tournaments/")]
    assert "/api/tournaments/{tournament_id}/standings/" in paths
    assert "/api/tournaments/{tournament_id}/standings.csv" in paths
    assert "/api/tournaments/{tournament_id}/results.csv" in paths
    assert "/api/tournaments/{tournament_id}/results/take/" in paths
    assert "/api/tournaments/{tournament_id}/bracket/" in paths
    assert "/api/tournaments/{tournament_id}/forbidden-pairs/" in paths
    assert "/api/tournaments/{tournament_id}/registrations/check-in/undo/" in paths
    assert "/api/tournaments/{tournament_id}/rounds/{number}/clock/" in paths
    assert "/api/tournaments/{tournament_id}/capacity/" in paths  # issue 40: five more
    assert "/api/tournaments/{tournament_id}/registrations/no-show/undo/" in paths
    assert "/api/tournaments/{tournament_id}/payments/" in paths  # issue 40: the cash sheet
    assert "/api/tournaments/{tournament_id}/teams/" in paths  # issue 39: six team routes
    assert len([p for p in paths if "/webhooks" not in p]) == 34


def test_the_list_filters_by_status_format_and_club(org_client, club):
    create(org_client, name="A", club=club.pk)
    create(org_client, name="B", format="knockout")

    def names(q):
        return sorted(t["name"] for t in org_client.get(f"/api/tournaments/?{q}").json()["results"])

    assert names("tournament_format=knockout") == ["B"]
    assert names(f"club={club.pk}") == ["A"]
    assert names("status=registration") == ["A", "B"]
    assert names("status=finished") == []
    assert org_client.get("/api/tournaments/?status=nope").status_code == 400


def test_a_table_round_past_its_deadline_shows_its_unplayed_tables(org_client, jobs):
    """The deadline job forfeits nobody at a table: the organisers see which tables are late."""
    from tournaments import services

    tid, _ = started(org_client, jobs, play_mode="table")
    moved = org_client.post(
        f"/api/tournaments/{tid}/rounds/1/deadline/",
        {"deadline": "2020-01-01T20:00:00", "reason": "closing time"},
        format="json",
    )
    assert moved.status_code == 200, moved.json()
    assert services.tournament_deadlines_enforce() == []
    listed = org_client.get(f"/api/tournaments/{tid}/pairings/?round=1").json()["results"]
    assert [(p["status"], p["overdue"]) for p in listed] == [("pending", True)] * 2
