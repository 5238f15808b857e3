"""The forms of a hand and of a case: a hand typed at the desk or on a phone, a correction,
a ruling, a dispute's comment or dismissal; and the form a table's waiting entry fills (the
desk's amend form starts from the values the player entered). The table page
(web.desk.rounds), the amend view (web.desk.amend), the phones (web.desk.phone) and the
cases (web.desk.disputes) build them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.text import FreeTextField
from games.hand_entries import HandEntry
from games.selectors import MAX_DEADWOOD
from web.desk.forms import IntegerField, isolated


class DeadwoodField(IntegerField):
    """A deadwood count: 0 to the most ten cards hold (the rules' limit, RULES 2)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(min_value=0, max_value=MAX_DEADWOOD, **kwargs)
        self.error_messages["max_value"] = _("at most %(limit_value)s")
        self.error_messages["min_value"] = _("0 or more")


def _needed_unless_drawn(form: forms.Form, data: dict[str, Any]) -> None:
    """A knocked hand needs both deadwoods; a value given but refused (its own error
    already says why) is not reported missing too."""
    for name in ("knocker_deadwood", "defender_deadwood"):
        if data.get(name) is None and name not in form.errors:
            form.add_error(name, _("needed unless the hand was drawn"))


class ReasonForm(forms.Form):
    reason = FreeTextField(label=_("Reason"))


class HandForm(forms.Form):
    """One hand at a table: drawn, or who knocked, gin or not, and both deadwoods."""

    result = forms.ChoiceField(choices=[], label=_("Result"))  # "p1", "p2" (the knocker), "drawn"
    gin = forms.BooleanField(required=False, label=_("Gin"))
    knocker_deadwood = DeadwoodField(label=_("Knocker's deadwood"))
    defender_deadwood = DeadwoodField(label=_("Defender's deadwood"))

    def __init__(self, *args: Any, names: tuple[str, str] = ("", ""), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["result"].choices = [
            ("p1", _("%(name)s knocked") % {"name": isolated(names[0])}),
            ("p2", _("%(name)s knocked") % {"name": isolated(names[1])}),
            ("drawn", _("Drawn hand")),
        ]
        self.fields["result"].widget = forms.RadioSelect(choices=self.fields["result"].choices)
        self.fields["knocker_deadwood"].widget.attrs.update(inputmode="numeric")
        self.fields["defender_deadwood"].widget.attrs.update(inputmode="numeric")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("result") in ("p1", "p2"):
            gin = data.get("gin") and "knocker_deadwood" not in self.errors
            if gin and data.get("knocker_deadwood") in (None, 0):
                data["knocker_deadwood"] = 0
            if data.get("knocker_deadwood") == 0:  # RULES 6: no deadwood is gin, as the sheet
                data["gin"] = True  # infers it (the phone refused an unticked box)
            _needed_unless_drawn(self, data)
        return data

    def entry(self, players: tuple[int, int]) -> HandEntry:
        """This hand, `players` the ids of the match's two players."""
        return _hand(self.cleaned_data, players)


def _hand(d: dict[str, Any], players: tuple[int, int]) -> HandEntry:
    """The hand a form's `result` (p1, p2: who knocked; drawn), gin and deadwoods say."""
    if d["result"] == "drawn":
        return HandEntry(drawn=True)
    return HandEntry(
        knocker=players[0] if d["result"] == "p1" else players[1],
        gin=bool(d.get("gin")),
        knocker_deadwood=d["knocker_deadwood"],
        defender_deadwood=d["defender_deadwood"],
    )


class CorrectionForm(HandForm):
    reason = FreeTextField(label=_("Reason"))


RULINGS = [
    ("void_hand", _("Void a hand")),
    ("correct_hand", _("Correct a hand (table matches)")),
    ("adjust_score", _("Adjust a score")),
    ("forfeit", _("Forfeit: the match to one player")),
]


class CommentForm(forms.Form):
    comment = FreeTextField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Comment"))


class DismissForm(forms.Form):
    reason = FreeTextField(label=_("Why it is dismissed"))


class RulingForm(forms.Form):
    """A dispute resolved with a ruling: the ruling's kind and what it needs; the reason is
    both the ruling's and the resolution's. The service checks the rules again."""

    type = forms.ChoiceField(choices=RULINGS, label=_("Ruling"))
    hand_number = IntegerField(min_value=1, max_value=10_000, required=False, label=_("Hand"))
    result = forms.ChoiceField(choices=[], required=False, label=_("Corrected result"))
    gin = forms.BooleanField(required=False, label=_("Gin"))
    knocker_deadwood = DeadwoodField(label=_("Knocker's deadwood"))
    defender_deadwood = DeadwoodField(label=_("Defender's deadwood"))
    player = forms.ChoiceField(
        choices=[],
        required=False,
        label=_("Player"),
        help_text=_("Adjust: whose score. Forfeit: the winner."),
    )
    game = forms.TypedChoiceField(
        choices=[("", "—"), (1, _("Game 1")), (2, _("Game 2")), (3, _("Game 3"))],
        coerce=int,
        empty_value=None,
        required=False,
        label=_("Game"),
    )
    points = IntegerField(min_value=-100_000, max_value=100_000, required=False, label=_("Points"))
    reason = FreeTextField(label=_("Reason"))

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
            ("p1", _("%(name)s knocked") % {"name": isolated(names[0])}),
            ("p2", _("%(name)s knocked") % {"name": isolated(names[1])}),
            ("drawn", _("Drawn hand")),
        ]
        self.fields["player"].choices = [("", "—"), ("p1", names[0]), ("p2", names[1])]
        for name in ("hand_number", "knocker_deadwood", "defender_deadwood", "points"):
            self.fields[name].widget.attrs.update(inputmode="numeric")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in self.NEEDS.get(data.get("type", ""), ()):
            if data.get(name) in (None, ""):
                self.add_error(name, _("needed for this ruling"))
        if data.get("type") == "correct_hand" and data.get("result") in ("p1", "p2"):
            gin = data.get("gin") and "knocker_deadwood" not in self.errors
            if gin and data.get("knocker_deadwood") is None:
                data["knocker_deadwood"] = 0
            if data.get("knocker_deadwood") == 0:  # RULES 6: no deadwood is gin
                data["gin"] = True
            _needed_unless_drawn(self, data)
        return data

    def ruling(self, players: tuple[Any, Any]) -> dict[str, Any]:
        """The ruling's arguments, as `games.services.match_rule` takes them."""
        d = self.cleaned_data
        out: dict[str, Any] = {"type": d["type"], "reason": d["reason"]}
        pick = {"p1": players[0], "p2": players[1]}
        if d["type"] in ("void_hand", "correct_hand"):
            out["hand_number"] = d["hand_number"]
        if d["type"] == "correct_hand":
            out["hand"] = _hand(d, (players[0].pk, players[1].pk))
        if d["type"] in ("adjust_score", "forfeit"):
            out["player"] = pick[d["player"]]
        if d["type"] == "adjust_score":
            out |= {"game": d["game"], "points": d["points"]}
        return out


AMEND_PREFIX = "amend"


def amend_form(match: Any, data: Any = None, entry: Any = None) -> HandForm:
    """The amend form, filled with the entry's values to start from."""
    names = (match.player1.name, match.player2.name)
    initial = None
    if entry is not None:
        if entry.drawn:
            initial = {"result": "drawn"}
        else:
            result = "p1" if entry.knocker_id == match.player1_id else "p2"
            initial = {
                "result": result,
                "gin": entry.gin,
                "knocker_deadwood": entry.knocker_deadwood,
                "defender_deadwood": entry.defender_deadwood,
            }
    return HandForm(data, names=names, prefix=AMEND_PREFIX, initial=initial)
