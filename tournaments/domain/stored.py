"""A tournament's events as the store holds them: (type, data) and back.

An event's data are its dataclass's fields by name, as JSON (tuples as lists), without the
keys every event shares (`by`, `at`, `reason`: the repository and the store add those).
The few exceptions are the stream's old shape, kept so exports, webhooks and hashes stay
as they were:
- ResultRecorded's data are its result's fields (flat, no "result" key);
- RoundRepaired is RoundPaired with `repaired` (the type says it, the data do not);
- some keys are stored only where they mean something (`_left_out`): a double
  elimination's `bracket_reset`, a top cut's fields, a re-pairing's `replaced`...

Reading back, a key that is missing takes its field's default: what the code of its time
implied. Where that is not the field's default, an upcaster (`_UPCASTERS`) says so.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import types
import typing
from typing import Any

from tournaments.domain import events as ev
from tournaments.domain.events import (
    Noted,
    PairingEntry,
    PlayerWithdrawn,
    ResultCorrected,
    ResultEntry,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentEvent,
)

_COMMON = ("by", "at", "reason")  # every event's: not part of its own data
COMMON_KEYS = _COMMON

# The event classes by stored type (RoundRepaired: a RoundPaired with `repaired`).
_CLASSES: dict[str, type] = {
    name: RoundPaired if name == "RoundRepaired" else getattr(ev, name) for name in ev.EVENT_TYPES
}


def stored_class(type_: str) -> type:
    """The dataclass a stored type reads back as (KeyError: a type this code does not know)."""
    return _CLASSES[type_]


# --- writing --------------------------------------------------------------------------------


def event_type_of(event: TournamentEvent) -> str:
    if isinstance(event, Noted):
        return event.type
    if isinstance(event, RoundPaired) and event.repaired:
        return "RoundRepaired"
    return type(event).__name__


def _left_out(event: TournamentEvent) -> set[str]:
    """The fields an event of the stream's shape does not store."""
    match event:
        case TournamentCreated():
            out = set() if event.format == "double_elimination" else {"bracket_reset"}
            return out if event.top_cut else out | {"top_cut", "third_place"}
        case RoundPaired():
            out = {"repaired"}
            if not event.repaired:
                out |= {"replaced", "by_hand"}
            elif not event.by_hand:
                out.add("by_hand")
            out |= {name for name in ("forbidden_met", "confirmed") if not getattr(event, name)}
            return out if event.top_cut else out | {"top_cut", "lots"}
        case ResultCorrected() if event.repair_possible is None:
            return {"repair_possible"}
        case PlayerWithdrawn() if not event.no_show:
            return {"no_show"}
    return set()


def _json(value: Any) -> Any:
    if isinstance(value, PairingEntry):
        data = _fields_data(value)
        return data if value.slot is not None else {k: v for k, v in data.items() if k != "slot"}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields_data(value)
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


def _fields_data(obj: Any, leave_out: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    return {
        f.name: _json(getattr(obj, f.name))
        for f in dataclasses.fields(obj)
        if f.name not in _COMMON and f.name not in leave_out
    }


def result_to_data(r: ResultEntry) -> dict[str, Any]:
    return _fields_data(r)


def event_to_stored(event: TournamentEvent) -> tuple[str, dict[str, Any]]:
    """(type, data) as stored, without `by` and `reason` (the repository adds those)."""
    type_ = event_type_of(event)
    if isinstance(event, Noted):
        return type_, dict(event.data)
    if isinstance(event, ResultRecorded):
        return type_, result_to_data(event.result)
    return type_, _fields_data(event, _left_out(event))


# --- reading --------------------------------------------------------------------------------


def _pairings(value: list[dict[str, Any]]) -> tuple[PairingEntry, ...]:
    return tuple(
        PairingEntry(
            table=p.get("table", n),
            player1=p["player1"],
            player2=p["player2"],
            match=p.get("match"),
            match_version=p.get("match_version"),  # missing: not recorded (an old stream)
            slot=p.get("slot"),
        )
        for n, p in enumerate(value, start=1)
    )


def _reader(hint: Any) -> Any:
    """How a stored JSON value reads back as a field of type `hint`."""
    if hint is bool:
        return bool
    if hint == tuple[PairingEntry, ...]:
        return _pairings
    if hint == tuple[int, int]:  # a pair of players: low id first
        return lambda v: tuple(sorted(v))
    if hint == tuple[tuple[int, int], ...]:
        return lambda v: tuple(tuple(sorted(p)) for p in v or ())
    if typing.get_origin(hint) is tuple:
        return lambda v: tuple(v or ())
    if hint == dict[str, Any]:
        return lambda v: dict(v or {})
    if hint == ResultEntry | None:
        return lambda v: result_from_data(v) if v is not None else None
    if isinstance(hint, types.UnionType) or hint in (int, str, float, typing.Any):
        return lambda v: v
    raise TypeError(f"no reader for {hint!r}")  # a new field type: say how it reads back


@functools.cache
def _readers(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    fields = [f.name for f in dataclasses.fields(cls) if f.name not in _COMMON]
    return {name: _reader(hints[name]) for name in fields}


def _from_fields(cls: type, data: dict[str, Any], **extra: Any) -> Any:
    readers = _readers(cls)
    values = {name: read(data[name]) for name, read in readers.items() if name in data}
    values.update(extra)
    return cls(**values)


def result_from_data(d: dict[str, Any]) -> ResultEntry:
    r: ResultEntry = _from_fields(ResultEntry, d)
    return r if r.result is not None else dataclasses.replace(r, result="")


# Older shapes: what a missing key meant when it was written, where that is not the field's
# default (data in, data out; the stored rows keep their shape and their hashes).
_UPCASTERS: dict[str, Any] = {
    "RoundCompleted": lambda d: {"round": 0, **d},
}


def event_from_stored(
    type_: str, data: dict[str, Any], at: dt.datetime | None = None
) -> TournamentEvent:
    """The typed event of a stored one (older shapes upcast: missing keys take the values
    the code of their time implied)."""
    who = data.get("by")
    common = {
        "by": who.get("id") if isinstance(who, dict) else None,
        "at": at,
        "reason": data.get("reason") or "",
    }
    cls = _CLASSES.get(type_)
    if cls is None:
        return Noted(type=type_, data=data, **common)
    upcast = _UPCASTERS.get(type_)
    d = upcast(data) if upcast else data
    if cls is ResultRecorded:
        return ResultRecorded(result=result_from_data(d), **common)
    if cls is RoundPaired:
        common["repaired"] = type_ == "RoundRepaired"
    event: TournamentEvent = _from_fields(cls, d, **common)
    return event
