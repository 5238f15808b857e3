"""What the checker's modules share: the fixed columns, reading numbers, the fewest
rematches a pairing can have (standard library only)."""

from __future__ import annotations

from functools import cache

BLOCK, FIRST = 25, 64  # a round's block: its width, and where round 1's starts (0-based)


class Unreadable(Exception):
    pass


def num(text, where):
    try:
        return int(text)
    except ValueError:
        raise Unreadable(f"{where}: not a number: {text!r}") from None


def real(text, where):
    try:
        return float(text)
    except ValueError:
        raise Unreadable(f"{where}: not a number: {text!r}") from None


def min_rematches(teams, played):
    """The fewest rematches any pairing of `teams` (an even number) can have."""
    teams = tuple(sorted(teams))

    @cache
    def best(left):
        if not left:
            return 0
        a, rest = left[0], left[1:]
        return min(
            (frozenset((a, b)) in played) + best(rest[:i] + rest[i + 1 :])
            for i, b in enumerate(rest)
        )

    return best(teams)
