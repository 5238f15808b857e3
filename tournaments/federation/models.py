"""A federation, its clubs and its member list. A member's name and birth year are personal
data: they live in these rows (erased with the player), never in the event log."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Federation(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    clubs = models.ManyToManyField("players.Club", related_name="federations", blank=True)

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A line of the federation's member list; `player` once linked to a club's player."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="members")
    number = models.CharField(_("federation id"), max_length=20)  # the federation's id
    name = models.CharField(_("name"), max_length=120)
    club_name = models.CharField(max_length=120, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    country = models.CharField(max_length=3, blank=True)
    player = models.ForeignKey("players.Player", on_delete=models.SET_NULL, null=True,
                               blank=True, related_name="federation_memberships")  # fmt: skip

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "number"], name="member_id_unique"),
            models.UniqueConstraint(fields=["federation", "player"], name="member_player_unique"),
        ]

    def __str__(self) -> str:
        return self.number


class FederationRating(models.Model):
    """A player's current rating in a federation's list (tournaments.federation.projection:
    derived from its clubs' rated events, rebuilt from them alone)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    periods = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=False)

    class Meta:
        ordering = ["federation", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "player"], name="federation_rating_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.federation_id}/{self.player_id}: {self.rating:.0f}"


class FederationRatingMonth(models.Model):
    """What one month (a rating period) did to one player who played in it."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("players.Player", on_delete=models.CASCADE, related_name="+")
    month = models.CharField(max_length=7)  # "2026-11" (UTC)
    rating_before = models.FloatField()
    rd_before = models.FloatField()
    rating = models.FloatField()
    rd = models.FloatField()
    volatility = models.FloatField()
    matches = models.PositiveIntegerField(default=0)  # rated matches that month

    class Meta:
        ordering = ["federation", "month", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "month", "player"], name="federation_month_unique"
            )
        ]
        indexes = [models.Index(fields=["player", "month"], name="federation_month_player")]

    def __str__(self) -> str:
        return f"{self.federation_id}/{self.month}/{self.player_id}"
