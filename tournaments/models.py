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
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise DjangoValidationError(
            _("unknown time zone %(zone)s") % {"zone": repr(value)}
        ) from exc


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("Single-elimination knockout")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        # Club sides, board against board: the tournament owns a team event (issue 39)
        TEAM_ROUND_ROBIN = "team_round_robin", _("Team round robin")
        TEAM_SWISS = "team_swiss", _("Team Swiss")

    class PlayMode(models.TextChoices):
        ONLINE = "online", _("Online")
        TABLE = "table", _("At tables (scoresheet)")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    club = models.ForeignKey(
        "players.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("club"),
    )
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    # RULES.md section 9, copied into every match of the tournament.
    ruleset = models.JSONField(_("ruleset"), default=dict, blank=True)
    # Swiss: the number of rounds; round robin and knockout derive it from the entries.
    rounds_planned = models.PositiveIntegerField(_("rounds planned"), null=True, blank=True)
    # Schedule, stored in UTC. Round N starts at round_starts[N-1] when given, otherwise at
    # starts_at + (N-1) * round_interval; with neither it is paired as soon as N-1 ends.
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    round_interval = models.DurationField(_("round interval"), null=True, blank=True)
    round_starts = models.JSONField(_("round starts"), default=list, blank=True)
    round_duration = models.DurationField(
        _("round duration"),
        null=True,
        blank=True,
        help_text=_("Each round's deadline is its start plus this."),
    )
    turn_time = models.DurationField(
        _("turn time"),
        null=True,
        blank=True,
        help_text=_("A player who does not act within this forfeits."),
    )
    dispute_window = models.DurationField(
        _("dispute window"),
        null=True,
        blank=True,
        help_text=_(
            "Disputes must be opened within this time after the match ends (empty: no limit)."
        ),
    )
    play_mode = models.CharField(
        _("play mode"), max_length=10, choices=PlayMode.choices, default="online"
    )
    is_public = models.BooleanField(_("public"), default=True)
    check_in_required = models.BooleanField(_("check-in required"), default=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_tournaments",
        blank=True,
        verbose_name=_("organisers"),
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_time_zone]
    )
    # Prints and the wall screen; a page's fallback after the person's choice and the
    # browser's ("": its club's, see tournaments.selectors.tournament_language).
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Empty: the club's language."),
    )
    tiebreaks = models.JSONField(_("tiebreaks"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default="registration"
    )
    current_round = models.PositiveIntegerField(_("current round"), default=0)
    # Version of the tournament's event stream this row reflects (optimistic guard).
    version = models.PositiveIntegerField(_("version"), default=0)
    # Places (None: no limit), from CapacityChanged; beyond them, a waitlist (issue 40).
    capacity = models.PositiveIntegerField(_("capacity"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

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
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        WAITLISTED = "waitlisted", _("Waitlisted")
        REQUESTED = "requested", _("Awaiting approval")
        REFUSED = "refused", _("Refused")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="registrations"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default="registered")
    seed = models.PositiveIntegerField(null=True, blank=True)
    late = models.BooleanField(default=False)
    # The event's time, as every projected column (an auto_now_add stamped the write's time,
    # and verify_projections then named every registration never checked in).
    registered_at = models.DateTimeField(default=timezone.now)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Withdrawn by the check-in deadline. A database default too: the previous release's
    # processes insert registrations without it while `migrate` runs.
    no_show = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["seed", "registered_at", "id"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_registration_unique"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(tournament)s") % {
            "player": self.player,
            "tournament": self.tournament,
        }


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired, in play")
        COMPLETED = "completed", _("Completed")

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
    # When the round's time started running (its deadline follows it): when it was
    # (re-)paired, or when the director started the clock as play began (by hand).
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_started_by_hand = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            # The database half of "a round is paired exactly once": a second pairing job
            # that slipped past the status guard fails here and rolls back.
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_unique")
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s round %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }


class Pairing(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("In play")
        FINISHED = "finished", _("Finished")

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
        related_name="+",
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
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="tournament_pairing_table")
        ]

    def __str__(self) -> str:
        return gettext("%(round)s table %(table)s: %(player1)s v %(player2)s") % {
            "round": self.round,
            "table": self.table,
            "player1": self.player1,
            "player2": self.player2 or gettext("bye"),
        }


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
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_standing_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player}"


# Webhook endpoints and their delivery log live in tournaments/webhooks/ (models of this app).
# Entry rules and calendar feeds (issue 40), and the players' notices.
from tournaments.entries.models import CalendarFeed, EntryPayment, EntryRules  # noqa: E402, F401
from tournaments.notices.models import Notice, NoticeOptOut  # noqa: E402, F401
from tournaments.webhooks.models import Delivery, WebhookEndpoint  # noqa: E402, F401
