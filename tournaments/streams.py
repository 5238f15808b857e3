"""A tournament as a live stream (server-sent events), for wall screens, the public pages
and the organiser's desk.

`GET /api/tournaments/{id}/stream/`: the tournament's events (pairings, results, withdrawals,
deadlines, rounds completed...) exactly as GET /api/tournaments/{id}/events/ shows them to
the caller, each as an `event` message whose id is its version. It starts after
`Last-Event-ID` (or `?after=`; default: from the start) and goes on as events are
committed. Anyone may follow a public tournament, anonymously too; a private one is 404 to
strangers. Served by an async view under an ASGI server, woken by the event store's
NOTIFY (core.live).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

import eventstore
from core import live
from core.errors import NotFoundError
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.serializers import EventOutputSerializer, zone_context


def _batch(*, tournament: Tournament, user: Any, after: int) -> tuple[list[bytes], int]:
    rows = selectors.tournament_events(tournament=tournament, viewer=user, after=after)
    data = EventOutputSerializer(rows, many=True, context=zone_context(tournament)).data
    messages = [live.sse(row, event="event", id=row["version"]) for row in data]
    return messages, rows[-1]["version"] if rows else after


@require_GET
async def tournament_stream(request: HttpRequest, tournament_id: int) -> HttpResponse:
    refused = live.refuse_unless_asgi(request)
    if refused is not None:
        return refused
    after, refused = live.resume_point(request)
    if refused is not None:
        return refused
    user, refused = await live.caller(request)
    if refused is not None:
        return refused

    def visible() -> tuple[Tournament, bool]:
        tournament = selectors.tournament_get(tournament_id=tournament_id, user=user)
        return tournament, selectors.user_can_organise(user=user, tournament=tournament)

    try:
        tournament, insider = await live.db(visible)
    except NotFoundError:
        return live.error(404, "not_found", "no such tournament")

    async def read(version: int) -> tuple[list[bytes], int]:
        # What the log shows depends only on whether the viewer organises the tournament:
        # every follower of one audience woken by a commit shares one read.
        key = ("tournament", tournament.pk, insider, version)
        return await live.shared(
            key, lambda: _batch(tournament=tournament, user=user, after=version)
        )

    body = live.follow(
        channel=eventstore.NOTIFY_CHANNEL, key=tournament.stream_id, after=after or 0, read=read
    )
    return live.stream_response(body)
