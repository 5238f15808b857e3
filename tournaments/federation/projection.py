"""A federation's rating list as a projection: a player's current rating
(FederationRating) and what each month did to them (FederationRatingMonth), computed by
one pure fold (tournaments.federation.ratings: Glicko-2, periods by calendar month) from
its clubs' finished tournaments' rating periods, and written in the caller's
transaction. Two ways in, one computation:

- `federation_rerate_in_tx`: from the clubs' stored periods (tournaments.ratings'
  ClubPeriod rows, themselves projected from the events and re-read when a result changes
  after the finish), which the club ratings' job calls after it changed a club's periods
  (a tournament finished, a correction): no event is read again;
- `federation_rebuild_in_tx`: from the events alone (each tournament's stream and its
  matches' facts, read in bulk), for `verify_projections` and `rebuild_ratings`.

Both give identical rows when the clubs' periods are up to date with the events (a
projection check compares them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import eventstore
from games.selectors import match_rating_facts
from players.models import Club
from tournaments.domain.glicko2 import ClubRatings, RatingSettings, club_rate, is_provisional
from tournaments.domain.rating_periods import tournament_period
from tournaments.federation.models import Federation, FederationRating, FederationRatingMonth
from tournaments.federation.ratings import monthly_periods
from tournaments.models import Tournament
from tournaments.ratings.models import ClubPeriod
from tournaments.ratings.projection import period_inputs


def federation_lock(*, federation_id: int) -> Federation | None:
    """The federation's row, locked: one transaction rates a federation at a time."""
    return Federation.objects.select_for_update().filter(pk=federation_id).first()


def _club_ids(federation: Federation) -> list[int]:
    return list(federation.clubs.values_list("pk", flat=True))


def _write(federation: Federation, months: list[tuple[str, list]]) -> ClubRatings:
    settings = RatingSettings()
    state = club_rate([games for _, games in months], settings)
    FederationRating.objects.filter(federation=federation).delete()
    FederationRatingMonth.objects.filter(federation=federation).delete()
    order = sorted(state.current, key=lambda p: (-state.current[p].rating, p))
    FederationRating.objects.bulk_create(
        [
            FederationRating(
                federation=federation,
                player_id=p,
                rank=rank,
                rating=state.current[p].rating,
                rd=state.current[p].rd,
                volatility=state.current[p].volatility,
                matches=state.matches.get(p, 0),
                periods=state.periods.get(p, 0),
                provisional=is_provisional(state.current[p], settings),
            )  # fmt: skip
            for rank, p in enumerate(order, start=1)
        ],
        batch_size=1000,
    )
    FederationRatingMonth.objects.bulk_create(
        [
            FederationRatingMonth(
                federation=federation,
                player_id=e.player,
                month=months[e.period][0],
                rating_before=e.before.rating,
                rd_before=e.before.rd,
                rating=e.after.rating,
                rd=e.after.rd,
                volatility=e.after.volatility,
                matches=len(e.played),
            )  # fmt: skip
            for e in state.entries
        ],
        batch_size=1000,
    )
    return state


def federation_rerate_in_tx(*, federation_id: int) -> int:
    """Re-rate the federation from its clubs' stored periods. Returns its months."""
    federation = federation_lock(federation_id=federation_id)
    if federation is None:
        return 0
    rows = ClubPeriod.objects.filter(club_id__in=_club_ids(federation)).values(
        "finished_at", "finished_position", "games"
    )
    months = monthly_periods(rows)
    _write(federation, months)
    return len(months)


def federations_rerate_for_club_in_tx(*, club_id: int) -> list[int]:
    """Re-rate every federation the club belongs to (its periods changed)."""
    ids = list(Club.objects.filter(pk=club_id).values_list("federations", flat=True))
    out = [f for f in ids if f is not None]
    for federation_id in sorted(out):
        federation_rerate_in_tx(federation_id=federation_id)
    return out


def federation_inputs_from_events(*, federation: Federation) -> list[dict[str, Any]]:
    """Every finished tournament's period of the federation's clubs, from the events (the
    streams, then all their matches' facts in a few queries)."""
    tournaments = list(Tournament.objects.filter(club_id__in=_club_ids(federation)).order_by("pk"))
    streams = {t.pk: eventstore.load(stream_id=t.stream_id) for t in tournaments}
    match_ids = [
        r.match for events in streams.values() for r in tournament_period(events).results if r.match
    ]
    facts = match_rating_facts(match_ids=match_ids)
    inputs = (period_inputs(tournament=t, events=streams[t.pk], facts=facts) for t in tournaments)
    return [p for p in inputs if p is not None]


def federation_rebuild_in_tx(*, federation_id: int) -> int:
    """Rebuild the federation's list from the events alone. Returns its months."""
    federation = federation_lock(federation_id=federation_id)
    if federation is None:
        return 0
    months = monthly_periods(federation_inputs_from_events(federation=federation))
    _write(federation, months)
    return len(months)


def federation_ids(*, ids: Iterable[int] | None = None) -> list[int]:
    """Every federation (or those of `ids`), by id."""
    rows = Federation.objects.all() if ids is None else Federation.objects.filter(pk__in=ids)
    return sorted(rows.values_list("pk", flat=True))
