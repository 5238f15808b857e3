"""Melds, deadwood and layoffs (RULES.md sections 2 and 6).

How the solver finds the true minimum in one pass: only ranks held three or more times can
form sets, so the search enumerates the few ways of using those ranks in sets (at most 72
for 11 cards, usually one or two). Whatever is left can only form runs, runs stay inside a
suit, and the best run use of one suit is a precomputed table lookup on its 13-bit mask
(see _meldtables). A hand is a 52-bit mask, card index = suit * 13 + rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine import _defence
from games.engine._meldtables import (
    DEAD,
    DROP,
    NO_CARD,
    SUIT_BITS,
    SUIT_FULL,
    blocks,
    set_choices,
    set_lefts,
    set_ranks,
)
from games.engine.cards import (
    FULL_DECK,
    VALUES,
    card_index,
    parse_cards,
    sort_cards,
    to_mask,
)
from games.engine.errors import InvalidMeldError

MELD_RULE = "2 melds"
DROP0, DROP1, DROP2, DROP3 = DROP


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[tuple[str, ...], ...]  # each meld sorted with cards.sort_cards; melds sorted
    deadwood: tuple[str, ...]  # sorted
    deadwood_value: int


@dataclass(frozen=True)
class Defence:
    melds: tuple[tuple[str, ...], ...]  # the defender's own melds
    layoffs: tuple[tuple[str, int], ...]  # (card, index into the knocker's melds), play order
    deadwood: tuple[str, ...]
    deadwood_value: int


# ---------------------------------------------------------------------------- meld checks


def is_set(cards: Iterable[str]) -> bool:
    """Three or four cards of one rank."""
    indexes = _distinct_indexes(cards)
    return indexes is not None and 3 <= len(indexes) <= 4 and len({i % 13 for i in indexes}) == 1


def is_run(cards: Iterable[str]) -> bool:
    """Three or more cards of one suit in consecutive rank order, ace low (no wrap-around)."""
    indexes = _distinct_indexes(cards)
    if indexes is None or len(indexes) < 3 or len({i // 13 for i in indexes}) != 1:
        return False
    ordered = sorted(indexes)
    return ordered[-1] - ordered[0] == len(ordered) - 1


def is_meld(cards: Iterable[str]) -> bool:
    cards = tuple(cards)
    return is_set(cards) or is_run(cards)


def _distinct_indexes(cards: Iterable[str]) -> list[int] | None:
    indexes = [card_index(code) for code in cards]
    return indexes if len(set(indexes)) == len(indexes) else None


# ------------------------------------------------------------------------------ fast path


def _run_deadwood(left: int) -> int:
    """Deadwood of cards that may only form runs: one table lookup per suit."""
    return (
        DEAD[left & SUIT_FULL]
        + DEAD[left >> 13 & SUIT_FULL]
        + DEAD[left >> 26 & SUIT_FULL]
        + DEAD[left >> 39]
    )


def min_deadwood_mask(mask: int) -> int:
    """Minimum deadwood of the hand given as a 52-bit mask."""
    ranks = set_ranks(mask)
    if not ranks:  # no rank held three times: runs only, four lookups
        return _run_deadwood(mask)
    return min(_run_deadwood(left) for left in set_lefts(mask, ranks, for_discard=False))


def best_discard_mask(mask: int) -> tuple[int, int]:
    """(index of the card to discard, minimum deadwood of the rest) for a non-empty hand.

    One search instead of one solve per candidate: for each choice of sets the discard is
    the one card left out of the runs-only remainder, and the DROP tables give each suit's
    best card to leave out. Ties go to the highest rank, then the first suit (C D H S).
    """
    ranks = set_ranks(mask)
    lefts = set_lefts(mask, ranks, for_discard=True) if ranks else (mask,)
    best = NO_CARD
    for left in lefts:
        s0, s1, s2 = left & SUIT_FULL, left >> 13 & SUIT_FULL, left >> 26 & SUIT_FULL
        s3 = left >> 39
        key = (DEAD[s0] + DEAD[s1] + DEAD[s2] + DEAD[s3]) * 64 + min(
            DROP0[s0], DROP1[s1], DROP2[s2], DROP3[s3]
        )
        if key < best:
            best = key
    if best >= NO_CARD:
        raise InvalidMeldError("there is no card to discard", rule=MELD_RULE)
    suit = best & 3
    rank = 12 - (best >> 2 & 15)
    return suit * SUIT_BITS + rank, best >> 6


def discard_deadwoods_mask(mask: int) -> dict[int, int]:
    """For every card of the hand: the minimum deadwood of the rest once it is discarded.

    The same single search as best_discard_mask, keeping the best per card: within one
    choice of sets, leaving card c out of the runs-only remainder changes only its suit's
    lookup. Set choices are not pruned: any card, even one of a set, may be the discard.
    """
    ranks = set_ranks(mask)
    lefts = set_lefts(mask, ranks, for_discard=True, prune=False) if ranks else (mask,)
    best: dict[int, int] = {}
    for left in lefts:
        total = _run_deadwood(left)
        for base in (0, 13, 26, 39):
            suit = left >> base & SUIT_FULL
            rest = suit
            while rest:
                bit = rest & -rest
                rest ^= bit
                deadwood = total - DEAD[suit] + DEAD[suit ^ bit]
                card = base + bit.bit_length() - 1
                if deadwood < best.get(card, NO_CARD):
                    best[card] = deadwood
    return best


# ----------------------------------------------------------------------------- public API


def min_deadwood(cards: Iterable[str]) -> int:
    return min_deadwood_mask(_hand_mask(cards))


def best_discard(cards: Iterable[str]) -> tuple[str, int]:
    """For a hand after drawing (normally 11 cards): (discard, minimum deadwood of the cards
    left). Among equally good discards: the highest rank, then the first suit (C D H S)."""
    index, deadwood = best_discard_mask(_hand_mask(cards))
    return FULL_DECK[index], deadwood


def discard_deadwoods(cards: Iterable[str]) -> dict[str, int]:
    """For a hand after drawing: each card -> the minimum deadwood of the cards left if it
    is discarded (one search, not one solve per card; e.g. for the knock options)."""
    found = discard_deadwoods_mask(_hand_mask(cards))
    return {FULL_DECK[index]: found[index] for index in sorted(found)}


def min_arrangements(cards: Iterable[str]) -> list[Arrangement]:
    """Every distinct arrangement with the minimum deadwood, in a deterministic order.

    Runs are reported maximal: cutting a long run into adjacent shorter runs changes neither
    the deadwood nor the layoffs it accepts, so such cuts do not count as distinct.
    """
    choices = set_choices(_hand_mask(cards))
    totals = [_run_deadwood(left) for left, _ in choices]
    least = min(totals)
    found = [
        _arrangement(left, sets)
        for (left, sets), total in zip(choices, totals, strict=True)
        if total == least
    ]
    return sorted(found, key=_arrangement_key)


def best_arrangement(cards: Iterable[str]) -> Arrangement:
    """A minimal-deadwood arrangement (the first of min_arrangements)."""
    return min_arrangements(cards)[0]


def validate_arrangement(hand: Iterable[str], melds: Sequence[Sequence[str]]) -> Arrangement:
    """Check a stated arrangement: every meld valid, no card used twice, every card in the
    hand. The deadwood is whatever the melds leave over."""
    held = set(parse_cards(hand))
    used: set[str] = set()
    for meld in melds:
        meld = tuple(meld)
        if not is_meld(meld):
            raise InvalidMeldError(
                "%(meld)s is not a set or a run", rule=MELD_RULE, meld=" ".join(meld)
            )
        for code in meld:
            if code not in held:
                raise InvalidMeldError("%(code)s is not in the hand", rule=MELD_RULE, code=code)
            if code in used:
                raise InvalidMeldError("%(code)s is used in two melds", rule=MELD_RULE, code=code)
            used.add(code)
    return _make_arrangement([tuple(m) for m in melds], held - used)


def best_defence(knocker_melds: Sequence[Sequence[str]], defender_cards: Iterable[str]) -> Defence:
    """The defender's own melds and layoffs onto the knocker's melds that leave the least
    deadwood (RULES.md 6, Decision). Layoff indexes refer to `knocker_melds` as given."""
    melds = [tuple(m) for m in knocker_melds]
    for meld in melds:
        if not is_meld(meld):
            raise InvalidMeldError(
                "%(meld)s is not a set or a run", rule=MELD_RULE, meld=" ".join(meld)
            )
    knocker_cards = [code for meld in melds for code in meld]
    defender = parse_cards(defender_cards)
    parse_cards([*knocker_cards, *defender])  # a card used twice is an error
    own, layoffs, deadwood = _defence.solve(
        [[card_index(c) for c in meld] for meld in melds], to_mask(defender)
    )
    arranged = _make_arrangement([_codes(m) for m in own], [FULL_DECK[i] for i in deadwood])
    return Defence(
        melds=arranged.melds,
        layoffs=tuple((FULL_DECK[i], meld) for i, meld in layoffs),
        deadwood=arranged.deadwood,
        deadwood_value=arranged.deadwood_value,
    )


# -------------------------------------------------------------------------------- helpers

_BIT = {code: 1 << index for index, code in enumerate(FULL_DECK)}


def _hand_mask(cards: Iterable[str]) -> int:
    """The hand as a 52-bit mask, checked like cards.parse_cards (which raises the error
    when anything is wrong) but in one cheap pass, as the solver runs on every turn."""
    cards = tuple(cards)
    mask = 0
    try:
        for code in cards:
            mask |= _BIT[code]
    except (KeyError, TypeError):
        parse_cards(cards)
    if mask.bit_count() != len(cards):
        parse_cards(cards)  # a card given twice
    return mask


def _arrangement(left: int, sets: tuple[int, ...]) -> Arrangement:
    """The arrangement of one set choice: its sets, the maximal runs of what is left, and
    the cards runs cannot use as deadwood."""
    melds = [_indexes(set_mask) for set_mask in sets]
    deadwood = []
    for suit in range(4):
        base = suit * SUIT_BITS
        for start, length in blocks(left >> base & SUIT_FULL):
            cards = [base + rank for rank in range(start, start + length)]
            if length >= 3:
                melds.append(cards)
            else:
                deadwood.extend(cards)
    return _make_arrangement([_codes(m) for m in melds], [FULL_DECK[i] for i in deadwood])


def _indexes(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


def _codes(indexes: Iterable[int]) -> tuple[str, ...]:
    return tuple(FULL_DECK[i] for i in indexes)


def _make_arrangement(melds: list[tuple[str, ...]], deadwood: Iterable[str]) -> Arrangement:
    ordered = sorted((sort_cards(m) for m in melds), key=_meld_key)
    rest = sort_cards(deadwood)
    return Arrangement(
        melds=tuple(ordered),
        deadwood=rest,
        deadwood_value=sum(VALUES[card_index(c)] for c in rest),
    )


def _meld_key(meld: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(card_index(c) for c in meld)


def _arrangement_key(arrangement: Arrangement) -> tuple[tuple[int, ...], ...]:
    return tuple(_meld_key(m) for m in arrangement.melds)
