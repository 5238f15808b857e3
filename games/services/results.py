"""Results an organiser enters or rules: a table hand recorded (or entered on the players'
phones), and rulings (void, correct, adjust, forfeit, resign, cancel), which the match
policy may refuse when they change a finished match's result."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_noop

from core import metrics
from core.errors import PermissionDeniedError, ValidationError
from core.text import free_text_check
from core.transactions import write_service
from games import repository
from games.engine import actions as A
from games.engine.match import decide
from games.engine.state import MatchState
from games.hand_entries import HandEntry
from games.models import Match
from games.policy import match_policy
from games.repository import MatchSaved
from games.selectors import user_can_organise_match
from games.services.shared import (
    _check_version,
    _deal_if_needed,
    _is_int,
    _meta,
    _user_actor,
)
from players.models import Player

RULING_TYPES = ("void_hand", "correct_hand", "adjust_score", "forfeit", "resign", "cancel")


@write_service
def match_record_hand(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    hand: HandEntry,
    expected_version: int | None = None,
    request_id: str = "",
    entered_by: Player | None = None,
    confirmed_by: Player | None = None,
) -> MatchSaved:
    """Scoresheet mode: record one hand played with physical cards at a club table. The
    engine validates it against the ruleset and scores it as it would an online hand.
    `entered_by`: the player who entered it on their phone (an organiser accepting it). A
    hand entered by one player of the match and confirmed by the other (`entered_by`,
    `confirmed_by`: games.services.table_entries) needs no organiser; who entered and who confirmed
    go into the event's metadata."""
    write = repository.match_lock(match_id=match_id)
    match = write.match
    seats = {match.seat_of(p.pk) for p in (entered_by, confirmed_by) if p is not None}
    if confirmed_by is None or seats != {0, 1}:
        _require_organiser(by, match)
    if match.mode != "table":
        raise ValidationError("only a table match records hands", code="not_table_mode")
    _check_version(write, expected_version)
    action = hand.action(match)
    meta = _meta(actor=_user_actor(by), request_id=request_id)
    if entered_by is not None:
        meta["entered_by"] = f"player:{entered_by.pk}"
        meta["confirmed_by"] = (
            f"player:{confirmed_by.pk}" if confirmed_by is not None else _user_actor(by)
        )
    write.record(decide(write.state, action), meta)
    metrics.on_commit(metrics.hands_recorded.inc)
    return repository.match_save(write)


match_record_hand_in_tx = match_record_hand.in_tx


@write_service
def match_rule(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    type: str,  # noqa: A002 - the ruling's name in the API
    reason: str,
    player: Player | None = None,
    game: int | None = None,
    points: int | None = None,
    hand_number: int | None = None,
    hand: HandEntry | None = None,
    request_id: str = "",
) -> MatchSaved:
    """An organiser's ruling, recorded as an event with the reason and who ruled
    (`match_rule_in_tx`: inside the caller's transaction, a tournament's ruling): void_hand
    (the hand in play, or `hand_number`), correct_hand (table hand `hand_number`, as
    `hand` says it was), adjust_score (player, game, points), forfeit (player = the
    WINNER), resign (player resigns), cancel (the match ends unplayed, no winner). Nothing
    is edited in place; a replay shows the ruling where it was, and the match is derived
    again from the corrected hands."""
    if type not in RULING_TYPES:
        raise ValidationError(
            gettext_noop("type must be one of %(types)s"),
            code="ruling",
            params={"types": ", ".join(RULING_TYPES)},
        )
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError("a ruling needs a reason", code="reason_required")
    free_text_check(reason)
    write = repository.match_lock(match_id=match_id)
    match = write.match
    _require_organiser(by, match)
    action = _ruling_action(
        match, type, reason.strip(), by, player, game, points, hand_number, hand or HandEntry()
    )
    meta = _meta(actor=_user_actor(by), request_id=request_id, ruling_by=by.pk)
    meta["reason"] = reason.strip()
    before = write.state
    write.record(decide(write.state, action), meta)
    _check_result_change(match, before, write.state)
    _deal_if_needed(write)
    return repository.match_save(write)


match_rule_in_tx = match_rule.in_tx


def _require_organiser(user: AbstractBaseUser, match: Match) -> None:
    if not user_can_organise_match(user=user, match=match):
        raise PermissionDeniedError("only an organiser of this match may do this")


def _ruling_action(
    match: Match,
    kind: str,
    reason: str,
    by: AbstractBaseUser,
    player: Player | None,
    game: int | None,
    points: int | None,
    hand_number: int | None,
    hand: HandEntry,
) -> A.Action:
    who = by.get_username()
    if kind == "void_hand":
        if hand_number is not None and not _is_int(hand_number):
            raise ValidationError("hand_number is a whole number", code="hand_number")
        return A.VoidHand(reason=reason, by=who, hand_number=hand_number)
    if kind == "correct_hand":
        if not _is_int(hand_number):
            raise ValidationError("correct_hand needs the hand_number", code="hand_number")
        assert hand_number is not None  # for mypy
        return hand.correction(match, hand_number=hand_number, reason=reason, by=who)
    if kind == "cancel":
        return A.CancelMatch(reason=reason, by=who)
    seat = match.seat_of(player.pk) if player is not None else None
    if seat is None:
        raise ValidationError(
            gettext_noop("%(kind)s needs a player of the match"),
            code="player_required",
            params={"kind": kind},
        )
    if kind == "resign":
        return A.Resign(seat=seat)
    if kind == "forfeit":
        return A.Forfeit(winner=seat, reason=reason, by=who)
    if not _is_int(game) or not _is_int(points):
        raise ValidationError("adjust_score needs integer game and points", code="adjustment")
    return A.AdjustScore(seat=seat, game=game, points=points, reason=reason, by=who)


def _check_result_change(match: Match, before: MatchState, after: MatchState) -> None:
    """A ruling that changes a finished match's winner (or reopens it) asks the match
    policy first (games/policy.py), which refuses by raising a domain error, e.g. a
    knockout whose next match, played by the winner of this one, is in play."""
    if before.status != "finished" or after.finish_reason == "cancelled":
        return
    if after.status == "finished" and after.winner == before.winner:
        return
    match_policy().check_result_change(
        match_id=match.id,
        winner_before=match.player_id_for_seat(before.winner),
        winner_after=match.player_id_for_seat(after.winner) if after.status == "finished" else None,
    )
