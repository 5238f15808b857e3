"""A team event's events as stored: (type, JSON data) and back. The data are the event's
fields by name (tuples as lists), without `by` and `at` (the repository keeps who decided
in the data's `by` and the store keeps the time)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from tournaments.teams.domain.events import (
    BoardEntry,
    BoardResult,
    BoardResultCorrected,
    BoardResultRecorded,
    LineupSet,
    TeamEvent,
    TeamEventCreated,
    TeamEventFinished,
    TeamPairForbidden,
    TeamPairingEntry,
    TeamRegistered,
    TeamRoundCompleted,
    TeamRoundPaired,
)

_CLASSES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        TeamEventCreated,
        TeamRegistered,
        LineupSet,
        TeamPairForbidden,
        TeamRoundPaired,
        BoardResultRecorded,
        BoardResultCorrected,
        TeamRoundCompleted,
        TeamEventFinished,
    )
}


def as_json(value: Any) -> Any:
    """A dataclass, tuple or dict as JSON values (dataclasses by field, tuples as lists)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value


def event_to_stored(event: TeamEvent) -> tuple[str, dict[str, Any]]:
    data = {
        f.name: as_json(getattr(event, f.name))
        for f in dataclasses.fields(event)
        if f.name not in ("by", "at")
    }
    return type(event).__name__, data


def pairing_from_json(d: dict[str, Any]) -> TeamPairingEntry:
    boards = tuple(BoardEntry(**b) for b in d.get("boards", ()))
    return TeamPairingEntry(table=d["table"], team1=d["team1"], team2=d["team2"], boards=boards)


def event_from_stored(
    type_: str, data: dict[str, Any], *, at: dt.datetime | None = None, by: int | None = None
) -> TeamEvent:
    cls = _CLASSES[type_]
    names = {f.name for f in dataclasses.fields(cls)} - {"by", "at"}
    values = {k: v for k, v in data.items() if k in names}
    if cls is TeamRoundPaired:
        values["pairings"] = tuple(pairing_from_json(p) for p in values["pairings"])
        values["seeds"] = tuple(values.get("seeds", ()))
    elif cls in (BoardResultRecorded, BoardResultCorrected):
        values["result"] = BoardResult(**values["result"])
    elif cls in (TeamRegistered, LineupSet):
        key = "roster" if cls is TeamRegistered else "players"
        values[key] = tuple(values[key])
    elif cls is TeamPairForbidden:
        values["teams"] = tuple(values["teams"])
    elif cls is TeamEventCreated:
        values["match_points"] = tuple(values["match_points"])
    event: TeamEvent = cls(**values, at=at, by=by)
    return event


def is_team_event_type(type_: str) -> bool:
    return type_ in _CLASSES
