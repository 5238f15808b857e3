"""The tournament domain, pure Python (no Django): typed commands and past-tense events,
`decide(state, command) -> events` (every rule, raising named errors), a total `evolve`
folding events into a `TournamentState`, the pairing of a round from that state, and its
standings (the one standings fold: the read model, the next round's pairing and a rebuild
all use it). The repository (tournaments.repository) loads and saves it; nothing else does."""

from tournaments.domain.decide import (
    SETTINGS_FIXED_AFTER_START,
    SETTINGS_MUTABLE,
    decide,
    decide_settings_change,
)
from tournaments.domain.errors import (
    SettingFixedError,
    TournamentConflictError,
    TournamentError,
    TournamentInputError,
)
from tournaments.domain.events import EVENT_TYPES, TournamentEvent
from tournaments.domain.evolve import evolve, fold
from tournaments.domain.standings import standings_of
from tournaments.domain.state import TournamentState
from tournaments.domain.stored import event_from_stored, event_to_stored, event_type_of

__all__ = [
    "EVENT_TYPES",
    "SETTINGS_FIXED_AFTER_START",
    "SETTINGS_MUTABLE",
    "SettingFixedError",
    "TournamentConflictError",
    "TournamentError",
    "TournamentEvent",
    "TournamentInputError",
    "TournamentState",
    "decide",
    "decide_settings_change",
    "event_from_stored",
    "event_to_stored",
    "event_type_of",
    "evolve",
    "fold",
    "standings_of",
]
