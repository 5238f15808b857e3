"""What the match services share: the result they return, the version check, the next
deal (its deck decided here, outside the engine), and the events' metadata. (The signals
sent once a result commits are the match repository's announcement.)"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_noop

from core.errors import VersionConflictError
from games import repository
from games.engine import actions as A
from games.engine.cards import FULL_DECK
from games.engine.match import decide, needs_deal
from games.models import Match
from games.repository import MatchSaved, MatchWrite

# What every write service on a match returns: the match, its state and version after the
# write, and the events stored.
MatchResult = MatchSaved


def _check_version(write: MatchWrite, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != write.version:
        raise VersionConflictError(
            gettext_noop("the match is at version %(current)s, not %(expected)s"),
            params={"current": write.version, "expected": expected_version},
            extra={
                "stream_id": write.match.stream_id,
                "current_version": write.version,
                "expected_version": expected_version,
            },
        )


def _deal_if_needed(write: MatchWrite) -> None:
    """The next deal is an automatic step, recorded as an event like any other. The deck
    and salt are decided here, outside the engine, and carried in the event."""
    if not needs_deal(write.state):
        return
    deck = _deck_for(write.match, write.state.hand_number + 1)
    salt = secrets.token_hex(16)
    write.record(decide(write.state, A.Deal(deck=deck, salt=salt)), _meta(actor="system"))


def _deck_for(match: Match, hand_number: int) -> list[str]:
    plan = repository.match_deal_plan(match=match)
    if plan is not None and hand_number <= len(plan.decks):
        return list(plan.decks[hand_number - 1])
    if plan is not None and plan.seed:
        return seeded_deck(seed=plan.seed, hand_number=hand_number)
    deck = list(FULL_DECK)
    secrets.SystemRandom().shuffle(deck)
    return deck


def seeded_deck(*, seed: str, hand_number: int) -> list[str]:
    """The deck order of hand `hand_number` of a seeded match (tests, duplicate events)."""
    deck = list(FULL_DECK)
    random.Random(f"{seed}:{hand_number}").shuffle(deck)  # noqa: S311 - reproducible on purpose
    return deck


def _meta(*, actor: str, request_id: str = "", ruling_by: int | None = None) -> dict[str, Any]:
    return {"actor": actor, "request_id": request_id, "ruling_by": ruling_by}


def _user_actor(user: AbstractBaseUser | None) -> str:
    return f"user:{user.pk}" if user is not None else "system"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
