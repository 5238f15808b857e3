"""Reads of the entries beyond registering (issue 40): the entry rules, the waitlist and
approvals as the desk and the players' pages show them, and the promotions the stream
records."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import eventstore
from players.models import Player
from tournaments.entries.models import EntryPayment, EntryRules
from tournaments.models import Registration, Tournament


def entry_rules_of(tournament: Tournament) -> EntryRules:
    """The tournament's entry rules (unsaved defaults where it has none: anyone may
    register themselves in a public tournament, as before issue 40)."""
    rules = EntryRules.objects.filter(tournament=tournament).first()
    return rules if rules is not None else EntryRules(tournament=tournament)


@dataclass(frozen=True)
class Promotion:
    player: str
    cause: str
    at: dt.datetime | None


@dataclass(frozen=True)
class EntriesOverview:
    capacity: int | None
    places_taken: int
    waitlist: list[Registration] = field(default_factory=list)  # first to be promoted first
    requested: list[Registration] = field(default_factory=list)
    no_shows: list[Registration] = field(default_factory=list)
    promotions: list[Promotion] = field(default_factory=list)  # latest first


def tournament_entries_overview(*, tournament: Tournament) -> EntriesOverview:
    regs = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("registered_at", "id")
    )
    names = {r.player_id: r.player.name for r in regs}
    promoted = [
        Promotion(names.get(e.data.get("player"), "?"), e.data.get("cause", ""), e.recorded_at)
        for e in eventstore.load(stream_id=tournament.stream_id)
        if e.type == "PlayerPromoted"
    ]
    taken = sum(1 for r in regs if r.status in ("registered", "checked_in"))
    return EntriesOverview(
        capacity=tournament.capacity,
        places_taken=taken,
        waitlist=[r for r in regs if r.status == "waitlisted"],
        requested=[r for r in regs if r.status == "requested"],
        no_shows=[r for r in regs if r.no_show and r.status == "withdrawn"],
        promotions=promoted[::-1][:20],
    )


def player_entry_in(*, tournament: Tournament, player: Player | None) -> dict[str, Any] | None:
    """The player's entry in the tournament (status, waitlist place), None if they have
    none."""
    if player is None:
        return None
    reg = Registration.objects.filter(tournament=tournament, player=player).first()
    if reg is None:
        return None
    place = None
    if reg.status == Registration.Status.WAITLISTED:
        place = (
            Registration.objects.filter(
                tournament=tournament, status=Registration.Status.WAITLISTED
            )
            .filter(registered_at__lt=reg.registered_at)
            .count()
            + 1
        )
    return {"status": reg.status, "label": reg.get_status_display(), "place": place, "reg": reg}


def player_entries(*, player: Player) -> list[dict[str, Any]]:
    """The player's entries in tournaments not finished (the withdrawn too), each with
    its waitlist place."""
    regs = (
        Registration.objects.filter(player=player)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament")
        .order_by("-registered_at")
    )
    out = []
    for reg in regs:
        entry = player_entry_in(tournament=reg.tournament, player=player)
        if entry is not None:
            out.append({**entry, "tournament": reg.tournament})
    return out


def tournaments_open_for_entry(*, user: Any, player: Player, limit: int = 20) -> list[Tournament]:
    """Public tournaments taking entries that the player may enter themselves and has
    not entered (their rules are checked when they enter)."""
    closed = EntryRules.objects.filter(self_registration=False).values("tournament_id")
    qs = (
        Tournament.objects.filter(is_public=True, status=Tournament.Status.REGISTRATION)
        .exclude(registrations__player=player)
        .exclude(pk__in=closed)
        .order_by("starts_at", "pk")
    )
    return list(qs[:limit])


@dataclass(frozen=True)
class CashLine:
    player: str
    entry: str  # the registration's status
    payment: str  # paid, unpaid, waived
    amount: Decimal | None
    player_id: int


@dataclass(frozen=True)
class CashSheet:
    fee: Decimal | None
    currency: str
    lines: list[CashLine]
    paid: int
    unpaid: int
    waived: int
    collected: Decimal


def tournament_cash_sheet(*, tournament: Tournament) -> CashSheet:
    """The evening's cash sheet: every player holding a place (and anyone whose payment
    was recorded), in order of entry, with the total collected."""
    rules = entry_rules_of(tournament)
    payments = {p.player_id: p for p in EntryPayment.objects.filter(tournament=tournament)}
    regs = (
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("registered_at", "id")
    )
    lines = [
        CashLine(
            player=r.player.name,
            entry=r.status,
            payment=payments[r.player_id].status if r.player_id in payments else "unpaid",
            amount=payments[r.player_id].amount if r.player_id in payments else None,
            player_id=r.player_id,
        )
        for r in regs
        if r.status in ("registered", "checked_in") or r.player_id in payments
    ]
    return CashSheet(
        fee=rules.fee_amount,
        currency=rules.fee_currency,
        lines=lines,
        paid=sum(1 for x in lines if x.payment == "paid"),
        unpaid=sum(1 for x in lines if x.payment == "unpaid"),
        waived=sum(1 for x in lines if x.payment == "waived"),
        collected=sum((x.amount or Decimal(0) for x in lines if x.payment == "paid"), Decimal(0)),
    )
