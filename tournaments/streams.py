"""A tournament as a live stream (server-sent events), for wall screens, the public pages
and the organiser's desk.

`GET /api/tournaments/{id}/stream/`: the tournament's events (pairings, results, withdrawals,
deadlines, rounds completed...) exactly as GET /api/tournaments/{id}/events/ shows them to
the caller, each as an `event` message whose id is its version. It starts after
`Last-Event-ID` (or `?after=`; default: from the start) and goes on as events are
committed. After each batch of events, and once on connecting, a `standings` message
(no id) carries the standings as GET /api/tournaments/{id}/standings/ shows them (`results`,
`tiebreaks`), the round clock (`clock`: round, status, starts_at, ends_at in UTC with a `Z`,
seconds_left, next_round_at) and the `version` they are as of. Anyone may follow a public
tournament, anonymously too; a private one is 404 to strangers. Served by an async view
under an ASGI server, woken by the event store's NOTIFY (core.live).
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
from tournaments.serializers import (
    EventOutputSerializer,
    RoundClockOutputSerializer,
    StandingOutputSerializer,
    zone_context,
)


def _standings(*, tournament_id: int, user: Any) -> dict[str, Any] | None:
    """The `standings` message: the standings and the round clock as of now (None if the
    caller may no longer see the tournament)."""
    try:
        tournament = selectors.tournament_get(tournament_id=tournament_id, user=user)
    except NotFoundError:
        return None
    context = zone_context(tournament)
    rows = selectors.tournament_standings(tournament=tournament)
    clock = selectors.tournament_round_clock(tournament=tournament)
    return {
        "version": tournament.version,
        "results": StandingOutputSerializer(rows, many=True, context=context).data,
        "tiebreaks": selectors.tournament_tiebreak_order(tournament=tournament),
        "clock": RoundClockOutputSerializer(clock, context=context).data,
    }


def _batch(
    *, tournament: Tournament, user: Any, after: int, with_standings: bool
) -> tuple[list[bytes], int]:
    """The messages after version `after` for this viewer, and the version they reach: the
    events, then (when there were any, or on connecting) the standings and the clock."""
    rows = selectors.tournament_events(tournament=tournament, viewer=user, after=after)
    data = EventOutputSerializer(rows, many=True, context=zone_context(tournament)).data
    messages = [live.sse(row, event="event", id=row["version"]) for row in data]
    if rows or with_standings:
        standings = _standings(tournament_id=tournament.pk, user=user)
        if standings is not None:
            messages.append(live.sse(standings, event="standings"))
    return messages, rows[-1]["version"] if rows else after


@require_GET
async def tournament_stream(request: HttpRequest, tournament_id: int) -> HttpResponse:
    after, user, refused = await live.opening(request)
    if refused is not None:
        return refused

    def visible() -> tuple[Tournament, bool]:
        tournament = selectors.tournament_get(tournament_id=tournament_id, user=user)
        return tournament, selectors.user_can_organise(user=user, tournament=tournament)

    try:
        tournament, insider = await live.db(visible)
    except NotFoundError:
        return live.error(404, "not_found", "no such tournament")
    return live.follow_shared(
        channel=eventstore.NOTIFY_CHANNEL,
        key=tournament.stream_id,
        after=after,
        # What the log shows depends only on whether the viewer organises the tournament:
        # every follower of one audience woken by a commit shares one read.
        audience=("tournament", tournament.pk, insider),
        batch=lambda version, first: _batch(
            tournament=tournament, user=user, after=version, with_standings=first
        ),
    )
