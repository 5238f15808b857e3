"""Changing a tournament's settings: load → decide (ChangeSettings) → save."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_noop

from core.errors import PermissionDeniedError, ValidationError
from core.transactions import write_service
from tournaments.domain import SETTINGS_FIXED_AFTER_START, SETTINGS_MUTABLE
from tournaments.domain.commands import ChangeSettings
from tournaments.models import Tournament
from tournaments.repository import tournament_load
from tournaments.selectors import user_can_organise
from tournaments.services._common import run
from tournaments.services.validation import jsonable, setting_value


@write_service
def tournament_settings_change(
    *,
    tournament_id: int,
    by: AbstractBaseUser,
    changes: dict[str, Any],
    reason: str = "",
    expected_version: int | None = None,
) -> Tournament:
    """Change a tournament's settings: one SettingsChanged event with each setting's old and
    new value, who and why. The ruleset, format, play mode and check-in rule are refused
    once the tournament has started; the schedule, tiebreak order and rounds may change
    (rounds not below those already paired). Nothing changed: no event."""
    write = tournament_load(tournament_id=tournament_id)
    tournament = write.row
    if not user_can_organise(user=by, tournament=tournament):
        raise PermissionDeniedError("only the tournament's organisers may change its settings")
    unknown = sorted(set(changes) - set(SETTINGS_MUTABLE) - set(SETTINGS_FIXED_AFTER_START))
    if unknown:
        raise ValidationError(
            gettext_noop("unknown settings: %(names)s"),
            code="unknown_setting",
            params={"names": ", ".join(unknown)},
        )
    wanted = {name: setting_value(tournament, name, raw) for name, raw in changes.items()}
    command = ChangeSettings(
        current={name: jsonable(getattr(tournament, name)) for name in wanted},
        wanted={name: jsonable(value) for name, value in wanted.items()},
        expected_version=expected_version,
    )
    return run(write, command, by=by, reason=reason).row
