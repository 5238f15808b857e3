"""The desk's team events (issue 39): the list and a new team tournament; one team event's
teams with their rosters, a side registered from a list of names, each side's lineup for
the next round set by a board number per player (no script needed; with one, by dragging
the rows or moving them with keys: web/static/play/lineup.js), the
round paired, and the team-match sheets, each board linked to its match's desk page; the
team standings as CSV and .xlsx. Through the tournaments' and teams' services and
selectors only; the event's organisers and staff."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from core.errors import NotFoundError, PermissionDeniedError, ValidationError
from core.transactions import request_transaction
from players.selectors import players_named
from players.services import player_create
from tournaments.services import tournament_create
from tournaments.teams import selectors
from tournaments.teams.services import team_lineup_set, team_register, team_round_pair
from web.desk.access import FORM_ERRORS, LOGIN_URL, desk_user, error_message
from web.desk.prints import csv_response, xlsx_response
from web.play.strings import lineup_strings

MAX_ROSTER = 40


class TeamTournamentForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Name"))
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[("team_swiss", _("Team Swiss")), ("team_round_robin", _("Team round robin"))],
    )
    boards = forms.IntegerField(min_value=1, max_value=12, initial=4, label=_("Boards"))
    rounds = forms.IntegerField(
        min_value=1,
        max_value=50,
        required=False,
        label=_("Rounds"),
        help_text=_("Team Swiss only; empty: enough rounds for a winner."),
    )


class TeamForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Team name"))
    roster = forms.CharField(
        label=_("Players, best first"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "One name a line, in board order; a name nobody has becomes a new player, "
            "#12 names player 12. The first is the captain."
        ),
    )

    def clean_roster(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["roster"].splitlines()]
        names = [line for line in lines if line]
        if not names or len(names) > MAX_ROSTER:
            raise forms.ValidationError(_("one to %(most)s names") % {"most": MAX_ROSTER})
        return names


def _event(request: HttpRequest, event_id: int) -> Any:
    try:
        return selectors.team_event_for_desk(event_id=event_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such team event") from exc
    except PermissionDeniedError as exc:
        raise PermissionDenied("only the team event's organisers") from exc


def _signed_in(view: Any) -> Any:
    def wrapper(request: HttpRequest, event_id: int, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), LOGIN_URL)
        return view(request, _event(request, event_id), *args, **kwargs)

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


@desk_user
def team_events(request: HttpRequest) -> HttpResponse:
    """The team events the user organises, and a form for a new team tournament."""
    form = TeamTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournament_create(
                name=data["name"],
                format=data["format"],
                created_by=request.user,
                boards=data["boards"],
                rounds=data["rounds"],
            )
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            event = selectors.team_event_of_tournament(tournament_id=tournament.pk)
            return redirect("desk-team-event", event_id=event.pk)
    context = {"events": selectors.team_events_organised(user=request.user), "form": form}
    status = 400 if request.method == "POST" else 200
    return render(request, "desk/team_events.html", context, status=status)


def _page(request: HttpRequest, event: Any, status: int = 200, **forms_: Any) -> HttpResponse:
    context = selectors.team_event_desk(event=event)
    context["team_form"] = forms_.get("team_form") or TeamForm()
    context["errors"] = forms_.get("errors", [])
    context["strings"] = lineup_strings()
    return render(request, "desk/team_event.html", context, status=status)


@_signed_in
def team_event_desk(request: HttpRequest, event: Any) -> HttpResponse:
    """One team event: its teams, lineups, rounds and team-match sheets."""
    return _page(request, event)


def _player_of(name: str) -> int:
    """`#12`: player 12; a name exactly one player has: them; nobody's: a new player."""
    if name.startswith("#") and name[1:].isdigit():
        return int(name[1:])
    found = players_named(name=name)
    if len(found) > 1:
        raise ValidationError(
            gettext_noop("%(name)s: several players have this name; write #id instead"),
            code="roster",
            params={"name": f"\u2068{name}\u2069"},
        )
    return found[0].pk if found else player_create(name=name).pk


@require_POST
@_signed_in
def team_add(request: HttpRequest, event: Any) -> HttpResponse:
    """A side registered from its list of names (all of it, or nothing)."""
    form = TeamForm(request.POST)
    if not form.is_valid():
        return _page(request, event, 400, team_form=form)
    try:
        with request_transaction():
            roster = [_player_of(name) for name in form.cleaned_data["roster"]]
            team_register(
                event_id=event.pk,
                name=form.cleaned_data["name"],
                roster=roster,
                captain=roster[0],
                by=request.user,
                by_rating=False,
            )
    except FORM_ERRORS as exc:
        form.add_error(None, error_message(exc))
        return _page(request, event, 400, team_form=form)
    return redirect("desk-team-event", event_id=event.pk)


class LineupInputError(ValueError):
    """A lineup form's numbers do not make a lineup (the message: in the page's words)."""


def lineup_posted(post: Any, boards: int) -> list[int]:
    """The players in board order from a lineup form's fields `board-<player id>`: a board
    number each (empty: not playing), 1 to `boards`, each once. The desk's form and the
    captain's page (web/play/captain.py) post the same fields; LineupInputError otherwise."""
    numbered: list[tuple[int, int]] = []
    for key, value in post.items():
        if not key.startswith("board-") or not value.strip():
            continue
        player, number = key.removeprefix("board-"), value.strip()
        if not player.isdigit() or not number.isdigit():
            raise LineupInputError(gettext("a board is a whole number"))
        numbered.append((int(number), int(player)))
    if sorted(n for n, _ in numbered) != list(range(1, boards + 1)):
        message = gettext("number the boards 1 to %(boards)s, each once") % {"boards": boards}
        raise LineupInputError(message)
    return [p for _, p in sorted(numbered)]


@require_POST
@_signed_in
def lineup_set(request: HttpRequest, event: Any, team: int) -> HttpResponse:
    """A side's lineup for the next round: a board number per player (empty: not playing)."""
    try:
        players = lineup_posted(request.POST, event.boards)
        team_lineup_set(
            event_id=event.pk,
            team=team,
            round_number=event.current_round + 1,
            players=players,
            by=request.user,
        )
    except LineupInputError as exc:
        return _page(request, event, 400, errors=[str(exc)])
    except FORM_ERRORS as exc:
        return _page(request, event, 400, errors=[error_message(exc)])
    return redirect("desk-team-event", event_id=event.pk)


@require_POST
@_signed_in
def round_pair(request: HttpRequest, event: Any) -> HttpResponse:
    try:
        team_round_pair(event_id=event.pk, round_number=event.current_round + 1, by=request.user)
    except FORM_ERRORS as exc:
        return _page(request, event, 409, errors=[error_message(exc)])
    return redirect("desk-team-event", event_id=event.pk)


@_signed_in
def standings_csv(request: HttpRequest, event: Any) -> HttpResponse:
    header, rows = selectors.team_event_standings_table(event=event)
    return csv_response(f"team-event-{event.pk}-standings.csv", header, rows)


@_signed_in
def standings_xlsx(request: HttpRequest, event: Any) -> HttpResponse:
    sheets = [
        (gettext("Team standings"), selectors.team_event_standings_table(event=event)),
        (gettext("Boards"), selectors.team_event_boards_table(event=event)),
    ]
    return xlsx_response(f"team-event-{event.pk}.xlsx", sheets)
