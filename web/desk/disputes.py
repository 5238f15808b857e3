"""Dispute cases on the desk: a tournament's open disputes, and one dispute's page with the
statement, the comments and the match's hands, where the organiser comments, dismisses it
with a reason or resolves it with a ruling (void or correct a hand, adjust a score,
forfeit). Every answer goes through `games.services.disputes`' services, as the API's do, so each is
an event of the match; the player sees the outcome on the match and replay pages."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from core.errors import NotFoundError, PermissionDeniedError, translated_message
from games.audit import match_disputes
from games.selectors import match_get
from games.services.disputes import match_dispute_comment, match_dispute_resolve
from tournaments.selectors import results_corrected_of_table, tournament_pairing_of_match
from web.desk.access import FORM_ERRORS, desk_tournament, error_message
from web.desk.cases import tournament_disputes_open
from web.desk.entry_forms import CommentForm, DismissForm, RulingForm
from web.desk.rounds import scoresheet


@desk_tournament
def dispute_list(request: HttpRequest, tournament: Any) -> HttpResponse:
    disputes = tournament_disputes_open(tournament=tournament, user=request.user)
    for case in disputes:
        case["player_name"] = _name(case["pairing"], case["player"])
    context = {"tournament": tournament, "disputes": disputes}
    return render(request, "desk/disputes.html", context)


def _name(pairing: Any, player_id: int | None) -> str:
    for player in (pairing.player1, pairing.player2):
        if player is not None and player.pk == player_id:
            return player.name
    return "?"


def _case(tournament: Any, match_id: Any, number: int, user: Any) -> tuple[Any, Any, dict]:
    """(the pairing, the match, the dispute): 404 unless the match is one of this
    tournament's and the dispute is one of its cases."""
    pairing = tournament_pairing_of_match(tournament=tournament, match_id=match_id)
    if pairing is None:
        raise Http404("no such match in this tournament")
    try:
        match = match_get(match_id=pairing.match_id)
    except NotFoundError as exc:
        raise Http404("no such match") from exc
    try:
        cases = match_disputes(match=match, user=user)
    except PermissionDeniedError as exc:  # an organiser of the tournament, not of its match
        raise PermissionDenied(translated_message(exc)) from exc
    case = next((c for c in cases if c["dispute"] == number), None)
    if case is None:
        raise Http404("no such dispute")
    case["player_name"] = _name(pairing, case["player"])
    return pairing, match, case


ACTIONS = ("comment", "dismiss", "rule")


@desk_tournament
def dispute_view(request: HttpRequest, tournament: Any, match_id: Any, number: int) -> HttpResponse:
    """GET: the case. POST with `action` comment, dismiss or rule: the answer, then back
    here (the outcome shown); a refused answer comes back with its error (status 400)."""
    pairing, match, case = _case(tournament, match_id, number, request.user)
    names = (match.player1.name, match.player2.name)
    forms: dict[str, Any] = {
        "comment": CommentForm(prefix="comment"),
        "dismiss": DismissForm(prefix="dismiss"),
        "rule": RulingForm(prefix="rule", names=names, initial=_ruling_initial(case)),
    }
    status, error = 200, None
    action = request.POST.get("action") if request.method == "POST" else None
    if action in ACTIONS:
        form = _bound(action, request, names)
        forms[action] = form
        if form.is_valid():
            try:
                _answer(action, form, match=match, dispute=number, by=request.user)
                return redirect(
                    "desk-dispute", tournament_id=tournament.pk, match_id=match.pk, number=number
                )
            except FORM_ERRORS as exc:
                error = error_message(exc)
                form.add_error(None, error)
        status = 400
    elif request.method == "POST":
        status, error = 400, gettext("choose an answer: comment, dismiss or a ruling")
    context = {
        "tournament": tournament,
        "pairing": pairing,
        "match": match,
        "case": case,
        "sheet": scoresheet(match),
        "is_open": case["status"] == "open",
        "error": error,
        "table_match": match.mode == "table",
        "changed_after": _changed_after_next_round(tournament, pairing, case),
        **{f"{name}_form": form for name, form in forms.items()},
    }
    return render(request, "desk/dispute.html", context, status=status)


def _changed_after_next_round(tournament: Any, pairing: Any, case: dict[str, Any]) -> list:
    """A ruling of this case that changed the table's result after the next round was
    paired (the round's page says it too): the corrections since the case was opened."""
    if case["status"] != "ruled":
        return []
    opened = case.get("opened_at")
    return [
        c
        for c in results_corrected_of_table(
            tournament=tournament, round_number=pairing.round.number, table=pairing.table
        )
        if opened is None or c["at"] >= opened
    ]


def _ruling_initial(case: dict[str, Any]) -> dict[str, Any]:
    return {"type": "void_hand" if case["hand_number"] else "adjust_score",
            "hand_number": case["hand_number"]}  # fmt: skip


def _bound(action: str, request: HttpRequest, names: tuple[str, str]) -> Any:
    if action == "comment":
        return CommentForm(request.POST, prefix="comment")
    if action == "dismiss":
        return DismissForm(request.POST, prefix="dismiss")
    return RulingForm(request.POST, prefix="rule", names=names)


def _answer(action: str, form: Any, *, match: Any, dispute: int, by: Any) -> None:
    data = form.cleaned_data
    if action == "comment":
        match_dispute_comment(match_id=match.pk, by=by, dispute=dispute, comment=data["comment"])
    elif action == "dismiss":
        match_dispute_resolve(
            match_id=match.pk, by=by, dispute=dispute, outcome="dismissed", reason=data["reason"]
        )
    else:
        match_dispute_resolve(
            match_id=match.pk,
            by=by,
            dispute=dispute,
            outcome="ruled",
            reason=data["reason"],
            ruling=form.ruling((match.player1, match.player2)),
        )
