"""The tournament domain, pure: typed events folded into a state, its standings, and the
settings decision. No database."""

from __future__ import annotations

import pytest

from tournaments.domain import (
    SettingFixedError,
    decide_settings_change,
    event_from_stored,
    fold,
    standings_of,
)
from tournaments.domain.events import Noted, RoundPaired


def _stored(type_, **data):
    return event_from_stored(type_, data)


def _result(round_, table, p1, p2, winner, g1=2, g2=0):
    return _stored(
        "ResultRecorded", round=round_, table=table, player1=p1, player2=p2, winner=winner,
        games1=g1, games2=g2, points1=0, points2=0,
    )  # fmt: skip


def _paired(round_, *pairs, repaired=False):
    pairings = [{"table": n, "player1": a, "player2": b} for n, (a, b) in enumerate(pairs, 1)]
    return _stored("RoundRepaired" if repaired else "RoundPaired", round=round_, pairings=pairings)


def test_results_corrections_and_repairs_fold_into_the_standings():
    events = [
        _stored("TournamentCreated", format="swiss", tiebreaks=[]),
        _paired(1, (1, 2), (3, 4)),
        _result(1, 1, 1, 2, 1),
        _result(1, 2, 3, 4, 4, g1=1, g2=2),
    ]
    state = fold(events)
    assert state.started and state.paired == {1, 2, 3, 4}
    assert [s.player for s in standings_of(state)][:2] == [1, 4]
    # A correction: table 1 was won by 2; then the match reopened (no result for now).
    corrected = fold(
        [
            _stored(
                "ResultCorrected",
                round=1,
                table=1,
                before={},
                after={
                    "round": 1,
                    "table": 1,
                    "player1": 1,
                    "player2": 2,
                    "winner": 2,
                    "games1": 0,
                    "games2": 2,
                    "points1": 0,
                    "points2": 0,
                },
            )
        ],  # fmt: skip
        state,
    )
    assert corrected.results[(1, 1)].winner == 2
    reopened = fold([_stored("ResultCorrected", round=1, table=1, before={}, after=None)], state)
    assert (1, 1) not in reopened.results and (1, 2) in reopened.results
    # A re-pairing drops the round's results.
    repaired = fold([_paired(1, (1, 3), (2, 4), repaired=True)], state)
    assert repaired.results == {}


def test_tiebreak_order_follows_the_settings_events():
    state = fold([_stored("TournamentCreated", format="round_robin", tiebreaks=[])])
    later = fold(
        [_stored("SettingsChanged", changes={"tiebreaks": {"old": [], "new": ["head_to_head"]}})],
        state,
    )
    assert later.tiebreaks == ("head_to_head",)


def test_the_fixed_settings_are_refused_once_started():
    state = fold([_stored("TournamentCreated", format="swiss"), _paired(1, (1, 2))])
    current = {"ruleset": {"game_target": 100}, "name": "Tuesday"}
    with pytest.raises(SettingFixedError):
        decide_settings_change(state, current=current, wanted={"ruleset": {"game_target": 50}})
    assert decide_settings_change(state, current=current, wanted={"name": "Wed"}) == {
        "name": {"old": "Tuesday", "new": "Wed"}
    }


def test_unknown_event_types_are_noted_not_refused():
    assert isinstance(_stored("SomethingNewer", round=1), Noted)
    assert isinstance(_paired(2, (1, 2)), RoundPaired)
