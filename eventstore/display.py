"""How the admin shows the streams of the apps that write them. The store knows no app: an
app registers, for the streams whose ids start with its prefix (e.g. "match-"), a label
(a stream id -> a short name) and a link for an event (stream id, version -> (url, text)),
and for the actors of its events' metadata ("<kind>:<id>", e.g. "player:4") a name. What
is not registered is shown as stored; a user ("user:<id>") by their username."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model

StreamLabel = Callable[[str], str]
EventLink = Callable[[str, int], "tuple[str, str] | None"]
ActorName = Callable[[str], "str | None"]


@dataclass(frozen=True)
class _StreamDisplay:
    label: StreamLabel | None
    event_link: EventLink | None


_streams: dict[str, _StreamDisplay] = {}
_actors: dict[str, ActorName] = {}


def stream_display_register(
    *, prefix: str, label: StreamLabel | None = None, event_link: EventLink | None = None
) -> None:
    """Show the streams whose ids start with `prefix` with `label(stream_id)` (a short
    name, "" for none) and, beside each event, `event_link(stream_id, version)`: (url,
    text) or None. Registering a prefix again replaces what it had."""
    _streams[prefix] = _StreamDisplay(label, event_link)


def actor_display_register(*, kind: str, name: ActorName) -> None:
    """Name the actors "<kind>:<id>" of the events' metadata by `name(id)` (None: unknown,
    shown as stored)."""
    _actors[kind] = name


def _display_for(stream_id: str) -> _StreamDisplay | None:
    for prefix, display in _streams.items():
        if stream_id.startswith(prefix):
            return display
    return None


def stream_label(stream_id: str) -> str:
    """The short name an app gave the stream; "" when none did."""
    display = _display_for(stream_id)
    return display.label(stream_id) if display is not None and display.label else ""


def event_link(stream_id: str, version: int) -> tuple[str, str] | None:
    """(url, text) of the page that shows the event, where its app gives one."""
    display = _display_for(stream_id)
    if display is None or display.event_link is None:
        return None
    return display.event_link(stream_id, version)


def actor_name(actor: str) -> str:
    """ "user:7" -> the user's username, "<kind>:<id>" -> the name its app gives it, else
    as stored ("—" for no actor)."""
    kind, _, pk = actor.partition(":")
    if not pk.isdigit():
        return actor or "—"
    if kind in _actors:
        return _actors[kind](pk) or actor
    if kind == "user":
        user = get_user_model().objects.filter(pk=pk).first()
        return user.get_username() if user is not None else actor
    return actor
