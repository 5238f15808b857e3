"""The web code through PgBouncer in transaction mode (issue 36): with DATABASE_POOLER=pgbouncer
the prepared-statement fast path steps aside (plain SQL) and server-side cursors are off, so
requests work whichever server connection each transaction gets; the streams' LISTEN
connection goes direct (DATABASE_DIRECT_URL). And why: a statement prepared through the
pooler is gone when the next transaction lands on another server connection.

Slow: it starts Debian's pgbouncer on a free port; skipped without it or PostgreSQL."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import override_settings

from core import live
from core.prepared import PreparedStatement
from players.models import Player
from tests.core.helpers import Bouncer
from tests.helpers import token_client

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def bouncer(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Bouncer]:
    if connection.vendor != "postgresql":
        pytest.skip("PgBouncer pools PostgreSQL connections (DATABASE_URL)")
    if shutil.which("pgbouncer") is None:
        pytest.skip("pgbouncer is not installed")
    running = Bouncer(connection.settings_dict)
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture
def through_bouncer(bouncer: Bouncer) -> Iterator[Bouncer]:
    """The default database reached through PgBouncer, configured as DATABASE_POOLER=pgbouncer
    configures it, with DATABASE_DIRECT_URL naming the primary itself."""
    db = connection.settings_dict
    saved = {key: db.get(key) for key in ("HOST", "PORT", "DISABLE_SERVER_SIDE_CURSORS")}
    direct = f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT']}"
    connection.close()
    db.update(HOST="127.0.0.1", PORT=str(bouncer.port), DISABLE_SERVER_SIDE_CURSORS=True)
    try:
        with override_settings(
            DATABASE_POOLER="pgbouncer",
            DB_PREPARED_STATEMENTS=False,
            DATABASE_DIRECT_URL=f"{direct}/{db['NAME']}",
        ):
            yield bouncer
    finally:
        connection.close()
        db.update(saved)


def test_the_web_runs_through_pgbouncer_in_transaction_mode(
    through_bouncer: Bouncer, organiser: Any, alice: Any, bob: Any
) -> None:
    name = connection.settings_dict["NAME"]
    before = through_bouncer.transactions_of(name)
    client = token_client(organiser)  # token authentication: a prepared statement, stepped aside
    match = client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id, "mode": "table"}, format="json"
    )
    assert match.status_code == 201, match.json()
    url = f"/api/matches/{match.json()['id']}/hands/"
    for _ in range(2):  # the match loaded for update: the repository's prepared statements
        entry = {"knocker": alice.id, "gin": False, "knocker_deadwood": 4, "defender_deadwood": 30}
        hand = client.post(url, entry, format="json")
        assert hand.status_code == 201, hand.json()
    assert len(client.get(f"/api/matches/{match.json()['id']}/").json()["hands"]) == 2
    listed = client.get(f"/api/matches/?player={alice.id}")
    assert listed.status_code == 200 and listed.json()["count"] == 1
    assert len(list(Player.objects.all().iterator(chunk_size=1))) >= 2  # no server-side cursor
    assert through_bouncer.transactions_of(name) > before + 5  # it all went through PgBouncer
    # The LISTEN connection of the streams: the primary itself, never the pooler.
    conninfo = psycopg.conninfo.conninfo_to_dict(live.database_conninfo())
    assert conninfo["port"] != str(through_bouncer.port) and conninfo["dbname"] == name


def test_a_prepared_statement_does_not_follow_its_session_through_the_pooler(
    through_bouncer: Bouncer,
) -> None:
    """Why DATABASE_POOLER=pgbouncer turns the prepared statements off: prepared in one
    transaction, the statement is on that server connection only; the next transaction of the
    same client may be given another one (here: PgBouncer hands the most recently used server
    to a second client, which holds it)."""
    double = PreparedStatement("test_pooled", "SELECT $1::int * 2", 1)
    with override_settings(DB_PREPARED_STATEMENTS=True):
        sql, params = double.statement([21])  # PREPAREd now, on the server it was given
    db = connection.settings_dict
    other = psycopg.connect(
        host="127.0.0.1", port=db["PORT"], user=db["USER"] or "postgres", dbname=db["NAME"]
    )
    try:
        other.execute("SELECT 1")  # a transaction left open: it holds that server
        with pytest.raises(Exception, match="does not exist"), connection.cursor() as cursor:
            cursor.execute(sql, params)
        connection.close()  # the prepared-statement bookkeeping of that session, dropped
        # Stepped aside (DATABASE_POOLER=pgbouncer): the same statement as plain SQL works.
        sql, params = double.statement([21])
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            assert cursor.fetchone() == (42,)
    finally:
        other.close()
