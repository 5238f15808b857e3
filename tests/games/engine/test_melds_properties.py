"""Property tests: the solver against the brute-force oracle on random and meld-rich hands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import FULL_DECK, card_value, to_mask
from games.engine.melds import (
    Arrangement,
    best_arrangement,
    best_discard,
    discard_deadwoods,
    is_meld,
    min_arrangements,
    min_deadwood,
    min_deadwood_mask,
    validate_arrangement,
)
from tests.games.engine import helpers as oracle
from tests.games.engine.helpers import meld_rich_hands

RANKS = "A23456789TJQK"
SUITS = "CDHS"


any_hands = st.lists(st.sampled_from(FULL_DECK), unique=True, max_size=11)
hands = st.one_of(any_hands, meld_rich_hands())


def assert_sound(hand: list[str], arrangement: Arrangement) -> None:
    used = [c for meld in arrangement.melds for c in meld]
    assert all(is_meld(meld) for meld in arrangement.melds)
    assert len(used) == len(set(used))  # melds are disjoint
    assert sorted(used + list(arrangement.deadwood)) == sorted(hand)
    assert arrangement.deadwood_value == sum(card_value(c) for c in arrangement.deadwood)
    assert validate_arrangement(hand, arrangement.melds) == arrangement


@settings(max_examples=250, deadline=None)
@given(hands)
def test_deadwood_is_the_brute_force_minimum(hand: list[str]) -> None:
    expected = oracle.min_deadwood(hand)
    assert min_deadwood(hand) == expected
    assert min_deadwood_mask(to_mask(hand)) == expected
    arrangement = best_arrangement(hand)
    assert arrangement.deadwood_value == expected
    assert_sound(hand, arrangement)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_min_arrangements_are_all_the_minima(hand: list[str]) -> None:
    found = min_arrangements(hand)
    for arrangement in found:
        assert_sound(hand, arrangement)
    assert len({a.melds for a in found}) == len(found)
    as_sets = {frozenset(frozenset(m) for m in a.melds) for a in found}
    assert as_sets == oracle.min_arrangements(hand)
    assert min_arrangements(list(reversed(hand))) == found


@settings(max_examples=150, deadline=None)
@given(st.one_of(meld_rich_hands(max_size=11), any_hands).filter(bool))
def test_best_discard_is_the_best_of_every_discard(hand: list[str]) -> None:
    card, deadwood = best_discard(hand)
    assert card in hand
    assert deadwood == oracle.min_after_discard(hand)
    # Tie-break among the equally good discards: the highest rank, then the first suit.
    best = [c for c in hand if oracle.min_deadwood(set(hand) - {c}) == deadwood]
    assert card == min(best, key=lambda c: (-RANKS.index(c[0]), SUITS.index(c[1])))
    assert min_deadwood([c for c in hand if c != card]) == deadwood
    assert best_discard(list(reversed(hand))) == (card, deadwood)


@settings(max_examples=200, deadline=None)
@given(hands)
def test_discard_deadwoods_per_card(hand: list[str]) -> None:
    found = discard_deadwoods(hand)
    assert sorted(found) == sorted(hand)
    for card, deadwood in found.items():
        assert deadwood == oracle.min_deadwood(set(hand) - {card})
    if hand:
        assert best_discard(hand)[1] == min(found.values())
