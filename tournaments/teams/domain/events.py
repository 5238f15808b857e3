"""A team event's events, typed: one frozen dataclass per event type (past tense).

A team event (format `team_round_robin` or `team_swiss`) is its own stream,
"team-event-<id>", in the same hash-chained log as every tournament. Teams are club sides:
their names may stand in the log (as a club's name does); players are named by id only.

A round pairs teams; each team match has `boards` boards, and each board is a Hollywood
match (the games side's) between the two sides' players at that board. A board's result is
reported by its match when it finishes, as an individual tournament's pairing's is.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

TEAM_FORMATS = ("team_round_robin", "team_swiss")

# --- parts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardEntry:
    board: int  # 1 = the top board
    player1: int  # the first team's player at this board
    player2: int  # the second team's
    match: str  # the board's match id (made before the decision)
    dealer: int  # who deals first: team 1's player on odd boards, team 2's on even


@dataclass(frozen=True)
class TeamPairingEntry:
    table: int
    team1: int
    team2: int | None  # None: a bye to team1
    boards: tuple[BoardEntry, ...] = ()


@dataclass(frozen=True)
class BoardResult:
    round: int
    table: int
    board: int
    winner: int | None  # a player id (None: no winner, e.g. both forfeited)
    games1: int = 0
    games2: int = 0
    points1: int = 0  # Hollywood points of player1 (team1's side)
    points2: int = 0
    result: str = "played"  # played, forfeit


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class _Event:
    by: int | None = field(default=None, compare=False)
    at: dt.datetime | None = field(default=None, compare=False)


@dataclass(frozen=True, kw_only=True)
class TeamEventCreated(_Event):
    format: str
    name: str = ""
    club: int | None = None
    boards: int = 4
    rounds: int | None = None  # team Swiss: its rounds (None: enough for a winner)
    match_points: tuple[int, int, int] = (2, 1, 0)  # a team match won, drawn, lost
    ruleset: dict[str, Any] = field(default_factory=dict, compare=False)
    play_mode: str = "online"
    is_public: bool = True
    tournament: int | None = None  # the tournament of format team_* that owns it (if any)


@dataclass(frozen=True, kw_only=True)
class TeamRegistered(_Event):
    team: int  # 1, 2, ... in order of registration
    name: str  # the side's name (a club's side: not personal data)
    club: int | None
    captain: int | None  # a player id
    roster: tuple[int, ...]  # player ids, in board order (the lineup unless the captain sets one)


@dataclass(frozen=True, kw_only=True)
class LineupSet(_Event):
    """A captain (or an organiser) set a team's board order for a round before it was paired."""

    team: int
    round: int
    players: tuple[int, ...]  # board 1 first


@dataclass(frozen=True, kw_only=True)
class TeamPairForbidden(_Event):
    teams: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class TeamRoundPaired(_Event):
    round: int
    pairings: tuple[TeamPairingEntry, ...]
    seeds: tuple[int, ...] = ()  # round 1: the teams in seed order
    rounds: int | None = None  # round 1: how many rounds the event has
    imported: bool = False  # from a results exchange file (its boards' matches are elsewhere)


@dataclass(frozen=True, kw_only=True)
class BoardResultRecorded(_Event):
    result: BoardResult


@dataclass(frozen=True, kw_only=True)
class BoardResultCorrected(_Event):
    result: BoardResult


@dataclass(frozen=True, kw_only=True)
class TeamRoundCompleted(_Event):
    round: int


@dataclass(frozen=True, kw_only=True)
class TeamEventFinished(_Event):
    rounds: int


TeamEvent = (
    TeamEventCreated
    | TeamRegistered
    | LineupSet
    | TeamPairForbidden
    | TeamRoundPaired
    | BoardResultRecorded
    | BoardResultCorrected
    | TeamRoundCompleted
    | TeamEventFinished
)

TEAM_EVENT_TYPES = (
    "TeamEventCreated",
    "TeamRegistered",
    "LineupSet",
    "TeamPairForbidden",
    "TeamRoundPaired",
    "BoardResultRecorded",
    "BoardResultCorrected",
    "TeamRoundCompleted",
    "TeamEventFinished",
)
