"""Issue 26 (1): a snapshot whose seal was nulled in a stream whose events are sealed is
forged (its author had no key, as an unsealed event after sealed ones): readers never load
it, they read the events instead, and `verify_events` names it. A snapshot older than seals
(in a stream written before them) is still trusted."""

from __future__ import annotations

import io
import logging

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

import eventstore
from eventstore import NewEvent
from eventstore.models import Snapshot, StoredEvent
from games.engine import event_from_dict, replay
from games.repository import match_states_forget
from games.selectors import match_state_at
from games.services import match_act
from players.models import Player
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


def verify_events(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    try:
        call_command("verify_events", *args, stdout=io.StringIO(), stderr=err, verbosity=0)
    except CommandError as exc:
        return exc.returncode, err.getvalue()
    return 0, err.getvalue()


def replayed(stream_id: str):
    return replay(event_from_dict(e.type, e.data) for e in eventstore.load(stream_id=stream_id))


def play(match, action: dict) -> None:
    state, _ = match_state_at(match=match)
    player = Player.objects.get(pk=match.player_id_for_seat(state.turn))
    match_act(match_id=match.pk, player=player, action=action)


def test_a_snapshot_with_a_nulled_seal_and_a_reordered_stock_deals_nothing(caplog):
    match = MatchFactory()
    play(match, {"type": "pass"})
    play(match, {"type": "pass"})  # the non-dealer must now draw from the stock
    honest = replayed(match.stream_id)
    snapshot = Snapshot.objects.filter(stream_id=match.stream_id).latest("version")
    state = dict(snapshot.state)
    assert list(honest.stock) == state["stock"] and len(set(state["stock"])) > 1
    state["stock"] = list(reversed(state["stock"]))  # the attacker's card on top
    Snapshot.objects.filter(pk=snapshot.pk).update(state=state, seal=None)
    assert verify_events()[0] == 1  # before the draw already

    match_states_forget()  # as a freshly started worker
    with caplog.at_level(logging.WARNING, logger="eventstore.snapshots"):
        play(match, {"type": "draw", "source": "stock"})
    assert "ignored" in caplog.text and "unsealed" in caplog.text
    drawn = [e for e in eventstore.load(stream_id=match.stream_id) if e.type == "CardDrawn"]
    assert drawn[-1].data["card"] == honest.stock[0] != state["stock"][0]
    # What it read and decided is what the events say.
    assert replayed(match.stream_id).stock == honest.stock[1:]

    code, err = verify_events()
    assert code == 1
    assert f"BAD SNAPSHOT stream {match.stream_id}" in err and "unsealed" in err


def test_every_reader_ignores_an_unsealed_snapshot_of_a_sealed_stream(caplog):
    match = MatchFactory()
    snapshot = Snapshot.objects.filter(stream_id=match.stream_id).latest("version")
    Snapshot.objects.filter(pk=snapshot.pk).update(seal=None)
    args = {"stream_id": match.stream_id, "kind": snapshot.kind}
    with caplog.at_level(logging.WARNING, logger="eventstore.snapshots"):
        assert eventstore.snapshot_load(**args) is None
        assert eventstore.snapshot_part(**args, version=snapshot.version, key="stock") is None
        assert eventstore.read_tail(**args)[1].snapshot is None
    assert eventstore.snapshot_seal_due(stream_id=match.stream_id, version=snapshot.version)
    bad = eventstore.snapshots_check(stream_id=match.stream_id)
    assert [(b.version, "unsealed" in b.reason) for b in bad] == [(snapshot.version, True)]


def legacy_stream(stream_id: str) -> None:
    """A stream written before seals: its events and its snapshot carry none."""
    for version in range(3):
        eventstore.append(
            stream_id=stream_id, expected_version=version, events=[NewEvent("Scored", {"n": 1})]
        )
    eventstore.snapshot_save(stream_id=stream_id, version=3, state={"n": 3}, kind="k")
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET seal = NULL WHERE stream_id = %s", [stream_id])
    Snapshot.objects.filter(stream_id=stream_id).update(seal=None)


def test_a_snapshot_older_than_seals_is_still_trusted():
    legacy_stream("old")
    eventstore.append(stream_id="new", expected_version=0, events=[NewEvent("Scored", {})])
    assert StoredEvent.objects.filter(stream_id="new", seal__isnull=False).exists()
    assert eventstore.snapshot_load(stream_id="old", kind="k") == (3, {"n": 3})
    assert eventstore.read_tail(stream_id="old", kind="k")[1].snapshot == (3, {"n": 3})
    assert not eventstore.snapshot_seal_due(stream_id="old", version=3)
    assert eventstore.snapshots_check() == []


def test_an_unsealed_snapshot_at_an_event_written_after_seals_is_forged():
    """Even where the attacker also nulled the seals of the stream's events (which
    `verify` reports), a snapshot at an event written once seals were in use is not loaded."""
    eventstore.append(stream_id="first", expected_version=0, events=[NewEvent("Scored", {})])
    legacy_stream("later")
    assert eventstore.snapshot_seal_due(stream_id="later", version=3)
    assert eventstore.snapshot_load(stream_id="later", kind="k") is None
    assert [b.stream_id for b in eventstore.snapshots_check()] == ["later"]


def test_a_changed_snapshot_older_than_seals_is_left_to_a_replay():
    match = MatchFactory()
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET seal = NULL")  # a store from before seals
    snapshot = Snapshot.objects.filter(stream_id=match.stream_id).latest("version")
    hands = snapshot.state["hands"]
    state = {**snapshot.state, "hands": [hands[1], hands[0]]}
    Snapshot.objects.filter(pk=snapshot.pk).update(state=state, seal=None)
    assert verify_events()[0] == 0
    code, err = verify_events("--deep")
    assert code == 1 and "not the replay's" in err
