"""Test helpers: preset decks in the RULES 3 dealing order and a small match driver."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine import (
    CorrectHand,
    Deal,
    RecordDrawnHand,
    RecordHand,
    Ruleset,
    decide,
    evolve,
    legal_actions,
    needs_deal,
    replay,
    start_match,
)
from games.engine.actions import Action, action_from_dict
from games.engine.cards import FULL_DECK
from games.engine.events import Event
from games.engine.state import MatchState


def make_deck(
    *,
    dealer: Sequence[str],
    non_dealer: Sequence[str],
    upcard: str,
    stock: Sequence[str] = (),
) -> list[str]:
    """A 52-card order that deals `non_dealer` to positions 0,2..18, `dealer` to 1,3..19,
    `upcard` to 20 and starts the stock (position 21 on top) with `stock`; every other card
    follows in FULL_DECK order."""
    assert len(dealer) == 10 and len(non_dealer) == 10
    placed = [*non_dealer, *dealer, upcard, *stock]
    assert len(set(placed)) == len(placed), "a card is placed twice"
    deck: list[str | None] = [None] * 52
    deck[0:20:2] = list(non_dealer)
    deck[1:20:2] = list(dealer)
    deck[20] = upcard
    for i, card in enumerate(stock):
        deck[21 + i] = card
    rest = iter(c for c in FULL_DECK if c not in placed)
    return [c if c is not None else next(rest) for c in deck]


def shuffled_deck(seed: int) -> list[str]:
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def started(
    ruleset: Ruleset | None = None, *, first_dealer: int = 0, mode: str = "online"
) -> MatchState:
    return replay(start_match(ruleset=ruleset or Ruleset(), first_dealer=first_dealer, mode=mode))


def apply(state: MatchState, action: Action) -> tuple[MatchState, list[Event]]:
    """decide then evolve every event, as the service does."""
    events = decide(state, action)
    for event in events:
        state = evolve(state, event)
    return state, events


def dealt(state: MatchState, deck: Sequence[str], salt: str = "salt") -> MatchState:
    return apply(state, Deal(deck=list(deck), salt=salt))[0]


def act(state: MatchState, seat: int, **body: object) -> tuple[MatchState, list[Event]]:
    """A player's action given as the API body, e.g. act(s, 1, type="draw", source="stock")."""
    return apply(state, action_from_dict(seat, dict(body)))


def types(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def random_play(
    state: MatchState, rng: random.Random, *, knock_chance: float = 0.5, max_steps: int = 200
) -> tuple[MatchState, list[Event]]:
    """Random legal moves until the hand in play ends; returns the state and all events."""
    log: list[Event] = []
    for _ in range(max_steps):
        if not state.in_play:
            return state, log
        seat = state.turn
        options = legal_actions(state, seat)
        knocks = [a for a in options if a["type"] == "knock"]
        choice = (
            rng.choice(knocks) if knocks and rng.random() < knock_chance else rng.choice(options)
        )
        state, events = apply(state, action_from_dict(seat, choice))
        log += events
    raise AssertionError("the hand did not end")


def play_match(
    decide_move, seed: int, ruleset: Ruleset | None = None
) -> tuple[MatchState, list[Event]]:
    """A whole online match: seeded decks, moves chosen by decide_move(state, seat)."""
    rng = random.Random(seed)
    log = start_match(ruleset=ruleset or Ruleset(), first_dealer=seed % 2)
    state = replay(log)
    while state.status != "finished":
        if needs_deal(state):
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            action: Action = Deal(deck=deck, salt=f"salt-{state.hand_number}")
        else:
            action = action_from_dict(state.turn, decide_move(state, state.turn))
        state, events = apply(state, action)
        log += events
        assert len(log) < 20_000, "the match does not end"
    return state, log


# --- table mode: hands as entries ------------------------------------------------------
# An entry is None for a drawn hand or (knocker seat, knocker deadwood, defender deadwood);
# gin is knocker deadwood 0.
Entry = tuple[int, int, int] | None

# What a hand record says about its scoring and its place in the match.
SCORING_KEYS = (
    "kind",
    "knocker",
    "winner",
    "points",
    "knocker_deadwood",
    "defender_deadwood",
    "games",
    "dealer",
)


def record_action(entry: Entry) -> Action:
    if entry is None:
        return RecordDrawnHand()
    knocker, k, d = entry
    return RecordHand(knocker=knocker, gin=k == 0, knocker_deadwood=k, defender_deadwood=d)


def correction(hand_number: int, entry: Entry, reason: str = "wrong entry") -> CorrectHand:
    if entry is None:
        return CorrectHand(hand_number=hand_number, reason=reason, by="td", drawn=True)
    knocker, k, d = entry
    return CorrectHand(
        hand_number=hand_number,
        reason=reason,
        by="td",
        knocker=knocker,
        gin=k == 0,
        knocker_deadwood=k,
        defender_deadwood=d,
    )


def recorded(
    entries: Sequence[Entry], ruleset: Ruleset | None = None, *, first_dealer: int = 0
) -> MatchState:
    """A table match with `entries` recorded from the start, as long as it is not over."""
    state = started(ruleset, first_dealer=first_dealer, mode="table")
    for entry in entries:
        if state.status == "finished":
            break
        state, _ = apply(state, record_action(entry))
    return state


def scoring(record: dict) -> dict:
    return {key: record.get(key) for key in SCORING_KEYS}


def counted(state: MatchState) -> list[dict]:
    """The scoring of the hands that count: not voided, not after the end of the match."""
    return [
        scoring(r)
        for r in state.hand_results
        if not r.get("voided") and r["kind"] != "voided" and not r.get("after_end")
    ]


def outcome(state: MatchState) -> tuple:
    """Everything a correction re-derives, but the hand records."""
    return (
        state.scoresheet,
        state.status,
        state.phase,
        state.winner,
        state.finish_reason,
        state.dealer,
    )
