"""A player's notices (issue 40): what the tournament told them, listed on /me/ and sent
by e-mail once, and the kinds of e-mail they do not want."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Notice(models.Model):
    class Kind(models.TextChoices):
        REGISTERED = "registered", _("Registration confirmed")
        WAITLISTED = "waitlisted", _("Waitlisted")
        PROMOTED = "promoted", _("Promoted from the waitlist")
        PAIRED = "paired", _("Round paired")
        CONFIRM = "confirm", _("A result awaiting my confirmation")
        RULED = "ruled", _("A dispute ruled")
        REMINDER = "reminder", _("Reminder the day before")

    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="notices")
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # What makes it one notice: the event's stream and version (or the reminder's day), the
    # kind and the player. A job run twice finds it and sends nothing more.
    key = models.CharField(max_length=200, unique=True)
    data = models.JSONField(default=dict, blank=True)  # ids, numbers, ISO times: no names
    created_at = models.DateTimeField(auto_now_add=True)
    emailed_at = models.DateTimeField(null=True, blank=True)  # claimed before it is sent

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "-created_at"], name="notice_player_recent")]

    def __str__(self) -> str:
        return self.key


class NoticeOptOut(models.Model):
    """The player wants no e-mail of this kind (the notice is still listed on /me/)."""

    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Notice.Kind.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="notice_opt_out_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player_id}:{self.kind}"
