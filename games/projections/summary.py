"""The match row (`Match`) from events: its summary fields, the registration kept in the
first event's metadata, and the one UPDATE statement that writes the summary on every
action."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection

from core.prepared import PreparedStatement
from games.engine.match import MatchState
from games.engine.scoresheet import scoresheet_to_dict
from games.models import Match

# The Match fields derived from events; registration fields (players, label, organisers,
# created_by) come from the first event's metadata.
SUMMARY_FIELDS = (
    "status",
    "mode",
    "ruleset",
    "version",
    "hand_number",
    "phase",
    "turn_player",
    "last_action_at",
    "scoresheet",
    "games_won_p1",
    "games_won_p2",
    "points_p1",
    "points_p2",
    "winner",
    "finish_reason",
    "created_at",
    "finished_at",
)
# The events that end a match: played out (or forfeited, resigned), or cancelled unplayed.
FINISH_EVENT_TYPES = frozenset({"MatchFinished", "MatchCancelled"})


def match_registration(*, match: Match, organiser_ids: Sequence[int]) -> dict[str, Any]:
    """Who plays, who organises: stored in the first event's metadata."""
    return {
        "id": str(match.id),
        "player1": match.player1_id,
        "player2": match.player2_id,
        "label": match.label,
        "created_by": match.created_by_id,
        "organisers": list(organiser_ids),
        # Only a practice match carries the key: other registrations stay as they were.
        **({"practice": True} if match.practice else {}),
    }


def match_from_registration(registration: dict[str, Any], stream_id: str) -> Match:
    """An unsaved Match row rebuilt from the registration in a stream's first event."""
    return Match(
        id=registration["id"],
        stream_id=stream_id,
        player1_id=registration["player1"],
        player2_id=registration["player2"],
        label=registration["label"],
        created_by_id=registration["created_by"],
        practice=bool(registration.get("practice")),
    )


def match_summarise(*, match: Match, state: MatchState, events: Sequence[Any]) -> None:
    """Set the summary fields of `match` (unsaved) from the state after `events`."""
    pid = match.player_id_for_seat
    sheet = scoresheet_to_dict(state.scoresheet)
    match.status = Match.Status.FINISHED if state.status == "finished" else Match.Status.IN_PROGRESS
    match.mode = state.mode
    match.ruleset = state.ruleset.to_dict()
    match.version = events[-1].version
    match.hand_number = state.hand_number
    match.phase = state.phase
    match.turn_player_id = pid(state.turn)
    match.last_action_at = events[-1].recorded_at
    match.scoresheet = sheet
    match.games_won_p1, match.games_won_p2 = sheet["games_won"]
    match.points_p1, match.points_p2 = sheet["totals"]
    match.winner_id = pid(state.winner)
    match.finish_reason = state.finish_reason or ""
    for event in events:
        if event.version == 1:
            match.created_at = event.recorded_at
        if event.type in FINISH_EVENT_TYPES:
            match.finished_at = event.recorded_at
    if match.status != Match.Status.FINISHED:
        match.finished_at = None  # reopened by a correction


def match_summary_statement(
    *, match: Match, state: MatchState, events: Sequence[Any], row_known: bool = False
) -> tuple[str, list[Any]]:
    """Summarise `match` (see `match_summarise`) and return its row's UPDATE (sql, params):
    the same as `match.save(update_fields=SUMMARY_FIELDS)`, values prepared by the fields
    themselves, but one plain statement (prepared on PostgreSQL), which the caller may
    send with others: on every action the ORM's building of the save cost more than
    running it, and planning it more than running it again.

    `row_known`: `match` holds the row as stored (read in this transaction, under lock);
    most actions then change only the few columns of `TURN_FIELDS`, and only those are
    sent (the scoresheet and ruleset JSON are not encoded again)."""
    stored = _other_values(match) if row_known else None
    match_summarise(match=match, state=state, events=events)
    names = TURN_FIELDS if stored is not None and stored == _other_values(match) else SUMMARY_FIELDS
    fields = _summary_fields(names)
    values = [prep(getattr(match, attname), connection) for attname, prep in fields]
    pk = Match._meta.pk.get_db_prep_value(match.pk, connection)
    if connection.vendor == "postgresql":
        return _summary_statement(names).statement([*values, pk])
    return _summary_sql(names, "%s"), [*values, pk]


# What changes on most actions; the other summary fields change when a hand or game ends.
TURN_FIELDS = ("version", "hand_number", "phase", "turn_player", "last_action_at")
_OTHER_FIELDS = tuple(name for name in SUMMARY_FIELDS if name not in TURN_FIELDS)


def _other_values(match: Match) -> list[Any]:
    """The values of the summary fields that most actions leave alone."""
    return [getattr(match, attname) for attname, _ in _summary_fields(_OTHER_FIELDS)]


@functools.cache
def _summary_fields(names: tuple[str, ...]) -> list[tuple[str, Callable[..., Any]]]:
    """(attribute, value preparation) per column. A foreign key's value is its target's,
    prepared as the key would (minus a costly look-up of the column type)."""
    out = []
    for name in names:
        field = Match._meta.get_field(name)
        prep = field.target_field.get_db_prep_save if field.is_relation else field.get_db_prep_save
        out.append((field.attname, prep))
    return out


@functools.cache
def _summary_statement(names: tuple[str, ...]) -> PreparedStatement:
    name = f"match_summary_{len(names)}"
    return PreparedStatement(name, _summary_sql(names, "$"), len(names) + 1)


@functools.cache
def _summary_sql(names: tuple[str, ...], placeholder: str) -> str:
    """The UPDATE of those columns with `%s` placeholders, or PostgreSQL's numbered ones
    for `$`."""

    def param(n: int) -> str:
        return f"${n}" if placeholder == "$" else placeholder

    quote = connection.ops.quote_name
    columns = ", ".join(
        f"{quote(Match._meta.get_field(name).column)} = {param(n)}"
        for n, name in enumerate(names, start=1)
    )
    table, pk = quote(Match._meta.db_table), quote(Match._meta.pk.column)
    return f"UPDATE {table} SET {columns} WHERE {pk} = {param(len(names) + 1)}"
