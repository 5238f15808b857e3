"""The event store tells live followers of an append when it commits (PostgreSQL NOTIFY in
the append's transaction): never for a rollback, never before the commit."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection, transaction

import eventstore
from core.live import database_conninfo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def listener():
    if connection.vendor != "postgresql":
        pytest.skip("NOTIFY is PostgreSQL's; SQLite followers poll")
    with psycopg.connect(database_conninfo(), autocommit=True) as conn:
        conn.execute(f'LISTEN "{eventstore.NOTIFY_CHANNEL}"')

        def notices(expect: int = 0) -> list[str]:
            """The notices that came: once `expect` of them are in (waiting up to 30 s for
            them, however busy the machine), and whatever else comes in the next 0.5 s."""
            got = []
            if expect:
                got = [n.payload for n in conn.notifies(timeout=30, stop_after=expect)]
            return got + [n.payload for n in conn.notifies(timeout=0.5)]

        yield notices


def test_an_append_notifies_its_stream_at_commit_and_a_rollback_does_not(listener):
    new = [eventstore.NewEvent("Happened", {"n": 1})]
    with transaction.atomic():
        eventstore.append(stream_id="s-1", expected_version=0, events=new)
        assert listener() == []  # not before the commit
    assert listener(expect=1) == ["s-1"]
    with pytest.raises(RuntimeError), transaction.atomic():
        eventstore.append(stream_id="s-2", expected_version=0, events=new)
        raise RuntimeError("rolled back")
    assert listener() == []
    with transaction.atomic():  # two appends to one stream in one transaction: one notice
        eventstore.append(stream_id="s-1", expected_version=1, events=new)
        eventstore.append(stream_id="s-1", expected_version=2, events=new)
    assert listener(expect=1) == ["s-1"]
