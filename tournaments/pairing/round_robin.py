"""Round robin by the circle method, with a balanced first dealer.

Who deals first depends only on the pair, not the round: seat the players on positions
0..n-1 (a dummy "bye" seat is added when n is odd). Among m positions (m odd) the
player at i deals first against j when (j - i) mod m is in 1..(m-1)/2 - a regular
tournament, so everyone deals first in exactly half of those matches. For even n the
positions 1..n-1 form that tournament and position 0 deals first against the odd positions;
for odd n all n real positions form it (the bye seat is ignored). Each player therefore
deals first in floor(g/2) or ceil(g/2) of their g matches.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.forbidden import (
    ForbiddenPairInRoundRobinError,
    ForbiddenPairs,
    forbidden_within,
)
from tournaments.pairing.pair import Pair


def round_robin_rounds(
    player_ids: Sequence[int], forbidden: ForbiddenPairs = ()
) -> list[list[Pair]]:
    """All rounds: n-1 for even n; n for odd n, each with one bye (listed last).

    Everyone meets everyone: a forbidden pair inside the field is refused
    (ForbiddenPairInRoundRobinError, naming the pairs)."""
    ids = list(player_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("round_robin_rounds: duplicate player ids")
    clashes = forbidden_within(forbidden, ids)
    if clashes:
        raise ForbiddenPairInRoundRobinError(clashes)
    if len(ids) < 2:
        return [[Pair(first=ids[0], second=None)]] if ids else []
    seats: list[int | None] = [*ids, None] if len(ids) % 2 else ids
    n = len(seats)
    positions = list(range(n))
    rounds = []
    for _ in range(n - 1):
        boards: list[Pair] = []
        byes: list[Pair] = []
        for k in range(n // 2):
            i, j = positions[k], positions[n - 1 - k]
            a, b = seats[i], seats[j]
            if a is None or b is None:
                byes.append(Pair(first=a if b is None else b, second=None))
            elif _deals_first(i, j, len(ids)):
                boards.append(Pair(first=a, second=b))
            else:
                boards.append(Pair(first=b, second=a))
        rounds.append(boards + byes)
        # Keep position 0 fixed and rotate the others one step.
        positions = [positions[0], positions[-1], *positions[1:-1]]
    return rounds


def _deals_first(i: int, j: int, n: int) -> bool:
    """Does the player at position i deal first against position j (n real players)?"""
    if n % 2 == 0:
        if i == 0:
            return j % 2 == 1
        if j == 0:
            return i % 2 == 0
        # Positions 1..n-1 stand for the residues mod n-1.
        return 1 <= (j - i) % (n - 1) <= (n - 2) // 2
    return 1 <= (j - i) % n <= (n - 1) // 2
