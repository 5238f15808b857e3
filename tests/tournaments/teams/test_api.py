"""The team events' API: create, register sides, set a lineup, pair, read the team-match
sheet and the standings; bad input is a 4xx with a code and writes nothing."""

from __future__ import annotations

import pytest

from games.selectors import match_get, user_can_organise_match
from tests.helpers import token_client
from tournaments.teams.models import TeamBoard, TeamEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def sides(make_player):
    return [[make_player().pk for _ in range(3)] for _ in range(2)]


def test_a_team_event_through_the_api(organiser_client, sides, make_player):
    created = organiser_client.post(
        "/api/team-events/",
        {"name": "Derby", "format": "team_swiss", "boards": 2, "rounds": 1},
        format="json",
    )
    assert created.status_code == 201, created.json()
    event = created.json()["id"]
    for n, roster in enumerate(sides, 1):
        reply = organiser_client.post(
            f"/api/team-events/{event}/teams/",
            {"name": f"Side {n}", "roster": roster, "captain": roster[0], "by_rating": False},
            format="json",
        )
        assert reply.status_code == 201, reply.json()
        assert reply.json()["roster"] == roster
    lineup = [sides[1][2], sides[1][0]]
    reply = organiser_client.post(
        f"/api/team-events/{event}/lineups/",
        {"team": 2, "round": 1, "players": lineup},
        format="json",
    )
    assert reply.status_code == 204
    reply = organiser_client.post(f"/api/team-events/{event}/rounds/", {"round": 1}, format="json")
    assert reply.json() == {"paired": True}
    sheet = organiser_client.get(f"/api/team-events/{event}/matches/").json()
    (match,) = sheet
    side2 = "player2" if match["team2"] == 2 else "player1"
    assert [b[side2] for b in match["boards"]] == lineup
    assert TeamBoard.objects.filter(event_id=event).count() == 2
    # Each board's match is the event's organisers' to rule on, as a tournament's is.
    board = TeamBoard.objects.filter(event_id=event).first()
    organiser = TeamEvent.objects.get(pk=event).created_by
    assert user_can_organise_match(user=organiser, match=match_get(match_id=board.match_id))
    standings = organiser_client.get(f"/api/team-events/{event}/standings/").json()
    assert {line["team"] for line in standings} == {1, 2}


def test_bad_input_is_a_4xx_with_a_code_and_writes_nothing(organiser_client, sides, make_player):
    event = organiser_client.post(
        "/api/team-events/", {"name": "Cup", "format": "team_swiss", "boards": 3}, format="json"
    ).json()["id"]
    cases = [
        ({"name": "Short", "roster": sides[0][:2]}, "roster"),
        ({"name": "Ghosts", "roster": [999_999, 999_998, 999_997]}, None),
        ({"name": "Side", "roster": sides[0], "captain": sides[1][0]}, "captain"),
        ({"name": "Side", "roster": sides[0], "club_id": 999_999}, None),
    ]
    for body, reason in cases:
        reply = organiser_client.post(f"/api/team-events/{event}/teams/", body, format="json")
        assert reply.status_code == 400, reply.json()
        error = reply.json()["error"]
        assert error["code"] == "validation_error"
        if reason:
            assert error["reason"] == reason
    assert TeamEvent.objects.get(pk=event).version == 1
    reply = organiser_client.post(f"/api/team-events/{event}/rounds/", {"round": 1}, format="json")
    assert reply.status_code == 409 and reply.json()["error"]["reason"] == "too_few"
    bad = organiser_client.post(
        "/api/team-events/", {"name": "X", "format": "team_knockout"}, format="json"
    )
    assert bad.status_code == 400


def test_only_organisers_run_a_team_event(organiser_client, make_player, sides):
    event = organiser_client.post(
        "/api/team-events/", {"name": "Cup", "format": "team_swiss", "boards": 3}, format="json"
    ).json()["id"]
    stranger = token_client(make_player().user)
    assert stranger.post("/api/team-events/", {"name": "Mine", "format": "team_swiss"},
                         format="json").status_code == 403  # fmt: skip
    reply = stranger.post(
        f"/api/team-events/{event}/teams/", {"name": "S", "roster": sides[0]}, format="json"
    )
    assert reply.status_code == 403
    assert TeamEvent.objects.get(pk=event).version == 1
