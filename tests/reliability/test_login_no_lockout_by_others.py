"""Issue 32 item 2: wrong passwords for an account from elsewhere must not lock its owner
out. The per-account budgets (the token login's THROTTLE_LOGIN_ACCOUNT, the hashing budget
LOGIN_HASHES_PER_ACCOUNT) hold for addresses that have failed for the account; one that
has not failed still signs in, as the (account, address) lockout already lets it."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from core.api import LoginAccountRateThrottle

pytestmark = pytest.mark.django_db

OWNER = "192.0.2.10"


@pytest.fixture(autouse=True)
def _production_limits(settings, monkeypatch):
    """The shipped defaults (the test settings turn the hashing budgets off)."""
    monkeypatch.setattr(LoginAccountRateThrottle, "rate", "10/min", raising=False)
    settings.LOGIN_HASHES_PER_ACCOUNT = 10
    settings.LOGIN_HASHES_PER_ADDRESS = 20
    settings.AXES_FAILURE_LIMIT = 10


def token(client, username, password, address):
    body = {"username": username, "password": password}
    return client.post("/api/auth/token/", body, format="json", REMOTE_ADDR=address)


def hammer(username: str) -> list[int]:
    """60 wrong passwords from six other addresses, within the minute."""
    client = APIClient()
    return [token(client, username, "wrong", f"203.0.113.{n % 6}").status_code for n in range(60)]


def test_the_owner_still_gets_a_token_after_60_wrong_passwords_from_elsewhere(alice):
    statuses = hammer(alice.user.username)
    assert 429 in statuses  # the attackers are held back
    mine = token(APIClient(), alice.user.username, "secret-pass-1", OWNER)
    assert mine.status_code == 200, mine.content
    # An attacking address stays refused, even with the right password.
    theirs = token(APIClient(), alice.user.username, "secret-pass-1", "203.0.113.1")
    assert theirs.status_code == 429


def test_the_owner_still_signs_in_at_the_desk(alice):
    hammer(alice.user.username)
    response = Client(REMOTE_ADDR=OWNER).post(
        "/desk/login/", {"username": alice.user.username, "password": "secret-pass-1"}
    )
    assert response.status_code == 302, response.content.decode()[:300]


def test_the_account_budget_holds_for_an_address_that_failed(alice):
    client = APIClient()
    for n in range(10):
        assert token(client, alice.user.username, "wrong", f"198.51.100.{n}").status_code == 400
    # Budget spent: an address that failed waits; the owner's does not.
    assert token(client, alice.user.username, "wrong", "198.51.100.3").status_code == 429
    assert token(client, alice.user.username, "secret-pass-1", OWNER).status_code == 200
