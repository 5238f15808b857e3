"""A team event's domain, pure Python (no Django): typed commands and events, `decide`,
a total `evolve`, the pairing of teams (tournaments.pairing with teams as the units) and
the team standings."""

from tournaments.teams.domain.decide import decide
from tournaments.teams.domain.events import TEAM_EVENT_TYPES, TEAM_FORMATS, TeamEvent
from tournaments.teams.domain.evolve import evolve, fold
from tournaments.teams.domain.standings import match_scores, team_standings
from tournaments.teams.domain.state import TeamEventState

__all__ = [
    "TEAM_EVENT_TYPES",
    "TEAM_FORMATS",
    "TeamEvent",
    "TeamEventState",
    "decide",
    "evolve",
    "fold",
    "match_scores",
    "team_standings",
]
