"""What other apps read of the store without its models: counts, the streams holding a
type of event, snapshots as stored; and what they register for the admin's display."""

import pytest

import eventstore
from eventstore import NewEvent, display

pytestmark = pytest.mark.django_db


def ev(type: str) -> NewEvent:
    return NewEvent(type=type, data={}, metadata={"actor": "system"})


def _append(stream_id: str, *types: str) -> None:
    version = eventstore.stream_version(stream_id=stream_id)
    eventstore.append(stream_id=stream_id, expected_version=version, events=[ev(t) for t in types])


def test_event_count_of_the_store_and_of_a_stream():
    _append("s-1", "Opened", "Closed")
    _append("s-2", "Opened")
    assert eventstore.event_count() == 3
    assert eventstore.event_count(stream_id="s-1") == 2
    assert eventstore.event_count(stream_id="s-none") == 0


def test_streams_with_a_type_and_with_more_of_one_type_than_another():
    _append("s-open", "Opened")
    _append("s-closed", "Opened", "Closed")
    _append("s-twice", "Opened", "Closed", "Opened")
    _append("s-other", "Noted")
    with_opened = set(
        eventstore.streams_with_type(type="Opened").values_list("stream_id", flat=True)
    )
    assert with_opened == {"s-open", "s-closed", "s-twice"}
    still_open = eventstore.streams_with_type(type="Opened", more_than="Closed")
    assert set(still_open.values_list("stream_id", flat=True)) == {"s-open", "s-twice"}


def test_snapshots_as_stored_of_one_kind():
    _append("s-1", "Opened", "Closed")
    eventstore.snapshot_save(stream_id="s-1", version=1, state={"n": 1}, kind="k")
    eventstore.snapshot_save(stream_id="s-1", version=2, state={"n": 2}, kind="k")
    eventstore.snapshot_save(stream_id="s-1", version=2, state={"n": 9}, kind="other")
    assert list(eventstore.snapshots_as_stored(kind="k")) == [
        ("s-1", 1, {"n": 1}),
        ("s-1", 2, {"n": 2}),
    ]
    assert list(eventstore.snapshots_as_stored(kind="k", stream_id="s-2")) == []


def test_what_no_app_registered_is_shown_as_stored(monkeypatch):
    monkeypatch.setattr(display, "_streams", {})
    monkeypatch.setattr(display, "_actors", {})
    assert display.stream_label("match-x") == ""
    assert display.event_link("match-x", 3) is None
    assert display.actor_name("player:4") == "player:4"
    assert display.actor_name("") == "—"
    display.stream_display_register(
        prefix="thing-",
        label=lambda sid: sid.upper(),
        event_link=lambda sid, v: (f"/{sid}/{v}", "see"),
    )
    display.actor_display_register(kind="bot", name=lambda pk: f"Bot {pk}")
    assert display.stream_label("thing-1") == "THING-1"
    assert display.event_link("thing-1", 2) == ("/thing-1/2", "see")
    assert display.actor_name("bot:7") == "Bot 7"


def test_games_register_how_their_streams_and_players_are_shown():
    import games.admin  # noqa: F401 - registers on import (as the admin's autodiscovery does)

    assert "match-" in display._streams
    assert "player" in display._actors
