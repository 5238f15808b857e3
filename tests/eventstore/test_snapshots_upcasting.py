"""Snapshots (a disposable cache), upcasting of old event shapes, follower checkpoints."""

import time

import pytest

import eventstore
from eventstore import NewEvent, _shared
from eventstore.models import Snapshot, StoredEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def upcasters():
    """An empty upcaster registry for the test, whatever the app registered. The store's
    modules share that one dict: it is emptied and refilled in place, never replaced."""
    registry = _shared.UPCASTERS
    saved = dict(registry)
    registry.clear()
    yield
    registry.clear()
    registry.update(saved)


def test_snapshot_load_returns_the_latest_at_or_before_a_version():
    assert eventstore.snapshot_load(stream_id="m", kind="state-v1") is None
    for version in (10, 20, 30):
        eventstore.snapshot_save(
            stream_id="m", version=version, state={"v": version}, kind="state-v1"
        )
    eventstore.snapshot_save(stream_id="m", version=40, state={"v": 40}, kind="state-v2")
    eventstore.snapshot_save(stream_id="other", version=50, state={}, kind="state-v1")
    assert eventstore.snapshot_load(stream_id="m", kind="state-v1") == (30, {"v": 30})
    assert eventstore.snapshot_load(stream_id="m", kind="state-v1", max_version=29) == (
        20,
        {"v": 20},
    )
    assert eventstore.snapshot_load(stream_id="m", kind="state-v1", max_version=9) is None
    assert eventstore.snapshot_load(stream_id="m", kind="state-v2") == (40, {"v": 40})


def test_saving_the_same_snapshot_twice_replaces_it():
    eventstore.snapshot_save(stream_id="m", version=3, state={"a": (1, 2)}, kind="k")
    eventstore.snapshot_save(stream_id="m", version=3, state={"a": [3]}, kind="k")
    assert Snapshot.objects.count() == 1
    assert eventstore.snapshot_load(stream_id="m", kind="k") == (3, {"a": [3]})


def test_snapshots_are_disposable():
    eventstore.append(stream_id="m", expected_version=0, events=[NewEvent("A", {})] * 3)
    eventstore.snapshot_save(stream_id="m", version=2, state={"n": 2}, kind="k")
    eventstore.snapshot_save(stream_id="x", version=1, state={"n": 1}, kind="k")
    assert eventstore.snapshot_delete(stream_id="m") == 1
    assert eventstore.snapshot_load(stream_id="m", kind="k") is None
    Snapshot.objects.all().delete()  # plain deletes are fine too
    assert Snapshot.objects.count() == 0
    assert eventstore.stream_version(stream_id="m") == 3  # the events are untouched


def test_loading_from_a_snapshot_reads_only_the_later_events(django_assert_num_queries):
    eventstore.append(
        stream_id="m", expected_version=0, events=[NewEvent("A", {"n": n}) for n in range(50)]
    )
    eventstore.snapshot_save(stream_id="m", version=45, state={"sum": 45}, kind="k")
    with django_assert_num_queries(2):
        version, state = eventstore.snapshot_load(stream_id="m", kind="k")
        tail = eventstore.load(stream_id="m", after_version=version)
    assert [e.data["n"] for e in tail] == [45, 46, 47, 48, 49]


def _settled(count: int) -> list:
    """`read_all` from the start once it hands out `count` events. It withholds what an
    unknown running transaction might precede: on a busy server (another database's writer
    ending as it looks) that is a moment, so wait for it rather than read once."""
    deadline = time.monotonic() + 30
    while len(everything := eventstore.read_all(after_position=0)) < count:
        assert time.monotonic() < deadline, "read_all never reached this test's events"
        time.sleep(0.05)
    return everything


def test_old_event_shapes_are_upcast_on_read(upcasters):
    # Version 1 of "Knocked" had "points"; version 2 renamed it; version 3 added "gin".
    old = eventstore.append(
        stream_id="m", expected_version=0, events=[NewEvent("Knocked", {"seat": 0, "points": 7})]
    )[0]
    eventstore.register_upcaster(
        type="Knocked",
        from_schema=1,
        fn=lambda d: {"seat": d["seat"], "deadwood_value": d["points"]},
    )
    eventstore.register_upcaster(
        type="Knocked", from_schema=2, fn=lambda d: {**d, "gin": d["deadwood_value"] == 0}
    )
    eventstore.append(
        stream_id="m",
        expected_version=1,
        events=[NewEvent("Knocked", {"seat": 1, "deadwood_value": 0, "gin": True}, {}, 3)],
    )
    assert eventstore.latest_schema(type="Knocked") == 3
    loaded = eventstore.load(stream_id="m")
    assert [(e.schema_version, e.data) for e in loaded] == [
        (3, {"seat": 0, "deadwood_value": 7, "gin": False}),
        (3, {"seat": 1, "deadwood_value": 0, "gin": True}),
    ]
    assert [e.data for e in _settled(2)] == [e.data for e in loaded]
    # The stored row keeps its original shape, so its hash still verifies.
    stored = StoredEvent.objects.get(position=old.position)
    assert (stored.schema_version, stored.data) == (1, {"seat": 0, "points": 7})
    assert loaded[0].hash == old.hash
    assert eventstore.verify(stream_id="m").ok


def test_an_upcaster_cannot_be_replaced_by_another(upcasters):
    def first(d):
        return d

    eventstore.register_upcaster(type="A", from_schema=1, fn=first)
    eventstore.register_upcaster(type="A", from_schema=1, fn=first)  # idempotent
    with pytest.raises(ValueError, match="already registered"):
        eventstore.register_upcaster(type="A", from_schema=1, fn=lambda d: d)


def test_read_all_pages_through_the_global_order():
    for n in range(5):
        eventstore.append(
            stream_id=f"s{n % 2}", expected_version=n // 2, events=[NewEvent("A", {"n": n})]
        )
    _settled(5)  # the global horizon past them (see test_old_event_shapes_are_upcast_on_read)
    first = eventstore.read_all(after_position=0, limit=3)
    rest = eventstore.read_all(after_position=first[-1].position, limit=3)
    assert [e.data["n"] for e in first + rest] == [0, 1, 2, 3, 4]
    assert eventstore.read_all(after_position=rest[-1].position) == []


def test_subscription_checkpoints_only_move_forward():
    recorded = eventstore.append(
        stream_id="s", expected_version=0, events=[NewEvent("A", {"n": n}) for n in range(9)]
    )
    third, seventh, ninth = (recorded[i].position for i in (2, 6, 8))
    assert eventstore.subscription_position(name="feed") == 0
    eventstore.subscription_advance(name="feed", position=seventh)
    eventstore.subscription_advance(name="feed", position=third)
    assert eventstore.subscription_position(name="feed") == seventh
    eventstore.subscription_advance(name="feed", position=ninth)
    assert eventstore.subscription_position(name="feed") == ninth
    assert eventstore.subscription_position(name="other") == 0
