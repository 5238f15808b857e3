"""Corrections of past hands (CorrectHand, VoidHand with a hand number): the match is
re-derived as if the corrected sequence of hands had been recorded from the start."""

import json

import pytest

from games.engine import (
    STATE_SCHEMA,
    AdjustScore,
    CancelMatch,
    CorrectHand,
    Deal,
    Forfeit,
    IllegalActionError,
    Resign,
    Ruleset,
    VoidHand,
    decide,
    event_from_dict,
    event_to_dict,
    event_type,
    initial_state,
    legal_actions,
    needs_deal,
    replay,
    start_match,
    state_from_dict,
    state_to_dict,
)
from games.engine.bot import choose_action
from games.engine.events import (
    HandCorrected,
    HandDrawn,
    HandScored,
    HandVoided,
    MatchFinished,
    MatchReopened,
)
from games.engine.view import public_view

from .helpers import (
    act,
    apply,
    correction,
    counted,
    dealt,
    outcome,
    play_match,
    record_action,
    recorded,
    scoring,
    shuffled_deck,
    started,
    types,
)

ALEXANDRA, BOB = 0, 1
GIN_55 = 30  # a gin against 30 deadwood scores 55: two of them close a game


def gin(seat, d=GIN_55):
    return (seat, 0, d)


def _games(state):
    return [r.get("games") for r in state.hand_results]


def _with_log(entries, ruleset=None, first_dealer=0):
    """A table match recorded hand by hand, with its event log."""
    log = start_match(ruleset=ruleset or Ruleset(), first_dealer=first_dealer, mode="table")
    state = replay(log)
    for entry in entries:
        state, events = apply(state, record_action(entry))
        log += events
    return state, log


# --- re-derivation ---------------------------------------------------------------------


def test_correcting_the_winner_of_hand_1_moves_the_later_hands_between_games():
    # Bob 10 (game 1), Alexandra 18 (game 1), Bob 30 (games 1, 2): the worked example.
    state = recorded([(BOB, 2, 12), (ALEXANDRA, 2, 20), (BOB, 0, 5)])
    assert _games(state) == [[1], [1], [1, 2]]
    state, events = apply(state, correction(1, (ALEXANDRA, 2, 12)))
    assert types(events) == ["HandCorrected"]
    # Alexandra's two wins now take her into game 2; Bob's gin is his first score.
    assert _games(state) == [[1], [1, 2], [1]]
    assert [g.scores for g in state.scoresheet.games] == [(28, 30), (18, 0), (0, 0)]
    # RULES 3: the winner deals the next hand, so hand 2 was Alexandra's deal.
    assert [r["dealer"] for r in state.hand_results] == [0, ALEXANDRA, ALEXANDRA]
    assert state.dealer == BOB
    expected = recorded([(ALEXANDRA, 2, 12), (ALEXANDRA, 2, 20), (BOB, 0, 5)])
    assert outcome(state) == outcome(expected)
    assert counted(state) == [scoring(r) for r in expected.hand_results]


def test_the_issue_example_a_knock_recorded_for_the_wrong_seat():
    """Hand 1 was recorded as Bob's gin but was Alexandra's: the match ends with the other
    winner, and where a match ends as soon as it is decided, two hands sooner."""
    hands = [gin(BOB), gin(BOB), gin(ALEXANDRA), gin(ALEXANDRA), gin(BOB), gin(BOB)]
    state = recorded(hands)
    assert (state.status, state.winner, state.hand_number) == ("finished", BOB, 6)
    state, events = apply(state, correction(1, gin(ALEXANDRA), reason="seat 0 knocked"))
    assert events[0] == HandCorrected(
        hand_number=1,
        before={
            "kind": "gin",
            "drawn": False,
            "knocker": BOB,
            "gin": True,
            "knocker_deadwood": 0,
            "defender_deadwood": 30,
            "winner": BOB,
            "points": 55,
        },
        after={
            "kind": "gin",
            "drawn": False,
            "knocker": ALEXANDRA,
            "gin": True,
            "knocker_deadwood": 0,
            "defender_deadwood": 30,
            "winner": ALEXANDRA,
            "points": 55,
        },
        reason="seat 0 knocked",
        by="td",
    )
    assert events[1:] == [MatchFinished(winner=ALEXANDRA, reason="games")]
    assert (state.status, state.winner, state.finish_reason) == ("finished", ALEXANDRA, "games")
    assert [g.winner for g in state.scoresheet.games] == [ALEXANDRA, ALEXANDRA, BOB]

    decided = recorded(hands, Ruleset(end_when_decided=True))
    assert (decided.winner, decided.hand_number) == (BOB, 6)
    decided, events = apply(decided, correction(1, gin(ALEXANDRA)))
    assert events[1:] == [MatchFinished(winner=ALEXANDRA, reason="games")]
    # Alexandra wins games 1 and 2 with hand 4: hands 5 and 6 come after the end.
    assert [bool(r.get("after_end")) for r in decided.hand_results] == [False] * 4 + [True] * 2
    assert _games(decided)[4:] == [[], []] and decided.dealer == ALEXANDRA
    expected = recorded([gin(ALEXANDRA), *hands[1:]], Ruleset(end_when_decided=True))
    assert expected.hand_number == 4 and outcome(decided) == outcome(expected)


def test_a_correction_that_finishes_the_match():
    state = recorded([gin(BOB), gin(BOB), gin(BOB), None])  # games 1 and 2 won, drawn hand
    assert state.status == "in_progress" and state.dealer == BOB
    state, events = apply(state, correction(4, gin(BOB)))
    assert types(events) == ["HandCorrected", "MatchFinished"]
    assert events[1] == MatchFinished(winner=BOB, reason="games")
    assert (state.status, state.phase, state.winner) == ("finished", "finished", BOB)
    assert state.hand_results[3]["kind"] == "gin" and state.hand_results[3]["games"] == [3]
    with pytest.raises(IllegalActionError, match="over"):
        decide(state, record_action(gin(BOB)))


def test_a_correction_that_reopens_a_finished_match():
    state = recorded([gin(BOB)] * 4)
    assert state.status == "finished"
    state, events = apply(state, correction(4, None, reason="nobody knocked"))
    assert events[1:] == [MatchReopened(hand_number=4, reason="correction")]
    assert (state.status, state.phase, state.winner, state.finish_reason, state.turn) == (
        "in_progress",
        "awaiting_record",
        None,
        None,
        None,
    )
    assert state.hand_results[3]["kind"] == "drawn" and state.dealer == BOB
    assert state.scoresheet.games[2].scores == (0, 55) and state.scoresheet.games[2].open
    # The view of a reopened match; the next hand is number 5 and ends the match again.
    view = public_view(state, None)
    assert (view["status"], view["winner"], view["legal_actions"]) == ("in_progress", None, [])
    assert view["hands"][3]["corrections"][0]["after"]["kind"] == "drawn"
    state, events = apply(state, record_action(gin(BOB)))
    assert events[0].hand_number == 5 and events[-1] == MatchFinished(winner=BOB, reason="games")


def test_void_a_past_table_hand():
    state = recorded([(BOB, 2, 12), (ALEXANDRA, 2, 20), (BOB, 0, 5)], first_dealer=ALEXANDRA)
    state, events = apply(state, VoidHand(hand_number=1, reason="wrong table", by="td"))
    assert events == [HandVoided(hand_number=1, reason="wrong table", by="td")]
    first = state.hand_results[0]
    assert first["voided"] and first["void_reason"] == "wrong table" and first["games"] == []
    assert first["kind"] == "knock" and first["points"] == 10  # the crossed-out line
    # Without hand 1, Bob's gin is his first win and Alexandra won hand 2 first of all.
    assert _games(state) == [[], [1], [1]]
    # After a voided hand the same dealer deals again: hand 2 was Alexandra's deal.
    assert [r["dealer"] for r in state.hand_results] == [ALEXANDRA, ALEXANDRA, ALEXANDRA]
    expected = recorded([(ALEXANDRA, 2, 20), (BOB, 0, 5)], first_dealer=ALEXANDRA)
    assert outcome(state) == outcome(expected)
    assert state.rulings[-1]["type"] == "HandVoided"
    with pytest.raises(IllegalActionError, match="voided already"):
        decide(state, VoidHand(hand_number=1, reason="again", by="td"))
    with pytest.raises(IllegalActionError, match="voided already"):
        decide(state, correction(1, gin(BOB)))


def test_the_dealer_after_a_voided_last_hand_is_that_hands_dealer():
    state = recorded([(BOB, 2, 12), (ALEXANDRA, 2, 20)], first_dealer=BOB)
    assert state.dealer == ALEXANDRA
    state, _ = apply(state, VoidHand(hand_number=2, reason="r", by="td"))
    assert state.dealer == BOB  # Bob dealt hand 2 (he won hand 1) and deals again


def test_hands_after_the_end_count_again_when_a_correction_reopens_the_match_that_far():
    hands = [gin(BOB), gin(BOB), gin(ALEXANDRA), gin(ALEXANDRA), gin(BOB), gin(BOB)]
    original = recorded(hands, Ruleset(end_when_decided=True))
    state, _ = apply(original, correction(1, gin(ALEXANDRA)))
    assert [r.get("after_end", False) for r in state.hand_results][4:] == [True, True]
    state, events = apply(state, correction(1, gin(BOB), reason="it was Bob after all"))
    assert events[1:] == [MatchFinished(winner=BOB, reason="games")]
    assert outcome(state) == outcome(original)
    for record, before in zip(state.hand_results, original.hand_results, strict=True):
        assert "after_end" not in record
        assert {k: v for k, v in record.items() if k != "corrections"} == before
    assert [c["reason"] for c in state.hand_results[0]["corrections"]] == [
        "wrong entry",
        "it was Bob after all",
    ]


def test_adjustments_are_replayed_where_they_were_made():
    adjust = AdjustScore(seat=ALEXANDRA, game=1, points=95, reason="miscount", by="td")
    state = recorded([(BOB, 2, 12)])  # Bob 10 in game 1
    state, _ = apply(state, adjust)
    assert state.rulings[-1]["after_hands"] == 1
    state, _ = apply(state, record_action((ALEXANDRA, 2, 12)))  # enters game 1: 105 ends it
    assert state.scoresheet.games[0].winner == ALEXANDRA and _games(state) == [[1], [1]]
    # Hand 1 was Alexandra's: with the adjustment after it she has 105 in game 1 before
    # hand 2, which game 1 being over takes her into game 2.
    state, _ = apply(state, correction(1, (ALEXANDRA, 2, 12)))
    assert _games(state) == [[1], [2]]
    assert [g.scores for g in state.scoresheet.games] == [(105, 0), (10, 0), (0, 0)]
    expected = recorded([(ALEXANDRA, 2, 12)])
    expected, _ = apply(expected, adjust)
    expected, _ = apply(expected, record_action((ALEXANDRA, 2, 12)))
    assert outcome(state) == outcome(expected)


def test_an_adjustment_that_no_longer_fits_lapses():
    state = recorded([gin(ALEXANDRA), (BOB, 2, 12)])  # game 1: 55 - 10
    state, _ = apply(state, AdjustScore(seat=BOB, game=1, points=-10, reason="r", by="td"))
    state, _ = apply(state, record_action((BOB, 3, 13)))
    # Hand 2 was drawn: Bob has no 10 in game 1 to take away any more.
    state, _ = apply(state, correction(2, None))
    assert state.rulings[0]["lapsed"] is True
    assert [g.scores for g in state.scoresheet.games] == [(55, 10), (0, 0), (0, 0)]
    # Hand 1 ending game 1 at once also leaves the adjustment without a place.
    state, _ = apply(state, correction(1, gin(ALEXANDRA, 98)))
    assert state.rulings[0]["lapsed"] is True and _games(state) == [[1], None, [2]]
    # Back to what was recorded, the adjustment counts again.
    state, _ = apply(state, correction(1, gin(ALEXANDRA)))
    state, _ = apply(state, correction(2, (BOB, 2, 12)))
    assert "lapsed" not in state.rulings[0]
    assert [g.scores for g in state.scoresheet.games] == [(55, 10), (0, 10), (0, 0)]


def test_adjustment_places_in_online_play():
    state = dealt(started(), shuffled_deck(9))
    state, _ = apply(state, AdjustScore(seat=0, game=1, points=5, reason="r", by="td"))
    assert state.rulings[-1]["after_hands"] == 0  # during hand 1: no hand finished yet
    state, _ = apply(state, VoidHand(reason="exposed card", by="td"))
    state, _ = apply(state, AdjustScore(seat=0, game=1, points=5, reason="r", by="td"))
    assert state.rulings[-1]["after_hands"] == 1


# --- online matches: past voids ------------------------------------------------------------


def _table_equivalent(log, ruleset, first_dealer, skip):
    """The online match's hands recorded at a table, leaving out hand `skip`."""
    entries = []
    for event in log:
        if isinstance(event, HandScored) and event.hand_number != skip:
            entries.append((event.knocker, event.knocker_deadwood, event.defender_deadwood))
        elif isinstance(event, HandDrawn) and event.hand_number != skip:
            entries.append(None)
    return recorded(entries, ruleset, first_dealer=first_dealer)


def _played(record):
    rederived = ("games", "voided", "void_reason", "void_by", "after_end")
    return {k: v for k, v in record.items() if k not in rederived}


@pytest.mark.parametrize("seed", [3, 8])
def test_voiding_any_past_online_hand_equals_the_match_without_it(seed):
    ruleset = Ruleset(box_bonus=25, end_when_decided=seed % 2 == 0)
    online, log = play_match(choose_action, seed=seed, ruleset=ruleset)
    assert online.status == "finished"
    outcomes = set()
    for record in online.hand_results:
        number = record["hand_number"]
        state, events = apply(online, VoidHand(hand_number=number, reason="r", by="td"))
        table = _table_equivalent(log, ruleset, seed % 2, skip=number)
        assert state.scoresheet == table.scoresheet
        assert (state.status, state.winner) == (table.status, table.winner)
        assert [r["games"] for r in counted(state)] == [r["games"] for r in counted(table)]
        voided = state.hand_results[number - 1]
        assert voided["deck"] == record["deck"] and voided["voided"] is True
        # Only the scoring is re-derived: who dealt, the deck, the cards and melds stay.
        for new, old in zip(state.hand_results, online.hand_results, strict=True):
            assert _played(new) == _played(old)
        outcomes.add(tuple(types(events)))
        if state.status == "in_progress":
            assert (state.phase, needs_deal(state)) == ("awaiting_deal", True)
            assert legal_actions(state, 0) == legal_actions(state, 1) == []
            assert events[1:] == [MatchReopened(hand_number=number, reason="void")]
            state = dealt(state, shuffled_deck(seed))
            assert state.hand_number == online.hand_number + 1 and state.in_play
    assert ("HandVoided", "MatchReopened") in outcomes  # voiding the last hand reopens it


def test_the_next_online_hand_is_dealt_by_the_re_derived_dealer():
    online, _ = play_match(choose_action, seed=3)
    last = online.hand_results[-1]
    state, _ = apply(online, VoidHand(hand_number=last["hand_number"], reason="r", by="td"))
    assert state.dealer == last["dealer"]  # the voided hand's dealer deals again
    state, events = apply(state, Deal(deck=shuffled_deck(1), salt="s"))
    assert events[0].dealer == last["dealer"]


def test_void_with_the_number_of_the_hand_in_play_voids_the_hand_in_play():
    state = dealt(started(first_dealer=1), shuffled_deck(9))
    state, _ = act(state, state.turn, type="pass")
    by_number, events = apply(state, VoidHand(hand_number=1, reason="r", by="td"))
    assert events == decide(state, VoidHand(reason="r", by="td"))
    assert by_number.hand_results[-1]["kind"] == "voided" and needs_deal(by_number)


def test_a_past_hand_is_voided_only_between_hands():
    state = dealt(started(), shuffled_deck(1))
    state, _ = apply(state, VoidHand(reason="r", by="td"))
    state = dealt(state, shuffled_deck(2))
    with pytest.raises(IllegalActionError, match="between hands") as refused:
        decide(state, VoidHand(hand_number=1, reason="r", by="td"))
    assert refused.value.rule == "rulings: void hand"


# --- forfeits, resignations, cancellations -------------------------------------------------


def test_a_forfeit_stands_when_a_hand_is_corrected():
    """The finish by forfeit and its winner stand; the hands and the scoresheet change,
    and hands after the point where the games would have ended the match are marked."""
    state = recorded([gin(ALEXANDRA)] * 3 + [(BOB, 2, 12)])
    state, _ = apply(state, Forfeit(winner=BOB, reason="left the venue", by="td"))
    dealer = state.dealer
    state, events = apply(state, correction(4, gin(ALEXANDRA)))
    assert types(events) == ["HandCorrected"]
    assert (state.status, state.winner, state.finish_reason) == ("finished", BOB, "forfeit")
    assert [g.winner for g in state.scoresheet.games] == [ALEXANDRA] * 3
    assert state.dealer == dealer
    state, events = apply(state, VoidHand(hand_number=1, reason="r", by="td"))
    assert types(events) == ["HandVoided"] and state.finish_reason == "forfeit"
    assert state.scoresheet.games[2].open


def test_a_resignation_stands_too():
    state = recorded([gin(ALEXANDRA)] * 2)
    state, _ = apply(state, Resign(seat=ALEXANDRA))
    state, events = apply(state, correction(2, None))
    assert types(events) == ["HandCorrected"]
    assert (state.winner, state.finish_reason) == (BOB, "resigned")
    assert state.scoresheet.games[0].open


def test_a_cancelled_match_is_not_corrected():
    state = recorded([gin(ALEXANDRA)])
    state, _ = apply(state, CancelMatch(reason="re-paired", by="td"))
    for action in (correction(1, gin(BOB)), VoidHand(hand_number=1, reason="r", by="td")):
        with pytest.raises(IllegalActionError, match="cancelled"):
            decide(state, action)
    # Nothing else changes a finished match: the rules of "8 match end" stay.
    finished = recorded([gin(BOB)] * 4)
    for action in (
        VoidHand(reason="r", by="td"),
        AdjustScore(seat=0, game=1, points=5, reason="r", by="td"),
        record_action(None),
    ):
        with pytest.raises(IllegalActionError, match="over") as refused:
            decide(finished, action)
        assert refused.value.rule == "8 match end"


# --- refusals --------------------------------------------------------------------------


def test_online_hands_are_not_corrected():
    online, _ = play_match(choose_action, seed=3)
    with pytest.raises(IllegalActionError, match="table mode") as refused:
        decide(online, correction(1, gin(BOB)))
    assert refused.value.rule == "rulings: correct hand"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (correction(0, gin(BOB)), "no finished hand 0"),
        (correction(3, gin(BOB)), "no finished hand 3"),
        (CorrectHand(hand_number=True, reason="r", by="td", drawn=True), "no finished hand"),
        (CorrectHand(hand_number="1", reason="r", by="td", drawn=True), "no finished hand"),
        (correction(1, (BOB, 2, 12)), "already recorded like this"),
        (correction(2, None), "already recorded like this"),
        (correction(1, gin(BOB), reason=""), "reason"),
        (correction(1, gin(BOB), reason="   "), "reason"),
        (CorrectHand(hand_number=1, reason=None, by="td", drawn=True), "reason"),
        (VoidHand(hand_number=3, reason="r", by="td"), "no finished hand 3"),
        (VoidHand(hand_number=1, reason="", by="td"), "reason"),
        # Checked exactly as RecordHand is.
        (correction(1, (BOB, 11, 20)), "exceeds the knock limit 10"),
        (correction(1, (2, 3, 20)), "seat 0 or 1"),
        (correction(1, (BOB, 3, 99)), "at most 98"),
        (correction(1, (BOB, -1, 9)), ">= 0"),
        (
            CorrectHand(
                hand_number=1,
                reason="r",
                by="td",
                knocker=BOB,
                gin=True,
                knocker_deadwood=3,
                defender_deadwood=20,
            ),
            "6 gin",
        ),
        (
            CorrectHand(
                hand_number=1,
                reason="r",
                by="td",
                knocker=BOB,
                gin=False,
                knocker_deadwood=0,
                defender_deadwood=20,
            ),
            "6 gin",
        ),
        (CorrectHand(hand_number=1, reason="r", by="td"), "seat 0 or 1"),
        (
            CorrectHand(hand_number=1, reason="r", by="td", drawn=True, knocker=BOB),
            "a drawn hand has no knocker",
        ),
        (CorrectHand(hand_number=1, reason="r", by="td", drawn="yes"), "drawn must be"),
    ],
)
def test_corrections_that_are_refused(action, message):
    state = recorded([(BOB, 2, 12), None])
    with pytest.raises(IllegalActionError, match=message):
        decide(state, action)


def test_the_knock_limit_variant_applies_to_corrections():
    state = recorded([(BOB, 2, 12)], Ruleset(knock_limit=5))
    with pytest.raises(IllegalActionError, match="deadwood 6 exceeds the knock limit 5"):
        decide(state, correction(1, (BOB, 6, 12)))
    assert decide(state, correction(1, (BOB, 5, 12)))


def test_nothing_is_corrected_before_the_match_starts():
    with pytest.raises(IllegalActionError, match="not started"):
        decide(initial_state(), correction(1, None))


# --- events, snapshots, views ----------------------------------------------------------


def test_corrected_matches_replay_and_snapshot_to_the_same_state():
    state, log = _with_log([gin(BOB)] * 4)
    for action in (
        correction(4, None),  # reopens
        correction(2, (ALEXANDRA, 3, 20)),
        VoidHand(hand_number=3, reason="r", by="td"),
    ):
        state, events = apply(state, action)
        log += events
    state, events = apply(state, AdjustScore(seat=1, game=3, points=5, reason="r", by="td"))
    log += events
    stored = [(event_type(e), json.loads(json.dumps(event_to_dict(e)))) for e in log]
    assert "HandCorrected" in dict(stored) and "MatchReopened" in dict(stored)
    rebuilt = [event_from_dict(t, d) for t, d in stored]
    assert rebuilt == log and replay(rebuilt) == state
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
    assert STATE_SCHEMA == 2


def test_old_void_events_still_decode():
    assert event_from_dict("HandVoided", {"hand_number": 2, "reason": "r", "by": "o"}) == (
        HandVoided(hand_number=2, reason="r", by="o")
    )


def test_the_view_shows_the_crossed_out_lines():
    hands = [gin(BOB), gin(BOB), gin(ALEXANDRA), gin(ALEXANDRA), gin(BOB), gin(BOB)]
    state = recorded(hands, Ruleset(end_when_decided=True))
    state, _ = apply(state, correction(1, gin(ALEXANDRA), reason="seat 0 knocked"))
    state, _ = apply(state, VoidHand(hand_number=2, reason="misdeal", by="td"))
    view = public_view(state, ALEXANDRA)
    json.dumps(view)
    first, second = view["hands"][:2]
    [line] = first["corrections"]
    assert (line["before"]["winner"], line["after"]["winner"]) == (BOB, ALEXANDRA)
    assert (line["reason"], line["by"]) == ("seat 0 knocked", "td")
    assert (first["winner"], first["games"]) == (ALEXANDRA, [1])
    assert (second["voided"], second["void_reason"], second["void_by"]) == (True, "misdeal", "td")
    assert [h.get("after_end", False) for h in view["hands"]] == [False] * 4 + [True] * 2
    assert [r["type"] for r in view["rulings"]] == ["HandCorrected", "HandVoided"]
