"""Dealing and play (RULES.md 3-7): the deal, the upcard option, drawing, discarding and
knocking, with the defender's layoffs computed by the solver."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine import melds
from games.engine.actions import Deal, Discard, Draw, Knock, Pass
from games.engine.cards import card_index, validate_deck
from games.engine.errors import IllegalActionError, InvalidCardError, NotYourTurnError
from games.engine.events import (
    CardDiscarded,
    CardDrawn,
    DefenceLaidOut,
    Event,
    HandDealt,
    HandDrawn,
    Knocked,
    UpcardPassed,
)
from games.engine.outcomes import score_events
from games.engine.scoresheet import score_hand
from games.engine.state import MatchState, commitment, needs_deal


def decide_deal(state: MatchState, action: Deal) -> list[Event]:
    if not needs_deal(state):
        raise IllegalActionError("no deal is due now", rule="3 dealing")
    deck = validate_deck(action.deck)
    if not isinstance(action.salt, str):
        raise IllegalActionError("the salt must be a string", rule="3 dealing")
    return [
        HandDealt(
            hand_number=state.hand_number + 1,
            dealer=state.dealer if state.dealer is not None else 0,
            deck=list(deck),
            salt=action.salt,
            commitment=commitment(deck, action.salt),
        )
    ]


def _require_turn(state: MatchState, seat: int) -> None:
    if state.mode != "online":
        raise IllegalActionError("in table mode hands are recorded, not played", rule="table mode")
    if not state.in_play:
        raise IllegalActionError("no hand is in play", rule="3 dealing")
    if seat not in (0, 1):
        raise IllegalActionError("there is no seat %(seat)s", rule="seats", seat=repr(seat))
    if seat != state.turn:
        raise NotYourTurnError("it is the other player's move", rule="5 a normal turn")


def decide_pass(state: MatchState, action: Pass) -> list[Event]:
    _require_turn(state, action.seat)
    if state.phase != "upcard":
        raise IllegalActionError(
            "4 the upcard option: passing is only possible on the upcard", rule="4 upcard"
        )
    return [UpcardPassed(seat=action.seat)]


def decide_draw(state: MatchState, action: Draw) -> list[Event]:
    _require_turn(state, action.seat)
    if action.source not in ("stock", "discard"):
        raise IllegalActionError('draw from "stock" or "discard"', rule="5 a normal turn")
    if state.phase == "discard":
        raise IllegalActionError(
            "5 a normal turn: you have drawn already; discard or knock", rule="5 a normal turn"
        )
    if state.phase == "upcard" and action.source == "stock":
        raise IllegalActionError(
            "4 the upcard option: take the upcard or pass; the stock is drawn only after "
            "both players have passed",
            rule="4 upcard",
        )
    if action.source == "discard":
        if state.must_draw_stock:
            raise IllegalActionError(
                "4 the upcard option: both players passed the upcard, so the non-dealer "
                "draws from the stock",
                rule="4 upcard",
            )
        if not state.discard_pile:
            raise IllegalActionError("the discard pile is empty", rule="5 a normal turn")
        card = state.discard_pile[-1]
    else:
        if len(state.stock) <= 2:
            raise IllegalActionError(
                "7 drawn hand: the last two stock cards are never drawn", rule="7 drawn hand"
            )
        card = state.stock[0]
    return [CardDrawn(seat=action.seat, source=action.source, card=card)]


def _require_discardable(state: MatchState, seat: int, card: str) -> None:
    card_index(card)
    if state.phase != "discard":
        raise IllegalActionError("5 a normal turn: draw a card first", rule="5 a normal turn")
    if card not in state.hands[seat]:
        raise InvalidCardError("%(card)s is not in your hand", rule="5 a normal turn", card=card)
    if state.ruleset.discard_restriction and card == state.drawn_from_discard:
        raise IllegalActionError(
            "5 discard restriction: %(card)s was just taken from the discard pile and may not "
            "be discarded this turn",
            rule="5 discard restriction",
            card=card,
        )


def decide_discard(state: MatchState, action: Discard) -> list[Event]:
    _require_turn(state, action.seat)
    _require_discardable(state, action.seat, action.card)
    events: list[Event] = [CardDiscarded(seat=action.seat, card=action.card)]
    if len(state.stock) <= 2:
        events.append(HandDrawn(hand_number=state.hand_number))
    return events


# --- knocking and scoring ---------------------------------------------------------------


def decide_knock(state: MatchState, action: Knock) -> list[Event]:
    _require_turn(state, action.seat)
    _require_discardable(state, action.seat, action.card)
    seat, limit = action.seat, state.ruleset.knock_limit
    rest = [c for c in state.hands[seat] if c != action.card]
    defender_cards = state.hands[1 - seat]
    options: list[melds.Arrangement] = []
    if action.melds is not None:
        arrangement = melds.validate_arrangement(rest, action.melds)
    else:
        options = melds.min_arrangements(rest)
        arrangement = options[0]
    if arrangement.deadwood_value > limit:
        raise IllegalActionError(
            "6 knocking: deadwood %(deadwood)s exceeds the knock limit %(limit)s",
            rule="6 knocking",
            deadwood=arrangement.deadwood_value,
            limit=limit,
        )
    gin = arrangement.deadwood_value == 0
    if options:
        arrangement, defence = _knocker_choice(options, defender_cards, gin)
    else:
        defence = _defence(arrangement, defender_cards, gin)
    kind, winner, points = score_hand(
        state.ruleset,
        knocker=seat,
        gin=gin,
        knocker_deadwood=arrangement.deadwood_value,
        defender_deadwood=defence.deadwood_value,
    )
    return [
        Knocked(
            seat=seat,
            discard=action.card,
            melds=[list(m) for m in arrangement.melds],
            deadwood=list(arrangement.deadwood),
            deadwood_value=arrangement.deadwood_value,
            gin=gin,
        ),
        DefenceLaidOut(
            seat=1 - seat,
            melds=[list(m) for m in defence.melds],
            layoffs=[[card, index] for card, index in defence.layoffs],
            deadwood=list(defence.deadwood),
            deadwood_value=defence.deadwood_value,
        ),
        *score_events(
            state,
            hand_number=state.hand_number,
            kind=kind,
            knocker=seat,
            winner=winner,
            points=points,
            knocker_deadwood=arrangement.deadwood_value,
            defender_deadwood=defence.deadwood_value,
        ),
    ]


def _defence(
    arrangement: melds.Arrangement, defender_cards: Iterable[str], gin: bool
) -> melds.Defence:
    # No layoffs against gin (RULES 6): the defender only arranges their own melds.
    if gin:
        own = melds.best_arrangement(defender_cards)
        return melds.Defence(
            melds=own.melds, layoffs=(), deadwood=own.deadwood, deadwood_value=own.deadwood_value
        )
    return melds.best_defence(arrangement.melds, defender_cards)


def _knocker_choice(
    options: list[melds.Arrangement], defender_cards: Iterable[str], gin: bool
) -> tuple[melds.Arrangement, melds.Defence]:
    """RULES 6 Decision: among the minimal arrangements, the one leaving the defender the
    most deadwood after their best layoffs; ties go to the first in the solver's
    deterministic order."""
    defender_cards = tuple(defender_cards)
    best = None
    for arrangement in options:
        defence = _defence(arrangement, defender_cards, gin)
        if best is None or defence.deadwood_value > best[1].deadwood_value:
            best = (arrangement, defence)
        if gin:  # layoffs do not exist, every arrangement leaves the same deadwood
            break
    assert best is not None
    return best


def knock_options(state: MatchState, seat: int) -> list[str]:
    """Discards after which `seat` could knock (deadwood within the knock limit)."""
    if state.phase != "discard" or state.turn != seat:
        return []
    hand = state.hands[seat]
    return [
        card
        for card in hand
        if not (state.ruleset.discard_restriction and card == state.drawn_from_discard)
        and melds.min_deadwood([c for c in hand if c != card]) <= state.ruleset.knock_limit
    ]


def legal_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every legal action of `seat`, in the shapes `action_from_dict` accepts."""
    if state.status != "in_progress" or not state.in_play or state.turn != seat:
        return []
    if state.phase == "upcard":
        return [{"type": "draw", "source": "discard"}, {"type": "pass"}]
    if state.phase == "draw":
        out: list[dict[str, Any]] = [{"type": "draw", "source": "stock"}]
        if not state.must_draw_stock and state.discard_pile:
            out.append({"type": "draw", "source": "discard"})
        return out
    discards = [
        {"type": "discard", "card": c}
        for c in state.hands[seat]
        if not (state.ruleset.discard_restriction and c == state.drawn_from_discard)
    ]
    return discards + [{"type": "knock", "card": c} for c in knock_options(state, seat)]
