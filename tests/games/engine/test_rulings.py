"""Organiser rulings: void the hand in play, adjust a score, forfeit; and resigning."""

import pytest

from games.engine import (
    AdjustScore,
    CancelMatch,
    Deal,
    Forfeit,
    IllegalActionError,
    Pass,
    RecordHand,
    Resign,
    Ruleset,
    VoidHand,
    decide,
    event_from_dict,
    event_to_dict,
    event_type,
    legal_actions,
    needs_deal,
    replay,
    start_match,
    state_from_dict,
    state_to_dict,
)
from games.engine.events import (
    GameWon,
    HandVoided,
    MatchCancelled,
    MatchFinished,
    MatchForfeited,
    PlayerResigned,
    ScoreAdjusted,
)
from games.engine.rulings import decide_cancel
from games.engine.view import full_state, public_view

from .helpers import act, apply, dealt, shuffled_deck, started, types


def _in_play(first_dealer=1):
    state = dealt(started(first_dealer=first_dealer), shuffled_deck(9))
    state, _ = act(state, state.turn, type="pass")
    return state


def test_void_the_hand_in_play_same_dealer_redeals():
    state = _in_play(first_dealer=1)
    deck = state.deck
    state, events = apply(state, VoidHand(reason="card exposed", by="organiser:7"))
    assert events == [HandVoided(hand_number=1, reason="card exposed", by="organiser:7")]
    assert needs_deal(state) and state.dealer == 1 and state.turn is None
    assert state.hands == ((), ()) and state.stock == ()
    record = state.hand_results[-1]
    assert record["kind"] == "voided" and record["deck"] == list(deck)
    assert state.rulings[-1]["type"] == "HandVoided"
    state = dealt(state, shuffled_deck(10))
    assert state.hand_number == 2 and state.dealer == 1


def test_void_needs_a_hand_in_play():
    with pytest.raises(IllegalActionError, match="no hand in play"):
        decide(started(), VoidHand(reason="x", by="o"))
    with pytest.raises(IllegalActionError):
        decide(started(mode="table"), VoidHand(reason="x", by="o"))


def test_adjust_score():
    state = _in_play()
    state, events = apply(state, AdjustScore(seat=0, game=2, points=15, reason="miscount", by="o"))
    assert events == [ScoreAdjusted(seat=0, game=2, points=15, reason="miscount", by="o")]
    assert state.scoresheet.games[1].scores == (15, 0)
    assert state.phase == "upcard" and state.turn == state.dealer  # the hand goes on
    state, _ = apply(state, AdjustScore(seat=0, game=2, points=-5, reason="again", by="o"))
    assert state.scoresheet.games[1].scores == (10, 0)


def test_adjust_score_reaching_the_target_ends_the_game():
    state = started(Ruleset(end_when_decided=True), mode="table")
    state, events = apply(state, AdjustScore(seat=1, game=1, points=100, reason="r", by="o"))
    assert types(events) == ["ScoreAdjusted", "GameWon"]
    assert events[1] == GameWon(game=1, winner=1, scores=[0, 100], bonuses=[0, 0])
    state, events = apply(state, AdjustScore(seat=1, game=3, points=120, reason="r", by="o"))
    assert events[-1] == MatchFinished(winner=1, reason="games")


@pytest.mark.parametrize(
    "action",
    [
        AdjustScore(seat=2, game=1, points=5, reason="r", by="o"),
        AdjustScore(seat=0, game=0, points=5, reason="r", by="o"),
        AdjustScore(seat=0, game=4, points=5, reason="r", by="o"),
        AdjustScore(seat=0, game=1, points=0, reason="r", by="o"),
        AdjustScore(seat=0, game=1, points=-1, reason="r", by="o"),
    ],
)
def test_bad_adjustments(action):
    with pytest.raises(IllegalActionError):
        decide(started(), action)


def test_adjusting_an_ended_game_is_refused():
    state = started(mode="table")
    state, _ = apply(
        state, RecordHand(knocker=0, gin=True, knocker_deadwood=0, defender_deadwood=90)
    )
    assert not state.scoresheet.games[0].open
    with pytest.raises(IllegalActionError, match="ended"):
        decide(state, AdjustScore(seat=1, game=1, points=5, reason="r", by="o"))


def test_forfeit():
    state = _in_play()
    state, events = apply(state, Forfeit(winner=0, reason="no show", by="td"))
    assert events == [
        MatchForfeited(winner=0, reason="no show", by="td"),
        MatchFinished(winner=0, reason="forfeit"),
    ]
    assert state.status == "finished" and state.winner == 0 and state.finish_reason == "forfeit"
    assert legal_actions(state, state.dealer) == [] and legal_actions(state, 0) == []
    with pytest.raises(IllegalActionError, match="over"):
        decide(state, Pass(seat=0))


def test_resign():
    state = _in_play()
    state, events = apply(state, Resign(seat=1))
    assert events == [PlayerResigned(seat=1), MatchFinished(winner=0, reason="resigned")]
    assert state.winner == 0 and state.finish_reason == "resigned"
    with pytest.raises(IllegalActionError):
        decide(state, Resign(seat=0))


def test_bad_seats_in_rulings():
    with pytest.raises(IllegalActionError):
        decide(started(), Forfeit(winner=3, reason="r", by="o"))
    with pytest.raises(IllegalActionError):
        decide(started(), Resign(seat=True))


def test_cancel_a_match_in_play():
    state = _in_play()
    state, events = apply(state, CancelMatch(reason="round 1 re-paired: late entry", by="td"))
    assert events == [MatchCancelled(reason="round 1 re-paired: late entry", by="td")]
    assert state.status == "finished" and state.phase == "finished" and state.turn is None
    assert state.winner is None and state.finish_reason == "cancelled"
    assert state.rulings[-1]["type"] == "MatchCancelled" and state.rulings[-1]["by"] == "td"
    assert legal_actions(state, 0) == [] and legal_actions(state, 1) == []
    assert not needs_deal(state)
    for seat in (0, 1, None):
        view = public_view(state, seat)
        assert view["finish_reason"] == "cancelled" and view["winner"] is None
        assert view["legal_actions"] == [] and view["status"] == "finished"
    assert full_state(state)["finish_reason"] == "cancelled"


def test_cancel_between_hands_and_in_table_mode():
    for state in (started(), started(mode="table")):
        state, events = apply(state, CancelMatch(reason="withdrawn", by="o"))
        assert types(events) == ["MatchCancelled"] and state.finish_reason == "cancelled"


def test_a_cancelled_match_replays_to_the_same_state():
    log = start_match(ruleset=Ruleset(), first_dealer=1)
    state = replay(log)
    for action in (Deal(deck=shuffled_deck(9), salt="s"), Pass(seat=0)):
        state, events = apply(state, action)
        log += events
    state, cancelled = apply(state, CancelMatch(reason="re-paired", by="o"))
    log += cancelled
    # The stored form of each event round-trips, and the fold gives the same state.
    stored = [(event_type(e), event_to_dict(e)) for e in log]
    assert stored[-1] == ("MatchCancelled", {"reason": "re-paired", "by": "o"})
    rebuilt = [event_from_dict(t, d) for t, d in stored]
    assert rebuilt == log
    assert replay(rebuilt) == state
    assert state_from_dict(state_to_dict(state)) == state


def test_a_finished_match_cannot_be_cancelled():
    state, _ = apply(_in_play(), Forfeit(winner=0, reason="no show", by="td"))
    with pytest.raises(IllegalActionError, match="over") as refused:
        decide(state, CancelMatch(reason="too late", by="td"))
    assert refused.value.rule == "8 match end"
    cancelled, _ = apply(_in_play(), CancelMatch(reason="once", by="td"))
    with pytest.raises(IllegalActionError) as again:
        decide(cancelled, CancelMatch(reason="twice", by="td"))
    assert again.value.rule == "8 match end"
    # The ruling checks it too when called directly, and names its own rule.
    with pytest.raises(IllegalActionError) as direct:
        decide_cancel(state, CancelMatch(reason="too late", by="td"))
    assert direct.value.rule == "rulings: cancel match"


def test_a_cancellation_needs_a_reason():
    with pytest.raises(IllegalActionError, match="reason"):
        decide(_in_play(), CancelMatch(reason="  ", by="td"))
