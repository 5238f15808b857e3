"""Table (scoresheet) mode: hands played at a real table are recorded and scored by the
same scoring function as online play."""

import pytest

from games.engine import (
    Deal,
    Draw,
    IllegalActionError,
    RecordDrawnHand,
    RecordHand,
    Ruleset,
    decide,
    legal_actions,
    needs_deal,
)
from games.engine.bot import choose_action
from games.engine.events import GameWon, HandRecorded, HandScored, MatchFinished

from .helpers import apply, play_match, shuffled_deck, started, types

ALEXANDRA, BOB = 0, 1


def _record(state, knocker, k, d, gin=None):
    gin = (k == 0) if gin is None else gin
    return apply(
        state, RecordHand(knocker=knocker, gin=gin, knocker_deadwood=k, defender_deadwood=d)
    )


def test_worked_example_recorded_at_the_table():
    state = started(mode="table", first_dealer=ALEXANDRA)
    assert not needs_deal(state) and state.phase == "awaiting_record"
    state, events = _record(state, BOB, 2, 12)  # Bob wins by 10
    assert events == [
        HandRecorded(
            hand_number=1, knocker=BOB, gin=False, knocker_deadwood=2, defender_deadwood=12
        ),
        HandScored(
            hand_number=1,
            kind="knock",
            knocker=BOB,
            winner=BOB,
            points=10,
            knocker_deadwood=2,
            defender_deadwood=12,
            games=[1],
        ),
    ]
    state, _ = _record(state, ALEXANDRA, 2, 20)  # Alexandra by 18
    state, events = _record(state, BOB, 0, 5)  # Bob gins: 5 + 25 = 30
    assert events[-1].kind == "gin" and events[-1].points == 30
    state, _ = _record(state, ALEXANDRA, 7, 3)  # undercut: Bob by 10 + 4 - ... = 14
    assert state.hand_results[-1]["kind"] == "undercut"
    assert state.hand_results[-1]["winner"] == BOB and state.hand_results[-1]["points"] == 14


def test_worked_example_standings_at_the_table():
    state = started(mode="table")
    for knocker, k, d in [(BOB, 2, 12), (ALEXANDRA, 2, 20), (BOB, 0, 5), (BOB, 3, 7)]:
        state, _ = _record(state, knocker, k, d)
    assert [g.scores[ALEXANDRA] for g in state.scoresheet.games] == [18, 0, 0]
    assert [g.scores[BOB] for g in state.scoresheet.games] == [44, 34, 4]
    assert state.hand_number == 4 and state.dealer == BOB


def test_recorded_drawn_hand_keeps_the_dealer():
    state = started(mode="table", first_dealer=BOB)
    state, events = apply(state, RecordDrawnHand())
    assert types(events) == ["HandDrawn"] and events[0].hand_number == 1
    assert state.dealer == BOB and state.hand_number == 1
    assert state.hand_results[-1]["kind"] == "drawn"


def test_games_and_match_end_through_recorded_hands():
    state = started(mode="table")
    # 55 a hand: game 1 closes on Bob's 2nd win, game 2 on the 3rd, game 3 on the 4th
    state, events = _record(state, BOB, 0, 30)
    assert types(events) == ["HandRecorded", "HandScored"]
    state, events = _record(state, BOB, 0, 30)
    assert events[2] == GameWon(game=1, winner=BOB, scores=[0, 110], bonuses=[0, 0])
    state, events = _record(state, BOB, 0, 30)
    assert types(events) == ["HandRecorded", "HandScored", "GameWon"]
    assert state.status == "in_progress"
    state, events = _record(state, BOB, 0, 30)
    assert events[2] == GameWon(game=3, winner=BOB, scores=[0, 110], bonuses=[0, 0])
    assert events[-1] == MatchFinished(winner=BOB, reason="games")
    assert state.status == "finished" and state.winner == BOB
    with pytest.raises(IllegalActionError, match="over"):
        _record(state, BOB, 0, 30)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"knocker": 0, "gin": False, "knocker_deadwood": 11, "defender_deadwood": 20}, "limit"),
        ({"knocker": 0, "gin": True, "knocker_deadwood": 3, "defender_deadwood": 20}, "gin"),
        ({"knocker": 0, "gin": False, "knocker_deadwood": 0, "defender_deadwood": 20}, "gin"),
        ({"knocker": 0, "gin": False, "knocker_deadwood": -1, "defender_deadwood": 20}, ">= 0"),
        ({"knocker": 0, "gin": False, "knocker_deadwood": 3, "defender_deadwood": -2}, ">= 0"),
        ({"knocker": 0, "gin": False, "knocker_deadwood": 3, "defender_deadwood": 99}, "98"),
        ({"knocker": 0, "gin": False, "knocker_deadwood": "3", "defender_deadwood": 9}, ">= 0"),
        ({"knocker": 2, "gin": False, "knocker_deadwood": 3, "defender_deadwood": 9}, "seat"),
        ({"knocker": 0, "gin": "no", "knocker_deadwood": 3, "defender_deadwood": 9}, "gin"),
    ],
)
def test_recorded_hands_are_validated_against_the_ruleset(kwargs, message):
    with pytest.raises(IllegalActionError, match=message):
        decide(started(mode="table"), RecordHand(**kwargs))


def test_knock_limit_variant_applies_to_recorded_hands():
    state = started(Ruleset(knock_limit=5), mode="table")
    with pytest.raises(IllegalActionError, match="deadwood 6 exceeds the knock limit 5"):
        decide(state, RecordHand(knocker=0, gin=False, knocker_deadwood=6, defender_deadwood=9))
    assert decide(state, RecordHand(knocker=0, gin=False, knocker_deadwood=5, defender_deadwood=98))


def test_table_and_online_do_not_mix():
    table = started(mode="table")
    with pytest.raises(IllegalActionError):
        decide(table, Deal(deck=shuffled_deck(1), salt="s"))
    with pytest.raises(IllegalActionError, match="table mode"):
        decide(table, Draw(seat=0, source="stock"))
    assert legal_actions(table, 0) == []
    online = started()
    with pytest.raises(IllegalActionError, match="table mode"):
        decide(online, RecordDrawnHand())
    with pytest.raises(IllegalActionError, match="table mode"):
        decide(online, RecordHand(knocker=0, gin=True, knocker_deadwood=0, defender_deadwood=0))


@pytest.mark.parametrize("seed", [3, 4])
def test_table_mode_gives_the_same_standings_as_online_play(seed):
    ruleset = Ruleset(box_bonus=25, game_bonus=100)
    online, log = play_match(choose_action, seed=seed, ruleset=ruleset)
    table = started(ruleset, mode="table", first_dealer=seed % 2)
    online_scored = []
    for event in log:
        if isinstance(event, HandScored):
            online_scored.append(event)
            action = RecordHand(
                knocker=event.knocker,
                gin=event.kind == "gin",
                knocker_deadwood=event.knocker_deadwood,
                defender_deadwood=event.defender_deadwood,
            )
            table, events = apply(table, action)
            assert events[1] == event  # same HandScored, hand numbers included
        elif type(event).__name__ == "HandDrawn":
            table, _ = apply(table, RecordDrawnHand())
    assert online_scored, "the match had no scored hand"
    assert table.scoresheet == online.scoresheet
    assert (table.status, table.winner, table.dealer, table.hand_number) == (
        online.status,
        online.winner,
        online.dealer,
        online.hand_number,
    )
