"""The desk's say in who meets whom: pairs of players kept apart (family, one household, a
team's members), and a round's pairings set by hand before any of its matches has started
(a swap, or a table set by hand), shown a rematch or a forbidden pair as a warning to
confirm. Both go through the tournament services, so each change is an event."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.errors import ConflictError, application_error
from core.text import FreeTextField
from tournaments import services
from tournaments.errors import TournamentConflictError
from tournaments.selectors import (
    tournament_forbidden_pairs,
    tournament_pairing_list,
    tournament_registration_list,
    tournament_registrations_with_status,
)
from web.desk.access import FORM_ERRORS, desk_tournament, error_message
from web.desk.rounds import _round, round_repairable
from web.localize import sort_by_name

ACTIVE = ("registered", "checked_in")


class ForbiddenPairForm(forms.Form):
    first = forms.TypedChoiceField(coerce=int, choices=[], label=_("Player"))
    second = forms.TypedChoiceField(coerce=int, choices=[], label=_("Must not meet"))
    reason = FreeTextField(required=False, label=_("Reason"))

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = players
        self.fields["second"].choices = players

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


def _entered(tournament: Any) -> list[tuple[int, str]]:
    """The tournament's players who have not withdrawn, by name in the page's language."""
    entries = tournament_registrations_with_status(tournament=tournament, statuses=ACTIVE)
    rows = sort_by_name(entries, lambda r: r.player.name)
    return [(r.player_id, r.player.name) for r in rows]


def _names(tournament: Any) -> dict[int, str]:
    return {r.player_id: r.player.name for r in tournament_registration_list(tournament=tournament)}


def _forbidden_context(
    tournament: Any, form: ForbiddenPairForm | None = None, error: str = ""
) -> dict[str, Any]:
    names = _names(tournament)
    pairs = [
        {"ids": pair, "names": (names.get(pair[0], "?"), names.get(pair[1], "?"))}
        for pair in tournament_forbidden_pairs(tournament=tournament)
    ]
    return {
        "tournament": tournament,
        "pairs": pairs,
        "form": form or ForbiddenPairForm(players=_entered(tournament)),
        "round_robin": tournament.format == "round_robin",
        "error": error,
    }


@desk_tournament
def forbidden_pairs(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The pairs kept apart, each with its remove button, and the form to add one."""
    if request.method != "POST":
        return render(request, "desk/forbidden_pairs.html", _forbidden_context(tournament))
    form = ForbiddenPairForm(request.POST, players=_entered(tournament))
    if form.is_valid():
        try:
            services.tournament_forbidden_pair_add(
                tournament_id=tournament.pk,
                players=[form.cleaned_data["first"], form.cleaned_data["second"]],
                by=request.user,
                reason=form.cleaned_data["reason"],
            )
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("desk-forbidden-pairs", tournament_id=tournament.pk)
    context = _forbidden_context(tournament, form=form)
    return render(request, "desk/forbidden_pairs.html", context, status=400)


@require_POST
@desk_tournament
def forbidden_pair_remove(request: HttpRequest, tournament: Any) -> HttpResponse:
    """They may meet again."""
    try:
        players = [int(request.POST.get("first", "")), int(request.POST.get("second", ""))]
        services.tournament_forbidden_pair_remove(
            tournament_id=tournament.pk, players=players, by=request.user,
            reason=request.POST.get("reason", ""),
        )  # fmt: skip
    except ValueError:
        context = _forbidden_context(tournament, error=gettext("Choose two players."))
        return render(request, "desk/forbidden_pairs.html", context, status=400)
    except FORM_ERRORS as exc:
        context = _forbidden_context(tournament, error=error_message(exc))
        return render(request, "desk/forbidden_pairs.html", context, status=400)
    return redirect("desk-forbidden-pairs", tournament_id=tournament.pk)


# -- a round's pairings by hand ------------------------------------------------------------


def _board_rows(tournament: Any, number: int, posted: Any = None) -> list[dict[str, Any]]:
    """One row a table: the pairing as it stands, or as the organiser sent it."""
    players = _entered(tournament)
    rows = []
    if posted is not None:
        count = _int(posted.get("tables")) or 0
        for i in range(1, min(count, 500) + 1):
            rows.append({"a": posted.get(f"a{i}", ""), "b": posted.get(f"b{i}", "")})
    else:
        for p in tournament_pairing_list(tournament=tournament, round_number=number):
            rows.append({"a": str(p.player1_id), "b": str(p.player2_id or "")})
    while len(rows) < (len(players) + 1) // 2:
        rows.append({"a": "", "b": ""})
    return [{"number": i, **row} for i, row in enumerate(rows, 1)]


def _pairs_from(rows: list[dict[str, Any]]) -> list[list[int | None]] | None:
    """The posted tables as pairs ([a, b], a bye as [a, None]); None if a value is no id."""
    pairs: list[list[int | None]] = []
    for row in rows:
        raw = (str(row["a"]).strip(), str(row["b"]).strip())
        seats = [_int(v) for v in raw]
        if any(v and s is None for v, s in zip(raw, seats, strict=True)):
            return None
        present = [s for s in seats if s is not None]
        if present:
            pairs.append([present[0], present[1] if len(present) == 2 else None])
    return pairs


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _hand_context(tournament: Any, number: int, rows: list[dict[str, Any]], **more: Any) -> dict:
    round_ = _round(tournament, number)
    return {
        "tournament": tournament,
        "round": round_,
        "rows": rows,
        "players": _entered(tournament),
        "open": round_repairable(tournament, number),
        "bracket_fixed": tournament.format == "double_elimination",
        "reason": "",
        "conflicts": [],
        "error": "",
        **more,
    }


@desk_tournament
def round_pairings_by_hand(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    """Set round `number`'s tables by hand. A rematch or a pair kept apart is shown as a
    warning, with the same tables to send again with "keep them" (confirm)."""
    if request.method != "POST":
        rows = _board_rows(tournament, number)
        return render(request, "desk/round_pairings.html", _hand_context(tournament, number, rows))
    rows = _board_rows(tournament, number, request.POST)
    reason = request.POST.get("reason", "").strip()
    context = _hand_context(tournament, number, rows, reason=reason)
    pairs = _pairs_from(rows)
    if pairs is None:
        context["error"] = gettext("Choose the players from the lists.")
        return render(request, "desk/round_pairings.html", context, status=400)
    names = _names(tournament)
    try:
        services.tournament_round_repair(
            tournament_id=tournament.pk, round_number=number, by=request.user, reason=reason,
            pairs=[(p[0], p[1]) for p in pairs],  # type: ignore[misc]
            expected_version=_int(request.POST.get("version")),
            confirm=request.POST.get("confirm") == "1",
        )  # fmt: skip
    except (ConflictError, TournamentConflictError) as exc:
        extra = getattr(application_error(exc), "extra", {})
        found = extra.get("conflicts")
        if extra.get("reason") in ("rematch", "forbidden_pair") and found:
            context["conflicts"] = [
                {
                    "forbidden": c["reason"] == "forbidden_pair",
                    "names": [names.get(p, "?") for p in c["players"]],
                }
                for c in found
            ]
        else:
            context["error"] = error_message(exc)
        return render(request, "desk/round_pairings.html", context, status=409)
    except FORM_ERRORS as exc:
        context["error"] = error_message(exc)
        return render(request, "desk/round_pairings.html", context, status=400)
    return redirect("desk-round", tournament_id=tournament.pk, number=number)
