"""Checking a round an organiser pairs by hand (a swap, or a table set by hand).

`check_hand_pairings` takes the round's pairs as sent (`[[a, b], ...]`, a bye as `[a]` or
`[a, None]`; the first player deals first) and either refuses them or answers them as boards:
- Malformed rounds are refused outright (`HandPairingError`, by `code`): `unknown_player`
  (not in the round's field), `twice` (a player on two boards, or against themselves),
  `missing` (a player of the field on no board), `byes` (not exactly one bye in an odd
  field, or any bye in an even one), `shape` (a board that is not one or two players).
- A well-formed round that repeats an earlier pairing or puts a forbidden pair together is
  refused (`HandPairingConflictError`: code `conflict`, `reason` `forbidden_pair` if any
  board breaks a forbidden pair, else `rematch`; `conflicts` lists every such board) unless
  `confirm` is true; then it is accepted and the answer's `conflicts` keep the record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from tournaments.pairing.pair import Pair

REMATCH, FORBIDDEN_PAIR = "rematch", "forbidden_pair"


class HandPairingError(ValueError):
    def __init__(self, code: str, message: str, players: Iterable[int] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.players = tuple(sorted(players))


@dataclass(frozen=True)
class Conflict:
    reason: str  # REMATCH or FORBIDDEN_PAIR
    pair: frozenset[int]


class HandPairingConflictError(ValueError):
    code = "conflict"

    def __init__(self, conflicts: Sequence[Conflict]) -> None:
        reasons = {c.reason for c in conflicts}
        self.reason = FORBIDDEN_PAIR if FORBIDDEN_PAIR in reasons else REMATCH
        self.conflicts = tuple(conflicts)
        named = [(c.reason, sorted(c.pair)) for c in conflicts]
        super().__init__(f"hand pairings: {named}; send again with confirm to keep them")


@dataclass(frozen=True)
class HandPairing:
    pairs: list[Pair]
    conflicts: tuple[Conflict, ...] = ()  # accepted with confirm


def check_hand_pairings(
    *,
    field: Collection[int],
    pairs: Sequence[Sequence[int | None]],
    played: Collection[frozenset[int]],
    forbidden: Iterable[Collection[int]] = (),
    confirm: bool = False,
) -> HandPairing:
    """The hand-set round as boards, or a named refusal (module docstring)."""
    present = set(field)
    boards: list[Pair] = []
    for raw in pairs:
        players = [p for p in raw if p is not None]
        if not 1 <= len(players) <= 2 or len(raw) > 2:
            raise HandPairingError("shape", f"hand pairings: {list(raw)} is not a board")
        boards.append(Pair(first=players[0], second=players[1] if len(players) == 2 else None))
    listed = [p for board in boards for p in board.players]
    strangers = set(listed) - present
    if strangers:
        raise HandPairingError("unknown_player", "hand pairings: not in the field", strangers)
    twice = [p for p, n in Counter(listed).items() if n > 1]
    if twice:
        raise HandPairingError("twice", "hand pairings: on more than one board", twice)
    missing = present - set(listed)
    if missing:
        raise HandPairingError("missing", "hand pairings: on no board", missing)
    byes = [b.first for b in boards if b.second is None]
    if len(byes) != len(present) % 2:
        raise HandPairingError("byes", f"hand pairings: {len(byes)} byes", byes)
    bad = {frozenset(p) for p in forbidden if len(set(p)) == 2}
    conflicts = []
    for board in boards:
        if board.second is None:
            continue
        pair = frozenset(board.players)
        if pair in bad:
            conflicts.append(Conflict(FORBIDDEN_PAIR, pair))
        if pair in played:
            conflicts.append(Conflict(REMATCH, pair))
    if conflicts and not confirm:
        raise HandPairingConflictError(conflicts)
    return HandPairing(boards, tuple(conflicts))
