"""Commands on matches. Each service loads the stream (latest snapshot + the events since),
lets the engine decide, appends the events and updates the read models in ONE transaction.
Randomness (shuffles, salts) is decided here and carried in the events (STYLE 1)."""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Iterable
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from core.errors import PermissionDeniedError, ValidationError, VersionConflictError
from core.transactions import write_service, write_service_of
from games import jobs, projections, repository
from games.engine import actions as A
from games.engine.cards import FULL_DECK, validate_deck
from games.engine.errors import NotYourTurnError
from games.engine.match import decide, needs_deal, start_match
from games.engine.ruleset import Ruleset
from games.engine.state import MatchState
from games.models import Match, MatchDealPlan
from games.repository import MatchSaved, MatchWrite
from games.selectors import user_can_organise_match
from games.signals import match_finished, match_reopened, match_result_changing
from players.models import Player

# What every write service on a match returns: the match, its state and version after the
# write, and the events stored.
MatchResult = MatchSaved

MODES = ("online", "table")
RULING_TYPES = ("void_hand", "correct_hand", "adjust_score", "forfeit", "resign", "cancel")


def match_create_in_tx(
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
) -> Match:
    """Start a match between two players under `ruleset` (copied into its first event) and,
    online, deal its first hand, inside the caller's transaction (a round's pairing makes
    many). Decks come from `decks` (one full order per hand, RULES 3 dealing order), then
    from `seed`, then from a `secrets` shuffle."""
    if player1.pk == player2.pk:
        message = "a match needs two different players"
        raise ValidationError(
            message, extra={"fields": {"player2": [message]}, "reason": "same_player"}
        )
    if mode not in MODES:
        raise ValidationError(f"mode must be one of {', '.join(MODES)}", code="invalid_mode")
    rules = Ruleset.from_dict(ruleset)
    deck_list = [list(validate_deck(d)) for d in decks or []]
    if mode == "table" and (seed or deck_list):
        raise ValidationError("a table match has no deals: no seed or decks", code="table_mode")
    match_id = uuid.uuid4()
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
    _finished_on_commit(repository.match_save(write))
    return match


match_create = write_service_of(
    match_create_in_tx,
    name="match_create",
    doc="`match_create_in_tx` as an entry point: the outermost transaction of its own.",
)


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
    saved = _finished_on_commit(repository.match_save(write))
    if saved.match.practice and not player.is_bot:
        _bot_to_move_on_commit(saved)
    return saved


def _bot_to_move_on_commit(saved: MatchSaved) -> None:
    """A practice match where the player's move left the bot to move: its moves are a job,
    after commit (the job plays every bot move in a row: games.practice)."""
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
        raise NotYourTurnError(f"it is {other.name}'s move", rule=exc.rule) from None
    write.record(events, meta)
    _deal_if_needed(write)


@write_service
def match_record_hand(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    drawn: bool = False,
    knocker: Player | None = None,
    gin: bool = False,
    knocker_deadwood: int | None = None,
    defender_deadwood: int | None = None,
    expected_version: int | None = None,
    request_id: str = "",
    entered_by: Player | None = None,
) -> MatchSaved:
    """Scoresheet mode: record one hand played with physical cards at a club table. The
    engine validates it against the ruleset and scores it as it would an online hand.
    `entered_by`: the player who entered it on their phone (an organiser accepting it)."""
    return match_record_hand_in_tx(
        match_id=match_id,
        by=by,
        drawn=drawn,
        knocker=knocker,
        gin=gin,
        knocker_deadwood=knocker_deadwood,
        defender_deadwood=defender_deadwood,
        expected_version=expected_version,
        request_id=request_id,
        entered_by=entered_by,
    )


def match_record_hand_in_tx(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    drawn: bool = False,
    knocker: Player | None = None,
    gin: bool = False,
    knocker_deadwood: int | None = None,
    defender_deadwood: int | None = None,
    expected_version: int | None = None,
    request_id: str = "",
    entered_by: Player | None = None,
    confirmed_by: Player | None = None,
) -> MatchSaved:
    """`match_record_hand` inside the caller's transaction. A hand entered by one player of
    the match and confirmed by the other (`entered_by`, `confirmed_by`: games.table_entries)
    needs no organiser; who entered and who confirmed go into the event's metadata."""
    write = repository.match_lock(match_id=match_id)
    match = write.match
    seats = {match.seat_of(p.pk) for p in (entered_by, confirmed_by) if p is not None}
    if confirmed_by is None or seats != {0, 1}:
        _require_organiser(by, match)
    if match.mode != "table":
        raise ValidationError("only a table match records hands", code="not_table_mode")
    _check_version(write, expected_version)
    if drawn:
        action: A.Action = A.RecordDrawnHand()
    else:
        seat = match.seat_of(knocker.pk) if knocker is not None else None
        if seat is None:
            raise not_a_player_error("knocker", "the knocker must be a player of the match")
        if not _is_count(knocker_deadwood) or not _is_count(defender_deadwood):
            raise ValidationError(
                "knocker_deadwood and defender_deadwood are counts of 0 or more",
                code="deadwood",
            )
        action = A.RecordHand(
            knocker=seat,
            gin=bool(gin),
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=defender_deadwood,
        )
    meta = _meta(actor=_user_actor(by), request_id=request_id)
    if entered_by is not None:
        meta["entered_by"] = f"player:{entered_by.pk}"
        meta["confirmed_by"] = (
            f"player:{confirmed_by.pk}" if confirmed_by is not None else _user_actor(by)
        )
    write.record(decide(write.state, action), meta)
    return _finished_on_commit(repository.match_save(write))


def match_rule_in_tx(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    type: str,  # noqa: A002 - the ruling's name in the API
    reason: str,
    player: Player | None = None,
    game: int | None = None,
    points: int | None = None,
    hand_number: int | None = None,
    knocker: Player | None = None,
    gin: bool = False,
    knocker_deadwood: int | None = None,
    defender_deadwood: int | None = None,
    drawn: bool = False,
    request_id: str = "",
) -> MatchSaved:
    """An organiser's ruling, recorded as an event with the reason and who ruled, inside
    the caller's transaction (a tournament's ruling): void_hand (the hand in play, or
    `hand_number`), correct_hand (a table hand's entry), adjust_score (player, game,
    points), forfeit (player = the WINNER), resign (player resigns), cancel (the match ends
    unplayed, no winner). Nothing is edited in place; a replay shows the ruling where it
    was, and the match is derived again from the corrected hands."""
    if type not in RULING_TYPES:
        raise ValidationError(f"type must be one of {', '.join(RULING_TYPES)}", code="ruling")
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError("a ruling needs a reason", code="reason_required")
    write = repository.match_lock(match_id=match_id)
    match = write.match
    _require_organiser(by, match)
    entry = _HandEntry(hand_number, knocker, gin, knocker_deadwood, defender_deadwood, drawn)
    action = _ruling_action(match, type, reason.strip(), by, player, game, points, entry)
    meta = _meta(actor=_user_actor(by), request_id=request_id, ruling_by=by.pk)
    meta["reason"] = reason.strip()
    before = write.state
    write.record(decide(write.state, action), meta)
    _check_result_change(match, before, write.state)
    _deal_if_needed(write)
    return _finished_on_commit(repository.match_save(write))


# -- helpers ---------------------------------------------------------------------------


match_rule = write_service_of(
    match_rule_in_tx,
    name="match_rule",
    doc="`match_rule_in_tx` as an entry point: the outermost transaction of its own.",
)


def not_a_player_error(field: str, message: str) -> ValidationError:
    """A field that names a player holds someone who does not play in the match: the
    documented `validation_error`, the field named in `fields`, `reason` not_a_player."""
    return ValidationError(message, extra={"fields": {field: [message]}, "reason": "not_a_player"})


def _check_version(write: MatchWrite, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != write.version:
        raise VersionConflictError(
            f"the match is at version {write.version}, not {expected_version}",
            extra={"current_version": write.version, "expected_version": expected_version},
        )


def _require_organiser(user: AbstractBaseUser, match: Match) -> None:
    if not user_can_organise_match(user=user, match=match):
        raise PermissionDeniedError("only an organiser of this match may do this")


def _player_action(seat: int, action: dict) -> A.Action:
    # Resigning is a player's own ruling; everything else is a card play.
    if isinstance(action, dict) and action.get("type") == "resign":
        if set(action) != {"type"}:
            raise A.InvalidActionError("resign takes no other fields", rule="actions")
        return A.Resign(seat=seat)
    return A.action_from_dict(seat, action)


def _ruling_action(
    match: Match,
    kind: str,
    reason: str,
    by: AbstractBaseUser,
    player: Player | None,
    game: int | None,
    points: int | None,
    entry: _HandEntry,
) -> A.Action:
    who = by.get_username()
    if kind == "void_hand":
        if entry.hand_number is not None and not _is_int(entry.hand_number):
            raise ValidationError("hand_number is a whole number", code="hand_number")
        return A.VoidHand(reason=reason, by=who, hand_number=entry.hand_number)
    if kind == "correct_hand":
        return _correction(match, reason, who, entry)
    if kind == "cancel":
        return A.CancelMatch(reason=reason, by=who)
    seat = match.seat_of(player.pk) if player is not None else None
    if seat is None:
        raise ValidationError(f"{kind} needs a player of the match", code="player_required")
    if kind == "resign":
        return A.Resign(seat=seat)
    if kind == "forfeit":
        return A.Forfeit(winner=seat, reason=reason, by=who)
    if not _is_int(game) or not _is_int(points):
        raise ValidationError("adjust_score needs integer game and points", code="adjustment")
    return A.AdjustScore(seat=seat, game=game, points=points, reason=reason, by=who)


class _HandEntry(NamedTuple):
    """A hand's entry as a correction states it (knocker a player)."""

    hand_number: int | None
    knocker: Player | None
    gin: bool
    knocker_deadwood: int | None
    defender_deadwood: int | None
    drawn: bool


def _correction(match: Match, reason: str, who: str, entry: _HandEntry) -> A.Action:
    if not _is_int(entry.hand_number):
        raise ValidationError("correct_hand needs the hand_number", code="hand_number")
    if entry.drawn:
        return A.CorrectHand(hand_number=entry.hand_number, reason=reason, by=who, drawn=True)
    seat = match.seat_of(entry.knocker.pk) if entry.knocker is not None else None
    if seat is None:
        raise not_a_player_error(
            "knocker", "correct_hand needs the knocker, a player of the match (or drawn: true)"
        )
    if not _is_count(entry.knocker_deadwood) or not _is_count(entry.defender_deadwood):
        raise ValidationError(
            "knocker_deadwood and defender_deadwood are counts of 0 or more", code="deadwood"
        )
    return A.CorrectHand(
        hand_number=entry.hand_number,
        reason=reason,
        by=who,
        knocker=seat,
        gin=bool(entry.gin),
        knocker_deadwood=entry.knocker_deadwood,
        defender_deadwood=entry.defender_deadwood,
    )


def _deal_if_needed(write: MatchWrite) -> None:
    """The next deal is an automatic step, recorded as an event like any other. The deck
    and salt are decided here, outside the engine, and carried in the event."""
    if not needs_deal(write.state):
        return
    deck = _deck_for(write.match, write.state.hand_number + 1)
    salt = secrets.token_hex(16)
    write.record(decide(write.state, A.Deal(deck=deck, salt=salt)), _meta(actor="system"))


def _check_result_change(match: Match, before: MatchState, after: MatchState) -> None:
    """A ruling that changes a finished match's winner (or reopens it) asks the other apps
    first (`match_result_changing`): a receiver refuses by raising a domain error, e.g. a
    knockout whose next match, played by the winner of this one, is in play."""
    if before.status != "finished" or after.finish_reason == "cancelled":
        return
    if after.status == "finished" and after.winner == before.winner:
        return
    match_result_changing.send(
        sender=Match,
        match_id=match.id,
        winner_before=match.player_id_for_seat(before.winner),
        winner_after=match.player_id_for_seat(after.winner) if after.status == "finished" else None,
    )


def _finished_on_commit(saved: MatchSaved) -> MatchSaved:
    """Tell other apps once the events that ended the match (match_finished), or put it
    back in play (match_reopened, a correction), commit. A correction that changes the
    result of a finished match ends it again: match_finished once more."""
    match_id = saved.match.id
    if saved.reopened:
        transaction.on_commit(lambda: match_reopened.send(sender=Match, match_id=match_id))
    elif saved.result_changed:
        transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match_id))
    return saved


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


def _is_count(value: object) -> bool:
    return _is_int(value) and value >= 0  # type: ignore[operator]
