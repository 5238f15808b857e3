"""A simple, deterministic bot. It uses only what its seat may know: its own hand, the
discard pile and the cards the opponent took face up from the pile."""

from __future__ import annotations

from typing import Any

from games.engine.cards import card_index, card_value, rank_of, suit_of, to_mask
from games.engine.errors import IllegalActionError
from games.engine.match import legal_actions
from games.engine.melds import min_deadwood_mask
from games.engine.state import MatchState


def choose_action(state: MatchState, seat: int) -> dict[str, Any]:
    """One element of legal_actions(state, seat):
    - take the upcard / top discard when it lowers the best deadwood after discarding,
      otherwise pass (upcard) or draw from the stock;
    - knock as soon as it is legal, with the discard leaving the least deadwood;
    - otherwise discard the card whose removal leaves the least deadwood; ties: a card that
      does not fit what the opponent picked up, then the highest value, then card order."""
    actions = legal_actions(state, seat)
    if not actions:
        raise IllegalActionError("seat %(seat)s has no move now", rule="5 a normal turn", seat=seat)
    hand = state.hands[seat]
    if state.phase in ("upcard", "draw"):
        return _draw_choice(actions, hand, state.discard_pile)
    knocks: list[str] = [a["card"] for a in actions if a["type"] == "knock"]
    if knocks:
        return {"type": "knock", "card": min(knocks, key=lambda c: _discard_key(hand, c, ()))}
    fed = tuple(card for who, card in state.picked_up if who != seat)
    discards: list[str] = [a["card"] for a in actions if a["type"] == "discard"]
    return {"type": "discard", "card": min(discards, key=lambda c: _discard_key(hand, c, fed))}


def _draw_choice(
    actions: list[dict[str, Any]], hand: tuple[str, ...], pile: tuple[str, ...]
) -> dict[str, Any]:
    can_take = {"type": "draw", "source": "discard"} in actions
    if can_take and pile:
        top = pile[-1]
        mask = to_mask(hand)
        now = min_deadwood_mask(mask)
        with_top = mask | 1 << card_index(top)
        after = min(min_deadwood_mask(with_top & ~(1 << card_index(c))) for c in hand)
        if after < now:
            return {"type": "draw", "source": "discard"}
    if {"type": "pass"} in actions:
        return {"type": "pass"}
    return {"type": "draw", "source": "stock"}


def _discard_key(hand: tuple[str, ...], card: str, fed: tuple[str, ...]) -> tuple[int, ...]:
    left = to_mask(hand) & ~(1 << card_index(card))
    return (min_deadwood_mask(left), _feeds(card, fed), -card_value(card), card_index(card))


def _feeds(card: str, picked: tuple[str, ...]) -> int:
    """1 if the card would fit a set or run with a card the opponent took face up."""
    for other in picked:
        if rank_of(other) == rank_of(card):
            return 1
        if suit_of(other) == suit_of(card) and abs(rank_of(other) - rank_of(card)) <= 2:
            return 1
    return 0
