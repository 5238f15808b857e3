"""Issue 26 (9): the pages of a private tournament and of its matches answer a stranger as
the API does, 404, without revealing that they exist; a public tournament's pages keep
their 403 for what a stranger may not do there."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.helpers import token_client
from tests.reliability.helpers import make_organiser, tournament_with_a_match

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def private(organiser, alice, bob):
    return tournament_with_a_match(organiser=organiser, players=[alice, bob], is_public=False)


@pytest.fixture
def public(organiser, make_player):
    players = [make_player("Carol"), make_player("Dave")]
    return tournament_with_a_match(organiser=organiser, players=players, is_public=True)


def pages(tournament, match_id) -> list[str]:
    return [f"/tables/{match_id}/", f"/desk/{tournament.pk}/", f"/desk/{tournament.pk}/check-in/"]


@pytest.mark.parametrize("who", ["player", "organiser"])
def test_a_private_tournaments_pages_are_404_to_a_stranger_as_its_api(private, make_player, who):
    tournament, match_id = private
    stranger = make_player("Sam").user if who == "player" else make_organiser("otherorg")
    api = token_client(stranger)
    assert api.get(f"/api/tournaments/{tournament.pk}/").status_code == 404
    assert api.get(f"/api/matches/{match_id}/").status_code == 404
    client = signed_in(stranger)
    for url in pages(tournament, match_id):
        assert client.get(url).status_code == 404, url


def test_its_players_and_organiser_still_get_in(private, organiser, alice):
    tournament, match_id = private
    assert signed_in(alice.user).get(f"/tables/{match_id}/").status_code == 200
    assert signed_in(alice.user).get(f"/desk/{tournament.pk}/").status_code == 403
    desk = signed_in(organiser)
    assert desk.get(f"/desk/{tournament.pk}/").status_code == 200
    assert desk.get(f"/tables/{match_id}/").status_code == 302  # to the match's desk


def test_a_public_tournaments_pages_keep_their_403(public, make_player):
    tournament, match_id = public
    client = signed_in(make_organiser("otherorg"))
    for url in pages(tournament, match_id):
        assert client.get(url).status_code == 403, url
