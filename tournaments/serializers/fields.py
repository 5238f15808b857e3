"""The fields and limits the tournaments API's shapes share: ids, times in UTC and in a
tournament's zone, the round limit."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

from django.utils.translation import gettext
from rest_framework import serializers

from tournaments.models import Tournament

MAX_ROUNDS = 100  # of a Swiss tournament, and so of its round_starts (any format)


MAX_ID = 2**63 - 1  # a database id: bigger numbers are refused before they reach a query


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def utc_text(value: dt.datetime) -> str:
    """An instant as the API writes it: ISO 8601 in UTC with a `Z` (as DRF writes a
    datetime under TIME_ZONE = "UTC": microseconds only where there are any)."""
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


class ZonedDateTimeField(serializers.DateTimeField):
    """A datetime read in the zone given by the serializer context when it comes without an
    offset, and written in UTC (`Z`), as every instant of the API."""

    def default_timezone(self) -> dt.tzinfo:
        return self.context.get("zone") or dt.UTC

    def to_internal_value(self, value: Any) -> dt.datetime:
        try:
            return super().to_internal_value(value)
        except OverflowError:
            # A date at the edge of the calendar (0001-01-01 in Tokyo is in year 0 in UTC).
            raise serializers.ValidationError(
                gettext("this date and time is out of range"), code="out_of_range"
            ) from None

    def to_representation(self, value: Any) -> Any:
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            return utc_text(value)
        return super().to_representation(value)


_INSTANT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,6})?)?([+-]\d\d:\d\d|Z)")


def instants_in_utc(value: Any) -> Any:
    """`value` with every ISO 8601 instant it holds (a string with an offset) in UTC with a
    `Z`: how the API writes the times inside an event's data (stored as they were
    written, e.g. `+00:00`; the stored event and its hash stay as they are)."""
    if isinstance(value, dict):
        return {k: instants_in_utc(v) for k, v in value.items()}
    if isinstance(value, list):
        return [instants_in_utc(v) for v in value]
    if isinstance(value, str) and _INSTANT.fullmatch(value):
        try:
            return utc_text(dt.datetime.fromisoformat(value.replace("Z", "+00:00")))
        except ValueError:
            return value
    return value


def zone_context(tournament: Tournament) -> dict[str, Any]:
    return {"zone": ZoneInfo(tournament.time_zone)}
