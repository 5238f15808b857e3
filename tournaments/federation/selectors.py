"""Reads of federations: a player's federation ids."""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.federation.models import Member


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
