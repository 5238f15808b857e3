"""A team event's read models: the event, its teams, its team matches and boards, its team
standings. Every row follows from the stream "team-event-<id>" alone
(tournaments.teams.projections writes them; verify_projections compares them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TeamEvent(models.Model):
    class Format(models.TextChoices):
        TEAM_ROUND_ROBIN = "team_round_robin", _("Team round robin")
        TEAM_SWISS = "team_swiss", _("Team Swiss")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration open")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    club = models.ForeignKey(
        "players.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="team_events"
    )
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    boards = models.PositiveSmallIntegerField(_("boards"), default=4)
    match_points = models.JSONField(default=list)  # [win, draw, loss]
    ruleset = models.JSONField(default=dict, blank=True)
    play_mode = models.CharField(max_length=10, default="online")
    rounds_planned = models.PositiveIntegerField(null=True, blank=True)
    current_round = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    is_public = models.BooleanField(default=True)
    # A tournament of format team_round_robin/team_swiss owns its team event (its
    # TeamEventCreated names it).
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="team_event",
    )
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def stream_id(self) -> str:
        return f"team-event-{self.pk}"


class Team(models.Model):
    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    club = models.ForeignKey(
        "players.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    captain = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    roster = models.JSONField(default=list)  # player ids in board order
    seed = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="team_number_unique")
        ]

    def __str__(self) -> str:
        return self.name


class TeamMatch(models.Model):
    """A team match of a round (team2 None: a bye) and, once every board has a result, its
    score."""

    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveIntegerField()
    table = models.PositiveIntegerField()
    team1 = models.PositiveIntegerField()
    team2 = models.PositiveIntegerField(null=True)
    boards1 = models.PositiveIntegerField(null=True)  # boards won (None: not finished)
    boards2 = models.PositiveIntegerField(null=True)
    points1 = models.IntegerField(null=True)
    points2 = models.IntegerField(null=True)
    outcome1 = models.CharField(max_length=5, blank=True)  # win, draw, loss

    class Meta:
        ordering = ["event", "round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["event", "round", "table"], name="team_match_unique")
        ]

    def __str__(self) -> str:
        return f"R{self.round} T{self.table}"


class TeamBoard(models.Model):
    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="boards_played")
    round = models.PositiveIntegerField()
    table = models.PositiveIntegerField()
    board = models.PositiveIntegerField()
    player1 = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    player2 = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    dealer = models.PositiveIntegerField()  # the player id who deals first
    match_id = models.UUIDField(unique=True)
    winner = models.PositiveIntegerField(null=True)
    games1 = models.PositiveIntegerField(default=0)
    games2 = models.PositiveIntegerField(default=0)
    points1 = models.IntegerField(default=0)
    points2 = models.IntegerField(default=0)
    result = models.CharField(max_length=10, blank=True)  # "" until it has one

    class Meta:
        ordering = ["event", "round", "table", "board"]

    def __str__(self) -> str:
        return f"R{self.round} T{self.table} B{self.board}"


class TeamStanding(models.Model):
    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="standings")
    team = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    match_points = models.IntegerField()
    board_points = models.IntegerField()
    hollywood_points = models.IntegerField()
    played = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    drawn = models.PositiveIntegerField()
    lost = models.PositiveIntegerField()
    byes = models.PositiveIntegerField()

    class Meta:
        ordering = ["event", "rank"]

    def __str__(self) -> str:
        return f"{self.rank}. team {self.team}"
