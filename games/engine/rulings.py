"""Actions of organisers: hands recorded in table (scoresheet) mode, and rulings (void the
hand in play, adjust a score, forfeit, cancel the match) plus a player's resignation."""

from __future__ import annotations

from games.engine.actions import (
    AdjustScore,
    CancelMatch,
    Forfeit,
    RecordDrawnHand,
    RecordHand,
    Resign,
    VoidHand,
)
from games.engine.errors import IllegalActionError
from games.engine.events import (
    Event,
    HandDrawn,
    HandRecorded,
    HandVoided,
    MatchCancelled,
    MatchFinished,
    MatchForfeited,
    PlayerResigned,
    ScoreAdjusted,
)
from games.engine.outcomes import game_end_events, score_events
from games.engine.scoresheet import score_hand, scoresheet_adjust, scoresheet_close_reached
from games.engine.state import MatchState

MAX_DEADWOOD = 98  # 10 cards without a meld hold at most 8 tens and two nines


def decide_record_hand(state: MatchState, action: RecordHand) -> list[Event]:
    _require_table(state)
    limit = state.ruleset.knock_limit
    k, d = action.knocker_deadwood, action.defender_deadwood
    if action.knocker not in (0, 1) or isinstance(action.knocker, bool):
        raise IllegalActionError("the knocker must be seat 0 or 1", rule="table mode")
    if not isinstance(action.gin, bool):
        raise IllegalActionError("gin must be true or false", rule="table mode")
    for name, value in (("knocker_deadwood", k), ("defender_deadwood", d)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise IllegalActionError(f"{name} must be a whole number >= 0", rule="2 deadwood")
    if k > limit:
        raise IllegalActionError(
            f"6 knocking: deadwood {k} exceeds the knock limit {limit}", rule="6 knocking"
        )
    if action.gin != (k == 0):
        raise IllegalActionError(
            "6 gin: a gin hand has knocker deadwood 0, and deadwood 0 is gin", rule="6 gin"
        )
    if d > MAX_DEADWOOD:
        raise IllegalActionError(
            f"2 deadwood: ten cards hold at most {MAX_DEADWOOD} points of deadwood, not {d}",
            rule="2 deadwood",
        )
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


def decide_record_drawn(state: MatchState, action: RecordDrawnHand) -> list[Event]:
    _require_table(state)
    return [HandDrawn(hand_number=state.hand_number + 1)]


def _require_table(state: MatchState) -> None:
    if state.mode != "table":
        raise IllegalActionError(
            "hands are recorded only in table mode; online hands are played", rule="table mode"
        )


def decide_void(state: MatchState, action: VoidHand) -> list[Event]:
    if not state.in_play:
        raise IllegalActionError("there is no hand in play to void", rule="rulings: void hand")
    return [HandVoided(hand_number=state.hand_number, reason=action.reason, by=action.by)]


def decide_adjust(state: MatchState, action: AdjustScore) -> list[Event]:
    games = len(state.scoresheet.games)
    if action.seat not in (0, 1) or isinstance(action.seat, bool):
        raise IllegalActionError(f"there is no seat {action.seat!r}", rule="rulings: adjust")
    if not isinstance(action.game, int) or not 1 <= action.game <= games:
        raise IllegalActionError(f"game must be 1 to {games}", rule="rulings: adjust")
    if not isinstance(action.points, int) or isinstance(action.points, bool) or not action.points:
        raise IllegalActionError("points must be a non-zero whole number", rule="rulings: adjust")
    game = state.scoresheet.games[action.game - 1]
    if not game.open:
        raise IllegalActionError(
            f"game {action.game} has ended; its score can no longer be adjusted",
            rule="rulings: adjust",
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
        raise IllegalActionError(f"there is no seat {value!r}", rule="seats")
    return value
