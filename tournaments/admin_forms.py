"""The tournament admin's form: the same checks as the API's, as form errors; a field for
each ruleset option, the round starts and the tiebreak order (no JSON to type)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.contrib.auth import get_user_model
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import translated_message
from games.errors import RuleError
from games.selectors import ruleset_normalise
from tournaments.domain import SETTINGS_FIXED_AFTER_START, SETTINGS_MUTABLE
from tournaments.models import Tournament
from tournaments.pairing import TIEBREAK_CHOICES
from tournaments.repository import SYSTEM_USERNAME
from tournaments.services import EARLIEST_INSTANT, LATEST_INSTANT
from tournaments.setting_labels import TIEBREAK_LABELS

SETTINGS_EDITABLE = (*SETTINGS_MUTABLE, *SETTINGS_FIXED_AFTER_START)


_RULES = ruleset_normalise(ruleset=None)
TIEBREAK_SLOTS = 5


def _tiebreak_field(n: int) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=[("", "—"), *((t, TIEBREAK_LABELS.get(t, t)) for t in TIEBREAK_CHOICES)],
        required=False,
        label=format_lazy(_("Tiebreak {number}"), number=n),
    )


class TournamentAdminForm(forms.ModelForm):
    """The same checks as the API's, as form errors rather than server errors. The ruleset,
    the round starts and the tiebreak order have a field each (no JSON to type); times are
    entered and shown in the tournament's own time zone (TournamentAdmin.changeform_view)."""

    # Left empty, a ruleset option keeps its default (RULES.md section 9).
    games = forms.TypedChoiceField(
        choices=[(3, _("Hollywood: 3 games")), (1, _("Plain: 1 game"))],
        coerce=int,
        initial=3,
        required=False,
        empty_value=None,
        label=_("Games"),
    )
    knock_limit = forms.IntegerField(
        min_value=0,
        max_value=10,
        initial=_RULES["knock_limit"],
        required=False,
        label=_("Knock limit"),
    )
    gin_bonus = forms.IntegerField(
        min_value=0, initial=_RULES["gin_bonus"], required=False, label=_("Gin bonus")
    )
    undercut_bonus = forms.IntegerField(
        min_value=0, initial=_RULES["undercut_bonus"], required=False, label=_("Undercut bonus")
    )
    game_target = forms.IntegerField(
        min_value=1, initial=_RULES["game_target"], required=False, label=_("Game to")
    )
    end_when_decided = forms.BooleanField(required=False, label=_("End when two games are won"))
    discard_restriction = forms.BooleanField(
        required=False, label=_("No discarding the card just taken from the discard pile")
    )
    game_bonus = forms.IntegerField(min_value=0, initial=0, required=False, label=_("Game bonus"))
    box_bonus = forms.IntegerField(min_value=0, initial=0, required=False, label=_("Box bonus"))
    shutout_doubles = forms.BooleanField(required=False, label=_("A shutout scores double"))
    round_starts_text = forms.CharField(
        required=False,
        label=_("Round starts"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 30}),
        help_text=_("Optional: one start a line, YYYY-MM-DD HH:MM in the tournament's time zone."),
    )
    tiebreak_1 = _tiebreak_field(1)
    tiebreak_2 = _tiebreak_field(2)
    tiebreak_3 = _tiebreak_field(3)
    tiebreak_4 = _tiebreak_field(4)
    tiebreak_5 = _tiebreak_field(5)

    RULESET_FIELDS = (
        "games", "knock_limit", "gin_bonus", "undercut_bonus", "game_target",
        "end_when_decided", "discard_restriction", "game_bonus", "box_bonus", "shutout_doubles",
    )  # fmt: skip

    class Meta:
        model = Tournament
        fields = [  # the admin narrows these to the editable ones
            "name",
            "club",
            "format",
            "rounds_planned",
            "starts_at",
            "round_interval",
            "round_duration",
            "turn_time",
            "dispute_window",
            "play_mode",
            "is_public",
            "check_in_required",
            "organisers",
            "time_zone",
            "language",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        instance = self.instance
        rules = {**_RULES, **(instance.ruleset or {})}
        for name in self.RULESET_FIELDS:
            self.fields[name].initial = rules[name]
        for n, name in enumerate(instance.tiebreaks or [], start=1):
            if n <= TIEBREAK_SLOTS:
                self.fields[f"tiebreak_{n}"].initial = name
        if instance.round_starts:
            zone = ZoneInfo(instance.time_zone or "UTC")
            self.fields["round_starts_text"].initial = "\n".join(
                f"{dt.datetime.fromisoformat(s).astimezone(zone):%Y-%m-%d %H:%M}"
                for s in instance.round_starts
            )
        if "time_zone" in self.fields:
            self.fields["time_zone"].help_text = _(
                "An IANA zone, e.g. Europe/Berlin. Every time on this page is in it."
            )
        if "organisers" in self.fields:  # the scheduler's identity organises nothing
            users = get_user_model().objects.exclude(username=SYSTEM_USERNAME)
            self.fields["organisers"].queryset = users

    def clean_ruleset_fields(self) -> dict:
        try:
            given = {n: self.cleaned_data.get(n) for n in self.RULESET_FIELDS}
            return ruleset_normalise(ruleset={n: v for n, v in given.items() if v is not None})
        except RuleError as exc:
            raise forms.ValidationError(translated_message(exc)) from exc

    def _tiebreaks(self) -> list[str]:
        names = [self.cleaned_data.get(f"tiebreak_{n}") for n in range(1, TIEBREAK_SLOTS + 1)]
        names = [n for n in names if n]
        if len(set(names)) != len(names):
            raise forms.ValidationError(gettext("each tiebreak once"))
        return names

    def _round_starts(self, zone_name: str) -> list[dt.datetime]:
        zone = ZoneInfo(zone_name)
        starts = []
        for line in (self.cleaned_data.get("round_starts_text") or "").splitlines():
            if not line.strip():
                continue
            try:
                naive = dt.datetime.strptime(line.strip(), "%Y-%m-%d %H:%M")
            except ValueError as exc:
                raise forms.ValidationError(
                    gettext("not a time: %(text)s") % {"text": repr(line.strip())}
                ) from exc
            starts.append(naive.replace(tzinfo=zone))
        return starts

    def clean(self) -> dict:
        data = super().clean()
        swiss = data.get("format") == Tournament.Format.SWISS
        if swiss and not data.get("rounds_planned") and self.instance.pk is None:
            self.add_error("rounds_planned", gettext("a Swiss tournament needs a number of rounds"))
        try:
            data["ruleset"] = self.clean_ruleset_fields()
        except forms.ValidationError as exc:
            self.add_error(None, exc)
        try:
            data["tiebreaks"] = self._tiebreaks()
        except forms.ValidationError as exc:
            self.add_error("tiebreak_1", exc)
        zone = data.get("time_zone") or self.instance.time_zone or "UTC"
        try:
            ZoneInfo(zone)
        except (ValueError, KeyError):
            return data  # the time zone's own error is shown; the starts wait for it
        try:
            data["round_starts"] = self._round_starts(zone)
        except forms.ValidationError as exc:
            self.add_error("round_starts_text", exc)
        else:
            problem = _round_starts_problem(data["round_starts"], data.get("rounds_planned"))
            if problem:
                self.add_error("round_starts_text", problem)
        # The services' window (they refuse the rest too): a form error, not a failed save.
        for field, values in (
            ("starts_at", [data.get("starts_at")]),
            ("round_starts_text", data.get("round_starts") or []),
        ):
            if any(v is not None and not _in_window(v) for v in values):
                self.add_error(
                    field,
                    gettext("times must be between %(first)s and %(last)s")
                    % {"first": EARLIEST_INSTANT.year, "last": LATEST_INSTANT.year},
                )
        return data

    def settings_changed(self) -> dict[str, Any]:
        """The settings this form changes, as tournament_settings_change takes them."""
        changes = {name: self.cleaned_data[name] for name in self.changed_data}
        instance = self.instance
        if self.cleaned_data.get("ruleset") != {**_RULES, **(instance.ruleset or {})}:
            changes["ruleset"] = self.cleaned_data["ruleset"]
        if self.cleaned_data.get("tiebreaks") != list(instance.tiebreaks or []):
            changes["tiebreaks"] = self.cleaned_data["tiebreaks"]
        return {k: v for k, v in changes.items() if k in SETTINGS_EDITABLE}


def _round_starts_problem(starts: list[dt.datetime], rounds: int | None) -> str:
    """As the API's (tournaments.serializers): in order, at most one per round."""
    if any(later <= earlier for earlier, later in zip(starts, starts[1:], strict=False)):
        return gettext("the rounds' starts must be in order, each after the one before")
    if rounds and len(starts) > rounds:
        return gettext("%(starts)s starts for %(rounds)s rounds: one per round") % {
            "starts": len(starts),
            "rounds": rounds,
        }
    return ""


def _in_window(value: dt.datetime) -> bool:
    try:
        return EARLIEST_INSTANT <= value <= LATEST_INSTANT
    except (OverflowError, TypeError):
        return False
