"""Reading an export's lines and appending its events (tournaments.services.imports): each
line checked as it is read, every event appended through the event store with the time it
was first recorded at, so that each stream's hash chain comes out exactly as exported
(checked event by event); a line that is not an export's, or a hash that does not come out
the same, refuses the whole import."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator
from typing import Any

from django.utils.translation import gettext_noop

import eventstore
from core.errors import ApplicationError

_BATCH = 500  # events appended at a time (one stream, one recorded_at)


class TournamentImportError(ApplicationError):
    code = "import_refused"
    status = 400


def next_line(lines: Iterator[str], number: int) -> dict[str, Any]:
    try:
        text = next(lines)
    except StopIteration:
        raise TournamentImportError(
            "the file ends early (no end line): it was cut short", code="truncated"
        ) from None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise TournamentImportError(
            gettext_noop("line %(line)s is not JSON: %(error)s"),
            code="bad_line",
            params={"line": number, "error": exc},
        ) from exc
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        raise TournamentImportError(
            gettext_noop("line %(line)s is not an export line"),
            code="bad_line",
            params={"line": number},
        )
    return value


def append_events(
    lines: Iterator[str],
    streams: dict[str, int],
    progress: Callable[[int], None] | None,
    firsts: dict[str, dict[str, Any]],
) -> int:
    """Append every event line through the store, as recorded first; the `end` line closes.
    Each stream's first event is kept in `firsts` (what it names is checked: `_Links`)."""
    batch: list[dict[str, Any]] = []
    heads: dict[str, str] = {}  # stream id -> the hash of its last event appended
    versions: dict[str, int] = {}  # stream id -> the version of its last event read
    count, number = 0, 1
    while True:
        number += 1
        line = next_line(lines, number)
        if line["kind"] == "end":
            break
        if line["kind"] != "event":
            raise TournamentImportError(
                gettext_noop("line %(line)s: unexpected %(kind)r"),
                code="bad_line",
                params={"line": number, "kind": line["kind"]},
            )
        event = _event(line, number, streams)
        expected = versions.get(event["stream_id"], 0) + 1
        if event["version"] != expected:
            raise TournamentImportError(
                gettext_noop(
                    "line %(line)s: stream %(stream)s version %(version)s where %(expected)s"
                    " comes next"
                ),
                code="bad_sequence",
                params={
                    "line": number,
                    "stream": event["stream_id"],
                    "version": event["version"],
                    "expected": expected,
                },
            )
        versions[event["stream_id"]] = event["version"]
        if event["version"] == 1:
            firsts[event["stream_id"]] = event
        if batch and not _same_append(batch[-1], event):
            _append(batch, heads)
            batch = []
        batch.append(event)
        count += 1
        if len(batch) >= _BATCH:
            _append(batch, heads)
            batch = []
        if progress is not None:
            progress(1)
    if batch:
        _append(batch, heads)
    if line.get("events") != count:
        raise TournamentImportError(
            gettext_noop("the end line counts %(counted)r events, the file holds %(count)s"),
            code="truncated",
            params={"counted": line.get("events"), "count": count},
        )
    for stream_id, version in streams.items():
        if eventstore.stream_version(stream_id=stream_id) != version:
            raise TournamentImportError(
                gettext_noop(
                    "stream %(stream)s should end at version %(version)s: events are missing"
                ),
                code="truncated",
                params={"stream": stream_id, "version": version},
            )
    return count


def _event(line: dict[str, Any], number: int, streams: dict[str, int]) -> dict[str, Any]:
    try:
        event = {
            "stream_id": str(line["stream_id"]),
            "version": int(line["version"]),
            "type": str(line["type"]),
            "schema_version": int(line["schema_version"]),
            "data": line["data"],
            "metadata": line["metadata"],
            "recorded_at": _instant(line["recorded_at"]),
            "hash": str(line["hash"]),
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise TournamentImportError(
            gettext_noop("line %(line)s: a malformed event (%(error)s)"),
            code="bad_event",
            params={"line": number, "error": exc},
        ) from exc
    if event["stream_id"] not in streams:
        # Only the streams the header names, all of them checked empty here beforehand.
        raise TournamentImportError(
            gettext_noop("line %(line)s: stream %(stream)s is not in the header"),
            code="bad_event",
            params={"line": number, "stream": event["stream_id"]},
        )
    event["line"] = number
    return event


def _instant(text: Any) -> dt.datetime:
    value = dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if value.tzinfo is None:
        raise ValueError("recorded_at without a time zone")
    return value.astimezone(dt.UTC)


def _same_append(before: dict[str, Any], event: dict[str, Any]) -> bool:
    return (
        before["stream_id"] == event["stream_id"]
        and before["recorded_at"] == event["recorded_at"]
        and before["version"] + 1 == event["version"]
    )


def _append(batch: list[dict[str, Any]], heads: dict[str, str]) -> None:
    first = batch[0]
    try:
        recorded = eventstore.append(
            # The head's hash as this import appended it: on PostgreSQL one round trip per
            # append instead of four (a bot's match is an append per event). A concurrent
            # writer of these new streams still cannot fork them: the store's unique index
            # refuses it (ConcurrencyError, below).
            head_hash=heads.get(first["stream_id"], eventstore.GENESIS_HASH),
            stream_id=first["stream_id"],
            expected_version=first["version"] - 1,
            events=[
                eventstore.NewEvent(
                    type=e["type"],
                    data=e["data"],
                    metadata=e["metadata"],
                    schema_version=e["schema_version"],
                )
                for e in batch
            ],
            recorded_at=first["recorded_at"],
        )
    except eventstore.ConcurrencyError as exc:
        raise TournamentImportError(
            gettext_noop(
                "line %(line)s: stream %(stream)s version %(version)s does not follow the one"
                " before (at %(current)s)"
            ),
            code="bad_sequence",
            params={
                "line": first["line"],
                "stream": first["stream_id"],
                "version": first["version"],
                "current": exc.current_version,
            },
        ) from exc
    except eventstore.InvalidEventError as exc:
        raise TournamentImportError(
            gettext_noop("line %(line)s: %(error)s"),
            code="bad_event",
            params={"line": first["line"], "error": exc},
        ) from exc
    heads[first["stream_id"]] = recorded[-1].hash
    for event, stored in zip(batch, recorded, strict=True):
        if stored.hash != event["hash"]:
            raise TournamentImportError(
                gettext_noop(
                    "line %(line)s: stream %(stream)s version %(version)s does not hash to the"
                    " exported hash: the file was altered"
                ),
                code="hash_mismatch",
                params={
                    "line": event["line"],
                    "stream": event["stream_id"],
                    "version": event["version"],
                },
            )
