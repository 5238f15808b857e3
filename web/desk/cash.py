"""The evening's cash sheet (issue 40): each entry's fee paid, unpaid or waived, recorded
at the desk (no payment processor: cash or a transfer), the total collected; a print
layout and an .xlsx. Amounts in the tournament's language's number format."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import openpyxl
from babel.numbers import format_currency, format_decimal
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.text import printable
from tournaments.selectors.entries import CashSheet, tournament_cash_sheet
from tournaments.services.fees import tournament_entry_payment_set
from web.desk.access import FORM_ERRORS, desk_tournament, error_message
from web.language import tournament_view_language


def money(amount: Decimal | None, currency: str) -> str:
    """An amount in the active language's format (with its currency, if one is set)."""
    if amount is None:
        return ""
    locale = (translation.get_language() or "en").replace("-", "_")
    if currency:
        return format_currency(amount, currency, locale=locale)
    return format_decimal(amount, format="#,##0.00", locale=locale)


def _payment_label(status: str) -> str:
    return {"paid": gettext("Paid"), "waived": gettext("Waived")}.get(status, gettext("Unpaid"))


def _context(tournament: Any, sheet: CashSheet, error: str = "") -> dict[str, Any]:
    lines = [
        {"line": x, "label": _payment_label(x.payment), "amount": money(x.amount, sheet.currency)}
        for x in sheet.lines
    ]
    return {
        "tournament": tournament,
        "sheet": sheet,
        "lines": lines,
        "fee": money(sheet.fee, sheet.currency),
        "collected": money(sheet.collected, sheet.currency),
        "error": error,
    }


@desk_tournament
def cash_sheet(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The sheet, in the tournament's language (it is printed for the evening)."""
    tournament_view_language(request, tournament)
    sheet = tournament_cash_sheet(tournament=tournament)
    return render(request, "desk/cash.html", _context(tournament, sheet))


@require_POST
@desk_tournament
def cash_record(request: HttpRequest, tournament: Any, player_id: int) -> HttpResponse:
    try:
        tournament_entry_payment_set(
            tournament_id=tournament.pk, player_id=player_id,
            status=request.POST.get("status", ""), by=request.user,
        )  # fmt: skip
    except FORM_ERRORS as exc:
        sheet = tournament_cash_sheet(tournament=tournament)
        return render(
            request, "desk/cash.html", _context(tournament, sheet, error_message(exc)), status=400
        )
    return redirect("desk-cash", tournament_id=tournament.pk)


@desk_tournament
def cash_xlsx(request: HttpRequest, tournament: Any) -> HttpResponse:
    """The sheet as .xlsx: amounts as numbers (the spreadsheet formats them)."""
    tournament_view_language(request, tournament)
    sheet = tournament_cash_sheet(tournament=tournament)
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = printable(gettext("Cash sheet"))[:31]
    ws.append([gettext("Player"), gettext("Payment"), gettext("Amount"), gettext("Currency")])
    for x in sheet.lines:
        name = printable(x.player)
        if name[:1] in ("=", "+", "-", "@"):
            name = "'" + name  # never a formula
        ws.append([name, _payment_label(x.payment), x.amount, sheet.currency])
    ws.append([gettext("Collected"), "", sheet.collected, sheet.currency])
    if translation.get_language_bidi():
        ws.sheet_view.rightToLeft = True
    out = io.BytesIO()
    book.save(out)
    response = HttpResponse(
        out.getvalue(),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="cash-{tournament.pk}.xlsx"'
    return response
