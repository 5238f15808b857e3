"""Issue 14 item 3: after the database connection is lost (a backend terminated, a server
restarted), the next request reconnects transparently: the prepared statements are looked
up for the connection that runs them, not for the dead one."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from tests.games.apis.helpers import act
from tests.helpers import token_client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only"),
]


@pytest.fixture
def kept_connection(monkeypatch):
    """The production setup: a kept connection (CONN_MAX_AGE) with health checks."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 300)
    monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", True)
    connection.close()
    connection.ensure_connection()
    yield
    connection.close()


def terminate_backend() -> None:
    """Kill this process's database session from a second connection, then start a new
    request as Django does (the test client skips that step)."""
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.close_if_unusable_or_obsolete()  # request_started's close_old_connections


def test_a_token_request_after_the_backend_was_terminated(kept_connection, alice):
    client = token_client(alice.user)
    assert client.get("/api/ping/").status_code == 200  # the token statement is prepared
    terminate_backend()
    response = client.get("/api/ping/")
    assert response.status_code == 200, response.content
    assert response.json()["user"] == alice.user.pk


def test_an_action_after_the_backend_was_terminated(kept_connection, organiser_client, alice, bob):
    created = organiser_client.post(
        "/api/matches/",
        {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id},
        format="json",
    )
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    bob_client = token_client(bob.user)
    # Bob (the non-dealer) passes: the lock, tail and token statements are now prepared.
    assert act(bob_client, match_id, {"type": "pass"}).status_code == 201
    terminate_backend()
    alice_client = token_client(alice.user)
    response = act(alice_client, match_id, {"type": "pass"})
    assert response.status_code == 201, response.content
    assert response.json()["phase"] == "draw"
