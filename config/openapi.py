"""The live streams in the OpenAPI schema. They are async Django views (games/streams.py,
tournaments/streams.py), not DRF views, so drf-spectacular does not find them by itself;
this postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]) describes them."""

from __future__ import annotations

import json
from typing import Any

from core.api import ERROR_CODES, ERROR_REASON_VALUES

ERROR_REF = {"$ref": "#/components/schemas/Error"}

_MESSAGES = (
    "Server-sent events (`text/event-stream`), open until the client leaves. Each stored"
    " event is a message `event: event` whose `id:` is its version in the stream and whose"
    " `data:` is one row of the matching `/events/` list as the caller may see it."
    " {extra}A comment line `: keep-alive` comes every 15 s when nothing else does."
    " Resume with `Last-Event-ID` (or `?after=N`): the stream starts after that version,"
    " from the event store, so nothing is lost; without either it starts at the beginning."
    " Served by the ASGI service only: a WSGI server answers 503 `stream_unavailable`."
)

_STREAMS: dict[str, dict[str, Any]] = {
    "/api/matches/{match_id}/stream/": {
        "operationId": "matches_stream_retrieve",
        "tag": "matches",
        "summary": "Follow a match live: its events and the caller's view",
        "extra": "After each batch of events, and once on connecting, a message `event: view`"
        " carries the caller's view, as `GET /api/matches/{id}/` answers it. ",
        "path": {
            "name": "match_id",
            "in": "path",
            "required": True,
            "schema": {"type": "string", "format": "uuid"},
            "description": "The match's id.",
        },
        "errors": (400, 401, 404, 429, 503),
        "anonymous": True,  # a public match: no sign-in needed
    },
    "/api/tournaments/{tournament_id}/stream/": {
        "operationId": "tournaments_stream_retrieve",
        "tag": "tournaments",
        "summary": "Follow a tournament live: pairings, results, standings, the round clock",
        "extra": "After each batch of events, and once on connecting, a message `event:"
        " standings` (no `id:`) carries `results` and `tiebreaks` as"
        " `GET /api/tournaments/{id}/standings/` answers them, the `version` they are as of"
        " and the round `clock` (round, status, starts_at, ends_at, seconds_left,"
        " next_round_at). ",
        "path": {
            "name": "tournament_id",
            "in": "path",
            "required": True,
            "schema": {"type": "integer"},
            "description": "The tournament's id.",
        },
        "errors": (400, 401, 404, 429, 503),
        "anonymous": True,
    },
    "/api/team-events/{event_id}/stream/": {
        "operationId": "team_events_stream_retrieve",
        "tag": "team-events",
        "summary": "Follow a team event live: teams, rounds, board results, team standings",
        "extra": "Its `data:` is {version, type, recorded_at, data} (players by id). After"
        " each batch of events, and once on connecting, a message `event: standings` (no"
        " `id:`) carries `results` as `GET /api/team-events/{id}/standings/` answers them,"
        " the current `round`'s team `matches` with their boards, the event's `status` and"
        " the `version` they are as of. ",
        "path": {
            "name": "event_id",
            "in": "path",
            "required": True,
            "schema": {"type": "integer"},
            "description": "The team event's id.",
        },
        "errors": (400, 401, 404, 429, 503),
        "anonymous": True,
    },
    "/api/tournaments/{tournament_id}/teams/stream/": {
        "operationId": "tournaments_teams_stream_retrieve",
        "tag": "tournaments",
        "summary": "Follow a team tournament live: its team event's stream",
        "extra": "The stream of the team event a team format's tournament owns, as"
        " `GET /api/team-events/{id}/stream/` sends it (404 `not_a_team_tournament` for a"
        " tournament of single players). ",
        "path": {
            "name": "tournament_id",
            "in": "path",
            "required": True,
            "schema": {"type": "integer"},
            "description": "The tournament's id.",
        },
        "errors": (400, 401, 404, 429, 503),
        "anonymous": True,
    },
}

_RESUME = [
    {
        "name": "Last-Event-ID",
        "in": "header",
        "required": False,
        "schema": {"type": "integer", "minimum": 0},
        "description": "The id of the last message received: the stream resumes after it"
        " (a browser's EventSource sends it by itself when it reconnects).",
    },
    {
        "name": "after",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 0},
        "description": "As Last-Event-ID, for clients that cannot set headers.",
    },
    {
        "name": "ticket",
        "in": "query",
        "required": False,
        "schema": {"type": "string"},
        "description": "A stream ticket from `POST /api/streams/ticket/` (for this stream,"
        " minutes): for a browser's EventSource, which cannot send `Authorization`.",
    },
]

_SSE_EXAMPLE = "id: 3\nevent: event\ndata: {...}\n\n: keep-alive\n\n"


def _operation(spec: dict[str, Any], security: list[dict[str, Any]]) -> dict[str, Any]:
    errors = {
        str(code): {
            "content": {"application/json": {"schema": ERROR_REF}},
            "description": f"Error codes: {ERROR_CODES[code]}",
        }
        for code in spec["errors"]
    }
    return {
        "operationId": spec["operationId"],
        "summary": spec["summary"],
        "description": _MESSAGES.format(extra=spec["extra"]),
        "parameters": [spec["path"], *_RESUME],
        "tags": [spec["tag"]],
        "security": [*security, {}] if spec["anonymous"] else security,
        "responses": {
            "200": {
                "content": {
                    "text/event-stream": {
                        "schema": {"type": "string"},
                        "example": _SSE_EXAMPLE,
                    }
                },
                "description": "The stream of messages (server-sent events).",
            },
            **errors,
        },
    }


# What any operation can answer, whatever it is: a caller not signed in (or a bad token),
# a refusal, a throttle, the database lost; with path parameters, a 404; with a query, a
# refused parameter; with a body, a refused body.
_ANY = (401, 403, 429, 503)
_WITH_BODY = (400, 413, 415)


def _error_response(code: int) -> dict[str, Any]:
    return {
        "content": {"application/json": {"schema": ERROR_REF}},
        "description": f"Error codes: {ERROR_CODES[code]}",
    }


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular postprocessing hook: every status an operation can answer is
    declared, each with the error object (`#/components/schemas/Error`)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["ErrorReasonEnum"] = {"type": "string", "enum": list(ERROR_REASON_VALUES)}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            wanted = set(_ANY)
            parameters = operation.get("parameters", [])
            if "{" in path:
                wanted.add(404)
            if any(p.get("in") == "query" for p in parameters):
                wanted.add(400)
            if "requestBody" in operation:
                wanted.update(_WITH_BODY)
            responses = operation["responses"]
            for code in sorted(wanted):
                responses.setdefault(str(code), _error_response(code))
            for code, response in responses.items():
                headers = response.setdefault("headers", {})
                headers.update(RATE_LIMIT_HEADERS)
                if code in ("429", "503"):
                    headers["Retry-After"] = _RETRY_AFTER
    return result


def _header(description: str) -> dict[str, Any]:
    return {"schema": {"type": "integer", "minimum": 0}, "description": description}


# Sent when a throttle counted the request (anonymous callers, logins; signed-in callers
# where THROTTLE_USER is set): the tightest of them (core.throttles).
RATE_LIMIT_HEADERS = {
    "X-RateLimit-Limit": _header("Requests allowed in the throttle's window."),
    "X-RateLimit-Remaining": _header("Requests left in the window."),
    "X-RateLimit-Reset": _header("Seconds until one more request is allowed."),
}
_RETRY_AFTER = _header("Seconds to wait before retrying.")


def add_live_streams(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular postprocessing hook: the two stream endpoints, each next to the
    `/events/` list it follows (same tag, same security)."""
    paths = result.setdefault("paths", {})
    security = [{"tokenAuth": []}, {"cookieAuth": []}]
    for path, spec in _STREAMS.items():
        events = paths.get(path.replace("/stream/", "/events/"), {}).get("get", {})
        known = [s for s in events.get("security", security) if s]
        paths[path] = {"get": _operation(spec, known or security)}
    return result


def request_defaults_as_text(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict:
    """drf-spectacular postprocessing hook: a request body's optional field has no
    `default` in the schema (its description says what the server takes when it is left
    out). Generators read a default as a value to send: openapi-python-client sent the
    `""` of an e-mail whose own `minLength` is 1 (a 400), and openapi-typescript's default
    mode makes every field with a default required. Left out, the server still applies it."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        if not name.endswith("Request"):
            continue
        for field in (schema.get("properties") or {}).values():
            if "default" not in field:
                continue
            default = field.pop("default")
            note = "Optional." if default == "" else f"Left out: `{json.dumps(default)}`."
            field["description"] = (
                f"{field['description']} {note}" if field.get("description") else note
            )
    return result
