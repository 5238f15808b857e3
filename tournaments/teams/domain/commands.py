"""What may be asked of a team event. What comes from outside (ratings, the matches' ids
made beforehand) is carried in the command, so `decide` stays pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.teams.domain.events import BoardResult, TeamPairingEntry


@dataclass(frozen=True)
class CreateTeamEvent:
    format: str
    name: str
    club: int | None
    boards: int = 4
    rounds: int | None = None
    match_points: tuple[int, int, int] = (2, 1, 0)
    ruleset: dict[str, Any] = field(default_factory=dict)
    play_mode: str = "online"
    is_public: bool = True
    tournament: int | None = None


@dataclass(frozen=True)
class RegisterTeam:
    name: str
    club: int | None
    captain: int | None
    roster: tuple[int, ...]  # in board order (the service orders it by rating unless told)


@dataclass(frozen=True)
class SetLineup:
    team: int
    round: int
    players: tuple[int, ...]


@dataclass(frozen=True)
class ForbidTeams:
    teams: tuple[int, int]


@dataclass(frozen=True)
class PairTeamRound:
    number: int
    match_ids: tuple[str, ...]  # made beforehand: enough for every board of the round
    ratings: dict[int, float] = field(default_factory=dict)  # players': round 1's seeds


@dataclass(frozen=True)
class RecordBoard:
    result: BoardResult


@dataclass(frozen=True)
class ImportRound:
    """A round as another installation played it (a results exchange file): its pairings
    and board results, taken as they are (checked for consistency, not re-paired)."""

    number: int
    pairings: tuple[TeamPairingEntry, ...]
    results: tuple[BoardResult, ...]
    rounds: int  # how many rounds the event had


TeamCommand = (
    ImportRound
    | CreateTeamEvent
    | RegisterTeam
    | SetLineup
    | ForbidTeams
    | PairTeamRound
    | RecordBoard
)
