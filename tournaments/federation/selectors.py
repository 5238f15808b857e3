"""Reads of federations: who manages one, its member list, a player's federation ids and
its stored rating list."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from core.errors import NotFoundError, PermissionDeniedError
from players.models import Player
from tournaments.domain.glicko2 import Rating, RatingSettings, is_provisional, rating_widened
from tournaments.federation.models import (
    Federation,
    FederationRating,
    FederationRatingMonth,
    Member,
)
from tournaments.selectors.exports import csv_text


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


def user_can_manage_federation(*, user: Any, federation: Federation) -> bool:
    """Staff, and the organisers of one of its clubs (a member list is personal data: they
    alone read it and import it)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return federation.clubs.filter(organisers=user).exists()


def federations_managed_by(*, user: Any) -> list[Federation]:
    if user is None or not user.is_authenticated:
        return []
    rows = Federation.objects.order_by("name")
    if not (user.is_staff or user.is_superuser):
        rows = rows.filter(clubs__organisers=user).distinct()
    return list(rows[:50])


def federation_get_for_manage(*, federation_id: Any, user: Any) -> Federation:
    """The federation if `user` manages it: NotFoundError (federation_not_found) if there is
    none, PermissionDeniedError (not_club_organiser) otherwise."""
    try:
        federation = Federation.objects.filter(pk=int(federation_id)).first()
    except (TypeError, ValueError):
        federation = None
    if federation is None:
        raise NotFoundError(
            gettext_noop("no such federation"), extra={"reason": "federation_not_found"}
        )
    if not user_can_manage_federation(user=user, federation=federation):
        raise PermissionDeniedError(
            gettext_noop("only the organisers of its clubs may do this"),
            extra={"reason": "not_club_organiser"},
        )
    return federation


def federation_members(*, federation: Federation) -> list[Member]:
    """Its member list by federation id, each with the player linked (or none)."""
    return list(federation.members.select_related("player").order_by("number"))


def player_federation_ids(*, player_id: int) -> list[tuple[str, str]]:
    """(federation name, federation id) of every federation listing the player."""
    rows = Member.objects.filter(player_id=player_id).order_by("federation__name")
    return list(rows.values_list("federation__name", "number"))


# --- the monthly rating report ---------------------------------------------------------------

REPORT_VERSION = "HGXR 1"
REPORT_COLUMNS = ["rank", "federation_id", "player", "name", "rating", "rd", "change",
                  "matches", "provisional"]  # fmt: skip


@dataclass(frozen=True)
class ReportLine:
    rank: int
    player: int
    federation_id: str
    name: str
    rating: float
    rd: float
    change: float | None  # this month's (None: did not play in it)
    matches: int  # rated matches this month
    provisional: bool


def federation_report_months(*, federation_id: int) -> list[str]:
    """The months the federation's list has, newest first ("2026-11")."""
    rows = FederationRatingMonth.objects.filter(federation_id=federation_id)
    return sorted(set(rows.values_list("month", flat=True)), reverse=True)


def federation_month_report(*, federation: Federation, month: str) -> list[ReportLine]:
    """The list as it stood at the end of `month`: everyone rated by then, at the rating of
    the last month they played up to it and its deviation widened by each rating period
    (a month with rated matches) since, as the list widens it, best first (ties by player
    id); this month's change and rated matches for those who played in it."""
    settings = RatingSettings()
    rows = list(
        FederationRatingMonth.objects.filter(federation=federation, month__lte=month).order_by(
            "month"
        )
    )
    latest = {m.player_id: m for m in rows}  # each player's last month (rows in month order)
    periods = sorted({m.month for m in rows})  # the rating periods: months anyone played in
    index = {m: i for i, m in enumerate(periods)}
    now: dict[int, Rating] = {
        p: rating_widened(
            Rating(m.rating, m.rd, m.volatility), index[periods[-1]] - index[m.month], settings
        )
        for p, m in latest.items()
    }
    order = sorted(latest, key=lambda p: (-now[p].rating, p))
    names = dict(Player.objects.filter(pk__in=order).values_list("pk", "name"))
    feds = federation_ids_of(player_ids=order)
    return [
        ReportLine(
            rank,
            p,
            feds.get(p, ""),
            names.get(p, ""),
            now[p].rating,
            now[p].rd,
            latest[p].rating - latest[p].rating_before if latest[p].month == month else None,
            latest[p].matches if latest[p].month == month else 0,
            is_provisional(now[p], settings),
        )  # fmt: skip
        for rank, p in enumerate(order, start=1)
    ]


def federation_report_csv(*, federation: Federation, month: str) -> str:
    return csv_text(
        REPORT_COLUMNS,
        (
            [x.rank, x.federation_id, x.player, x.name, round(x.rating, 1), round(x.rd, 1),
             None if x.change is None else round(x.change, 1), x.matches, int(x.provisional)]
            for x in federation_month_report(federation=federation, month=month)
        ),
    )  # fmt: skip


def federation_report_hgx(*, federation: Federation, month: str) -> str:
    """The month's report as fixed fields (docs/explanation/exchange-format.md, HGXR 1):
    `003 RRRR FEDID(12) NAME(33) RRRR.R DDD.D +CCC.C GGG P` a player."""
    lines = [REPORT_VERSION, f"012 {federation.name}", f"082 {month}"]
    for x in federation_month_report(federation=federation, month=month):
        change = "" if x.change is None else f"{x.change:+.1f}"
        lines.append(
            f"003 {x.rank:4d} {x.federation_id[:12]:>12} {x.name[:33]:<33} {x.rating:7.1f}"
            f" {x.rd:6.1f} {change:>7} {x.matches:3d} {int(x.provisional)}"
        )
    return "\n".join(lines) + "\n"
