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
    short = 0
    for start, length in blocks(mask):
        if length < 3:
            short |= ((1 << length) - 1) << start
    return short


def _drop_one(mask: int, dead: tuple[int, ...]) -> int:
    """Best deadwood of the suit after leaving out one of its cards, encoded as
    deadwood * 16 + (12 - rank of the card left out): the minimum prefers the lowest
    deadwood, then the highest rank (a deterministic tie-break for best_discard)."""
    best = NO_CARD
    for rank in range(SUIT_BITS):
        if mask >> rank & 1:
            best = min(best, dead[mask & ~(1 << rank)] * 16 + (12 - rank))
    return best


def _mask_values() -> tuple[int, ...]:
    values = [0] * (1 << SUIT_BITS)
    for mask in range(1, 1 << SUIT_BITS):
        low = mask & -mask
        values[mask] = values[mask ^ low] + RANK_VALUES[low.bit_length() - 1]
    return tuple(values)


# VALUE[m]: point value of the cards of suit mask m; SHORT[m]: the cards of m that runs
# cannot use; DEAD[m]: their value, the run-only deadwood of the suit; DROP1[m]: _drop_one.
VALUE = _mask_values()
SHORT = tuple(_short_mask(mask) for mask in range(1 << SUIT_BITS))
DEAD = tuple(VALUE[short] for short in SHORT)
DROP1 = tuple(_drop_one(mask, DEAD) for mask in range(1 << SUIT_BITS))


def _set_options(present: int) -> tuple[int, ...]:
    """Ways to use the cards of one rank held in the suits `present` (a 4-bit mask), each
    as the 4-bit mask of suits put into a set: no set, the set of all of them, and when
    four are held each set of three (the fourth card may then serve a run)."""
    held = [suit for suit in range(4) if present >> suit & 1]
    if len(held) < 3:
        return (0,)
    if len(held) == 3:
        return (0, present)
    return (0, present, *(present & ~(1 << suit) for suit in held))


SET_OPTIONS: tuple[tuple[int, ...], ...] = tuple(_set_options(p) for p in range(16))


def set_ranks(suits: tuple[int, ...]) -> int:
    """Mask of the ranks held in at least three suits: the only ranks that can form sets."""
    s0, s1, s2, s3 = suits
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))


def rank_options(
    suits: tuple[int, ...], rank_bit: int, prune: bool, extra: tuple[int, ...] = (0, 0, 0, 0)
) -> tuple[int, ...]:
    """SET_OPTIONS for one rank. With `prune`, a rank none of whose cards could sit in a run
    (each lies in a block of fewer than three in its suit, counting the `extra` cards runs
    may also use) must be melded whole: leaving any of its cards out only adds deadwood."""
    present = 0
    runnable = False
    for suit in range(4):
        if suits[suit] & rank_bit:
            present |= 1 << suit
            if not SHORT[suits[suit] | extra[suit]] & rank_bit:
                runnable = True
    if prune and not runnable:
        return (present,)
    return SET_OPTIONS[present]


def set_states(
    suits: tuple[int, ...], prune: bool = True, extra: tuple[int, ...] = (0, 0, 0, 0)
) -> list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """Every choice of sets for the hand given as four suit masks: a list of
    (suit masks left for runs, chosen sets as (rank bit, suits mask)). Sets of different
    ranks never share a card, so the choices are the product of the per-rank options."""
    states: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = [(suits, ())]
    ranks = set_ranks(suits)
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        options = rank_options(suits, bit, prune, extra)
        states = [
            (_clear(left, bit, option), (*sets, (bit, option)) if option else sets)
            for left, sets in states
            for option in options
        ]
    return states


def _clear(suits: tuple[int, ...], bit: int, option: int) -> tuple[int, ...]:
    return tuple(mask & ~bit if option >> suit & 1 else mask for suit, mask in enumerate(suits))
