"""The events an audit shows: the stored ones beside those `selectors.match_events_for`
gives this viewer, each with its actor's name and, where shown in full, its hash."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

import eventstore
from core.errors import ConflictError
from games.engine.view import hands_over
from games.models import Match
from games.selectors import (
    User,
    match_events_for,
)
from players.models import Player

# Who is named in an event's metadata: who acted; for a table hand entered by a player on
# their phone, who entered it and who confirmed it.
_PEOPLE_KEYS = ("actor", "entered_by", "confirmed_by")


def _actor_names(
    match: Match, recorded: list[eventstore.RecordedEvent], *, logins: bool = True
) -> dict[str, str]:
    """Each actor of the stream's metadata ("player:<id>", "user:<id>", "system") by name:
    a user by their player's name, else (only with `logins`: for the match's players and
    organisers) their username; for anyone else "an organiser", as the tournament events
    show the public no organiser's login."""
    players: set[int] = set()
    users: set[int] = set()
    for e in recorded:
        for key in _PEOPLE_KEYS:
            kind, _, pk = str(e.metadata.get(key, "")).partition(":")
            if pk.isdigit():
                (players if kind == "player" else users).add(int(pk))
    names = {"system": "the server"}
    for pid, name in Player.objects.filter(pk__in=players).values_list("pk", "name"):
        names[f"player:{pid}"] = name
    by_user = dict(Player.objects.filter(user_id__in=users).values_list("user_id", "name"))
    for uid, username in (
        get_user_model().objects.filter(pk__in=users).values_list("pk", "username")
    ):
        names[f"user:{uid}"] = by_user.get(uid) or (username if logins else "an organiser")
    return names


def _shown_events(
    match: Match, user: User | None, *, public: bool = False
) -> tuple[list[eventstore.RecordedEvent], list[dict[str, Any]], set[int]]:
    """The stored events, the same events as `match_events_for` gives this viewer (with
    `public`, a reader of a public match: the hands already over in full too; with no user,
    an operator's export of a finished match: everything, as every hand is over), and the
    hands whose deal it gave in full."""
    recorded = eventstore.load(stream_id=match.stream_id)
    if user is None:
        if match.status != Match.Status.FINISHED:
            raise ConflictError(
                "the match is in play: export it as one of its players or organisers",
                code="match_in_play",
            )
        public = True
        shown = [{"type": e.type, "data": e.data} for e in recorded]
    else:
        shown = match_events_for(match=match, user=user)
    if public:
        over = hands_over((e.type, e.data) for e in recorded)
        hand, revealed_shown = 0, []
        for stored, seen in zip(recorded, shown, strict=True):
            if stored.type == "HandDealt":
                hand = stored.data["hand_number"]
            revealed_shown.append({**seen, "data": stored.data} if hand in over else seen)
        shown = revealed_shown
    revealed = {
        e["data"]["hand_number"] for e in shown if e["type"] == "HandDealt" and "deck" in e["data"]
    }
    return recorded, shown, revealed


def _full_prefix(recorded: list[eventstore.RecordedEvent], shown: list[dict[str, Any]]) -> int:
    """The last version up to which every event is shown exactly as stored."""
    last = 0
    for stored, seen in zip(recorded, shown, strict=False):
        if seen["data"] != stored.data:
            break
        last = stored.version
    return last


def _name(actor: Any, names: dict[str, str]) -> str | None:
    return None if not actor else names.get(str(actor), str(actor))


def _event_entry(
    stored: eventstore.RecordedEvent, seen: dict[str, Any], names: dict[str, str], hashed: bool
) -> dict[str, Any]:
    actor = str(stored.metadata.get("actor", ""))
    data = seen["data"]
    if hashed and stored.personal:
        # As stored (the hash covers it): words kept outside the log by reference and
        # digest; the bundle's `texts` gives them (eventstore.personal).
        data = {**data, **stored.personal}
    return {
        "version": stored.version,
        "type": stored.type,
        "schema_version": stored.schema_version,
        "data": data,
        "metadata": stored.metadata if hashed else None,
        "recorded_at": eventstore.format_recorded_at(stored.recorded_at),
        "actor": actor,
        "actor_name": names.get(actor, actor),
        "entered_by": _name(stored.metadata.get("entered_by"), names),
        "confirmed_by": _name(stored.metadata.get("confirmed_by"), names),
        "full": seen["data"] == stored.data,
        "hash": stored.hash if hashed else None,
    }


def texts_of(stream_id: str, hashed: list[eventstore.RecordedEvent]) -> dict[str, Any]:
    """The texts the events shown in full refer to (none asked for when they hold none)."""
    wanted = {marker["$text"] for e in hashed if e.personal for marker in e.personal.values()}
    if not wanted:
        return {}
    kept = eventstore.personal_texts_of(stream_id=stream_id)
    return {str(pk): kept.get(pk, {"text": None, "salt": None}) for pk in sorted(wanted)}
