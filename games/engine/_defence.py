"""The defender's best melds and layoffs (RULES.md 6), private to games.engine.melds.

Layoffs fit the per-suit view of the solver: a knocker's run is added to its suit as
'borrowed' cards worth nothing, so a defender card that extends it, directly or through a
chain of other defender cards, simply joins a block of three or more and stops being
deadwood. The one card that completes a knocker's set of three can always be laid off, so
it is never deadwood either; keeping it in the suit still lets it help a defender run.
The defender's own sets are enumerated as in the plain solver.
"""

from __future__ import annotations

from games.engine._meldtables import SHORT, SUIT_BITS, SUIT_FULL, VALUE, blocks, set_choices

Layoff = tuple[int, int]  # (card index, index of the knocker's meld)


def solve(
    knocker_melds: list[list[int]], defender: int
) -> tuple[list[list[int]], list[Layoff], list[int]]:
    """(own melds, layoffs in play order, deadwood) as card indexes, least deadwood."""
    borrowed, owner, completes = _targets(knocker_melds)
    free = [0, 0, 0, 0]  # per suit: cards that complete a knocker's set
    for card in completes:
        free[card // SUIT_BITS] |= 1 << card % SUIT_BITS
    extra = sum(mask << (SUIT_BITS * s) for s, mask in enumerate(borrowed))
    best = None
    for left_mask, sets in set_choices(defender, extra=extra):
        left = [left_mask >> (SUIT_BITS * s) & SUIT_FULL for s in range(4)]
        value = sum(VALUE[SHORT[left[s] | borrowed[s]] & left[s] & ~free[s]] for s in range(4))
        if best is None or value < best[0]:
            best = (value, left, sets)
    assert best is not None
    _, left, sets = best
    return _lay_out(left, sets, borrowed, owner, completes)


def _targets(
    knocker_melds: list[list[int]],
) -> tuple[list[int], dict[int, int], dict[int, int]]:
    """Per-suit masks of the knocker's run cards, which meld each belongs to, and the card
    that would complete each knocker set of three (card -> meld index)."""
    borrowed = [0, 0, 0, 0]
    owner: dict[int, int] = {}
    completes: dict[int, int] = {}
    for index, meld in enumerate(knocker_melds):
        suits = {card // SUIT_BITS for card in meld}
        if len(suits) == 1:
            for card in meld:
                borrowed[card // SUIT_BITS] |= 1 << card % SUIT_BITS
                owner[card] = index
        elif len(meld) == 3:
            (missing,) = {0, 1, 2, 3} - suits
            completes[missing * SUIT_BITS + meld[0] % SUIT_BITS] = index
    return borrowed, owner, completes


def _lay_out(
    left: list[int],
    sets: tuple[int, ...],
    borrowed: list[int],
    owner: dict[int, int],
    completes: dict[int, int],
) -> tuple[list[list[int]], list[Layoff], list[int]]:
    """Read the chosen arrangement off the suit masks: the defender's own sets and runs,
    layoffs (onto knocker runs, or the card completing a knocker set) and deadwood."""
    melds = [[i for i in range(52) if set_mask >> i & 1] for set_mask in sets]
    layoffs: list[Layoff] = []
    deadwood: list[int] = []
    for suit in range(4):
        base = suit * SUIT_BITS
        for start, length in blocks(left[suit] | borrowed[suit]):
            ranks = range(start, start + length)
            if any(borrowed[suit] >> r & 1 for r in ranks):
                _extend_runs(base, ranks, borrowed[suit], owner, melds, layoffs)
            elif length >= 3:
                melds.append([base + r for r in ranks])
            else:
                for card in (base + r for r in ranks):
                    if card in completes:
                        layoffs.append((card, completes[card]))
                    else:
                        deadwood.append(card)
    return melds, layoffs, deadwood


def _extend_runs(
    base: int,
    ranks: range,
    borrowed: int,
    owner: dict[int, int],
    melds: list[list[int]],
    layoffs: list[Layoff],
) -> None:
    """Share out the defender's cards in a block that holds knocker run cards: a stretch of
    three or more is a meld of its own; a shorter one extends the knocker run just below it
    (upwards, nearest card first) or else the one just above it (downwards)."""
    for low, high in _stretches(ranks, borrowed):
        cards = [base + r for r in range(low, high + 1)]
        if len(cards) >= 3:
            melds.append(cards)
        elif low - 1 in ranks:  # a borrowed card lies just below
            layoffs.extend((card, owner[base + low - 1]) for card in cards)
        else:
            layoffs.extend((card, owner[base + high + 1]) for card in reversed(cards))


def _stretches(ranks: range, borrowed: int) -> list[tuple[int, int]]:
    """Maximal stretches of consecutive defender (not borrowed) ranks in a block."""
    out: list[tuple[int, int]] = []
    for r in ranks:
        if borrowed >> r & 1:
            continue
        if out and out[-1][1] == r - 1:
            out[-1] = (out[-1][0], r)
        else:
            out.append((r, r))
    return out
