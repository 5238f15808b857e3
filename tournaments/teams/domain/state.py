"""A team event's state: what its events fold into (tournaments.teams.domain.evolve)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.teams.domain.events import BoardEntry, BoardResult, TeamPairingEntry

REGISTRATION, IN_PROGRESS, FINISHED = "registration", "in_progress", "finished"
PAIRED, COMPLETED = "paired", "completed"


@dataclass(frozen=True)
class Team:
    number: int
    name: str
    club: int | None
    captain: int | None
    roster: tuple[int, ...]
    seed: int | None = None


@dataclass(frozen=True)
class TeamRound:
    number: int
    pairings: tuple[TeamPairingEntry, ...]
    status: str = PAIRED
    results: dict[tuple[int, int], BoardResult] = field(default_factory=dict)  # (table, board)

    def board(self, table: int, board: int) -> BoardEntry | None:
        for p in self.pairings:
            if p.table == table:
                for b in p.boards:
                    if b.board == board:
                        return b
        return None

    @property
    def complete(self) -> bool:
        wanted = {(p.table, b.board) for p in self.pairings for b in p.boards}
        return wanted <= set(self.results)


@dataclass(frozen=True)
class TeamEventState:
    version: int = 0
    created: bool = False
    format: str = ""
    boards: int = 4
    rounds_planned: int | None = None
    match_points: tuple[int, int, int] = (2, 1, 0)
    play_mode: str = "online"
    is_public: bool = True
    tournament: int | None = None  # the tournament that owns it (a team format's)
    ruleset: dict[str, Any] = field(default_factory=dict)
    status: str = REGISTRATION
    current_round: int = 0
    teams: dict[int, Team] = field(default_factory=dict)  # by number
    lineups: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)  # (team, round)
    forbidden: frozenset[tuple[int, int]] = frozenset()
    rounds: dict[int, TeamRound] = field(default_factory=dict)

    @property
    def started(self) -> bool:
        return self.status != REGISTRATION

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def lineup(self, team: int, round_number: int) -> tuple[int, ...]:
        """The team's players in board order for a round: the captain's lineup for it, else
        the roster's first `boards` (the roster is in board order: by rating, or as set)."""
        set_ = self.lineups.get((team, round_number))
        return set_ if set_ is not None else self.teams[team].roster[: self.boards]

    def team_of(self, player: int) -> int | None:
        for t in self.teams.values():
            if player in t.roster:
                return t.number
        return None
