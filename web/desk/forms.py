"""The desk's forms. They check the shape of the input; the services check the rules (and
their errors are shown on the same form, see web.desk.access.FORM_ERRORS)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo

import jdatetime
from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from core.text import FreeTextField
from games.selectors import ruleset_normalise
from tournaments.pairing import TIEBREAK_CHOICES
from tournaments.setting_labels import TIEBREAK_LABELS
from web.localize import latin_digits
from web.zones import country_of_language, country_of_zone, default_zone, zone_choices

# The values the services accept (tournaments.models.Tournament's choices; the pages may
# not import models, and the service validates them again).
FORMATS = [
    ("swiss", _("Swiss")),
    ("round_robin", _("Round robin")),
    ("knockout", _("Single-elimination knockout")),
]
PLAY_MODES = [("table", _("At tables (scoresheet)")), ("online", _("Online"))]


TIEBREAK_SLOTS = 4


def _tiebreak_slot(n: int) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=[("", "—"), *((t, TIEBREAK_LABELS.get(t, t)) for t in TIEBREAK_CHOICES)],
        required=False,
        label=format_lazy(_("Tiebreak {number}"), number=n),
    )


class DeskAuthenticationForm(AuthenticationForm):
    """Django's sign-in form; the username's digits as a Persian or Arabic keyboard types
    them are taken as the Latin ones the account has ("ژاله-رضایی-۱۷")."""

    def clean_username(self) -> str:
        return latin_digits(self.cleaned_data.get("username") or "")


def isolated(text: str) -> str:
    """A name inside a label (escaped text, so not <bdi>): isolated by U+2068 ... U+2069."""
    return f"\u2068{text}\u2069"


def language_choices() -> list[tuple[str, str]]:
    """Each language in its own words (settings.LANGUAGES, as the switcher names them);
    "": the club's."""
    return [("", _("The club's language (else English)")), *settings.LANGUAGES]


class TournamentLanguageForm(forms.Form):
    """The language of a tournament's prints and wall screen (the desk's settings)."""

    language = forms.ChoiceField(
        choices=language_choices, required=False, label=_("Language of prints and the wall screen")
    )


def zone_field() -> forms.ChoiceField:
    """A tournament's time zone; its choices are the page language's (`zone_choices`), set
    by the form, with the search box above it (desk/_zone_field.html, zones.js)."""
    return forms.ChoiceField(
        choices=[], label=_("Time zone"), widget=forms.Select(attrs={"data-zone-select": ""})
    )


class TournamentZoneForm(forms.Form):
    """A tournament's time zone, changed at the desk until it starts (a SettingsChanged):
    the zones in the desk's language, the current zone's country's first (web.zones)."""

    time_zone = zone_field()

    def __init__(self, *args: Any, current: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = translation.get_language() or "en"
        country = country_of_zone(current) or country_of_language(language)
        self.fields["time_zone"].choices = zone_choices(
            language=language, first_country=country, also=[current]
        )
        self.fields["time_zone"].initial = current


DEFAULT_RULES = ruleset_normalise(ruleset=None)


def local_to_aware(value: dt.datetime, zone_name: str) -> dt.datetime:
    """A wall-clock time entered in `zone_name` as an aware time; a time that does not exist
    there (the hour skipped when clocks go forward) is refused."""
    zone = ZoneInfo(zone_name)
    naive = value.replace(tzinfo=None)
    aware = naive.replace(tzinfo=zone)
    try:
        back = aware.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None)
    except OverflowError:  # at the edge of the calendar (year 1 east of UTC)
        raise forms.ValidationError(
            _("%(when)s is out of range") % {"when": f"{naive:%Y-%m-%d %H:%M}"}
        ) from None
    if back != naive:
        raise forms.ValidationError(
            _("%(when)s does not exist in %(zone)s (the clocks change then)")
            % {"when": f"{naive:%Y-%m-%d %H:%M}", "zone": zone_name}
        )
    return aware


# -- numbers and dates as a person types them ------------------------------------------------


class LocalDigitsMixin:
    """A field that takes Persian (۱۲) and Arabic-Indic (١٢) digits as well as Latin ones."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            value = latin_digits(value)
        return super().to_python(value)  # type: ignore[misc]


class IntegerField(LocalDigitsMixin, forms.IntegerField):
    """A text field with the numeric keyboard, not `type=number`: browsers refuse Persian
    digits in a number input (a Persian phone keyboard types ۱۲); the form reads them."""

    widget = forms.TextInput

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        attrs.setdefault("inputmode", "numeric")
        return attrs


_JALALI = re.compile(r"^\s*(\d{4})[-/](\d{1,2})[-/](\d{1,2})[T ]+(\d{1,2}):(\d{2})\s*$")


class LocalDateTimeField(LocalDigitsMixin, forms.DateTimeField):
    """A wall-clock time as typed: ISO (2026-12-01T19:30, the browser's picker) or, as a
    Persian page shows dates, Solar Hijri (۱۴۰۵-۰۹-۱۰ ۱۹:۳۰: a year 1300-1499 is one).
    The tournament's zone is applied afterwards (local_to_aware)."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str):
            found = _JALALI.match(latin_digits(value))
            if found and 1300 <= int(found.group(1)) < 1500:
                year, month, day, hour, minute = (int(g) for g in found.groups())
                try:
                    return jdatetime.datetime(year, month, day, hour, minute).togregorian()
                except ValueError:
                    raise forms.ValidationError(
                        self.error_messages["invalid"], code="invalid"
                    ) from None
        return super().to_python(value)


class TournamentCreateForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Name"))
    # The organiser's clubs (none: a tournament of no club: no club ratings, no season).
    club = forms.TypedChoiceField(
        choices=[], coerce=int, empty_value=None, required=False, label=_("Club")
    )
    format = forms.ChoiceField(choices=FORMATS, initial="swiss", label=_("Format"))
    rounds = IntegerField(
        min_value=1,
        max_value=30,
        required=False,
        initial=4,
        label=_("Rounds"),
        help_text=_("Swiss only."),
    )
    play_mode = forms.ChoiceField(choices=PLAY_MODES, initial="table", label=_("Play mode"))
    time_zone = zone_field()
    language = forms.ChoiceField(
        choices=language_choices, required=False, label=_("Language of prints and the wall screen")
    )
    starts_at = LocalDateTimeField(
        required=False,
        label=_("Start (in the tournament's time zone)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text=_("Leave empty to start by hand from the desk."),
    )
    round_minutes = IntegerField(
        min_value=5, max_value=600, required=False, initial=50, label=_("Minutes per round")
    )
    check_in_required = forms.BooleanField(
        required=False, initial=True, label=_("Players check in before round 1")
    )
    is_public = forms.BooleanField(
        required=False, initial=True, label=_("Public: anyone may follow it")
    )
    # The tiebreak order: a list of choices a slot, in words (it was a text field whose help
    # listed the code names "match_wins, games_won, …"); empty slots: the format's order.
    tiebreak_1 = _tiebreak_slot(1)
    tiebreak_2 = _tiebreak_slot(2)
    tiebreak_3 = _tiebreak_slot(3)
    tiebreak_4 = _tiebreak_slot(4)
    # The ruleset (RULES.md section 9).
    games = forms.TypedChoiceField(
        choices=[(3, _("Hollywood (3 games)")), (1, _("Plain (1 game)"))],
        coerce=int,
        initial=DEFAULT_RULES["games"],
        label=_("Games"),
    )
    knock_limit = IntegerField(
        min_value=0, max_value=10, initial=DEFAULT_RULES["knock_limit"], label=_("Knock limit")
    )
    gin_bonus = IntegerField(
        min_value=0, max_value=100, initial=DEFAULT_RULES["gin_bonus"], label=_("Gin bonus")
    )
    undercut_bonus = IntegerField(
        min_value=0,
        max_value=100,
        initial=DEFAULT_RULES["undercut_bonus"],
        label=_("Undercut bonus"),
    )
    game_target = IntegerField(
        min_value=10, max_value=1000, initial=DEFAULT_RULES["game_target"], label=_("Game to")
    )
    end_when_decided = forms.BooleanField(required=False, label=_("End when two games are won"))
    discard_restriction = forms.BooleanField(
        required=False, label=_("No discarding the card just taken from the discard pile")
    )
    game_bonus = IntegerField(min_value=0, max_value=500, initial=0, label=_("Game bonus"))
    box_bonus = IntegerField(min_value=0, max_value=100, initial=0, label=_("Box bonus"))
    shutout_doubles = forms.BooleanField(required=False, label=_("A shutout scores double"))

    def __init__(self, *args: Any, clubs: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = translation.get_language()  # the desk's own
        self.fields["club"].choices = [("", _("No club")), *((c.pk, c.name) for c in clubs)]
        # Zones in the desk's language, the club's country's first (web.zones); by default
        # the first club's zone, else the desk language's country's.
        language = translation.get_language() or "en"
        club_zone = clubs[0].time_zone if clubs else None
        country = country_of_zone(club_zone) or country_of_language(language)
        self.fields["time_zone"].choices = zone_choices(language=language, first_country=country)
        self.fields["time_zone"].initial = default_zone(club_zone=club_zone, language=language)
        if clubs:
            # The first of the organiser's clubs: its language by default too.
            self.fields["club"].initial = clubs[0].pk
            if clubs[0].language:
                self.fields["language"].initial = clubs[0].language
        else:
            self.fields["club"].widget = forms.HiddenInput()
        if translation.get_language() == "fa":
            # The date as a Persian page shows it (Solar Hijri), typed in a text field.
            self.fields["starts_at"].widget = forms.TextInput(
                attrs={"placeholder": "۱۴۰۵-۰۹-۱۰ ۱۹:۳۰", "dir": "ltr", "inputmode": "numeric"}
            )

    RULESET_FIELDS = (
        "games",
        "knock_limit",
        "gin_bonus",
        "undercut_bonus",
        "game_target",
        "end_when_decided",
        "discard_restriction",
        "game_bonus",
        "box_bonus",
        "shutout_doubles",
    )

    def tiebreak_slots(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{n}"] for n in range(1, TIEBREAK_SLOTS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        names = [data.get(f"tiebreak_{n}") for n in range(1, TIEBREAK_SLOTS + 1)]
        data["tiebreaks"] = [n for n in names if n]
        if len(set(data["tiebreaks"])) != len(data["tiebreaks"]):
            self.add_error("tiebreak_1", _("name each tiebreak once"))
        if data.get("format") == "swiss" and not data.get("rounds"):
            self.add_error("rounds", _("a Swiss tournament needs a number of rounds"))
        starts, zone = data.get("starts_at"), data.get("time_zone")
        if starts is not None and zone:
            try:
                data["starts_at"] = local_to_aware(starts, zone)
            except forms.ValidationError as exc:
                self.add_error("starts_at", exc)
        return data

    def service_kwargs(self) -> dict[str, Any]:
        d = self.cleaned_data
        minutes = d.get("round_minutes")
        return {
            "name": d["name"],
            "club": d.get("club"),
            "format": d["format"],
            "rounds": d["rounds"] if d["format"] == "swiss" else None,
            "play_mode": d["play_mode"],
            "time_zone": d["time_zone"],
            "language": d.get("language") or "",
            "starts_at": d.get("starts_at"),
            "round_duration": dt.timedelta(minutes=minutes) if minutes else None,
            "check_in_required": d["check_in_required"],
            "is_public": d["is_public"],
            "tiebreaks": d["tiebreaks"] or None,
            "ruleset": {name: d[name] for name in self.RULESET_FIELDS},
        }


class WalkInForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Walk-in (name)"))
    # The answer to "is it one of the club's players?": one of those offered, or a new one.
    player = forms.IntegerField(required=False, widget=forms.HiddenInput)
    new = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("a name, please"))
        return name


class WithdrawForm(forms.Form):
    reason = FreeTextField(required=False, label=_("Reason (optional)"))
    forfeit = forms.BooleanField(required=False, label=_("Their match in play is lost by forfeit"))


class MemberForm(forms.Form):
    """A member with a login of their own (the services check the username is free)."""

    name = forms.CharField(max_length=120, label=_("Name"))
    username = forms.RegexField(
        regex=r"^[\w.@+-]{2,150}$",
        max_length=150,
        label=_("Username"),
        error_messages={"invalid": _("letters, digits and . @ + - _ only (2 signs or more)")},
    )
    email = forms.EmailField(required=False, label=_("Email (optional)"))
    password = forms.CharField(
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        label=_("Password (optional)"),
        help_text=_("Empty: give them a login code to sign in the first time and set one."),
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("a name, please"))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        password = data.get("password")
        if password:
            try:
                password_validation.validate_password(password)
            except forms.ValidationError as exc:
                self.add_error("password", exc)
        return data


class PasteNamesForm(forms.Form):
    names = forms.CharField(
        # Named by the card's heading ("Paste a list"), described by the help below it.
        widget=forms.Textarea(
            attrs={"rows": 6, "aria-labelledby": "paste-title", "aria-describedby": "paste-help"}
        ),
        label=_("Names"),
        help_text=_(
            "One name a line. A name that is exactly one existing player's is that "
            "player (in a club: but for case and accents); a name like some of the "
            "club's players is asked about; any other name makes a new player."
        ),
    )

    def clean_names(self) -> list[str]:
        names = [" ".join(line.split()) for line in self.cleaned_data["names"].splitlines()]
        names = [n for n in names if n]
        if not names:
            raise forms.ValidationError(_("no names"))
        if len(names) > 200:
            raise forms.ValidationError(_("at most 200 names at once"))
        folded = [n.casefold() for n in names]
        repeated = sorted({n for n in names if folded.count(n.casefold()) > 1})
        if repeated:
            raise forms.ValidationError(
                _("named twice: %(names)s") % {"names": ", ".join(repeated)}
            )
        if any(len(n) > 120 for n in names):
            raise forms.ValidationError(_("a name has at most 120 characters"))
        return names


class AddPlayerForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int, label=_("Registered player"))

    def __init__(self, *args: Any, players: list[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", _("— choose —")), *players]


class LoginCodeForm(forms.Form):
    """The one-time code the desk gave a player (players.services.player_login_code_issue)."""

    code = forms.CharField(
        max_length=20,
        label=_("Code from the desk"),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "one-time-code",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": "ABCD-EFGH",
            }
        ),
    )


# -- answering a dispute (web.desk.disputes) -----------------------------------------------
