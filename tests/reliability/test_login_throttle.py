"""Issue 14 item 9: every login path is throttled by account and by the real client
address; a rotated X-Forwarded-For does not make one client many."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from core.api import LoginAccountRateThrottle

pytestmark = pytest.mark.django_db

LIMIT = 3


@pytest.fixture(autouse=True)
def _low_limits(settings):
    """The LIMIT-th failed login locks out (and is itself answered 429)."""
    settings.AXES_FAILURE_LIMIT = LIMIT


def token(client, username, password, **extra):
    body = {"username": username, "password": password}
    return client.post("/api/auth/token/", body, format="json", **extra)


def test_rotating_x_forwarded_for_does_not_dodge_the_lockout(settings, alice, make_player):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = LIMIT  # an address, whichever accounts it tries
    client = APIClient()
    for n in range(LIMIT - 1):
        response = token(client, f"nobody{n}", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        assert response.status_code == 400
    response = token(client, "nobody-else", "wrong", HTTP_X_FORWARDED_FOR="203.0.113.99")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    # Even the right password, from that address, waits out the cool-off.
    locked = token(
        client, alice.user.username, "secret-pass-1", HTTP_X_FORWARDED_FOR="198.51.100.7"
    )
    assert locked.status_code == 429
    other_address = token(client, alice.user.username, "secret-pass-1", REMOTE_ADDR="192.0.2.1")
    assert other_address.status_code == 200


def test_with_lockout_by_username_an_account_is_locked_out_from_every_address(settings, alice):
    """LOGIN_LOCKOUT_BY=username,ip_address (the default is the account at an address:
    tests/reliability/test_login_hashing.py)."""
    settings.AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
    client = APIClient()
    for n in range(LIMIT):
        wrong = token(client, alice.user.username, "wrong", REMOTE_ADDR=f"192.0.2.{n}")
        assert wrong.status_code == (400 if n < LIMIT - 1 else 429)
    response = token(client, alice.user.username, "secret-pass-1", REMOTE_ADDR="192.0.2.200")
    assert (response.status_code, response.json()["error"]["code"]) == (429, "throttled")


def test_behind_one_proxy_the_address_it_saw_counts(settings, alice):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = LIMIT
    client = APIClient()
    for n in range(LIMIT - 1):
        # The client forges the start of the header; our proxy appends what it saw.
        forged = f"10.9.9.{n}, 203.0.113.5"
        assert token(client, f"x{n}", "wrong", HTTP_X_FORWARDED_FOR=forged).status_code == 400
    blocked = token(client, "y", "wrong", HTTP_X_FORWARDED_FOR="10.1.1.1, 203.0.113.5")
    assert blocked.status_code == 429
    elsewhere = token(client, "y", "wrong", HTTP_X_FORWARDED_FOR="10.1.1.1, 203.0.113.6")
    assert elsewhere.status_code == 400


@pytest.mark.parametrize("path", ["/admin/login/", "/api-auth/login/"])
def test_the_other_login_pages_are_throttled_too(path, alice):
    client = Client()
    for _ in range(LIMIT - 1):
        response = client.post(path, {"username": alice.user.username, "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    response = client.post(path, {"username": alice.user.username, "password": "wrong"})
    assert response.status_code == 429
    response = client.post(path, {"username": alice.user.username, "password": "secret-pass-1"})
    assert response.status_code == 429


def test_the_login_rate_per_account_holds_across_addresses(monkeypatch, alice):
    """Spent, it holds for the addresses that failed for the account (not for its owner's
    that has not: tests/reliability/test_login_no_lockout_by_others.py)."""
    monkeypatch.setattr(LoginAccountRateThrottle, "rate", "2/min", raising=False)
    client = APIClient()
    for n in range(2):
        wrong = token(client, alice.user.username, "wrong", REMOTE_ADDR=f"192.0.2.{n}")
        assert wrong.status_code == 400
    third = token(client, alice.user.username, "secret-pass-1", REMOTE_ADDR="192.0.2.1")
    assert third.status_code == 429


def test_a_club_behind_one_address_locks_out_the_account_not_the_address(
    settings, alice, make_player
):
    """LOGIN_LOCKOUT_BY=username,username+ip_address: one player's failed logins do not lock
    out the other players whose phones share the club's address."""
    settings.AXES_LOCKOUT_PARAMETERS = ["username", ["username", "ip_address"]]
    client = APIClient()
    for n in range(LIMIT):
        wrong = token(client, "bob-typos", "wrong", REMOTE_ADDR="198.51.100.20")
        assert wrong.status_code == (400 if n < LIMIT - 1 else 429)
    same_address = token(client, alice.user.username, "secret-pass-1", REMOTE_ADDR="198.51.100.20")
    assert same_address.status_code == 200
