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
under an ASGI server, woken by the event store's NOTIFY (core.live): after each commit one
read of the tournament (`tournament_followed`: the row, the stream from this process's copy,
the standings and the clock) feeds every follower in this process (`core.live_fanout`,
never a read begun before the notification), and each audience's bytes are made from it
once: an audience is whether the viewer organises it and may still see it (`_audience`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

import eventstore
from core import live, live_fanout
from core.errors import NotFoundError
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.serializers import (
    EventOutputSerializer,
    RoundClockOutputSerializer,
    StandingOutputSerializer,
    zone_context,
)


@dataclass
class Followed:
    """The tournament as read after a commit, shared by its followers in this process: the
    row and the whole stream, the `standings` message's data, and the messages already made
    for an audience (who is shown the same) from a version."""

    tournament: Tournament
    events: tuple[eventstore.RecordedEvent, ...]
    standings: dict[str, Any]
    made: dict[tuple[Any, ...], tuple[list[bytes], int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _load(tournament_id: int) -> Followed | None:
    """One read for every follower woken by a commit: the row and the stream, then the
    standings and the round clock as of now (None: the tournament is gone)."""
    try:
        followed = selectors.tournament_followed(tournament_id=tournament_id)
    except NotFoundError:
        return None
    tournament = followed.tournament
    context = zone_context(tournament)
    rows = list(selectors.tournament_standings(tournament=tournament))
    clock = selectors.tournament_round_clock(tournament=tournament)
    standings = {
        "version": tournament.version,
        "results": StandingOutputSerializer(rows, many=True, context=context).data,
        "tiebreaks": selectors.tournament_tiebreak_order(tournament=tournament),
        "clock": RoundClockOutputSerializer(clock, context=context).data,
    }
    return Followed(tournament=tournament, events=followed.events, standings=standings)


def _may_see(followed: Followed, user: Any) -> bool:
    """Whether `user` may still see the tournament (a public one: anyone)."""
    if followed.tournament.is_public:
        return True
    try:
        selectors.tournament_get(tournament_id=followed.tournament.pk, user=user)
    except NotFoundError:
        return False
    return True


def _audience(followed: Followed | None, *, user: Any, insider: bool) -> tuple[bool, bool]:
    """Who is shown the same messages: everything `_messages` shows depends on these."""
    return insider, followed is not None and _may_see(followed, user)


def _messages(
    followed: Followed | None, *, user: Any, insider: bool, after: int, with_standings: bool
) -> tuple[list[bytes], int]:
    """The messages after version `after` for this viewer, and the version they reach: the
    events, then (when there were any, or on connecting) the standings and the clock; made
    once per audience (insider or not, may still see it) and version from one read."""
    if followed is None:
        return [], after
    sees = _may_see(followed, user)
    key = (insider, sees, after, with_standings)
    with followed.lock:
        made = followed.made.get(key)
    if made is not None:
        return made
    tournament = followed.tournament
    rows = selectors.tournament_events(
        tournament=tournament, viewer=user, after=after, recorded=followed.events, insider=insider
    )
    data = EventOutputSerializer(rows, many=True, context=zone_context(tournament)).data
    messages = [live.sse(row, event="event", id=row["version"]) for row in data]
    if (rows or with_standings) and sees:
        messages.append(live.sse(followed.standings, event="standings"))
    made = (messages, rows[-1]["version"] if rows else after)
    with followed.lock:
        followed.made[key] = made
    return made


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
    return live_fanout.follow_loaded(
        channel=eventstore.NOTIFY_CHANNEL,
        key=tournament.stream_id,
        after=after,
        # One read per commit for every follower of the tournament in this process (wall
        # screens, the desk, players' phones); what the log shows depends only on whether
        # the viewer organises it: each audience's messages are made once from that read.
        load=lambda: _load(tournament.pk),
        viewer=(insider, user.pk, user.is_staff),  # what `_audience` depends on
        audience=lambda followed: _audience(followed, user=user, insider=insider),
        messages=lambda followed, version, first: _messages(
            followed, user=user, insider=insider, after=version, with_standings=first
        ),
    )
