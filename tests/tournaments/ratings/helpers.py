"""Ratings test helpers: the rows of a club's ratings as comparable values."""

from __future__ import annotations

from typing import Any

from tournaments.ratings.models import ClubPeriod, ClubRating, RatingEntry
from tournaments.ratings.selectors import club_rerated


def ratings_snapshot(club_id: int) -> dict[str, Any]:
    """Everything the ratings projection holds for a club, ids and floats as stored."""
    return {
        "periods": list(
            ClubPeriod.objects.filter(club_id=club_id)
            .order_by("finished_position")
            .values_list("tournament_id", "finished_position", "games", "causes", "standings")
        ),
        "current": sorted(
            ClubRating.objects.filter(club_id=club_id).values_list(
                "player_id", "rating", "rd", "volatility", "matches", "periods"
            )
        ),
        "entries": sorted(
            RatingEntry.objects.filter(club_id=club_id).values_list(
                "tournament_id",
                "player_id",
                "finished_position",
                "rating_before",
                "rd_before",
                "volatility_before",
                "rating",
                "rd",
                "volatility",
            )
        ),
        "rerated": club_rerated(club_id=club_id),
    }
