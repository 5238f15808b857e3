"""Template filters of the desk: times in a tournament's zone, always with the zone named."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django import template

register = template.Library()


def _zone(where: Any) -> ZoneInfo:
    name = where if isinstance(where, str) else getattr(where, "time_zone", "UTC")
    return ZoneInfo(name or "UTC")


@register.filter
def in_zone(value: dt.datetime | None, where: Any) -> str:
    """`value` (aware, UTC in the database) in the tournament's zone, e.g.
    "Tue 3 Mar 2026 19:30 CET (Europe/Berlin)". `where` is a tournament or a zone name."""
    if value is None:
        return "—"
    zone = _zone(where)
    local = value.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b %Y %H:%M} {local.tzname()} ({zone.key})"


@register.filter
def clock_in_zone(value: dt.datetime | None, where: Any) -> str:
    """Just the time of day and the zone's abbreviation, e.g. "19:30 CET"."""
    if value is None:
        return "—"
    local = value.astimezone(_zone(where))
    return f"{local:%H:%M} {local.tzname()}"


@register.filter
def get_item(mapping: dict, key: Any) -> Any:
    return (mapping or {}).get(key) if isinstance(mapping, dict) else None
