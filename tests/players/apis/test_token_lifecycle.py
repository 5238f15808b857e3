"""Issue 21: tokens with a lifecycle. A login issues a new token with a stated lifetime;
logging out revokes it; a person lists and revokes their tokens; named long-lived tokens
(optional expiry) for bots and integrations; DRF's older tokens keep working."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.models import AccessToken
from tests.helpers import key_client, password_login

pytestmark = pytest.mark.django_db


def test_a_login_issues_a_new_token_with_its_lifetime(alice, settings):
    settings.TOKEN_LOGIN_HOURS = 2
    first, second = password_login(alice), password_login(alice)
    assert first["token"] != second["token"]
    expires = dt.datetime.fromisoformat(first["expires_at"].replace("Z", "+00:00"))
    assert abs(expires - (timezone.now() + dt.timedelta(hours=2))) < dt.timedelta(minutes=1)
    assert key_client(first["token"]).get("/api/me/").status_code == 200
    # Only a digest of the key is stored.
    assert not AccessToken.objects.filter(digest=first["token"]).exists()


def test_an_expired_token_is_refused(alice):
    issued = password_login(alice)
    AccessToken.objects.filter(pk=issued["id"]).update(expires_at=timezone.now())
    response = key_client(issued["token"]).get("/api/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_logout_revokes_the_token_it_is_sent_with(alice):
    one, other = password_login(alice), password_login(alice)
    assert key_client(one["token"]).delete("/api/auth/token/").status_code == 204
    assert key_client(one["token"]).get("/api/me/").status_code == 401
    assert key_client(other["token"]).get("/api/me/").status_code == 200


def test_logout_needs_a_token(alice):
    assert APIClient().delete("/api/auth/token/").status_code == 401


def test_a_person_lists_and_revokes_their_own_tokens(alice, bob):
    mine, also = password_login(alice), password_login(alice)
    bobs = password_login(bob)
    client = key_client(mine["token"])
    listed = client.get("/api/auth/tokens/").json()["results"]
    assert {t["id"] for t in listed} == {mine["id"], also["id"]}
    assert [t["current"] for t in listed if t["id"] == mine["id"]] == [True]
    assert all("token" not in t and len(t["prefix"]) == 11 for t in listed)
    assert client.delete(f"/api/auth/tokens/{also['id']}/").status_code == 204
    assert key_client(also["token"]).get("/api/me/").status_code == 401
    # Someone else's token is not found, and stays.
    refused = client.delete(f"/api/auth/tokens/{bobs['id']}/")
    assert refused.status_code == 404
    assert key_client(bobs["token"]).get("/api/me/").status_code == 200


def test_a_named_token_for_a_bot_lasts_until_its_expiry_or_revocation(alice):
    client = key_client(password_login(alice)["token"])
    forever = client.post("/api/auth/tokens/", {"name": "club bot"})
    assert forever.status_code == 201, forever.content
    body = forever.json()
    assert body["kind"] == "named" and body["expires_at"] is None and body["token"]
    assert key_client(body["token"]).get("/api/me/").status_code == 200
    soon = (timezone.now() + dt.timedelta(days=7)).isoformat()
    dated = client.post("/api/auth/tokens/", {"name": "scoreboard", "expires_at": soon}).json()
    assert dated["expires_at"] is not None
    past = (timezone.now() - dt.timedelta(days=1)).isoformat()
    refused = client.post("/api/auth/tokens/", {"name": "late", "expires_at": past})
    assert refused.status_code == 400 and "expires_at" in refused.json()["error"]["fields"]


def test_drf_s_older_tokens_keep_working_and_log_out(alice):
    key = Token.objects.create(user=alice.user).key
    client = key_client(key)
    assert client.get("/api/me/").status_code == 200
    assert client.delete("/api/auth/token/").status_code == 204
    assert client.get("/api/me/").status_code == 401
