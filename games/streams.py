"""A match as a live stream (server-sent events), for clients that would otherwise poll.

`GET /api/matches/{id}/stream/`: the match's events as the events API shows them to the
caller (`games.selectors.match_events_for`: no hidden card while its hand is in play), each
as an `event` message whose id is its version, then the caller's fresh view of the match
(`match_view_for`, as GET /api/matches/{id}/ answers) as a `view` message after each batch.
The first batch is every event after `Last-Event-ID` (or `?after=`; default: from the
start) and always ends with a view. Served by an async view under an ASGI server (uvicorn),
woken by the event store's NOTIFY (core.live). Who may follow: whoever may read the match's
events through the API (a signed-in user who may see it; signed out, a public match).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

import eventstore
from core import live
from core.errors import NotFoundError
from games import selectors
from games.serializers import EventSerializer


def _batch(*, match_id: str, user: Any, after: int, with_view: bool) -> tuple[list[bytes], int]:
    """The messages after version `after` for this viewer, and the version they reach."""
    match = selectors.match_get(match_id=match_id)
    events = selectors.match_events_for(match=match, user=user, after=after, as_players=True)
    messages = [live.sse(EventSerializer(e).data, event="event", id=e["version"]) for e in events]
    if events or with_view:
        messages.append(live.sse(selectors.match_view_for(match=match, user=user), event="view"))
    return messages, events[-1]["version"] if events else after


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
    return live.follow_shared(
        channel=eventstore.NOTIFY_CHANNEL,
        key=match.stream_id,
        after=after,
        # One read per viewer and version: a viewer's two tabs share it.
        audience=("match", match_id, user.pk),
        batch=lambda version, first: _batch(
            match_id=match_id, user=user, after=version, with_view=first
        ),
    )
