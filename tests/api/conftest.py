"""Fixtures of the API tests: users with tokens, an organiser, clients that carry tokens."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from players.models import Player
from players.selectors import ORGANISERS_GROUP
from players.services import player_create


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    # Throttle counters live in the cache; each test starts with none.
    cache.clear()


def token_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def make_player(db) -> Callable[..., Player]:
    counter = iter(range(1, 10_000))

    def make(name: str | None = None) -> Player:
        n = next(counter)
        return player_create(
            name=name or f"Player {n}", username=f"player{n}", password="secret-pass-1"
        )

    return make


@pytest.fixture
def organiser(db):
    player = player_create(name="Olive Organiser", username="olive", password="secret-pass-1")
    player.user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    return player.user


@pytest.fixture
def organiser_client(organiser) -> APIClient:
    return token_client(organiser)


@pytest.fixture
def alice(make_player) -> Player:
    return make_player("Alice")


@pytest.fixture
def bob(make_player) -> Player:
    return make_player("Bob")


@pytest.fixture
def alice_client(alice) -> APIClient:
    return token_client(alice.user)


@pytest.fixture
def bob_client(bob) -> APIClient:
    return token_client(bob.user)


@pytest.fixture
def wsgi_in_test_transaction(monkeypatch):
    """Calling the real WSGI application (schemathesis does) starts and ends each request by
    closing "unusable" database connections, and inside the test's transaction the
    connection looks unusable (autocommit is off), so PostgreSQL would lose the test's data.
    The Django test client avoids this by disconnecting that signal handler; here the
    connection simply is never closed by it."""
    monkeypatch.setattr(connections["default"], "close_if_unusable_or_obsolete", lambda: None)
