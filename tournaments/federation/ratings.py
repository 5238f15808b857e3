"""A federation's rating list: one Glicko-2 list over every rated match of its clubs'
finished tournaments, rating periods by calendar month (UTC) of when each tournament
finished, computed from the events as the club lists are (each tournament's period as
tournaments.ratings.projection.period_inputs reads it from its stream and its matches'
facts: the same rated matches, corrections included), with the default rating settings.

`federation_rating_list` computes it from the events when called (slow: every stream and
its matches' facts, one tournament at a time): the re-computation the stored list
(tournaments.federation.projection, which pages and the API read) is tested against;
`monthly_periods` is the one grouping both use."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.domain.glicko2 import (
    PeriodGame,
    RatingSettings,
    club_rate,
    is_provisional,
)
from tournaments.federation.models import Federation
from tournaments.models import Tournament
from tournaments.ratings.projection import period_inputs


@dataclass(frozen=True)
class FederationRating:
    rank: int
    player: int
    rating: float
    rd: float
    volatility: float
    matches: int
    periods: int
    provisional: bool


def monthly_periods(inputs: Iterable[dict]) -> list[tuple[str, list[PeriodGame]]]:
    """Tournaments' periods (period_inputs) grouped by the month they finished ("2026-11"),
    in order; within a month, the tournaments in the order they finished."""
    months: dict[str, list[tuple[int, list[PeriodGame]]]] = {}
    for p in inputs:
        month = p["finished_at"].strftime("%Y-%m")
        games = [PeriodGame(w, lo) for w, lo in p["games"]]
        months.setdefault(month, []).append((p["finished_position"], games))
    return [
        (month, [g for _, games in sorted(months[month], key=lambda x: x[0]) for g in games])
        for month in sorted(months)
    ]


def federation_periods(*, federation: Federation) -> list[tuple[str, list[PeriodGame]]]:
    tournaments = Tournament.objects.filter(
        club__in=federation.clubs.all(), status=Tournament.Status.FINISHED
    ).order_by("pk")
    inputs = [period_inputs(tournament=t) for t in tournaments]
    return monthly_periods(p for p in inputs if p is not None)


def federation_rating_list(
    *, federation: Federation, settings: RatingSettings | None = None
) -> list[FederationRating]:
    """Everyone rated in the federation, best first (ties by player id)."""
    settings = settings or RatingSettings()
    state = club_rate([games for _, games in federation_periods(federation=federation)], settings)
    order = sorted(state.current, key=lambda p: (-state.current[p].rating, p))
    return [
        FederationRating(
            rank,
            p,
            state.current[p].rating,
            state.current[p].rd,
            state.current[p].volatility,
            state.matches.get(p, 0),
            state.periods.get(p, 0),
            is_provisional(state.current[p], settings),
        )  # fmt: skip
        for rank, p in enumerate(order, start=1)
    ]
