"""What a live stream reads after each commit (`games.selectors.followed`): the match's
row, its whole stream and the state at its head, from the process's copy of the stream and
only what was appended since; a copy the stream no longer vouches for is not used."""

from __future__ import annotations

import dataclasses
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import eventstore
from games import selectors, services
from games.engine.bot import choose_action
from games.engine.state import state_to_dict
from games.selectors import followed as copies
from players.services import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_copies():
    copies.match_followed_forget()
    yield
    copies.match_followed_forget()


@pytest.fixture
def match():
    ada = player_create(name="Ada", username="ada", password="pw-followed-1")
    ben = player_create(name="Ben", username="ben", password="pw-followed-1")
    return services.match_create(player1=ada, player2=ben, seed="followed", first_dealer=ada)


def _move(match) -> None:
    state, version = selectors.match_state_at(match=match)
    player = match.player1 if state.turn == 0 else match.player2
    services.match_act(
        match_id=match.pk,
        player=player,
        action=choose_action(state, state.turn),
        expected_version=version,
    )


def _same_as_stored(followed, match) -> None:
    stored = eventstore.load(stream_id=match.stream_id)
    state, version = selectors.match_state_at(match=match)
    assert [(e.version, e.hash) for e in followed.events] == [(e.version, e.hash) for e in stored]
    assert followed.version == version == stored[-1].version
    assert followed.head_hash == stored[-1].hash
    assert state_to_dict(followed.state) == state_to_dict(state)
    assert followed.match.pk == match.pk and followed.match.version == version
    assert followed.match.player1.name == "Ada"


def test_the_copy_is_read_on_from_its_head(match):
    _same_as_stored(copies.match_followed(match_id=match.pk), match)
    for _ in range(5):
        _move(match)
        with CaptureQueriesContext(connection) as queries:
            followed = copies.match_followed(match_id=str(match.pk))
        _same_as_stored(followed, match)
        # The row and the events from the copy's head on: one round trip on PostgreSQL.
        assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 2)
    assert followed.version > 5


def test_a_copy_the_stream_does_not_vouch_for_is_not_used(match):
    copies.match_followed(match_id=match.pk)
    _move(match)
    # A copy whose head the stored stream no longer has (a rewritten stream, a copy gone
    # wrong): its state and events are dropped and the stream read in full.
    stream_id = match.stream_id
    bad = copies._FOLLOWED.get(stream_id)
    wrong_state = dataclasses.replace(bad.state, hand_number=99)
    copies._FOLLOWED.put(stream_id, dataclasses.replace(bad, state=wrong_state, head_hash="0" * 64))
    _same_as_stored(copies.match_followed(match_id=match.pk), match)


def test_the_view_from_the_copy_is_the_api_view(match):
    for _ in range(3):
        _move(match)
    followed = copies.match_followed(match_id=match.pk)
    for player in (match.player1, match.player2):
        from_copy = selectors.match_view_for(
            match=followed.match,
            user=player.user,
            latest=(followed.state, followed.version),
            head_hash=followed.head_hash,
        )
        loaded = selectors.match_view_for(match=match, user=player.user)
        # The receipt is signed when made; it names the same head.
        keys = ("stream_id", "version", "hash", "signature")
        for view in (from_copy, loaded):
            view["receipt"] = {k: view["receipt"][k] for k in keys}
        assert from_copy == loaded


def test_no_such_match():
    from core.errors import NotFoundError

    for wrong in ("not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        with pytest.raises(NotFoundError):
            copies.match_followed(match_id=wrong)


def test_copies_are_bounded_and_one_left_idle_goes(match, settings, monkeypatch):
    """What a stream process keeps (issue 26.11): at most FOLLOWED_STREAMS copies, the least
    recently followed going first, and none of a stream not followed for
    settings.MATCH_CACHE_IDLE_SECONDS (a finished match, its followers gone); a stream
    whose copy went is read again in full, and right."""
    monkeypatch.setattr(copies, "FOLLOWED_STREAMS", 2)
    now = [time.monotonic()]
    monkeypatch.setattr(copies._FOLLOWED, "timer", lambda: now[0])
    others = [
        services.match_create(player1=match.player1, player2=match.player2, seed=f"f{n}")
        for n in range(3)
    ]
    for other in others:
        copies.match_followed(match_id=other.pk)
    assert list(copies._FOLLOWED) == [others[1].stream_id, others[2].stream_id]
    copies.match_followed(match_id=match.pk)
    assert list(copies._FOLLOWED) == [others[2].stream_id, match.stream_id]
    now[0] += settings.MATCH_CACHE_IDLE_SECONDS - 1
    copies.match_followed(match_id=match.pk)  # others[2] sits idle, match does not
    now[0] += 2
    _move(match)
    _same_as_stored(copies.match_followed(match_id=match.pk), match)
    assert list(copies._FOLLOWED) == [match.stream_id]
    _same_as_stored(copies.match_followed(match_id=others[2].pk), others[2])
