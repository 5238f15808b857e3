"""Tamper evidence: hash chains per stream, verify() and `manage.py verify_events`."""

import hashlib
import json
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

import eventstore
from eventstore import NewEvent
from eventstore.models import StoredEvent

pytestmark = pytest.mark.django_db

MATCH = uuid.UUID("12345678-1234-5678-1234-567812345678")
STREAM = f"match-{MATCH}"


@pytest.fixture
def streams() -> None:
    for stream_id in (STREAM, "tournament-1", "match-other"):
        for n in range(4):
            eventstore.append(
                stream_id=stream_id,
                expected_version=n,
                events=[NewEvent("Moved", {"n": n, "card": "7H"}, {"actor": "p1"})],
            )


def tamper(sql: str, params: list) -> None:
    # A row altered behind the store's back, with the triggers out of the way.
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def position_of(stream_id: str, version: int) -> int:
    return StoredEvent.objects.get(stream_id=stream_id, version=version).position


def test_hash_covers_the_documented_canonical_encoding():
    first, second = eventstore.append(
        stream_id="s",
        expected_version=0,
        events=[NewEvent("A", {"z": 1, "a": "é"}, {"actor": "x"}), NewEvent("B", {}, {}, 2)],
    )
    body = {
        "stream_id": "s",
        "version": 2,
        "type": "B",
        "schema_version": 2,
        "data": {},
        "metadata": {},
        "recorded_at": second.recorded_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "prev": first.hash,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert second.hash == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert first.hash != second.hash and len(first.hash) == 64


def test_untouched_store_verifies(streams):
    result = eventstore.verify()
    assert result.ok and result.first_broken is None and result.reason == ""
    assert (result.events_checked, result.streams_checked) == (12, 3)
    assert eventstore.verify(stream_id=STREAM).events_checked == 4


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("data", '{"n": 1, "card": "8H"}'),
        ("metadata", '{"actor": "p2"}'),
        ("type", "Knocked"),
        ("schema_version", 2),
        ("hash", "0" * 64),
        ("recorded_at", "2020-01-01 00:00:00+00:00"),
    ],
)
def test_altered_row_is_named_at_that_exact_event(streams, column, value):
    tamper(
        f"UPDATE eventstore_event SET {column} = %s WHERE stream_id = %s AND version = 2",
        [value, STREAM],
    )
    result = eventstore.verify()
    assert not result.ok
    assert result.first_broken == eventstore.BrokenEvent(
        STREAM,
        2,
        position_of(STREAM, 2),
        "hash mismatch: the event or the one before it was altered",
    )
    assert [b.stream_id for b in result.broken] == [STREAM]
    assert eventstore.verify(stream_id="tournament-1").ok


def test_deleted_row_is_named_at_the_event_after_the_gap(streams):
    tamper("DELETE FROM eventstore_event WHERE stream_id = %s AND version = 2", [STREAM])
    broken = eventstore.verify(stream_id=STREAM).first_broken
    assert (broken.version, broken.position) == (3, position_of(STREAM, 3))
    assert "expected version 2" in broken.reason


def test_first_broken_is_the_lowest_position_across_streams(streams):
    tamper("UPDATE eventstore_event SET hash = 'x' WHERE version = 3", [])
    result = eventstore.verify()
    assert len(result.broken) == 3
    assert result.first_broken.position == min(b.position for b in result.broken)
    assert {b.version for b in result.broken} == {3}


def test_command_reports_ok(streams, capsys):
    call_command("verify_events", verbosity=0)
    assert "OK: 12 events in 3 streams verified." in capsys.readouterr().out
    call_command("verify_events", match=str(MATCH), verbosity=0)
    assert "OK: 4 events in 1 streams" in capsys.readouterr().out


def test_command_names_the_first_broken_event_and_fails(streams, capsys):
    tamper(
        "UPDATE eventstore_event SET data = %s WHERE stream_id = %s AND version = 3",
        ['{"n": 9}', STREAM],
    )
    position = position_of(STREAM, 3)
    for options in ({}, {"match": str(MATCH)}, {"stream": STREAM}):
        with pytest.raises(CommandError) as caught:
            call_command("verify_events", verbosity=0, **options)
        assert caught.value.returncode == 1
        assert f"stream {STREAM} version 3 position {position}" in str(caught.value)
    assert f"BROKEN stream {STREAM} at version 3 (position {position})" in capsys.readouterr().err
    call_command("verify_events", stream="tournament-1", verbosity=0)


def test_command_refuses_unknown_or_bad_ids(streams):
    with pytest.raises(CommandError, match="Not a match id"):
        call_command("verify_events", match="nope", verbosity=0)
    with pytest.raises(CommandError, match="No events"):
        call_command("verify_events", stream="match-missing", verbosity=0)
