"""Reads of webhooks: who may manage a tournament's endpoints, the endpoints, the delivery
log, and the events an endpoint has still to be sent (as the public sees them)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import F, Q, QuerySet

import eventstore
from core.errors import NotFoundError, PermissionDeniedError
from tournaments import selectors as tournament_selectors
from tournaments.domain import EVENT_TYPES
from tournaments.models import Tournament
from tournaments.selectors import tournament_stream_events
from tournaments.selectors.anchors import event_anchor, match_anchors, tournament_anchors
from tournaments.teams.domain.events import TEAM_EVENT_TYPES
from tournaments.teams.models import TeamBoard, TeamEvent
from tournaments.webhooks.models import Delivery, WebhookEndpoint

# The event types an endpoint may ask for: every tournament event type (EVENT_TYPES), and
# of a team format's tournament, its team event's (TEAM_EVENT_TYPES).
WEBHOOK_EVENT_TYPES = (*EVENT_TYPES, *TEAM_EVENT_TYPES)


def owned_team_event(*, tournament: Tournament) -> TeamEvent | None:
    """The team event a team format's tournament owns (its webhooks send that stream: the
    tournament's own stays at its creation); None for a tournament of single players."""
    return TeamEvent.objects.filter(tournament=tournament).first()


def team_event_tournament_id(*, event_id: Any) -> int | None:
    """The tournament that owns the team event (None: a team event of its own)."""
    return TeamEvent.objects.filter(pk=event_id).values_list("tournament_id", flat=True).first()


def webhook_stream_head(*, tournament: Tournament) -> int:
    """The version of the stream the tournament's webhooks follow (a new endpoint's cursor)."""
    team_event = owned_team_event(tournament=tournament)
    return team_event.version if team_event is not None else tournament.version


def webhook_tournament_for(*, tournament_id: Any, user: Any) -> Tournament:
    """The tournament, if `user` may manage its webhooks (its organisers and staff): 404 if
    they may not see it at all, 403 if they see it but do not organise it."""
    tournament = tournament_selectors.tournament_get(tournament_id=tournament_id, user=user)
    if not tournament_selectors.user_can_organise(user=user, tournament=tournament):
        raise PermissionDeniedError("only the tournament's organisers and staff manage webhooks")
    return tournament


def webhook_list(*, tournament: Tournament) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(tournament=tournament).order_by("id")


def webhook_get(*, tournament: Tournament, webhook_id: Any) -> WebhookEndpoint:
    try:
        return WebhookEndpoint.objects.get(pk=webhook_id, tournament=tournament)
    except (WebhookEndpoint.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such webhook") from exc


def delivery_list(*, endpoint: WebhookEndpoint, status: str | None = None) -> QuerySet[Delivery]:
    """The endpoint's delivery log, latest event first."""
    rows = Delivery.objects.filter(endpoint=endpoint)
    if status:
        rows = rows.filter(status=status)
    return rows.order_by("-event_position", "-id")


def delivery_get(*, endpoint: WebhookEndpoint, delivery_id: Any) -> Delivery:
    try:
        return Delivery.objects.get(pk=delivery_id, endpoint=endpoint)
    except (Delivery.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such delivery") from exc


def endpoints_behind() -> QuerySet[WebhookEndpoint]:
    """Active endpoints whose tournament's stream (a team tournament's: its team event's)
    has events past their cursor (the row's version is the stream's head, written with each
    append)."""
    single = Q(tournament__team_event__isnull=True, cursor__lt=F("tournament__version"))
    team = Q(cursor__lt=F("tournament__team_event__version"))
    return WebhookEndpoint.objects.filter(single | team, is_active=True)


def tournament_has_active_webhooks(*, tournament_id: Any) -> bool:
    return WebhookEndpoint.objects.filter(tournament_id=tournament_id, is_active=True).exists()


def deliveries_due(*, now: dt.datetime, limit: int = 500) -> list[int]:
    """Ids of pending deliveries whose time has come and that nobody is sending: what a
    lost job (broker down at commit, a worker killed) left behind."""
    rows = (
        Delivery.objects.filter(
            status=Delivery.Status.PENDING,
            next_attempt_at__lte=now,
            endpoint__is_active=True,
        )
        .exclude(leased_until__gt=now)
        .order_by("next_attempt_at", "id")
        .values_list("id", flat=True)
    )
    return list(rows[:limit])


def events_to_send(
    *, tournament: Tournament, after: int, up_to: int | None = None
) -> list[dict[str, Any]]:
    """The tournament's events after version `after` (up to `up_to`), each as the body of a
    delivery: what `/events/` shows the public (no organiser's id or login), with the
    event's id in the store and its position (version) in the tournament's stream, and
    `anchors` (tournaments.selectors.anchors): the stream signed at this event, and the signed heads
    of its finished matches as they are now. A team tournament's: its team event's events
    (`_team_events_to_send`)."""
    team_event = owned_team_event(tournament=tournament)
    if team_event is not None:
        return _team_events_to_send(
            tournament=tournament, team_event=team_event, after=after, up_to=up_to
        )
    recorded = tournament_stream_events(tournament=tournament, after=after)
    if up_to is not None:
        recorded = [e for e in recorded if e.version <= up_to]
    if not recorded:
        return []
    last = recorded[-1].version
    # The same redaction as the events API for someone who does not organise it.
    public = {
        row["version"]: row
        for row in tournament_selectors.tournament_events(
            tournament=tournament, viewer=None, after=after
        )
        if row["version"] <= last
    }
    matches = tournament_anchors(tournament=tournament)["matches"]
    return [
        {
            "anchors": {"tournament": event_anchor(event=e), "matches": matches},
            "event_id": e.position,
            "position": e.version,
            "tournament": tournament.pk,
            "type": e.type,
            "recorded_at": e.recorded_at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
            "by": public[e.version]["by"],
            # People by id only (issue 34): a reason is a person's words, kept where it can
            # be erased; a receiver's copy could not be. Read it from the events API.
            "reason": "",
            "data": {k: v for k, v in public[e.version]["data"].items() if k != "reason"},
        }
        for e in recorded
    ]


def _team_events_to_send(
    *, tournament: Tournament, team_event: TeamEvent, after: int, up_to: int | None
) -> list[dict[str, Any]]:
    """A team tournament's deliveries: its team event's events after version `after`, in
    the same shape (`position`: the version in the team event's stream, `stream` names it).
    Nothing to redact: a team event's data name club sides and players by id, and who
    decided is left out as the public events leave out an organiser; `anchors`: the team
    event's stream signed at this event and its finished boards' matches."""
    recorded = eventstore.load(
        stream_id=team_event.stream_id, after_version=after, up_to_version=up_to
    )
    if not recorded:
        return []
    boards = TeamBoard.objects.filter(event=team_event).order_by("round", "table", "board")
    matches = match_anchors(match_ids=[str(m) for m in boards.values_list("match_id", flat=True)])
    return [
        {
            "anchors": {"tournament": event_anchor(event=e), "matches": matches},
            "event_id": e.position,
            "position": e.version,
            "tournament": tournament.pk,
            "stream": team_event.stream_id,
            "type": e.type,
            "recorded_at": e.recorded_at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
            "by": None,
            "reason": "",
            "data": dict(e.data),
        }
        for e in recorded
    ]
