"""RULES 7 drawn hand (two stock cards left) and RULES 3 who deals next."""

import pytest

from games.engine import Draw, IllegalActionError, decide, legal_actions, needs_deal
from games.engine.cards import FULL_DECK

from .helpers import act, dealt, make_deck, shuffled_deck, started, types

KNOCKER = ["AC", "2C", "3C", "4D", "4H", "4S", "7S", "8S", "9S", "KH"]
LOOSE = ["KC", "QD", "JC", "TH", "9D", "8H", "6C", "5D", "3H", "2D"]


def _deck_with_ts_as_29th_stock_card():
    used = {*KNOCKER, *LOOSE, "QH", "TS"}
    fillers = [c for c in FULL_DECK if c not in used][:28]
    return make_deck(dealer=LOOSE, non_dealer=KNOCKER, upcard="QH", stock=[*fillers, "TS"])


def _play_down_to_two(state):
    """Both pass; then each player draws from the stock and discards the drawn card, until
    the non-dealer has drawn the 29th stock card (two left)."""
    state, _ = act(state, 1, type="pass")
    state, _ = act(state, 0, type="pass")
    for _ in range(28):
        seat = state.turn
        top = state.stock[0]
        state, _ = act(state, seat, type="draw", source="stock")
        assert top in state.hands[seat]
        state, events = act(state, seat, type="discard", card=top)
        assert types(events) == ["CardDiscarded"], "the hand ended too early"
    assert state.turn == 1 and len(state.stock) == 3
    state, _ = act(state, 1, type="draw", source="stock")
    assert len(state.stock) == 2 and "TS" in state.hands[1]
    return state


def test_hand_is_drawn_when_a_discard_leaves_two_stock_cards():
    state = dealt(started(first_dealer=0), _deck_with_ts_as_29th_stock_card())
    state = _play_down_to_two(state)
    state, events = act(state, 1, type="discard", card="TS")
    assert types(events) == ["CardDiscarded", "HandDrawn"]
    assert events[1].hand_number == 1
    assert needs_deal(state) and state.dealer == 0  # the same dealer deals again
    assert state.hand_results[-1]["kind"] == "drawn"
    assert state.scoresheet.games[0].scores == (0, 0)
    state = dealt(state, shuffled_deck(1))
    assert state.hand_number == 2 and state.dealer == 0


def test_the_player_who_leaves_two_may_still_knock():
    state = dealt(started(first_dealer=0), _deck_with_ts_as_29th_stock_card())
    state = _play_down_to_two(state)
    assert {"type": "knock", "card": "KH"} in legal_actions(state, 1)
    state, events = act(state, 1, type="knock", card="KH")
    assert types(events) == ["Knocked", "DefenceLaidOut", "HandScored"]
    assert events[0].gin and events[2].winner == 1
    assert state.dealer == 1


def test_the_last_two_stock_cards_are_never_drawn():
    state = dealt(started(first_dealer=0), _deck_with_ts_as_29th_stock_card())
    state = _play_down_to_two(state)
    assert len(state.stock) == 2
    # the only way on is to knock or discard; a draw is out of turn-phase anyway
    with pytest.raises(IllegalActionError):
        decide(state, Draw(seat=1, source="stock"))


def test_winner_deals_next_hand():
    deck = make_deck(dealer=LOOSE, non_dealer=KNOCKER, upcard="2H")
    state = dealt(started(first_dealer=0), deck)
    state, _ = act(state, 1, type="draw", source="discard")
    state, events = act(state, 1, type="knock", card="KH")
    assert events[-1].winner == 1 and state.dealer == 1
    state = dealt(state, shuffled_deck(4))
    assert state.dealer == 1 and state.turn == 0 and state.hand_number == 2
