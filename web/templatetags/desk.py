"""Template filters of the desk: times in a tournament's zone, always with the zone named,
in the page's language (web.localize: Babel; the Solar Hijri calendar in Persian)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django import template
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from core.alerts import alert_message, alerts_open
from players.selectors import user_is_organiser
from web.localize import format_local
from web.zones import zone_label

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
    """Solar Hijri dates unless the tournament's club turned them off."""
    club = getattr(where, "club", None) if getattr(where, "club_id", None) else None
    return getattr(club, "jalali_dates", True) if club is not None else True


@register.filter
def zone_name(zone: str) -> str:
    """A zone in the page's language with its offset today: "Tehran — Iran (GMT+03:30)"."""
    return zone_label(zone, translation.get_language() or "en")


@register.filter
def in_zone(value: dt.datetime | None, where: Any) -> str:
    """`value` (aware, UTC in the database) in the tournament's zone, e.g.
    "Tue 3 Mar 2026 19:30 CET (Europe/Berlin)". `where` is a tournament or a zone name."""
    if value is None:
        return "—"
    zone = _zone(where)
    local = value.astimezone(zone)
    when = format_local(local, jalali_dates=_jalali(where))
    if translation.get_language_bidi():
        text = f"{escape(when)} {_code(local.tzname() or '')} ({_code(zone.key)})"
        return mark_safe(text)  # noqa: S308 - every part escaped
    return f"{when} {local.tzname()} ({zone.key})"


@register.filter
def clock_in_zone(value: dt.datetime | None, where: Any) -> str:
    """Just the time of day and the zone's abbreviation, e.g. "19:30 CET"."""
    if value is None:
        return "—"
    local = value.astimezone(_zone(where))
    when = format_local(local, time_only=True)
    if translation.get_language_bidi():
        return mark_safe(f"{escape(when)} {_code(local.tzname() or '')}")  # noqa: S308
    return f"{when} {local.tzname()}"


def _code(text: str) -> str:
    """A zone's name or abbreviation ("+0330", "Asia/Tehran") on a right-to-left page:
    isolated left to right (else "+0330" reads "0330+"); escaped, for mark_safe."""
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
