"""The desk's match sheet: a whole table match typed from the paper Hollywood scoresheet,
one row a hand (knocker, gin, both deadwoods, or drawn), keyboard first: Tab between the
cells, Enter to the next row, Enter on the last one saves. The page's script asks the
engine about the rows as they are typed (`sheet_check`, JSON) and shows each row's result
and the running totals of the games; without the script the sheet is an ordinary form
and saving checks it the same way (`games.services.sheet`)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from games.hand_entries import HandEntry
from games.selectors import MAX_DEADWOOD, match_get, table_entry_open
from games.services.sheet import (
    MAX_ROWS,
    RowChecked,
    match_sheet_check,
    match_sheet_record,
)
from tournaments.selectors import tournament_pairing_list
from web.desk.access import FORM_ERRORS, desk_tournament, error_message
from web.desk.rounds import _pairing, scoresheet
from web.localize import latin_digits, persian_digits_html

BLANK_ROWS = 12  # rows on the page without its script (the script adds rows as needed)
DRAWN_KEYS = ("0", "-", "d", "=")


class RowError(Exception):
    """A row typed wrong: which cell, and why in words."""

    def __init__(self, cell: str, message: str) -> None:
        super().__init__(message)
        self.cell, self.message = cell, message


_COUNT = re.compile(r"[0-9]{1,6}")


def _count(value: str, cell: str) -> int:
    text = latin_digits(value).strip()
    if not _COUNT.fullmatch(text):  # Latin digits only after latin_digits (not "²")
        raise RowError(cell, gettext("a whole number, please"))
    number = int(text)
    if number > MAX_DEADWOOD:
        raise RowError(cell, gettext("at most %(n)d") % {"n": MAX_DEADWOOD})
    return number


def knocker_keys(match: Any) -> dict[str, int | None]:
    """What the knocker cell takes: 1 or 2 (the sheet's columns), 0, - or d for a drawn
    hand, and a player's initial when the two differ; each to the knocker's id (None: a
    drawn hand)."""
    players = (match.player1_id, match.player2_id)
    keys: dict[str, int | None] = {"1": players[0], "2": players[1]}
    keys |= {k: None for k in DRAWN_KEYS}
    initials = [n[:1].casefold() for n in (match.player1.name, match.player2.name)]
    if all(initials) and initials[0] != initials[1]:
        for player, initial in zip(players, initials, strict=True):
            keys.setdefault(initial, player)
    return keys


def parse_row(
    data: Any, i: int, keys: dict[str, int | None]
) -> tuple[dict[str, str], HandEntry | None]:
    """Row `i` of the posted sheet: its cells as typed, and the row (None when empty).
    RowError if it is typed wrong."""
    cells = {name: str(data.get(f"{name}-{i}", "")).strip() for name in ("k", "kd", "dd")}
    cells["g"] = "1" if data.get(f"g-{i}") else ""
    if not any(cells.values()):
        return cells, None
    key = latin_digits(cells["k"]).casefold()
    if key not in keys:
        raise RowError("k", gettext("1 or 2 (who knocked), or 0 for a drawn hand"))
    knocker = keys[key]
    if knocker is None:
        return cells, HandEntry(drawn=True)
    if cells["g"] and not cells["kd"]:
        cells["kd"] = "0"
    kd = _count(cells["kd"], "kd") if cells["kd"] else None
    if kd is None:
        raise RowError("kd", gettext("the knocker's deadwood (0 for gin)"))
    if cells["g"] and kd != 0:
        raise RowError("kd", gettext("gin is a deadwood of 0"))
    if not cells["dd"]:
        raise RowError("dd", gettext("the defender's deadwood"))
    return cells, HandEntry(  # gin is a knocker's deadwood of 0 (RULES 6)
        knocker=knocker,
        gin=kd == 0,
        knocker_deadwood=kd,
        defender_deadwood=_count(cells["dd"], "dd"),
    )


def _row_count(data: Any) -> int:
    try:
        return max(0, min(int(data.get("rows", 0)), MAX_ROWS))
    except (TypeError, ValueError):
        return 0


def parse_sheet(data: Any, match: Any) -> list[dict[str, Any]]:
    """Every posted row of `match`'s sheet up to the last one typed: {"i", "cells", "row",
    "error"} (an empty row before a typed one is an error: hands are numbered in order)."""
    keys = knocker_keys(match)
    out = []
    for i in range(_row_count(data)):
        try:
            cells, row = parse_row(data, i, keys)
            error = None
        except RowError as exc:
            cells = {n: str(data.get(f"{n}-{i}", "")).strip() for n in ("k", "kd", "dd", "g")}
            row, error = None, exc
        out.append({"i": i, "cells": cells, "row": row, "error": error})
    while out and out[-1]["row"] is None and out[-1]["error"] is None:
        out.pop()
    for line in out:
        if line["row"] is None and line["error"] is None:
            line["error"] = RowError("k", gettext("an empty line: hands are entered in order"))
    return out


def _html(text: str) -> SafeString:
    """Escaped text (or HTML built from escaped parts) as the page shows it: Persian
    digits on a Persian page, names in <bdi> kept as written (the script inserts it as it
    is, the JSON answer not going through PersianDigitsMiddleware)."""
    if translation.get_language() == "fa":
        text = persian_digits_html(text)
    return mark_safe(text)  # noqa: S308 - built from escaped parts only


def _points_html(checked: RowChecked, names: tuple[str, str]) -> SafeString:
    if checked.kind == "drawn":
        return _html(escape(gettext("drawn")))
    kinds = {"gin": gettext("gin"), "knock": gettext("knock"), "undercut": gettext("undercut")}
    assert checked.winner is not None
    return _html(
        escape(gettext("%(name)s +%(points)d (%(kind)s)"))
        % {
            "name": f"<bdi>{escape(names[checked.winner])}</bdi>",
            "points": checked.points,
            "kind": escape(kinds.get(checked.kind or "", checked.kind or "")),
        }
    )


def check_lines(match: Any, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's word on each line: the hand's number, the error (a cell and words) or
    the result, and the games' totals after it."""
    names = (match.player1.name, match.player2.name)
    rows = [line["row"] for line in lines if line["row"] is not None and not line["error"]]
    checked = iter(match_sheet_check(match=match, rows=rows))
    out = []
    number = match.hand_number
    for line in lines:
        result: dict[str, Any] = {"i": line["i"], "ok": False, "cell": "", "error": ""}
        if line["error"] is not None:
            result |= {"cell": line["error"].cell, "error": _html(escape(line["error"].message))}
        else:
            c = next(checked)
            number = c.hand_number
            if c.error is not None:
                result |= {"cell": "k", "error": _html(escape(error_message(c.error)))}
            else:
                games = [
                    {"p1": g["totals"][0], "p2": g["totals"][1], "won": g["winner"]}
                    for g in (c.sheet or {}).get("games", [])
                ]
                result |= {
                    "ok": True,
                    "result": _points_html(c, names),
                    "games": games,
                    "won": (c.sheet or {}).get("games_won", [0, 0]),
                    "finished": c.finished,
                }
        result["hand"] = number if result["ok"] else None
        out.append(result)
    return out


def _entry_cells(match: Any, entry: Any) -> dict[str, str]:
    if entry.drawn:
        return {"k": "0", "kd": "", "dd": "", "g": ""}
    seat = "1" if entry.knocker_id == match.player1_id else "2"
    return {
        "k": seat,
        "kd": str(entry.knocker_deadwood),
        "dd": str(entry.defender_deadwood),
        "g": "1" if entry.gin else "",
    }


def _context(
    tournament: Any, number: int, pairing: Any, match: Any, lines: list | None = None
) -> dict[str, Any]:
    entry = table_entry_open(match=match)
    entry_current = entry is not None and entry.version == match.version
    if lines is None:
        lines = []
        if entry_current:  # the phone entry's values, checked as a typed row would be
            cells = _entry_cells(match, entry)
            data = {f"{k}-0": v for k, v in cells.items()}
            try:
                row, error = parse_row(data, 0, knocker_keys(match))[1], None
            except RowError as exc:
                row, error = None, exc
            lines.append({"i": 0, "cells": cells, "row": row, "error": error})
    checks = {c["i"]: c for c in check_lines(match, lines)}
    shown = []
    total = max(len(lines) + 1, BLANK_ROWS)
    for i in range(min(total, MAX_ROWS)):
        cells = lines[i]["cells"] if i < len(lines) else {}
        shown.append({"i": i, "cells": cells, "check": checks.get(i)})
    sheet = scoresheet(match)
    return {
        "tournament": tournament,
        "round_number": number,
        "pairing": pairing,
        "match": match,
        "sheet": sheet,
        "lines": shown,
        "first_hand": match.hand_number + 1,
        "games_count": len(sheet["games"]),
        "entry": entry if entry_current else None,
        "finished": match.status != "in_progress",
        "max_deadwood": MAX_DEADWOOD,
    }


def _table_to_type_next(tournament: Any, number: int, table: int) -> int | None:
    """The round's next table (after this one, then from the first) whose match is still
    in play, to type its sheet; None when there is none."""
    waiting = [
        p.table
        for p in tournament_pairing_list(tournament=tournament, round_number=number)
        if p.table != table and p.match_id and p.match.status == "in_progress"
    ]
    later = [t for t in waiting if t > table]
    return (later or waiting or [None])[0]


@desk_tournament
def sheet_view(request: HttpRequest, tournament: Any, number: int, table: int) -> HttpResponse:
    """GET: the sheet; POST: save its rows (all or none)."""
    pairing = _pairing(tournament, number, table)
    match = match_get(match_id=pairing.match_id)
    if request.method != "POST":
        return render(request, "desk/sheet.html", _context(tournament, number, pairing, match))
    lines = parse_sheet(request.POST, match)
    error = None
    if not lines:
        error = gettext("nothing typed: one line a hand")
    elif not any(line["error"] for line in lines):
        try:
            first = int(request.POST.get("first_hand", ""))
        except ValueError:
            first = match.hand_number + 1
        try:
            saved = match_sheet_record(
                match_id=match.pk,
                by=request.user,
                first_hand=first,
                rows=[line["row"] for line in lines],
                note=request.POST.get("note", ""),
            )
        except FORM_ERRORS as exc:
            error = error_message(exc)
        else:
            text = ngettext("%(n)d hand recorded", "%(n)d hands recorded", saved.recorded) % {
                "n": saved.recorded
            }
            if saved.already:
                text += " · " + ngettext(
                    "%(n)d was recorded already", "%(n)d were recorded already", saved.already
                ) % {"n": saved.already}
            if match_get(match_id=match.pk).status == "in_progress":
                # A part of the sheet: its table page, to go on later.
                messages.success(request, text)
                return redirect(
                    "desk-table", tournament_id=tournament.pk, number=number, table=table
                )
            following = _table_to_type_next(tournament, number, table)
            if following is None:  # the round's last table typed: the round, for the next
                messages.success(request, text)
                return redirect("desk-round", tournament_id=tournament.pk, number=number)
            # A stack of paper sheets typed one after another: the next table's sheet, its
            # cursor in its first cell (the director's evening, issue 37).
            text = gettext("Table %(table)s: %(saved)s; table %(next)s next") % {
                "table": table,
                "saved": text,
                "next": following,
            }
            messages.success(request, text)
            return redirect(
                "desk-sheet", tournament_id=tournament.pk, number=number, table=following
            )
    else:
        error = gettext("a line is not right: see the marked cells")
    context = _context(tournament, number, pairing, match, lines)
    context["error"] = error
    return render(request, "desk/sheet.html", context, status=400)


@require_POST
@desk_tournament
def sheet_check(request: HttpRequest, tournament: Any, number: int, table: int) -> HttpResponse:
    """The engine's word on the typed rows (nothing is stored): JSON for the page's script,
    {"rows": [{"i", "ok", "hand", "cell", "error", "result", "games", "won", "finished"}]}."""
    pairing = _pairing(tournament, number, table)
    match = match_get(match_id=pairing.match_id)
    lines = parse_sheet(request.POST, match)
    return JsonResponse({"rows": check_lines(match, lines), "next_hand": match.hand_number + 1})
