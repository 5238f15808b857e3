"""Template filters of the desk: times in a tournament's zone, always with the zone named,
in the page's language (web.localize: Babel; the Solar Hijri calendar in Persian)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import get_timezone_name
from django import template
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from core.alerts import alert_message, alerts_open
from players.selectors import user_is_organiser
from web.localize import format_day, format_local, format_month, persian_digits
from web.zones import zone_label, zone_place

register = template.Library()

# The words of a table's status and of a dispute's outcome (their codes stay English).
STATUS_LABELS = {
    "bye": _("bye"),
    "waiting": _("waiting"),
    "in_play": _("in play"),
    "overdue": _("overdue"),
    "done": _("done"),
    "to_confirm": _("to confirm"),
    # A player contested the opponent's table entry (not a dispute case: "dispute").
    "disputed": _("entry contested"),
}
DISPUTE_STATUS_LABELS = {
    "open": _("open"),
    "dismissed": _("dismissed"),
    "ruled": _("ruled"),
}


@register.filter
def may_organise(user: Any) -> bool:
    """The header's link to the desk: staff, the organisers group, a club's organisers."""
    return bool(getattr(user, "is_authenticated", False)) and user_is_organiser(user=user)


def _zone(where: Any) -> ZoneInfo:
    name = where if isinstance(where, str) else getattr(where, "time_zone", "UTC")
    return ZoneInfo(name or "UTC")


def _jalali(where: Any) -> bool:
    """Solar Hijri dates unless the tournament's club (or the club) turned them off."""
    if isinstance(getattr(where, "jalali_dates", None), bool):
        return bool(where.jalali_dates)
    club = getattr(where, "club", None) if getattr(where, "club_id", None) else None
    return getattr(club, "jalali_dates", True) if club is not None else True


@register.filter
def zone_name(zone: str) -> str:
    """A zone in the page's language with its offset today: "Tehran — Iran (GMT+03:30)",
    in Persian with Persian digits (it is set apart in a <bdi>, which the page's digits
    leave alone as a name)."""
    language = translation.get_language() or "en"
    label = zone_label(zone, language)
    return persian_digits(label) if language == "fa" else label


@register.filter
def in_zone(value: dt.datetime | None, where: Any) -> str:
    """`value` (aware, UTC in the database) in the tournament's zone with the zone's place
    in the page's language, e.g. "Tue 3 Mar 2026 19:30 CET (Berlin)", "Di., 3. März 2026
    19:30 MEZ (Berlin)", "سه‌شنبه ۱۳ اسفند ۱۴۰۴ ۱۹:۳۰ (تهران)". `where` is a tournament or
    a zone name. The zone's id ("Asia/Tehran") and a numeric offset ("+0330", which a
    right-to-left line turns into "0330+") are never shown: the header names the zone with
    its offset in words (`zone_name`)."""
    if value is None:
        return "—"
    zone = _zone(where)
    local = value.astimezone(zone)
    when = format_local(local, jalali_dates=_jalali(where))
    return _with_zone(when, local, zone)


@register.filter
def clock_in_zone(value: dt.datetime | None, where: Any) -> str:
    """Just the time of day and the zone's abbreviation, e.g. "19:30 CET"; where the zone
    has no lettered abbreviation (Tehran's "+0330"), just the time."""
    if value is None:
        return "—"
    local = value.astimezone(_zone(where))
    when = format_local(local, time_only=True)
    abbreviation = _abbreviation(local)
    if not abbreviation:
        return when
    if translation.get_language_bidi():
        return mark_safe(f"{escape(when)} {_code(abbreviation)}")  # noqa: S308
    return f"{when} {abbreviation}"


@register.filter
def day(value: dt.date | None, where: Any = None) -> str:
    """A day in the page's language ("1. Dez. 2026", "۱۰ آذر ۱۴۰۵"), not ISO's."""
    if value is None:
        return "—"
    return format_day(value, jalali_dates=_jalali(where) if where is not None else True)


@register.filter
def month(value: str) -> str:
    """A rating period's month ("2026-12") in the page's language ("Dezember 2026")."""
    return format_month(value)


def _abbreviation(local: dt.datetime) -> str:
    """The zone's lettered abbreviation at that moment in the page's language ("CET",
    "MEZ", "EST"), or "" where it has only an offset ("+0330", "-03")."""
    name = local.tzname() or ""
    if not name.isalpha():
        return ""
    language = translation.get_language() or "en"
    if language == "de":  # CLDR's German: MEZ/MESZ, OEZ/OESZ
        localised = get_timezone_name(local, width="short", locale=language)
        return localised if localised.isalpha() else name
    return name


def _with_zone(when: str, local: dt.datetime, zone: ZoneInfo) -> str:
    place = zone_place(zone.key, translation.get_language() or "en")
    abbreviation = _abbreviation(local)
    if translation.get_language_bidi():
        text = escape(when)
        if abbreviation:
            text += f" {_code(abbreviation)}"
        if abbreviation == place:
            return mark_safe(text)  # noqa: S308 - every part escaped
        return mark_safe(f"{text} ({escape(place)})")  # noqa: S308 - every part escaped
    if not abbreviation or abbreviation == place:  # "13:34 UTC", not "13:34 UTC (UTC)"
        return f"{when} ({place})" if abbreviation != place else f"{when} {place}"
    return f"{when} {abbreviation} ({place})"


def _code(text: str) -> str:
    """A zone's abbreviation ("CET") on a right-to-left page: isolated left to right;
    escaped, for mark_safe."""
    return f'<bdi dir="ltr">{escape(text)}</bdi>'


@register.filter
def status_label(value: str) -> str:
    return str(STATUS_LABELS.get(value, value))


@register.filter
def dispute_status_label(value: str) -> str:
    return str(DISPUTE_STATUS_LABELS.get(value, value))


@register.filter
def get_item(mapping: dict, key: Any) -> Any:
    return (mapping or {}).get(key) if isinstance(mapping, dict) else None


@register.simple_tag
def desk_alerts(tournament: Any) -> list[str]:
    """The open alerts of the tournament and of the whole installation (core.alerts: a
    round that cannot be paired, a job failed for good, beat silent), in the page's
    language: the desk's banner for the tournament's organisers."""
    if tournament is None or getattr(tournament, "pk", None) is None:
        return []
    return [alert_message(alert) for alert in alerts_open(tournament_id=tournament.pk)]
