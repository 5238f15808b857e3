"""Entries beyond registering (issue 40): who may enter themselves (the entry rules), the
organisers' approval, the capacity and its waitlist, and no-shows at the check-in
deadline. Load → decide → save, as every tournament command; the domain promotes the
first waiting player whenever a place comes free (tournaments.domain.decide.waitlist)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.errors import ConflictError, PermissionDeniedError
from core.transactions import write_service
from players.models import Player
from tournaments import jobs
from tournaments.domain.commands import (
    ApproveEntry,
    MarkNoShows,
    RefuseEntry,
    SetCapacity,
    UndoNoShow,
)
from tournaments.entries.models import EntryRules
from tournaments.models import Registration, Tournament
from tournaments.ratings.selectors import seeding_ratings
from tournaments.repository import tournament_load
from tournaments.services._common import field_error, require_organiser, run
from tournaments.services.validation import aware

RULE_FIELDS = (
    "self_registration", "members_only", "rating_min", "rating_max", "invitation_only",
    "approval_required", "withdraw_until", "check_in_deadline", "fee_amount", "fee_currency",
)  # fmt: skip


def _not_eligible(message: str, reason: str) -> ConflictError:
    return ConflictError(message, code="not_eligible", extra={"rule": reason})


def eligibility_check(*, tournament: Tournament, rules: EntryRules, player: Player) -> None:
    """A player entering themselves meets the organisers' rules (409 `not_eligible`, its
    `rule` saying which: members_only, rating_band, not_invited), or the tournament takes
    no self-registration (403 `self_registration_closed`)."""
    if not rules.self_registration:
        raise PermissionDeniedError(
            gettext_noop("the organisers enter the players of this tournament"),
            code="self_registration_closed",
        )
    club = tournament.club
    if rules.members_only and (club is None or not club.members.filter(pk=player.pk).exists()):
        raise _not_eligible(gettext_noop("only the club's members may enter"), "members_only")
    if rules.rating_min is not None or rules.rating_max is not None:
        rating = seeding_ratings(club=club, player_ids=[player.pk])[player.pk]
        low, high = rules.rating_min or 0, rules.rating_max
        if rating < low or (high is not None and rating > high):
            raise _not_eligible(
                gettext_noop("your rating is outside the tournament's band"), "rating_band"
            )
    if rules.invitation_only and not rules.invited.filter(pk=player.pk).exists():
        raise _not_eligible(gettext_noop("the tournament is by invitation only"), "not_invited")


def withdrawal_check(*, rules: EntryRules, now: dt.datetime) -> None:
    """A player withdrawing themselves does so before the organisers' deadline."""
    if rules.withdraw_until is not None and now > rules.withdraw_until:
        raise ConflictError(
            gettext_noop("the deadline to withdraw has passed: ask the organisers"),
            code="withdraw_closed",
        )


def _registration(tournament: Tournament, player_id: int) -> Registration:
    return Registration.objects.select_related("player").get(
        tournament=tournament, player_id=player_id
    )


@write_service
def tournament_entry_rules_set(
    *, tournament_id: int, by: AbstractBaseUser, changes: dict[str, Any]
) -> EntryRules:
    """Set the tournament's entry rules (the names of RULE_FIELDS, and `invited`: player
    ids). The capacity is the stream's: `tournament_capacity_set`."""
    write = tournament_load(tournament_id=tournament_id)
    require_organiser(by, write.row)
    rules, _ = EntryRules.objects.get_or_create(tournament=write.row)
    for name in ("withdraw_until", "check_in_deadline"):
        if name in changes:
            aware(changes[name], name)
    currency = changes.get("fee_currency")
    if currency and not (len(currency) == 3 and currency.isascii() and currency.isupper()):
        raise field_error(
            "fee_currency", gettext_noop("a currency is a code of three capitals (EUR)"),
            "invalid",
        )  # fmt: skip
    if changes.get("fee_amount") is not None and changes["fee_amount"] < 0:
        raise field_error("fee_amount", gettext_noop("a fee is not negative"), "out_of_range")
    for name in RULE_FIELDS:
        if name in changes:
            setattr(rules, name, changes[name])
    rules.save()
    if changes.get("check_in_deadline") is not None:
        jobs.no_shows_on_commit(tournament_id=write.row.pk, eta=rules.check_in_deadline)
    if "invited" in changes:
        ids = [getattr(p, "pk", p) for p in changes["invited"]]
        rules.invited.set(Player.objects.filter(pk__in=ids))
    return rules


@write_service
def tournament_capacity_set(
    *, tournament_id: int, by: AbstractBaseUser, capacity: int | None, reason: str = ""
) -> Tournament:
    """Set the places (None: no limit): CapacityChanged, and the first waiting players
    promoted into any places it frees."""
    write = tournament_load(tournament_id=tournament_id)
    require_organiser(by, write.row)
    return run(write, SetCapacity(capacity=capacity), by=by, reason=reason).row


@write_service
def _organiser_command(
    tournament_id: int, by: AbstractBaseUser, command: Any, player_id: int, reason: str = ""
) -> Registration:
    write = tournament_load(tournament_id=tournament_id)
    require_organiser(by, write.row)
    run(write, command, by=by, reason=reason)
    return _registration(write.row, player_id)


def tournament_entry_approve(
    *, tournament_id: int, player: Player, by: AbstractBaseUser
) -> Registration:
    """Approve an entry waiting for it: registered, or waitlisted if the places are taken."""
    return _organiser_command(tournament_id, by, ApproveEntry(player=player.pk), player.pk)


def tournament_entry_refuse(
    *, tournament_id: int, player: Player, by: AbstractBaseUser, reason: str = ""
) -> Registration:
    """Refuse an entry waiting for approval or for a place."""
    return _organiser_command(
        tournament_id, by, RefuseEntry(player=player.pk), player.pk, reason=reason
    )


def tournament_no_show_undo(
    *, tournament_id: int, player: Player, by: AbstractBaseUser, reason: str = ""
) -> Registration:
    """Take back a no-show before round 1: the player is registered again."""
    return _organiser_command(
        tournament_id, by, UndoNoShow(player=player.pk), player.pk, reason=reason
    )


@write_service
def tournament_no_shows_mark(*, tournament_id: int, now: dt.datetime | None = None) -> int:
    """The job at the check-in deadline: who held a place then and has not checked in is
    withdrawn as a no-show (an event each), and the waitlist promoted. Before the
    deadline, or run again: nothing. Returns how many were withdrawn."""
    write = tournament_load(tournament_id=tournament_id)
    rules = EntryRules.objects.filter(tournament=write.row).first()
    now = now or timezone.now()
    if rules is None or rules.check_in_deadline is None or now < rules.check_in_deadline:
        return 0
    saved = run(write, MarkNoShows(deadline=rules.check_in_deadline))
    return sum(1 for e in saved.events if e.type == "PlayerWithdrawn")


def tournaments_no_shows_due(*, now: dt.datetime | None = None) -> list[int]:
    """Tournaments not started whose check-in deadline has passed (beat's net)."""
    now = now or timezone.now()
    return list(
        EntryRules.objects.filter(
            check_in_deadline__lte=now,
            check_in_deadline__gte=now - dt.timedelta(days=2),
            tournament__status=Tournament.Status.REGISTRATION,
        ).values_list("tournament_id", flat=True)
    )
