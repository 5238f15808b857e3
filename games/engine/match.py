"""The match state machine: `decide(state, action) -> events` checks the rules (RULES.md)
and raises a RuleError naming the rule; `evolve(state, event) -> state` applies an event
with no checks. Pure: no clock, no randomness (the deck and salt come in the Deal action)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.engine import play, rulings
from games.engine.actions import (
    Action,
    AdjustScore,
    CancelMatch,
    CorrectHand,
    Deal,
    Discard,
    Draw,
    Forfeit,
    Knock,
    Pass,
    RecordDrawnHand,
    RecordHand,
    Resign,
    VoidHand,
)
from games.engine.errors import IllegalActionError, MatchFinishedError
from games.engine.events import Event, MatchStarted
from games.engine.evolve import evolve
from games.engine.play import knock_options, legal_actions
from games.engine.ruleset import Ruleset
from games.engine.state import MatchState, commitment, initial_state, needs_deal

__all__ = [
    "MatchState",
    "commitment",
    "decide",
    "evolve",
    "initial_state",
    "knock_options",
    "legal_actions",
    "needs_deal",
    "replay",
    "start_match",
]


def start_match(*, ruleset: Ruleset, first_dealer: int, mode: str = "online") -> list[Event]:
    """The first event of a match. The first dealer is chosen at random outside (RULES 3)."""
    if first_dealer not in (0, 1) or isinstance(first_dealer, bool):
        raise IllegalActionError("the first dealer must be seat 0 or 1", rule="3 dealing")
    if mode not in ("online", "table"):
        raise IllegalActionError('mode must be "online" or "table"', rule="table mode")
    return [MatchStarted(ruleset=ruleset.to_dict(), first_dealer=first_dealer, mode=mode)]


def replay(events: Iterable[Event], state: MatchState | None = None) -> MatchState:
    """Fold events over a state (a fresh one by default)."""
    current = state if state is not None else initial_state()
    for event in events:
        current = evolve(current, event)
    return current


_HANDLERS: dict[type, Callable[[MatchState, Any], list[Event]]] = {
    Deal: play.decide_deal,
    Pass: play.decide_pass,
    Draw: play.decide_draw,
    Discard: play.decide_discard,
    Knock: play.decide_knock,
    RecordHand: rulings.decide_record_hand,
    RecordDrawnHand: rulings.decide_record_drawn,
    VoidHand: rulings.decide_void,
    CorrectHand: rulings.decide_correct,
    AdjustScore: rulings.decide_adjust,
    Forfeit: rulings.decide_forfeit,
    Resign: rulings.decide_resign,
    CancelMatch: rulings.decide_cancel,
}


def decide(state: MatchState, action: Action) -> list[Event]:
    """The events an action causes, including every automatic consequence (defence,
    scoring, games won, match end). Raises a RuleError subclass if the action is illegal."""
    if state.status == "new":
        raise IllegalActionError("the match has not started", rule="match start")
    if state.status == "finished" and not rulings.allowed_after_finish(action):
        raise MatchFinishedError("the match is over", rule="8 match end")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalActionError(
            "unknown action %(action)s", rule="actions", action=type(action).__name__
        )
    return handler(state, action)
