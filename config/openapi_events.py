"""Typed events in the OpenAPI schema: the events lists' and streams' `data` as a `oneOf`
with a discriminator on the event's `type`, each stored type described as a caller of the
API sees it (players by id, hidden cards left out or null), and the webhook payload.

Match events are derived from the engine's dataclasses (games.engine.events) with the
rules the events API applies when it renders them (games.selectors `seats_as_players`,
`_event_data_for`: PLAYER_KEYS, PER_PLAYER_KEYS); tournament events from theirs
(config.openapi_tournament_events). A postprocessing hook (`add_typed_events`) puts them in."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from config.openapi_tournament_events import tournament_events_data
from games.engine import events as match_events
from games.selectors.views import PER_PLAYER_KEYS, PLAYER_KEYS

# What a caller may not see of a hand in play: left out (a deal's deck and salt) or null
# (a card drawn from the stock by the opponent).
HIDDEN_FIELDS = {"HandDealt": ("deck", "salt")}
NULLABLE_FIELDS = {"CardDrawn": ("card",)}

_CARD = {"type": "string", "pattern": "^[A2-9TJQK][CDHS]$", "description": "A card code."}
_PLAYER = {"type": "integer", "description": "A player's id."}
_SEAT = {"type": "integer", "enum": [0, 1], "description": "The seat (player1 sits at 0)."}
_BY_PLAYER = {
    "type": "object",
    "additionalProperties": {"type": "integer"},
    "description": "By player id (as a string).",
}
# A table hand's entry before and after a correction (HandCorrected), players by id.
_ENTRY = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["gin", "knock", "undercut", "drawn"]},
        "drawn": {"type": "boolean"},
        "knocker": {**_PLAYER, "nullable": True},
        "gin": {"type": "boolean", "nullable": True},
        "knocker_deadwood": {"type": "integer", "nullable": True},
        "defender_deadwood": {"type": "integer", "nullable": True},
        "winner": {**_PLAYER, "nullable": True},
        "points": {"type": "integer", "nullable": True},
    },
}
_ENUMS = {
    ("CardDrawn", "source"): ["stock", "discard"],
    ("HandScored", "kind"): ["gin", "knock", "undercut"],
    ("MatchStarted", "mode"): ["online", "table"],
    ("MatchFinished", "reason"): ["games", "forfeit", "resigned"],
    ("MatchReopened", "reason"): ["correction", "void"],
    ("DisputeResolved", "outcome"): ["ruled", "dismissed"],
}


def _of_type(hint: Any) -> dict[str, Any]:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return {**_of_type(inner[0]), "nullable": True}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is str:
        return {"type": "string"}
    if origin is list:
        return {"type": "array", "items": _of_type(args[0]) if args else {}}
    if origin is dict:
        return {"type": "object", "additionalProperties": True}
    return {}


def _field(event: str, name: str, hint: Any) -> dict[str, Any]:
    if name in PLAYER_KEYS:
        return {**_PLAYER, "nullable": True} if name != "first_dealer" else dict(_PLAYER)
    if name in PER_PLAYER_KEYS and typing.get_origin(hint) is list:
        return dict(_BY_PLAYER)
    if name in ("before", "after") and event == "HandCorrected":
        return dict(_ENTRY)
    if name == "seat":
        return dict(_SEAT)
    schema = _of_type(hint)
    if (event, name) in _ENUMS:
        schema["enum"] = _ENUMS[(event, name)]
    if name in ("card", "discard", "deck", "deadwood") or name == "melds":
        schema = _cards(schema)
    if name in NULLABLE_FIELDS.get(event, ()):
        schema["nullable"] = True
    return schema


def _cards(schema: dict[str, Any]) -> dict[str, Any]:
    """A card, a list of cards or a list of melds (lists of cards), as card codes."""
    if schema.get("type") == "string":
        return {**_CARD, **({"nullable": True} if schema.get("nullable") else {})}
    if schema.get("type") == "array":
        return {**schema, "items": _cards(schema["items"])}
    return schema


def match_event_data(name: str, cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    properties, required = {}, []
    for f in dataclasses.fields(cls):
        properties[f.name] = _field(name, f.name, hints[f.name])
        if f.name not in HIDDEN_FIELDS.get(name, ()):
            required.append(f.name)
    if "seat" in properties:
        properties["player"] = {**_PLAYER, "description": "The player at `seat`."}
        required.append("player")
    doc = (cls.__doc__ or "").strip()
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
    if doc and not doc.startswith(f"{name}("):
        schema["description"] = " ".join(doc.split())
    if name in HIDDEN_FIELDS:
        hidden = ", ".join(f"`{k}`" for k in HIDDEN_FIELDS[name])
        schema["description"] = (
            f"{hidden}: left out while the hand is in play; once it is over, given to its"
            " players and organisers (and anyone, for a public tournament's match)."
        )
    return schema


def _object(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties}
    if required:  # OpenAPI 3.0: `required`, when there, names at least one field
        schema["required"] = list(required)
    return schema


# --- the components ----------------------------------------------------------------------


def _envelope(
    type_name: str, data_ref: str, base: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    properties = dict(base.get("properties", {}))
    properties["type"] = {"type": "string", "enum": [type_name]}
    properties["data"] = {"$ref": data_ref}
    return {"type": "object", "properties": properties, "required": required}


def _one_of(kinds: dict[str, str]) -> dict[str, Any]:
    """`kinds`: event type -> component name of its envelope."""
    refs = {t: f"#/components/schemas/{c}" for t, c in kinds.items()}
    return {
        "oneOf": [{"$ref": r} for r in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs},
    }


def add_typed_events(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular postprocessing hook: the `Event` (a match's events list) and
    `EventOutput` (a tournament's) components become a `oneOf` over the event types."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    _type_events(schemas, "Event", "Match", _match_data())
    _type_events(schemas, "EventOutput", "Tournament", tournament_events_data())
    schemas["WebhookPayload"] = _webhook_payload()
    schemas.setdefault("SignedCheckpoint", _signed_checkpoint())
    for name, schema in _stream_message_schemas().items():
        schemas.setdefault(name, schema)
    _describe_streams(result.get("paths", {}))
    _webhook_callback(result.get("paths", {}))
    return result


def _webhook_callback(paths: dict[str, Any]) -> None:
    """The deliveries a registered endpoint receives, as the registration's callback."""
    operation = paths.get("/api/tournaments/{tournament_id}/webhooks/", {}).get("post")
    if operation is None:
        return
    body = {"$ref": "#/components/schemas/WebhookPayload"}
    operation["callbacks"] = {
        "delivery": {
            "{$request.body#/url}": {
                "post": {
                    "summary": "One tournament event, signed (`X-HG-Signature`)",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": body}},
                    },
                    "responses": {"2XX": {"description": "Received: not sent again."}},
                }
            }
        }
    }


def _match_data() -> dict[str, dict[str, Any]]:
    return {name: match_event_data(name, cls) for name, cls in match_events.EVENT_TYPES.items()}


def _type_events(
    schemas: dict[str, Any], component: str, prefix: str, data: dict[str, dict[str, Any]]
) -> None:
    base = schemas.get(component)
    if base is None:
        return
    required = [r for r in base.get("required", []) if r != "type"] + ["type"]
    kinds = {}
    for type_name, data_schema in data.items():
        # Event types are unique across streams (a test says so): no prefix needed.
        data_name, envelope = f"{type_name}Data", f"{type_name}Event"
        schemas[data_name] = data_schema
        schemas[envelope] = _envelope(
            type_name, f"#/components/schemas/{data_name}", base, required
        )
        kinds[type_name] = envelope
    schemas[f"{prefix}EventType"] = {"type": "string", "enum": list(data)}
    schemas[component] = {
        **_one_of(kinds),
        "description": f"One event of a {prefix.lower()}'s stream: `type` says which, and"
        " so the shape of `data`.",
    }


def _webhook_payload() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "The body of a webhook delivery (a POST to the endpoint's `url`):"
        " one tournament event, as `/events/` shows it to the public. Headers:"
        " `X-HG-Signature` (`t=<unix time>,v1=<hex HMAC-SHA256 of t.body>`),"
        " `X-HG-Event-Id`, `X-HG-Event-Position`, `X-HG-Event-Type`, `X-HG-Tournament`,"
        " `X-HG-Delivery`, `X-HG-Attempt`.",
        "properties": {
            "event_id": {"type": "integer", "description": "Its id in the event store."},
            "position": {"type": "integer", "description": "Its version in the stream."},
            "tournament": {"type": "integer"},
            "type": {"$ref": "#/components/schemas/TournamentEventType"},
            "recorded_at": {"type": "string", "format": "date-time"},
            "by": {"allOf": [{"$ref": "#/components/schemas/DeciderOutput"}], "nullable": True},
            "reason": {"type": "string"},
            "data": {"type": "object", "additionalProperties": True},
            "anchors": {
                "type": "object",
                "description": "Outside anchors to keep: signed checkpoints (HMAC-SHA256"
                " under the install's chain key, which the database does not hold) of the"
                " tournament's stream at this event and of the heads of its finished"
                " matches. A history cut short or rewritten later no longer matches them:"
                " `manage.py verify_events --receipts FILE` (FILE: kept bodies) checks them.",
                "properties": {
                    "tournament": {
                        "allOf": [{"$ref": "#/components/schemas/SignedCheckpoint"}],
                        "nullable": True,
                    },
                    "matches": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/SignedCheckpoint"},
                    },
                },
                "required": ["tournament", "matches"],
            },
        },
        "required": [
            "event_id",
            "position",
            "tournament",
            "type",
            "recorded_at",
            "data",
            "anchors",
        ],
    }


def _signed_checkpoint() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "A stream had reached `version`, whose event's chain hash was `hash`,"
        " signed (`signature`) with the install's chain key at `created_at`.",
        "properties": {
            "stream_id": {"type": "string"},
            "version": {"type": "integer"},
            "hash": {"type": "string"},
            "signature": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
        },
        "required": ["stream_id", "version", "hash", "signature", "created_at"],
    }


_STREAM_MESSAGES = {
    "/api/matches/{match_id}/stream/": {
        "event": "Event", "view": "MatchView", "entry": "TableEntryMessage",
    },
    "/api/tournaments/{tournament_id}/stream/": {
        "event": "EventOutput", "standings": "StandingsMessage",
    },
    "/api/team-events/{event_id}/stream/": {
        "event": "TeamEventMessage", "standings": "TeamStandingsMessage",
    },
    "/api/tournaments/{tournament_id}/teams/stream/": {
        "event": "TeamEventMessage", "standings": "TeamStandingsMessage",
    },
}  # fmt: skip


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


def _stream_message_schemas() -> dict[str, dict[str, Any]]:
    """The `data:` of the stream messages that are no API answer of their own: a table's
    latest entry (games.streams.entry_message) and the standings with the round clock
    (tournaments.streams). tests/live/test_stream_schemas.py checks what is sent against
    them."""
    from games.models import TableEntry  # the apps are loaded when hooks run

    integer, string, boolean = {"type": "integer"}, {"type": "string"}, {"type": "boolean"}
    when = {"type": "string", "format": "date-time", "nullable": True}
    entry = _object(
        {
            "id": integer,
            "status": {"type": "string", "enum": list(TableEntry.Status.values)},
            "version": {**integer, "description": "The match version the entry was made at."},
            "entered_by": {**integer, "description": "The player who entered it."},
            "drawn": boolean,
            "knocker": _nullable(integer),
            "gin": boolean,
            "knocker_deadwood": _nullable(integer),
            "defender_deadwood": _nullable(integer),
            "note": string,
        },
        ("id", "status", "version", "entered_by", "drawn", "knocker", "gin",
         "knocker_deadwood", "defender_deadwood", "note"),
    )  # fmt: skip
    entry["description"] = (
        "A table's latest hand entry, sent when it changes (players by id); `null` when"
        " the table has none."
    )
    entry["nullable"] = True
    clock = _object(
        {
            "round": _nullable(integer),
            "status": _nullable(string),
            "starts_at": when,
            "ends_at": when,
            "seconds_left": _nullable(integer),
            "next_round_at": when,
        },
        ("round", "status", "starts_at", "ends_at", "seconds_left", "next_round_at"),
    )
    standings = _object(
        {
            "version": {**integer, "description": "The tournament's version they are as of."},
            "results": {"type": "array", "items": {"$ref": "#/components/schemas/StandingOutput"}},
            "tiebreaks": {"type": "array", "items": string},
            "clock": {"$ref": "#/components/schemas/RoundClock"},
        },
        ("version", "results", "tiebreaks", "clock"),
    )
    standings["description"] = (
        "The standings as `GET /api/tournaments/{id}/standings/` answers them, with the"
        " round clock; sent after each batch of events and once on connecting (no `id:`)."
    )
    team_event = _object(
        {
            "version": {**integer, "description": "Its version in the team event's stream."},
            "type": string,
            "recorded_at": {"type": "string", "format": "date-time"},
            "data": {"type": "object", "additionalProperties": True},
        },
        ("version", "type", "recorded_at", "data"),
    )
    team_event["description"] = (
        "One of a team event's events (players by id), as stored; the message's `id:` is"
        " its version."
    )
    team_standings = _object(
        {
            "version": {**integer, "description": "The team event's version they are as of."},
            "round": {**integer, "description": "The current round (0: none paired yet)."},
            "status": string,
            "results": {
                "type": "array", "items": {"$ref": "#/components/schemas/TeamStandingOutput"}
            },
            "matches": {
                "type": "array", "items": {"$ref": "#/components/schemas/TeamMatchOutput"}
            },
        },
        ("version", "round", "status", "results", "matches"),
    )  # fmt: skip
    team_standings["description"] = (
        "The team standings as `GET /api/team-events/{id}/standings/` answers them, and the"
        " current round's team matches with their boards; sent after each batch of events"
        " and once on connecting (no `id:`)."
    )
    return {
        "TableEntryMessage": entry,
        "RoundClock": clock,
        "StandingsMessage": standings,
        "TeamEventMessage": team_event,
        "TeamStandingsMessage": team_standings,
    }


def _describe_streams(paths: dict[str, Any]) -> None:
    """Each stream message's `data:` line, by its `event:` name, as `x-sse-messages`
    (a stream's body is text: its messages' JSON is described beside it)."""
    for path, messages in _STREAM_MESSAGES.items():
        operation = paths.get(path, {}).get("get")
        if operation is None:
            continue
        content = operation["responses"]["200"]["content"]["text/event-stream"]
        content["x-sse-messages"] = {
            name: {"$ref": f"#/components/schemas/{component}"}
            for name, component in messages.items()
        }
