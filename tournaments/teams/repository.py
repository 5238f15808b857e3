"""The only code that loads a team event for update and saves it: one append to
"team-event-<id>" with the expected version (the row lock first), the read models from the
state after the events (tournaments.teams.projections), and the jobs the events call for
through the outbox (the next round's pairing). People are named by id in the events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

import eventstore
from core.errors import NotFoundError
from core.outbox import enqueue_in_tx
from eventstore import NewEvent
from tournaments.teams import projections
from tournaments.teams.domain import TeamEvent, TeamEventState, fold
from tournaments.teams.domain.events import TeamRoundCompleted
from tournaments.teams.domain.stored import event_to_stored
from tournaments.teams.models import TeamEvent as TeamEventRow


@dataclass
class TeamEventWrite:
    row: TeamEventRow
    state: TeamEventState


def team_event_load(*, event_id: Any) -> TeamEventWrite:
    """The team event's row, locked until the end of the caller's transaction, and its state."""
    try:
        row = TeamEventRow.objects.select_for_update().get(pk=event_id)
    except (TeamEventRow.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such team event") from exc
    return TeamEventWrite(row=row, state=projections.team_event_state(event=row))


def team_event_new(
    *,
    name: str,
    format: str,
    club_id: int | None,  # noqa: A002
    created_by: AbstractBaseUser,
) -> TeamEventWrite:
    row = TeamEventRow.objects.create(
        name=name, format=format, club_id=club_id, created_by=created_by
    )
    return TeamEventWrite(row=row, state=TeamEventState())


def team_event_save(
    write: TeamEventWrite, events: Sequence[TeamEvent], *, by: AbstractBaseUser | None = None
) -> TeamEventState:
    """Store `events` (decided on `write.state`), project them and queue the next round."""
    if not events:
        return write.state
    who = by.pk if by is not None else None
    new = []
    for event in events:
        type_, data = event_to_stored(event)
        new.append(
            NewEvent(
                type=type_, data=data, metadata={"by": who}, author=f"user:{who}" if who else ""
            )
        )
    recorded = eventstore.append(
        stream_id=write.row.stream_id, expected_version=write.state.version, events=new
    )
    state = fold(projections.typed_events(recorded), write.state)
    projections.project_in_tx(event=write.row, state=state)
    for event in events:
        if isinstance(event, TeamRoundCompleted) and not state.finished:
            enqueue_in_tx(task="teams.round_pair", args=(write.row.pk, event.round + 1))
    write.state = state
    return state
