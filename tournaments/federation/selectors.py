"""Reads of federations: a player's federation ids."""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.federation.models import FederationRating, FederationRatingMonth, Member


def federation_ids_of(*, player_ids: Iterable[int]) -> dict[int, str]:
    """Each linked player's federation id (the first federation's, by id)."""
    out: dict[int, str] = {}
    rows = Member.objects.filter(player_id__in=list(player_ids)).order_by("federation", "pk")
    for player, fed in rows.values_list("player_id", "number"):
        out.setdefault(player, fed)
    return out


def players_by_federation_id(*, ids: Iterable[str]) -> dict[str, int]:
    rows = Member.objects.filter(number__in=list(ids), player__isnull=False)
    return dict(rows.values_list("number", "player_id"))


def federation_ratings(*, federation_id: int) -> list[FederationRating]:
    """The federation's stored list, best first (tournaments.federation.projection)."""
    return list(
        FederationRating.objects.filter(federation_id=federation_id)
        .select_related("player")
        .order_by("rank")
    )


def federation_player_ratings(*, player_id: int) -> list[dict]:
    """A player's rating in every federation list they are in, with its months (oldest
    first): [{"federation", "rating": FederationRating, "months": [FederationRatingMonth]}]."""
    rows = FederationRating.objects.filter(player_id=player_id).select_related("federation")
    months = FederationRatingMonth.objects.filter(player_id=player_id).order_by("month")
    by_federation: dict[int, list[FederationRatingMonth]] = {}
    for m in months:
        by_federation.setdefault(m.federation_id, []).append(m)
    return [
        {"federation": r.federation, "rating": r, "months": by_federation.get(r.federation_id, [])}
        for r in rows.order_by("federation__name")
    ]
