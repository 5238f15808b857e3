"""Dispute cases on a match: a player opens one on a hand or the whole match, players and
organisers comment, an organiser resolves it with a ruling (the existing ruling service,
in the same transaction) or dismisses it with a reason. Each step is an event of the
match's stream (games.engine.disputes): the dispute replays with the match and changes no
score by itself."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.text import free_text_check
from core.transactions import write_service
from games import repository
from games.engine.disputes import (
    dispute_comment,
    dispute_find,
    dispute_open,
    dispute_resolve,
)
from games.engine.state import MatchState
from games.policy import match_policy
from games.repository import MatchSaved
from games.selectors import match_seat_for, user_can_organise_match
from games.services import match_rule_in_tx
from players.models import Player
from players.selectors import player_for_user


def _meta(user: AbstractBaseUser, request_id: str) -> dict[str, Any]:
    player = player_for_user(user=user)
    actor = f"player:{player.pk}" if player is not None else f"user:{user.pk}"
    return {"actor": actor, "request_id": request_id, "ruling_by": None}


def _name(user: AbstractBaseUser) -> str:
    player = player_for_user(user=user)
    return player.name if player is not None else user.get_username()


# A closed dispute's outcome in a whole sentence.
_CLOSED = {
    "ruled": gettext_noop("dispute #%(number)s is already ruled"),
    "dismissed": gettext_noop("dispute #%(number)s is already dismissed"),
}


def _case(state: MatchState, dispute: int) -> dict[str, Any]:
    case = dispute_find(state, dispute)
    if case is None:
        raise NotFoundError(
            gettext_noop("no dispute #%(number)s in this match"),
            code="dispute_not_found",
            params={"number": dispute},
        )
    if case["outcome"] is not None:
        raise ConflictError(
            _CLOSED.get(case["outcome"], gettext_noop("dispute #%(number)s is already closed")),
            code="dispute_closed",
            params={"number": dispute},
        )
    return case


@write_service
def match_dispute_open(
    *,
    match_id: uuid.UUID | str,
    player: Player,
    statement: str,
    hand_number: int | None = None,
    request_id: str = "",
) -> MatchSaved:
    """A player of the match disputes hand `hand_number` (None: the whole match). Another
    app's match policy may refuse it (games/policy.py: a tournament's time limit)."""
    free_text_check(statement, "statement")
    write = repository.match_lock(match_id=match_id)
    seat = write.match.seat_of(player.pk)
    if seat is None:
        raise PermissionDeniedError("only the match's players open disputes", code="not_a_player")
    match_policy().check_dispute_open(
        match_id=write.match.pk,
        finished_at=write.match.finished_at if write.state.status == "finished" else None,
        at=timezone.now(),
    )
    events = dispute_open(write.state, seat=seat, hand_number=hand_number, statement=statement)
    meta = {"actor": f"player:{player.pk}", "request_id": request_id, "ruling_by": None}
    write.record(events, meta)
    return repository.match_save(write)


@write_service
def match_dispute_comment(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    dispute: int,
    comment: str,
    request_id: str = "",
) -> MatchSaved:
    """A comment on an open dispute, by one of the match's players or organisers."""
    free_text_check(comment, "comment")
    write = repository.match_lock(match_id=match_id)
    match = write.match
    if match_seat_for(user=by, match=match) is None and not user_can_organise_match(
        user=by, match=match
    ):
        raise PermissionDeniedError("only the match's players and organisers comment")
    _case(write.state, dispute)
    events = dispute_comment(write.state, dispute=dispute, comment=comment, by=_name(by))
    write.record(events, _meta(by, request_id))
    return repository.match_save(write)


@write_service
def match_dispute_resolve(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    dispute: int,
    outcome: str,
    reason: str,
    ruling: dict[str, Any] | None = None,
    request_id: str = "",
) -> MatchSaved:
    """An organiser settles an open dispute: "dismissed" with a reason, or "ruled" with a
    ruling (`ruling`: the arguments of `match_rule`: type, reason, player, hand_number...),
    recorded first, then the resolution naming it; both or neither."""
    free_text_check(reason)
    write = repository.match_lock(match_id=match_id)
    if not user_can_organise_match(user=by, match=write.match):
        raise PermissionDeniedError("only an organiser of this match resolves its disputes")
    _case(write.state, dispute)
    if outcome == "ruled":
        if not ruling:
            raise ValidationError('a "ruled" outcome needs the ruling', code="ruling_required")
        match_rule_in_tx(match_id=match_id, by=by, request_id=request_id, **ruling)
        write = repository.match_lock(match_id=match_id)
    events = dispute_resolve(
        write.state, dispute=dispute, outcome=outcome, reason=reason, by=_name(by)
    )
    meta = _meta(by, request_id)
    meta["ruling_by"] = by.pk
    write.record(events, meta)
    return repository.match_save(write)
