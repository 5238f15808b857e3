"""Deck builders for tests: RULES 3 dealing order (even positions 0..18 to the non-dealer,
odd 1..19 to the dealer, 20 the upcard, 21.. the stock, top first)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import FULL_DECK


def deck_for(
    *,
    non_dealer: Sequence[str],
    dealer: Sequence[str],
    upcard: str,
    stock_top: Sequence[str] = (),
) -> list[str]:
    assert len(non_dealer) == 10 and len(dealer) == 10
    deck: list[str] = []
    for mine, theirs in zip(non_dealer, dealer, strict=True):
        deck += [mine, theirs]
    deck.append(upcard)
    deck += list(stock_top)
    deck += [c for c in FULL_DECK if c not in deck]
    assert len(set(deck)) == 52
    return deck


# The non-dealer holds three runs and the KS: taking the QS upcard, they can knock with 10.
KNOCKER = ["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "KS"]
JUNK = ["2S", "4S", "6S", "8S", "TC", "QC", "KD", "9C", "JD", "5H"]


def knock_deck() -> list[str]:
    return deck_for(non_dealer=KNOCKER, dealer=JUNK, upcard="QS")
