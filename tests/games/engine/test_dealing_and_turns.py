"""RULES 3 (dealing), 4 (upcard option) and 5 (a normal turn)."""

import pytest

from games.engine import (
    Deal,
    Discard,
    Draw,
    IllegalActionError,
    InvalidCardError,
    InvalidDeckError,
    NotYourTurnError,
    Pass,
    Ruleset,
    VoidHand,
    commitment,
    decide,
    legal_actions,
    needs_deal,
)
from games.engine.cards import FULL_DECK, sort_cards
from games.engine.events import CardDrawn, HandDealt

from .helpers import act, apply, dealt, make_deck, shuffled_deck, started, types

NON_DEALER = ["AC", "2C", "3C", "4D", "4H", "4S", "7S", "8S", "9S", "KH"]
DEALER = ["KC", "QD", "JC", "TH", "9D", "8H", "6C", "5D", "3H", "2D"]


def test_dealing_order_decision():
    deck = shuffled_deck(7)
    state = dealt(started(first_dealer=1), deck)
    # dealer is seat 1: positions 0,2..18 to seat 0, 1,3..19 to seat 1, 20 upcard, 21.. stock
    assert state.hands[0] == sort_cards(deck[0:20:2])
    assert state.hands[1] == sort_cards(deck[1:20:2])
    assert state.discard_pile == (deck[20],)
    assert state.stock == tuple(deck[21:])
    assert len(state.stock) == 31
    assert state.phase == "upcard" and state.turn == 0 and state.dealer == 1


def test_deal_event_carries_deck_salt_and_commitment():
    deck = shuffled_deck(3)
    state = started(first_dealer=0)
    assert needs_deal(state)
    events = decide(state, Deal(deck=deck, salt="pepper"))
    assert events == [
        HandDealt(
            hand_number=1,
            dealer=0,
            deck=deck,
            salt="pepper",
            commitment=commitment(deck, "pepper"),
        )
    ]
    assert commitment(deck, "pepper") != commitment(deck, "salt")
    assert commitment(deck, "pepper") != commitment(list(reversed(deck)), "pepper")
    assert len(commitment(deck, "x")) == 64


def test_make_deck_places_cards_in_dealing_order():
    deck = make_deck(dealer=DEALER, non_dealer=NON_DEALER, upcard="TS", stock=["QS"])
    state = dealt(started(first_dealer=0), deck)
    assert state.hands[0] == sort_cards(DEALER)
    assert state.hands[1] == sort_cards(NON_DEALER)
    assert state.discard_pile == ("TS",) and state.stock[0] == "QS"


@pytest.mark.parametrize(
    "deck",
    [list(FULL_DECK[:51]), [*FULL_DECK[:51], "AC"], [*FULL_DECK[:51], "XX"]],
)
def test_bad_deck_is_refused(deck):
    with pytest.raises(InvalidDeckError):
        decide(started(), Deal(deck=deck, salt="s"))


def test_deal_only_when_due():
    state = dealt(started(), shuffled_deck(1))
    assert not needs_deal(state)
    with pytest.raises(IllegalActionError, match="no deal"):
        decide(state, Deal(deck=shuffled_deck(2), salt="s"))


def _fresh(first_dealer: int = 0, ruleset: Ruleset | None = None):
    deck = make_deck(dealer=DEALER, non_dealer=NON_DEALER, upcard="TS", stock=["QS", "5H"])
    return dealt(started(ruleset, first_dealer=first_dealer), deck)


def test_upcard_non_dealer_takes_then_dealer_plays_normal_turn():
    state = _fresh()
    assert legal_actions(state, 1) == [{"type": "draw", "source": "discard"}, {"type": "pass"}]
    assert legal_actions(state, 0) == []
    state, events = act(state, 1, type="draw", source="discard")
    assert events == [CardDrawn(seat=1, source="discard", card="TS")]
    assert "TS" in state.hands[1] and state.discard_pile == ()
    state, _ = act(state, 1, type="discard", card="KH")
    assert state.turn == 0 and state.phase == "draw"
    assert legal_actions(state, 0) == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard"},
    ]


def test_upcard_non_dealer_passes_then_dealer_takes():
    state = _fresh()
    with pytest.raises(NotYourTurnError):
        decide(state, Pass(seat=0))
    state, events = act(state, 1, type="pass")
    assert types(events) == ["UpcardPassed"] and state.turn == 0 and state.phase == "upcard"
    state, _ = act(state, 0, type="draw", source="discard")
    state, _ = act(state, 0, type="discard", card="KC")
    assert state.turn == 1 and state.phase == "draw" and state.discard_pile == ("KC",)
    state, _ = act(state, 1, type="draw", source="discard")  # a normal turn: pile allowed
    assert "KC" in state.hands[1]


def test_both_pass_then_non_dealer_draws_from_stock():
    state = _fresh()
    state, _ = act(state, 1, type="pass")
    state, _ = act(state, 0, type="pass")
    assert state.turn == 1 and state.must_draw_stock
    assert legal_actions(state, 1) == [{"type": "draw", "source": "stock"}]
    with pytest.raises(IllegalActionError, match="4 the upcard option"):
        decide(state, Draw(seat=1, source="discard"))
    with pytest.raises(NotYourTurnError):
        decide(state, Draw(seat=0, source="stock"))
    state, events = act(state, 1, type="draw", source="stock")
    assert events == [CardDrawn(seat=1, source="stock", card="QS")]
    assert state.stock[0] == "5H" and len(state.stock) == 30


def test_stock_is_not_drawn_on_the_upcard():
    state = _fresh()
    with pytest.raises(IllegalActionError, match="upcard") as info:
        decide(state, Draw(seat=1, source="stock"))
    assert info.value.rule == "4 upcard"


def test_pass_only_on_the_upcard():
    state = _fresh()
    state, _ = act(state, 1, type="draw", source="discard")
    state, _ = act(state, 1, type="discard", card="KH")
    with pytest.raises(IllegalActionError):
        decide(state, Pass(seat=0))


def test_turn_order_and_phase_errors():
    state = _fresh()
    with pytest.raises(IllegalActionError, match="draw a card first"):
        decide(state, Discard(seat=1, card="KH"))
    state, _ = act(state, 1, type="draw", source="discard")
    with pytest.raises(IllegalActionError, match="drawn already"):
        decide(state, Draw(seat=1, source="stock"))
    with pytest.raises(NotYourTurnError) as info:
        decide(state, Discard(seat=0, card="KC"))
    assert info.value.code == "not_your_turn"
    with pytest.raises(InvalidCardError):
        decide(state, Discard(seat=1, card="KC"))  # the dealer's card
    with pytest.raises(InvalidCardError):
        decide(state, Discard(seat=1, card="ZZ"))
    with pytest.raises(IllegalActionError):
        decide(state, Discard(seat=7, card="KH"))


def test_discard_restriction_variant():
    state = _fresh(ruleset=Ruleset(discard_restriction=True))
    state, _ = act(state, 1, type="draw", source="discard")
    assert {"type": "discard", "card": "TS"} not in legal_actions(state, 1)
    with pytest.raises(IllegalActionError, match="discard restriction") as info:
        decide(state, Discard(seat=1, card="TS"))
    assert info.value.rule == "5 discard restriction"
    state, _ = act(state, 1, type="discard", card="KH")
    # a card drawn from the stock may be discarded at once
    state, _ = act(state, 0, type="draw", source="stock")
    state, _ = act(state, 0, type="discard", card="QS")
    assert state.discard_pile[-1] == "QS"


def test_without_restriction_the_taken_card_may_go_back():
    state = _fresh()
    state, _ = act(state, 1, type="draw", source="discard")
    assert {"type": "discard", "card": "TS"} in legal_actions(state, 1)
    state, _ = act(state, 1, type="discard", card="TS")
    assert state.discard_pile == ("TS",)


def test_hand_numbers_and_deal_after_end():
    state = _fresh()
    assert state.hand_number == 1
    state, _ = apply(state, VoidHand(reason="misdeal", by="organiser"))
    state = dealt(state, shuffled_deck(5))
    assert state.hand_number == 2
