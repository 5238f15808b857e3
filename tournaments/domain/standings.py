"""The standings of a tournament's state: the one standings fold (the read model, the
pairing of the next round and a rebuild all use it), by the tournament's tiebreak order;
a finished top cut's one final standing, and a finished bracket's (a knockout's, a double
elimination's) in the bracket's order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tournaments.domain.seeding import bracket_of
from tournaments.domain.state import IN_PROGRESS, TournamentState
from tournaments.pairing.double_elimination import BracketResultError
from tournaments.pairing.knockout_bracket import THIRD_PLACE, Board, knockout_places
from tournaments.pairing.standings import TIEBREAKS, Result, Standing, standings
from tournaments.pairing.top_cut import top_cut_standing


def tiebreak_order(state: TournamentState) -> list[str]:
    """The tournament's setting, or: match wins, games, points (+ Buchholz, SB for Swiss)."""
    if state.tiebreaks:
        return list(state.tiebreaks)
    return list(TIEBREAKS) if state.format == "swiss" else list(TIEBREAKS[:3])


def results_of(state: TournamentState) -> list[Result]:
    return [
        Result(
            round=r.round,
            player1=r.player1,
            player2=r.player2,
            winner=r.winner,
            games1=r.games1,
            games2=r.games2,
            points1=r.points1,
            points2=r.points2,
        )
        for _, r in sorted(state.results.items())
    ]


def standings_of(
    state: TournamentState, *, also: Sequence[int] = (), tiebreaks: Sequence[str] | None = None
) -> list[Standing]:
    """The standings: everyone paired so far (and `also`, e.g. the players about to be
    paired), by the tournament's tiebreak order (or `tiebreaks`)."""
    order = tiebreak_order(state) if tiebreaks is None else list(tiebreaks)
    players = sorted(set(state.paired) | set(also))
    lines = standings(
        players=players,
        results=results_of(state),
        tiebreaks=order,
        bye_points=state.bye_points,
        bye_buchholz=state.bye_buchholz,
    )
    if state.top_cut and state.finished and state.cut_seeds:
        return _top_cut_final(state, lines)
    if state.finished and state.format in ("knockout", "double_elimination"):
        return _bracket_final(lines, _bracket_places(state))
    return lines


def _bracket_places(state: TournamentState) -> tuple[tuple[int, ...], ...]:
    """The places of a finished bracket as the bracket answers them (champion, runner-up,
    then the players out in each round, the latest first); () where the recorded results
    do not make a finished bracket (the standings then stay as the tiebreaks order them)."""
    if state.format == "double_elimination":
        try:
            return bracket_of(state).places
        except BracketResultError:
            return ()
    rounds = [
        [Board(t.player1, t.player2, t.winner) for t in state.rounds[n].tables]
        for n in sorted(state.rounds)
    ]
    return knockout_places(rounds)


def _bracket_final(lines: list[Standing], places: Sequence[Sequence[int]]) -> list[Standing]:
    """A finished bracket's final standing: its places in order (the champion first, the
    final's loser second, then by the round a player went out in, the later first); the
    players out in one round in the tiebreak order, ranked on (1, 2, 3, ...: the bracket
    decides every place, none is shared). Anyone the places miss comes last, in the
    tiebreak order."""
    group = {p: i for i, members in enumerate(places) for p in members}
    ordered = sorted(lines, key=lambda line: group.get(line.player, len(places)))  # stable
    return [replace(line, rank=rank, place=rank) for rank, line in enumerate(ordered, 1)]


def _top_cut_final(state: TournamentState, lines: list[Standing]) -> list[Standing]:
    """A finished top cut's one final standing: the knockout's places first, then the
    rest in their Swiss order (tournaments.pairing.top_cut)."""
    swiss_only = replace(
        state,
        status=IN_PROGRESS,
        rounds={n: r for n, r in state.rounds.items() if n <= (state.swiss_rounds or 0)},
    )
    swiss = [line.player for line in standings_of(swiss_only)]
    swiss += [line.player for line in lines if line.player not in set(swiss)]
    try:
        knockout, third = _top_cut_knockout(state)
        places = top_cut_standing(
            order=swiss, seeds=state.cut_seeds, knockout_rounds=knockout, third_place=third
        )
    except ValueError:
        return lines  # the knockout does not make a finished bracket: the standings as they are
    by_player = {line.player: line for line in lines}
    return [
        replace(by_player[p.player], rank=p.place, place=p.place)
        for p in places
        if p.player in by_player
    ]


def _top_cut_knockout(
    state: TournamentState,
) -> tuple[list[list[tuple[int, int | None]]], tuple[int, int] | None]:
    """The top cut's knockout as `top_cut_standing` takes it: each round's players out
    (as (winner, loser); the final's winner the champion), from the bracket's places
    (`knockout_places`: a withdrawn player is out in the round after the last they were
    paired in, beside that round's losers), and the third-place match's (winner, loser).
    Raises ValueError where the knockout is not a finished bracket."""
    last = max(state.rounds)
    rounds: list[list[Board]] = []
    third = None
    for n in range((state.swiss_rounds or 0) + 1, last + 1):
        tables = state.rounds[n].tables
        boards = []
        for t in tables:
            is_third = t.slot == THIRD_PLACE or (
                t.slot is None and n == last and len(tables) == 2 and t.table == 2
            )
            if is_third:
                loser = t.player2 if t.winner == t.player1 else t.player1
                third = (t.winner, loser) if t.winner is not None and loser else None
            else:
                boards.append(Board(t.player1, t.player2, t.winner))
        rounds.append(boards)
    places = knockout_places(rounds)
    if not places or (len(places) > 1 and len(places[1]) > 1):
        raise ValueError("top cut: the knockout is not a finished bracket")
    champion = places[0][0]
    final = [(champion, places[1][0] if len(places) > 1 else None)]
    return [[(champion, p) for p in group] for group in reversed(places[2:])] + [final], third
