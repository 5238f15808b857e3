"""The tournament's read models, written from its events and nothing else.

The rows of Tournament (its state fields), Registration, Round, Pairing and Standing are
projections of the stream "tournament-<id>": the repository calls `project_in_tx` with the
events it has just appended and the state they fold into, in the same transaction; the
rebuild (`tournament_rebuild_in_tx`, `manage.py rebuild_projections`/`rebuild_standings`)
folds every event again and writes every row the same way. Both paths copy the rows from
the folded state (`tournaments.domain`), so they cannot disagree; the times in the rows are
those the store recorded the events at.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

import eventstore
from tournaments.domain import TournamentState, event_from_stored, fold, standings_of
from tournaments.domain.events import (
    PlayerCheckedIn,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultCorrected,
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
from tournaments.domain.state import REGISTRATION, tiebreak_order
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


def _touch(t: _Touched, event: TournamentEvent) -> None:
    match event:
        case TournamentCreated():
            t.settings.update(_created_fields(event))
        case PlayerRegistered() | PlayerCheckedIn() | PlayerWithdrawn():
            t.players.add(event.player)
            t.standings = True
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
        case RoundDeadlineMoved() | RoundCompleted():
            t.rounds.add(event.round)
        case SettingsChanged():
            for name, change in event.changes.items():
                reader = _ROW_SETTING.get(name)
                t.settings[name] = reader(change["new"]) if reader else change["new"]
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
    }


def _write_registrations(tournament: Tournament, state: TournamentState, players: set[int]) -> None:
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
    }


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


def _write_rounds(
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


def _row_fields(state: TournamentState) -> dict[str, Any]:
    return {
        "status": state.status,
        "current_round": state.current_round,
        "rounds_planned": state.rounds_planned,
        "finished_at": state.finished_at,
        "version": state.version,
    }


def _write_row(tournament: Tournament, state: TournamentState, settings: dict[str, Any]) -> None:
    fields = {**settings, **_row_fields(state)}
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
    _write_registrations(tournament, state, touched.players)
    _write_rounds(tournament, state, touched.rounds, touched.rounds_repaired)
    _write_tables(tournament, state, touched.tables - _tables_of(state, touched.rounds_repaired))
    if touched.row:
        _write_row(tournament, state, touched.settings)
    if touched.standings:
        standings_write_in_tx(tournament=tournament, state=state)


def _tables_of(state: TournamentState, rounds: Iterable[int]) -> set[tuple[int, int]]:
    return {(n, t.table) for n in rounds for t in state.rounds[n].tables}


# --- reading the events, and the rebuild ----------------------------------------------------


def typed_events(recorded: Iterable[Any]) -> list[TournamentEvent]:
    return [event_from_stored(e.type, e.data, e.recorded_at) for e in recorded]


def tournament_state(*, tournament: Tournament) -> TournamentState:
    """The tournament's state folded from its whole stream (no snapshot: audits, rebuilds)."""
    return fold(typed_events(eventstore.load(stream_id=tournament.stream_id)))


def tournament_tiebreaks(*, tournament: Tournament) -> list[str]:
    """The tournament's setting, or: match wins, games, points (+ Buchholz, SB for Swiss)."""
    return tiebreak_order(
        TournamentState(format=tournament.format, tiebreaks=tuple(tournament.tiebreaks or ()))
    )


def standings_from_events(
    *, events: Iterable[Any], tiebreaks: Sequence[str] | None = None
) -> tuple[list[StandingLine], set[int]]:
    """Standings folded from stored tournament events, and the withdrawn player ids."""
    state = fold(typed_events(events))
    return standings_of(state, tiebreaks=tiebreaks), set(state.withdrawn)


def pairing_results(*, tournament: Tournament) -> dict[tuple[int, int], tuple]:
    """The finished pairings' results as the pairing rows hold them (a drift check)."""
    rows = Pairing.objects.filter(
        round__tournament=tournament, status=Pairing.Status.FINISHED
    ).select_related("round")
    return {
        (p.round.number, p.table): (p.player1_id, p.player2_id, p.winner_id, p.games1, p.games2)
        for p in rows
    }


def projected_rows(*, tournament: Tournament) -> dict[str, list[tuple]]:
    """Every projected row of the tournament as comparable tuples (ids left out): what a
    rebuild must reproduce, and what `verify_projections` compares."""
    t = Tournament.objects.get(pk=tournament.pk)
    settings = [
        "name", "club_id", "format", "ruleset", "rounds_planned", "play_mode", "time_zone",
        "tiebreaks", "is_public", "check_in_required", "starts_at", "round_starts",
        "round_interval", "round_duration", "turn_time", "dispute_window",
    ]  # fmt: skip
    row = [tuple(getattr(t, name) for name in [*settings, *_row_fields(TournamentState())])]
    regs = Registration.objects.filter(tournament=tournament).order_by("player_id")
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    pairings = Pairing.objects.filter(round__tournament=tournament).order_by(
        "round__number", "table"
    )
    standings = Standing.objects.filter(tournament=tournament).order_by("rank", "player_id")
    reg_fields = ["player_id", *_registration_fields_names()]
    return {
        "tournament": row,
        "registrations": [tuple(getattr(r, f) for f in reg_fields) for r in regs],
        "rounds": [(r.number, *(getattr(r, f) for f in _round_field_names())) for r in rounds],
        "pairings": list(
            pairings.values_list(
                "round__number",
                "table",
                "player1_id",
                "player2_id",
                "match_id",
                "match_version_at_pairing",
                "status",
                "winner_id",
                "games1",
                "games2",
                "points1",
                "points2",
                "result_reason",
            )  # fmt: skip
        ),
        "standings": list(
            standings.values_list(
                "player_id",
                "rank",
                "match_wins",
                "played",
                "games_won",
                "points_diff",
                "buchholz",
                "sonneborn_berger",
                "byes",
                "withdrawn",
            )  # fmt: skip
        ),
    }


def _registration_fields_names() -> list[str]:
    return ["status", "seed", "late", "registered_at", "checked_in_at", "withdrawn_at"]


def _round_field_names() -> list[str]:
    return ["status", "scheduled_at", "paired_at", "deadline", "completed_at", "paired_by_id"]


def tournament_rebuild_in_tx(*, tournament: Tournament) -> TournamentState:
    """Every projected row of the tournament from its events alone: rows the events do not
    account for are deleted, the others written as the fold says."""
    events = typed_events(eventstore.load(stream_id=tournament.stream_id))
    state = fold(events)
    Registration.objects.filter(tournament=tournament).exclude(
        player_id__in=list(state.entries)
    ).delete()
    Pairing.objects.filter(round__tournament=tournament).delete()
    Round.objects.filter(tournament=tournament).exclude(number__in=list(state.rounds)).delete()
    _write_registrations(tournament, state, set(state.entries))
    _write_rounds(tournament, state, set(state.rounds), set(state.rounds))
    settings: dict[str, Any] = {}
    for event in events:
        if isinstance(event, TournamentCreated):
            settings.update(_created_fields(event))
        elif isinstance(event, SettingsChanged):
            for name, change in event.changes.items():
                reader = _ROW_SETTING.get(name)
                settings[name] = reader(change["new"]) if reader else change["new"]
    _write_row(tournament, state, settings)
    standings_write_in_tx(tournament=tournament, state=state)
    return state


@transaction.atomic
def standings_rebuild(*, tournament: Tournament) -> list[StandingLine]:
    """Rebuild path: every projected row of the tournament from its events (the standings
    returned)."""
    state = tournament_rebuild_in_tx(tournament=tournament)
    return standings_of(state) if state.status != REGISTRATION else []


_PAIRING_FIELDS = [
    "player1_id", "player2_id", "match_id", "match_version_at_pairing", "status", "winner_id",
    "games1", "games2", "points1", "points2", "result_reason",
]  # fmt: skip
_STANDING_FIELDS = [
    "rank", "match_wins", "played", "games_won", "points_diff", "buchholz",
    "sonneborn_berger", "byes", "withdrawn",
]  # fmt: skip
_TOURNAMENT_FIELDS = [
    "name", "club_id", "format", "ruleset", "rounds_planned", "play_mode", "time_zone",
    "tiebreaks", "is_public", "check_in_required", "starts_at", "round_starts",
    "round_interval", "round_duration", "turn_time", "dispute_window",
    "status", "current_round", "finished_at", "version",
]  # fmt: skip


def projected_pictures(*, tournament: Tournament) -> dict[str, dict[Any, dict[str, Any]]]:
    """Every projected row of the tournament, by natural key and field (core.drift): what
    `verify_projections` compares with a rebuild."""
    t = Tournament.objects.get(pk=tournament.pk)
    regs = Registration.objects.filter(tournament=tournament)
    rounds = Round.objects.filter(tournament=tournament)
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related("round")
    standings = Standing.objects.filter(tournament=tournament)
    return {
        TOURNAMENT_TABLE: {t.pk: {f: getattr(t, f) for f in _TOURNAMENT_FIELDS}},
        Registration._meta.db_table: {
            (t.pk, r.player_id): {f: getattr(r, f) for f in _registration_fields_names()}
            for r in regs
        },
        Round._meta.db_table: {
            (t.pk, r.number): {f: getattr(r, f) for f in _round_field_names()} for r in rounds
        },
        Pairing._meta.db_table: {
            (t.pk, p.round.number, p.table): {f: getattr(p, f) for f in _PAIRING_FIELDS}
            for p in pairings
        },
        Standing._meta.db_table: {
            (t.pk, s.player_id): {f: getattr(s, f) for f in _STANDING_FIELDS} for s in standings
        },
    }


TOURNAMENT_TABLE = Tournament._meta.db_table
# How a row of each table is named in a difference (`tournament 3 round 2 table 1`).
PICTURE_KEY_NAMES = {
    TOURNAMENT_TABLE: lambda key: f"tournament {key}",
    Registration._meta.db_table: lambda key: f"tournament {key[0]} player {key[1]}",
    Round._meta.db_table: lambda key: f"tournament {key[0]} round {key[1]}",
    Pairing._meta.db_table: lambda key: f"tournament {key[0]} round {key[1]} table {key[2]}",
    Standing._meta.db_table: lambda key: f"tournament {key[0]} player {key[1]}",
}


def rows_differences(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> list[str]:
    """Each row that is in one set and not the other, named by table and key (its first
    values): what a forged or drifted read model looks like against a replay."""
    out = []
    for table in before:
        old = {json.dumps(r, default=str, sort_keys=True) for r in before[table]}
        new = {json.dumps(r, default=str, sort_keys=True) for r in after[table]}
        out += [f"{table}: stored {row} (not what the events say)" for row in sorted(old - new)]
        out += [f"{table}: the events say {row}" for row in sorted(new - old)]
    return out
