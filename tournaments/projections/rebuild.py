"""The rebuild: every projected row of a tournament from its events alone, and the rows
as comparable tuples (what a rebuild must reproduce, what `verify_projections` compares)."""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction

import eventstore
from tournaments.domain import TournamentState, fold, standings_of
from tournaments.domain.state import REGISTRATION
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.pairing.standings import Standing as StandingLine
from tournaments.projections.reads import typed_events
from tournaments.projections.write import (
    PAIRING_COLUMNS,
    REGISTRATION_COLUMNS,
    ROUND_COLUMNS,
    STANDING_COLUMNS,
    row_fields,
    settings_fields,
    standings_write_in_tx,
    write_registrations,
    write_rounds,
    write_row,
)


def projected_rows(*, tournament: Tournament) -> dict[str, list[tuple]]:
    """Every projected row of the tournament as comparable tuples (ids left out): what a
    rebuild must reproduce, and what `verify_projections` compares."""
    t = Tournament.objects.get(pk=tournament.pk)
    row = [tuple(getattr(t, name) for name in _tournament_fields())]
    regs = Registration.objects.filter(tournament=tournament).order_by("player_id")
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    pairings = Pairing.objects.filter(round__tournament=tournament).order_by(
        "round__number", "table"
    )
    standings = Standing.objects.filter(tournament=tournament).order_by("rank", "player_id")
    reg_fields = ["player_id", *REGISTRATION_COLUMNS]
    return {
        "tournament": row,
        "registrations": [tuple(getattr(r, f) for f in reg_fields) for r in regs],
        "rounds": [(r.number, *(getattr(r, f) for f in ROUND_COLUMNS)) for r in rounds],
        "pairings": list(pairings.values_list("round__number", "table", *PAIRING_COLUMNS)),
        "standings": list(standings.values_list("player_id", *STANDING_COLUMNS)),
    }


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
    write_registrations(tournament, state, set(state.entries))
    write_rounds(tournament, state, set(state.rounds), set(state.rounds))
    settings: dict[str, Any] = {}
    for event in events:
        settings.update(settings_fields(event))
    write_row(tournament, state, settings)
    standings_write_in_tx(tournament=tournament, state=state)
    return state


@transaction.atomic
def standings_rebuild(*, tournament: Tournament) -> list[StandingLine]:
    """Rebuild path: every projected row of the tournament from its events (the standings
    returned)."""
    state = tournament_rebuild_in_tx(tournament=tournament)
    return standings_of(state) if state.status != REGISTRATION else []


# The tournament row's settings columns (its state's columns: `row_fields`).
SETTINGS_COLUMNS = [
    "name", "club_id", "format", "ruleset", "rounds_planned", "play_mode", "time_zone",
    "language", "tiebreaks", "is_public", "check_in_required", "starts_at", "round_starts",
    "round_interval", "round_duration", "turn_time", "dispute_window",
]  # fmt: skip


def _tournament_fields() -> list[str]:
    return [*SETTINGS_COLUMNS, *row_fields(TournamentState())]


def projected_pictures(*, tournament: Tournament) -> dict[str, dict[Any, dict[str, Any]]]:
    """Every projected row of the tournament, by natural key and field (core.drift): what
    `verify_projections` compares with a rebuild."""
    t = Tournament.objects.get(pk=tournament.pk)
    regs = Registration.objects.filter(tournament=tournament)
    rounds = Round.objects.filter(tournament=tournament)
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related("round")
    standings = Standing.objects.filter(tournament=tournament)
    return {
        TOURNAMENT_TABLE: {t.pk: {f: getattr(t, f) for f in _tournament_fields()}},
        Registration._meta.db_table: {
            (t.pk, r.player_id): {f: getattr(r, f) for f in REGISTRATION_COLUMNS} for r in regs
        },
        Round._meta.db_table: {
            (t.pk, r.number): {f: getattr(r, f) for f in ROUND_COLUMNS} for r in rounds
        },
        Pairing._meta.db_table: {
            (t.pk, p.round.number, p.table): {f: getattr(p, f) for f in PAIRING_COLUMNS}
            for p in pairings
        },
        Standing._meta.db_table: {
            (t.pk, s.player_id): {f: getattr(s, f) for f in STANDING_COLUMNS} for s in standings
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
