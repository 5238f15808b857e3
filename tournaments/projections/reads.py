"""Reading a tournament's stored events as typed ones, and what is folded from them
without writing a row (audits, the ratings' projection, imports, drift checks)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import eventstore
from tournaments.domain import TournamentState, event_from_stored, fold, standings_of
from tournaments.domain.events import TournamentEvent
from tournaments.domain.standings import tiebreak_order
from tournaments.models import Pairing, Tournament
from tournaments.pairing.standings import Standing as StandingLine


def typed_events(recorded: Iterable[Any]) -> list[TournamentEvent]:
    return [event_from_stored(e.type, e.data, e.recorded_at) for e in recorded]


def tournament_state(*, tournament: Tournament) -> TournamentState:
    """The tournament's state folded from its whole stream (no snapshot: audits, rebuilds)."""
    return fold(typed_events(eventstore.load(stream_id=tournament.stream_id)))


def tournament_tiebreaks(*, tournament: Tournament) -> list[str]:
    """The tournament's setting, or: match wins, games, points (+ Buchholz, SB for Swiss)."""
    return tiebreak_order(
        TournamentState(format=tournament.format, tiebreaks=tuple(tournament.tiebreaks or ()))
    )


def standings_from_events(
    *, events: Iterable[Any], tiebreaks: Sequence[str] | None = None
) -> tuple[list[StandingLine], set[int]]:
    """Standings folded from stored tournament events, and the withdrawn player ids."""
    state = fold(typed_events(events))
    return standings_of(state, tiebreaks=tiebreaks), set(state.withdrawn)


def pairing_results(*, tournament: Tournament) -> dict[tuple[int, int], tuple]:
    """The finished pairings' results as the pairing rows hold them (a drift check)."""
    rows = Pairing.objects.filter(
        round__tournament=tournament, status=Pairing.Status.FINISHED
    ).select_related("round")
    return {
        (p.round.number, p.table): (p.player1_id, p.player2_id, p.winner_id, p.games1, p.games2)
        for p in rows
    }
