"""A tournament's state folded from its events (`evolve`, total, no checks) and the
standings of a state (`standings_of`: the one standings fold: the read model, the pairing
of the next round and a rebuild all use it).

The state holds everything the decisions need and everything the projections write (the
registrations, rounds and pairings as rows show them), so the rows follow from the events
alone."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tournaments.domain.events import (
    ForbiddenPairAdded,
    ForbiddenPairRemoved,
    PairingEntry,
    PlayerCheckedIn,
    PlayerCheckInUndone,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultCorrected,
    ResultEntry,
    ResultRecorded,
    RoundCompleted,
    RoundDeadlineMoved,
    RoundPaired,
    SettingsChanged,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.pairing.standings import TIEBREAKS, Result, Standing, standings

REGISTERED, CHECKED_IN, WITHDRAWN = "registered", "checked_in", "withdrawn"
PENDING, FINISHED = "pending", "finished"  # a pairing
PAIRED, COMPLETED = "paired", "completed"  # a round
REGISTRATION, IN_PROGRESS = "registration", "in_progress"  # a tournament (and FINISHED)


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


def _seconds(value: float | None) -> dt.timedelta | None:
    return None if value is None else dt.timedelta(seconds=value)


def _instant(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def round_start(state: TournamentState, number: int) -> dt.datetime | None:
    """When round `number` is scheduled to be paired (UTC), or None: as soon as possible.

    Never raises: a time past the calendar's end or one that does not parse counts as no
    scheduled time, so the job computing it goes on rather than leave a pairing pending."""
    try:
        if len(state.round_starts) >= number:
            return dt.datetime.fromisoformat(state.round_starts[number - 1])
        if state.starts_at is None:
            return None
        if number == 1:
            return state.starts_at
        if state.round_interval is None:
            return None
        return state.starts_at + (number - 1) * state.round_interval
    except (OverflowError, ValueError, TypeError):
        return None


# The settings the state keeps, and how SettingsChanged's JSON values read back.
_SETTING_READERS: dict[str, Any] = {
    "tiebreaks": lambda v: tuple(v or ()),
    "check_in_required": bool,
    "rounds_planned": lambda v: v,
    "starts_at": _instant,
    "round_interval": _seconds,
    "round_duration": _seconds,
    "round_starts": lambda v: tuple(v or ()),
    "format": lambda v: v,
}


def _table_of(p: PairingEntry) -> Table:
    return Table(
        table=p.table, player1=p.player1, player2=p.player2, match=p.match,
        match_version=p.match_version, slot=p.slot,
    )  # fmt: skip


def _with_table(state: TournamentState, number: int, table: Table) -> TournamentState:
    round_ = state.rounds[number]
    tables = tuple(table if t.table == table.table else t for t in round_.tables)
    return replace(state, rounds={**state.rounds, number: replace(round_, tables=tables)})


def _with_round(state: TournamentState, round_: RoundState) -> TournamentState:
    return replace(state, rounds={**state.rounds, round_.number: round_})


def _with_entry(state: TournamentState, entry: Entry) -> TournamentState:
    return replace(state, entries={**state.entries, entry.player: entry})


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    """The state after `event`: total over event types, no checks."""
    state = replace(state, version=state.version + 1)
    match event:
        case TournamentCreated():
            return replace(
                state,
                created=True,
                format=event.format,
                tiebreaks=event.tiebreaks,
                check_in_required=event.check_in_required,
                rounds_planned=event.rounds if event.format == "swiss" else None,
                starts_at=_instant(event.starts_at),
                round_interval=_seconds(event.round_interval),
                round_starts=event.round_starts,
                round_duration=_seconds(event.round_duration),
                bye_points=event.bye_points,
                bye_buchholz=event.bye_buchholz,
                bracket_reset=event.bracket_reset,
                top_cut=event.top_cut,
                third_place=event.third_place,
                swiss_rounds=event.rounds if event.top_cut else None,
            )
        case ForbiddenPairAdded():
            return replace(state, forbidden=state.forbidden | {event.players})
        case ForbiddenPairRemoved():
            return replace(state, forbidden=state.forbidden - {event.players})
        case PlayerRegistered():
            seed = None
            if event.late:  # a late entry is seeded after everyone so far
                seed = max((e.seed or 0 for e in state.entries.values()), default=0) + 1
            entry = Entry(
                player=event.player, order=len(state.entries) + 1, seed=seed, late=event.late,
                registered_at=event.at,
            )  # fmt: skip
            return _with_entry(state, entry)
        case PlayerCheckedIn():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            return _with_entry(state, replace(entry, status=CHECKED_IN, checked_in_at=event.at))
        case PlayerCheckInUndone():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            return _with_entry(state, replace(entry, status=REGISTERED, checked_in_at=None))
        case PlayerWithdrawn():
            entry = state.entries.get(event.player)
            if entry is None:
                return state
            state = replace(state, withdrawals=(*state.withdrawals, event.player))
            return _with_entry(state, replace(entry, status=WITHDRAWN, withdrawn_at=event.at))
        case TournamentStarted():
            entries = dict(state.entries)
            for seed, player in enumerate(event.seeds, start=1):
                if player in entries:
                    entries[player] = replace(entries[player], seed=seed)
            return replace(state, status=IN_PROGRESS, rounds_planned=event.rounds, entries=entries)
        case RoundPaired():
            old = state.rounds.get(event.round)
            round_ = RoundState(
                number=event.round,
                tables=tuple(_table_of(p) for p in event.pairings),
                scheduled_at=old.scheduled_at if old else round_start(state, event.round),
                paired_at=old.paired_at if old else event.at,
                deadline=_instant(event.deadline),
                paired_by=old.paired_by if old else event.by,
                repaired=event.repaired,
            )
            status = state.status if state.status != REGISTRATION else IN_PROGRESS
            if event.round == 1 and old is None:
                state = replace(state, bracket_forbidden=state.forbidden)
            if event.top_cut:
                state = replace(state, cut_seeds=event.top_cut)
            return replace(
                _with_round(state, round_),
                status=status,
                current_round=max(state.current_round, event.round),
            )
        case ResultRecorded():
            r = event.result
            round_ = state.rounds.get(r.round)
            table = round_.table(r.table) if round_ else None
            if table is None:
                return state
            return _with_table(state, r.round, table.with_result(r))
        case ResultCorrected():
            round_ = state.rounds.get(event.round)
            table = round_.table(event.table) if round_ else None
            if round_ is None or table is None:
                return state
            state = _with_table(state, event.round, table.with_result(event.after))
            if event.after is None and round_.status == COMPLETED:
                state = _with_round(state, replace(state.rounds[event.round], status=PAIRED))
            return state
        case RoundDeadlineMoved():
            round_ = state.rounds.get(event.round)
            if round_ is None:
                return state
            return _with_round(state, replace(round_, deadline=_instant(event.deadline)))
        case RoundCompleted():
            round_ = state.rounds.get(event.round)
            if round_ is None:
                return state
            return _with_round(state, replace(round_, status=COMPLETED, completed_at=event.at))
        case SettingsChanged():
            values = {
                name: _SETTING_READERS[name](change["new"])
                for name, change in event.changes.items()
                if name in _SETTING_READERS
            }
            return replace(state, **values)
        case TournamentFinished():
            return replace(state, status=FINISHED, finished_at=event.at)
        case _:
            return state


def fold(
    events: Iterable[TournamentEvent], state: TournamentState | None = None
) -> TournamentState:
    current = state if state is not None else TournamentState()
    for event in events:
        current = evolve(current, event)
    return current


def tiebreak_order(state: TournamentState) -> list[str]:
    """The tournament's setting, or: match wins, games, points (+ Buchholz, SB for Swiss)."""
    if state.tiebreaks:
        return list(state.tiebreaks)
    return list(TIEBREAKS) if state.format == "swiss" else list(TIEBREAKS[:3])


def results_of(state: TournamentState) -> list[Result]:
    return [
        Result(
            round=r.round,
            player1=r.player1,
            player2=r.player2,
            winner=r.winner,
            games1=r.games1,
            games2=r.games2,
            points1=r.points1,
            points2=r.points2,
        )
        for _, r in sorted(state.results.items())
    ]


def standings_of(
    state: TournamentState, *, also: Sequence[int] = (), tiebreaks: Sequence[str] | None = None
) -> list[Standing]:
    """The standings: everyone paired so far (and `also`, e.g. the players about to be
    paired), by the tournament's tiebreak order (or `tiebreaks`)."""
    order = tiebreak_order(state) if tiebreaks is None else list(tiebreaks)
    players = sorted(set(state.paired) | set(also))
    lines = standings(
        players=players,
        results=results_of(state),
        tiebreaks=order,
        bye_points=state.bye_points,
        bye_buchholz=state.bye_buchholz,
    )
    if state.top_cut and state.finished and state.cut_seeds:
        return _top_cut_final(state, lines)
    return lines


def _top_cut_final(state: TournamentState, lines: list[Standing]) -> list[Standing]:
    """A finished top cut's one final standing: the knockout's places first, then the
    rest in their Swiss order (tournaments.pairing.top_cut)."""
    from tournaments.pairing.top_cut import top_cut_standing

    swiss_only = replace(
        state,
        status=IN_PROGRESS,
        rounds={n: r for n, r in state.rounds.items() if n <= (state.swiss_rounds or 0)},
    )
    swiss = [line.player for line in standings_of(swiss_only)]
    swiss += [line.player for line in lines if line.player not in set(swiss)]
    last = max(state.rounds)
    knockout: list[list[tuple[int, int | None]]] = []
    third = None
    for n in range((state.swiss_rounds or 0) + 1, last + 1):
        games = []
        for t in state.rounds[n].tables:
            loser = t.player2 if t.winner == t.player1 else t.player1
            if n == last and len(state.rounds[n].tables) == 2 and t.table == 2:
                third = (t.winner, loser) if t.winner is not None and loser else None
                continue
            if t.winner is not None:
                games.append((t.winner, loser))
        knockout.append(games)
    try:
        places = top_cut_standing(
            order=swiss, seeds=state.cut_seeds, knockout_rounds=knockout, third_place=third
        )
    except ValueError:
        return lines  # withdrawals left the knockout short: the standings as they are
    by_player = {line.player: line for line in lines}
    return [replace(by_player[p.player], rank=p.place) for p in places if p.player in by_player]
