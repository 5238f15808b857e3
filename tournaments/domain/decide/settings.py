"""Settings: what an organiser may change, and what is fixed once the tournament has
started."""

from __future__ import annotations

from typing import Any

from tournaments.domain.errors import SettingFixedError
from tournaments.domain.state import TournamentState

SETTINGS_MUTABLE = (
    "name",
    "is_public",
    "starts_at",
    "round_interval",
    "round_duration",
    "turn_time",
    "dispute_window",
    "rounds_planned",
    "tiebreaks",
    "time_zone",
    "language",
)
SETTINGS_FIXED_AFTER_START = ("ruleset", "format", "play_mode", "check_in_required")


def decide_settings_change(
    state: TournamentState, *, current: dict[str, Any], wanted: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The settings that change ({name: {"old", "new"}}, values as given), refusing
    (SettingFixedError) what may no longer change once the tournament has started."""
    changed = {}
    for name, value in wanted.items():
        if value == current[name]:
            continue
        if name in SETTINGS_FIXED_AFTER_START and state.started:
            raise SettingFixedError(name)
        if name == "rounds_planned" and state.top_cut and state.started:
            raise SettingFixedError(name)  # the knockout follows the Swiss rounds fixed
        changed[name] = {"old": current[name], "new": value}
    return changed
