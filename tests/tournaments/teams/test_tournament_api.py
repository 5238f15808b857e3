"""A team format's tournament (issue 39): POST /api/tournaments/ with format team_swiss or
team_round_robin makes the tournament and the team event it owns in one transaction; its
teams, lineups, team-match sheets and team standings are under /api/tournaments/{id}/; the
operations of single players refuse it cleanly (409 team_tournament, nothing written)."""

from __future__ import annotations

import json

import pytest
from django.urls import resolve

import eventstore
from players.models import Player
from tests.helpers import token_client
from tests.reliability.helpers import api_routes, fill
from tournaments.models import Tournament
from tournaments.teams.models import TeamBoard, TeamEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def sides(make_player):
    return [[make_player().pk for _ in range(3)] for _ in range(2)]


def create(client, **fields):
    body = {"name": "League night", "format": "team_swiss", "boards": 2, "rounds": 1, **fields}
    return client.post("/api/tournaments/", body, format="json")


def register(client, tid, sides):
    for n, roster in enumerate(sides, 1):
        reply = client.post(
            f"/api/tournaments/{tid}/teams/",
            {"name": f"Side {n}", "roster": roster, "captain": roster[0], "by_rating": False},
            format="json",
        )
        assert reply.status_code == 201, reply.json()


def test_a_team_tournament_owns_its_team_event(organiser_client, organiser):
    reply = create(organiser_client, match_points=[3, 1, 0])
    assert reply.status_code == 201, reply.json()
    body = reply.json()
    assert body["format"] == "team_swiss"
    event = TeamEvent.objects.get(tournament_id=body["id"])
    assert (event.format, event.boards, event.match_points) == ("team_swiss", 2, [3, 1, 0])
    assert event.rounds_planned == 1 and event.created_by == organiser
    # The link is the team event's history, not a column set beside it.
    (created,) = [
        e for e in eventstore.load(stream_id=event.stream_id) if e.type == "TeamEventCreated"
    ]
    assert created.data["tournament"] == body["id"]
    listed = organiser_client.get("/api/tournaments/?tournament_format=team_swiss").json()
    assert [t["id"] for t in listed["results"]] == [body["id"]]


def test_teams_lineups_sheet_and_standings_through_the_tournament(
    organiser_client, sides, api_client
):
    tid = create(organiser_client).json()["id"]
    register(organiser_client, tid, sides)
    teams = api_client.get(f"/api/tournaments/{tid}/teams/").json()
    assert [(t["number"], t["roster"]) for t in teams] == [(1, sides[0]), (2, sides[1])]
    # Before the round: the roster's first boards, not set; the captain's order once set.
    lineups = api_client.get(f"/api/tournaments/{tid}/lineups/").json()
    assert lineups[1] == {
        "team": 2, "round": 1, "players": sides[1][:2], "set": False, "fixed": False,
        "hidden": False,
    }  # fmt: skip
    order = [sides[1][2], sides[1][0]]
    reply = organiser_client.post(
        f"/api/tournaments/{tid}/lineups/", {"team": 2, "round": 1, "players": order}, format="json"
    )
    assert reply.status_code == 204
    # Set before the pairing: the team's secret (its captain and the organisers see it; an
    # onlooker, the other side's captain included, is told only that it is set).
    lineups = api_client.get(f"/api/tournaments/{tid}/lineups/?round=1").json()
    assert lineups[1]["players"] == [] and lineups[1]["set"] and lineups[1]["hidden"]
    assert lineups[0]["players"] == sides[0][:2] and not lineups[0]["hidden"]  # not set
    seen = organiser_client.get(f"/api/tournaments/{tid}/lineups/?round=1").json()
    assert seen[1]["players"] == order and seen[1]["set"] is True and not seen[1]["hidden"]
    for captain, shown in ((sides[1][0], order), (sides[0][0], [])):
        client = token_client(Player.objects.get(pk=captain).user)
        assert client.get(f"/api/tournaments/{tid}/lineups/?round=1").json()[1]["players"] == shown
    reply = organiser_client.post(
        f"/api/tournaments/{tid}/team-rounds/", {"round": 1}, format="json"
    )
    assert reply.status_code == 200 and reply.json() == {"paired": True}
    (match,) = api_client.get(f"/api/tournaments/{tid}/team-matches/?round=1").json()
    side2 = "player2" if match["team2"] == 2 else "player1"
    assert [b[side2] for b in match["boards"]] == order
    assert {b["match_id"] for b in match["boards"]} == {
        str(m) for m in TeamBoard.objects.values_list("match_id", flat=True)
    }
    assert api_client.get(f"/api/tournaments/{tid}/lineups/").json()[0]["round"] == 2
    assert api_client.get(f"/api/tournaments/{tid}/lineups/?round=1").json()[0]["fixed"] is True
    paired = api_client.get(f"/api/tournaments/{tid}/lineups/?round=1").json()[1]
    assert paired["players"] == order and not paired["hidden"]  # the pairing shows it
    late = organiser_client.post(
        f"/api/tournaments/{tid}/lineups/", {"team": 2, "round": 1, "players": order}, format="json"
    )
    assert late.status_code == 409 and late.json()["error"]["reason"] == "lineup_deadline"
    standings = api_client.get(f"/api/tournaments/{tid}/team-standings/").json()
    assert {line["team"] for line in standings} == {1, 2}


def test_a_captain_sets_the_lineup_and_onlookers_may_not(organiser_client, make_player):
    players = [make_player() for _ in range(4)]
    tid = create(organiser_client).json()["id"]
    register(organiser_client, tid, [[p.pk for p in players[:2]], [p.pk for p in players[2:]]])
    captain, other = token_client(players[2].user), token_client(players[0].user)
    body = {"team": 2, "round": 1, "players": [players[3].pk, players[2].pk]}
    refused = other.post(f"/api/tournaments/{tid}/lineups/", body, format="json")
    assert refused.status_code == 403
    assert captain.post(f"/api/tournaments/{tid}/lineups/", body, format="json").status_code == 204
    refused = other.post(
        f"/api/tournaments/{tid}/teams/", {"name": "X", "roster": [1, 2]}, format="json"
    )
    assert refused.status_code == 403


def test_a_private_team_tournament_is_its_organisers(organiser_client, api_client):
    tid = create(organiser_client, is_public=False).json()["id"]
    assert TeamEvent.objects.get(tournament_id=tid).is_public is False
    for tail in ("teams/", "lineups/", "team-standings/", "team-matches/"):
        assert api_client.get(f"/api/tournaments/{tid}/{tail}").status_code == 404
        assert organiser_client.get(f"/api/tournaments/{tid}/{tail}").status_code == 200


def test_a_tournament_of_single_players_has_no_teams(organiser_client):
    tid = create(organiser_client, format="round_robin").json()["id"]
    assert not TeamEvent.objects.exists()
    for tail in ("teams/", "lineups/", "team-standings/", "team-matches/"):
        reply = organiser_client.get(f"/api/tournaments/{tid}/{tail}")
        assert reply.status_code == 404
        assert reply.json()["error"]["reason"] == "not_a_team_tournament"
    reply = organiser_client.post(
        f"/api/tournaments/{tid}/team-rounds/", {"round": 1}, format="json"
    )
    assert reply.status_code == 404


def test_bad_team_settings_write_neither_the_tournament_nor_its_team_event(organiser_client):
    for fields, status in (
        ({"boards": 0}, 400),
        ({"boards": 13}, 400),
        ({"match_points": [1, 2, 0]}, 400),
        ({"match_points": [2, 1]}, 400),
        ({"format": "team_knockout"}, 400),
    ):
        reply = create(organiser_client, **fields)
        assert reply.status_code == status, (fields, reply.json())
        assert reply.json()["error"]["code"] == "validation_error"
    assert not Tournament.objects.exists() and not TeamEvent.objects.exists()


def test_the_operations_of_single_players_refuse_a_team_tournament(
    organiser_client, sides, make_player
):
    """Every write under /api/tournaments/{id}/ that is not the team event's: 4xx with a code,
    never a 5xx, and nothing written (the stream stays at its one event)."""
    tid = create(organiser_client).json()["id"]
    player = make_player()
    refusals = {
        "registrations/": {"player": player.pk},
        "registrations/check-in/": {"player": player.pk},
        "registrations/withdraw/": {"player": player.pk},
        "rounds/start/": {},
        "forbidden-pairs/": {"players": [sides[0][0], sides[1][0]]},
    }
    for tail, body in refusals.items():
        reply = organiser_client.post(f"/api/tournaments/{tid}/{tail}", body, format="json")
        assert reply.status_code == 409, (tail, reply.content)
        assert reply.json()["error"]["reason"] == "team_tournament", tail
    assert Tournament.objects.get(pk=tid).version == 1
    # Every other route of the tournament: no 5xx to a read or to a write of nothing.
    ids = {"tournament_id": tid, "number": 1, "webhook_id": 1, "delivery_id": 1}
    failures = []
    for route in api_routes():
        if not route.startswith("api/tournaments/<int:tournament_id>/") or route.endswith(
            "/stream/"
        ):
            continue
        path = fill(route, ids)
        view = getattr(resolve(path.split("?")[0]).func, "cls", None)
        methods = ["GET"] + [
            m for m in ("POST", "PATCH", "PUT", "DELETE") if hasattr(view, m.lower())
        ]
        for method in methods:
            for body in ("{}", '{"round": "x", "players": [[]], "team": -1}', "[" * 500):
                reply = organiser_client.generic(
                    method, path, body, content_type="application/json"
                )
                if reply.status_code >= 500:
                    failures.append((method, route, body[:20], reply.status_code))
    assert not failures, failures
    assert not TeamBoard.objects.exists()


def test_team_writes_refuse_hostile_bodies_with_a_4xx_and_write_nothing(organiser_client, sides):
    tid = create(organiser_client).json()["id"]
    register(organiser_client, tid, sides)
    event = TeamEvent.objects.get(tournament_id=tid)
    hostile = [
        "[" * 2000,
        '{"name": "\\ud800", "roster": [1]}',
        json.dumps({"name": "X" * 5000, "roster": list(range(100))}),
        json.dumps({"team": 99, "round": 2, "players": sides[0][:2]}),
        json.dumps({"team": 1, "round": 0, "players": sides[0][:2]}),
        json.dumps({"team": 1, "round": 2, "players": [sides[0][0], sides[0][0]]}),
        json.dumps({"team": 1, "round": 2, "players": sides[1][:2]}),
        json.dumps({"round": 99999999999999999999}),
        json.dumps({"round": "1; drop table"}),
        "null",
    ]
    for tail in ("teams/", "lineups/", "team-rounds/"):
        for body in hostile:
            reply = organiser_client.generic(
                "POST", f"/api/tournaments/{tid}/{tail}", body, content_type="application/json"
            )
            assert 400 <= reply.status_code < 500, (tail, body[:30], reply.content[:200])
            assert "code" in reply.json()["error"]
    event.refresh_from_db()
    assert event.version == 3 and event.current_round == 0
