"""Precomputed per-suit tables behind the deadwood solver (private to games.engine.melds).

Why per suit: once the sets of a hand are chosen, every other meld is a run, and runs never
leave their suit. The best use of one suit's remaining cards is then fixed: a maximal block
of three or more consecutive ranks is always melded whole (every card has a positive value,
so melding all of it beats any part of it) and shorter blocks are deadwood. That answer
depends only on the 13-bit mask of ranks held in the suit, so it is computed once here for
all 8192 masks and looked up afterwards.
"""

from __future__ import annotations

SUIT_BITS = 13
SUIT_FULL = (1 << SUIT_BITS) - 1
NO_CARD = 1 << 30  # "infinite" deadwood: no card to leave out

# Point value of each rank (ace 1, ..., ten 10, J Q K 10); the same in every suit.
RANK_VALUES: tuple[int, ...] = tuple(min(rank + 1, 10) for rank in range(SUIT_BITS))


def blocks(mask: int) -> list[tuple[int, int]]:
    """Maximal blocks of consecutive ranks in a suit mask, as (lowest rank, length)."""
    out = []
    rank = 0
    while mask >> rank:
        if mask >> rank & 1:
            start = rank
            while mask >> rank & 1:
                rank += 1
            out.append((start, rank - start))
        else:
            rank += 1
    return out


def _short_mask(mask: int) -> int:
    """The cards of `mask` lying in blocks shorter than three: those no run can use."""
    starts = mask & mask >> 1 & mask >> 2  # lowest rank of every three-in-a-row
    return mask & ~(starts | starts << 1 | starts << 2)


def _drop_one(mask: int, dead: tuple[int, ...]) -> int:
    """The change in the suit's deadwood when its best card to leave out is left out,
    encoded as change * 64 + (12 - rank) * 4 so that, once the suit number (0-3) is added,
    a smaller number means: less deadwood, then a higher rank, then an earlier suit (the
    deterministic tie-break of best_discard). A suit with no card gets NO_CARD."""
    best = NO_CARD
    rest = mask
    while rest:
        card = rest & -rest
        rest ^= card
        key = (dead[mask ^ card] - dead[mask]) * 64 + (13 - card.bit_length()) * 4
        if key < best:
            best = key
    return best


def _mask_values() -> tuple[int, ...]:
    values = [0] * (1 << SUIT_BITS)
    for mask in range(1, 1 << SUIT_BITS):
        low = mask & -mask
        values[mask] = values[mask ^ low] + RANK_VALUES[low.bit_length() - 1]
    return tuple(values)


# VALUE[m]: point value of the cards of suit mask m; SHORT[m]: the cards of m that runs
# cannot use; DEAD[m]: their value, the run-only deadwood of the suit; DROP[suit][m]: see
# _drop_one, with the suit number already added.
VALUE = _mask_values()
SHORT = tuple(_short_mask(mask) for mask in range(1 << SUIT_BITS))
DEAD = tuple(VALUE[short] for short in SHORT)
_DROP = tuple(_drop_one(mask, DEAD) for mask in range(1 << SUIT_BITS))
DROP = tuple(tuple(key + suit for key in _DROP) for suit in range(4))


# ------------------------------------------------------------------------------ sets
# Hands below are 52-bit masks (card index = suit * 13 + rank).

RANK_CARDS = tuple(sum(1 << (suit * SUIT_BITS + rank) for suit in range(4)) for rank in range(13))


def set_ranks(mask: int) -> int:
    """Mask of the ranks held in at least three suits: the only ranks that can form sets."""
    s0, s1, s2 = mask & SUIT_FULL, mask >> 13 & SUIT_FULL, mask >> 26 & SUIT_FULL
    s3 = mask >> 39
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))


def short_cards(mask: int) -> int:
    """The cards of a hand that no run can use (SHORT of each suit)."""
    return (
        SHORT[mask & SUIT_FULL]
        | SHORT[mask >> 13 & SUIT_FULL] << 13
        | SHORT[mask >> 26 & SUIT_FULL] << 26
        | SHORT[mask >> 39] << 39
    )


def _options(held: int) -> tuple[int, ...]:
    """Ways to use the three or four cards `held` of one rank, each as the mask of the
    cards put into a set: no set, a set of all of them, and when four are held each set of
    three (the fourth card may then serve a run)."""
    cards = [1 << i for i in range(52) if held >> i & 1]
    return (0, held) if len(cards) == 3 else (0, held, *(held ^ card for card in cards))


def _held_patterns() -> list[int]:
    patterns = []
    for rank_cards in RANK_CARDS:
        cards = [1 << i for i in range(52) if rank_cards >> i & 1]
        patterns += [rank_cards ^ card for card in cards] + [rank_cards]
    return patterns


# OPTIONS[held]: _options, for every way of holding three or four cards of a rank.
OPTIONS = {held: _options(held) for held in _held_patterns()}


def _forced(held: int, for_discard: bool) -> tuple[int, ...]:
    """Options for a rank none of whose cards any run can use. Leaving such a card out of
    the set only adds its value to the deadwood, so the whole set is taken. When one card
    may still be discarded afterwards, two more choices can matter: three held and no set
    (if every other card is needed in melds), or four held and a set of three whose fourth
    card (the first suit, for the tie-break) is the one to throw."""
    if not for_discard:
        return (held,)
    if held in RANK_CARDS:
        return (held, held & (held - 1))  # drop the lowest card: suit C
    return (held, 0)


def set_choices(
    mask: int, *, for_discard: bool = False, extra: int = 0
) -> list[tuple[int, tuple[int, ...]]]:
    """Every useful choice of sets for a hand: (cards left for runs, masks of the sets).
    Sets of different ranks share no card, so the choices are the product of per-rank
    options. `extra` are cards runs may also use (the knocker's runs, for layoffs)."""
    choices: list[tuple[int, tuple[int, ...]]] = [(mask, ())]
    ranks = set_ranks(mask)
    if not ranks:
        return choices
    short = short_cards(mask | extra)
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        held = mask & RANK_CARDS[bit.bit_length() - 1]
        options = OPTIONS[held] if held & ~short else _forced(held, for_discard)
        choices = [
            (left & ~option, (*sets, option) if option else sets)
            for left, sets in choices
            for option in options
        ]
    return choices


def set_lefts(mask: int, ranks: int, for_discard: bool, prune: bool = True) -> list[int]:
    """set_choices without the sets: only the cards left for runs, for the fast paths.
    Without `prune` every set choice is kept (needed when any card may be discarded)."""
    lefts = [mask]
    short = short_cards(mask) if prune else 0
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        held = mask & RANK_CARDS[bit.bit_length() - 1]
        options = OPTIONS[held] if held & ~short else _forced(held, for_discard)
        lefts = [left & ~option for left in lefts for option in options]
    return lefts
