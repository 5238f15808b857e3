"""The state a worker remembers of a match stream after writing it: used by the next action
only where the stream read vouches for it (the hash of the event at its version)."""

from __future__ import annotations

import dataclasses

import pytest

import eventstore
from games import repository
from games.engine.bot import choose_action
from games.engine.events import event_from_dict
from games.engine.match import replay
from games.engine.state import state_to_dict
from games.repository import match_lock, match_state_remember
from games.services import match_act, match_create
from tests.factories import BotPlayerFactory

pytestmark = pytest.mark.django_db

MARK = {"type": "marker", "reason": "remembered"}


@pytest.fixture
def match(organiser):
    a, b = BotPlayerFactory(), BotPlayerFactory()
    return match_create(player1=a, player2=b, seed="remember", organisers=[organiser])


def rebuilt(match) -> dict:
    events = eventstore.load(stream_id=match.stream_id)
    return state_to_dict(replay(event_from_dict(e.type, e.data) for e in events))


def play(match, moves: int) -> None:
    players = {0: match.player1, 1: match.player2}
    for _ in range(moves):
        state = match_lock(match_id=match.id).state
        action = choose_action(state, state.turn)
        match_act(match_id=match.id, player=players[state.turn], action=action)


def marked(state):
    return dataclasses.replace(state, rulings=(*state.rulings, MARK))


def test_every_action_sees_the_state_rebuilt_from_all_events(match):
    """Whether a state is remembered or read from the snapshot, it is the same state."""
    players = {0: match.player1, 1: match.player2}
    for _ in range(60):
        session = match_lock(match_id=match.id)
        assert state_to_dict(session.state) == rebuilt(match)
        if session.state.status != "in_progress":
            break
        action = choose_action(session.state, session.state.turn)
        match_act(match_id=match.id, player=players[session.state.turn], action=action)


def test_a_state_the_events_vouch_for_is_used(match):
    play(match, 6)
    events = eventstore.load(stream_id=match.stream_id)
    deal = max(e.version for e in events if e.type == "HandDealt")
    at = deal + 2  # after the hand's snapshot, before the head
    assert at < events[-1].version
    truth = replay(event_from_dict(e.type, e.data) for e in events[:at])
    match_state_remember(
        stream_id=match.stream_id, version=at, head_hash=events[at - 1].hash, state=marked(truth)
    )
    state = match_lock(match_id=match.id).state
    assert MARK in state.rulings  # built on the remembered state ...
    assert state_to_dict(dataclasses.replace(state, rulings=())) == {
        **rebuilt(match),
        "rulings": [],
    }  # ... and brought up to the head


@pytest.mark.parametrize(
    "shift, digest",
    [
        (0, "0" * 64),  # the head's version, another hash: another stream's history
        (-2, "0" * 64),  # an older version, another hash
        (1, None),  # beyond the head: remembered by a transaction that rolled back
    ],
    ids=["head-other-hash", "older-other-hash", "rolled-back"],
)
def test_a_state_the_events_do_not_vouch_for_is_ignored(match, shift, digest):
    play(match, 6)
    events = eventstore.load(stream_id=match.stream_id)
    version = max(1, events[-1].version + shift)
    real_hash = events[version - 1].hash if version <= len(events) else "f" * 64
    bogus = marked(replay(event_from_dict(e.type, e.data) for e in events[:version]))
    match_state_remember(
        stream_id=match.stream_id, version=version, head_hash=digest or real_hash, state=bogus
    )
    state = match_lock(match_id=match.id).state
    assert MARK not in state.rulings
    assert state_to_dict(state) == rebuilt(match)


def test_a_state_from_before_the_latest_snapshot_is_used_where_its_event_vouches(match):
    """The writer's load reads the events from the remembered state's version on (not the
    snapshot), so a state older than the latest snapshot is checked by its own event and
    brought up to the head by those after it."""
    for _ in range(40):  # into the second hand (the first deal is version 2)
        play(match, 5)
        events = eventstore.load(stream_id=match.stream_id)
        deal = max(e.version for e in events if e.type == "HandDealt")
        if deal > 2 and events[-1].version > deal:
            break
    at = deal - 3  # before the latest snapshot (the last deal's)
    assert at > 2
    truth = replay(event_from_dict(e.type, e.data) for e in events[:at])
    match_state_remember(
        stream_id=match.stream_id, version=at, head_hash=events[at - 1].hash, state=marked(truth)
    )
    state = match_lock(match_id=match.id).state
    assert MARK in state.rulings
    assert state_to_dict(dataclasses.replace(state, rulings=())) == {
        **rebuilt(match),
        "rulings": [],
    }


def test_only_the_latest_states_are_kept(match, monkeypatch):

    monkeypatch.setattr(repository, "REMEMBERED_STATES", 3)
    state = match_lock(match_id=match.id).state
    for n in range(5):
        match_state_remember(stream_id=f"s{n}", version=1, head_hash="h", state=state)
    assert list(repository._REMEMBERED) == ["s2", "s3", "s4"]


def test_a_finished_match_s_state_is_not_kept(match, organiser):
    """What a worker keeps per match is bounded by the matches in play: once a match is
    over its state (the largest it had) is dropped, not left until pushed out (issue 26.11)."""
    from games.services import match_rule

    play(match, 3)
    assert match.stream_id in repository._REMEMBERED
    match_rule(match_id=match.id, by=organiser, type="forfeit", player=match.player1,
               reason="gone")  # fmt: skip
    assert match.stream_id not in repository._REMEMBERED
