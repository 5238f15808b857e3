"""The bot: legal, deterministic, sensible, and blind to what its seat cannot know."""

import random
from dataclasses import replace

import pytest

from games.engine import legal_actions
from games.engine.bot import choose_action
from games.engine.cards import sort_cards
from games.engine.events import Knocked

from .helpers import act, dealt, make_deck, play_match, shuffled_deck, started

HAND = ["7H", "8H", "AC", "2C", "3C", "4D", "4S", "4H", "KS", "QD"]
OTHER = ["KC", "QC", "JD", "TD", "9D", "8C", "6C", "5D", "3H", "2D"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_bots_finish_a_three_game_match(seed):
    checked = []

    def move(state, seat):
        choice = choose_action(state, seat)
        assert choice in legal_actions(state, seat)
        checked.append(choice)
        return choice

    state, log = play_match(move, seed=seed)
    assert state.status == "finished" and state.winner in (0, 1)
    assert all(not g.open for g in state.scoresheet.games)
    assert any(isinstance(e, Knocked) for e in log) and len(checked) > 20


def test_bots_are_deterministic():
    assert play_match(choose_action, seed=9) == play_match(choose_action, seed=9)


def test_takes_the_upcard_when_it_lowers_the_deadwood():
    deck = make_deck(dealer=OTHER, non_dealer=HAND, upcard="9H")
    state = dealt(started(first_dealer=0), deck)
    assert choose_action(state, 1) == {"type": "draw", "source": "discard"}
    useless = make_deck(dealer=OTHER, non_dealer=HAND, upcard="JS")
    assert choose_action(dealt(started(first_dealer=0), useless), 1) == {"type": "pass"}


def test_draws_from_the_stock_when_the_discard_does_not_help():
    deck = make_deck(dealer=OTHER, non_dealer=HAND, upcard="JS")
    state = dealt(started(first_dealer=0), deck)
    state, _ = act(state, 1, type="pass")
    state, _ = act(state, 0, type="pass")
    assert choose_action(state, 1) == {"type": "draw", "source": "stock"}


def test_knocks_as_soon_as_it_can():
    deck = make_deck(dealer=OTHER, non_dealer=HAND, upcard="9H")
    state = dealt(started(first_dealer=0), deck)
    state, _ = act(state, 1, type="draw", source="discard")
    # melds 7H-9H, AC-3C, 4s; deadwood KS QD: either discard leaves 10 -> knock; on the tie
    # the lower card in suit order (QD before KS) goes
    assert choose_action(state, 1) == {"type": "knock", "card": "QD"}


def test_discards_the_card_leaving_least_deadwood_highest_first():
    deck = make_deck(dealer=OTHER, non_dealer=HAND, upcard="JS", stock=["2S"])
    state = dealt(started(first_dealer=0), deck)
    state, _ = act(state, 1, type="pass")
    state, _ = act(state, 0, type="pass")
    state, _ = act(state, 1, type="draw", source="stock")
    # deadwood 7H 8H KS QD 2S: dropping KS or QD leaves 27, 8H 29, 7H 30, 2S 35
    assert choose_action(state, 1) == {"type": "discard", "card": "QD"}


def test_avoids_feeding_the_opponent_on_ties():
    # seat 0 (the dealer) took the upcard QH; seat 1 then holds QC and KS, equally bad
    hand = ["AC", "2C", "3C", "5D", "6D", "7D", "9S", "9H", "QC", "KS"]
    dealer = ["AH", "2H", "3H", "4C", "5C", "6C", "JC", "8D", "TH", "KH"]
    deck = make_deck(dealer=dealer, non_dealer=hand, upcard="QH", stock=["2S"])
    state = dealt(started(first_dealer=0), deck)
    state, _ = act(state, 1, type="pass")
    state, _ = act(state, 0, type="draw", source="discard")
    state, _ = act(state, 0, type="discard", card="JC")
    state, _ = act(state, 1, type="draw", source="stock")
    # QC (fits the QH picked up) and KS leave the same deadwood: KS goes
    assert choose_action(state, 1) == {"type": "discard", "card": "KS"}
    # without that pick-up the suit-order tie-break would let QC go
    assert choose_action(replace(state, picked_up=()), 1) == {"type": "discard", "card": "QC"}


def test_uses_only_what_its_seat_may_know():
    """Shuffling the cards a seat cannot see (the stock and the opponent's hand, except
    cards taken face up) never changes the bot's choice."""
    rng = random.Random(5)
    state = dealt(started(first_dealer=1), shuffled_deck(5))
    compared = 0
    while state.in_play:
        seat = state.turn
        public = {card for _, card in state.picked_up}
        hidden = [c for c in (*state.hands[1 - seat], *state.stock) if c not in public]
        rng.shuffle(hidden)
        opponent = [c for c in state.hands[1 - seat] if c in public]
        need = len(state.hands[1 - seat]) - len(opponent)
        hands = list(state.hands)
        hands[1 - seat] = sort_cards([*opponent, *hidden[:need]])
        other = replace(state, hands=tuple(hands), stock=tuple(hidden[need:]))
        choice = choose_action(state, seat)
        assert choose_action(other, seat) == choice
        compared += 1
        state, _ = act(state, seat, **choice)
    assert compared > 5
