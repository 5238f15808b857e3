"""Which matches a finished tournament rates, and what re-rates it (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.domain.glicko2 import PeriodGame
from tournaments.domain.rating_periods import (
    RerateCause,
    match_is_rated,
    rated_games,
    rerated_by,
    tournament_period,
)


@dataclass
class Ev:
    type: str
    data: dict[str, Any]
    position: int
    recorded_at: Any = None


@dataclass
class Facts:
    finish_reason: str
    hands_ended: int


def _result(r, t, p1, p2, w, m):
    return {"round": r, "table": t, "player1": p1, "player2": p2, "winner": w, "match": m}


def _events():
    return [
        Ev("TournamentCreated", {}, 1),
        Ev("ResultRecorded", _result(1, 3, 5, None, 5, None), 2),  # a bye
        Ev("ResultRecorded", _result(1, 1, 1, 2, 1, "m1"), 3),
        Ev("ResultRecorded", _result(1, 2, 3, 4, 4, "m2"), 4),
        Ev("TournamentFinished", {}, 5, "t5"),
    ]


FACTS = {"m1": Facts("games", 3), "m2": Facts("forfeit", 0)}


def test_byes_and_no_shows_are_not_rated():
    period = tournament_period(_events())
    assert period.finished_position == 5 and period.finished_at == "t5"
    assert rated_games(period, FACTS) == [PeriodGame(1, 2)]
    assert period.causes == ()


def test_what_makes_a_match_rated():
    result = tournament_period(_events()).results[0]  # round 1, table 1: 1 beat 2
    assert match_is_rated(result, Facts("games", 1))
    assert match_is_rated(result, Facts("resigned", 1))
    assert match_is_rated(result, Facts("forfeit", 2))  # the turn clock, after play
    assert not match_is_rated(result, Facts("resigned", 0))  # resigned before any hand
    assert not match_is_rated(result, Facts("forfeit", 0))  # a no-show
    assert not match_is_rated(result, Facts("cancelled", 4))
    assert not match_is_rated(result, Facts("", 4))  # back in play
    assert not match_is_rated(result, None)


def test_a_correction_after_the_finish_is_a_cause_and_changes_the_result():
    corrected = {"round": 1, "table": 1, "after": _result(1, 1, 1, 2, 2, "m1")}
    same = {"round": 1, "table": 1, "after": _result(1, 1, 1, 2, 2, "m1")}
    events = [
        *_events(),
        Ev("ResultCorrected", corrected, 9, "t9"),
        Ev("ResultCorrected", same, 11),
    ]
    period = tournament_period(events)
    assert rated_games(period, FACTS) == [PeriodGame(2, 1)]
    assert period.causes == (RerateCause(9, "t9", "result corrected: round 1, table 1"),)


def test_a_withdrawn_result_is_not_rated():
    withdrawn = {"round": 1, "table": 1, "after": None}
    period = tournament_period([*_events(), Ev("ResultCorrected", withdrawn, 7)])
    assert rated_games(period, FACTS) == []
    assert [c.reason for c in period.causes] == ["result withdrawn: round 1, table 1"]


def test_a_correction_before_the_finish_is_no_cause():
    corrected = {"round": 1, "table": 1, "after": _result(1, 1, 1, 2, 2, "m1")}
    events = _events()
    events.insert(4, Ev("ResultCorrected", corrected, 4))
    assert tournament_period(events).causes == ()


def test_not_finished():
    assert tournament_period(_events()[:-1]).finished_position is None


def test_a_cause_rerates_its_period_and_the_later_ones_finished_before_it():
    a, b, c = RerateCause(25, "a", "x"), RerateCause(35, "b", "y"), RerateCause(40, "c", "s")
    # Periods finished at 10, 20, 30; a cause in period 0 at 25 (period 2 did not exist
    # yet), one in period 1 at 35; a settings change at 40 re-rates all three.
    out = rerated_by([10, 20, 30], [[a], [b], []], [c])
    assert out == [[a, c], [a, b, c], [b, c]]
