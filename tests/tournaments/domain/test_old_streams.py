"""Streams older than a key fold as new ones do (issue 19: old streams still replay).

A pairing's `match_version` (the match stream's version when paired: "started" means
more) came later than the first streams: read back, a missing one is the version a
match has when it is made for a pairing, so an old stream's unplayed matches are not
taken for started (which refused every re-pairing after a rebuild). No database."""

from __future__ import annotations

import pytest

from tournaments.domain import event_from_stored, event_to_stored, fold
from tournaments.domain.state import MATCH_VERSION_WHEN_MADE


def _old_stream(play_mode: str) -> list:
    stored = [
        ("TournamentCreated", {"name": "Old", "format": "swiss", "rounds": 2,
                               "play_mode": play_mode}),
        ("PlayerRegistered", {"player": 1}),
        ("PlayerRegistered", {"player": 2}),
        ("PlayerRegistered", {"player": 3}),
        ("TournamentStarted", {"seeds": [1, 2, 3], "rounds": 2}),
        # The old shape: no match_version, no table numbers.
        ("RoundPaired", {"round": 1, "deadline": None, "pairings": [
            {"player1": 1, "player2": 2, "match": "m-1"},
            {"player1": 3, "player2": None, "match": None},
        ]}),
    ]  # fmt: skip
    return [event_from_stored(type_, data) for type_, data in stored]


@pytest.mark.parametrize("play_mode", ["online", "table"])
def test_an_old_pairing_takes_the_version_its_match_was_made_at(play_mode):
    tables = fold(_old_stream(play_mode)).rounds[1].tables
    assert [(t.table, t.match, t.match_version) for t in tables] == [
        (1, "m-1", MATCH_VERSION_WHEN_MADE[play_mode]),
        (2, None, 0),  # a bye has no match
    ]


def test_a_new_pairing_keeps_the_version_it_recorded():
    events = _old_stream("online")
    type_, data = event_to_stored(events[-1])
    data["pairings"][0]["match_version"] = 5
    new = [*events[:-1], event_from_stored(type_, data)]
    assert fold(new).rounds[1].tables[0].match_version == 5


def test_reading_an_old_event_back_stores_it_as_it_was_read():
    """An upcast event written again keeps the old shape's meaning: the missing version
    stays missing (None), so folding it again gives the same state."""
    old = _old_stream("online")
    again = [event_from_stored(*event_to_stored(e)) for e in old]
    assert fold(again) == fold(old)
