"""What one action costs the database: the queries that bench/api.py's figures depend on.
Counted by table, so the test holds on PostgreSQL and SQLite alike."""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.games.apis.helpers import act, preset_deck
from tests.helpers import backends_waiting_for_a_lock, wait_until

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_id(organiser_client, alice, bob) -> str:
    """Alice deals first; Bob (the non-dealer) is to act on the upcard."""
    body = {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id}
    response = organiser_client.post(
        "/api/matches/", {**body, "decks": [preset_deck()]}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def tables_read(queries: list[dict]) -> list[str]:
    """The table each SELECT reads first (its own FROM, not a subquery's), in order."""
    out = []
    for query in queries:
        sql, nested = query["sql"], re.compile(r"\([^()]*\)")
        while nested.search(sql):  # drop subqueries (and every other parenthesis)
            sql = nested.sub("", sql)
        found = re.match(r'\s*SELECT .*? FROM "?(\w+)"?', sql, re.S | re.I)
        if found:
            out.append(found.group(1))
    return out


def test_an_action_reads_the_match_once_and_the_player_with_the_token(
    match_id, bob_client, alice_client
):
    # Bob's pass prepares the statements on this connection and caches the finished
    # hands (none yet) for the hand; Alice's is an action like most.
    assert act(bob_client, match_id, {"type": "pass"}).status_code == 201
    with CaptureQueriesContext(connection) as queries:
        response = act(alice_client, match_id, {"type": "pass"})
    assert response.status_code == 201
    statements = [_prepared_text(q["sql"]) for q in queries.captured_queries]
    read = tables_read([{"sql": part} for sql in statements for part in sql.split(";")])
    assert read.count("games_match") == 1, read  # the locked read; no lookup before it
    assert "players_player" not in read, read  # the caller's player came with the token
    assert read[0] == "authtoken_token"
    # The state is loaded once: the events since the state this worker remembers of the
    # match (eventstore.repository), no snapshot; the answer is built from the state the
    # service committed, not reloaded.
    assert read.count("eventstore_snapshot") == 0, read
    assert read.count("eventstore_event") == 1, read
    if connection.vendor == "postgresql":
        # Round trips: the token; the locked match with the events since its remembered state;
        # the append with its savepoint, the match row's update and the NOTIFY. Not
        # counted: BEGIN and COMMIT, or the test transaction's savepoints standing in for them.
        django_savepoint = re.compile(r'(RELEASE )?SAVEPOINT "\w+"$')
        sql = [q["sql"] for q in queries.captured_queries if not django_savepoint.match(q["sql"])]
        assert len(sql) == 3, sql
        assert [s.split(" ", 1)[0] for s in sql[1].split("; ")] == ["EXECUTE"] * 2
        append = [_prepared_text(part) for part in sql[2].split("; ")]
        assert [part.split(" ", 2)[:2] for part in append] == [
            ["SAVEPOINT", "games_eventstore_append"],
            ["INSERT", "INTO"],
            ["UPDATE", '"games_match"'],
            ["SELECT", "pg_notify('eventstore_appended',"],  # wakes live followers at commit
            ["RELEASE", "SAVEPOINT"],
        ]
        # A pass changes whose turn it is, not the scoresheet: only the turn's columns are
        # sent (tests/games/services/test_bots.py checks the read models against a rebuild
        # over whole matches, hand and game ends included).
        assert '"scoresheet"' not in append[2] and '"turn_player_id" = $' in append[2]


def _prepared_text(sql: str) -> str:
    """`sql` with each EXECUTE of a prepared statement replaced by the statement's text."""
    if connection.vendor != "postgresql" or "EXECUTE" not in sql:
        return sql
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement FROM pg_prepared_statements")
        texts = {name: text.split(" AS ", 1)[1] for name, text in cursor.fetchall()}
    parts = []
    for part in sql.split("; "):
        found = re.match(r"EXECUTE (\w+)", part)
        parts.append(texts[found.group(1).lower()] if found else part)
    return "; ".join(parts)


def test_an_unknown_or_unparsable_match_is_not_found(bob_client):
    for match_id in ("00000000-0000-0000-0000-000000000000", "not-a-uuid"):
        response = act(bob_client, match_id, {"type": "pass"})
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs concurrent connections")
def test_the_match_row_lock_makes_a_second_writer_wait():
    # repository.match_lock reads the match with plain SQL; it must still take the row lock.
    from games import repository, services
    from players.services import player_create

    ann = player_create(name="Ann", username="ann", password="secret-pass-1")
    ben = player_create(name="Ben", username="ben", password="secret-pass-1")
    match = services.match_create(player1=ann, player2=ben, first_dealer=ann, seed="lock")
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                locked = repository.match_lock(match_id=match.id).match
                assert locked.player1.name == "Ann" and locked.player2.name == "Ben"
                holding.set()
                assert release.wait(120)
        finally:
            connection.close()

    def act() -> None:
        try:
            services.match_act(match_id=match.id, player=ben, action={"type": "pass"})
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        held = pool.submit(hold)
        assert holding.wait(120)
        acting = pool.submit(act)
        # It waits for the row: its session is seen waiting for a lock (had it not
        # waited, it would be done).
        wait_until(
            "the second writer to wait for the row (or be done)",
            lambda: acting.done() or backends_waiting_for_a_lock(),
        )
        assert not acting.done()
        release.set()
        held.result(timeout=120)
        acting.result(timeout=120)
    assert repository.eventstore.stream_version(stream_id=match.stream_id) == 3


def test_play_works_the_same_without_prepared_statements(
    match_id, bob_client, alice_client, settings
):
    settings.DB_PREPARED_STATEMENTS = False
    with CaptureQueriesContext(connection) as queries:
        assert act(bob_client, match_id, {"type": "pass"}).status_code == 201
        response = act(alice_client, match_id, {"type": "pass"})
    assert response.status_code == 201 and response.json()["phase"] == "draw"
    sql = [q["sql"] for q in queries.captured_queries]
    assert not [s for s in sql if s.startswith(("PREPARE", "EXECUTE")) or "; EXECUTE" in s]
