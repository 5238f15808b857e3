"""The federation lists against a rebuild from the events (verify_projections), and the
rebuild itself (rebuild_ratings)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from core.drift import RowDifference, pictures_differences
from tournaments.federation.models import FederationRating, FederationRatingMonth
from tournaments.federation.projection import federation_ids, federation_rebuild_in_tx

_RATING = ("rank", "rating", "rd", "volatility", "matches", "periods", "provisional")
_MONTH = ("rating_before", "rd_before", "rating", "rd", "volatility", "matches")

KEY_NAMES = {
    FederationRating._meta.db_table: lambda k: f"federation {k[0]} player {k[1]}",
    FederationRatingMonth._meta.db_table: lambda k: f"federation {k[0]} {k[1]} player {k[2]}",
}


def _pictures(federation_id: int) -> dict[str, dict[Any, dict[str, Any]]]:
    current = FederationRating.objects.filter(federation_id=federation_id)
    months = FederationRatingMonth.objects.filter(federation_id=federation_id)
    return {
        FederationRating._meta.db_table: {
            (federation_id, r.player_id): {f: getattr(r, f) for f in _RATING} for r in current
        },
        FederationRatingMonth._meta.db_table: {
            (federation_id, m.month, m.player_id): {f: getattr(m, f) for f in _MONTH}
            for m in months
        },
    }


def federation_ratings_differences(
    *, ids: Iterable[int] | None = None, fix: bool = False
) -> list[RowDifference]:
    """Each difference between the federations' rating rows and a rebuild from the events;
    rolled back unless `fix`."""
    out: list[RowDifference] = []
    for federation_id in federation_ids(ids=ids):
        out += pictures_differences(
            lambda f=federation_id: _pictures(f),
            lambda f=federation_id: federation_rebuild_in_tx(federation_id=f),
            fix=fix,
            key_names=KEY_NAMES,
        )
    return out


def federation_ratings_rebuild(*, ids: Iterable[int] | None = None) -> dict[int, int]:
    """Rebuild every federation's list (or those of `ids`), one transaction each."""
    out = {}
    for federation_id in federation_ids(ids=ids):
        with transaction.atomic():
            out[federation_id] = federation_rebuild_in_tx(federation_id=federation_id)
    return out
