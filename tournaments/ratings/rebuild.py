"""The rebuild path: every club's periods, ratings, history and season tables from the
events alone (the tournaments' streams, their matches' streams, the clubs' streams)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

import eventstore
from core.drift import RowDifference, pictures_differences
from games.selectors import match_rating_facts
from tournaments.domain.rating_periods import tournament_period
from tournaments.models import Tournament
from tournaments.ratings import projection
from tournaments.ratings.models import ClubPeriod, ClubRating, RatingEntry, Season, SeasonStanding
from tournaments.ratings.seasons import club_seasons_refresh_in_tx


def club_ratings_rebuild_in_tx(*, club_id: int) -> int:
    """Rebuild one club (in the caller's transaction). Returns its number of periods."""
    projection.club_lock(club_id=club_id)
    ClubPeriod.objects.filter(club_id=club_id).delete()
    RatingEntry.objects.filter(club_id=club_id).delete()
    ClubRating.objects.filter(club_id=club_id).delete()
    tournaments = list(Tournament.objects.filter(club_id=club_id).order_by("pk"))
    # Every stream first, then the facts of all their matches in a few queries.
    streams = {t.pk: eventstore.load(stream_id=t.stream_id) for t in tournaments}
    match_ids = [
        r.match for events in streams.values() for r in tournament_period(events).results if r.match
    ]
    facts = match_rating_facts(match_ids=match_ids)
    periods = []
    for tournament in tournaments:
        inputs = projection.period_inputs(
            tournament=tournament, events=streams[tournament.pk], facts=facts
        )
        if inputs is not None:
            periods.append(ClubPeriod(club_id=club_id, tournament=tournament, **inputs))
    ClubPeriod.objects.bulk_create(periods, batch_size=500)
    projection.club_rerate_in_tx(club_id=club_id, from_index=0)
    club_seasons_refresh_in_tx(club_id=club_id)
    return len(periods)


def ratings_rebuild(*, club_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Rebuild the clubs (all clubs with a tournament by default), one transaction each."""
    if club_ids is None:
        club_ids = (
            Tournament.objects.filter(club__isnull=False)
            .values_list("club_id", flat=True)
            .distinct()
        )
    out = {}
    for club_id in sorted(set(club_ids)):
        with transaction.atomic():
            out[club_id] = club_ratings_rebuild_in_tx(club_id=club_id)
    return out


# --- the check: the rows against a rebuild ----------------------------------------------------

_FLOATS = ("rating", "rd", "volatility")


def _club_pictures(club_id: int) -> dict[str, dict[Any, dict[str, Any]]]:
    periods = ClubPeriod.objects.filter(club_id=club_id)
    period_fields = [
        "finished_position", "finished_at", "source_version", "games", "results", "standings",
        "causes",
    ]  # fmt: skip
    entries = RatingEntry.objects.filter(club_id=club_id)
    entry_fields = [
        "finished_position", "finished_at", "rating_before", "rd_before", "volatility_before",
        *_FLOATS,
    ]  # fmt: skip
    standings = SeasonStanding.objects.filter(season__club_id=club_id)
    standing_fields = [
        "rank", "points", "played", "counted", "tournaments_won", "match_wins", "shared",
    ]  # fmt: skip
    return {
        ClubPeriod._meta.db_table: {
            (club_id, p.tournament_id): {f: getattr(p, f) for f in period_fields} for p in periods
        },
        ClubRating._meta.db_table: {
            (club_id, r.player_id): {f: getattr(r, f) for f in (*_FLOATS, "matches", "periods")}
            for r in ClubRating.objects.filter(club_id=club_id)
        },
        RatingEntry._meta.db_table: {
            (club_id, e.tournament_id, e.player_id): {f: getattr(e, f) for f in entry_fields}
            for e in entries
        },
        SeasonStanding._meta.db_table: {
            (club_id, s.season_id, s.player_id): {f: getattr(s, f) for f in standing_fields}
            for s in standings
        },
    }


RATINGS_KEY_NAMES = {
    ClubPeriod._meta.db_table: lambda k: f"club {k[0]} tournament {k[1]}",
    ClubRating._meta.db_table: lambda k: f"club {k[0]} player {k[1]}",
    RatingEntry._meta.db_table: lambda k: f"club {k[0]} tournament {k[1]} player {k[2]}",
    SeasonStanding._meta.db_table: lambda k: f"club {k[0]} season {k[1]} player {k[2]}",
}


def rated_club_ids() -> list[int]:
    """Every club that has a rating row, a season or a tournament: a forged row of a club
    without tournaments is found too."""
    ids: set[int] = set(
        Tournament.objects.filter(club__isnull=False).values_list("club_id", flat=True)
    )
    for model in (ClubPeriod, ClubRating, RatingEntry, Season):
        ids.update(model.objects.values_list("club_id", flat=True).distinct())
    return sorted(ids)


def ratings_differences(
    *, club_ids: Iterable[int] | None = None, fix: bool = False
) -> list[RowDifference]:
    """Each difference between the clubs' rating rows (periods, current ratings, history,
    season standings) and a rebuild from the events; rolled back unless `fix`."""
    out: list[RowDifference] = []
    for club_id in sorted(set(club_ids)) if club_ids is not None else rated_club_ids():
        out += pictures_differences(
            lambda c=club_id: _club_pictures(c),
            lambda c=club_id: club_ratings_rebuild_in_tx(club_id=c),
            fix=fix,
            key_names=RATINGS_KEY_NAMES,
        )
    return out
