"""Read models (projections) of matches. Every field below except the deal plan is derived
from the match's event stream by `games.projections` and may be rebuilt from the events
alone (`manage.py rebuild_projections`); nothing here is edited in place."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Match", "MatchDealPlan", "MatchHand"]


class Match(models.Model):
    """One row per match stream (`stream_id` = "match-<id>"): the match summary with its
    Hollywood scoresheet, kept in step with the events in the same transaction."""

    class Mode(models.TextChoices):
        ONLINE = "online", _("Online")
        TABLE = "table", _("Table (scoresheet)")

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    stream_id = models.CharField(max_length=80, unique=True, editable=False)
    player1 = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="matches_as_player1"
    )
    player2 = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="matches_as_player2"
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_matches", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_matches",
    )
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.ONLINE)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    ruleset = models.JSONField(default=dict)
    label = models.CharField(max_length=200, blank=True, default="")
    # A practice match against the engine's bot (games.services.practice): never rated, never a
    # tournament's. Registered in the first event's metadata, as the players are.
    practice = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=0)
    hand_number = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=20, blank=True, default="")
    # Not indexed: it changes on almost every action, and an indexed column changing makes
    # PostgreSQL write a new entry in every index of the table (no HOT update).
    turn_player = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    last_action_at = models.DateTimeField(null=True, blank=True)
    scoresheet = models.JSONField(default=dict)
    games_won_p1 = models.PositiveSmallIntegerField(default=0)
    games_won_p2 = models.PositiveSmallIntegerField(default=0)
    points_p1 = models.IntegerField(default=0)
    points_p2 = models.IntegerField(default=0)
    winner = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches_won",
    )
    finish_reason = models.CharField(max_length=20, blank=True, default="")
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [
            models.Index(fields=["status", "-created_at"], name="match_status_created"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player1=models.F("player2")), name="match_two_players"
            ),
        ]

    def __str__(self) -> str:
        label = f" ({self.label})" if self.label else ""
        return f"{self.player1} v {self.player2}{label}"

    def player_id_for_seat(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        return self.player1_id if seat == 0 else self.player2_id

    def seat_of(self, player_id: int | None) -> int | None:
        if player_id is not None and player_id == self.player1_id:
            return 0
        if player_id is not None and player_id == self.player2_id:
            return 1
        return None


class MatchHand(models.Model):
    """One row per hand that ended (scored, drawn, recorded at a table), was voided, or was
    cut short by the end of the match (cancelled, forfeited, resigned)."""

    class Kind(models.TextChoices):
        GIN = "gin", _("Gin")
        KNOCK = "knock", _("Knock")
        UNDERCUT = "undercut", _("Undercut")
        DRAW = "draw", _("Drawn")
        VOID = "void", _("Voided in play")
        UNFINISHED = "unfinished", _("Unfinished: the match ended")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    hand_number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    knocker = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    winner = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    points = models.IntegerField(default=0)
    knocker_deadwood = models.IntegerField(null=True, blank=True)
    defender_deadwood = models.IntegerField(null=True, blank=True)
    games = models.JSONField(default=list)
    voided = models.BooleanField(default=False)
    void_reason = models.TextField(blank=True, default="")
    # Each correction of the hand's entry: {"before", "after", "reason", "by", "version",
    # "at"}; the first "before" is the entry as first recorded (a crossed-out line).
    corrections = models.JSONField(default=list, blank=True)
    # Played after the point where the (corrected) sequence of hands ended the match: kept,
    # but counts for nothing.
    after_end = models.BooleanField(default=False)
    version = models.PositiveIntegerField(help_text="stream version of the event that ended it")

    class Meta:
        ordering = ["match", "hand_number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["match", "hand_number"], name="matchhand_unique"),
        ]

    def __str__(self) -> str:
        return f"hand {self.hand_number}: {self.kind}"


class MatchDealPlan(models.Model):
    """How a seeded or preset match deals its hands (tests, duplicate events). Not a
    projection: it is configuration given at creation and kept private; it never leaves the
    server except as the deck revealed when each hand ends."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="deal_plan")
    seed = models.CharField(max_length=200, blank=True, default="")
    decks = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"deal plan of {self.match_id}"
