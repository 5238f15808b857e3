"""The stored tournament events' `data` in the OpenAPI schema, derived from the domain's
dataclasses (tournaments.domain.events) by the rules the store writes them with
(tournaments.domain.stored): a field per key, without the keys every event shares; a
ResultRecorded's data are its result's fields; RoundRepaired is RoundPaired with the
re-pairing's keys. A new event type or field is in the schema the moment it is in the
domain: nothing here lists them.

What the dataclasses cannot say (that an int is a player's id, that a string is a time or
one of a few values) is said by field name below, once for every event that has it."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from tournaments.domain import events as ev
from tournaments.domain.stored import COMMON_KEYS, stored_class
from tournaments.models import Tournament
from tournaments.pairing.standings import BYE_BUCHHOLZ, BYE_POINTS

_PLAYER = {"type": "integer", "description": "A player's id."}
_TIME = {"type": "string", "format": "date-time", "description": "ISO 8601, UTC."}
_UUID = {"type": "string", "format": "uuid"}

# By field name, for every event (and part) that has the field.
_BY_NAME: dict[str, dict[str, Any]] = {
    "player": _PLAYER,
    "player1": _PLAYER,
    "player2": {**_PLAYER, "description": "A player's id (null: a bye)."},
    "winner": {**_PLAYER, "description": "The winner's id."},
    "players": {"type": "array", "items": _PLAYER, "minItems": 2, "maxItems": 2},
    "organisers": {
        "type": "array",
        "items": {"type": "integer"},
        "description": "User ids: for the tournament's organisers and staff only.",
    },
    "seeds": {"type": "array", "items": _PLAYER, "description": "Seed 1 first."},
    "match": {**_UUID, "description": "The match's id (null: a bye, or not made)."},
    "replaced": {"type": "array", "items": _UUID, "description": "The cancelled matches."},
    "starts_at": _TIME,
    "deadline": _TIME,
    "previous": _TIME,
    "started_at": _TIME,
    "round_starts": {"type": "array", "items": _TIME},
    "round_interval": {"type": "number", "description": "Seconds."},
    "round_duration": {"type": "number", "description": "Seconds."},
    "turn_time": {"type": "number", "description": "Seconds."},
    "dispute_window": {"type": "number", "description": "Seconds."},
    "match_version": {
        "type": "integer",
        "description": "The match's version when paired (a higher one: play began).",
    },
    "slot": {
        "type": "string",
        "description": "Double elimination: the bracket's match (W1-1, L2-3, GF1).",
    },
    "by_hand": {"type": "boolean", "description": "The organiser set the pairs."},
    "forbidden_met": {
        "type": "array",
        "items": {"type": "array", "items": _PLAYER, "minItems": 2, "maxItems": 2},
        "description": "Forbidden pairs no valid pairing could keep apart.",
    },
    "confirmed": {
        "type": "array",
        "items": {"type": "object", "additionalProperties": True},
        "description": "Hand-set pairs kept although they repeat or break a pair.",
    },
    "top_cut": {"description": "A top cut: its size (created), its seeds (paired)."},
    "lots": {"type": "array", "items": _PLAYER, "description": "The draw of lots used."},
    "changes": {
        "type": "object",
        "description": 'Per setting changed: `{"old", "new"}`.',
        "additionalProperties": {"type": "object", "properties": {"old": {}, "new": {}}},
    },
    "before": {"description": "The result before (its fields as ResultRecorded's)."},
    "after": {"description": "null: the match is back in play."},
}


# The keys the repository adds to every event's data (tournaments.domain.stored COMMON_KEYS
# but `at`, which is the row's time): as the events API shows them.
_SHARED = {
    "by": {
        "type": "object",
        "nullable": True,
        "additionalProperties": True,
        "description": "Who decided, as the event's `by` (null: the scheduler).",
    },
    "reason": {"type": "string", "description": "The reason given, if any."},
}


def _enums() -> dict[str, list[Any]]:
    return {
        "format": list(Tournament.Format.values),
        "play_mode": list(Tournament.PlayMode.values),
        "bye_points": list(BYE_POINTS),
        "bye_buchholz": list(BYE_BUCHHOLZ),
        "result": ["", "played", "forfeit", "bye"],
    }


def _of_type(hint: Any) -> dict[str, Any]:
    """The JSON schema of a value of type `hint` as the store writes it."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        schema = _of_type(inner[0]) if len(inner) == 1 else {}
        return {**schema, "nullable": True}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _of_type(args[0])}
        return {"type": "array", "items": _of_type(args[0]), "minItems": len(args),
                "maxItems": len(args)}  # fmt: skip
    if origin is dict or hint is dict:
        return {"type": "object", "additionalProperties": True}
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _object_of(hint)
    simple = {bool: "boolean", int: "integer", str: "string", float: "number"}
    return {"type": simple[hint]} if hint in simple else {}


def _field(name: str, hint: Any, enums: dict[str, list[Any]]) -> dict[str, Any]:
    schema = _of_type(hint)
    named = _BY_NAME.get(name, {})
    if "type" in named or "items" in named:
        schema = {**dict(named), **({"nullable": True} if schema.get("nullable") else {})}
    elif "description" in named:
        schema["description"] = named["description"]
    if name in enums and schema.get("type") == "string":
        schema["enum"] = enums[name] + ([None] if schema.get("nullable") else [])
    return schema


def _object_of(cls: type, leave_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    hints, enums = typing.get_type_hints(cls), _enums()
    properties: dict[str, Any] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):
        if f.name in COMMON_KEYS or f.name in leave_out:
            continue
        properties[f.name] = _field(f.name, hints[f.name], enums)
        no_default = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if no_default:  # a key left out of some events (stored.py) always has a default
            required.append(f.name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:  # OpenAPI 3.0: `required`, when there, names at least one field
        schema["required"] = required
    doc = (cls.__doc__ or "").strip()
    if doc and not doc.startswith(f"{cls.__name__}("):
        schema["description"] = " ".join(doc.split())
    return schema


def tournament_event_data(type_name: str) -> dict[str, Any]:
    """The schema of a stored tournament event's `data`, by its stored type."""
    cls = stored_class(type_name)
    if cls is ev.ResultRecorded:
        schema = _object_of(ev.ResultEntry)
    else:
        leave_out = {"repaired"}
        if cls is ev.RoundPaired and type_name == "RoundPaired":
            leave_out |= {"replaced", "by_hand"}  # a first pairing stores neither
        schema = _object_of(cls, frozenset(leave_out))
    schema["properties"].update(_SHARED)
    return schema


def tournament_events_data() -> dict[str, dict[str, Any]]:
    """Every stored tournament event type's `data` schema, in the domain's order."""
    return {name: tournament_event_data(name) for name in ev.EVENT_TYPES}
