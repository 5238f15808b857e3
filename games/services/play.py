"""Playing a match: create it (and deal), a player's action (and the next deal)."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext_noop

from core import metrics
from core.errors import PermissionDeniedError, ValidationError
from core.transactions import write_service
from games import jobs, projections, repository
from games.engine import actions as A
from games.engine.cards import validate_deck
from games.engine.errors import NotYourTurnError
from games.engine.match import decide, start_match
from games.engine.ruleset import Ruleset
from games.errors import not_a_player_error
from games.models import Match, MatchDealPlan
from games.repository import MatchSaved, MatchWrite
from games.services.shared import (
    _check_version,
    _deal_if_needed,
    _meta,
    _user_actor,
)
from players.models import Player

MODES = ("online", "table")


@write_service
def match_create(
    *,
    player1: Player,
    player2: Player,
    ruleset: dict | None = None,
    first_dealer: Player | None = None,
    seed: str | None = None,
    decks: list[list[str]] | None = None,
    mode: str = "online",
    organisers: Iterable[AbstractBaseUser] = (),
    created_by: AbstractBaseUser | None = None,
    label: str = "",
    practice: bool = False,
    match_id: uuid.UUID | None = None,
) -> Match:
    """Start a match between two players under `ruleset` (copied into its first event) and,
    online, deal its first hand (`match_create_in_tx`: inside the caller's transaction; a
    round's pairing makes many). Decks come from `decks` (one full order per hand, RULES 3
    dealing order), then from `seed`, then from a `secrets` shuffle. `match_id`: the id
    the caller chose for it (a tournament names its matches before it decides), else a
    new one."""
    if player1.pk == player2.pk:
        message = "a match needs two different players"
        raise ValidationError(
            message, extra={"fields": {"player2": [message]}, "reason": "same_player"}
        )
    if mode not in MODES:
        raise ValidationError(
            gettext_noop("mode must be one of %(modes)s"),
            code="invalid_mode",
            params={"modes": ", ".join(MODES)},
        )
    rules = Ruleset.from_dict(ruleset)
    deck_list = [list(validate_deck(d)) for d in decks or []]
    if mode == "table" and (seed or deck_list):
        raise ValidationError("a table match has no deals: no seed or decks", code="table_mode")
    match_id = match_id or uuid.uuid4()
    match = Match(id=match_id, stream_id=f"match-{match_id}", player1=player1, player2=player2)
    match.mode, match.ruleset, match.label = mode, rules.to_dict(), label
    match.created_by, match.created_at = created_by, timezone.now()
    match.practice = practice
    if first_dealer is None:
        dealer = secrets.randbelow(2)
    else:
        dealer = match.seat_of(first_dealer.pk)
        if dealer is None:
            raise not_a_player_error("first_dealer", "the first dealer must be one of the players")
    match.save()
    organiser_ids = sorted({u.pk for u in organisers})
    match.organisers.set(organiser_ids)
    if seed or deck_list:
        MatchDealPlan.objects.create(match=match, seed=seed or "", decks=deck_list)
    write = repository.match_new(match=match)
    meta = _meta(actor=_user_actor(created_by))
    # The registration travels with the first event, so read models rebuild from events alone.
    meta["match"] = projections.match_registration(match=match, organiser_ids=organiser_ids)
    write.record(start_match(ruleset=rules, first_dealer=dealer, mode=mode), meta)
    _deal_if_needed(write)
    repository.match_save(write)
    return match


match_create_in_tx = match_create.in_tx


@write_service
def match_act(
    *,
    match_id: uuid.UUID | str,
    player: Player,
    action: dict,
    expected_version: int | None = None,
    request_id: str = "",
) -> MatchSaved:
    """A player's action ({"type": "draw", "source": "stock"}, discard, knock, pass, or
    resign). An illegal action raises the engine's rule error and writes nothing."""
    write = repository.match_lock(match_id=match_id)
    seat = write.match.seat_of(player.pk)
    if seat is None:
        raise PermissionDeniedError("you are not a player in this match", code="not_a_player")
    _check_version(write, expected_version)
    match_play_in_tx(write=write, seat=seat, action=action, request_id=request_id)
    saved = repository.match_save(write)
    if saved.match.practice and not player.is_bot:
        _bot_to_move_on_commit(saved)
    return saved


match_act_in_tx = match_act.in_tx


def _bot_to_move_on_commit(saved: MatchSaved) -> None:
    """A practice match where the player's move left the bot to move: its moves are a job,
    after commit (the job plays every bot move in a row: games.services.practice)."""
    seat = saved.state.turn
    if saved.state.status != "in_progress" or seat is None:
        return
    bot = saved.match.player1 if seat == 0 else saved.match.player2
    if bot.is_bot:
        jobs.practice_bot_move_on_commit(match_id=saved.match.pk, version=saved.version)


def match_play_in_tx(*, write: MatchWrite, seat: int, action: dict, request_id: str = "") -> None:
    """Decide a player's action on a loaded match and record its events (and the next deal),
    unsaved: the caller saves (`match_act`, or a bot batch that saves many at once)."""
    player_id = write.match.player_id_for_seat(seat)
    meta = _meta(actor=f"player:{player_id}", request_id=request_id)
    try:
        events = decide(write.state, _player_action(seat, action))
    except NotYourTurnError as exc:
        # The engine knows seats only; the caller is told whose move it is by name.
        other = write.match.player2 if seat == 0 else write.match.player1
        raise NotYourTurnError(
            gettext_noop("it is %(name)s's move"), rule=exc.rule, name=other.name
        ) from None
    write.record(events, meta)
    kind = str(action.get("type", "")) if isinstance(action, dict) else ""
    metrics.on_commit(metrics.match_actions.labels(type=kind or "unknown").inc)
    _deal_if_needed(write)


def _player_action(seat: int, action: dict) -> A.Action:
    # Resigning is a player's own ruling; everything else is a card play.
    if isinstance(action, dict) and action.get("type") == "resign":
        if set(action) != {"type"}:
            raise A.InvalidActionError("resign takes no other fields", rule="actions")
        return A.Resign(seat=seat)
    return A.action_from_dict(seat, action)
