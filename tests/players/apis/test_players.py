"""Tokens, players, /me, ping, throttling and Idempotency-Key on the players API."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle

from core.api import LoginRateThrottle
from core.models import IdempotencyRecord
from players.models import Player
from players.services import player_create
from tests.helpers import backends_waiting_for_a_lock, token_client, wait_until

pytestmark = pytest.mark.django_db


def test_token_login_then_token_auth(alice):
    client = APIClient()
    response = client.post(
        "/api/auth/token/", {"username": alice.user.username, "password": "secret-pass-1"}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/me/")
    assert me.status_code == 200
    assert me.json()["id"] == alice.id
    assert me.json()["username"] == alice.user.username


def test_wrong_password_is_an_error_body(alice):
    response = APIClient().post(
        "/api/auth/token/", {"username": alice.user.username, "password": "wrong"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_credentials"


def test_session_login_works(alice):
    client = APIClient()
    assert client.login(username=alice.user.username, password="secret-pass-1")
    assert client.get("/api/me/").json()["id"] == alice.id


def test_anonymous_is_not_authenticated():
    response = APIClient().get("/api/players/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_bad_token_is_rejected():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token nope")
    response = client.get("/api/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_login_attempts_are_throttled(alice, monkeypatch):
    monkeypatch.setattr(LoginRateThrottle, "rate", "3/min", raising=False)
    client = APIClient()
    codes = [
        client.post("/api/auth/token/", {"username": "x", "password": "y"}).status_code
        for _ in range(4)
    ]
    assert codes == [400, 400, 400, 429]
    blocked = client.post(
        "/api/auth/token/", {"username": alice.user.username, "password": "secret-pass-1"}
    )
    assert blocked.status_code == 429
    assert blocked.json()["error"]["code"] == "throttled"


def test_authenticated_play_is_not_throttled_by_default(alice_client):
    assert all(alice_client.get("/api/ping/").status_code == 200 for _ in range(300))


def test_organiser_creates_player_with_login(organiser_client):
    response = organiser_client.post(
        "/api/players/",
        {"name": "Carol", "username": "carol", "password": "carol-pass-1"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Carol" and body["username"] == "carol"
    assert "password" not in body
    login = APIClient().post("/api/auth/token/", {"username": "carol", "password": "carol-pass-1"})
    assert login.status_code == 200


def test_player_cannot_create_players(alice_client):
    response = alice_client.post("/api/players/", {"name": "Eve"}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert not Player.objects.filter(name="Eve").exists()


def test_create_player_validation(organiser_client, alice):
    taken = organiser_client.post(
        "/api/players/",
        {"name": "X", "username": alice.user.username, "password": "long-enough"},
        format="json",
    )
    assert taken.status_code == 400
    error = taken.json()["error"]
    assert (error["code"], error["reason"]) == ("validation_error", "username_taken")
    half = organiser_client.post("/api/players/", {"name": "X", "username": "x"}, format="json")
    assert half.status_code == 400
    assert half.json()["error"]["code"] == "validation_error"


def test_list_is_paginated_and_filtered(organiser_client, make_player):
    for _ in range(5):
        make_player()
    bot = organiser_client.post("/api/players/", {"name": "Robo", "is_bot": True}, format="json")
    assert bot.status_code == 201
    page = organiser_client.get("/api/players/?limit=2").json()
    assert page["count"] == Player.objects.count()
    assert len(page["results"]) == 2 and page["next"]
    bots = organiser_client.get("/api/players/?is_bot=true").json()
    assert [p["name"] for p in bots["results"]] == ["Robo"]
    named = organiser_client.get("/api/players/?name=rob").json()
    assert [p["name"] for p in named["results"]] == ["Robo"]


def test_player_detail_and_not_found(alice_client, bob):
    assert alice_client.get(f"/api/players/{bob.id}/").json()["name"] == "Bob"
    missing = alice_client.get("/api/players/999999/")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_me_without_player_is_not_found():
    staff = get_user_model().objects.create_user(username="staff", is_staff=True)
    response = token_client(staff).get("/api/me/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


class TestIdempotencyKey:
    def post(self, client, name, key):
        return client.post("/api/players/", {"name": name}, format="json", HTTP_IDEMPOTENCY_KEY=key)

    def test_retry_returns_first_response_and_writes_nothing(self, organiser_client):
        first = self.post(organiser_client, "Dora", "k-1")
        again = self.post(organiser_client, "Dora", "k-1")
        assert first.status_code == again.status_code == 201
        assert again.json() == first.json()
        assert again.headers["Idempotent-Replayed"] == "true"
        assert Player.objects.filter(name="Dora").count() == 1

    def test_key_reused_for_another_body(self, organiser_client):
        self.post(organiser_client, "Dora", "k-2")
        other = self.post(organiser_client, "Dan", "k-2")
        assert other.status_code == 422
        assert other.json()["error"]["code"] == "idempotency_key_reused"
        assert not Player.objects.filter(name="Dan").exists()

    def test_errors_are_not_kept(self, organiser_client):
        bad = organiser_client.post(
            "/api/players/", {"name": ""}, format="json", HTTP_IDEMPOTENCY_KEY="k-3"
        )
        assert bad.status_code == 400
        assert not IdempotencyRecord.objects.exists()
        good = self.post(organiser_client, "Fay", "k-3")
        assert good.status_code == 201

    def test_keys_are_per_user(self, organiser_client, make_player):
        other = make_player().user
        other.groups.add(Group.objects.get(name="organisers"))
        self.post(organiser_client, "Gus", "shared")
        self.post(token_client(other), "Gus", "shared")
        assert Player.objects.filter(name="Gus").count() == 2


@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicates_write_once(organiser, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL")
    from players import apis

    def slow_create(**kwargs):
        # The first request is in the view, its key's record written and not committed:
        # it goes on once the second is seen waiting for that record (its unique key).
        wait_until("the duplicate to wait for the first's record", backends_waiting_for_a_lock)
        return player_create(**kwargs)

    monkeypatch.setattr(apis, "player_create", slow_create)
    barrier = threading.Barrier(2)
    results = []

    def post():
        client = token_client(organiser)
        barrier.wait()
        response = client.post(
            "/api/players/", {"name": "Twin"}, format="json", HTTP_IDEMPOTENCY_KEY="race"
        )
        results.append((response.status_code, response.json(), response.get("Idempotent-Replayed")))
        connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [status for status, _, _ in results] == [201, 201]
    assert results[0][1] == results[1][1]
    assert sorted(str(replayed) for _, _, replayed in results) == ["None", "true"]
    assert Player.objects.filter(name="Twin").count() == 1


def test_unknown_api_url_is_a_json_404(alice_client):
    response = alice_client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_anonymous_requests_are_throttled(monkeypatch):
    monkeypatch.setattr(AnonRateThrottle, "rate", "2/min", raising=False)
    client = APIClient()
    codes = [client.get("/api/schema/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_rate_limit_headers_say_where_an_anonymous_client_stands(monkeypatch, fresh_throttles):
    monkeypatch.setattr(AnonRateThrottle, "rate", "3/min", raising=False)
    client = APIClient()
    seen = [client.get("/api/tournaments/") for _ in range(4)]
    assert [r["X-RateLimit-Remaining"] for r in seen[:3]] == ["2", "1", "0"]
    assert all(r["X-RateLimit-Limit"] == "3" for r in seen)
    assert 0 < int(seen[0]["X-RateLimit-Reset"]) <= 60
    refused = seen[3]
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    assert 0 < int(refused["Retry-After"]) <= 60


def test_anonymous_reads_do_not_block_logins(alice, monkeypatch, fresh_throttles):
    monkeypatch.setattr(AnonRateThrottle, "rate", "2/min", raising=False)
    client = APIClient()
    assert [client.get("/api/tournaments/").status_code for _ in range(3)][-1] == 429
    login = client.post(
        "/api/auth/token/", {"username": alice.user.username, "password": "secret-pass-1"}
    )
    assert login.status_code == 200
    assert login["X-RateLimit-Limit"]  # the login's own scopes
