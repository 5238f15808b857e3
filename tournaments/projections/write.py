"""Writing the projected rows from a tournament's state: after each save, the rows its new
events touched (`project_in_tx`); the rebuild uses the same writers for every row."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.domain import TournamentState, standings_of
from tournaments.domain.events import (
    CapacityChanged,
    NoShowUndone,
    PlayerCheckedIn,
    PlayerCheckInUndone,
    PlayerPromoted,
    PlayerRegistered,
    PlayerWaitlisted,
    PlayerWithdrawn,
    RegistrationRefused,
    RegistrationRequested,
    ResultCorrected,
    ResultRecorded,
    RoundClockStarted,
    RoundCompleted,
    RoundDeadlineMoved,
    RoundPaired,
    SettingsChanged,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.domain.state import REGISTRATION
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.pairing.standings import Standing as StandingLine

# --- what a batch of events touched ---------------------------------------------------------


@dataclass
class _Touched:
    row: bool = False
    players: set[int] = field(default_factory=set)
    rounds: set[int] = field(default_factory=set)
    rounds_repaired: set[int] = field(default_factory=set)
    tables: set[tuple[int, int]] = field(default_factory=set)
    standings: bool = False
    settings: dict[str, Any] = field(default_factory=dict)  # row fields from the events


def _seconds(value: Any) -> dt.timedelta | None:
    return None if value is None else dt.timedelta(seconds=value)


def _instant(value: Any) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


# SettingsChanged's JSON values as the row holds them.
_ROW_SETTING = {
    "starts_at": _instant,
    "round_interval": _seconds,
    "round_duration": _seconds,
    "turn_time": _seconds,
    "dispute_window": _seconds,
}


def _created_fields(e: TournamentCreated) -> dict[str, Any]:
    return {
        "name": e.name,
        "club_id": e.club,
        "format": e.format,
        "ruleset": e.ruleset,
        "rounds_planned": e.rounds if e.format == "swiss" else None,
        "play_mode": e.play_mode,
        "time_zone": e.time_zone,
        "language": e.language,
        "tiebreaks": list(e.tiebreaks),
        "is_public": e.is_public,
        "check_in_required": e.check_in_required,
        "starts_at": _instant(e.starts_at),
        "round_starts": list(e.round_starts),
        "round_interval": _seconds(e.round_interval),
        "round_duration": _seconds(e.round_duration),
        "turn_time": _seconds(e.turn_time),
        "dispute_window": _seconds(e.dispute_window),
    }


def settings_fields(event: TournamentEvent) -> dict[str, Any]:
    """The tournament row's settings an event sets (TournamentCreated: all of them,
    SettingsChanged: those it changes; others: none), as the row holds them."""
    if isinstance(event, TournamentCreated):
        return _created_fields(event)
    if isinstance(event, SettingsChanged):
        out = {}
        for name, change in event.changes.items():
            reader = _ROW_SETTING.get(name)
            out[name] = reader(change["new"]) if reader else change["new"]
        return out
    return {}


def _touch(t: _Touched, event: TournamentEvent) -> None:
    match event:
        case TournamentCreated():
            t.settings.update(settings_fields(event))
        case PlayerRegistered() | PlayerCheckedIn() | PlayerCheckInUndone() | PlayerWithdrawn():
            t.players.add(event.player)
            t.standings = True
        case (
            PlayerWaitlisted()
            | PlayerPromoted()
            | RegistrationRequested()
            | RegistrationRefused()
            | NoShowUndone()
        ):
            t.players.add(event.player)
            t.standings = True
        case CapacityChanged():
            pass  # the row's capacity: row_fields
        case TournamentStarted():
            t.players.update(event.seeds)
        case RoundPaired():
            t.rounds.add(event.round)
            t.rounds_repaired.add(event.round)
            t.standings = True
        case ResultRecorded():
            t.tables.add((event.result.round, event.result.table))
            t.standings = True
        case ResultCorrected():
            t.tables.add((event.round, event.table))
            t.rounds.add(event.round)
            t.standings = True
        case RoundDeadlineMoved() | RoundClockStarted() | RoundCompleted():
            t.rounds.add(event.round)
        case SettingsChanged():
            t.settings.update(settings_fields(event))
            t.standings = t.standings or "tiebreaks" in event.changes
        case TournamentFinished():
            pass
    t.row = True


# --- writing rows from the state ------------------------------------------------------------


def _registration_fields(state: TournamentState, player: int) -> dict[str, Any]:
    e = state.entries[player]
    return {
        "status": e.status,
        "seed": e.seed,
        "late": e.late,
        "registered_at": e.registered_at,
        "checked_in_at": e.checked_in_at,
        "withdrawn_at": e.withdrawn_at,
        "no_show": e.no_show,
    }


def write_registrations(tournament: Tournament, state: TournamentState, players: set[int]) -> None:
    existing = {
        r.player_id: r
        for r in Registration.objects.filter(tournament=tournament, player_id__in=players)
    }
    changed, created, fields = [], [], set()
    for player in sorted(players):
        if player not in state.entries:
            continue
        wanted = _registration_fields(state, player)
        row = existing.get(player)
        if row is None:
            created.append(Registration(tournament=tournament, player_id=player, **wanted))
            continue
        differ = {k for k, v in wanted.items() if getattr(row, k) != v}
        if differ:
            for k in differ:
                setattr(row, k, wanted[k])
            changed.append(row)
            fields |= differ
    if changed:
        # Only the columns that changed (the seeds, at the start): bulk_update writes a CASE
        # per column and row.
        Registration.objects.bulk_update(changed, sorted(fields), batch_size=500)
    if created:
        Registration.objects.bulk_create(created)


def _round_fields(state: TournamentState, number: int) -> dict[str, Any]:
    r = state.rounds[number]
    return {
        "status": r.status,
        "scheduled_at": r.scheduled_at,
        "paired_at": r.paired_at,
        "deadline": r.deadline,
        "completed_at": r.completed_at,
        "paired_by_id": r.paired_by,
        "clock_started_at": r.clock_started_at,
        "clock_started_by_hand": r.clock_by_hand,
    }


# The columns the writers set (what a rebuild compares).
REGISTRATION_COLUMNS = (
    "status", "seed", "late", "registered_at", "checked_in_at", "withdrawn_at", "no_show",
)  # fmt: skip
ROUND_COLUMNS = (
    "status", "scheduled_at", "paired_at", "deadline", "completed_at", "paired_by_id",
    "clock_started_at", "clock_started_by_hand",
)  # fmt: skip
PAIRING_COLUMNS = (
    "player1_id", "player2_id", "match_id", "match_version_at_pairing", "status", "winner_id",
    "games1", "games2", "points1", "points2", "result_reason",
)  # fmt: skip
STANDING_COLUMNS = (
    "rank", "match_wins", "played", "games_won", "points_diff", "buchholz",
    "sonneborn_berger", "byes", "withdrawn",
)  # fmt: skip


def _pairing_fields(state: TournamentState, number: int, table: int) -> dict[str, Any]:
    t = state.rounds[number].table(table)
    assert t is not None
    return {
        "player1_id": t.player1,
        "player2_id": t.player2,
        "match_id": t.match,
        "match_version_at_pairing": t.match_version,
        "status": t.status,
        "winner_id": t.winner,
        "games1": t.games1,
        "games2": t.games2,
        "points1": t.points1,
        "points2": t.points2,
        "result_reason": t.result,
    }


def write_rounds(
    tournament: Tournament, state: TournamentState, rounds: set[int], repaired: set[int]
) -> dict[int, Round]:
    rows = {r.number: r for r in Round.objects.filter(tournament=tournament, number__in=rounds)}
    for number in sorted(rounds):
        wanted = _round_fields(state, number)
        row = rows.get(number)
        if row is None:
            rows[number] = Round.objects.create(tournament=tournament, number=number, **wanted)
        elif any(getattr(row, k) != v for k, v in wanted.items()):
            Round.objects.filter(pk=row.pk).update(**wanted)
    for number in sorted(repaired):
        # A (re-)paired round's pairings are its tables now: the replaced ones go.
        round_ = rows[number]
        Pairing.objects.filter(round=round_).delete()
        Pairing.objects.bulk_create(
            Pairing(round=round_, table=t.table, **_pairing_fields(state, number, t.table))
            for t in state.rounds[number].tables
        )
    return rows


def _write_tables(
    tournament: Tournament, state: TournamentState, tables: set[tuple[int, int]]
) -> None:
    for number, table in sorted(tables):
        Pairing.objects.filter(
            round__tournament=tournament, round__number=number, table=table
        ).update(**_pairing_fields(state, number, table))


def row_fields(state: TournamentState) -> dict[str, Any]:
    return {
        "status": state.status,
        "current_round": state.current_round,
        "rounds_planned": state.rounds_planned,
        "finished_at": state.finished_at,
        "version": state.version,
        "capacity": state.capacity,
    }


def write_row(tournament: Tournament, state: TournamentState, settings: dict[str, Any]) -> None:
    fields = {**settings, **row_fields(state)}
    Tournament.objects.filter(pk=tournament.pk).update(**fields)
    for name, value in fields.items():
        setattr(tournament, name, value)


def standings_write_in_tx(*, tournament: Tournament, state: TournamentState) -> list[StandingLine]:
    """The standings rows from the state (the one standings fold)."""
    lines = standings_of(state) if state.status != REGISTRATION else []
    withdrawn = state.withdrawn
    Standing.objects.filter(tournament=tournament).delete()
    Standing.objects.bulk_create(
        Standing(
            tournament=tournament,
            player_id=line.player,
            rank=line.rank,
            match_wins=line.match_wins,
            played=line.played,
            games_won=line.games_won,
            points_diff=line.points_diff,
            buchholz=line.buchholz,
            sonneborn_berger=line.sonneborn_berger,
            byes=line.byes,
            withdrawn=line.player in withdrawn,
        )
        for line in lines
    )
    return lines


def project_in_tx(
    *, tournament: Tournament, state: TournamentState, events: Sequence[TournamentEvent]
) -> None:
    """Write the rows `events` changed, from `state` (the state after them)."""
    touched = _Touched()
    for event in events:
        _touch(touched, event)
    write_registrations(tournament, state, touched.players)
    write_rounds(tournament, state, touched.rounds, touched.rounds_repaired)
    _write_tables(tournament, state, touched.tables - _tables_of(state, touched.rounds_repaired))
    if touched.row:
        write_row(tournament, state, touched.settings)
    if touched.standings:
        standings_write_in_tx(tournament=tournament, state=state)


def _tables_of(state: TournamentState, rounds: Iterable[int]) -> set[tuple[int, int]]:
    return {(n, t.table) for n in rounds for t in state.rounds[n].tables}
