"""Clubs and players. A player may have a login (a Django user) or be a bot."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_clubs", blank=True
    )
    # The club's players (members); guests who play its tournaments are rated too.
    members = models.ManyToManyField("Player", related_name="member_of", blank=True)
    # RULES.md section 9 options a new tournament of the club starts from.
    default_ruleset = models.JSONField(default=dict, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    # Glicko-2 settings (tournaments.domain.glicko2.RatingSettings; missing keys: the
    # defaults). A read model of the club's stream "club-<id>": every change is an event.
    rating_settings = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="player",
    )
    name = models.CharField(max_length=120)
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="players"
    )
    is_bot = models.BooleanField(default=False)
    rating = models.IntegerField(default=1500)

    class PageVisibility(models.TextChoices):
        PUBLIC = "public", "Everyone"
        CLUB = "club", "My clubs' members and organisers"

    # Who may read the player's page (/players/<id>/).
    page_visibility = models.CharField(
        max_length=10, choices=PageVisibility.choices, default=PageVisibility.PUBLIC
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class LoginCode(models.Model):
    """A one-time code an organiser gives a player without a password, to sign in on a
    phone (players.services.player_login_code_issue). Only a keyed hash of the code is
    stored: the organiser sees the code once, when it is issued."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="login_codes")
    # HMAC-SHA256 of the normalised code under SECRET_KEY (hex): found by lookup, never shown.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    issued_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    # A newer code for the same player, or a password set, ends an unused one.
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_at", "-id"]
        indexes = [models.Index(fields=["player", "expires_at"])]

    def __str__(self) -> str:
        return f"login code for {self.player} issued {self.issued_at:%Y-%m-%d %H:%M}"
