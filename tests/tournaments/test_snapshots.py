"""The tournament repository's snapshots: taken every SNAPSHOT_EVERY events, sealed, and a
load from one equals the fold of every event; a snapshot changed behind the store's back is
ignored (the events are read instead), so a forged winner in it decides nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from eventstore.models import Snapshot
from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services
from tournaments.projections import tournament_state
from tournaments.repository import SNAPSHOT_EVERY, SNAPSHOT_KIND, state_of, tournament_load

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_tournament(organiser: Any, jobs: Any) -> Any:
    players = make_bots(SNAPSHOT_EVERY // 2 + 2)  # registered + checked in: past one snapshot
    t = make_tournament(organiser, players, rounds=3)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    t.refresh_from_db()
    return t


def test_a_snapshot_is_taken_sealed_and_loads_as_the_fold(long_tournament: Any) -> None:
    t = long_tournament
    snapshot = Snapshot.objects.get(stream_id=t.stream_id, kind=SNAPSHOT_KIND)
    assert SNAPSHOT_EVERY <= snapshot.version <= t.version
    assert snapshot.seal and snapshot.digests
    with transaction.atomic():
        assert tournament_load(tournament_id=t.pk).state == tournament_state(tournament=t)
    assert state_of(tournament=t, remembered=False) == tournament_state(tournament=t)


def test_a_forged_snapshot_is_ignored(long_tournament: Any) -> None:
    t = long_tournament
    snapshot = Snapshot.objects.get(stream_id=t.stream_id, kind=SNAPSHOT_KIND)
    state = dict(snapshot.state)
    # The forger withdraws the first entry in the cached state (digests and seal kept).
    entries = [dict(e) for e in state["entries"]]
    entries[0]["status"] = "withdrawn"
    state["entries"] = entries
    Snapshot.objects.filter(pk=snapshot.pk).update(state=state)
    loaded = state_of(tournament=t, remembered=False)  # as a worker that did not write it
    assert loaded == tournament_state(tournament=t)
    assert loaded.entries[entries[0]["player"]].status != "withdrawn"
