"""Who floated in the last round played, read from the results (Swiss pairing avoids repeats).

A player floats down in a round when their opponent had a lower score before it, and up when
the opponent had a higher one. A bye counts as a down-float (as in FIDE's Dutch system: a
point won without an opponent of the same score). Scores are match wins as `standings`
counts them (with the tournament's `bye_points`). Rounds are told apart by `Result.round`;
the last round is the highest number present, so the results must include the round just
finished (they normally do: a round is paired once the previous one is over).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.standings import Result, standings


@dataclass(frozen=True)
class Floats:
    down: frozenset[int] = frozenset()
    up: frozenset[int] = frozenset()


def last_round_floats(results: Sequence[Result], bye_points: str = "win") -> Floats:
    """The players who floated down and up in the last round of `results` (`bye_points`:
    what a bye scored, as `standings` takes it)."""
    if not results:
        return Floats()
    last = max(r.round for r in results)
    players = sorted({p for r in results for p in (r.player1, r.player2) if p is not None})
    earlier = [r for r in results if r.round < last]
    lines = standings(
        players=players, results=earlier, tiebreaks=("match_wins",), bye_points=bye_points
    )
    score = {line.player: line.match_wins for line in lines}
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
