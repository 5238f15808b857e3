"""Dispute cases: a player disputes a hand or the whole match, people comment, an organiser
resolves it (with a ruling, its own event, or by dismissing it). Records only: nothing here
touches the hands or the scoresheet. `decide`-like functions check and return the events;
`disputes_after` is what `evolve` does with them."""

from __future__ import annotations

from typing import Any

from games.engine.errors import RuleError
from games.engine.events import DisputeCommented, DisputeOpened, DisputeResolved, Event
from games.engine.state import MatchState

OUTCOMES = ("ruled", "dismissed")
MAX_TEXT = 2000


class DisputeError(RuleError):
    code = "invalid_dispute"


class DisputeClosedError(RuleError):
    code = "dispute_closed"


def dispute_find(state: MatchState, number: int) -> dict[str, Any] | None:
    return next((d for d in state.disputes if d["dispute"] == number), None)


# A whole sentence per text (no English noun inside a translated one): (missing, too long).
_TEXT_MESSAGES = {
    "statement": ("a dispute needs a statement", "a statement is longer than %(most)s characters"),
    "comment": ("a dispute needs a comment", "a comment is longer than %(most)s characters"),
    "reason": ("a dispute needs a reason", "a reason is longer than %(most)s characters"),
}
# The outcome of a closed dispute, in a whole sentence.
_CLOSED_MESSAGES = {
    "ruled": "dispute #%(number)s is already ruled",
    "dismissed": "dispute #%(number)s is already dismissed",
}


def _text(value: object, what: str) -> str:
    missing, too_long = _TEXT_MESSAGES[what]
    if not isinstance(value, str) or not value.strip():
        raise DisputeError(missing, rule="disputes")
    if len(value) > MAX_TEXT:
        raise DisputeError(too_long, rule="disputes", most=MAX_TEXT)
    return value.strip()


def dispute_open(
    state: MatchState, *, seat: int, hand_number: int | None, statement: str
) -> list[Event]:
    """A player (`seat`) disputes hand `hand_number` (a hand dealt or recorded so far) or,
    with None, the whole match."""
    if seat not in (0, 1) or isinstance(seat, bool):
        raise DisputeError("only the match's players open disputes", rule="disputes")
    if state.status == "new":
        raise DisputeError("the match has not started", rule="disputes")
    played = max(state.hand_number, len(state.hand_results))
    if hand_number is not None and not (
        isinstance(hand_number, int) and not isinstance(hand_number, bool)
        and 1 <= hand_number <= played
    ):  # fmt: skip
        raise DisputeError(
            "hand_number must be between 1 and %(played)s, or none for the whole match",
            rule="disputes",
            played=played,
        )
    number = len(state.disputes) + 1
    text = _text(statement, "statement")
    return [DisputeOpened(dispute=number, seat=seat, hand_number=hand_number, statement=text)]


def _open_case(state: MatchState, number: int) -> dict[str, Any]:
    case = dispute_find(state, number)
    if case is None:
        raise DisputeError("no dispute #%(number)s in this match", rule="disputes", number=number)
    if case["outcome"] is not None:
        message = _CLOSED_MESSAGES.get(case["outcome"], "dispute #%(number)s is already closed")
        raise DisputeClosedError(message, rule="disputes", number=number)
    return case


def dispute_comment(state: MatchState, *, dispute: int, comment: str, by: str) -> list[Event]:
    _open_case(state, dispute)
    return [DisputeCommented(dispute=dispute, comment=_text(comment, "comment"), by=by)]


def dispute_resolve(
    state: MatchState, *, dispute: int, outcome: str, reason: str, by: str
) -> list[Event]:
    _open_case(state, dispute)
    if outcome not in OUTCOMES:
        raise DisputeError(
            "outcome must be one of %(outcomes)s", rule="disputes", outcomes=", ".join(OUTCOMES)
        )
    return [
        DisputeResolved(dispute=dispute, outcome=outcome, reason=_text(reason, "reason"), by=by)
    ]


def disputes_after(
    disputes: tuple[dict[str, Any], ...], event: Event
) -> tuple[dict[str, Any], ...]:
    """The dispute records after `event` (new records: the old ones are shared, never
    changed in place)."""
    match event:
        case DisputeOpened():
            record: dict[str, Any] = {
                "dispute": event.dispute,
                "seat": event.seat,
                "hand_number": event.hand_number,
                "statement": event.statement,
                "comments": [],
                "outcome": None,
                "reason": None,
                "by": None,
            }
            return (*disputes, record)
        case DisputeCommented():
            note = {"comment": event.comment, "by": event.by}
            return tuple(
                {**d, "comments": [*d["comments"], note]} if d["dispute"] == event.dispute else d
                for d in disputes
            )
        case DisputeResolved():
            done = {"outcome": event.outcome, "reason": event.reason, "by": event.by}
            return tuple({**d, **done} if d["dispute"] == event.dispute else d for d in disputes)
    return disputes
