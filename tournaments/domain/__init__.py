"""The tournament domain, pure Python (no Django): its events as typed frozen dataclasses,
`evolve` folding them into a `TournamentState`, the standings of a state (the one standings
fold: the read model, the pairing of the next round and a rebuild all use it), and the
decisions that depend on the state alone (`decide_*`)."""

from tournaments.domain.events import TournamentEvent, event_from_stored, event_type_of
from tournaments.domain.state import (
    SETTINGS_FIXED_AFTER_START,
    SETTINGS_MUTABLE,
    SettingFixedError,
    TournamentState,
    decide_settings_change,
    evolve,
    fold,
    standings_of,
)

__all__ = [
    "SETTINGS_FIXED_AFTER_START",
    "SETTINGS_MUTABLE",
    "SettingFixedError",
    "TournamentEvent",
    "TournamentState",
    "decide_settings_change",
    "event_from_stored",
    "event_type_of",
    "evolve",
    "fold",
    "standings_of",
]
