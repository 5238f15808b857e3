"""Concurrent writers and the gap-safe global reader, on real PostgreSQL connections.

read_all's global order on PostgreSQL is (writing transaction id, position); these tests
hold transactions open in threads to reproduce the orders in which a follower that
checkpoints by position alone would skip an event."""

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.db import connection, transaction

import eventstore
from eventstore import ConcurrencyError, NewEvent
from eventstore.models import StoredEvent, Subscription
from tests.helpers import backends_waiting_for_a_lock, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs concurrent connections (PostgreSQL)"
)


def own_connection(fn: Callable) -> Callable:
    """Run fn in a worker thread with its own database connection, closed afterwards."""

    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    return run


def event(n: int) -> NewEvent:
    return NewEvent("Counted", {"n": n}, {"actor": f"thread-{threading.get_ident()}"})


def test_committed_events_survive_and_flush_still_works():
    # Runs on both databases: the teardown of this test flushes the event table, which
    # the append-only triggers allow only through `manage.py flush`.
    eventstore.append(stream_id="s", expected_version=0, events=[event(1)])
    assert StoredEvent.objects.count() == 1


@postgresql_only
def test_many_threads_on_one_stream_leave_no_gap_and_no_duplicate():
    threads, per_thread = 8, 5
    conflicts = []

    @own_connection
    def writer(index: int) -> int:
        written = 0
        while written < per_thread:
            version = eventstore.stream_version(stream_id="hot")
            try:
                eventstore.append(stream_id="hot", expected_version=version, events=[event(index)])
                written += 1
            except ConcurrencyError as exc:
                assert exc.current_version > version or exc.current_version != version
                conflicts.append(exc)
        return written

    with ThreadPoolExecutor(threads) as pool:
        assert sum(pool.map(writer, range(threads))) == threads * per_thread
    versions = list(
        StoredEvent.objects.filter(stream_id="hot")
        .order_by("version")
        .values_list("version", flat=True)
    )
    assert versions == list(range(1, threads * per_thread + 1))
    assert eventstore.verify(stream_id="hot").ok
    assert conflicts, "eight threads writing one stream should have clashed at least once"


@postgresql_only
def test_exactly_one_winner_per_version():
    threads, rounds = 6, 5
    barrier = threading.Barrier(threads)

    @own_connection
    def contender(index: int) -> list[bool]:
        won = []
        for version in range(rounds):
            barrier.wait()
            try:
                eventstore.append(stream_id="race", expected_version=version, events=[event(index)])
                won.append(True)
            except ConcurrencyError as exc:
                assert exc.current_version == version + 1
                won.append(False)
            barrier.wait()  # everyone has tried before the next version is contested
        return won

    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(contender, range(threads)))
    for version in range(rounds):
        assert sum(result[version] for result in results) == 1
    assert eventstore.stream_version(stream_id="race") == rounds
    assert eventstore.verify(stream_id="race").ok


def positions(events) -> list[int]:
    return [e.position for e in events]


def in_flight_then_committed(hold: Callable, other: Callable) -> tuple[list[int], list[int]]:
    """Run `hold` (appends, then keeps its transaction open until released) and `other`
    (appends and commits) in two threads; read the global order while `hold` is open and
    again once both are done."""
    holding, release = threading.Event(), threading.Event()
    with ThreadPoolExecutor(2) as pool:
        held = pool.submit(own_connection(hold), holding, release)
        assert holding.wait(120)
        quick = pool.submit(own_connection(other))
        quick.result(timeout=120)  # appends to another stream do not wait for `hold`
        early = positions(eventstore.read_all(after_position=0))
        release.set()
        held.result(timeout=120)
        quick.result(timeout=120)
    return early, positions(eventstore.read_all(after_position=0))


@postgresql_only
def test_reader_never_skips_a_lower_position_that_commits_later():
    def slow(holding, release):
        with transaction.atomic():
            eventstore.append(stream_id="slow", expected_version=0, events=[event(1)])
            holding.set()
            assert release.wait(120)

    def fast():
        eventstore.append(stream_id="fast", expected_version=0, events=[event(2)])

    early, final = in_flight_then_committed(slow, fast)
    # What a follower saw early must be where the final order starts: had it been given
    # the fast event first, it would have checkpointed past the slow one and skipped it.
    assert final[: len(early)] == early
    assert [e.stream_id for e in eventstore.read_all(after_position=0)] == ["slow", "fast"]
    assert final == sorted(StoredEvent.objects.values_list("position", flat=True))


@postgresql_only
def test_reader_is_safe_when_transaction_ids_and_positions_disagree():
    # The older transaction (lower xid) appends *after* the younger one took a position
    # and commits first: a reader ordering by position and filtering on xids alone would
    # hand out the older one's event, checkpoint at its (higher) position and skip the
    # younger one's lower position when it commits. In (tx_id, position) order the
    # younger one's event comes after the checkpoint.
    older_has_xid, younger_appended, release = (
        threading.Event(),
        threading.Event(),
        (threading.Event()),
    )
    xids = []

    @own_connection
    def older():
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_current_xact_id()::text::bigint")
                xids.append(cursor.fetchone()[0])
            older_has_xid.set()
            assert younger_appended.wait(120)
            eventstore.append(stream_id="older", expected_version=0, events=[event(1)])

    @own_connection
    def younger():
        assert older_has_xid.wait(120)
        with transaction.atomic():
            eventstore.append(stream_id="younger", expected_version=0, events=[event(2)])
            younger_appended.set()
            assert release.wait(120)

    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(older), pool.submit(younger)]
        assert younger_appended.wait(120)
        futures[0].result(timeout=120)  # older committed while younger is still open
        early = positions(eventstore.read_all(after_position=0))
        release.set()
        for future in futures:
            future.result(timeout=120)
    final = positions(eventstore.read_all(after_position=0))
    assert final[: len(early)] == early
    assert [e.stream_id for e in eventstore.read_all(after_position=0)] == ["older", "younger"]
    tx_ids = dict(StoredEvent.objects.values_list("stream_id", "tx_id"))
    assert tx_ids["older"] == xids[0] < tx_ids["younger"]
    # Positions disagree with the global order here; a follower's checkpoint follows the
    # global order, from the older event (higher position) to the younger (lower).
    older_position, younger_position = final
    assert older_position > younger_position
    assert eventstore.read_all(after_position=older_position)[0].position == younger_position
    eventstore.subscription_advance(name="feed", position=older_position)
    eventstore.subscription_advance(name="feed", position=younger_position)
    assert eventstore.subscription_position(name="feed") == younger_position
    eventstore.subscription_advance(name="feed", position=older_position)  # not backwards
    assert eventstore.subscription_position(name="feed") == younger_position


@postgresql_only
def test_follower_sees_every_event_exactly_once_under_load():
    writers, appends_each = 6, 8
    done = threading.Event()
    seen: list[int] = []

    @own_connection
    def writer(index: int) -> None:
        rng = random.Random(index)
        for n in range(appends_each):
            stream_id = f"load-{index}-{n % 3}"
            with transaction.atomic():
                version = eventstore.stream_version(stream_id=stream_id)
                eventstore.append(
                    stream_id=stream_id,
                    expected_version=version,
                    events=[event(n)] * rng.randint(1, 3),
                )
                time.sleep(rng.random() / 50)  # hold the transaction open a little

    @own_connection
    def follower() -> None:
        checkpoint = 0
        while True:
            finished = done.is_set()
            batch = eventstore.read_all(after_position=checkpoint, limit=7)
            seen.extend(positions(batch))
            if batch:
                checkpoint = batch[-1].position
            elif finished:
                return
            time.sleep(0.001)

    with ThreadPoolExecutor(writers + 1) as pool:
        following = pool.submit(follower)
        list(pool.map(writer, range(writers)))
        done.set()
        following.result()
    stored = list(
        StoredEvent.objects.order_by("tx_id", "position").values_list("position", flat=True)
    )
    assert seen == stored
    assert len(stored) >= writers * appends_each


@postgresql_only
def test_a_callers_row_lock_and_an_open_append_do_not_deadlock():
    # T1 holds a row lock and then appends; T2 has appended and then wants that row. With
    # appends serialised by a global lock this was a deadlock; now T1's append does not
    # wait for T2, T1 commits, and T2 gets the row.
    Subscription.objects.create(name="row")
    row_locked, appended = threading.Event(), threading.Event()
    outcome = {}

    @own_connection
    def t1():
        with transaction.atomic():
            Subscription.objects.select_for_update().get(name="row")
            row_locked.set()
            assert appended.wait(120)
            wait_until("T2 to wait for the row", backends_waiting_for_a_lock)
            eventstore.append(stream_id="t1", expected_version=0, events=[event(1)])
        outcome["t1"] = "committed"

    @own_connection
    def t2():
        assert row_locked.wait(120)
        with transaction.atomic():
            eventstore.append(stream_id="t2", expected_version=0, events=[event(2)])
            appended.set()
            Subscription.objects.select_for_update().get(name="row")
        outcome["t2"] = "committed"

    with ThreadPoolExecutor(2) as pool:
        for future in [pool.submit(t1), pool.submit(t2)]:
            future.result(timeout=120)
    assert outcome == {"t1": "committed", "t2": "committed"}
    assert eventstore.stream_version(stream_id="t1") == 1
    assert eventstore.stream_version(stream_id="t2") == 1
    # T1 took its transaction id (with the row lock) first: its event comes first.
    assert [e.stream_id for e in eventstore.read_all(after_position=0)] == ["t1", "t2"]


@postgresql_only
def test_an_open_transaction_in_another_database_does_not_hold_followers_back():
    # Transaction ids are server-wide: a follower waiting for every older transaction
    # would wait for other applications' (or test runs') transactions too.
    dsn = connection.get_connection_params()
    other = {k: dsn[k] for k in ("host", "port", "user", "password") if dsn.get(k)}
    with psycopg.connect(dbname="postgres", **other) as elsewhere:
        elsewhere.execute("SELECT pg_current_xact_id()")  # an xid, held open
        eventstore.append(stream_id="here", expected_version=0, events=[event(1)])
        assert [e.stream_id for e in eventstore.read_all(after_position=0)] == ["here"]


@postgresql_only
def test_an_open_append_holds_followers_back_until_it_ends():
    holding, release = threading.Event(), threading.Event()

    @own_connection
    def hold():
        with transaction.atomic():
            eventstore.append(stream_id="open", expected_version=0, events=[event(1)])
            holding.set()
            assert release.wait(120)

    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(hold)
        assert holding.wait(120)
        eventstore.append(stream_id="later", expected_version=0, events=[event(2)])
        assert eventstore.read_all(after_position=0) == []  # "later" waits behind "open"
        release.set()
        held.result(timeout=120)
    assert [e.stream_id for e in eventstore.read_all(after_position=0)] == ["open", "later"]
