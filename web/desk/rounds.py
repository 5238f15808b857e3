"""The desk during a round: its tables with their status and the round clock (started when
the round is paired; the director starts it again when play begins), the results screen
of a table (hands one by one beside the Hollywood scoresheet, corrections and voids of
earlier hands), re-pairing a round nobody has started and pairing the next one."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from core.errors import NotFoundError, VersionConflictError
from games.selectors import match_get, match_hand_rows, table_entries_open, table_entry_open
from games.services import match_record_hand, match_rule
from games.services.table_entries import table_entry_decide
from tournaments import services
from tournaments.ratings.selectors import tournament_ratings_shown
from tournaments.selectors import (
    match_place,
    pairing_overdue,
    results_corrected_after_pairing,
    tournament_get,
    tournament_pairing_at,
    tournament_pairing_list,
    tournament_registration_list,
    tournament_round,
    tournament_round_list,
    tournament_round_notes,
    user_can_organise,
)
from web.desk.access import FORM_ERRORS, LOGIN_URL, desk_tournament, error_message
from web.desk.cases import match_disputes_open, tournament_disputes_open
from web.desk.entry_forms import CorrectionForm, HandForm, ReasonForm, amend_form
from web.templatetags.desk import STATUS_LABELS


def table_status(pairing: Any, now: dt.datetime, entry: Any = None) -> str:
    """waiting (no hand yet), in play, to confirm (a player's entry waits for the other),
    disputed (for the organiser), overdue (past the round's deadline), done, or bye."""
    if pairing.player2_id is None:
        return "bye"
    if pairing.status == "finished":
        return "done"
    if entry is not None:
        return "disputed" if entry.status == "disputed" else "to_confirm"
    if pairing_overdue(pairing=pairing, now=now):
        return "overdue"
    match = pairing.match
    if match is not None and match.version > pairing.match_version_at_pairing:
        return "in_play"
    return "waiting"


def _round(tournament: Any, number: int) -> Any:
    round_ = tournament_round(tournament=tournament, number=number)
    if round_ is None:
        raise Http404("no such round")
    return round_


def _clock(round_: Any, now: dt.datetime) -> dict[str, Any]:
    left = None
    if round_.deadline is not None and round_.status == "paired":
        left = max(0, int((round_.deadline - now).total_seconds() // 60))
    return {"left": left, "late": round_.deadline is not None and now > round_.deadline}


def _round_context(tournament: Any, number: int, user: Any) -> dict[str, Any]:
    round_ = _round(tournament, number)
    now = timezone.now()
    tables = []
    pairings = tournament_pairing_list(tournament=tournament, round_number=number)
    entries = table_entries_open(match_ids=[p.match_id for p in pairings if p.match_id])
    disputes = tournament_disputes_open(tournament=tournament, user=user)
    for p in pairings:
        status = table_status(p, now, entries.get(str(p.match_id)))
        cases = [d for d in disputes if d["match"] == str(p.match_id)]
        # Its match is over but the result never reached the pairing (a lost job).
        stuck = p.status == "pending" and p.match is not None and p.match.status == "finished"
        tables.append(
            {
                "p": p,
                "status": status,
                "label": STATUS_LABELS[status],
                "cases": cases,
                "stuck": stuck,
            }
        )
    counts: dict[str, int] = {}
    for t in tables:
        counts[t["status"]] = counts.get(t["status"], 0) + 1
    rounds = tournament_round_list(tournament=tournament)
    return {
        "tournament": tournament,
        "round": round_,
        "rounds": rounds,
        "tables": tables,
        "counts": counts,
        "clock": _clock(round_, now),
        "now": now,
        "can_repair": _repairable(round_, [t["status"] for t in tables]),
        **_notes(tournament, number),
        "next_number": number + 1 if number < tournament.current_round else None,
        "can_pair_next": round_.status == "completed"
        and number == tournament.current_round
        and tournament.status != "finished",
        "repair_form": ReasonForm(),
        "corrected": results_corrected_after_pairing(tournament=tournament, round_number=number),
        "disputes_open": len(disputes),
        "stuck": sum(1 for t in tables if t["stuck"]),
        "ratings": tournament_ratings_shown(tournament=tournament),
    }


def _notes(tournament: Any, number: int) -> dict[str, Any]:
    """Set by hand, and the pairs kept apart it could not keep apart (by name)."""
    note = tournament_round_notes(tournament=tournament).get(number) or {}
    names: dict[int, str] = {}
    if note.get("forbidden_met"):
        entries = tournament_registration_list(tournament=tournament)
        names = {r.player_id: r.player.name for r in entries}
    met = [[names.get(p, "?") for p in pair] for pair in note.get("forbidden_met", ())]
    return {"by_hand": note.get("by_hand", False), "forbidden_met": met}


def _repairable(round_: Any, statuses: list[str]) -> bool:
    """A round in play none of whose matches has started may be paired again."""
    started = ("in_play", "overdue", "done")
    return round_.status == "paired" and not any(s in started for s in statuses)


def round_repairable(tournament: Any, number: int) -> bool:
    """May round `number` be re-paired (or set by hand) now? (The service decides; this
    is what the desk offers.)"""
    round_ = _round(tournament, number)
    now = timezone.now()
    pairings = tournament_pairing_list(tournament=tournament, round_number=number)
    return _repairable(round_, [table_status(p, now) for p in pairings])


@desk_tournament
def round_view(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    context = _round_context(tournament, number, request.user)
    template = "desk/_round_tables.html" if request.headers.get("HX-Request") else "desk/round.html"
    return render(request, template, context)


@require_POST
@desk_tournament
def round_repair(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    form = ReasonForm(request.POST)
    error = None
    if form.is_valid():
        try:
            services.tournament_round_repair(
                tournament_id=tournament.pk,
                round_number=number,
                by=request.user,
                reason=form.cleaned_data["reason"],
                expected_version=_int(request.POST.get("version")),
            )
            return redirect("desk-round", tournament_id=tournament.pk, number=number)
        except FORM_ERRORS as exc:
            error = error_message(exc)
    context = {
        **_round_context(tournament, number, request.user),
        "repair_form": form,
        "error": error,
    }
    return render(request, "desk/round.html", context, status=400)


@require_POST
@desk_tournament
def round_clock_start(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    """Start the round's clock now, as play begins (its deadline follows)."""
    try:
        services.tournament_round_clock_start(
            tournament_id=tournament.pk,
            round_number=number,
            by=request.user,
            reason="clock started from the desk",  # the log's reason: stored as written
        )
    except FORM_ERRORS as exc:
        context = {**_round_context(tournament, number, request.user), "error": error_message(exc)}
        return render(request, "desk/round.html", context, status=409)
    return redirect("desk-round", tournament_id=tournament.pk, number=number)


@require_POST
@desk_tournament
def round_pair_next(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    """Pair round `number` + 1 now (before its scheduled start, if it has one)."""
    try:
        services.tournament_round_pair(
            tournament_id=tournament.pk,
            round_number=number + 1,
            by=request.user,
            reason="paired from the desk",  # the log's reason: stored as written
        )
    except FORM_ERRORS as exc:
        context = {**_round_context(tournament, number, request.user), "error": error_message(exc)}
        return render(request, "desk/round.html", context, status=400)
    tournament.refresh_from_db()
    return redirect("desk-round", tournament_id=tournament.pk, number=tournament.current_round)


@require_POST
@desk_tournament
def round_results_take(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    """Take the result of every finished match whose pairing still waits (a lost job)."""
    try:
        taken = services.tournament_results_take(tournament_id=tournament.pk, by=request.user)
    except FORM_ERRORS as exc:
        context = {**_round_context(tournament, number, request.user), "error": error_message(exc)}
        return render(request, "desk/round.html", context, status=400)
    text = ngettext(
        "%(n)d result taken from the matches", "%(n)d results taken from the matches", len(taken)
    ) % {"n": len(taken)}
    messages.success(request, text if taken else gettext("No finished match was waiting"))
    return redirect("desk-round", tournament_id=tournament.pk, number=number)


# -- a table's results --------------------------------------------------------------------


def _pairing(tournament: Any, number: int, table: int) -> Any:
    pairing = tournament_pairing_at(tournament=tournament, round_number=number, table=table)
    if pairing is None or pairing.match_id is None:
        raise Http404("no match at this table")
    return pairing


def scoresheet(match: Any) -> dict[str, Any]:
    """The Hollywood scoresheet as the table shows it: each game's totals (player1 first),
    open or won by whom, the games won; and the hands with the games each went to."""
    names = (match.player1.name, match.player2.name)
    sheet = match.scoresheet or {}
    games = []
    for g in sheet.get("games", []):
        winner = g.get("winner")
        games.append(
            {
                "number": g["game"],
                "p1": g["totals"][0],
                "p2": g["totals"][1],
                "winner": names[winner] if winner is not None else None,
            }
        )
    won = sheet.get("games_won") or [match.games_won_p1, match.games_won_p2]
    return {"names": names, "games": games, "won": won, "hands": list(match_hand_rows(match=match))}


def _table_context(tournament: Any, number: int, pairing: Any, **extra: Any) -> dict[str, Any]:
    match = match_get(match_id=pairing.match_id)
    names = (match.player1.name, match.player2.name)
    context = {
        "tournament": tournament,
        "round_number": number,
        "pairing": pairing,
        "match": match,
        "sheet": scoresheet(match),
        "form": extra.pop("form", None) or HandForm(names=names),
        "finished": match.status != "in_progress",
        "entry": table_entry_open(match=match),
        **extra,
    }
    if context["entry"] is not None and "amend" not in context:
        # The amend form starts from the entry.
        context["amend_initial"] = amend_form(match, entry=context["entry"])
    return context


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@desk_tournament
def table_view(request: HttpRequest, tournament: Any, number: int, table: int) -> HttpResponse:
    pairing = _pairing(tournament, number, table)
    context = _table_context(tournament, number, pairing)
    if request.method != "POST":
        context["cases"] = match_disputes_open(match=context["match"], user=request.user)
        return render(request, "desk/table.html", context)
    match = context["match"]
    form = HandForm(request.POST, names=(match.player1.name, match.player2.name))
    if form.is_valid():
        try:
            match_record_hand(
                match_id=match.pk,
                by=request.user,
                expected_version=_int(request.POST.get("version")),
                hand=form.entry((match.player1_id, match.player2_id)),
            )
            return redirect("desk-table", tournament_id=tournament.pk, number=number, table=table)
        except VersionConflictError:
            form.add_error(
                None,
                gettext(
                    "the scoresheet changed since this page was loaded (entered twice, or from "
                    "another screen): check the hands below and enter again if needed"
                ),
            )
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
    context = _table_context(tournament, number, pairing, form=form)
    return render(request, "desk/table.html", context, status=400)


@require_POST
@desk_tournament
def entry_decide(
    request: HttpRequest, tournament: Any, number: int, table: int, entry_id: int
) -> HttpResponse:
    """The organiser settles a player's entry (waiting or disputed): accept or reject."""
    pairing = _pairing(tournament, number, table)
    entry = table_entry_open(match=match_get(match_id=pairing.match_id))
    if entry is None or entry.pk != entry_id:
        error = gettext("that entry is no longer open")
    else:
        try:
            table_entry_decide(
                entry_id=entry.pk,
                by=request.user,
                accept=request.POST.get("accept") == "1",
                note=request.POST.get("note", ""),
            )
            return redirect("desk-table", tournament_id=tournament.pk, number=number, table=table)
        except FORM_ERRORS as exc:
            error = error_message(exc)
    context = _table_context(tournament, number, pairing, error=error)
    return render(request, "desk/table.html", context, status=409)


@desk_tournament
def hand_correct(
    request: HttpRequest, tournament: Any, number: int, table: int, hand: int
) -> HttpResponse:
    """Correct or void an earlier hand (a ruling with a reason, the corrections issue's
    services); the scoresheet is scored again from the corrected hands."""
    pairing = _pairing(tournament, number, table)
    match = match_get(match_id=pairing.match_id)
    row = next((h for h in match_hand_rows(match=match) if h.hand_number == hand), None)
    if row is None:
        raise Http404("no such hand")
    names = (match.player1.name, match.player2.name)
    initial = _initial(match, row)
    form = CorrectionForm(initial=initial, names=names)
    void_form = ReasonForm(prefix="void")
    status = 200
    if request.method == "POST":
        voiding = "void-reason" in request.POST
        if voiding:
            void_form = ReasonForm(request.POST, prefix="void")
            bound = void_form
        else:
            form = CorrectionForm(request.POST, names=names)
            bound = form
        if bound.is_valid():
            kwargs: dict[str, Any] = {"hand_number": hand}
            if voiding:
                kwargs |= {"type": "void_hand", "reason": void_form.cleaned_data["reason"]}
            else:
                kwargs |= {"type": "correct_hand", "reason": form.cleaned_data["reason"]}
                kwargs["hand"] = form.entry((match.player1_id, match.player2_id))
            try:
                match_rule(match_id=match.pk, by=request.user, **kwargs)
                return redirect(
                    "desk-table", tournament_id=tournament.pk, number=number, table=table
                )
            except FORM_ERRORS as exc:
                bound.add_error(None, error_message(exc))
        status = 400
    context = {
        **_table_context(tournament, number, pairing),
        "hand": row,
        "correction": form,
        "void_form": void_form,
    }
    return render(request, "desk/hand_correct.html", context, status=status)


def _initial(match: Any, row: Any) -> dict[str, Any]:
    if row.kind == "draw":
        return {"result": "drawn"}
    return {
        "result": "p1" if row.knocker_id == match.player1_id else "p2",
        "gin": row.kind == "gin",
        "knocker_deadwood": row.knocker_deadwood,
        "defender_deadwood": row.defender_deadwood,
    }


def match_desk(request: HttpRequest, match_id: str) -> HttpResponse:
    """A match's desk page (the admin links here): its table's results screen, for the
    tournament's organisers (anyone else: 404, not even whether it exists)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    try:
        place = match_place(match_id=match_get(match_id=match_id).pk)
    except NotFoundError as exc:
        raise Http404("no tournament match") from exc
    if place is None:
        raise Http404("no tournament match")
    tournament = tournament_get(tournament_id=place.tournament_id)  # its pairing's: there
    if not user_can_organise(user=request.user, tournament=tournament):
        raise Http404("no tournament match")
    url = reverse(
        "desk-table",
        kwargs={
            "tournament_id": place.tournament_id,
            "number": place.round_number,
            "table": place.table,
        },
    )
    return redirect(url)
