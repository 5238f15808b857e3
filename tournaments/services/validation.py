"""Checks of what an organiser asks a tournament to be: names, tiebreaks, instants,
durations, time zones, and each setting's value in the form the tournament row holds."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.errors import ValidationError
from games.selectors import ruleset_normalise
from tournaments.models import Tournament, validate_time_zone
from tournaments.pairing import TIEBREAK_CHOICES
from tournaments.services._common import field_error


def validate_tiebreaks(tiebreaks: Sequence[str] | None) -> list[str]:
    if not tiebreaks:
        return []
    if len(set(tiebreaks)) != len(tiebreaks) or not set(tiebreaks) <= set(TIEBREAK_CHOICES):
        raise ValidationError(
            gettext_noop("tiebreaks must be distinct names among %(names)s"),
            code="tiebreaks",
            params={"names": ", ".join(TIEBREAK_CHOICES)},
        )
    return list(tiebreaks)


# The instants a tournament may be scheduled at (README, "Tournaments"): far enough either
# way for any real event, near enough that its round arithmetic stays within datetime.
EARLIEST_INSTANT = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
LATEST_INSTANT = dt.datetime(2999, 12, 31, 23, 59, 59, tzinfo=dt.UTC)


def aware(value: dt.datetime | None, name: str) -> dt.datetime | None:
    """`value` checked: aware, and between EARLIEST_INSTANT and LATEST_INSTANT (else 400
    validation_error, `fields.<name>`, reason `out_of_range`)."""
    if value is None:
        return None
    if not isinstance(value, dt.datetime):
        raise field_error(
            name, gettext_noop("%(name)s must be a date and time"), "invalid", {"name": name}
        )
    if timezone.is_naive(value):
        raise ValidationError(
            gettext_noop("%(name)s needs a time zone"), code="naive_datetime", params={"name": name}
        )
    try:
        in_range = EARLIEST_INSTANT <= value <= LATEST_INSTANT
    except OverflowError:
        in_range = False
    if not in_range:
        raise field_error(
            name,
            gettext_noop("%(name)s must be between %(earliest)s and %(latest)s (UTC)"),
            "out_of_range",
            {"name": name, "earliest": EARLIEST_INSTANT.year, "latest": LATEST_INSTANT.year},
        )
    return value


def setting_value(tournament: Tournament, name: str, raw: Any) -> Any:
    """`raw` checked and in the form the tournament row holds."""
    if name == "ruleset":
        return ruleset_normalise(ruleset=raw)
    if name == "tiebreaks":
        return validate_tiebreaks(raw)
    if name == "format" and raw not in Tournament.Format.values:
        raise _format_error()
    if name == "play_mode" and raw not in Tournament.PlayMode.values:
        raise ValidationError("play_mode must be online or table", code="play_mode")
    if name == "name":
        if not isinstance(raw, str) or not raw.strip():
            raise ValidationError("a tournament needs a name", code="name")
        return raw.strip()
    if name == "time_zone":
        check_time_zone(raw)
    if name == "language":
        return check_language(raw)
    if name == "starts_at":
        return aware(raw, "starts_at")
    if name in ("round_interval", "round_duration", "turn_time", "dispute_window"):
        check_duration(name, raw)
    if name == "rounds_planned":
        if tournament.format != Tournament.Format.SWISS:
            raise ValidationError("only a Swiss tournament has a number of rounds", code="rounds")
        if (
            not isinstance(raw, int)
            or isinstance(raw, bool)
            or raw < max(1, tournament.current_round)
        ):
            raise ValidationError(
                gettext_noop("rounds must be at least %(rounds)s (rounds paired)"),
                code="rounds",
                params={"rounds": max(1, tournament.current_round)},
            )
    if name in ("is_public", "check_in_required") and not isinstance(raw, bool):
        raise ValidationError(
            gettext_noop("%(name)s is true or false"), code=name, params={"name": name}
        )
    return raw


MAX_DURATION = dt.timedelta(days=30)


def _duration_ok(value: Any) -> bool:
    return isinstance(value, dt.timedelta) and dt.timedelta(0) < value <= MAX_DURATION


def check_duration(name: str, value: Any) -> None:
    if value is not None and not _duration_ok(value):
        raise field_error(
            name,
            gettext_noop("%(name)s must be a positive duration of at most %(days)s days"),
            "out_of_range",
            {"name": name, "days": MAX_DURATION.days},
        )


def check_language(code: Any) -> str:
    """A language of settings.LANGUAGES, or "" (the club's, else English)."""
    if code is None or code == "":
        return ""
    if not isinstance(code, str) or code not in dict(settings.LANGUAGES):
        raise field_error(
            "language",
            gettext_noop("unknown language %(language)s"),
            "unknown",
            {"language": repr(code)},
        )
    return code


def check_time_zone(name: Any) -> None:
    try:
        validate_time_zone(name)
    except Exception as exc:
        raise field_error(
            "time_zone", gettext_noop("unknown time zone %(zone)s"), "unknown", {"zone": repr(name)}
        ) from exc


def _format_error() -> ValidationError:
    return ValidationError(
        gettext_noop("format must be one of %(formats)s"),
        code="format",
        params={"formats": ", ".join(Tournament.Format.values)},
    )


def jsonable(value: Any) -> Any:
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, dt.datetime):
        return value.isoformat()
    return value
