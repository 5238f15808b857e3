"""Issue 32, item 14: a refused token says why (`reason`: token_expired, token_revoked,
token_invalid, wrong_scheme), a login's token can be renewed before it expires, and the
caller's tokens come in the envelope every list has."""

from __future__ import annotations

import pytest
from django.utils import timezone

from core.models import AccessToken
from tests.helpers import key_client, password_login

pytestmark = pytest.mark.django_db


def _refusal(answer) -> dict:
    assert answer.status_code == 401, answer.content
    error = answer.json()["error"]
    assert error["code"] == "authentication_failed"
    return error


def test_expired_revoked_and_unknown_tokens_each_give_their_reason(alice):
    expired, revoked = password_login(alice), password_login(alice)
    AccessToken.objects.filter(pk=expired["id"]).update(expires_at=timezone.now())
    assert key_client(revoked["token"]).delete("/api/auth/token/").status_code == 204

    assert _refusal(key_client(expired["token"]).get("/api/me/"))["reason"] == "token_expired"
    assert _refusal(key_client(revoked["token"]).get("/api/me/"))["reason"] == "token_revoked"
    unknown = "hg_" + "0" * 40
    assert _refusal(key_client(unknown).get("/api/me/"))["reason"] == "token_invalid"


def test_a_bearer_header_is_told_the_scheme_expected(alice):
    issued = password_login(alice)
    error = _refusal(key_client(issued["token"], scheme="Bearer").get("/api/me/"))
    assert error["reason"] == "wrong_scheme"
    assert "Authorization: Token" in error["message"]


def test_a_login_token_is_renewed_and_the_old_one_revoked(alice, settings):
    settings.TOKEN_LOGIN_HOURS = 1
    issued = password_login(alice)
    renewed = key_client(issued["token"]).post("/api/auth/token/refresh/")
    assert renewed.status_code == 200, renewed.content
    fresh = renewed.json()
    assert fresh["token"] != issued["token"] and fresh["expires_at"] >= issued["expires_at"]
    assert key_client(fresh["token"]).get("/api/me/").status_code == 200
    old = _refusal(key_client(issued["token"]).get("/api/me/"))
    assert old["reason"] == "token_revoked"
    # The revoked one cannot be renewed again.
    again = key_client(issued["token"]).post("/api/auth/token/refresh/")
    assert _refusal(again)["reason"] == "token_revoked"


def test_a_named_token_is_not_renewed(alice):
    login = key_client(password_login(alice)["token"])
    named = login.post("/api/auth/tokens/", {"name": "club bot"}, format="json").json()
    refused = key_client(named["token"]).post("/api/auth/token/refresh/")
    assert refused.status_code == 400, refused.content
    assert refused.json()["error"]["reason"] == "not_a_login_token"
    assert key_client(named["token"]).get("/api/me/").status_code == 200  # still valid


def test_the_tokens_list_has_the_envelope_and_leaves_revoked_ones_out(alice):
    first, second = password_login(alice), password_login(alice)
    client = key_client(first["token"])
    assert client.delete(f"/api/auth/tokens/{second['id']}/").status_code == 204
    listed = client.get("/api/auth/tokens/?limit=10").json()
    assert set(listed) == {"count", "next", "previous", "results"}
    assert [t["id"] for t in listed["results"]] == [first["id"]]
    assert listed["count"] == 1
    # Revoking it twice: not found, as another person's.
    assert client.delete(f"/api/auth/tokens/{second['id']}/").status_code == 404
