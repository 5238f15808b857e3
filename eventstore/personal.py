"""Personal data out of the hashed log (issue 34; docs/operators/privacy.md).

Free text a person writes (a ruling's reason, a dispute's statement, a comment) is not put
in an event's hashed data. `append` stores it in `PersonalText` (its own table, beside a
random salt) and the event holds `{"$text": <row id>, "sha256": HMAC-SHA256(salt, text)}`
under the same key; the event's metadata lists those keys (`"personal": [...]`). Reading
puts the text back (`resolve`), so every reader sees the shape it always saw; a text that
was erased reads as "". Erasing (`personal_texts_erase`) deletes the text and its salt:
the event, its hash, its seal and every checkpoint stay valid, and with the salt gone a
guessed text can no longer be confirmed against the digest.

Old events that hold personal data in clear are redacted instead (eventstore.redaction).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from django.db.models import Q
from django.utils import timezone

from eventstore.models import PersonalText
from eventstore.records import NewEvent, RecordedEvent

__all__ = [
    "MARKER",
    "PERSONAL_KEY",
    "externalise",
    "personal_texts_by",
    "personal_texts_erase",
    "personal_texts_export",
    "personal_texts_import",
    "personal_texts_of",
    "resolve",
    "restore",
    "text_digest",
]

MARKER = "$text"  # the key of a reference to a PersonalText row, in place of the text
PERSONAL_KEY = "personal"  # metadata: the data keys that hold such a reference


def text_digest(salt: str, text: str) -> str:
    """HMAC-SHA256 of the UTF-8 text under the salt (hex): what the event holds."""
    return hmac.new(bytes.fromhex(salt), text.encode("utf-8"), hashlib.sha256).hexdigest()


def externalise(
    stream_id: str, events: Sequence[NewEvent]
) -> tuple[list[NewEvent], dict[int, dict[str, str]]]:
    """The events with their free text replaced by references (the texts stored, in the
    caller's transaction), and by event index the texts taken out (to put back in what the
    append returns). Empty texts stay in place: they hold nothing."""
    out: list[NewEvent] = []
    taken: dict[int, dict[str, str]] = {}
    for index, event in enumerate(events):
        data, texts = dict(event.data), {}
        for key in event.personal:
            value = data.get(key)
            if isinstance(value, str) and value:
                salt = secrets.token_hex(16)
                row = PersonalText.objects.create(
                    stream_id=stream_id, author=event.author, salt=salt, text=value
                )
                PersonalText.objects.filter(pk=row.pk).update(ref=row.pk)
                data[key] = {MARKER: row.pk, "sha256": text_digest(salt, value)}
                texts[key] = value
        if texts:
            metadata = {**event.metadata, PERSONAL_KEY: sorted(texts)}
            out.append(replace(event, data=data, metadata=metadata, personal=()))
            taken[index] = texts
        else:
            out.append(replace(event, personal=()) if event.personal else event)
    return out, taken


def restore(recorded: list[RecordedEvent], taken: dict[int, dict[str, str]]) -> list[RecordedEvent]:
    """What `append` returns: the texts it took out put back, as `resolve` reads them."""
    for index, texts in taken.items():
        event = recorded[index]
        markers = {key: event.data[key] for key in texts}
        recorded[index] = replace(event, data={**event.data, **texts}, personal=markers)
    return recorded


def resolve(events: list[RecordedEvent]) -> list[RecordedEvent]:
    """Each reference to a text replaced by the text ("" once erased), in place; one query
    for all of them, none when no event holds one (the moves of a game never do)."""
    flagged = [i for i, e in enumerate(events) if PERSONAL_KEY in e.metadata]
    if not flagged:
        return events
    ids = {
        marker[MARKER]
        for i in flagged
        for key in events[i].metadata[PERSONAL_KEY]
        if isinstance(marker := events[i].data.get(key), dict) and MARKER in marker
    }
    # By id and stream: an event imported from another install refers to its texts, which
    # did not come with it (tournaments.services.imports), never to this install's of the same id.
    streams = {events[i].stream_id for i in flagged}
    texts = {
        (ref, stream_id): text
        for ref, stream_id, text in PersonalText.objects.filter(
            stream_id__in=streams, ref__in=ids
        ).values_list("ref", "stream_id", "text")
    }
    for i in flagged:
        event = events[i]
        data, markers = dict(event.data), {}
        for key in event.metadata[PERSONAL_KEY]:
            marker = data.get(key)
            if isinstance(marker, dict) and MARKER in marker:
                markers[key] = marker
                data[key] = texts.get((marker[MARKER], event.stream_id)) or ""
        events[i] = replace(event, data=data, personal=markers)
    return events


def personal_texts_of(*, stream_id: str) -> dict[int, dict[str, Any]]:
    """The texts a stream's events refer to, by id: {"text", "salt"} (both None once erased):
    what an audit bundle hands over so that a reader can check each digest."""
    return {
        ref: {"text": text, "salt": salt}
        for ref, text, salt in PersonalText.objects.filter(stream_id=stream_id).values_list(
            "ref", "text", "salt"
        )
    }


def personal_texts_export(*, stream_ids: Iterable[str]) -> list[dict[str, Any]]:
    """The texts these streams' events refer to and still hold, for an export file: each
    with its stream, reference, salt and author (an import keeps them readable)."""
    return list(
        PersonalText.objects.filter(stream_id__in=list(stream_ids), erased_at__isnull=True)
        .order_by("pk")
        .values("stream_id", "ref", "text", "salt", "author")
    )


def personal_texts_import(*, texts: Iterable[dict[str, Any]]) -> int:
    """Store an export file's texts (`personal_texts_export`), in the caller's transaction;
    returns how many."""
    rows = [
        PersonalText(
            stream_id=str(t["stream_id"]),
            ref=int(t["ref"]),
            text=str(t["text"]),
            salt=str(t["salt"]),
            author=str(t.get("author") or ""),
        )
        for t in texts
    ]
    PersonalText.objects.bulk_create(rows)
    return len(rows)


def personal_texts_erase(
    *, authors: Iterable[str], containing: Iterable[str]
) -> tuple[int, set[str]]:
    """Erase (text and salt set to NULL) every text written by one of `authors` ("user:<id>",
    "player:<id>") or containing one of `containing` (case-insensitive). Returns how many,
    and the streams whose events referred to them (their snapshots and read models hold the
    text: rebuild them)."""
    query = Q(author__in=[a for a in authors if a])
    for term in containing:
        if term:
            query |= Q(text__icontains=term)
    rows = PersonalText.objects.filter(query, erased_at__isnull=True)
    streams = set(rows.values_list("stream_id", flat=True))
    return rows.update(text=None, salt=None, erased_at=timezone.now()), streams


def personal_texts_by(*, authors: Iterable[str]) -> list[dict[str, Any]]:
    """The texts these authors wrote that are still held: a person's own data (article 15)."""
    return list(
        PersonalText.objects.filter(author__in=list(authors), erased_at__isnull=True)
        .order_by("pk")
        .values("stream_id", "text", "created_at")
    )
