"""Hands entered by the players of a table match on their phones, waiting for the
opponent's confirmation. Not a read model: an entry is a proposal; only a confirmed (or an
organiser's accepted) entry becomes a hand, recorded as an event of the match by
`games.services.match_record_hand` with who entered and who confirmed it in the event's
metadata. A disputed entry waits for an organiser."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.hand_entries import HandEntry

__all__ = ["TableEntry"]


class TableEntry(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the opponent")
        CONFIRMED = "confirmed", _("Confirmed by the opponent")
        DISPUTED = "disputed", _("Disputed: the organiser decides")
        ACCEPTED = "accepted", _("Accepted by an organiser")
        REJECTED = "rejected", _("Rejected by an organiser")
        WITHDRAWN = "withdrawn", _("Withdrawn by who entered it")
        STALE = "stale", _("Overtaken: the scoresheet changed first")
        AMENDED = "amended", _("Amended and recorded by an organiser")

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="table_entries")
    # The match's stream version the entry was made against: it is recorded only if the
    # match is still there (nothing entered meanwhile from the desk or another phone).
    version = models.PositiveIntegerField()
    entered_by = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    drawn = models.BooleanField(default=False)
    knocker = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    gin = models.BooleanField(default=False)
    knocker_deadwood = models.PositiveIntegerField(null=True, blank=True)
    defender_deadwood = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    note = models.TextField(blank=True, default="")  # the dispute's reason, a ruling's
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "created_at", "id"]
        verbose_name_plural = "table entries"
        constraints = [
            # One open entry a table at a time: the second phone is told to wait.
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(status__in=["pending", "disputed"]),
                name="table_entry_one_open",
            )
        ]

    def __str__(self) -> str:
        if self.drawn:
            return "drawn hand"
        kind = "gin" if self.gin else "knock"
        return f"{kind} by {self.knocker}: {self.knocker_deadwood} / {self.defender_deadwood}"

    def as_entry(self) -> HandEntry:
        """The hand as it was entered (or amended)."""
        return HandEntry(
            drawn=self.drawn,
            knocker=self.knocker_id,
            gin=self.gin,
            knocker_deadwood=self.knocker_deadwood,
            defender_deadwood=self.defender_deadwood,
        )

    def set_entry(self, hand: HandEntry) -> None:
        """Hold `hand` (not saved: the caller saves)."""
        self.drawn, self.gin, self.knocker_id = hand.drawn, hand.gin, hand.knocker
        self.knocker_deadwood = hand.knocker_deadwood
        self.defender_deadwood = hand.defender_deadwood
