"""What a worker keeps per match is bounded (issue 26.11): the finished hands' records it
caches of the snapshots it read are at most one snapshot's per match and at most
settings.HAND_RESULTS_CACHED_RECORDS records in all, however many matches it has served,
and a match pushed out is still read right (from the database)."""

from __future__ import annotations

import time

import pytest

import eventstore
from demo.bots import match_play_bots_batched
from games import repository
from games.engine.events import event_from_dict
from games.engine.match import replay
from games.engine.state import state_to_dict
from games.repository import hand_results_forget, hand_results_held, match_states_forget
from games.selectors import match_state_at
from games.services import match_create
from tests.factories import BotPlayerFactory

pytestmark = pytest.mark.django_db

LIMIT = 12


@pytest.fixture(autouse=True)
def _small_cache(settings):
    settings.HAND_RESULTS_CACHED_RECORDS = LIMIT
    hand_results_forget()
    yield
    hand_results_forget()


def _played(n: int, actions: int = 250):
    """`n` matches, each played `actions` bot moves into a fresh state (several hands, each
    with its deal's snapshot)."""
    a, b = BotPlayerFactory(), BotPlayerFactory()
    matches = []
    for i in range(n):
        match = match_create(player1=a, player2=b, seed=f"memory-{i}")
        match_play_bots_batched(match=match, max_actions=actions)
        matches.append(match)
    return matches


def _replayed(match, version: int) -> dict:
    events = eventstore.load(stream_id=match.stream_id, up_to_version=version)
    return state_to_dict(replay(event_from_dict(e.type, e.data) for e in events))


def _read(match) -> tuple[dict, int]:
    match_states_forget()  # as a worker that did not write the match: from its snapshot
    state, version = match_state_at(match=match)
    return state_to_dict(state), version


def test_serving_more_matches_than_the_bound_keeps_it_and_answers_right():
    matches = _played(6)
    per_match = []
    for match in matches:
        state, version = _read(match)
        assert state == _replayed(match, version)
        records = len(state["hand_results"])
        assert 2 <= records < LIMIT  # the last snapshot has a few finished hands
        per_match.append(records)
        streams, held = hand_results_held()
        assert held <= LIMIT
    assert sum(per_match) > LIMIT  # more than the bound was read
    streams, held = hand_results_held()
    assert streams < len(matches) and held <= LIMIT
    # The first match was pushed out: read again, from PostgreSQL, it is still right, and
    # it is kept again, the bound still held.
    assert f"{matches[0].stream_id}" not in repository._HAND_RESULTS
    state, version = _read(matches[0])
    assert state == _replayed(matches[0], version)
    assert matches[0].stream_id in repository._HAND_RESULTS
    assert hand_results_held()[1] <= LIMIT


def test_one_snapshot_per_match_is_kept_the_latest():
    (match,) = _played(1)
    snapshots = sorted(
        {
            found[0]
            for version in range(1, match_state_at(match=match)[1] + 1)
            if (
                found := eventstore.snapshot_load(
                    stream_id=match.stream_id, kind=repository.SNAPSHOT_KIND, max_version=version
                )
            )
        }
    )
    assert len(snapshots) >= 3
    for version in snapshots:  # hand after hand, as the match is played
        state, _ = match_state_at(match=match, version=version)
        assert state_to_dict(state) == _replayed(match, version)
        assert list(repository._HAND_RESULTS) == [match.stream_id]
        assert repository._HAND_RESULTS.get(match.stream_id)[0] == version
    assert hand_results_held()[1] == len(state.hand_results)
    # A view of an earlier hand is answered right and does not replace the latest.
    earlier, _ = match_state_at(match=match, version=snapshots[1])
    assert state_to_dict(earlier) == _replayed(match, snapshots[1])
    assert repository._HAND_RESULTS.get(match.stream_id)[0] == snapshots[-1]


def test_a_snapshot_larger_than_the_bound_is_not_kept(settings):
    (match,) = _played(1)
    state, version = _read(match)
    settings.HAND_RESULTS_CACHED_RECORDS = len(state["hand_results"]) - 1
    hand_results_forget()
    again, _ = _read(match)
    assert again == state == _replayed(match, version)
    assert hand_results_held() == (0, 0)


class _Clock:
    """A clock for the caches that moves only when told, from the real one's reading."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> _Clock:
    """The clock the worker's caches measure idleness on, moved by the test."""
    clock = _Clock()
    monkeypatch.setattr(repository._HAND_RESULTS, "timer", clock)
    monkeypatch.setattr(repository._REMEMBERED, "timer", clock)
    return clock


def test_records_of_a_match_left_idle_are_dropped(settings, clock):
    """A match finished, or played on by other workers, is looked at no more here: its
    records go once a stream is looked at after it has sat settings.MATCH_CACHE_IDLE_SECONDS,
    rather than when the records bound is reached, hundreds of matches later."""
    settings.HAND_RESULTS_CACHED_RECORDS = 10_000
    first, second, third = _played(3)
    _read(first)
    clock.now += 2
    _read(second)
    clock.now += settings.MATCH_CACHE_IDLE_SECONDS - 1  # first sat idle + 1 s, second idle - 1
    _read(third)
    assert list(repository._HAND_RESULTS) == [second.stream_id, third.stream_id]
    state, version = _read(first)
    assert state == _replayed(first, version)


def test_a_state_not_written_here_for_a_while_is_not_remembered(settings, clock):
    """The states a worker remembers: a match another worker finished (or one abandoned)
    goes after settings.MATCH_CACHE_IDLE_SECONDS, and is still loaded right."""
    from games.repository import match_lock, match_state_remember

    first, second, third = _played(3, actions=40)
    match_states_forget()  # what the bots' commits left
    for match in (first, second):
        write = match_lock(match_id=match.id)
        match_state_remember(
            stream_id=match.stream_id,
            version=write.version,
            head_hash=write.head_hash,
            state=write.state,
        )
        clock.now += 2
    assert [first.stream_id, second.stream_id] == list(repository._REMEMBERED)
    clock.now += settings.MATCH_CACHE_IDLE_SECONDS - 3  # first sat idle + 1 s, second idle - 1
    write = match_lock(match_id=third.id)
    match_state_remember(
        stream_id=third.stream_id, version=write.version, head_hash=write.head_hash,
        state=write.state,
    )  # fmt: skip
    assert list(repository._REMEMBERED) == [second.stream_id, third.stream_id]
    assert state_to_dict(match_lock(match_id=first.id).state) == _replayed(
        first, match_state_at(match=first)[1]
    )
