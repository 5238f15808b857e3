"""Finished-hand records are left out of a snapshot read and fetched only when looked at."""

import pytest

import eventstore
from demo.bots import match_play_bots_batched
from games.engine.events import event_from_dict
from games.engine.match import replay
from games.engine.state import state_to_dict
from games.repository import SNAPSHOT_KIND, match_states_forget
from games.selectors import match_state_at
from games.services import match_create
from tests.factories import BotPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    a, b = BotPlayerFactory(), BotPlayerFactory()
    match = match_create(player1=a, player2=b, seed="lazy-records")
    match_play_bots_batched(match=match, max_actions=250)
    return match


def _replayed(match, version):
    events = eventstore.load(stream_id=match.stream_id, up_to_version=version)
    return replay(event_from_dict(e.type, e.data) for e in events)


def test_snapshot_load_leaves_out_the_named_keys(played):
    full = eventstore.snapshot_load(stream_id=played.stream_id, kind=SNAPSHOT_KIND)
    part = eventstore.snapshot_load(
        stream_id=played.stream_id, kind=SNAPSHOT_KIND, without=("hand_results",)
    )
    assert full[0] == part[0] and full[1]["hand_results"]
    assert part[1] == {k: v for k, v in full[1].items() if k != "hand_results"}
    assert (
        eventstore.snapshot_part(
            stream_id=played.stream_id, kind=SNAPSHOT_KIND, version=full[0], key="hand_results"
        )
        == full[1]["hand_results"]
    )


def test_records_are_read_once_per_snapshot_and_worker(played, monkeypatch):
    from games import repository

    match_states_forget()  # read from the snapshot, not the state the bots' commit left
    repository.hand_results_forget()
    reads = []
    part = eventstore.snapshot_part
    monkeypatch.setattr(
        eventstore, "snapshot_part", lambda **kw: reads.append(kw["version"]) or part(**kw)
    )
    state, version = match_state_at(match=played)
    again, _ = match_state_at(match=played)
    assert len(reads) == 1  # the second load took them from the worker's cache
    assert again == state
    expected = _replayed(played, version)
    assert state == expected and len(state.hand_results) >= 2
    assert state.hand_results[-1] == expected.hand_results[-1]
    assert state_to_dict(state) == state_to_dict(expected)


def test_records_come_from_the_events_when_the_snapshot_is_gone(played):
    state, version = match_state_at(match=played)
    assert eventstore.snapshot_delete(stream_id=played.stream_id) > 1
    assert list(state.hand_results) == list(_replayed(played, version).hand_results)
