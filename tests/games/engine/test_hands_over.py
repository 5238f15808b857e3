"""Which hands are over, and so may be revealed to the match's players and organisers: a
hand ends by its own events (scored, drawn, voided) or, if it is still in play, when the
match ends however it ends (on the games, forfeit, resignation, cancelled): it can then
never continue. A hand cut short that way gets an "unfinished" record, like a finished one."""

import pytest

from games.engine import (
    AdjustScore,
    CancelMatch,
    Deal,
    Forfeit,
    Resign,
    Ruleset,
    VoidHand,
    commitment,
    event_to_dict,
    event_type,
    start_match,
)
from games.engine.bot import choose_action
from games.engine.view import ends_hand, hands_over, public_view, unfinished_hand

from .helpers import act, apply, play_match, shuffled_deck, started

MATCH_ENDINGS = {
    "cancelled": CancelMatch(reason="round re-paired", by="td"),
    "forfeit": Forfeit(winner=0, reason="no show", by="td"),
    "resigned": Resign(seat=1),
    "games": AdjustScore(seat=0, game=1, points=100, reason="miscount", by="td"),
}


def _stored(events):
    return [(event_type(e), event_to_dict(e)) for e in events]


def _mid_hand(ruleset=None):
    """A dealt hand with a few moves made (a card drawn from the stock), and its events."""
    log = start_match(ruleset=ruleset or Ruleset(), first_dealer=0)
    state = started(ruleset, first_dealer=0)
    state, deal = apply(state, _deal(12))
    log += deal
    for body in ({"type": "pass"}, {"type": "pass"}, {"type": "draw", "source": "stock"}):
        state, events = act(state, state.turn, **body)
        log += events
    return state, log


def _deal(seed):
    return Deal(deck=shuffled_deck(seed), salt="pepper")


def test_a_hand_in_play_is_not_over():
    state, log = _mid_hand()
    assert state.in_play
    assert hands_over(_stored(log)) == set()
    assert unfinished_hand(state) is None
    assert all(r["kind"] != "unfinished" for r in public_view(state, None)["hands"])


@pytest.mark.parametrize("reason", sorted(MATCH_ENDINGS))
def test_the_end_of_the_match_ends_the_hand_in_play(reason):
    state, log = _mid_hand(Ruleset(games=1) if reason == "games" else None)
    deck, hands, stock = list(state.deck), state.hands, list(state.stock)
    state, ending = apply(state, MATCH_ENDINGS[reason])
    assert state.status == "finished" and state.finish_reason == reason
    stored = _stored(log + ending)
    assert hands_over(stored) == {1}
    assert any(ends_hand(kind, data, 1) for kind, data in _stored(ending))
    record = unfinished_hand(state)
    assert record is not None
    assert record["kind"] == "unfinished" and record["reason"] == reason
    assert record["hand_number"] == 1 and record["dealer"] == 0
    assert record["deck"] == deck and record["salt"] == "pepper"
    assert commitment(record["deck"], record["salt"]) == record["commitment"]
    assert record["hands"] == [list(hands[0]), list(hands[1])] and record["stock"] == stock
    for seat in (0, 1, None):
        assert public_view(state, seat)["hands"] == [record]


def test_a_voided_hand_is_over_and_the_next_one_is_not():
    state, log = _mid_hand()
    state, voided = apply(state, VoidHand(reason="card exposed", by="td"))
    state, redeal = apply(state, _deal(13))
    assert hands_over(_stored(log + voided + redeal)) == {1}
    assert not ends_hand("HandVoided", {"hand_number": 1}, 2)
    assert unfinished_hand(state) is None  # hand 2 is in play; hand 1 has its own record
    assert [r["kind"] for r in public_view(state, 0)["hands"]] == ["voided"]


def test_a_match_won_on_the_games_leaves_no_hand_unfinished():
    state, log = play_match(choose_action, seed=5)
    stored = _stored(log)
    dealt_hands = {data["hand_number"] for kind, data in stored if kind == "HandDealt"}
    assert hands_over(stored) == dealt_hands
    assert unfinished_hand(state) is None
    assert all(r["kind"] != "unfinished" for r in public_view(state, 0)["hands"])


def test_a_table_match_ended_early_has_no_unfinished_hand():
    state, _ = apply(started(mode="table"), CancelMatch(reason="r", by="td"))
    assert unfinished_hand(state) is None and public_view(state, None)["hands"] == []
