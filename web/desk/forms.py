"""The desk's forms. They check the shape of the input; the services check the rules (and
their errors are shown on the same form, see web.desk.access.FORM_ERRORS)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any
from zoneinfo import ZoneInfo

from django import forms

from games.selectors import ruleset_normalise
from tournaments.pairing import TIEBREAK_CHOICES

# The values the services accept (tournaments.models.Tournament's choices; the pages may
# not import models, and the service validates them again).
FORMATS = [
    ("swiss", "Swiss"),
    ("round_robin", "Round robin"),
    ("knockout", "Single-elimination knockout"),
]
PLAY_MODES = [("table", "At tables (scoresheet)"), ("online", "Online")]
DEFAULT_RULES = ruleset_normalise(ruleset=None)
TIME_ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})
COMMON_ZONES = ["Europe/Berlin", "Europe/London", "Europe/Paris", "America/New_York", "UTC"]


def local_to_aware(value: dt.datetime, zone_name: str) -> dt.datetime:
    """A wall-clock time entered in `zone_name` as an aware time; a time that does not exist
    there (the hour skipped when clocks go forward) is refused."""
    zone = ZoneInfo(zone_name)
    naive = value.replace(tzinfo=None)
    aware = naive.replace(tzinfo=zone)
    try:
        back = aware.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None)
    except OverflowError:  # at the edge of the calendar (year 1 east of UTC)
        raise forms.ValidationError(f"{naive:%Y-%m-%d %H:%M} is out of range") from None
    if back != naive:
        raise forms.ValidationError(
            f"{naive:%Y-%m-%d %H:%M} does not exist in {zone_name} (the clocks change then)"
        )
    return aware


class TournamentCreateForm(forms.Form):
    name = forms.CharField(max_length=200)
    format = forms.ChoiceField(choices=FORMATS, initial="swiss")
    rounds = forms.IntegerField(
        min_value=1, max_value=30, required=False, initial=4, help_text="Swiss only."
    )
    play_mode = forms.ChoiceField(choices=PLAY_MODES, initial="table")
    time_zone = forms.ChoiceField(
        choices=[(z, z) for z in COMMON_ZONES] + [(z, z) for z in TIME_ZONES],
        initial="Europe/Berlin",
    )
    starts_at = forms.DateTimeField(
        required=False,
        label="Start (in the tournament's time zone)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        help_text="Leave empty to start by hand from the desk.",
    )
    round_minutes = forms.IntegerField(
        min_value=5, max_value=600, required=False, initial=50, label="Minutes per round"
    )
    check_in_required = forms.BooleanField(
        required=False, initial=True, label="Players check in before round 1"
    )
    is_public = forms.BooleanField(
        required=False, initial=True, label="Public: anyone may follow it"
    )
    tiebreaks = forms.CharField(
        required=False,
        help_text=f"Optional order, comma-separated, among: {', '.join(TIEBREAK_CHOICES)}.",
    )
    # The ruleset (RULES.md section 9).
    games = forms.TypedChoiceField(
        choices=[(3, "Hollywood (3 games)"), (1, "Plain (1 game)")],
        coerce=int,
        initial=DEFAULT_RULES["games"],
    )
    knock_limit = forms.IntegerField(
        min_value=0, max_value=10, initial=DEFAULT_RULES["knock_limit"]
    )
    gin_bonus = forms.IntegerField(min_value=0, max_value=100, initial=DEFAULT_RULES["gin_bonus"])
    undercut_bonus = forms.IntegerField(
        min_value=0, max_value=100, initial=DEFAULT_RULES["undercut_bonus"]
    )
    game_target = forms.IntegerField(
        min_value=10, max_value=1000, initial=DEFAULT_RULES["game_target"]
    )
    end_when_decided = forms.BooleanField(required=False, label="End when two games are won")
    discard_restriction = forms.BooleanField(required=False)
    game_bonus = forms.IntegerField(min_value=0, max_value=500, initial=0)
    box_bonus = forms.IntegerField(min_value=0, max_value=100, initial=0)
    shutout_doubles = forms.BooleanField(required=False)

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

    def clean_tiebreaks(self) -> list[str]:
        names = [n.strip() for n in self.cleaned_data["tiebreaks"].split(",") if n.strip()]
        unknown = [n for n in names if n not in TIEBREAK_CHOICES]
        if unknown:
            raise forms.ValidationError(f"unknown tiebreaks: {', '.join(unknown)}")
        if len(set(names)) != len(names):
            raise forms.ValidationError("name each tiebreak once")
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("format") == "swiss" and not data.get("rounds"):
            self.add_error("rounds", "a Swiss tournament needs a number of rounds")
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
            "format": d["format"],
            "rounds": d["rounds"] if d["format"] == "swiss" else None,
            "play_mode": d["play_mode"],
            "time_zone": d["time_zone"],
            "starts_at": d.get("starts_at"),
            "round_duration": dt.timedelta(minutes=minutes) if minutes else None,
            "check_in_required": d["check_in_required"],
            "is_public": d["is_public"],
            "tiebreaks": d["tiebreaks"] or None,
            "ruleset": {name: d[name] for name in self.RULESET_FIELDS},
        }


class WalkInForm(forms.Form):
    name = forms.CharField(max_length=120, label="Walk-in (name)")

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("a name, please")
        return name


class PasteNamesForm(forms.Form):
    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One name a line. A name that is exactly one existing player's is that "
        "player; any other name makes a new player.",
    )

    def clean_names(self) -> list[str]:
        names = [" ".join(line.split()) for line in self.cleaned_data["names"].splitlines()]
        names = [n for n in names if n]
        if not names:
            raise forms.ValidationError("no names")
        if len(names) > 200:
            raise forms.ValidationError("at most 200 names at once")
        folded = [n.casefold() for n in names]
        repeated = sorted({n for n in names if folded.count(n.casefold()) > 1})
        if repeated:
            raise forms.ValidationError(f"named twice: {', '.join(repeated)}")
        if any(len(n) > 120 for n in names):
            raise forms.ValidationError("a name has at most 120 characters")
        return names


class AddPlayerForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int, label="Registered player")

    def __init__(self, *args: Any, players: list[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "— choose —"), *players]


class LoginCodeForm(forms.Form):
    """The one-time code the desk gave a player (players.services.player_login_code_issue)."""

    code = forms.CharField(
        max_length=20,
        label="Code from the desk",
        widget=forms.TextInput(
            attrs={
                "autocomplete": "one-time-code",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": "ABCD-EFGH",
            }
        ),
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500)


class HandForm(forms.Form):
    """One hand at a table: drawn, or who knocked, gin or not, and both deadwoods."""

    result = forms.ChoiceField(choices=[])  # "p1", "p2" (the knocker) or "drawn"
    gin = forms.BooleanField(required=False)
    knocker_deadwood = forms.IntegerField(min_value=0, max_value=200, required=False)
    defender_deadwood = forms.IntegerField(min_value=0, max_value=200, required=False)

    def __init__(self, *args: Any, names: tuple[str, str] = ("", ""), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["result"].choices = [
            ("p1", f"{names[0]} knocked"),
            ("p2", f"{names[1]} knocked"),
            ("drawn", "Drawn hand"),
        ]
        self.fields["result"].widget = forms.RadioSelect(choices=self.fields["result"].choices)
        self.fields["knocker_deadwood"].widget.attrs.update(inputmode="numeric")
        self.fields["defender_deadwood"].widget.attrs.update(inputmode="numeric")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("result") in ("p1", "p2"):
            if data.get("gin") and data.get("knocker_deadwood") in (None, 0):
                data["knocker_deadwood"] = 0
            for name in ("knocker_deadwood", "defender_deadwood"):
                if data.get(name) is None:
                    self.add_error(name, "needed unless the hand was drawn")
        return data

    def entry(self, players: tuple[Any, Any]) -> dict[str, Any]:
        """The service's keyword arguments for this hand."""
        d = self.cleaned_data
        if d["result"] == "drawn":
            return {"drawn": True}
        return {
            "knocker": players[0] if d["result"] == "p1" else players[1],
            "gin": bool(d.get("gin")),
            "knocker_deadwood": d["knocker_deadwood"],
            "defender_deadwood": d["defender_deadwood"],
        }


class CorrectionForm(HandForm):
    reason = forms.CharField(max_length=500)


# -- answering a dispute (web.desk.disputes) -----------------------------------------------

RULINGS = [
    ("void_hand", "Void a hand"),
    ("correct_hand", "Correct a hand (table matches)"),
    ("adjust_score", "Adjust a score"),
    ("forfeit", "Forfeit: the match to one player"),
]


class CommentForm(forms.Form):
    comment = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class DismissForm(forms.Form):
    reason = forms.CharField(max_length=1000, label="Why it is dismissed")


class RulingForm(forms.Form):
    """A dispute resolved with a ruling: the ruling's kind and what it needs; the reason is
    both the ruling's and the resolution's. The service checks the rules again."""

    type = forms.ChoiceField(choices=RULINGS, label="Ruling")
    hand_number = forms.IntegerField(min_value=1, max_value=10_000, required=False, label="Hand")
    result = forms.ChoiceField(choices=[], required=False, label="Corrected result")
    gin = forms.BooleanField(required=False)
    knocker_deadwood = forms.IntegerField(min_value=0, max_value=200, required=False)
    defender_deadwood = forms.IntegerField(min_value=0, max_value=200, required=False)
    player = forms.ChoiceField(
        choices=[],
        required=False,
        label="Player",
        help_text="Adjust: whose score. Forfeit: the winner.",
    )
    game = forms.TypedChoiceField(
        choices=[("", "—"), (1, "Game 1"), (2, "Game 2"), (3, "Game 3")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    points = forms.IntegerField(min_value=-100_000, max_value=100_000, required=False)
    reason = forms.CharField(max_length=1000)

    NEEDS = {
        "void_hand": ("hand_number",),
        "correct_hand": ("hand_number", "result"),
        "adjust_score": ("player", "game", "points"),
        "forfeit": ("player",),
    }

    def __init__(self, *args: Any, names: tuple[str, str] = ("", ""), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["result"].choices = [
            ("", "—"),
            ("p1", f"{names[0]} knocked"),
            ("p2", f"{names[1]} knocked"),
            ("drawn", "Drawn hand"),
        ]
        self.fields["player"].choices = [("", "—"), ("p1", names[0]), ("p2", names[1])]
        for name in ("hand_number", "knocker_deadwood", "defender_deadwood", "points"):
            self.fields[name].widget.attrs.update(inputmode="numeric")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in self.NEEDS.get(data.get("type", ""), ()):
            if data.get(name) in (None, ""):
                self.add_error(name, "needed for this ruling")
        if data.get("type") == "correct_hand" and data.get("result") in ("p1", "p2"):
            if data.get("gin") and data.get("knocker_deadwood") is None:
                data["knocker_deadwood"] = 0
            for name in ("knocker_deadwood", "defender_deadwood"):
                if data.get(name) is None:
                    self.add_error(name, "needed unless the hand was drawn")
        return data

    def ruling(self, players: tuple[Any, Any]) -> dict[str, Any]:
        """The ruling's arguments, as `games.services.match_rule` takes them."""
        d = self.cleaned_data
        out: dict[str, Any] = {"type": d["type"], "reason": d["reason"]}
        pick = {"p1": players[0], "p2": players[1]}
        if d["type"] in ("void_hand", "correct_hand"):
            out["hand_number"] = d["hand_number"]
        if d["type"] == "correct_hand":
            if d["result"] == "drawn":
                out["drawn"] = True
            else:
                out |= {
                    "knocker": pick[d["result"]],
                    "gin": bool(d.get("gin")),
                    "knocker_deadwood": d["knocker_deadwood"],
                    "defender_deadwood": d["defender_deadwood"],
                }
        if d["type"] in ("adjust_score", "forfeit"):
            out["player"] = pick[d["player"]]
        if d["type"] == "adjust_score":
            out |= {"game": d["game"], "points": d["points"]}
        return out
