"""The event table, `eventstore_event`, is partitioned by a hash of the stream id on
PostgreSQL (eventstore migration 0005; docs/operators/scaling.md): a stream's events sit in
one partition and a load reads that one; the global order, the gap-safe `read_all`, the
uniqueness of (stream, version) and the append-only triggers hold across partitions and on a
partition reached directly. On SQLite it is a plain table of the same name."""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import DatabaseError, connection, transaction

import eventstore
from eventstore import ConcurrencyError, NewEvent
from eventstore._shared import PG_SELECT  # the select a stream's load runs
from eventstore.models import StoredEvent
from tests.helpers import wait_until

pytestmark = pytest.mark.django_db
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="partitioning is PostgreSQL's"
)


def query(sql: str, params: list | None = None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params or [])
        return cursor.fetchall()


def partitions() -> dict[str, int]:
    """partition name -> its hash remainder, read from the catalogue."""
    rows = query(
        "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits AS i"
        " JOIN pg_class AS c ON c.oid = i.inhrelid"
        " WHERE i.inhparent = 'eventstore_event'::regclass"
    )
    return {name: int(re.search(r"remainder (\d+)", bound).group(1)) for name, bound in rows}


def expected_partition(stream_id: str) -> str:
    """The partition PostgreSQL's own hash assigns the stream to."""
    found = [
        name
        for name, remainder in partitions().items()
        if query(
            "SELECT satisfies_hash_partition('eventstore_event'::regclass, %s, %s, %s::varchar)",
            [len(partitions()), remainder, stream_id],
        )[0][0]
    ]
    assert len(found) == 1, found
    return found[0]


def streams_in_different_partitions(count: int) -> list[str]:
    chosen: dict[str, str] = {}
    for n in range(200):
        stream_id = f"match-part-{n}"
        chosen.setdefault(expected_partition(stream_id), stream_id)
        if len(chosen) == count:
            return list(chosen.values())
    raise AssertionError("200 stream ids fell into fewer partitions than asked")


def append(stream_id: str, n: int = 1, *, after: int = 0) -> None:
    events = [NewEvent("Counted", {"n": i}) for i in range(n)]
    eventstore.append(stream_id=stream_id, expected_version=after, events=events)


def test_the_event_table_takes_the_event_stores_name():
    assert StoredEvent._meta.db_table == "eventstore_event"
    assert "eventstore_event" in connection.introspection.table_names()
    append("match-name", 2)
    assert query("SELECT count(*) FROM eventstore_event WHERE stream_id = 'match-name'") == [(2,)]


@postgresql_only
def test_the_table_is_hash_partitioned_by_stream_into_eight():
    strategy = query(
        "SELECT p.partstrat, a.attname FROM pg_partitioned_table AS p JOIN pg_attribute AS a"
        " ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]"
        " WHERE p.partrelid = 'eventstore_event'::regclass"
    )
    assert strategy == [("h", "stream_id")]
    assert sorted(partitions().values()) == list(range(8))


@postgresql_only
def test_a_streams_events_land_in_the_partition_its_hash_names():
    streams = streams_in_different_partitions(3)
    for stream_id in streams:
        append(stream_id, 3)
    for stream_id in streams:
        where = query(
            "SELECT DISTINCT tableoid::regclass::text FROM eventstore_event WHERE stream_id = %s",
            [stream_id],
        )
        assert where == [(expected_partition(stream_id),)]
        # ... and nowhere else: the partition holds them when read directly
        assert query(f"SELECT count(*) FROM {where[0][0]} WHERE stream_id = %s", [stream_id]) == [
            (3,)
        ]


@postgresql_only
def test_loading_a_stream_reads_one_partition():
    stream_id = streams_in_different_partitions(1)[0]
    append(stream_id, 2)
    plan = "\n".join(
        line
        for (line,) in query(
            "EXPLAIN " + PG_SELECT + "stream_id = %s AND version > %s ORDER BY version",
            [stream_id, 0],
        )
    )
    scanned = set(re.findall(r"eventstore_event_p\d+", plan))
    assert scanned == {expected_partition(stream_id)}, plan
    assert [e.version for e in eventstore.load(stream_id=stream_id)] == [1, 2]


def _all_twelve(events: list) -> list | None:
    return events if len(events) == 12 else None


@postgresql_only
def test_positions_are_one_global_order_across_partitions():
    streams = streams_in_different_partitions(4)
    for round_ in range(3):
        for stream_id in streams:
            append(stream_id, after=round_)
    # A transaction of another database that was running as the read began, and ended
    # before the read could name its database, holds the horizon back for that read (it
    # might have been this database's): the next read hands everything out.
    events = wait_until(
        "every event handed out", lambda: _all_twelve(eventstore.read_all(after_position=0))
    )
    assert [(e.stream_id, e.version) for e in events] == [
        (stream_id, round_ + 1) for round_ in range(3) for stream_id in streams
    ]
    assert [e.position for e in events] == sorted(e.position for e in events)
    assert len({e.position for e in events}) == 12
    # paging by checkpoint crosses partitions without losing or repeating an event
    seen, checkpoint = [], 0
    while page := eventstore.read_all(after_position=checkpoint, limit=5):
        seen += [e.position for e in page]
        checkpoint = page[-1].position
    assert seen == [e.position for e in events]


@postgresql_only
def test_a_stream_version_is_still_unique_across_the_partitioned_table():
    append("match-unique", 2)
    with pytest.raises(ConcurrencyError):
        append("match-unique", after=1)
    assert eventstore.stream_version(stream_id="match-unique") == 2


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_read_all_holds_back_an_open_append_in_another_partition():
    slow_stream, fast_stream = streams_in_different_partitions(2)
    holding, release = threading.Event(), threading.Event()

    def slow() -> None:
        try:
            with transaction.atomic():
                append(slow_stream)
                holding.set()
                assert release.wait(120)
        finally:
            connection.close()

    def fast() -> None:
        try:
            append(fast_stream)
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        held = pool.submit(slow)
        assert holding.wait(120)
        pool.submit(fast).result(timeout=120)
        # the fast stream's event has committed but comes after the open one's in the
        # global order: a follower is given neither yet, so it cannot skip the slow one
        assert eventstore.read_all(after_position=0) == []
        release.set()
        held.result(timeout=120)
    assert [e.stream_id for e in eventstore.read_all(after_position=0)] == [
        slow_stream,
        fast_stream,
    ]


def raw(sql: str) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)


@postgresql_only
@pytest.mark.parametrize(
    "statement",
    ["UPDATE {table} SET type = 'B'", "DELETE FROM {table}", "TRUNCATE {table}"],
)
@pytest.mark.parametrize("through", ["the partitioned table", "the partition"])
def test_a_change_is_refused_on_the_table_and_on_a_partition_directly(statement, through):
    stream_id = streams_in_different_partitions(1)[0]
    append(stream_id, 2)
    table = "eventstore_event" if through == "the partitioned table" else None
    table = table or expected_partition(stream_id)
    with pytest.raises(DatabaseError, match="append-only"):
        raw(statement.format(table=table))
    assert list(StoredEvent.objects.values_list("type", flat=True)) == ["Counted", "Counted"]


@postgresql_only
def test_suspension_lifts_every_partitions_triggers_and_puts_them_back():
    stream_id = streams_in_different_partitions(1)[0]
    append(stream_id, 2)
    partition = expected_partition(stream_id)
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {partition} SET type = 'B' WHERE version = 2")
    assert StoredEvent.objects.get(version=2).type == "B"
    enabled = query(
        "SELECT DISTINCT t.tgenabled FROM pg_trigger AS t WHERE t.tgname LIKE 'eventstore_event_%%'"
        " AND t.tgrelid IN (SELECT relid FROM pg_partition_tree('eventstore_event'))"
    )
    assert enabled == [("O",)]
    for table in ("eventstore_event", partition):
        with pytest.raises(DatabaseError, match="append-only"):
            raw(f"TRUNCATE {table}")
