"""What may be asked of a tournament: one frozen dataclass per command (imperative names).

What a decision needs from outside the tournament (the time, the players' ratings, whether a
match has started, a match's outcome) is carried in the command, decided by the service
from the other aggregates, so `decide` stays pure."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from tournaments.domain.events import PairingEntry, ResultEntry


@dataclass(frozen=True)
class Register:
    player: int
    # The organisers approve each entry and someone else asked (the service knows the
    # tournament's entry rules): the entry waits for their approval.
    approval: bool = False


@dataclass(frozen=True)
class CheckIn:
    player: int


@dataclass(frozen=True)
class UndoCheckIn:
    """A check-in made by mistake: the player is registered again (not yet paired)."""

    player: int


@dataclass(frozen=True)
class Withdraw:
    player: int


@dataclass(frozen=True)
class PairRound:
    """Pair round `number`. `by_scheduler`: the scheduler waits for the round's start time
    (and never pairs round 1 by itself without one); an organiser may pair early."""

    number: int
    now: dt.datetime
    by_scheduler: bool = False
    ratings: dict[int, float] = field(default_factory=dict)  # seeds round 1, a top cut's ties
    lots: tuple[int, ...] = ()  # a draw of lots (the service's), for a top cut's last ties
    # An organiser starting round 1 more than EARLY_START before its scheduled time is asked
    # to confirm (409 before_schedule) where this is False: the API and the desk ask.
    confirm: bool = True
    # The ids of the matches the round will need, made by the service before it decides:
    # `decide` names each table's match by the next one (a bye needs none), so its event is
    # whole when decided and nothing edits it afterwards. At least as many as the tables.
    match_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class RepairRound:
    """Replace a round's pairings: afresh, or the organiser's `pairs` (None = a bye)."""

    number: int
    started: bool  # has any match of the round started? (the games side knows)
    pairs: tuple[tuple[int, int | None], ...] | None = None
    expected_version: int | None = None
    # Hand-set pairs that repeat an earlier pairing or break a forbidden pair are refused
    # (409 rematch / forbidden_pair) unless the organiser confirms them.
    confirm: bool = False
    # When: the round's clock starts again from here (its deadline one round duration
    # later). None: the round keeps its deadline.
    now: dt.datetime | None = None
    match_ids: tuple[str, ...] = ()  # as PairRound's: the new matches' ids, made before


@dataclass(frozen=True)
class ForbidPair:
    """Two players must not meet (before or during the tournament)."""

    players: tuple[int, int]


@dataclass(frozen=True)
class AllowPair:
    players: tuple[int, int]


@dataclass(frozen=True)
class RecordResult:
    """A pairing's match finished (or its finished result was corrected) with `result`."""

    result: ResultEntry
    next_round_started: bool = False


@dataclass(frozen=True)
class WithdrawResult:
    """A correction put a pairing's finished match back in play."""

    round: int
    table: int
    next_round_started: bool = False


@dataclass(frozen=True)
class RuleResult:
    """An organiser (or the deadline job) rules a match in play won by `winner`."""

    round: int
    table: int
    winner: int


@dataclass(frozen=True)
class MoveDeadline:
    round: int
    deadline: dt.datetime | None


@dataclass(frozen=True)
class StartRoundClock:
    """The director starts a round's clock now, when play begins (it started when the
    round was paired): its deadline is one round duration from `now`."""

    round: int
    now: dt.datetime


@dataclass(frozen=True)
class ChangeSettings:
    """`current` and `wanted`: each named setting's value now and as asked (checked and in
    the row's form); `as_json` turns a value into the event's JSON."""

    current: dict[str, Any]
    wanted: dict[str, Any]
    expected_version: int | None = None


@dataclass(frozen=True)
class ApproveEntry:
    player: int


@dataclass(frozen=True)
class RefuseEntry:
    player: int


@dataclass(frozen=True)
class SetCapacity:
    capacity: int | None


@dataclass(frozen=True)
class MarkNoShows:
    """The check-in deadline (`deadline`) has passed: who held a place then and has not
    checked in is withdrawn as a no-show."""

    deadline: dt.datetime


@dataclass(frozen=True)
class UndoNoShow:
    player: int


@dataclass(frozen=True)
class ImportRound:
    """A round of a results exchange file taken as it was played (never paired here): its
    tables and every table's result; round 1 starts the tournament with `rounds` planned.
    A bracket's: round 1's `seeds` (seed 1 first; () for the order of registration), and a
    top cut's first knockout round its qualifiers (`top_cut`, seed 1 first)."""

    number: int
    pairings: tuple[PairingEntry, ...]
    results: tuple[ResultEntry, ...]
    rounds: int
    seeds: tuple[int, ...] = ()
    top_cut: tuple[int, ...] = ()


TournamentCommand = (
    Register
    | ApproveEntry
    | RefuseEntry
    | SetCapacity
    | MarkNoShows
    | UndoNoShow
    | CheckIn
    | UndoCheckIn
    | Withdraw
    | PairRound
    | RepairRound
    | ForbidPair
    | AllowPair
    | RecordResult
    | WithdrawResult
    | RuleResult
    | MoveDeadline
    | StartRoundClock
    | ChangeSettings
    | ImportRound
)
