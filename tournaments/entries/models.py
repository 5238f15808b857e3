"""The rows of a tournament's entries beyond its event stream (issue 40): who may enter it
themselves (the organisers' entry rules), and the calendar feed's secret of a player.

The places (capacity) and every entry's status are the stream's (CapacityChanged,
PlayerWaitlisted, ...); these rows hold what the organisers decide ahead and may change
at any time, read by the services when they decide."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class EntryRules(models.Model):
    """Who may enter the tournament themselves, and the deadlines of entering."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="entry_rules",
    )
    self_registration = models.BooleanField(_("players register themselves"), default=True)
    members_only = models.BooleanField(_("club members only"), default=False)
    rating_min = models.PositiveIntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.PositiveIntegerField(_("highest rating"), null=True, blank=True)
    invitation_only = models.BooleanField(_("invited players only"), default=False)
    invited = models.ManyToManyField(
        "players.Player", blank=True, related_name="+", verbose_name=_("invited players")
    )
    approval_required = models.BooleanField(_("organisers approve each entry"), default=False)
    withdraw_until = models.DateTimeField(_("players may withdraw until"), null=True, blank=True)
    check_in_deadline = models.DateTimeField(_("check-in deadline"), null=True, blank=True)
    # The entry fee taken at the desk (no payment processor: cash or a transfer).
    fee_amount = models.DecimalField(
        _("entry fee"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    fee_currency = models.CharField(_("currency"), max_length=3, blank=True)

    class Meta:
        verbose_name = _("entry rules")
        verbose_name_plural = _("entry rules")

    def __str__(self) -> str:
        return str(self.tournament_id)


class EntryPayment(models.Model):
    """A registration's entry fee as the desk recorded it."""

    class Status(models.TextChoices):
        UNPAID = "unpaid", _("Unpaid")
        PAID = "paid", _("Paid")
        WAIVED = "waived", _("Waived")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UNPAID)
    amount = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_payment_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.player_id}:{self.status}"


def new_calendar_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarFeed(models.Model):
    """A player's own calendar feed: its URL carries this secret (calendar apps send no
    tokens); a new secret revokes the old URL."""

    player = models.OneToOneField(
        "players.Player", on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True, default=new_calendar_token)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return str(self.player_id)
