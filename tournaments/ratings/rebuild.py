"""The rebuild path: every club's periods, ratings, history and season tables from the
events alone (the tournaments' streams, their matches' streams, the clubs' streams)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

import eventstore
from games.selectors_ratings import match_rating_facts
from tournaments.domain.rating_periods import tournament_period
from tournaments.models import Tournament
from tournaments.ratings import projection
from tournaments.ratings.models import ClubPeriod, ClubRating, RatingEntry
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
