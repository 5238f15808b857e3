"""Standings as a projection: rows rebuilt from the tournament's events by the one standings
fold (`tournaments.domain`), whether incrementally after a result or by `rebuild_standings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from tournaments import stream
from tournaments.domain import TournamentState, event_from_stored, fold, standings_of
from tournaments.domain.state import tiebreak_order
from tournaments.models import Pairing, Standing, Tournament
from tournaments.pairing.standings import Standing as StandingLine


def tournament_tiebreaks(*, tournament: Tournament) -> list[str]:
    """The tournament's setting, or: match wins, games, points (+ Buchholz, SB for Swiss)."""
    return tiebreak_order(
        TournamentState(format=tournament.format, tiebreaks=tuple(tournament.tiebreaks or ()))
    )


def tournament_state(*, tournament: Tournament) -> TournamentState:
    """The tournament's state, folded from its stream (tournaments.domain)."""
    return fold(
        event_from_stored(e.type, e.data) for e in stream.stream_load(tournament=tournament)
    )


def standings_from_events(
    *, events: Iterable[Any], tiebreaks: Sequence[str] | None = None
) -> tuple[list[StandingLine], set[int]]:
    """Standings folded from stored tournament events (the one standings fold,
    `tournaments.domain.standings_of`), and the withdrawn player ids."""
    state = fold(event_from_stored(e.type, e.data) for e in events)
    return standings_of(state, tiebreaks=tiebreaks), set(state.withdrawn)


def pairing_results(*, tournament: Tournament) -> dict[tuple[int, int], tuple]:
    """The finished pairings' results as the pairing rows hold them (a drift check against
    the events: `rebuild_standings`)."""
    rows = Pairing.objects.filter(
        round__tournament=tournament, status=Pairing.Status.FINISHED
    ).select_related("round")
    return {
        (p.round.number, p.table): (p.player1_id, p.player2_id, p.winner_id, p.games1, p.games2)
        for p in rows
    }


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
    """The standings rows from the tournament's events (in the caller's transaction, after
    it appended them): the same fold as `standings_rebuild` and the pairing of a round."""
    state = tournament_state(tournament=tournament)
    _standings_write(
        tournament=tournament, lines=standings_of(state), withdrawn=set(state.withdrawn)
    )


@transaction.atomic
def standings_rebuild(*, tournament: Tournament) -> list[StandingLine]:
    """Rebuild path: the standings rows from the tournament's events alone."""
    state = tournament_state(tournament=tournament)
    lines = standings_of(state)
    _standings_write(tournament=tournament, lines=lines, withdrawn=set(state.withdrawn))
    return lines
