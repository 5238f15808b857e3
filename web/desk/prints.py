"""Printed sheets (print CSS, A4 and Letter) and CSV exports: pairings by table and by
name, table slips with a QR code to the players' page of the table, standings with the
tiebreak order, a match's scoresheet, a blank scoresheet; standings and results as CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import openpyxl
import segno
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from core.errors import ApplicationError, translated_message
from core.text import printable
from games.selectors import match_get
from tournaments.exchange.export import tournament_exchange_text
from tournaments.pairing import TIEBREAKS
from tournaments.ratings.selectors import tournament_ratings_shown
from tournaments.selectors import (
    tournament_pairing_list,
    tournament_results_table,
    tournament_rounds_completed,
    tournament_standings,
    tournament_standings_table,
)
from tournaments.setting_labels import TIEBREAK_LABELS
from web.brackets import bracket_drawn
from web.desk.access import desk_tournament
from web.desk.rounds import _pairing, _round, scoresheet
from web.language import tournament_view_language
from web.localize import sort_by_name, standings_sorted
from web.templatetags.desk import in_zone

# The desk's spreadsheets' column headings (the API's CSV keeps the English codes).
COLUMN_LABELS = {
    "rank": _("Rank"),
    "place": _("Place (shared on a tie)"),
    "player_id": _("Player id"),
    "player": _("Player"),
    "played": _("Played"),
    "match_wins": _("Match wins"),
    "games_won": _("Games won"),
    "points_diff": _("Points diff"),
    "buchholz": _("Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "byes": _("Byes"),
    "withdrawn": _("Withdrawn"),
    "federation_id": _("Federation id"),
    "round": _("Round"),
    "table": _("Table"),
    "player1": _("Player 1"),
    "player2": _("Player 2"),
    "status": _("Status"),
    "winner": _("Winner"),
    "games1": _("Games 1"),
    "games2": _("Games 2"),
    "points1": _("Points 1"),
    "points2": _("Points 2"),
    "result": _("Result"),
    "match_id": _("Match id"),
    # A season's table.
    "points": _("Points"),
    "counted": _("Counted"),
    "tournaments_won": _("Tournaments won"),
    "shared": _("Shared"),
    # A team event's tables (issue 39).
    "team": _("Team"),
    "team_name": _("Team name"),
    "match_points": _("Match points"),
    "board_points": _("Board points"),
    "hollywood_points": _("Hollywood points"),
    "won": _("Won"),
    "drawn": _("Drawn"),
    "lost": _("Lost"),
    "board": _("Board"),
    "team1": _("Team 1"),
    "team2": _("Team 2"),
}
# Excel's list separator where the decimal sign is a comma (its CSV import splits on it).
CSV_SEPARATORS = {"ro": ";", "de": ";", "lt": ";"}


def tiebreak_order(tournament: Any) -> list[str]:
    """The order standings are ranked by: the tournament's setting, or the default one
    (as tournaments.projections.tournament_tiebreaks decides it)."""
    if tournament.tiebreaks:
        names = list(tournament.tiebreaks)
    else:
        names = list(TIEBREAKS) if tournament.format == "swiss" else list(TIEBREAKS[:3])
    return [str(TIEBREAK_LABELS.get(n, n)) for n in names]


def _printed(tournament: Any) -> str:
    return in_zone(timezone.now(), tournament)


@desk_tournament
def print_pairings(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    tournament_view_language(request, tournament)
    round_ = _round(tournament, number)
    pairings = tournament_pairing_list(tournament=tournament, round_number=number)
    by_name = []
    for p in pairings:
        by_name.append(
            {
                "name": p.player1.name,
                "player": p.player1_id,
                "table": p.table,
                "opponent": p.player2,
            }
        )
        if p.player2 is not None:
            by_name.append(
                {
                    "name": p.player2.name,
                    "player": p.player2_id,
                    "table": p.table,
                    "opponent": p.player1,
                }
            )
    by_name = sort_by_name(by_name, lambda row: row["name"])  # the page language's order
    context = {
        "tournament": tournament,
        "round": round_,
        "pairings": pairings,
        "by_name": by_name,
        "ratings": tournament_ratings_shown(tournament=tournament),
        "printed": _printed(tournament),
    }
    return render(request, "desk/print_pairings.html", context)


def qr_svg(url: str) -> str:
    """An inline SVG QR code (segno, pure Python: no image service, no CDN)."""
    return mark_safe(  # noqa: S308 - segno's own SVG markup of our own URL
        segno.make(url, error="m").svg_inline(scale=3, border=2, omitsize=False)
    )


@desk_tournament
def print_slips(request: HttpRequest, tournament: Any, number: int) -> HttpResponse:
    tournament_view_language(request, tournament)
    round_ = _round(tournament, number)
    slips = []
    for p in tournament_pairing_list(tournament=tournament, round_number=number):
        if p.match_id is None:
            continue
        path = reverse("table-entry", kwargs={"match_id": p.match_id})
        url = request.build_absolute_uri(path)
        short = reverse("table-short", args=[tournament.pk, number, p.table])
        # The short address as typed: no scheme (a phone's browser adds it).
        short_url = request.build_absolute_uri(short).split("://", 1)[-1].rstrip("/")
        slips.append({"p": p, "url": url, "qr": qr_svg(url), "short": short_url})
    context = {"tournament": tournament, "round": round_, "slips": slips}
    return render(request, "desk/print_slips.html", context)


@desk_tournament
def print_standings(request: HttpRequest, tournament: Any) -> HttpResponse:
    tournament_view_language(request, tournament)
    context = {
        "tournament": tournament,
        "standings": standings_sorted(tournament_standings(tournament=tournament)),
        "completed": tournament_rounds_completed(tournament=tournament),
        "tiebreaks": tiebreak_order(tournament),
        "sep": gettext(", then "),
        "ratings": tournament_ratings_shown(tournament=tournament),
        "printed": _printed(tournament),
    }
    return render(request, "desk/print_standings.html", context)


@desk_tournament
def print_bracket(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The bracket on screen and on paper (landscape): a double elimination's three
    parts, a knockout's or a top cut's one; 404 where the format draws none (yet)."""
    tournament_view_language(request, tournament)
    bracket = bracket_drawn(tournament=tournament)
    if bracket is None:
        raise Http404("no bracket")
    context = {"tournament": tournament, "bracket": bracket, "printed": _printed(tournament)}
    return render(request, "desk/print_bracket.html", context)


@desk_tournament
def print_scoresheet(request: HttpRequest, tournament: Any, number: int, table: int) -> Any:
    tournament_view_language(request, tournament)
    pairing = _pairing(tournament, number, table)
    match = match_get(match_id=pairing.match_id)
    context = {
        "tournament": tournament,
        "round_number": number,
        "pairing": pairing,
        "match": match,
        "sheet": scoresheet(match),
        "printed": _printed(tournament),
    }
    return render(request, "desk/print_scoresheet.html", context)


@desk_tournament
def print_blank(request: HttpRequest, tournament: Any) -> HttpResponse:
    tournament_view_language(request, tournament)
    context = {"tournament": tournament, "lines": range(1, 26), "games": range(1, 4)}
    return render(request, "desk/print_blank.html", context)


# The cells that hold a code, in words (the API's CSV keeps the codes).
VALUE_LABELS = {
    "status": {"pending": _("In play"), "finished": _("Finished")},
    "result": {"played": _("played"), "forfeit": _("Forfeit"), "bye": _("bye")},
}
YES_NO = {True: _("yes"), False: _("no")}


def _headings(header: list[str]) -> list[str]:
    return [str(COLUMN_LABELS.get(name, name)) for name in header]


def _worded(header: list[str], rows: list[list[Any]], *, booleans: bool) -> list[list[Any]]:
    """`rows` with each coded cell in the reader's words (`status`, `result`) and, where the
    file has no booleans of its own (CSV), True/False as yes/no: a spreadsheet showed
    "finished" and "False" in a German or Persian export."""
    labels = [VALUE_LABELS.get(name, {}) for name in header]
    out = []
    for row in rows:
        cells = []
        for value, words in zip(row, labels, strict=False):
            if isinstance(value, bool):
                cells.append(value if not booleans else str(YES_NO[value]))
            elif isinstance(value, str) and value in words:
                cells.append(str(words[value]))
            else:
                cells.append(value)
        out.append(cells)
    return out


def _csv(filename: str, header: list[str], rows: list[list[Any]]) -> HttpResponse:
    """A CSV that Excel opens as it is in the viewer's language: a byte-order mark (UTF-8
    read as UTF-8), the locale's list separator and decimal sign, headings in words."""
    language = translation.get_language() or "en"
    separator = CSV_SEPARATORS.get(language, ",")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response, delimiter=separator)
    writer.writerow(_headings(header))
    worded = _worded(header, rows, booleans=True)
    writer.writerows([[_cell(v, separator) for v in row] for row in worded])
    return response


def _cell(value: Any, separator: str = ",") -> Any:
    """A name a spreadsheet would run as a formula (=, +, -, @) is written as text; a
    fraction with the decimal comma where the list separator is ";". Control characters,
    in a row stored before they were refused (core.text), are left out: a spreadsheet
    cannot hold them (openpyxl refused the whole .xlsx)."""
    if isinstance(value, str):
        value = printable(value)
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    if isinstance(value, float) and separator == ";":
        return f"{value:g}".replace(".", ",")
    return value


@desk_tournament
def tournament_xlsx(request: HttpRequest, tournament: Any) -> HttpResponse:
    """Standings and results as one .xlsx (openpyxl): a sheet each, headings in words,
    numbers as numbers (the spreadsheet formats them in the viewer's locale)."""
    sheets = [
        (gettext("Standings"), tournament_standings_table(tournament=tournament)),
        (gettext("Results"), tournament_results_table(tournament=tournament)),
    ]
    return xlsx_response(f"tournament-{tournament.pk}.xlsx", sheets, title=tournament.name)


def csv_response(filename: str, header: list[str], rows: list[list[Any]]) -> HttpResponse:
    """A table as the desk's CSV (see `_csv`), for other desk pages (a season's)."""
    return _csv(filename, header, rows)


def xlsx_response(
    filename: str, sheets: list[tuple[str, tuple[list[str], list[list[Any]]]]], *, title: str = ""
) -> HttpResponse:
    """Tables as one .xlsx (openpyxl): a sheet each (title, (column codes, rows)), as a
    person opens it: the sheet's title in its first row ("Tuesday Swiss · Standings"), the
    headings in words in bold below it, frozen and filterable, columns as wide as what they
    hold; numbers as numbers (the spreadsheet formats them in the viewer's locale), right to
    left in a right-to-left language."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    if title:
        book.properties.title = printable(title)
    for name, (header, rows) in sheets:
        sheet = book.create_sheet(title=printable(name)[:31])
        sheet.append([printable(f"{title} · {name}" if title else name)])
        sheet["A1"].font = Font(bold=True, size=14)
        sheet.append(_headings(header))
        for cell in sheet[2]:
            cell.font = Font(bold=True)
        for row in _worded(header, rows, booleans=False):
            sheet.append([_cell(v) if isinstance(v, str) else _xlsx_value(v) for v in row])
        sheet.freeze_panes = "A3"
        if header:
            sheet.auto_filter.ref = f"A2:{get_column_letter(len(header))}{sheet.max_row}"
        _fit_columns(sheet)
        # Printed: one page wide, landscape, the headings again on every page.
        sheet.page_setup.orientation = "landscape"
        sheet.sheet_properties.pageSetUpPr.fitToPage = True
        sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight = 1, 0
        sheet.print_title_rows = "1:2"
        if translation.get_language_bidi():
            sheet.sheet_view.rightToLeft = True
    out = io.BytesIO()
    book.save(out)
    response = HttpResponse(
        out.getvalue(),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _fit_columns(sheet: Any) -> None:
    """Each column as wide as its widest heading or value (the title row aside), within
    reason: 6 to 40 characters."""
    widths: dict[int, int] = {}
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            if cell.value is not None:
                widths[cell.column] = max(widths.get(cell.column, 0), len(str(cell.value)))
    for column, width in widths.items():
        sheet.column_dimensions[get_column_letter(column)].width = min(max(width + 2, 6), 40)


def _xlsx_value(value: Any) -> Any:
    if value is None or isinstance(value, int | float | bool):
        return value
    return printable(str(value))


@desk_tournament
def standings_csv(request: HttpRequest, tournament: Any) -> HttpResponse:
    header, rows = tournament_standings_table(tournament=tournament)
    return _csv(f"standings-{tournament.pk}.csv", header, rows)


@desk_tournament
def results_csv(request: HttpRequest, tournament: Any) -> HttpResponse:
    header, rows = tournament_results_table(tournament=tournament)
    return _csv(f"results-{tournament.pk}.csv", header, rows)


@desk_tournament
def exchange_file(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The finished tournament's results exchange file (HGX 2; a bracket's HGX 3), as the
    API gives it."""
    try:
        text = tournament_exchange_text(tournament=tournament)
    except ApplicationError as exc:  # not finished
        return HttpResponse(translated_message(exc), status=exc.status, content_type="text/plain")
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.hgx"'
    return response
