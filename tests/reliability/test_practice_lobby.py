"""Issue 32 item 4: practice matches never push a player's tournament match out of the
lobby (`/play/`). A player has at most PRACTICE_OPEN_MAX practice matches in play (a new
one abandons the oldest), their creation is throttled (THROTTLE_PRACTICE), and the lobby
lists the tournament's matches first, whatever else there is."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services as game_services
from games.models import Match
from tests.helpers import token_client
from tests.reliability.helpers import make_organiser, tournament_with_a_match

pytestmark = pytest.mark.django_db

PRACTICE_OPEN_MAX = 3  # games.services.practice.PRACTICE_OPEN_MAX


@pytest.fixture
def player_in_a_tournament(alice, bob):
    organiser = make_organiser("td")
    _, match_id = tournament_with_a_match(organiser=organiser, players=[alice, bob], is_public=True)
    return alice, match_id, organiser


def lobby_of(player) -> str:
    client = Client()
    client.force_login(player.user)
    response = client.get("/play/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_hundred_practice_starts_leave_the_tournament_match_in_the_lobby(
    player_in_a_tournament,
):
    alice, match_id, _ = player_in_a_tournament
    client = token_client(alice.user)
    statuses = [client.post("/api/practice/", {}, format="json").status_code for _ in range(101)]
    assert 429 in statuses and set(statuses) <= {201, 429}
    refused = client.post("/api/practice/", {}, format="json")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    in_play = Match.objects.filter(practice=True, status="in_progress", player1=alice)
    assert in_play.count() <= PRACTICE_OPEN_MAX
    assert f'data-play-link="{match_id}"' in lobby_of(alice)


def test_a_new_practice_match_abandons_the_oldest_past_the_limit(alice):
    client = token_client(alice.user)
    ids = [client.post("/api/practice/", {}, format="json").json()["id"] for _ in range(4)]
    open_ids = set(
        Match.objects.filter(practice=True, status="in_progress").values_list("id", flat=True)
    )
    assert {str(i) for i in open_ids} == set(ids[1:])
    assert Match.objects.get(pk=ids[0]).status == "finished"


def test_the_tournament_match_is_listed_first_whatever_else_is_in_play(
    player_in_a_tournament, make_player
):
    alice, match_id, organiser = player_in_a_tournament
    for _ in range(101):  # friendlies, all newer than the tournament's match
        game_services.match_create(
            player1=alice, player2=make_player(), created_by=organiser, organisers=[organiser]
        )
    page = lobby_of(alice)
    assert f'data-play-link="{match_id}"' in page
    assert page.index(f'data-play-link="{match_id}"') < page.index("data-play-link=", 0) + 1


def test_the_lobby_button_is_throttled_alike(alice):
    client = Client()
    client.force_login(alice.user)
    statuses = [client.post("/play/practice/").status_code for _ in range(25)]
    assert set(statuses) == {302, 429}
    page = client.post("/play/practice/")
    assert page.status_code == 429 and 'role="alert"' in page.content.decode()
    in_play = Match.objects.filter(practice=True, status="in_progress", player1=alice)
    assert in_play.count() == PRACTICE_OPEN_MAX
