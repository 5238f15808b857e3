"""The audit bundle: every event with its hash where shown in full, the commitments of the
hands and the encodings, for `tools/verify_match.py`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser

import eventstore
from core.errors import PermissionDeniedError
from games.audit.access import match_bundle_allowed, match_may_audit
from games.audit.events import (
    _actor_names,
    _event_entry,
    _full_prefix,
    _shown_events,
    texts_of,
)
from games.models import Match
from games.selectors import (
    User,
    match_has_preset_deals,
    match_view_for,
)

BUNDLE_FORMAT = "hollywood-gin-audit-bundle/1"

# The two encodings, word for word as README.md documents them; the bundle carries them so
# a reader needs nothing else.
ENCODINGS = {
    "canonical_json": "JSON with object keys sorted by code point, no whitespace (separators"
    " ',' and ':'), non-ASCII characters written as themselves (UTF-8), no NaN/Infinity;"
    " integers in decimal.",
    "event_hash": "sha256 hex of the UTF-8 bytes of canonical_json({stream_id, version, type,"
    " schema_version, data, metadata, recorded_at, prev}); recorded_at is UTC formatted"
    " %Y-%m-%dT%H:%M:%S.%fZ (6 fraction digits); prev is the previous event's hash in the"
    " same stream, the empty string for version 1.",
    "commitment": "sha256 hex of the ASCII bytes of the compact sorted-key JSON"
    ' {"deck": [52 card codes, top first], "salt": "..."} (separators "," and ":",'
    " non-ASCII escaped as \\uXXXX), published in HandDealt before the hand is played.",
}


def match_bundle(*, match: Match, user: User | None) -> dict[str, Any]:
    """The audit bundle: every event with its position in the stream and, where the viewer
    may see it in full, its metadata and hash; the commitments of the hands (with deck and
    salt where revealed); the encodings. For `match_bundle_allowed` (the match's players,
    organisers and staff; anyone for a finished public match). With no user (an operator's
    `manage.py export_match`): a finished match only, in full."""
    if user is not None and not match_bundle_allowed(user=user, match=match):
        raise PermissionDeniedError(
            "only the match's players and organisers may download its audit bundle"
            " (anyone may once a match of a public tournament is finished)",
            code="bundle_forbidden",
        )
    public = user is not None and not match_may_audit(user=user, match=match)
    recorded, shown, _ = _shown_events(match, user, public=public)
    hashed_to = _full_prefix(recorded, shown)
    names = _actor_names(match, recorded, logins=not public)
    events = [
        _event_entry(stored, seen, names, stored.version <= hashed_to)
        for stored, seen in zip(recorded, shown, strict=False)
    ]
    commitments = []
    for e in events:
        if e["type"] == "HandDealt":
            data = e["data"]
            commitments.append(
                {
                    "hand_number": data["hand_number"],
                    "version": e["version"],
                    "commitment": data["commitment"],
                    "deck": data.get("deck"),
                    "salt": data.get("salt"),
                }
            )
    view = match_view_for(match=match, user=user if user is not None else AnonymousUser())
    return {
        "format": BUNDLE_FORMAT,
        "match": {
            "id": str(match.id),
            "stream_id": match.stream_id,
            "label": match.label,
            "status": match.status,
            "players": view["players"],
            "ruleset": view["ruleset"],
            "version": len(recorded),
        },
        # An organiser chose the deals (a seed or decks): not a fair random deal.
        "preset_deals": match_has_preset_deals(match=match),
        "encodings": ENCODINGS,
        "hashed_to": hashed_to,
        "head_hash": recorded[hashed_to - 1].hash if hashed_to else "",
        "events": events,
        # Words kept outside the log, by id: {"text", "salt"}, both None once erased (issue
        # 34); and the sealed records of events whose personal data was erased later.
        "texts": texts_of(match.stream_id, recorded[:hashed_to]),
        "redactions": eventstore.redaction_entries(stream_id=match.stream_id),
        "commitments": commitments,
        "hands": view["hands"],
        "scoresheet": view["scoresheet"],
    }
