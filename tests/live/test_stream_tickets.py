"""Issue 21: a browser's EventSource cannot send `Authorization`, so a client on another
origin follows a stream with a ticket: obtained with the token, for one stream, minutes,
passed in the URL. And CORS: off by default, origins from the settings, preflights
answered before any login is asked for."""

from __future__ import annotations

import httpx
import pytest
from django.core import signing

from players.services import player_create
from tests.games.audit.helpers import tournament_match
from tests.helpers import token_client
from tests.live.helpers import Follower

pytestmark = pytest.mark.django_db(transaction=True)


def _players():
    return [
        player_create(name=name, username=name.lower(), password="secret-pass-1")
        for name in ("Alice", "Bob", "Stranger")
    ]


def _ticket(user, path: str) -> dict:
    response = token_client(user).post("/api/streams/ticket/", {"stream": path})
    assert response.status_code == 201, response.content
    return response.json()


def test_a_ticket_opens_its_stream_and_no_other(server, organiser):
    alice, bob, stranger = _players()
    _, match = tournament_match(organiser, [alice, bob], is_public=False)
    path = f"/api/matches/{match.pk}/stream/"
    issued = _ticket(alice.user, path)
    assert issued["url"] == f"{path}?ticket={issued['ticket']}"
    follower = Follower(f"{server}{issued['url']}")
    assert follower.status == 200
    view = follower.take(match.version) and follower.next()
    follower.close()
    assert view.event == "view" and view.data["your_cards"]  # Alice's own view
    # The same ticket on another stream, a forged one, a stranger's: refused as for a token.
    other = Follower(f"{server}/api/tournaments/1/stream/?ticket={issued['ticket']}")
    assert other.status == 401
    other.close()
    forged = Follower(f"{server}{path}?ticket={issued['ticket']}x")
    assert forged.status == 401
    forged.close()
    strangers = Follower(f"{server}{_ticket(stranger.user, path)['url']}")
    assert strangers.status == 404
    strangers.close()


def test_an_expired_ticket_is_refused(server, organiser, settings):
    alice, bob, _ = _players()
    _, match = tournament_match(organiser, [alice, bob], is_public=False)
    path = f"/api/matches/{match.pk}/stream/"
    old = signing.dumps(
        {"u": alice.user.pk, "s": path}, salt="core.live.stream_ticket", compress=True
    )
    settings.STREAM_TICKET_SECONDS = -1  # every ticket is past its time
    follower = Follower(f"{server}{path}?ticket={old}")
    assert follower.status == 401
    follower.close()


def test_a_ticket_is_only_for_a_stream(alice_client):
    response = alice_client.post("/api/streams/ticket/", {"stream": "/api/players/"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "validation_error"


def test_cors_is_off_by_default_and_preflights_need_no_login(server, settings):
    preflight = {
        "Origin": "https://club.example.org",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    refused = httpx.options(f"{server}/api/matches/", headers=preflight)
    assert refused.status_code == 200
    assert "access-control-allow-origin" not in refused.headers
    settings.CORS_ALLOWED_ORIGINS = ["https://club.example.org"]
    allowed = httpx.options(f"{server}/api/matches/", headers=preflight)
    assert allowed.status_code == 200, allowed.text
    assert allowed.headers["access-control-allow-origin"] == "https://club.example.org"
    assert "authorization" in allowed.headers["access-control-allow-headers"]
    read = httpx.get(f"{server}/api/tournaments/", headers={"Origin": "https://club.example.org"})
    assert read.headers["access-control-allow-origin"] == "https://club.example.org"
    assert "X-RateLimit-Remaining" in read.headers["access-control-expose-headers"]
