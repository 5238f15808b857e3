"""A TournamentState as JSON and back, for the repository's snapshots. Bump STATE_SCHEMA
when the state's shape changes: older snapshots are then ignored and the events replayed."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from tournaments.domain.state import Entry, RoundState, Table, TournamentState

STATE_SCHEMA = 6

_TIMES = {"starts_at", "finished_at", "registered_at", "checked_in_at", "withdrawn_at",
          "scheduled_at", "paired_at", "deadline", "completed_at", "clock_started_at",
          "promoted_at"}  # fmt: skip
_DURATIONS = {"round_interval", "round_duration"}


def _out(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in ("forbidden", "bracket_forbidden"):
        return sorted(list(pair) for pair in value)
    if name in _TIMES:
        return value.isoformat()
    if name in _DURATIONS:
        return value.total_seconds()
    if isinstance(value, tuple):
        return list(value)
    return value


def _in(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in ("forbidden", "bracket_forbidden"):
        return frozenset(tuple(pair) for pair in value)
    if name in _TIMES:
        return dt.datetime.fromisoformat(value)
    if name in _DURATIONS:
        return dt.timedelta(seconds=value)
    if isinstance(value, list):
        return tuple(value)
    return value


def _flat(obj: Any) -> dict[str, Any]:
    return {f.name: _out(f.name, getattr(obj, f.name)) for f in dataclasses.fields(obj)}


def state_to_dict(state: TournamentState) -> dict[str, Any]:
    out = {
        f.name: _out(f.name, getattr(state, f.name))
        for f in dataclasses.fields(state)
        if f.name not in ("entries", "rounds")
    }
    out["entries"] = [_flat(e) for e in state.entries.values()]
    out["rounds"] = [
        {**{k: v for k, v in _flat(r).items() if k != "tables"},
         "tables": [_flat(t) for t in r.tables]}
        for r in state.rounds.values()
    ]  # fmt: skip
    return out


def _make(cls: type, data: dict[str, Any]) -> Any:
    return cls(**{k: _in(k, v) for k, v in data.items()})


def state_from_dict(data: dict[str, Any]) -> TournamentState:
    top = {k: _in(k, v) for k, v in data.items() if k not in ("entries", "rounds")}
    entries = {e["player"]: _make(Entry, e) for e in data["entries"]}
    rounds = {}
    for r in data["rounds"]:
        tables = tuple(_make(Table, t) for t in r["tables"])
        fields = {k: _in(k, v) for k, v in r.items() if k != "tables"}
        rounds[r["number"]] = RoundState(tables=tables, **fields)
    return TournamentState(entries=entries, rounds=rounds, **top)
