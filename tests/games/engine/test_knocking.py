"""RULES 6 (knocking, gin, layoffs, the knocker-arrangement Decision) and 7 (scoring)."""

import pytest

from games.engine import (
    IllegalActionError,
    InvalidMeldError,
    Knock,
    Ruleset,
    decide,
    legal_actions,
    needs_deal,
)
from games.engine.events import DefenceLaidOut, HandScored, Knocked
from games.engine.melds import min_arrangements, min_deadwood
from games.engine.scoresheet import score_hand

from .helpers import act, dealt, make_deck, started, types

# The non-dealer (seat 1; seat 0 deals) can knock on the very first turn after taking the
# upcard: melds AC-2C-3C, 4D-4H-4S, 7S-8S-9S; KH is discarded; the upcard is the deadwood.
KNOCKER = ["AC", "2C", "3C", "4D", "4H", "4S", "7S", "8S", "9S", "KH"]
# No melds and nothing to lay off (4C, 6S, TS would): deadwood 73.
LOOSE = ["KC", "QD", "JC", "TH", "9D", "8H", "6C", "5D", "3H", "2D"]


def _first_turn(dealer_cards, upcard="2H", ruleset=None, non_dealer=KNOCKER, stock=()):
    deck = make_deck(dealer=dealer_cards, non_dealer=non_dealer, upcard=upcard, stock=stock)
    return dealt(started(ruleset, first_dealer=0), deck)


def test_knock_on_the_very_first_turn_after_taking_the_upcard():
    state = _first_turn(LOOSE)
    state, _ = act(state, 1, type="draw", source="discard")
    assert {"type": "knock", "card": "KH"} in legal_actions(state, 1)
    assert {"type": "discard", "card": "KH"} in legal_actions(state, 1)  # nobody must knock
    state, events = act(state, 1, type="knock", card="KH")
    assert types(events) == ["Knocked", "DefenceLaidOut", "HandScored"]
    knocked, defence, scored = events
    assert knocked == Knocked(
        seat=1,
        discard="KH",
        melds=[["AC", "2C", "3C"], ["4D", "4H", "4S"], ["7S", "8S", "9S"]],
        deadwood=["2H"],
        deadwood_value=2,
        gin=False,
    )
    assert defence.seat == 0 and defence.layoffs == [] and defence.deadwood_value == 73
    assert scored == HandScored(
        hand_number=1,
        kind="knock",
        knocker=1,
        winner=1,
        points=71,
        knocker_deadwood=2,
        defender_deadwood=73,
        games=[1],
    )
    assert needs_deal(state) and state.dealer == 1  # the winner deals next
    assert state.scoresheet.games[0].scores == (0, 71)


def test_dealer_may_knock_on_the_first_turn_after_the_non_dealer_passes():
    # dealer gets the knocking hand this time
    state = _first_turn(KNOCKER, non_dealer=LOOSE)
    state, _ = act(state, 1, type="pass")
    state, _ = act(state, 0, type="draw", source="discard")
    state, events = act(state, 0, type="knock", card="KH")
    assert events[-1].winner == 0 and events[-1].points == 71


def test_knock_after_both_pass_with_first_stock_card():
    state = _first_turn(LOOSE, upcard="QH", stock=["2H"])
    state, _ = act(state, 1, type="pass")
    state, _ = act(state, 0, type="pass")
    state, _ = act(state, 1, type="draw", source="stock")
    state, events = act(state, 1, type="knock", card="KH")
    assert events[0].deadwood == ["2H"] and events[-1].points == 71


def test_knock_must_come_after_drawing():
    state = _first_turn(LOOSE)
    with pytest.raises(IllegalActionError, match="draw a card first"):
        decide(state, Knock(seat=1, card="KH"))


def test_knock_over_the_limit_is_refused_naming_the_rule():
    state = _take(_first_turn(LOOSE, upcard="QH"))
    # discarding 4S breaks the set of 4s: 4D 4H KH QH = 28 deadwood
    with pytest.raises(IllegalActionError) as info:
        decide(state, Knock(seat=1, card="4S"))
    assert str(info.value) == "6 knocking: deadwood 28 exceeds the knock limit 10"
    assert info.value.rule == "6 knocking"
    knocks = {a["card"] for a in legal_actions(state, 1) if a["type"] == "knock"}
    assert knocks == {"KH", "QH"}


def test_deadwood_exactly_at_the_limit_may_knock_and_one_more_may_not():
    state = _first_turn(LOOSE, upcard="TS")  # TS extends 7S-8S-9S: gin
    state, _ = act(state, 1, type="draw", source="discard")
    knocks = {a["card"] for a in legal_actions(state, 1) if a["type"] == "knock"}
    assert "KH" in knocks  # gin
    state2 = _first_turn(LOOSE, upcard="QH")
    state2, _ = act(state2, 1, type="draw", source="discard")
    knocks2 = {a["card"] for a in legal_actions(state2, 1) if a["type"] == "knock"}
    assert knocks2 == {"KH", "QH"}  # 10 deadwood left: exactly the limit
    with pytest.raises(IllegalActionError, match="deadwood 10 exceeds the knock limit 9"):
        decide(
            _take(_first_turn(LOOSE, upcard="QH", ruleset=Ruleset(knock_limit=9))),
            Knock(seat=1, card="KH"),
        )


def _take(state):
    return act(state, 1, type="draw", source="discard")[0]


def test_knock_limit_variant():
    # after taking QH, discarding AC leaves 2C 3C KH QH = 25 deadwood
    with pytest.raises(IllegalActionError, match="deadwood 25 exceeds the knock limit 10"):
        decide(_take(_first_turn(LOOSE, upcard="QH")), Knock(seat=1, card="AC"))
    state = _take(_first_turn(LOOSE, upcard="QH", ruleset=Ruleset(knock_limit=25)))
    _, events = act(state, 1, type="knock", card="AC")
    assert events[0].deadwood_value == 25 and events[-1].points == 73 - 25


def test_gin_scores_bonus_and_allows_no_layoffs():
    # TS completes 7S-TS: gin. The defender holds 6S, which could extend that run.
    defender = ["6S", "KC", "QD", "JC", "9D", "8H", "6C", "5D", "3H", "2D"]
    state = _take(_first_turn(defender, upcard="TS"))
    state, events = act(state, 1, type="knock", card="KH")
    knocked, defence, scored = events[:3]
    assert knocked.gin and knocked.deadwood == [] and knocked.deadwood_value == 0
    assert defence.layoffs == [] and "6S" in defence.deadwood
    assert scored.kind == "gin" and scored.points == min_deadwood(defender) + 25


def test_gin_with_the_defender_at_zero_still_scores_the_bonus():
    defender = ["5C", "6C", "7C", "8C", "JD", "JH", "JC", "QD", "QH", "QS"]
    state = _take(_first_turn(defender, upcard="TS"))
    state, events = act(state, 1, type="knock", card="KH")
    scored = events[2]
    assert scored.kind == "gin" and scored.defender_deadwood == 0
    assert scored.winner == 1 and scored.points == 25
    assert state.scoresheet.games[0].scores == (0, 25)


def test_gin_bonus_variant():
    defender = ["5C", "6C", "7C", "8C", "JD", "JH", "JC", "QD", "QH", "QS"]
    state = _take(_first_turn(defender, upcard="TS", ruleset=Ruleset(gin_bonus=20)))
    _, events = act(state, 1, type="knock", card="KH")
    assert events[2].points == 20


def test_undercut_on_equal_deadwood():
    # The defender holds three melds and AD: 1 deadwood against the knocker's 2.
    defender = ["5C", "6C", "7C", "JD", "JH", "JS", "QC", "QH", "QS", "AD"]
    state = _take(_first_turn(defender, upcard="2H"))
    state, events = act(state, 1, type="knock", card="KH")
    scored = events[2]
    assert scored.knocker_deadwood == 2 and scored.defender_deadwood == 1
    assert scored.kind == "undercut" and scored.winner == 0 and scored.points == 10 + 1
    defender_eq = ["5C", "6C", "7C", "JD", "JH", "JS", "QC", "QH", "QS", "2D"]
    state = _take(_first_turn(defender_eq, upcard="2H"))
    state, events = act(state, 1, type="knock", card="KH")
    scored = events[2]
    assert scored.knocker_deadwood == scored.defender_deadwood == 2
    assert scored.kind == "undercut" and scored.winner == 0 and scored.points == 10
    assert state.dealer == 0  # the undercutting defender deals next


def test_undercut_bonus_variant_and_layoffs_count():
    # The defender lays off 4C (onto AC-2C-3C or the 4s) and 6S (onto 7S-9S): left 3D = 3.
    defender = ["4C", "6S", "3D", "JD", "JH", "JS", "QC", "QH", "QS", "5H"]
    state = _take(_first_turn(defender, upcard="2H", ruleset=Ruleset(undercut_bonus=20)))
    _, events = act(state, 1, type="knock", card="KH")
    defence, scored = events[1], events[2]
    assert sorted(card for card, _ in defence.layoffs) == ["4C", "6S"]
    assert defence.deadwood_value == 3 + 5
    assert scored.kind == "knock" and scored.points == 8 - 2
    undercut = score_hand(
        Ruleset(undercut_bonus=20), knocker=1, gin=False, knocker_deadwood=9, defender_deadwood=8
    )
    assert undercut == ("undercut", 0, 21)


@pytest.mark.parametrize(
    ("gin", "k", "d", "expected"),
    [
        (True, 0, 0, ("gin", 0, 25)),
        (True, 0, 17, ("gin", 0, 42)),
        (False, 3, 10, ("knock", 0, 7)),
        (False, 5, 5, ("undercut", 1, 10)),
        (False, 7, 2, ("undercut", 1, 15)),
    ],
)
def test_score_hand(gin, k, d, expected):
    assert score_hand(Ruleset(), knocker=0, gin=gin, knocker_deadwood=k, defender_deadwood=d) == (
        expected
    )


# --- the knocker-arrangement Decision ---------------------------------------------------
# Knocker after taking QC and discarding KS: 3H 4H 5H 4S 4D + 9C-KC. The 4H can go in the
# run 3H-4H-5H (deadwood 4S 4D = 8) or the set 4H-4S-4D (deadwood 3H 5H = 8): two minimal
# arrangements. The run takes a 6H layoff, the set a 4C layoff.
AMBIGUOUS = ["3H", "4H", "5H", "4S", "4D", "9C", "TC", "JC", "KC", "KS"]
RUN_USE = [["3H", "4H", "5H"], ["9C", "TC", "JC", "QC", "KC"]]
SET_USE = [["4D", "4H", "4S"], ["9C", "TC", "JC", "QC", "KC"]]
WITH_6H = ["6H", "AS", "3S", "5S", "7D", "9D", "JD", "2C", "6C", "8S"]  # 57
WITH_4C = ["4C", "AS", "3S", "5S", "7D", "9D", "JD", "2C", "6C", "8S"]  # 55


def _ambiguous(defender):
    deck = make_deck(dealer=defender, non_dealer=AMBIGUOUS, upcard="QC")
    return _take(dealt(started(first_dealer=0), deck))


def _sorted_melds(melds):
    return sorted(sorted(m) for m in melds)


def test_there_are_two_minimal_arrangements():
    rest = [c for c in AMBIGUOUS if c != "KS"] + ["QC"]
    found = [_sorted_melds(a.melds) for a in min_arrangements(rest)]
    assert sorted(found) == sorted([_sorted_melds(RUN_USE), _sorted_melds(SET_USE)])


@pytest.mark.parametrize(
    ("defender", "chosen", "defender_left", "points"),
    [(WITH_6H, SET_USE, 57, 49), (WITH_4C, RUN_USE, 55, 47)],
)
def test_knocker_arrangement_leaves_the_defender_the_most_deadwood(
    defender, chosen, defender_left, points
):
    state = _ambiguous(defender)
    _, events = act(state, 1, type="knock", card="KS")
    knocked, defence, scored = events[:3]
    assert _sorted_melds(knocked.melds) == _sorted_melds(chosen)
    assert knocked.deadwood_value == 8
    assert defence.layoffs == [] and defence.deadwood_value == defender_left
    assert scored.points == points


def test_a_stated_arrangement_is_used_even_if_it_helps_the_defender():
    state = _ambiguous(WITH_6H)
    _, events = act(state, 1, type="knock", card="KS", melds=RUN_USE)
    knocked, defence, scored = events[:3]
    assert _sorted_melds(knocked.melds) == _sorted_melds(RUN_USE)
    assert [card for card, _ in defence.layoffs] == ["6H"]
    assert knocked.melds[defence.layoffs[0][1]] == ["3H", "4H", "5H"]
    assert scored.points == 51 - 8


def test_a_stated_arrangement_over_the_limit_is_refused():
    state = _ambiguous(WITH_6H)
    with pytest.raises(IllegalActionError, match="deadwood 20 exceeds the knock limit 10"):
        decide(state, Knock(seat=1, card="KS", melds=[["9C", "TC", "JC", "QC", "KC"]]))


def test_a_stated_non_minimal_arrangement_within_the_limit_is_allowed():
    # After taking JS and discarding KH the knocker could go gin (AC-3C, 4C-4S, 9S-JS), but
    # states 2C-4C + 4D-4H-4S + 9S-JS, keeping AC as deadwood: a knock for 1, not gin.
    hand = ["AC", "2C", "3C", "4C", "4D", "4H", "4S", "9S", "TS", "KH"]
    deck = make_deck(dealer=LOOSE, non_dealer=hand, upcard="JS")
    state = _take(dealt(started(first_dealer=0), deck))
    stated = [["2C", "3C", "4C"], ["4D", "4H", "4S"], ["9S", "TS", "JS"]]
    _, events = act(state, 1, type="knock", card="KH", melds=stated)
    knocked, _, scored = events[:3]
    assert knocked.deadwood == ["AC"] and not knocked.gin
    assert scored.kind == "knock" and scored.points == 73 - 1
    _, gin_events = act(state, 1, type="knock", card="KH")
    assert gin_events[0].gin and gin_events[2].points == 73 + 25


def test_a_stated_invalid_arrangement_is_refused():
    state = _ambiguous(WITH_6H)
    with pytest.raises(InvalidMeldError):
        decide(state, Knock(seat=1, card="KS", melds=[["3H", "4H", "4S"]]))
    with pytest.raises(InvalidMeldError):
        decide(state, Knock(seat=1, card="KS", melds=[["KS", "KC", "KH"]]))  # KS discarded
    with pytest.raises(InvalidMeldError):
        decide(state, Knock(seat=1, card="KS", melds=[["3H", "4H", "5H"], ["4H", "4S", "4D"]]))


def test_knock_with_the_card_just_taken_under_the_restriction():
    deck = make_deck(dealer=LOOSE, non_dealer=KNOCKER, upcard="2H")
    state = _take(dealt(started(Ruleset(discard_restriction=True), first_dealer=0), deck))
    with pytest.raises(IllegalActionError, match="discard restriction"):
        decide(state, Knock(seat=1, card="2H"))
    assert {"type": "knock", "card": "2H"} not in legal_actions(state, 1)


def test_defence_event_shape():
    state = _take(_first_turn(LOOSE))
    _, events = act(state, 1, type="knock", card="KH")
    defence = events[1]
    assert isinstance(defence, DefenceLaidOut)
    assert sorted(defence.deadwood) == sorted(LOOSE) and defence.melds == []
