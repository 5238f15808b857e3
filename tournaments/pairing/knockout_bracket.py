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
    EMPTY,
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
    """A table as recorded: its two players (second None: a bye), its winner, if any, and
    its slot in the round (1-based, top to bottom), where the table recorded one; without
    (a stream older than the knockout's slots) the tables' order is the bracket's."""

    first: int
    second: int | None
    winner: int | None = None
    index: int | None = None


@dataclass(frozen=True)
class KnockoutBracket:
    matches: tuple[BracketMatch, ...]  # by round, then index; the third-place match last
    champion: int | None
    places: tuple[tuple[int, ...], ...] = ()  # once over (`knockout_places`)


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
        recorded = _by_slot(rounds[r - 1]) if r <= len(rounds) else {}
        wanted = size >> r
        current: list[BracketMatch] = []
        for i in range(1, max([wanted, *recorded]) + 1):
            board: Board | None = recorded.get(i)
            empty = r <= len(rounds) and board is None  # paired, and nobody was left for it
            forward = r == 1
            if board is not None:
                players: tuple[int | None, int | None] = (board.first, board.second)
            elif empty:
                players = (None, None)
            elif r == 1:
                players = (first[i - 1].first, first[i - 1].second)
            else:
                players = _from_previous(previous, i)
                fed = [previous[j] for j in (2 * i - 2, 2 * i - 1) if j < len(previous)]
                if fed and all(m.status == EMPTY for m in fed):
                    empty = True  # nobody can come: an empty slot forward
                elif any(m.status == EMPTY for m in fed):
                    forward = True  # its one player goes on by a bye
            to = Destination(f"{KNOCKOUT}{r + 1}-{(i + 1) // 2}", (i - 1) % 2)
            loser_to = Destination(THIRD_PLACE, (i - 1) % 2) if plays_third else None
            match = _match(
                f"{KNOCKOUT}{r}-{i}", KNOCKOUT, r, i, players, board, seed,
                winner_to=to if r < count else None,
                loser_to=loser_to if r == count - 1 else None,
                empty=empty, forward=forward,
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
    champion = final.winner if final else None
    places = knockout_places(rounds) if champion is not None else ()
    third = built[-1] if plays_third else None
    # A third-place match played splits the semifinal losers' place.
    if third is not None and third.winner is not None and third.loser is not None:
        split = len(places) > 2 and set(places[2]) == {third.winner, third.loser}
        places = (*places[:2], (third.winner,), (third.loser,), *places[3:]) if split else places
    return KnockoutBracket(matches=tuple(built), champion=champion, places=places)


def knockout_places(rounds: Sequence[Sequence[Board]]) -> tuple[tuple[int, ...], ...]:
    """A finished knockout's places, as a double elimination answers its own: the champion
    (the winner of the last round's one table), the final's loser, then the players out in
    each earlier round, the latest round first, the players out in one round together (by
    id; the standings list them in their tiebreak order). A player goes out in the round
    they lost, or, having withdrawn, in the round after the last one they were paired in
    (their opponent there had a bye). () while the knockout is not over."""
    if not rounds or len(rounds[-1]) != 1:
        return ()
    final = rounds[-1][0]
    champion = final.first if final.second is None else final.winner
    if champion is None:
        return ()
    out: dict[int, int] = {}
    for number, boards in enumerate(rounds, 1):
        for board in boards:
            for player in (board.first, board.second):
                if player is not None:
                    out[player] = number + 1  # still in: out no earlier than the next round
            if board.second is not None and board.winner in (board.first, board.second):
                out[board.second if board.winner == board.first else board.first] = number
    out.pop(champion, None)
    groups: dict[int, list[int]] = {}
    for player, number in out.items():
        groups.setdefault(number, []).append(player)
    return ((champion,), *(tuple(sorted(groups[n])) for n in sorted(groups, reverse=True)))


def _by_slot(boards: Sequence[Board]) -> dict[int, Board]:
    """A recorded round's boards by their slot (1-based); the tables' order without slots."""
    if all(b.index is None for b in boards):
        return dict(enumerate(boards, 1))
    return {b.index: b for b in boards if b.index is not None}


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
    empty: bool = False,
    forward: bool = False,
) -> BracketMatch:
    """`empty`: nobody plays in it; `forward`: not paired yet, and a side left None has
    nobody to come (a bye in round 1, an empty slot before), so its one player goes on."""
    one, two = players
    winner: int | None = None
    loser: int | None = None
    if empty:
        status = EMPTY
    elif board is not None and board.second is None:
        status, winner = BYE, board.first
    elif board is not None and board.winner is not None:
        status, winner = PLAYED, board.winner
        loser = board.second if board.winner == board.first else board.first
    elif board is not None or (one is not None and two is not None):
        status = READY
    elif forward and (one is None) != (two is None):
        status, winner = BYE, one if two is None else two  # known before it is paired
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
