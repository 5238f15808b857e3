"""GET /api/team-events/{id}/stream/ and /api/tournaments/{id}/teams/stream/ (issue 39): a
team event's events pushed as they are committed, in order, once, resumable; the team
standings with the current round's board results after each batch; a private one is 404 to
strangers; a tournament of single players has no team stream."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.helpers import openapi_validator
from tests.live.helpers import Follower, written
from tests.tournaments.helpers import make_bots
from tournaments import services
from tournaments.teams import services as teams
from tournaments.teams.models import TeamEvent

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def organiser(transactional_db):
    from players.models import Club

    user = get_user_model().objects.create_user(username="org", password="pw-organiser")
    Club.objects.create(name="Gin Club", slug="gin-club").organisers.add(user)
    return user


def _sides(event, organiser, bots):
    for n in (1, 2):
        roster = [b.pk for b in bots[(n - 1) * 2 : n * 2]]
        written(
            lambda n=n, roster=roster: teams.team_register(
                event_id=event.pk, name=f"Side {n}", roster=roster, by=organiser, by_rating=False
            )
        )


def test_a_follower_gets_the_team_event_s_events_then_its_standings(server, organiser):
    tournament = services.tournament_create(
        name="League", format="team_swiss", created_by=organiser, boards=2, rounds=1
    )
    event = TeamEvent.objects.get(tournament=tournament)
    url = f"{server}/api/tournaments/{tournament.pk}/teams/stream/"
    follower = Follower(url, headers={"Last-Event-ID": str(event.version)})
    assert follower.status == 200
    assert follower.next().event == "standings"  # on connecting
    _sides(event, organiser, make_bots(4))
    got = follower.take(2)
    assert [(m.id, m.data["type"]) for m in got] == [(2, "TeamRegistered"), (3, "TeamRegistered")]
    assert got[0].data["data"]["name"] == "Side 1" and "by" not in got[0].data
    written(lambda: teams.team_round_pair(event_id=event.pk, round_number=1, by=organiser))
    (paired,) = follower.take(1)
    assert paired.id == 4 and paired.data["type"] == "TeamRoundPaired"
    standings = follower.next()
    while standings.event != "standings" or standings.data["version"] < 4:
        standings = follower.next()
    api = APIClient().get(f"/api/tournaments/{tournament.pk}/team-standings/").json()
    assert standings.data["results"] == api
    assert standings.data["round"] == 1
    (match,) = standings.data["matches"]
    assert len(match["boards"]) == 2 and {b["result"] for b in match["boards"]} == {""}
    # What is sent is what the schema describes.
    schema = APIClient().get("/api/schema/?format=json").json()
    openapi_validator(schema, "TeamStandingsMessage").validate(standings.data)
    for message in (*got, paired):
        openapi_validator(schema, "TeamEventMessage").validate(message.data)
    follower.close()
    # Resuming from the last id seen: only what came since.
    again = Follower(f"{server}/api/team-events/{event.pk}/stream/", headers={"Last-Event-ID": "3"})
    (resumed,) = again.take(1)
    assert resumed.id == 4
    assert [m for m in again.until_idle() if m.event == "event"] == []
    again.close()


def test_a_private_team_event_is_404_to_strangers_and_single_players_have_none(server, organiser):
    private = teams.team_event_create(
        name="Closed", format="team_swiss", created_by=organiser, is_public=False
    )
    refused = Follower(f"{server}/api/team-events/{private.pk}/stream/")
    assert refused.status == 404
    refused.response.read()
    assert refused.response.json()["error"]["code"] == "not_found"
    refused.close()
    single = services.tournament_create(name="Solo", format="round_robin", created_by=organiser)
    none = Follower(f"{server}/api/tournaments/{single.pk}/teams/stream/")
    assert none.status == 404
    none.close()


def test_a_wsgi_server_refuses_the_team_stream(organiser, client):
    event = teams.team_event_create(name="Open", format="team_swiss", created_by=organiser)
    response = client.get(f"/api/team-events/{event.pk}/stream/")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "stream_unavailable"


def test_a_lineup_is_sealed_on_the_public_stream(server, organiser):
    """A lineup set before its round is paired reaches the organisers whole; anyone else
    hears that it was set, not its players (as GET …/lineups/ keeps it)."""
    from rest_framework.authtoken.models import Token

    tournament = services.tournament_create(
        name="League", format="team_swiss", created_by=organiser, boards=2, rounds=1
    )
    event = TeamEvent.objects.get(tournament=tournament)
    bots = make_bots(4)
    _sides(event, organiser, bots)
    url = f"{server}/api/team-events/{event.pk}/stream/"
    start = {"Last-Event-ID": "3"}
    token = Token.objects.create(user=organiser).key
    public = Follower(url, headers=start)
    desk = Follower(url, headers={**start, "Authorization": f"Token {token}"})
    order = [bots[1].pk, bots[0].pk]
    written(
        lambda: teams.team_lineup_set(
            event_id=event.pk, team=1, round_number=1, players=order, by=organiser
        )
    )
    (sealed,) = [m for m in public.take(1)]
    (whole,) = [m for m in desk.take(1)]
    assert sealed.data["type"] == whole.data["type"] == "LineupSet"
    assert "players" not in sealed.data["data"] and sealed.data["data"]["team"] == 1
    assert whole.data["data"]["players"] == order
    public.close()
    desk.close()
