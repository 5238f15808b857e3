"""A team event as a live stream (server-sent events), for wall screens, the public page
and the desk, as tournaments.streams serves a tournament (core.live_fanout: one read per
commit feeds every follower in this process).

`GET /api/team-events/{id}/stream/`: the team event's events (teams registered, lineups,
rounds paired, board results, rounds completed...), each an `event` message whose id is its
version and whose data is {version, type, recorded_at, data} (players by id; who decided is
left out, as the public events of a tournament leave out its organisers). After each batch,
and once on connecting, a `standings` message (no id): the team standings as
`GET /api/team-events/{id}/standings/` answers them, the current round's team matches with
their board results, and the `version` they are as of. Anyone may follow a public team
event; a private one is 404 to all but its organisers. Two audiences: its organisers see
every event as recorded; anyone else sees a `LineupSet` without its `players` (a lineup is
sealed until its round is paired, as `GET …/lineups/` keeps it; the pairing's team matches
then show the boards)."""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

import eventstore
from core import live, live_fanout
from core.errors import NotFoundError
from tournaments.teams import selectors
from tournaments.teams.models import TeamEvent
from tournaments.teams.serializers import TeamMatchOutputSerializer, TeamStandingOutputSerializer


@dataclass
class Followed:
    """The team event as read after a commit, shared by its followers in this process."""

    event: TeamEvent
    events: tuple[eventstore.RecordedEvent, ...]
    standings: dict[str, Any]
    made: dict[tuple[Any, ...], tuple[list[bytes], int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _utc(at: dt.datetime) -> str:
    return at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _load(event_id: int) -> Followed | None:
    """One read for every follower woken by a commit: the row, then the stream up to the
    row's version, the standings and the current round's sheet (None: the event is gone)."""
    event = TeamEvent.objects.select_related("club").filter(pk=event_id).first()
    if event is None:
        return None
    events = tuple(eventstore.load(stream_id=event.stream_id, up_to_version=event.version))
    matches = selectors.team_event_matches(event=event, round_number=event.current_round)
    standings = {
        "version": event.version,
        "round": event.current_round,
        "status": event.status,
        "results": TeamStandingOutputSerializer(
            selectors.team_event_standings(event=event), many=True
        ).data,
        "matches": TeamMatchOutputSerializer(matches, many=True).data,
    }
    return Followed(event=event, events=events, standings=standings)


def _audience(followed: Followed | None, user: Any) -> str | None:
    """None: may not see it; "organiser": every event as recorded; "public": lineups sealed
    (a private event is its organisers' only)."""
    if followed is None:
        return None
    if selectors.user_can_organise_team_event(user=user, event=followed.event):
        return "organiser"
    return "public" if followed.event.is_public else None


def _shown(e: eventstore.RecordedEvent, audience: str) -> dict[str, Any]:
    if e.type == "LineupSet" and audience != "organiser":
        return {k: v for k, v in e.data.items() if k != "players"}
    return e.data


def _messages(
    followed: Followed | None, *, user: Any, after: int, with_standings: bool
) -> tuple[list[bytes], int]:
    """The messages after version `after`: the events, then (when there were any, or on
    connecting) the standings; made once per audience and version from one read."""
    if followed is None:
        return [], after
    audience = _audience(followed, user)
    sees = audience is not None
    key = (audience, after, with_standings)
    with followed.lock:
        made = followed.made.get(key)
    if made is not None:
        return made
    rows = [e for e in followed.events if e.version > after] if sees else []
    messages = [
        live.sse(
            {
                "version": e.version,
                "type": e.type,
                "recorded_at": _utc(e.recorded_at),
                "data": _shown(e, audience or "public"),
            },
            event="event",
            id=e.version,
        )
        for e in rows
    ]
    if (rows or with_standings) and sees:
        messages.append(live.sse(followed.standings, event="standings"))
    made = (messages, rows[-1].version if rows else after)
    with followed.lock:
        followed.made[key] = made
    return made


@require_GET
async def team_event_stream(request: HttpRequest, event_id: int) -> HttpResponse:
    after, user, refused = await live.opening(request)
    if refused is not None:
        return refused
    try:
        event = await live.db(lambda: selectors.team_event_get(event_id=event_id, user=user))
    except TeamEvent.DoesNotExist:
        return live.error(404, "not_found", "no such team event")
    return _follow(event, after=after, user=user)


@require_GET
async def tournament_team_stream(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """`GET /api/tournaments/{id}/teams/stream/`: a team tournament's team event, followed."""
    after, user, refused = await live.opening(request)
    if refused is not None:
        return refused
    try:
        event = await live.db(
            lambda: selectors.team_event_of_tournament(tournament_id=tournament_id, user=user)
        )
    except NotFoundError as exc:
        return live.error(404, "not_found", exc.template)
    return _follow(event, after=after, user=user)


def _follow(event: TeamEvent, *, after: int, user: Any) -> HttpResponse:
    return live_fanout.follow_loaded(
        channel=eventstore.NOTIFY_CHANNEL,
        key=event.stream_id,
        after=after,
        load=lambda: _load(event.pk),
        viewer=(user.pk, user.is_staff),  # what the audience (may see it, organises it) depends on
        audience=lambda followed: _audience(followed, user),
        messages=lambda followed, version, first: _messages(
            followed, user=user, after=version, with_standings=first
        ),
    )
