"""A tournament's state: what its events fold into (tournaments.domain.evolve), and the
schedule it keeps. Its standings are tournaments.domain.standings'.

The state holds everything the decisions need and everything the projections write (the
registrations, rounds and pairings as rows show them), so the rows follow from the events
alone."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

from tournaments.domain.events import ResultEntry

REGISTERED, CHECKED_IN, WITHDRAWN = "registered", "checked_in", "withdrawn"
# Entries without a place (issue 40): waiting for one, asking for approval, refused.
WAITLISTED, REQUESTED, REFUSED = "waitlisted", "requested", "refused"
HOLDING_A_PLACE = frozenset({REGISTERED, CHECKED_IN})
PENDING, FINISHED = "pending", "finished"  # a pairing
PAIRED, COMPLETED = "paired", "completed"  # a round
REGISTRATION, IN_PROGRESS = "registration", "in_progress"  # a tournament (and FINISHED)
# The formats of club sides: the tournament's own stream says only that it was made; its
# teams, rounds and results are its team event's (tournaments.teams), so a command for
# single players is refused (decide).
TEAM_FORMATS = frozenset({"team_round_robin", "team_swiss"})

# The version a match stream has when the games side has just made it for a pairing
# (games.services.match_create_in_tx: MatchCreated, and online its first HandDealt; a
# test holds the two together). A pairing whose event did not record its match's version
# (streams older than the key) was made at this version: so an old stream folds as a new
# one, and a re-pairing does not take its unplayed matches for started.
MATCH_VERSION_WHEN_MADE = {"online": 2, "table": 1}


@dataclass(frozen=True)
class Entry:
    """A player's registration."""

    player: int
    order: int  # 1, 2, ... in order of registration
    status: str = REGISTERED
    seed: int | None = None
    late: bool = False
    registered_at: dt.datetime | None = None
    checked_in_at: dt.datetime | None = None
    withdrawn_at: dt.datetime | None = None
    no_show: bool = False
    # When the player took a place they had waited for (None: held since registration).
    promoted_at: dt.datetime | None = None


@dataclass(frozen=True)
class Table:
    """A pairing of a round and, once it has one, its result."""

    table: int
    player1: int
    player2: int | None
    match: str | None = None
    match_version: int = 0
    slot: str | None = None
    status: str = PENDING
    winner: int | None = None
    games1: int = 0
    games2: int = 0
    points1: int = 0
    points2: int = 0
    result: str = ""

    def with_result(self, r: ResultEntry | None) -> Table:
        if r is None:
            return replace(self, status=PENDING, winner=None, games1=0, games2=0, points1=0,
                           points2=0, result="")  # fmt: skip
        return replace(self, status=FINISHED, winner=r.winner, games1=r.games1, games2=r.games2,
                       points1=r.points1, points2=r.points2, result=r.result)  # fmt: skip

    def result_entry(self, round_number: int) -> ResultEntry:
        return ResultEntry(
            round=round_number, table=self.table, player1=self.player1, player2=self.player2,
            winner=self.winner, games1=self.games1, games2=self.games2, points1=self.points1,
            points2=self.points2, match=self.match, result=self.result,
        )  # fmt: skip


@dataclass(frozen=True)
class RoundState:
    number: int
    tables: tuple[Table, ...]
    status: str = PAIRED
    scheduled_at: dt.datetime | None = None
    paired_at: dt.datetime | None = None
    deadline: dt.datetime | None = None
    completed_at: dt.datetime | None = None
    paired_by: int | None = None
    repaired: bool = False
    # When the round's time started running: when it was (re-)paired, or when the director
    # started its clock (`clock_by_hand`).
    clock_started_at: dt.datetime | None = None
    clock_by_hand: bool = False

    def table(self, number: int) -> Table | None:
        for t in self.tables:
            if t.table == number:
                return t
        return None


@dataclass(frozen=True)
class TournamentState:
    version: int = 0  # of the stream, after the last event folded
    created: bool = False
    format: str = ""
    tiebreaks: tuple[str, ...] = ()  # as set; () = the format's default order
    check_in_required: bool = True
    play_mode: str = "online"
    rounds_planned: int | None = None
    starts_at: dt.datetime | None = None
    round_interval: dt.timedelta | None = None
    round_starts: tuple[str, ...] = ()
    round_duration: dt.timedelta | None = None
    status: str = REGISTRATION
    current_round: int = 0
    finished_at: dt.datetime | None = None
    bye_points: str = "win"
    bye_buchholz: str = "nothing"
    forbidden: frozenset[tuple[int, int]] = frozenset()  # (low id, high id)
    bracket_reset: bool = True
    withdrawals: tuple[int, ...] = ()  # in the order they withdrew
    # Double elimination: the forbidden pairs its first round was paired under (the bracket
    # is drawn from them, so later changes cannot redraw it).
    bracket_forbidden: frozenset[tuple[int, int]] = frozenset()
    top_cut: int | None = None
    third_place: bool = False
    swiss_rounds: int | None = None  # a top cut's Swiss rounds (then its knockout's)
    cut_seeds: tuple[int, ...] = ()  # a top cut's qualifiers, seed 1 first
    capacity: int | None = None  # places (None: no limit); beyond it, a waitlist
    entries: dict[int, Entry] = field(default_factory=dict)  # by player, registration order
    rounds: dict[int, RoundState] = field(default_factory=dict)  # by number

    # --- what the standings fold and the decisions read ---

    @property
    def started(self) -> bool:
        return self.status != REGISTRATION

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    @property
    def rounds_paired(self) -> int:
        return self.current_round

    @property
    def withdrawn(self) -> frozenset[int]:
        return frozenset(p for p, e in self.entries.items() if e.status == WITHDRAWN)

    @property
    def places_taken(self) -> int:
        return sum(1 for e in self.entries.values() if e.status in HOLDING_A_PLACE)

    @property
    def waitlist(self) -> tuple[int, ...]:
        """The waiting players, first to be promoted first."""
        waiting = [e for e in self.entries.values() if e.status == WAITLISTED]
        return tuple(e.player for e in sorted(waiting, key=lambda e: e.order))

    @property
    def paired(self) -> frozenset[int]:
        """Everyone ever paired (a bye counts)."""
        players: set[int] = set()
        for round_ in self.rounds.values():
            for t in round_.tables:
                players.add(t.player1)
                if t.player2 is not None:
                    players.add(t.player2)
        return frozenset(players)

    @property
    def results(self) -> dict[tuple[int, int], ResultEntry]:
        """(round, table) -> the result standing for that pairing now."""
        return {
            (n, t.table): t.result_entry(n)
            for n, round_ in sorted(self.rounds.items())
            for t in round_.tables
            if t.status == FINISHED
        }


def scheduled_start(
    number: int,
    *,
    starts_at: dt.datetime | None,
    round_interval: dt.timedelta | None,
    round_starts: tuple[str, ...] | list[str] = (),
) -> dt.datetime | None:
    """When round `number` is scheduled to be paired (UTC), or None: as soon as possible:
    its own start in `round_starts`, else `starts_at` and one `round_interval` per round.

    Never raises: a time past the calendar's end or one that does not parse counts as no
    scheduled time, so the job computing it goes on rather than leave a pairing pending."""
    try:
        if len(round_starts) >= number:
            return dt.datetime.fromisoformat(round_starts[number - 1])
        if starts_at is None:
            return None
        if number == 1:
            return starts_at
        if round_interval is None:
            return None
        return starts_at + (number - 1) * round_interval
    except (OverflowError, ValueError, TypeError):
        return None


def round_start(state: TournamentState, number: int) -> dt.datetime | None:
    """When round `number` of the tournament is scheduled to be paired (scheduled_start)."""
    return scheduled_start(
        number,
        starts_at=state.starts_at,
        round_interval=state.round_interval,
        round_starts=state.round_starts,
    )
