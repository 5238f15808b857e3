"""The desk's seasons of a club: the list and a new season, one season's settings (name,
days, points per place, for taking part, best N of M) and its standings, as a spreadsheet
(.xlsx) or CSV like a tournament's. Through the ratings services and selectors only; the
club's organisers and staff."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import NotFoundError, PermissionDeniedError
from tournaments.ratings import selectors
from tournaments.ratings.services import club_get_for_manage, season_create, season_update
from web.desk.access import FORM_ERRORS, LOGIN_URL, error_message
from web.desk.prints import csv_response, xlsx_response

DAY = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    starts_on = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    place_points = forms.CharField(
        max_length=2000,
        label=_("Points for places 1, 2, 3 …"),
        help_text=_("Separated by commas; places beyond the list get none."),
        initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
    )
    participation_points = forms.IntegerField(
        min_value=0, max_value=100_000, initial=0, label=_("Points for taking part")
    )
    best_of = forms.IntegerField(
        min_value=1,
        max_value=10_000,
        required=False,
        label=_("Best N tournaments count"),
        help_text=_("Empty: every tournament counts."),
    )

    def clean_place_points(self) -> list[int]:
        parts = [p.strip() for p in self.cleaned_data["place_points"].replace(";", ",").split(",")]
        try:
            points = [int(p) for p in parts if p]
        except ValueError as exc:
            raise forms.ValidationError(_("whole numbers separated by commas")) from exc
        if not points or any(p < 0 or p > 100_000 for p in points) or len(points) > 500:
            raise forms.ValidationError(_("whole numbers separated by commas"))
        return points

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", _("the last day comes before the first"))
        return data

    @classmethod
    def of(cls, season: Any) -> SeasonForm:
        return cls(
            initial={
                "name": season.name,
                "starts_on": season.starts_on,
                "ends_on": season.ends_on,
                "place_points": ", ".join(str(p) for p in season.place_points),
                "participation_points": season.participation_points,
                "best_of": season.best_of,
            }
        )


def _club(request: HttpRequest, club_id: int) -> Any:
    try:
        return club_get_for_manage(club_id=club_id, user=request.user)
    except NotFoundError as exc:
        raise Http404("no such club") from exc
    except PermissionDeniedError as exc:
        raise PermissionDenied("only the club's organisers") from exc


def _season(club: Any, season_id: int) -> Any:
    try:
        season = selectors.season_get(season_id=season_id)
    except NotFoundError as exc:
        raise Http404("no such season") from exc
    if season.club_id != club.pk:
        raise Http404("no such season")
    return season


def club_seasons(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's seasons, and a form for a new one."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    club = _club(request, club_id)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_create(club_id=club.pk, by=request.user, **form.cleaned_data)
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("desk-season", club_id=club.pk, season_id=season.pk)
    context = {"club": club, "seasons": selectors.club_season_list(club=club), "form": form}
    status = 400 if request.method == "POST" else 200
    return render(request, "desk/seasons.html", context, status=status)


def season_desk(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """One season: its settings (changed here, the standings computed again) and its
    standings."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    club = _club(request, club_id)
    season = _season(club, season_id)
    form = SeasonForm(request.POST) if request.method == "POST" else SeasonForm.of(season)
    if request.method == "POST" and form.is_valid():
        try:
            season_update(season_id=season.pk, by=request.user, **form.cleaned_data)
        except FORM_ERRORS as exc:
            form.add_error(None, error_message(exc))
        else:
            return redirect("desk-season", club_id=club.pk, season_id=season.pk)
    standings = selectors.season_standing_list(season=season)
    context = {"club": club, "season": season, "form": form, "standings": standings}
    status = 400 if request.method == "POST" else 200
    return render(request, "desk/season.html", context, status=status)


def season_xlsx(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    club = _club(request, club_id)
    season = _season(club, season_id)
    table = selectors.season_standings_table(season=season)
    return xlsx_response(
        f"season-{season.pk}.xlsx",
        [(gettext("Season standings"), table)],
        title=f"{club.name} · {season.name}",
    )


def season_csv(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    season = _season(_club(request, club_id), season_id)
    header, rows = selectors.season_standings_table(season=season)
    return csv_response(f"season-{season.pk}.csv", header, rows)
