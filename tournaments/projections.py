"""Standings as a projection.

Two ways to the same table: incrementally, from the pairing rows as results come in
(`standings_refresh`, called by the services in the transaction that records a result), and
from the tournament's event stream alone (`standings_from_events`, `standings_rebuild`).
A test proves they agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from tournaments import stream
from tournaments.models import Pairing, Registration, Standing, Tournament
from tournaments.pairing.standings import TIEBREAKS, Result
from tournaments.pairing.standings import Standing as StandingLine
from tournaments.pairing.standings import standings as compute_standings


def tournament_tiebreaks(*, tournament: Tournament) -> list[str]:
    """The tournament's setting, or: match wins, games, points (+ Buchholz, SB for Swiss)."""
    if tournament.tiebreaks:
        return list(tournament.tiebreaks)
    if tournament.format == Tournament.Format.SWISS:
        return list(TIEBREAKS)
    return list(TIEBREAKS[:3])


def _result_from_data(data: dict[str, Any]) -> Result:
    return Result(
        round=data["round"],
        player1=data["player1"],
        player2=data["player2"],
        winner=data["winner"],
        games1=data.get("games1", 0),
        games2=data.get("games2", 0),
        points1=data.get("points1", 0),
        points2=data.get("points2", 0),
    )


def standings_from_events(
    *, events: Iterable[Any], tiebreaks: Sequence[str]
) -> tuple[list[StandingLine], set[int]]:
    """Fold the tournament's events into standings; also returns the withdrawn player ids.

    Players are everyone who has been paired (a bye counts); a re-pairing replaces the
    round's pairings and drops the results recorded for it (only byes can have any).
    """
    players: set[int] = set()
    results: dict[tuple[int, int], Result] = {}
    withdrawn: set[int] = set()
    for event in events:
        data = event.data
        if event.type in (stream.ROUND_PAIRED, stream.ROUND_REPAIRED):
            if event.type == stream.ROUND_REPAIRED:
                results = {key: r for key, r in results.items() if key[0] != data["round"]}
            for pairing in data["pairings"]:
                players.add(pairing["player1"])
                if pairing["player2"] is not None:
                    players.add(pairing["player2"])
        elif event.type == stream.RESULT_RECORDED:
            results[(data["round"], data["table"])] = _result_from_data(data)
        elif event.type == stream.RESULT_CORRECTED:
            key = (data["round"], data["table"])
            if data["after"] is None:  # the match is back in play: no result for now
                results.pop(key, None)
            else:
                results[key] = _result_from_data(data["after"])
        elif event.type == stream.PLAYER_WITHDRAWN:
            withdrawn.add(data["player"])
    lines = compute_standings(
        players=sorted(players),
        results=[results[key] for key in sorted(results)],
        tiebreaks=tiebreaks,
    )
    return lines, withdrawn


def results_from_pairings(*, tournament: Tournament) -> tuple[list[int], list[Result]]:
    """Players paired so far and finished results, read from the pairing rows."""
    pairings = list(Pairing.objects.filter(round__tournament=tournament).select_related("round"))
    players: set[int] = set()
    results = []
    for pairing in sorted(pairings, key=lambda p: (p.round.number, p.table)):
        players.add(pairing.player1_id)
        if pairing.player2_id is not None:
            players.add(pairing.player2_id)
        if pairing.status == Pairing.Status.FINISHED:
            results.append(
                Result(
                    round=pairing.round.number,
                    player1=pairing.player1_id,
                    player2=pairing.player2_id,
                    winner=pairing.winner_id,
                    games1=pairing.games1,
                    games2=pairing.games2,
                    points1=pairing.points1,
                    points2=pairing.points2,
                )
            )
    return sorted(players), results


def standings_from_pairings(*, tournament: Tournament) -> list[StandingLine]:
    players, results = results_from_pairings(tournament=tournament)
    return compute_standings(
        players=players, results=results, tiebreaks=tournament_tiebreaks(tournament=tournament)
    )


def _standings_write(
    *, tournament: Tournament, lines: Sequence[StandingLine], withdrawn: set[int]
) -> None:
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        Standing(
            tournament=tournament,
            player_id=line.player,
            rank=line.rank,
            match_wins=line.match_wins,
            played=line.played,
            games_won=line.games_won,
            points_diff=line.points_diff,
            buchholz=line.buchholz,
            sonneborn_berger=line.sonneborn_berger,
            byes=line.byes,
            withdrawn=line.player in withdrawn,
        )
        for line in lines
    )


def standings_refresh(*, tournament: Tournament) -> None:
    """Incremental path: recompute the standings rows from the pairing read model."""
    withdrawn = set(
        Registration.objects.filter(
            tournament=tournament, status=Registration.Status.WITHDRAWN
        ).values_list("player_id", flat=True)
    )
    _standings_write(
        tournament=tournament,
        lines=standings_from_pairings(tournament=tournament),
        withdrawn=withdrawn,
    )


@transaction.atomic
def standings_rebuild(*, tournament: Tournament) -> list[StandingLine]:
    """Rebuild path: recompute the standings rows from the tournament's events alone."""
    lines, withdrawn = standings_from_events(
        events=stream.stream_load(tournament=tournament),
        tiebreaks=tournament_tiebreaks(tournament=tournament),
    )
    _standings_write(tournament=tournament, lines=lines, withdrawn=withdrawn)
    return lines
