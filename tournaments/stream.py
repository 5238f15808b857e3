"""The tournament's decision log: one event stream "tournament-<id>" in the games event store.

Every organiser decision (and every automatic one: pairings by the scheduler, forfeits by
the deadline job) is appended here with who decided it and why, so a dispute can be audited
and the standings rebuilt from events alone.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

import eventstore
from tournaments.models import Tournament
from tournaments.signals import tournament_events_committed

# Event types (past tense). The data of each is documented where it is appended.
TOURNAMENT_CREATED = "TournamentCreated"
PLAYER_REGISTERED = "PlayerRegistered"
PLAYER_CHECKED_IN = "PlayerCheckedIn"
PLAYER_WITHDRAWN = "PlayerWithdrawn"
TOURNAMENT_STARTED = "TournamentStarted"
ROUND_PAIRED = "RoundPaired"
ROUND_REPAIRED = "RoundRepaired"
RESULT_RECORDED = "ResultRecorded"
RESULT_RULED = "ResultRuled"
# An organiser changed settings: {"changes": {name: {"old", "new"}}}.
SETTINGS_CHANGED = "SettingsChanged"
# A correction of a match changed (or withdrew) the result recorded for its pairing.
RESULT_CORRECTED = "ResultCorrected"
ROUND_DEADLINE_MOVED = "RoundDeadlineMoved"
ROUND_COMPLETED = "RoundCompleted"
TOURNAMENT_FINISHED = "TournamentFinished"


SYSTEM_USERNAME = "tournament-scheduler"


def system_user() -> AbstractBaseUser:
    """The identity of automatic rulings (deadline forfeits): a user that cannot log in."""
    user, created = get_user_model().objects.get_or_create(
        username=SYSTEM_USERNAME, defaults={"is_active": False}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def actor(user: AbstractBaseUser | None) -> dict[str, Any] | None:
    """Who decided: a user, or None for the scheduler and the deadline job."""
    if user is None:
        return None
    return {"id": user.pk, "username": user.get_username()}


def stream_append(
    *,
    tournament: Tournament,
    events: list[tuple[str, dict[str, Any]]],
    by: AbstractBaseUser | None = None,
    reason: str = "",
) -> list[eventstore.RecordedEvent]:
    """Append (type, data) events to the tournament's stream; the caller holds the row lock.

    `by` and `reason` go into every event's data (the audit trail) and metadata.
    """
    who = actor(by)
    new = [
        eventstore.NewEvent(
            type=type_,
            data={**data, "by": who, "reason": reason},
            metadata={"by": who["id"] if who else None, "reason": reason},
        )
        for type_, data in events
    ]
    recorded = eventstore.append(
        stream_id=tournament.stream_id, expected_version=tournament.version, events=new
    )
    tournament.version = recorded[-1].version
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version)
    # Followers of the committed events (webhooks) hear of them after commit.
    pk = tournament.pk
    transaction.on_commit(
        lambda: tournament_events_committed.send(sender=Tournament, tournament_id=pk)
    )
    return recorded


def stream_load(*, tournament: Tournament, after: int = 0) -> list[eventstore.RecordedEvent]:
    return eventstore.load(stream_id=tournament.stream_id, after_version=after)
