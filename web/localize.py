"""Dates, times, digits and names in the page's language (README, "Languages").

Dates and times through Babel (CLDR's names and patterns for every language); in Persian,
the Solar Hijri (Jalali) calendar through jdatetime, unless the tournament's club turned
it off, and Persian digits on the whole page (`PersianDigitsMiddleware`). Names sort by
the page language's collation (ICU through PyICU). The API, its CSV and the JSON are left
alone: ISO 8601, Gregorian, Latin digits, and an order that never depends on the language.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import icu
from django.http import HttpRequest, HttpResponse
from django.utils import translation

# The digits and the dates live in core (the notices use them too); the pages import them here.
from core.localdates import (  # noqa: F401
    LATIN_DIGITS,
    PERSIAN_DIGITS,
    format_day,
    format_local,
    format_month,
    jalali,
    latin_digits,
    persian_digits,
)
from core.localdates import (
    active_language as _language,
)

T = TypeVar("T")


def jalali_date_text(value: dt.date) -> str:
    """A Gregorian date as the Persian page shows it, e.g. 2026-12-01 -> "۱۰ آذر ۱۴۰۵"."""
    j = jalali(value)
    return persian_digits(f"{j.day} {j.strftime('%B')} {j.year}")


# -- sorting names -----------------------------------------------------------------------


@functools.cache
def _collator(language: str) -> Any:
    collator = icu.Collator.createInstance(icu.Locale(language))
    return collator


def collation_key(language: str | None = None) -> Callable[[str], bytes]:
    """A sort key for names in `language` (the page's by default): ICU's tailoring, e.g.
    Romanian Ș after S, Lithuanian Y with I, German Ä with A, Persian پ after ب."""
    collator = _collator(language or _language())
    return collator.getSortKey


def sort_by_name(
    items: Iterable[T], name: Callable[[T], str], language: str | None = None
) -> list[T]:
    """`items` by `name(item)` in the page language's order; ties keep their order (stable)."""
    key = collation_key(language)
    return sorted(items, key=lambda item: key(name(item) or ""))


def standings_sorted(standings: Iterable[Any]) -> list[Any]:
    """Standings by place; players sharing a place (equal on every tiebreak) by name in the
    page language's order (`tournament_standings` gives each row its place)."""
    key = collation_key()
    return sorted(standings, key=lambda s: (getattr(s, "place", s.rank), key(s.player.name)))


# -- Persian digits on the page -----------------------------------------------------------

_TAG = re.compile(r"(<[^>]*>)")
_DIGIT = re.compile(r"[0-9]")
# Inside these the text is kept as written: code, names and card codes (<bdi>), scripts.
_VERBATIM = {"script", "style", "textarea", "bdi", "code", "pre", "kbd", "samp", "title"}


def persian_digits_html(html: str) -> str:
    """The text of an HTML page with Persian digits; tags, attributes (values, links) and
    the text of verbatim elements are left as they are."""
    parts = _TAG.split(html)
    out = []
    verbatim: list[str] = []
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            out.append(part)
            name = part[1:].split(None, 1)[0].rstrip(">/").lower() if len(part) > 2 else ""
            if name.startswith("/"):
                if verbatim and verbatim[-1] == name[1:]:
                    verbatim.pop()
            elif name in _VERBATIM and not part.endswith("/>"):
                verbatim.append(name)
        elif verbatim or not _DIGIT.search(part):
            out.append(part)
        else:
            out.append(_entity_safe_digits(part))
    return "".join(out)


_ENTITY = re.compile(r"(&#?\w+;)")


# A negative number ("-26") kept left to right (else the minus shows at its right end), and
# the decimal point of a fraction ("1.5") the Persian decimal separator.
_NEGATIVE = re.compile(r"(?<![0-9A-Za-z])-(\d+(?:[.,]\d+)?)")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
# Beside Persian digits a middle dot reads as a zero ("۴ · ۱" as "۴۰۱"): the Persian comma
# separates instead; a question mark after a number (a provisional rating) is Persian's.
_MIDDLE_DOT = re.compile(r"\s*\u00b7\s*")
_QUESTION = re.compile(r"(?<=\d)\?")


def _persian_number_text(text: str) -> str:
    text = _NEGATIVE.sub("\u2066-\\1\u2069", text)
    text = _MIDDLE_DOT.sub("\u060c ", _QUESTION.sub("\u061f", text))
    return persian_digits(_DECIMAL.sub("\u066b", text))


def _entity_safe_digits(text: str) -> str:
    pieces = _ENTITY.split(text)
    return "".join(p if i % 2 else _persian_number_text(p) for i, p in enumerate(pieces))


class PersianDigitsMiddleware:
    """A Persian HTML page (a whole page or an htmx part) shows Persian digits."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            translation.get_language() == "fa"
            and not getattr(response, "streaming", False)
            and response.get("Content-Type", "").startswith("text/html")
            and not request.path.startswith(("/api/", "/admin/", "/docs/"))  # the manual: English
        ):
            response.content = persian_digits_html(response.content.decode(response.charset))
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response
