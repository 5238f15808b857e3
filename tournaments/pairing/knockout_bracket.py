"""A single knockout (a knockout tournament, or a top cut's) as a drawable bracket.

`knockout_bracket(seeded=..., rounds=...)` answers every match of the bracket, played or
still to come, in the shape a double elimination answers its own (`BracketMatch`, bracket
"K"; the third-place match is bracket "3P"), so one client (the pages, an API client) draws
both. Its inputs are what the tournament recorded: the seeds and each round's tables in
bracket order (the knockout keeps that order: `knockout_next_round` reads it back). A round
not paired yet is drawn from the winners so far; seats nobody knows yet are None.

Match ids: "K<round>-<index>" (both from 1, index top to bottom), "3P" for third place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.double_elimination import (
    BYE,
    PLAYED,
    READY,
    WAITING,
    BracketMatch,
    Destination,
)
from tournaments.pairing.knockout import bracket_size, knockout_first_round

KNOCKOUT, THIRD_PLACE = "K", "3P"


@dataclass(frozen=True)
class Board:
    """A table as recorded: its two players (second None: a bye) and its winner, if any."""

    first: int
    second: int | None
    winner: int | None = None


@dataclass(frozen=True)
class KnockoutBracket:
    matches: tuple[BracketMatch, ...]  # by round, then index; the third-place match last
    champion: int | None


def knockout_bracket(
    *,
    seeded: Sequence[int],
    rounds: Sequence[Sequence[Board]] = (),
    third_place: bool = False,
    third_place_board: Board | None = None,
) -> KnockoutBracket:
    """Every match of the knockout of `seeded` (seed 1 first), with `rounds` played or
    paired so far (each round's boards in bracket order) and, where the event plays one, the
    third-place match (`third_place`; its board once paired)."""
    ids = list(seeded)
    if len(ids) < 2:
        raise ValueError("knockout_bracket: need at least two players")
    size = bracket_size(len(ids))
    count = size.bit_length() - 1  # rounds
    seed = {p: s for s, p in enumerate(ids, 1)}
    first = [Board(p.first, p.second) for p in knockout_first_round(ids)]
    plays_third = third_place and count >= 2
    built: list[BracketMatch] = []
    previous: list[BracketMatch] = []
    for r in range(1, count + 1):
        recorded = list(rounds[r - 1]) if r <= len(rounds) else []
        wanted = size >> r
        current: list[BracketMatch] = []
        for i in range(1, max(wanted, len(recorded)) + 1):
            if i <= len(recorded):
                board: Board | None = recorded[i - 1]
                players: tuple[int | None, int | None] = (
                    recorded[i - 1].first,
                    recorded[i - 1].second,
                )
            elif r == 1:
                board = None
                players = (first[i - 1].first, first[i - 1].second)
            else:
                board = None
                players = _from_previous(previous, i)
            to = Destination(f"{KNOCKOUT}{r + 1}-{(i + 1) // 2}", (i - 1) % 2)
            loser_to = Destination(THIRD_PLACE, (i - 1) % 2) if plays_third else None
            match = _match(
                f"{KNOCKOUT}{r}-{i}", KNOCKOUT, r, i, players, board, seed,
                winner_to=to if r < count else None,
                loser_to=loser_to if r == count - 1 else None,
            )  # fmt: skip
            current.append(match)
        built += current
        previous = current
    if plays_third:
        semis = [m for m in built if m.round == count - 1]
        if third_place_board is not None:
            players = (third_place_board.first, third_place_board.second)
        else:
            players = (semis[0].loser, semis[1].loser) if len(semis) == 2 else (None, None)
        built.append(
            _match(THIRD_PLACE, THIRD_PLACE, count, 1, players, third_place_board, seed, None, None)
        )
    final = next((m for m in built if m.bracket == KNOCKOUT and m.round == count), None)
    return KnockoutBracket(matches=tuple(built), champion=final.winner if final else None)


def _from_previous(previous: Sequence[BracketMatch], i: int) -> tuple[int | None, int | None]:
    sides = [previous[j].winner if j < len(previous) else None for j in (2 * i - 2, 2 * i - 1)]
    return sides[0], sides[1]


def _match(
    match_id: str,
    bracket: str,
    number: int,
    index: int,
    players: tuple[int | None, int | None],
    board: Board | None,
    seed: dict[int, int],
    winner_to: Destination | None,
    loser_to: Destination | None,
) -> BracketMatch:
    one, two = players
    winner: int | None = None
    loser: int | None = None
    if board is not None and board.second is None:
        status, winner = BYE, board.first
    elif board is not None and board.winner is not None:
        status, winner = PLAYED, board.winner
        loser = board.second if board.winner == board.first else board.first
    elif board is not None or (one is not None and two is not None):
        status = READY
    elif number == 1 and one is not None and two is None:
        status, winner = BYE, one  # round 1 not paired yet: the seed's bye is known
    else:
        status = WAITING
    return BracketMatch(
        id=match_id,
        bracket=bracket,
        round=number,
        index=index,
        wave=number,
        players=players,
        seeds=(_seed(seed, one), _seed(seed, two)),
        status=status,
        winner=winner,
        loser=loser,
        winner_to=winner_to,
        loser_to=loser_to,
    )


def _seed(seed: dict[int, int], player: int | None) -> int | None:
    return seed.get(player) if player is not None else None
