"""Obviously-correct (and slow) reference answers for the solver tests: try every meld
collection and every layoff sequence. Written independently of games.engine.melds."""

from __future__ import annotations

import itertools
from functools import lru_cache

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


# The oracle is checked on its own, so the property tests compare against something sound.


def test_oracle_meld_check() -> None:
    assert meld_ok(["AH", "2H", "3H"])
    assert not meld_ok(["QH", "KH", "AH"])
    assert meld_ok(["9S", "9D", "9H", "9C"])
    assert not meld_ok(["9S", "9D"])
    assert not meld_ok(["7H", "8H", "TH"])


def test_oracle_deadwood_and_layoffs() -> None:
    assert min_deadwood(["7H", "8H", "9H", "9S", "9D"]) == 15
    assert min_after_discard(["7H", "8H", "9H", "KS"]) == 0
    assert defence_deadwood([["6H", "7H", "8H"]], ["9H", "TH", "KS"]) == 10
