"""Dates, times and digits in the active language, for the pages (web.localize) and what
is sent to a person (the players' notices): through Babel (CLDR's names and patterns); in
Persian the Solar Hijri (Jalali) calendar through jdatetime, unless the caller turns it
off, and Persian digits where the caller asks for them."""

from __future__ import annotations

import datetime as dt

import jdatetime
from babel import dates as babel_dates
from django.utils import translation

PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
# What a Persian or Arabic phone keyboard types, as Latin digits (forms accept both).
LATIN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩٫٬", "01234567890123456789.,")


# Languages whose dates follow CLDR's own pattern for a day with its weekday (German's
# "Di., 1. Dez. 2026": the day's period is part of the date). English keeps "Tue 1 Dec
# 2026" (CLDR's American "Tue, Dec 1, 2026" reads oddly to the clubs); Lithuanian keeps the
# month's name (its CLDR pattern is numeric, "2026-12-01, an").
OWN_PATTERN = frozenset({"de", "ro"})


def latin_digits(text: str) -> str:
    return text.translate(LATIN_DIGITS)


def persian_digits(text: str) -> str:
    return text.translate(PERSIAN_DIGITS)


def active_language() -> str:
    return translation.get_language() or "en"


def jalali(value: dt.datetime | dt.date) -> jdatetime.datetime | jdatetime.date:
    """A Gregorian date or time in the Solar Hijri calendar, with Persian names."""
    if isinstance(value, dt.datetime):
        return jdatetime.datetime.fromgregorian(datetime=value, locale="fa_IR")
    return jdatetime.date.fromgregorian(date=value, locale="fa_IR")


def format_local(local: dt.datetime, *, jalali_dates: bool = True, time_only: bool = False) -> str:
    """An aware time already in its zone, in the page's language: "Tue 1 Dec 2026 07:48",
    "mar. 1 dec. 2026 07:48", "سه‌شنبه ۱۰ آذر ۱۴۰۵ ۰۷:۴۸" (digits by the middleware)."""
    language = active_language()
    if time_only:
        return babel_dates.format_time(local, "HH:mm", locale=language)
    if language == "fa" and jalali_dates:
        j = jalali(local)
        return f"{j.strftime('%A')} {j.day} {j.strftime('%B')} {j.year} {local:%H:%M}"
    if language in OWN_PATTERN:  # "Di., 1. Dez. 2026 07:48", "mar., 1 dec. 2026 07:48"
        day = babel_dates.format_skeleton("yMMMEd", local, locale=language)
        return f"{day} {babel_dates.format_time(local, 'HH:mm', locale=language)}"
    return babel_dates.format_datetime(local, "EEE d MMM y HH:mm", locale=language)


def format_day(day: dt.date, *, jalali_dates: bool = True) -> str:
    """A day in the page's language: "1 Dec 2026", "1. Dez. 2026", "1 dec. 2026",
    "۱۰ آذر ۱۴۰۵" (Solar Hijri; digits by the middleware), never ISO's "2026-12-01"."""
    language = active_language()
    if language == "fa" and jalali_dates:
        j = jalali(day)
        return f"{j.day} {j.strftime('%B')} {j.year}"
    if language in OWN_PATTERN:
        return babel_dates.format_skeleton("yMMMd", day, locale=language)
    return babel_dates.format_date(day, "d MMM y", locale=language)


def format_month(month: str) -> str:
    """A rating period's month ("2026-12", Gregorian: periods are calendar months) in the
    page's language: "December 2026", "Dezember 2026", "دسامبر 2026" (digits by the
    middleware); the text as it is when it is no month."""
    try:
        first = dt.date.fromisoformat(f"{month}-01")
    except ValueError:
        return month
    return babel_dates.format_date(first, "LLLL y", locale=active_language())


def isolate(text: str) -> str:
    """A name set apart from the text around it (Unicode FSI ... PDI), so a Latin name in a
    Persian sentence, or a Persian one in a Latin sentence, keeps its own direction."""
    return f"\u2068{text}\u2069"
