"""A tournament's events, typed: one frozen dataclass per event type (past tense).

`decide` returns them; the repository stores each as (type, data) with
`tournaments.domain.stored.event_to_stored` and reads them back with `event_from_stored`
(which also upcasts older shapes). A stored event's data are its dataclass's fields by
name (tournaments.domain.stored says the few exceptions), plus the keys the repository
adds to every event: `by` (who decided: {"id", "username"} or None for the scheduler) and
`reason`.

`at` is when the event was recorded (the store's clock): set when read back, None while
decided; the rows a projection writes take their times from it, so a rebuild writes the
same times.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

# --- parts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairingEntry:
    table: int
    player1: int
    player2: int | None  # None: a bye
    match: str | None = None  # the match's id (None for a bye, or before it is made)
    # The match stream's version when paired (started = more). None: not recorded (streams
    # older than the key); the fold takes the version a match has when it is made
    # (tournaments.domain.state.MATCH_VERSION_WHEN_MADE).
    match_version: int | None = 0
    slot: str | None = None  # double elimination: the bracket's match ("W1-1", "L2-3", "GF1")


@dataclass(frozen=True)
class ResultEntry:
    round: int
    table: int
    player1: int
    player2: int | None
    winner: int | None
    games1: int = 0
    games2: int = 0
    points1: int = 0
    points2: int = 0
    match: str | None = None
    result: str = ""  # played, forfeit, bye


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class _Event:
    by: int | None = field(default=None, compare=False)  # the deciding user's id
    at: dt.datetime | None = field(default=None, compare=False)
    reason: str = field(default="", compare=False)


@dataclass(frozen=True, kw_only=True)
class TournamentCreated(_Event):
    format: str = ""
    tiebreaks: tuple[str, ...] = ()
    name: str = ""
    club: int | None = None
    ruleset: dict[str, Any] = field(default_factory=dict, compare=False)
    rounds: int | None = None
    play_mode: str = "online"
    time_zone: str = "UTC"
    language: str = ""  # prints and the wall screen ("": the club's, else English)
    organisers: tuple[int, ...] = ()
    is_public: bool = True
    check_in_required: bool = True
    starts_at: str | None = None  # ISO 8601, UTC
    round_starts: tuple[str, ...] = ()
    round_interval: float | None = None  # seconds
    round_duration: float | None = None
    turn_time: float | None = None
    dispute_window: float | None = None
    # How a bye counts (tournaments.pairing.standings): stored with the tournament, so a
    # rebuild never changes an old tournament's standings (absent: today's defaults).
    bye_points: str = "win"
    bye_buchholz: str = "nothing"
    bracket_reset: bool = True  # double elimination: a grand final lost by the winners' side
    top_cut: int | None = None  # Swiss, then the top K (4, 8, 16) play a knockout
    third_place: bool = False  # the top cut's semifinal losers play for third


@dataclass(frozen=True, kw_only=True)
class ForbiddenPairAdded(_Event):
    """An organiser marked two players who must not meet (one household, a team)."""

    players: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class ForbiddenPairRemoved(_Event):
    players: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class PlayerRegistered(_Event):
    player: int
    late: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayerCheckedIn(_Event):
    player: int


@dataclass(frozen=True, kw_only=True)
class PlayerCheckInUndone(_Event):
    player: int


@dataclass(frozen=True, kw_only=True)
class PlayerWithdrawn(_Event):
    player: int
    no_show: bool = False  # withdrawn by the check-in deadline (stored only when True)


@dataclass(frozen=True, kw_only=True)
class PlayerWaitlisted(_Event):
    """A registration beyond the tournament's capacity: the player waits for a place."""

    player: int


@dataclass(frozen=True, kw_only=True)
class PlayerPromoted(_Event):
    """The first waiting player took a place that came free (`cause`: withdrawal,
    capacity, no_show, approval)."""

    player: int
    cause: str = ""
    late: bool = False


@dataclass(frozen=True, kw_only=True)
class RegistrationRequested(_Event):
    """A player asked to enter a tournament whose organisers approve each entry."""

    player: int


@dataclass(frozen=True, kw_only=True)
class RegistrationRefused(_Event):
    player: int


@dataclass(frozen=True, kw_only=True)
class CapacityChanged(_Event):
    """The places of the tournament (None: no limit)."""

    capacity: int | None
    previous: int | None = None


@dataclass(frozen=True, kw_only=True)
class NoShowUndone(_Event):
    """The desk took back a no-show before round 1: the player is registered again."""

    player: int


@dataclass(frozen=True, kw_only=True)
class TournamentStarted(_Event):
    seeds: tuple[int, ...] = ()
    rounds: int | None = None


@dataclass(frozen=True, kw_only=True)
class RoundPaired(_Event):
    round: int
    pairings: tuple[PairingEntry, ...]
    deadline: str | None = None
    repaired: bool = False  # stored as RoundRepaired: the round's earlier pairings go
    replaced: tuple[str, ...] = ()  # RoundRepaired: the cancelled matches
    by_hand: bool = False  # RoundRepaired: the organiser set the pairs
    # Forbidden pairs the pairing could not keep apart (no valid pairing avoided them), and
    # the hand-set pairs an organiser confirmed although they repeat or break one.
    forbidden_met: tuple[tuple[int, int], ...] = ()
    confirmed: tuple[dict[str, Any], ...] = ()
    top_cut: tuple[int, ...] = ()  # the first knockout round of a top cut: its seeds
    lots: tuple[int, ...] = ()  # the draw of lots that broke ties at the cut line


@dataclass(frozen=True, kw_only=True)
class ResultRecorded(_Event):
    result: ResultEntry


@dataclass(frozen=True, kw_only=True)
class ResultRuled(_Event):
    """An organiser (or the deadline job) ruled a match in play won by forfeit; the result
    itself follows as ResultRecorded once the match's forfeit has been recorded."""

    round: int
    table: int
    winner: int
    match: str | None = None


@dataclass(frozen=True, kw_only=True)
class ResultCorrected(_Event):
    round: int
    table: int
    before: dict[str, Any] = field(default_factory=dict, compare=False)
    after: ResultEntry | None = None  # None: the match is back in play, no result for now
    next_round: int | None = None
    repair_possible: bool | None = None


@dataclass(frozen=True, kw_only=True)
class SettingsChanged(_Event):
    changes: dict[str, Any]  # name -> {"old", "new"} (JSON values: seconds, ISO times)


@dataclass(frozen=True, kw_only=True)
class RoundDeadlineMoved(_Event):
    round: int
    deadline: str | None
    previous: str | None = None


@dataclass(frozen=True, kw_only=True)
class RoundClockStarted(_Event):
    """The director started the round's clock (when play began): the round's time runs
    from `started_at` (ISO 8601, UTC) and its deadline (None: none) follows it."""

    round: int
    started_at: str
    deadline: str | None = None


@dataclass(frozen=True, kw_only=True)
class RoundCompleted(_Event):
    round: int


@dataclass(frozen=True, kw_only=True)
class TournamentFinished(_Event):
    rounds: int | None = None


@dataclass(frozen=True, kw_only=True)
class Noted(_Event):
    """A stored type this code does not know (kept, never folded)."""

    type: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)


TournamentEvent = (
    TournamentCreated
    | ForbiddenPairAdded
    | ForbiddenPairRemoved
    | PlayerRegistered
    | PlayerCheckedIn
    | PlayerCheckInUndone
    | PlayerWithdrawn
    | PlayerWaitlisted
    | PlayerPromoted
    | RegistrationRequested
    | RegistrationRefused
    | CapacityChanged
    | NoShowUndone
    | TournamentStarted
    | RoundPaired
    | ResultRecorded
    | ResultRuled
    | ResultCorrected
    | SettingsChanged
    | RoundDeadlineMoved
    | RoundClockStarted
    | RoundCompleted
    | TournamentFinished
    | Noted
)

# Every stored type, in the order a tournament meets them (webhooks and the schema list them).
EVENT_TYPES = (
    "TournamentCreated",
    "PlayerRegistered",
    "PlayerCheckedIn",
    "PlayerCheckInUndone",
    "PlayerWithdrawn",
    "TournamentStarted",
    "RoundPaired",
    "RoundRepaired",
    "ResultRecorded",
    "ResultRuled",
    "SettingsChanged",
    "ResultCorrected",
    "RoundDeadlineMoved",
    "RoundClockStarted",
    "RoundCompleted",
    "TournamentFinished",
    "ForbiddenPairAdded",
    "ForbiddenPairRemoved",
    "RegistrationRequested",
    "RegistrationRefused",
    "PlayerWaitlisted",
    "PlayerPromoted",
    "CapacityChanged",
    "NoShowUndone",
)
