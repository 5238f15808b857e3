"""Entry fees at the desk (issue 40): each registration paid, unpaid or waived, as the
organisers record it (no payment processor: clubs take cash or transfers)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_noop

from core.errors import ConflictError, NotFoundError
from core.transactions import write_service
from tournaments.entries.models import EntryPayment
from tournaments.models import Registration, Tournament
from tournaments.selectors.entries import entry_rules_of
from tournaments.services._common import field_error, require_organiser


@write_service
def tournament_entry_payment_set(
    *, tournament_id: int, player_id: int, status: str, by: AbstractBaseUser
) -> EntryPayment:
    """Record a registration's fee as paid (the tournament's fee), unpaid or waived."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFoundError(gettext_noop("no such tournament"))
    require_organiser(by, tournament)
    if status not in EntryPayment.Status.values:
        raise field_error("status", gettext_noop("a payment is paid, unpaid or waived"), "invalid")
    if not Registration.objects.filter(tournament=tournament, player_id=player_id).exists():
        raise ConflictError("the player is not registered", code="not_registered")
    fee = entry_rules_of(tournament).fee_amount
    payment, _ = EntryPayment.objects.update_or_create(
        tournament=tournament,
        player_id=player_id,
        defaults={
            "status": status,
            "amount": fee if status == EntryPayment.Status.PAID else None,
            "recorded_by": by,
        },
    )
    return payment
