"""Single-elimination brackets in standard seed order.

Seed order is built by doubling: [1, 2] -> [1, 4, 2, 3] -> [1, 8, 4, 5, 2, 7, 3, 6] ...;
each seed s in a bracket of size 2k is followed by its opponent 2k + 1 - s. So seed 1 meets
the last seed, the top two seeds sit in opposite halves (and only meet in the final), the
top four in different quarters, and so on. Missing seeds (beyond the field) are byes, which
therefore go to the top seeds.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.pair import Pair


def bracket_size(n: int) -> int:
    """The smallest power of two >= n (n >= 1)."""
    if n < 1:
        raise ValueError("bracket_size: need at least one player")
    return 1 << (n - 1).bit_length()


def seed_order(size: int) -> list[int]:
    """1-based seeds in bracket slot order for a power-of-two `size`."""
    if size < 1 or size & (size - 1):
        raise ValueError("seed_order: size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(seeded_ids: Sequence[int]) -> list[Pair]:
    """Pairs in bracket order; the better seed deals first; byes are Pair(first, None)."""
    ids = list(seeded_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("knockout_first_round: duplicate player ids")
    if len(ids) < 2:
        raise ValueError("knockout_first_round: need at least two players")
    slots = seed_order(bracket_size(len(ids)))
    pairs = []
    for k in range(0, len(slots), 2):
        high, low = sorted(slots[k : k + 2])
        second = ids[low - 1] if low <= len(ids) else None
        pairs.append(Pair(first=ids[high - 1], second=second))
    return pairs


def knockout_next_round(winners_in_bracket_order: Sequence[int]) -> list[Pair]:
    """Pair neighbouring winners (upper slot deals first); [] once a champion is left."""
    winners = list(winners_in_bracket_order)
    if any(w is None for w in winners) or len(set(winners)) != len(winners):
        raise ValueError("knockout_next_round: every match needs a distinct winner")
    if len(winners) <= 1:
        return []
    if len(winners) % 2:
        raise ValueError("knockout_next_round: an odd number of winners is not a bracket")
    return [Pair(first=winners[k], second=winners[k + 1]) for k in range(0, len(winners), 2)]


def knockout_next_slots(winners_by_slot: Sequence[int | None]) -> list[Pair | None]:
    """The next round by bracket slot: the winners of slots 2j-1 and 2j meet in slot j.

    A slot nobody came out of (None: both its players withdrew before it was paired, or it
    was empty itself) gives its neighbour a bye forward (Pair(first, None)); two such slots
    make an empty one (None), so every later slot stays where the seeding put it."""
    winners = list(winners_by_slot)
    known = [w for w in winners if w is not None]
    if len(set(known)) != len(known):
        raise ValueError("knockout_next_slots: a player in two slots")
    if len(winners) <= 1:
        return []
    if len(winners) % 2:
        raise ValueError("knockout_next_slots: an odd number of slots is not a bracket")
    out: list[Pair | None] = []
    for k in range(0, len(winners), 2):
        present = [w for w in winners[k : k + 2] if w is not None]
        if len(present) == 2:
            out.append(Pair(first=present[0], second=present[1]))
        elif present:
            out.append(Pair(first=present[0], second=None))
        else:
            out.append(None)
    return out
