"""A match as a live stream (server-sent events), for clients that would otherwise poll.

`GET /api/matches/{id}/stream/`: the match's events as the events API shows them to the
caller (`games.selectors.match_events_for`: no hidden card while its hand is in play), each
as an `event` message whose id is its version, then the caller's fresh view of the match
(`match_view_for`, as GET /api/matches/{id}/ answers) as a `view` message after each batch.
The first batch is every event after `Last-Event-ID` (or `?after=`; default: from the
start) and always ends with a view. A table match's stream also sends its players and
organisers the table's latest entry (games/services/table_entries.py: a hand entered on a phone,
waiting for the opponent, disputed, rejected with the organiser's reason...) as an
`entry` message without an id (an entry is not an event), on connecting and whenever it
changes (the entry services NOTIFY the match's stream). Served by an async view under an
ASGI server (uvicorn), woken by the event store's NOTIFY (core.live). Who may follow:
whoever may read the match's events through the API (a signed-in user who may see it;
signed out, a public match).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

import eventstore
from core import live, live_fanout
from core.errors import NotFoundError
from games import selectors
from games.serializers import EventSerializer


def _batch(*, match_id: str, user: Any, after: int, with_view: bool) -> tuple[list[bytes], int]:
    """The messages after version `after` for this viewer, and the version they reach."""
    return _messages(selectors.match_followed(match_id=match_id), user, after, with_view)


def _messages(followed: Any, user: Any, after: int, with_view: bool) -> tuple[list[bytes], int]:
    """The messages after version `after` for this viewer from the match as read after a
    commit (`match_followed`, shared by every follower woken by it): the events as this
    viewer may see them, then this viewer's view."""
    match = followed.match
    events = selectors.match_events_for(
        match=match, user=user, after=after, as_players=True, recorded=followed.events
    )
    messages = [live.sse(EventSerializer(e).data, event="event", id=e["version"]) for e in events]
    if events or with_view:
        view = selectors.match_view_for(
            match=match,
            user=user,
            latest=(followed.state, followed.version),
            head_hash=followed.head_hash,
        )
        messages.append(live.sse(view, event="view"))
    return messages, events[-1]["version"] if events else after


def _sees_entries(match: Any, user: Any) -> bool:
    if not user.is_authenticated:
        return False
    seat = selectors.match_seat_for(user=user, match=match)
    return seat is not None or selectors.user_can_organise_match(user=user, match=match)


@require_GET
async def match_stream(request: HttpRequest, match_id: str) -> HttpResponse:
    after, user, refused = await live.opening(request)
    if refused is not None:
        return refused
    if not user.is_authenticated and not await live.db(
        lambda: selectors.match_id_is_public(match_id=match_id)
    ):
        # Signed out, only a public match (as the API's SignedInOrPublicMatch).
        return live.error(401, "not_authenticated", "Authentication credentials were not provided.")
    try:
        # Only a match the caller may see: a private tournament's is a 404 to strangers.
        match = await live.db(lambda: selectors.match_get(match_id=match_id, user=user))
    except NotFoundError:
        return live.error(404, "not_found", "no such match")
    match_id = str(match.pk)
    if match.mode == "table" and await live.db(lambda: _sees_entries(match, user)):
        return _table_follow(match=match, user=user, after=after)
    # One read per commit for every follower of the match in this process (both players,
    # spectators); the events and view made once per audience: each signed-in user is an
    # audience of their own (their seat, whether they organise it), the signed-out (who
    # may follow only a public match, as spectators) one audience.
    audience = ("user", user.pk) if user.is_authenticated else ("anonymous",)
    return live_fanout.follow_loaded(
        channel=eventstore.NOTIFY_CHANNEL,
        key=match.stream_id,
        after=after,
        load=lambda: selectors.match_followed(match_id=match_id),
        viewer=audience,
        audience=lambda _followed: audience,
        messages=lambda followed, version, first: _messages(followed, user, version, first),
    )


# -- a table match: its latest entry ------------------------------------------------------


def entry_message(entry: Any) -> dict[str, Any] | None:
    """The `entry` message's data: the table's latest entry, players by id."""
    if entry is None:
        return None
    return {
        "id": entry.pk,
        "status": entry.status,
        "version": entry.version,
        "entered_by": entry.entered_by_id,
        "drawn": entry.drawn,
        "knocker": entry.knocker_id,
        "gin": entry.gin,
        "knocker_deadwood": entry.knocker_deadwood,
        "defender_deadwood": entry.defender_deadwood,
        "note": entry.note,
    }


def _entry_of(match_id: str) -> dict[str, Any] | None:
    return entry_message(selectors.table_entry_latest(match=selectors.match_get(match_id=match_id)))


def _table_follow(*, match: Any, user: Any, after: int) -> HttpResponse:
    """The stream of a table match for one of its players or organisers: the events and
    views as any follower's, and the `entry` message whenever the table's entry changed."""
    match_id = str(match.pk)
    state: dict[str, Any] = {"first": True, "entry": ...}

    wake = live.waker(eventstore.NOTIFY_CHANNEL)

    async def read(version: int) -> tuple[list[bytes], int]:
        first, state["first"] = state["first"], False

        def batch() -> tuple[list[bytes], int]:
            return _batch(match_id=match_id, user=user, after=version, with_view=first)

        # Shared only by this user's connections woken by the same notification: never a
        # read begun before a commit this follower was woken for; on connecting, a read of
        # its own, begun after it subscribed.
        if first:
            messages, reached = await live.db(batch)
        else:
            wakes = wake.wakes_of(match.stream_id)
            messages, reached = await live.shared(
                ("match", match_id, user.pk, version, wakes), batch
            )
        entry = await live.db(lambda: _entry_of(match_id))
        if entry != state["entry"]:
            state["entry"] = entry
            messages = [*messages, live.sse(entry, event="entry")]
        return messages, reached

    body = live.follow(
        channel=eventstore.NOTIFY_CHANNEL, key=match.stream_id, after=after, read=read
    )
    return live.stream_response(body)
