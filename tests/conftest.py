from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import connections
from rest_framework.test import APIClient

from config.celery import app as celery_app
from players.models import Player
from players.selectors import ORGANISERS_GROUP
from players.services import player_create
from tests.helpers import token_client

# Fixtures shared by several directories, defined once (tests/fixtures/).
pytest_plugins = ["tests.fixtures.asgi", "tests.fixtures.browser", "tests.fixtures.desk"]


@pytest.fixture(autouse=True)
def eager_celery(request: pytest.FixtureRequest) -> Iterator[None]:
    """Jobs run in process (after commit) even when CELERY_BROKER_URL points at Redis, except
    in tests marked `celery_worker`, which start a real worker."""
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _fresh_match_states() -> Iterator[None]:
    """Each test starts with no match state remembered by this process (a remembered state
    is only ever used where the events vouch for it, but a test reads as it would alone)."""
    from games.repository import match_states_forget
    from tournaments.repository import tournament_states_forget
    from tournaments.teams.repository import team_event_states_forget

    match_states_forget()
    tournament_states_forget()
    team_event_states_forget()
    yield
    match_states_forget()
    tournament_states_forget()
    team_event_states_forget()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


# --- the API tests' users and clients (tests/core, tests/config, tests/*/apis) ---------------
# games/services and tournaments override organiser, alice and bob with their own.


@pytest.fixture(autouse=True)
def fresh_throttles() -> None:
    """Throttle counters live in the cache; each test starts with none."""
    cache.clear()


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


@pytest.fixture(autouse=True)
def _outbox_relaying() -> Iterator[None]:
    """Each test starts with the outbox relaying (a test that broke the broker paused it)."""
    from core.outbox import relay_resume

    relay_resume()
    yield
    relay_resume()
