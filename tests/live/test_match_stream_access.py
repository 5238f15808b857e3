"""Who may follow a match's stream: as its events API (issue 13), a public tournament's
match signed out too, as a spectator (no deal, no card drawn from the stock of the hand in
play); a private tournament's match is a 404 to a signed-in stranger and a 401 signed out."""

from __future__ import annotations

import pytest

import eventstore
from players.services import player_create
from tests.games.audit.helpers import play_until_hand, tournament_match
from tests.live.helpers import Follower

pytestmark = pytest.mark.django_db(transaction=True)


def _token(user) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


def _players():
    return [
        player_create(name=name, username=name.lower(), password="secret-pass-1")
        for name in ("Alice", "Bob", "Stranger")
    ]


def test_a_public_match_is_followed_signed_out_as_a_spectator(server, organiser):
    alice, bob, _ = _players()
    _, match = tournament_match(organiser, [alice, bob], is_public=True)
    match = play_until_hand(match, 1)
    follower = Follower(f"{server}/api/matches/{match.pk}/stream/")
    assert follower.status == 200
    events = [m.data for m in follower.take(match.version)]
    view = follower.next()
    follower.close()
    assert view.event == "view" and view.data["your_cards"] is None
    deal = next(e for e in eventstore.load(stream_id=match.stream_id) if e.type == "HandDealt")
    shown = next(e for e in events if e["type"] == "HandDealt")
    assert set(shown["data"]) == {"hand_number", "dealer", "commitment"}
    assert deal.data["salt"] not in str(events) + str(view.data)
    for e in events:
        if e["type"] == "CardDrawn" and e["data"]["source"] == "stock":
            assert e["data"]["card"] is None


def test_a_private_match_is_401_signed_out_and_404_to_a_stranger(server, organiser):
    alice, bob, stranger = _players()
    _, match = tournament_match(organiser, [alice, bob], is_public=False)
    url = f"{server}/api/matches/{match.pk}/stream/"
    signed_out = Follower(url)
    assert signed_out.status == 401
    signed_out.close()
    refused = Follower(url, headers={"Authorization": f"Token {_token(stranger.user)}"})
    assert refused.status == 404
    refused.close()
    player = Follower(url, headers={"Authorization": f"Token {_token(alice.user)}"})
    assert player.status == 200
    player.close()
