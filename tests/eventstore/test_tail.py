"""One-round-trip reads of a stream's tail and appends with the head already known."""

import pytest
from django.db import connection, transaction
from django.utils import timezone

import eventstore
from eventstore import GENESIS_HASH, ConcurrencyError, NewEvent
from eventstore.models import StoredEvent, Subscription

pytestmark = pytest.mark.django_db

KIND = "test-state"


def ev(n: int, big: int = 1) -> NewEvent:
    return NewEvent(type="Counted", data={"n": n, "big": big}, metadata={"actor": "test"})


def append(stream: str, start: int, count: int) -> list[eventstore.RecordedEvent]:
    events = [ev(n) for n in range(start + 1, start + count + 1)]
    return eventstore.append(stream_id=stream, expected_version=start, events=events)


def test_the_tail_of_an_empty_stream():
    rows, tail = eventstore.read_tail(stream_id="s", kind=KIND)
    assert rows is None
    assert tail == eventstore.StreamTail(None, [], (0, GENESIS_HASH))


def test_without_a_snapshot_the_tail_is_the_whole_stream():
    written = append("s", 0, 3)
    _, tail = eventstore.read_tail(stream_id="s", kind=KIND)
    assert tail.snapshot is None
    assert tail.events == written
    assert tail.head == (3, written[-1].hash)


def test_the_tail_is_the_latest_snapshot_the_events_after_it_and_the_head():
    written = append("s", 0, 5)
    eventstore.snapshot_save(stream_id="s", version=2, state={"n": 2, "log": [1, 2]}, kind=KIND)
    eventstore.snapshot_save(stream_id="s", version=3, state={"n": 3, "log": [1, 2, 3]}, kind=KIND)
    eventstore.snapshot_save(stream_id="s", version=5, state={"n": 5}, kind="other-kind")
    _, tail = eventstore.read_tail(stream_id="s", kind=KIND, without=["log"])
    assert tail.snapshot == (3, {"n": 3})
    assert tail.events == written[3:]
    assert tail.head == (5, written[-1].hash)


def test_a_snapshot_at_the_head_leaves_no_events_but_knows_the_head():
    written = append("s", 0, 4)
    eventstore.snapshot_save(stream_id="s", version=4, state={"n": 4}, kind=KIND)
    _, tail = eventstore.read_tail(stream_id="s", kind=KIND)
    assert tail == eventstore.StreamTail((4, {"n": 4}), [], (4, written[-1].hash))


def test_the_first_statement_runs_first_and_its_rows_come_back():
    append("s", 0, 2)
    rows, tail = eventstore.read_tail(
        stream_id="s", kind=KIND, first=("SELECT %s AS label, %s AS number", ["first", 7])
    )
    assert rows == [("first", 7)]
    assert tail.head[0] == 2


def test_appending_with_the_known_head_extends_the_chain():
    append("s", 0, 2)
    with transaction.atomic():
        _, tail = eventstore.read_tail(stream_id="s", kind=KIND)
        more = eventstore.append(
            stream_id="s", expected_version=2, events=[ev(3), ev(4)], head_hash=tail.head[1]
        )
        tx_id = _current_tx_id()
    assert [e.version for e in more] == [3, 4]
    assert eventstore.load(stream_id="s", after_version=2) == more
    assert more[0].position < more[1].position
    assert eventstore.verify(stream_id="s").ok
    written_by = StoredEvent.objects.filter(stream_id="s", version__gt=2).values_list("tx_id")
    assert set(written_by) == {(tx_id,)}  # the writing transaction, as read_all needs


def _current_tx_id() -> int | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_xact_id()::text::bigint")
        return cursor.fetchone()[0]


def test_a_writer_that_ignored_the_lock_still_cannot_fork_the_stream():
    written = append("s", 0, 2)
    with transaction.atomic():
        with pytest.raises(ConcurrencyError) as caught:
            # As if the head had been read before someone else appended event 2.
            eventstore.append(
                stream_id="s", expected_version=1, events=[ev(9)], head_hash=written[0].hash
            )
        assert caught.value.current_version == 2
        # The caller's transaction is still usable after the refused append.
        eventstore.append(
            stream_id="s", expected_version=2, events=[ev(3)], head_hash=written[1].hash
        )
    assert [e.data["n"] for e in eventstore.load(stream_id="s")] == [1, 2, 3]
    assert eventstore.verify(stream_id="s").ok


def test_integers_beyond_64_bits_still_read_back():
    huge = 2**70
    eventstore.append(stream_id="s", expected_version=0, events=[ev(1, big=huge)])
    assert eventstore.load(stream_id="s")[0].data["big"] == huge
    assert eventstore.read_tail(stream_id="s", kind=KIND)[1].events[0].data["big"] == huge
    assert eventstore.verify(stream_id="s").ok


def _note(name: str, version: int, at):
    """A statement to run with the append: a row in a table of the same database."""
    sql = "INSERT INTO eventstore_subscription (name, position, updated_at) VALUES (%s, %s, %s)"
    return (sql, [name, version, at])


@pytest.mark.parametrize("known_head", [True, False])
def test_also_statements_run_with_the_append(known_head):
    written = append("s", 0, 1)
    head = {"head_hash": written[-1].hash} if known_head else {}
    at = timezone.now()
    with transaction.atomic():
        more = eventstore.append(
            stream_id="s",
            expected_version=1,
            events=[ev(2), ev(3)],
            recorded_at=at,
            also=[_note("after-3", 3, at)],
            **head,
        )
    assert all(e.position for e in more)
    assert [e.recorded_at for e in more] == [at, at]  # the time the caller gave
    assert eventstore.verify(stream_id="s").ok
    assert Subscription.objects.get(name="after-3").position == 3


def test_a_refused_append_leaves_nothing_of_its_also_statements():
    written = append("s", 0, 2)
    with transaction.atomic(), pytest.raises(ConcurrencyError):
        eventstore.append(
            stream_id="s",
            expected_version=1,
            events=[ev(9)],
            head_hash=written[0].hash,
            also=[_note("after-2", 2, timezone.now())],
        )
    assert not Subscription.objects.exists()
    assert eventstore.stream_version(stream_id="s") == 2
