"""Engine test helpers: preset decks in the RULES 3 dealing order, a small match driver,
hands entered in table mode, and the meld oracle with meld-rich hands for the solver tests."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import lru_cache

from hypothesis import strategies as st

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


# --- the meld oracle ----------------------------------------------------------------
# Obviously-correct (and slow) reference answers for the solver tests: try every meld
# collection and every layoff sequence. Written independently of games.engine.melds.


RANKS = "A23456789TJQK"
SUITS = "CDHS"


def value(card: str) -> int:
    return min(RANKS.index(card[0]) + 1, 10)


def meld_ok(cards) -> bool:
    """A set of 3-4 of one rank, or a run of 3+ consecutive ranks of one suit (ace low)."""
    cards = list(cards)
    if len(set(cards)) != len(cards) or len(cards) < 3:
        return False
    ranks = sorted(RANKS.index(c[0]) for c in cards)
    if len(cards) <= 4 and len(set(ranks)) == 1:
        return True
    one_suit = len({c[1] for c in cards}) == 1
    return one_suit and ranks == list(range(ranks[0], ranks[0] + len(cards)))


def _every_meld() -> list[frozenset[str]]:
    """All melds of the deck: every 3 or 4 suits of a rank, every window of 3+ in a suit."""
    melds = [
        frozenset(rank + suit for suit in suits)
        for rank in RANKS
        for size in (3, 4)
        for suits in itertools.combinations(SUITS, size)
    ]
    melds += [
        frozenset(RANKS[r] + suit for r in range(low, high))
        for suit in SUITS
        for low in range(13)
        for high in range(low + 3, 14)
    ]
    assert all(meld_ok(m) for m in melds)
    return melds


EVERY_MELD = _every_meld()


def all_melds(hand) -> list[frozenset[str]]:
    hand = frozenset(hand)
    return [meld for meld in EVERY_MELD if meld <= hand]


def min_deadwood(hand) -> int:
    return _min_deadwood(frozenset(hand))


@lru_cache(maxsize=200_000)
def _min_deadwood(hand: frozenset[str]) -> int:
    """The lowest card is either deadwood or in one of the melds that contain it."""
    if not hand:
        return 0
    card = min(hand)
    best = value(card) + _min_deadwood(hand - {card})
    for meld in all_melds(hand):
        if card in meld:
            best = min(best, _min_deadwood(hand - meld))
    return best


def min_arrangements(hand) -> set[frozenset[frozenset[str]]]:
    """Every minimal collection of melds, with adjacent runs of a suit merged (cutting a run
    in two changes nothing that matters)."""
    hand = frozenset(hand)
    best = _min_deadwood(hand)
    found: set[frozenset[frozenset[str]]] = set()

    def search(rest: frozenset[str], dead: int, chosen: tuple) -> None:
        if dead + _min_deadwood(rest) > best:
            return
        if not rest:
            found.add(_merge_runs(chosen))
            return
        card = min(rest)
        search(rest - {card}, dead + value(card), chosen)
        for meld in all_melds(rest):
            if card in meld:
                search(rest - meld, dead, (*chosen, meld))

    search(hand, 0, ())
    return found


def _merge_runs(melds) -> frozenset[frozenset[str]]:
    melds = list(melds)
    merged = True
    while merged:
        merged = False
        for a, b in itertools.combinations(melds, 2):
            if _is_run(a) and _is_run(b) and meld_ok(a | b):
                melds.remove(a)
                melds.remove(b)
                melds.append(a | b)
                merged = True
                break
    return frozenset(melds)


def _is_run(meld) -> bool:
    return len({c[1] for c in meld}) == 1


def min_after_discard(hand) -> int:
    hand = frozenset(hand)
    return min(_min_deadwood(hand - {card}) for card in hand)


def defence_deadwood(knocker_melds, defender) -> int:
    """Least deadwood the defender can reach: lay off any sequence of cards, each of which
    must make a valid meld with the (grown) knocker meld, then meld the rest optimally."""
    return _defence(frozenset(defender), tuple(frozenset(m) for m in knocker_melds))


@lru_cache(maxsize=100_000)
def _defence(rest: frozenset[str], melds: tuple[frozenset[str], ...]) -> int:
    best = _min_deadwood(rest)
    for card in rest:
        for i, meld in enumerate(melds):
            if meld_ok(meld | {card}):
                grown = (*melds[:i], meld | {card}, *melds[i + 1 :])
                best = min(best, _defence(rest - {card}, grown))
    return best


# --- meld-rich hands ------------------------------------------------------------------


def _group(kind: int, a: int, b: int) -> list[str]:
    """A run (of 2-5 cards), a set (of 2-4 suits) or a single card, from small integers."""
    if kind == 0:
        suit, low, length = SUITS[a % 4], b % 12, 2 + a // 4 % 4
        return [RANKS[r] + suit for r in range(low, min(low + length, 13))]
    if kind == 1:
        rank, suits = RANKS[b % 13], a % 16 | 1 << a // 16 % 4
        return [rank + SUITS[s] for s in range(4) if suits >> s & 1]
    return [FULL_DECK[a * 7 + b & 51]]


@st.composite
def meld_rich_hands(draw, max_size: int = 11, min_size: int = 0) -> list[str]:
    """Hands built from runs, sets and near-melds, so the solver meets real choices."""
    size = draw(st.integers(min_size, max_size))
    parts = draw(
        st.lists(
            st.tuples(st.integers(0, 2), st.integers(0, 63), st.integers(0, 51)),
            min_size=6,
            max_size=8,
        )
    )
    cards: list[str] = []
    for kind, a, b in parts:
        cards.extend(c for c in _group(kind, a, b) if c not in cards)
    return cards[:size]
