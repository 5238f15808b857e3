"""Tournaments, registrations, rounds, pairings and standings.

These rows are read models: every organiser decision that shapes a tournament is also an
event in the stream "tournament-<id>" (see tournaments.services), and standings can be
rebuilt from those events alone (tournaments.projections).
"""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models


def validate_time_zone(value: str) -> None:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise DjangoValidationError(f"unknown time zone {value!r}") from exc


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        KNOCKOUT = "knockout", "Single-elimination knockout"
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"

    class PlayMode(models.TextChoices):
        ONLINE = "online", "Online"
        TABLE = "table", "At tables (scoresheet)"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration open"
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=200)
    club = models.ForeignKey(
        "players.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    format = models.CharField(max_length=20, choices=Format.choices)
    # RULES.md section 9, copied into every match of the tournament.
    ruleset = models.JSONField(default=dict, blank=True)
    # Swiss: the number of rounds; round robin and knockout derive it from the entries.
    rounds_planned = models.PositiveIntegerField(null=True, blank=True)
    # Schedule, stored in UTC. Round N starts at round_starts[N-1] when given, otherwise at
    # starts_at + (N-1) * round_interval; with neither it is paired as soon as N-1 ends.
    starts_at = models.DateTimeField(null=True, blank=True)
    round_interval = models.DurationField(null=True, blank=True)
    round_starts = models.JSONField(default=list, blank=True)
    round_duration = models.DurationField(
        null=True, blank=True, help_text="Each round's deadline is its start plus this."
    )
    turn_time = models.DurationField(
        null=True, blank=True, help_text="A player who does not act within this forfeits."
    )
    dispute_window = models.DurationField(
        null=True,
        blank=True,
        help_text=(
            "Disputes must be opened within this time after the match ends (empty: no limit)."
        ),
    )
    play_mode = models.CharField(max_length=10, choices=PlayMode.choices, default="online")
    is_public = models.BooleanField(default=True)
    check_in_required = models.BooleanField(default=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_tournaments", blank=True
    )
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    tiebreaks = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default="registration")
    current_round = models.PositiveIntegerField(default=0)
    # Version of the tournament's event stream this row reflects (optimistic guard).
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def stream_id(self) -> str:
        return f"tournament-{self.pk}"

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)


class Registration(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked_in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="registrations"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default="registered")
    seed = models.PositiveIntegerField(null=True, blank=True)
    late = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seed", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_registration_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", "Paired, in play"
        COMPLETED = "completed", "Completed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default="paired")
    scheduled_at = models.DateTimeField(null=True, blank=True)
    paired_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    paired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            # The database half of "a round is paired exactly once": a second pairing job
            # that slipped past the status guard fails here and rolls back.
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_unique")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Pairing(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "In play"
        FINISHED = "finished", "Finished"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveIntegerField()
    player1 = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    # None: player1 has a bye.
    player2 = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_pairing",
    )
    # The match stream's version when paired: a higher version means play has started.
    match_version_at_pairing = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, choices=Status.choices, default="pending")
    winner = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    games1 = models.PositiveIntegerField(default=0)
    games2 = models.PositiveIntegerField(default=0)
    points1 = models.IntegerField(default=0)
    points2 = models.IntegerField(default=0)
    result_reason = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="tournament_pairing_table")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.table}: {self.player1} v {self.player2 or 'bye'}"


class Standing(models.Model):
    """The standings read model, refreshed whenever a result is recorded."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    rank = models.PositiveIntegerField()
    match_wins = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    points_diff = models.IntegerField(default=0)
    buchholz = models.FloatField(default=0)
    sonneborn_berger = models.FloatField(default=0)
    byes = models.PositiveIntegerField(default=0)
    withdrawn = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "rank", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_standing_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player}"


# Webhook endpoints and their delivery log live in tournaments/webhooks/ (models of this app).
from tournaments.webhooks.models import Delivery, WebhookEndpoint  # noqa: E402, F401
