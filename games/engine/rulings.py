"""Actions of organisers: hands recorded in table (scoresheet) mode, and rulings (void the
hand in play or a past hand, correct a recorded hand, adjust a score, forfeit, cancel the
match) plus a player's resignation."""

from __future__ import annotations

from typing import Any

from games.engine.actions import (
    Action,
    AdjustScore,
    CancelMatch,
    CorrectHand,
    Forfeit,
    RecordDrawnHand,
    RecordHand,
    Resign,
    VoidHand,
)
from games.engine.corrections import (
    DRAWN_ENTRY,
    STANDING_FINISHES,
    entry,
    entry_of,
    find_hand,
    hand_corrected,
    is_voided,
    past_hand_voided,
)
from games.engine.errors import IllegalActionError
from games.engine.events import (
    Event,
    HandCorrected,
    HandDrawn,
    HandRecorded,
    HandVoided,
    MatchCancelled,
    MatchFinished,
    MatchForfeited,
    MatchReopened,
    PlayerResigned,
    ScoreAdjusted,
)
from games.engine.outcomes import game_end_events, score_events
from games.engine.ruleset import MAX_DEADWOOD, Ruleset
from games.engine.scoresheet import score_hand, scoresheet_adjust, scoresheet_close_reached
from games.engine.state import MatchState


def decide_record_hand(state: MatchState, action: RecordHand) -> list[Event]:
    _require_table(state)
    k, d = action.knocker_deadwood, action.defender_deadwood
    _check_entry(state.ruleset, action.knocker, action.gin, k, d)
    number = state.hand_number + 1
    kind, winner, points = score_hand(
        state.ruleset,
        knocker=action.knocker,
        gin=action.gin,
        knocker_deadwood=k,
        defender_deadwood=d,
    )
    recorded = HandRecorded(
        hand_number=number,
        knocker=action.knocker,
        gin=action.gin,
        knocker_deadwood=k,
        defender_deadwood=d,
    )
    return [
        recorded,
        *score_events(
            state,
            hand_number=number,
            kind=kind,
            knocker=action.knocker,
            winner=winner,
            points=points,
            knocker_deadwood=k,
            defender_deadwood=d,
        ),
    ]


def _check_entry(ruleset: Ruleset, knocker: object, gin: object, k: object, d: object) -> None:
    """A knocked hand's entry as RULES 2 and 6 allow it (RecordHand and CorrectHand)."""
    limit = ruleset.knock_limit
    if knocker not in (0, 1) or isinstance(knocker, bool):
        raise IllegalActionError("the knocker must be seat 0 or 1", rule="table mode")
    if not isinstance(gin, bool):
        raise IllegalActionError("gin must be true or false", rule="table mode")
    for name, value in (("knocker_deadwood", k), ("defender_deadwood", d)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise IllegalActionError(
                "%(name)s must be a whole number >= 0", rule="2 deadwood", name=name
            )
    assert isinstance(k, int) and isinstance(d, int)
    if k > limit:
        raise IllegalActionError(
            "6 knocking: deadwood %(deadwood)s exceeds the knock limit %(limit)s",
            rule="6 knocking",
            deadwood=k,
            limit=limit,
        )
    if gin != (k == 0):
        raise IllegalActionError(
            "6 gin: a gin hand has knocker deadwood 0, and deadwood 0 is gin", rule="6 gin"
        )
    if d > MAX_DEADWOOD:
        raise IllegalActionError(
            "2 deadwood: ten cards hold at most %(most)s points of deadwood, not %(deadwood)s",
            rule="2 deadwood",
            most=MAX_DEADWOOD,
            deadwood=d,
        )


def decide_record_drawn(state: MatchState, action: RecordDrawnHand) -> list[Event]:
    _require_table(state)
    return [HandDrawn(hand_number=state.hand_number + 1)]


def _require_table(state: MatchState) -> None:
    if state.mode != "table":
        raise IllegalActionError(
            "hands are recorded only in table mode; online hands are played", rule="table mode"
        )


def decide_void(state: MatchState, action: VoidHand) -> list[Event]:
    """Without a hand number, or with the number of the hand in play: void the hand in play
    (the same dealer deals again). With a finished hand's number: void that past hand."""
    number = action.hand_number
    if number is not None and not (state.in_play and number == state.hand_number):
        return _decide_past_void(state, action, number)
    if not state.in_play:
        raise IllegalActionError("there is no hand in play to void", rule="rulings: void hand")
    return [HandVoided(hand_number=state.hand_number, reason=action.reason, by=action.by)]


# --- corrections: past hands changed, the match re-derived (corrections.refold) ----------


def allowed_after_finish(action: Action) -> bool:
    """Corrections and past voids may change a finished match (not a cancelled one: the
    rulings check that); every other action is refused once a match is over."""
    return isinstance(action, CorrectHand) or (
        isinstance(action, VoidHand) and action.hand_number is not None
    )


def decide_correct(state: MatchState, action: CorrectHand) -> list[Event]:
    """Replace a table-mode hand's entry. Checked exactly as RecordHand / RecordDrawnHand,
    and refused for an online match, a cancelled one, a hand that does not exist or is
    voided, a correction that changes nothing, and one without a reason.

    On a match finished by forfeit or resignation the hand's record and the scoresheet
    change but the finish and its winner stand (see `corrections`)."""
    rule = "rulings: correct hand"
    if state.mode != "table":
        raise IllegalActionError(
            "only hands recorded in table mode can be corrected; an online hand was played "
            "card by card (void it instead)",
            rule=rule,
        )
    record = _past_hand(state, action.hand_number, action.reason, rule, "corrected")
    after = _corrected_entry(state.ruleset, action)
    before = entry_of(record)
    if after == before:
        raise IllegalActionError(
            "hand %(hand)s is already recorded like this", rule=rule, hand=action.hand_number
        )
    event = HandCorrected(
        hand_number=action.hand_number,
        before=before,
        after=after,
        reason=action.reason,
        by=action.by,
    )
    return [event, *_status_events(state, hand_corrected(state, event), event, "correction")]


def _corrected_entry(ruleset: Ruleset, action: CorrectHand) -> dict[str, Any]:
    if not isinstance(action.drawn, bool):
        raise IllegalActionError("drawn must be true or false", rule="rulings: correct hand")
    if action.drawn:
        knocked = (action.knocker, action.knocker_deadwood, action.defender_deadwood)
        if knocked != (None, None, None) or action.gin is not False:
            raise IllegalActionError(
                "a drawn hand has no knocker, gin or deadwood", rule="rulings: correct hand"
            )
        return dict(DRAWN_ENTRY)
    k, d = action.knocker_deadwood, action.defender_deadwood
    _check_entry(ruleset, action.knocker, action.gin, k, d)
    assert action.knocker is not None and k is not None and d is not None
    return entry(
        ruleset, knocker=action.knocker, gin=action.gin, knocker_deadwood=k, defender_deadwood=d
    )


def _decide_past_void(state: MatchState, action: VoidHand, number: int) -> list[Event]:
    rule = "rulings: void hand"
    if state.in_play:
        raise IllegalActionError(
            "hand %(hand)s is in play: a past hand is voided between hands",
            rule=rule,
            hand=state.hand_number,
        )
    _past_hand(state, number, action.reason, rule, "voided")
    event = HandVoided(hand_number=number, reason=action.reason, by=action.by)
    return [event, *_status_events(state, past_hand_voided(state, event), event, "void")]


# A whole sentence per ruling (no English verb inside a translated one): (cancelled, no reason).
_PAST_HAND_MESSAGES = {
    "corrected": (
        "the match was cancelled: none of its hands can be corrected",
        "a hand is corrected only with a reason",
    ),
    "voided": (
        "the match was cancelled: none of its hands can be voided",
        "a hand is voided only with a reason",
    ),
}


def _past_hand(
    state: MatchState, number: object, reason: object, rule: str, verb: str
) -> dict[str, Any]:
    cancelled, no_reason = _PAST_HAND_MESSAGES[verb]
    if state.finish_reason == "cancelled":
        raise IllegalActionError(cancelled, rule=rule)
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalActionError(no_reason, rule=rule)
    record = None
    if isinstance(number, int) and not isinstance(number, bool):
        record = find_hand(state, number)
    if record is None:
        raise IllegalActionError("there is no finished hand %(hand)s", rule=rule, hand=repr(number))
    if is_voided(record):
        raise IllegalActionError("hand %(hand)s is voided already", rule=rule, hand=number)
    return record


def _status_events(
    before: MatchState, after: MatchState, event: HandCorrected | HandVoided, reason: str
) -> list[Event]:
    """What the re-derived match says about its end, as explicit events: finished (or
    finished with another winner than before), or back in play."""
    if before.finish_reason in STANDING_FINISHES:
        return []
    if after.status == "finished" and after.winner is not None:
        if before.status != "finished" or before.winner != after.winner:
            return [MatchFinished(winner=after.winner, reason="games")]
        return []
    if before.status == "finished":
        return [MatchReopened(hand_number=event.hand_number, reason=reason)]
    return []


def decide_adjust(state: MatchState, action: AdjustScore) -> list[Event]:
    games = len(state.scoresheet.games)
    if action.seat not in (0, 1) or isinstance(action.seat, bool):
        raise IllegalActionError(
            "there is no seat %(seat)s", rule="rulings: adjust", seat=repr(action.seat)
        )
    if not isinstance(action.game, int) or not 1 <= action.game <= games:
        raise IllegalActionError("game must be 1 to %(games)s", rule="rulings: adjust", games=games)
    if not isinstance(action.points, int) or isinstance(action.points, bool) or not action.points:
        raise IllegalActionError("points must be a non-zero whole number", rule="rulings: adjust")
    game = state.scoresheet.games[action.game - 1]
    if not game.open:
        raise IllegalActionError(
            "game %(game)s has ended; its score can no longer be adjusted",
            rule="rulings: adjust",
            game=action.game,
        )
    if game.scores[action.seat] + action.points < 0:
        raise IllegalActionError("a score cannot become negative", rule="rulings: adjust")
    sheet = scoresheet_adjust(
        state.scoresheet, seat=action.seat, game=action.game, points=action.points
    )
    sheet, won = scoresheet_close_reached(sheet, seat=action.seat, ruleset=state.ruleset)
    adjusted = ScoreAdjusted(
        seat=action.seat,
        game=action.game,
        points=action.points,
        reason=action.reason,
        by=action.by,
    )
    return [adjusted, *game_end_events(sheet, won, action.seat, state.ruleset)]


def decide_forfeit(state: MatchState, action: Forfeit) -> list[Event]:
    winner = _seat(action.winner)
    return [
        MatchForfeited(winner=winner, reason=action.reason, by=action.by),
        MatchFinished(winner=winner, reason="forfeit"),
    ]


def decide_resign(state: MatchState, action: Resign) -> list[Event]:
    seat = _seat(action.seat)
    return [PlayerResigned(seat=seat), MatchFinished(winner=1 - seat, reason="resigned")]


def decide_cancel(state: MatchState, action: CancelMatch) -> list[Event]:
    # `decide` has already refused a finished match (rule "8 match end"); checked again so
    # that this stays true if called directly.
    if state.status != "in_progress":
        raise IllegalActionError(
            "only a match in progress can be cancelled", rule="rulings: cancel match"
        )
    if not isinstance(action.reason, str) or not action.reason.strip():
        raise IllegalActionError("a cancellation needs a reason", rule="rulings: cancel match")
    return [MatchCancelled(reason=action.reason, by=action.by)]


def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise IllegalActionError("there is no seat %(seat)s", rule="seats", seat=repr(value))
    return value
