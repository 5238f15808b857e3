"""Clubs and players. A player may have a login (a Django user) or be a bot."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def language_field(**kwargs: object) -> models.CharField:
    """A language of settings.LANGUAGES ("" where the next one in the order decides)."""
    return models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, **kwargs
    )


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=120, unique=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_clubs",
        blank=True,
        verbose_name=_("organisers"),
    )
    # The language of its tournaments unless one says otherwise (README, "Languages").
    language = language_field(help_text=_("Its tournaments' language unless they set one."))
    # Persian pages show dates in the Solar Hijri calendar unless the club turns it off.
    jalali_dates = models.BooleanField(
        _("Solar Hijri dates in Persian"),
        default=True,
        help_text=_("Persian pages show dates in the Solar Hijri (Jalali) calendar."),
    )
    # The club's players (members); guests who play its tournaments are rated too.
    members = models.ManyToManyField(
        "Player", related_name="member_of", blank=True, verbose_name=_("members")
    )
    # RULES.md section 9 options a new tournament of the club starts from.
    default_ruleset = models.JSONField(_("default ruleset"), default=dict, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    # Glicko-2 settings (tournaments.domain.glicko2.RatingSettings; missing keys: the
    # defaults). A read model of the club's stream "club-<id>": every change is an event.
    rating_settings = models.JSONField(_("rating settings"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


ERASED_NAME = re.compile(r"Erased player #(\d+)")


class PlayerNameField(models.CharField):
    """A player's name; an erased player's (stored as "Erased player #N", which names no one)
    is read in the active language (issue 34), wherever the name is shown: pages, the API,
    exports and audit bundles all read it here. Deconstructs as a CharField: no migration."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is not None and value.startswith("Erased player #"):
            found = ERASED_NAME.fullmatch(value)
            if found:
                return gettext("Erased player #%(number)s") % {"number": found[1]}
        return value

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.CharField", args, kwargs


def erased_name(player_id: int) -> str:
    """What an erased player's name column holds (read translated: PlayerNameField)."""
    return f"Erased player #{player_id}"


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="player",
    )
    name = PlayerNameField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    # The player's own choice of language for the pages (and the API without Accept-Language).
    language = language_field()

    class PageVisibility(models.TextChoices):
        PUBLIC = "public", _("Everyone")
        CLUB = "club", _("My clubs' members and organisers")

    # Who may read the player's page (/players/<id>/).
    page_visibility = models.CharField(
        _("who sees my page"),
        max_length=10,
        choices=PageVisibility.choices,
        default=PageVisibility.PUBLIC,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # When the person was erased (tournaments.privacy): name, login and words gone, results
    # kept under "Erased player #N".
    erased_at = models.DateTimeField(_("erased at"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

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
        verbose_name = _("login code")
        verbose_name_plural = _("login codes")
        indexes = [models.Index(fields=["player", "expires_at"])]

    def __str__(self) -> str:
        return gettext("login code for %(player)s issued %(when)s") % {
            "player": self.player,
            "when": f"{self.issued_at:%Y-%m-%d %H:%M}",
        }
