from datetime import UTC

import pytest

import eventstore
from eventstore import ConcurrencyError, InvalidEventError, NewEvent, write
from eventstore.models import StoredEvent

pytestmark = pytest.mark.django_db


def ev(type: str = "CardDrawn", **data) -> NewEvent:
    return NewEvent(type=type, data=data, metadata={"actor": "player:1", "request_id": "r1"})


def test_append_to_new_stream_numbers_versions_from_one():
    recorded = eventstore.append(
        stream_id="match-a", expected_version=0, events=[ev(seat=0), ev(seat=1)]
    )
    assert [e.version for e in recorded] == [1, 2]
    assert recorded[0].position < recorded[1].position
    assert eventstore.stream_version(stream_id="match-a") == 2
    assert eventstore.stream_version(stream_id="match-none") == 0


def test_load_returns_what_append_returned():
    written = eventstore.append(
        stream_id="match-a",
        expected_version=0,
        events=[ev("HandDealt", deck=("7H", "8H"), note="café ♥"), ev(seat=1)],
    )
    loaded = eventstore.load(stream_id="match-a")
    assert loaded == written
    assert loaded[0].data == {"deck": ["7H", "8H"], "note": "café ♥"}
    assert loaded[0].metadata == {"actor": "player:1", "request_id": "r1"}
    assert loaded[0].recorded_at.tzinfo is not None
    assert loaded[0].recorded_at.astimezone(UTC) == written[0].recorded_at.astimezone(UTC)


def test_load_after_and_up_to_version():
    eventstore.append(stream_id="s", expected_version=0, events=[ev(n=i) for i in range(5)])
    assert [e.version for e in eventstore.load(stream_id="s", after_version=2)] == [3, 4, 5]
    versions = [e.version for e in eventstore.load(stream_id="s", after_version=1, up_to_version=3)]
    assert versions == [2, 3]


def test_streams_are_independent():
    eventstore.append(stream_id="a", expected_version=0, events=[ev()])
    eventstore.append(stream_id="b", expected_version=0, events=[ev(), ev()])
    eventstore.append(stream_id="a", expected_version=1, events=[ev()])
    assert [e.version for e in eventstore.load(stream_id="a")] == [1, 2]
    assert [e.version for e in eventstore.load(stream_id="b")] == [1, 2]


@pytest.mark.parametrize("expected", [0, 2, 5])
def test_stale_expected_version_is_a_conflict_and_writes_nothing(expected):
    eventstore.append(stream_id="s", expected_version=0, events=[ev()])
    with pytest.raises(ConcurrencyError) as caught:
        eventstore.append(stream_id="s", expected_version=expected, events=[ev(), ev()])
    assert caught.value.current_version == 1
    assert (caught.value.stream_id, caught.value.expected_version) == ("s", expected)
    assert StoredEvent.objects.filter(stream_id="s").count() == 1


def test_a_race_lost_at_insert_time_is_a_conflict(monkeypatch):
    # Another writer appended between our head read and our insert: the unique
    # (stream_id, version) index refuses us, and that is reported as a conflict.
    eventstore.append(stream_id="s", expected_version=0, events=[ev()])
    real_head = write._append_head
    calls = []

    def stale(stream_id):
        calls.append(stream_id)
        tx_id, _, _ = real_head(stream_id)
        return tx_id, 0, eventstore.GENESIS_HASH

    # Patched where `append` looks it up.
    monkeypatch.setattr(write, "_append_head", stale)
    with pytest.raises(ConcurrencyError) as caught:
        eventstore.append(stream_id="s", expected_version=0, events=[ev()])
    assert caught.value.current_version == 1
    assert calls == ["s"]
    assert StoredEvent.objects.filter(stream_id="s").count() == 1


def test_append_is_all_or_nothing_inside_the_callers_transaction():
    from django.db import transaction

    eventstore.append(stream_id="s", expected_version=0, events=[ev()])
    with transaction.atomic():
        with pytest.raises(ConcurrencyError):
            eventstore.append(stream_id="s", expected_version=0, events=[ev()])
        # The caller's transaction is still usable after the refused append.
        eventstore.append(stream_id="s", expected_version=1, events=[ev()])
    assert eventstore.stream_version(stream_id="s") == 2


@pytest.mark.parametrize(
    "kwargs",
    [
        {"stream_id": "", "expected_version": 0, "events": [ev()]},
        {"stream_id": "s", "expected_version": -1, "events": [ev()]},
        {"stream_id": "s", "expected_version": 0, "events": []},
        {"stream_id": "s", "expected_version": 0, "events": [NewEvent("X", {"a": {1, 2}})]},
        {"stream_id": "s", "expected_version": 0, "events": [NewEvent("", {})]},
        {"stream_id": "s", "expected_version": 0, "events": [NewEvent("X", {}, {}, 0)]},
    ],
)
def test_bad_appends_are_validation_errors(kwargs):
    with pytest.raises(InvalidEventError):
        eventstore.append(**kwargs)
    assert StoredEvent.objects.count() == 0


def test_numbers_round_trip_so_the_chain_still_verifies():
    # jsonb prints -0.0 as 0.0 and 1e16 as 10000000000000000 (read back as an int):
    # the store hashes what will be read back, on both databases.
    data = {"neg0": -0.0, "big": 1e16, "huge": -2.5e20, "tenth": 0.1, "tiny": 1e-7, "one": 1.0}
    written = eventstore.append(stream_id="n", expected_version=0, events=[NewEvent("N", data)])
    loaded = eventstore.load(stream_id="n")
    assert loaded[0].data == written[0].data
    assert loaded[0].data["big"] == 10**16 and isinstance(loaded[0].data["big"], int)
    assert isinstance(loaded[0].data["one"], float) and loaded[0].data["tiny"] == 1e-7
    assert eventstore.verify(stream_id="n").ok


@pytest.mark.parametrize(
    "data",
    [{"x": float("nan")}, {"x": float("inf")}, {"x": "a\x00b"}, {"x": "\ud800"}, {"x": object()}],
)
def test_data_the_database_cannot_store_is_refused(data):
    with pytest.raises(InvalidEventError):
        eventstore.append(stream_id="n", expected_version=0, events=[NewEvent("N", data)])


def test_a_backslash_before_u0000_is_just_text():
    eventstore.append(stream_id="n", expected_version=0, events=[NewEvent("N", {"x": "\\u0000"})])
    assert eventstore.load(stream_id="n")[0].data == {"x": "\\u0000"}
    assert eventstore.verify(stream_id="n").ok
