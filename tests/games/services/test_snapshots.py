import pytest

import eventstore
from demo.bots import match_play_bots_batched
from games.engine.state import state_to_dict
from games.repository import SNAPSHOT_KIND
from games.selectors import match_state_at, match_view_for
from games.services import match_act, match_create
from tests.factories import BotPlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(organiser):
    a, b = BotPlayerFactory(), BotPlayerFactory()
    match = match_create(player1=a, player2=b, seed="snap", organisers=[organiser])
    match_play_bots_batched(match=match, max_actions=150)
    return match


def test_a_snapshot_is_taken_at_each_deal(played):
    events = eventstore.load(stream_id=played.stream_id)
    last_deal = max(e.version for e in events if e.type == "HandDealt")
    assert eventstore.snapshot_load(stream_id=played.stream_id, kind=SNAPSHOT_KIND)[0] == last_deal


def test_loading_reads_only_the_events_since_the_latest_snapshot(played, monkeypatch):
    tails = []
    real_read_tail = eventstore.read_tail

    def spy(**kwargs):
        found = real_read_tail(**kwargs)
        tails.append(found[1])
        return found

    monkeypatch.setattr(eventstore, "read_tail", spy)
    _, version = match_state_at(match=played)
    snap_version = eventstore.snapshot_load(stream_id=played.stream_id, kind=SNAPSHOT_KIND)[0]
    assert len(tails) == 1
    assert tails[0].snapshot[0] == snap_version
    assert [e.version for e in tails[0].events] == list(range(snap_version + 1, version + 1))
    assert version > snap_version


def test_deleted_snapshots_give_the_same_state(played, organiser):
    state, version = match_state_at(match=played)
    view = _without_receipt_time(match_view_for(match=played, user=organiser))
    assert eventstore.snapshot_delete(stream_id=played.stream_id) > 1
    again, again_version = match_state_at(match=played)
    assert (state_to_dict(again), again_version) == (state_to_dict(state), version)
    assert _without_receipt_time(match_view_for(match=played, user=organiser)) == view


def _without_receipt_time(view: dict) -> dict:
    """The receipt is signed when the view is made: its time differs, its signature not."""
    assert view["receipt"]["signature"]
    return {**view, "receipt": {**view["receipt"], "created_at": None}}


def test_play_continues_without_snapshots(played):
    eventstore.snapshot_delete(stream_id=played.stream_id)
    state, version = match_state_at(match=played)
    from games.engine.bot import choose_action

    player = played.player1 if state.turn == 0 else played.player2
    match_act(match_id=played.id, player=player, action=choose_action(state, state.turn))
    assert eventstore.stream_version(stream_id=played.stream_id) > version
