"""The team event repository's snapshots: taken every SNAPSHOT_EVERY events, sealed, and a
load from one equals the fold of every event; a snapshot changed behind the store's back is
ignored (the events are read instead)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

import eventstore
from eventstore.models import Snapshot
from tournaments.teams.projections import team_event_state
from tournaments.teams.repository import (
    SNAPSHOT_EVERY,
    SNAPSHOT_KIND,
    team_event_load,
    team_event_state_of,
    team_event_states_forget,
)
from tournaments.teams.services import team_event_create, team_lineup_set, team_register

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_team_event(organiser: Any, make_player: Any) -> Any:
    """A team event past one snapshot: created, two sides, and their captains changing
    their mind about round 1's board order, one event each time."""
    event = team_event_create(name="Long", format="team_swiss", created_by=organiser, boards=2)
    for n in (1, 2):
        roster = [make_player().pk for _ in range(2)]
        team_register(event_id=event.pk, name=f"Side {n}", roster=roster, by=organiser)
    state = team_event_state(event=event)
    orders = [state.teams[1].roster, state.teams[1].roster[::-1]]
    for n in range(SNAPSHOT_EVERY):
        team_lineup_set(
            event_id=event.pk, team=1, round_number=1, players=list(orders[n % 2]), by=organiser
        )
    event.refresh_from_db()
    return event


def test_a_snapshot_is_taken_sealed_and_loads_as_the_fold(long_team_event: Any) -> None:
    event = long_team_event
    snapshot = Snapshot.objects.get(stream_id=event.stream_id, kind=SNAPSHOT_KIND)
    assert SNAPSHOT_EVERY <= snapshot.version <= event.version
    assert snapshot.version < event.version  # events after it are folded onto it
    assert snapshot.seal and snapshot.digests
    tail = eventstore.read_tail(stream_id=event.stream_id, kind=SNAPSHOT_KIND)[1]
    assert tail.snapshot is not None and tail.snapshot[0] == snapshot.version
    assert [e.version for e in tail.events] == list(range(snapshot.version + 1, event.version + 1))
    folded = team_event_state(event=event)
    team_event_states_forget()  # as a worker that did not write it: from the snapshot
    with transaction.atomic():
        assert team_event_load(event_id=event.pk).state == folded
    assert team_event_state_of(event=event, remembered=False) == folded


def test_a_forged_snapshot_is_ignored(long_team_event: Any) -> None:
    event = long_team_event
    snapshot = Snapshot.objects.get(stream_id=event.stream_id, kind=SNAPSHOT_KIND)
    state = dict(snapshot.state)
    state["teams"] = [{**t, "name": "Forged"} for t in state["teams"]]  # digests, seal kept
    Snapshot.objects.filter(pk=snapshot.pk).update(state=state)
    loaded = team_event_state_of(event=event, remembered=False)
    assert loaded == team_event_state(event=event)
    assert {t.name for t in loaded.teams.values()} == {"Side 1", "Side 2"}


def test_a_team_event_stream_cut_short_is_caught(long_team_event: Any) -> None:
    """The store checks a team event's stream against the version its record holds, as it
    does a tournament's: the last event deleted behind its back is reported."""
    from django.db import connection

    assert eventstore.streams_cut_short(stream_id=long_team_event.stream_id) == []
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM eventstore_event WHERE stream_id = %s AND version = %s",
            [long_team_event.stream_id, long_team_event.version],
        )
    (cut,) = eventstore.streams_cut_short(stream_id=long_team_event.stream_id)
    assert cut == (
        long_team_event.stream_id, long_team_event.version - 1, long_team_event.version,
    )  # fmt: skip
