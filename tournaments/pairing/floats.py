"""Who floated in the last round played, read from the results (Swiss pairing avoids repeats).

A player floats down in a round when their opponent had a lower score before it, and up when
the opponent had a higher one. A bye counts as a down-float (as in FIDE's Dutch system: a
point won without an opponent of the same score). Scores are counted as `standings` counts
match wins: a win or a bye scores 1, a draw nothing. Rounds are told apart by
`Result.round`; the last round is the highest number present, so the results must include
the round just finished (they normally do: a round is paired once the previous one is over).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.standings import Result


@dataclass(frozen=True)
class Floats:
    down: frozenset[int] = frozenset()
    up: frozenset[int] = frozenset()


def last_round_floats(results: Sequence[Result]) -> Floats:
    """The players who floated down and up in the last round of `results`."""
    if not results:
        return Floats()
    last = max(r.round for r in results)
    score: Counter[int] = Counter()
    for r in results:
        winner = r.player1 if r.player2 is None else r.winner
        if r.round < last and winner is not None:
            score[winner] += 1
    down: set[int] = set()
    up: set[int] = set()
    for r in results:
        if r.round != last:
            continue
        if r.player2 is None:
            down.add(r.player1)
        elif score[r.player1] != score[r.player2]:
            high, low = sorted((r.player1, r.player2), key=lambda p: -score[p])
            down.add(high)
            up.add(low)
    return Floats(down=frozenset(down), up=frozenset(up))
