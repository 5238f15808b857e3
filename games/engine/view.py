"""What each viewer may see of a match. While a hand is in play a seat sees only its own
cards, the discard pile and the counts; the deck order, the salt and the other hand are
revealed in `hands` (the finished-hand records) once that hand is over: ended by its own
events, or left unfinished by the end of the match (it can then never continue)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engine.evolve import hand_record
from games.engine.match import legal_actions, needs_deal
from games.engine.scoresheet import scoresheet_to_dict
from games.engine.state import MatchState, state_to_dict

# Stored event types that end the hand in play (its number is in their data).
HAND_END_EVENTS = frozenset({"HandScored", "HandDrawn", "HandVoided"})
# Stored event types that end the match however it ends (on the games, by forfeit or
# resignation, or cancelled): a hand still in play then is over too, never to be finished,
# and its record is owed to the auditors like any other's.
MATCH_END_EVENTS = frozenset({"MatchFinished", "MatchCancelled"})


def ends_hand(kind: str, data: Mapping[str, Any], hand_number: int) -> bool:
    """Whether the stored event (`kind`, `data`) puts an end to hand `hand_number`, if that
    hand is in play when it happens: the hand's own end, or the end of the match."""
    if kind in MATCH_END_EVENTS:
        return True
    return kind in HAND_END_EVENTS and data.get("hand_number") == hand_number


def hands_over(events: Iterable[tuple[str, Mapping[str, Any]]]) -> set[int]:
    """The numbers of the dealt hands that are over after `events` (stored type and data,
    in stream order). Only these may have their deck, salt and hidden cards revealed."""
    over: set[int] = set()
    hand = 0
    for kind, data in events:
        if kind == "HandDealt":
            hand = data["hand_number"]
        elif hand and ends_hand(kind, data, hand):
            over.add(hand)
    return over


def unfinished_hand(state: MatchState) -> dict[str, Any] | None:
    """The record of the hand in play when the match ended (cancelled, forfeited, resigned,
    or decided by a score adjustment), shaped like a finished hand's (deck, salt,
    commitment, both hands, stock) with kind "unfinished" and the match's finish reason;
    None if the match is not over or no dealt hand was in play when it ended."""
    if state.status != "finished" or not state.deck:
        return None
    return {**hand_record(state, {"reason": state.finish_reason}), "kind": "unfinished"}


def public_view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (0 or 1), or of a spectator / organiser when seat is None.

    `hands`: the finished-hand records, then the unfinished hand's if the match ended
    during one. A record corrected or voided afterwards keeps its history for the
    crossed-out line: "corrections" ([{"before", "after", "reason", "by"}], the first
    "before" being the original entry), "voided" with "void_reason" and "void_by"; a hand
    recorded after the point where the (corrected) games ended the match has
    "after_end": true. Such hands score in no game ("games": []).

    The finished-hand records and rulings are the state's own (JSON-ready, never changed
    once made: a correction makes new ones), not copies: copying every record of a long
    match on every view cost more than the rest of the view. A caller that edits one
    copies it first."""
    counts = [len(state.hands[0]), len(state.hands[1])]
    hands = list(state.hand_results)
    unfinished = unfinished_hand(state)
    if unfinished is not None:
        hands.append(unfinished)
    me = seat if seat in (0, 1) else None
    return {
        "status": state.status,
        "mode": state.mode,
        "phase": state.phase,
        "ruleset": state.ruleset.to_dict(),
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "turn": state.turn,
        "seat": me,
        "your_cards": list(state.hands[me]) if me is not None else None,
        "card_counts": counts,
        "opponent_card_count": counts[1 - me] if me is not None else None,
        "discard_pile": list(state.discard_pile),
        "upcard": state.discard_pile[-1] if state.phase == "upcard" else None,
        "stock_count": len(state.stock),
        "must_draw_stock": state.must_draw_stock,
        "picked_up": [list(p) for p in state.picked_up],  # face-up cards taken: public
        "legal_actions": legal_actions(state, me) if me is not None else [],
        "needs_deal": needs_deal(state),
        "commitment": state.commitment or None,
        "hands": hands,
        "rulings": list(state.rulings),
        "scoresheet": scoresheet_to_dict(state.scoresheet),
        "winner": state.winner,
        "finish_reason": state.finish_reason,
    }


def full_state(state: MatchState) -> dict[str, Any]:
    """Everything, hidden cards included: for audits and replays by organisers."""
    return {**state_to_dict(state), "scoresheet_view": scoresheet_to_dict(state.scoresheet)}
