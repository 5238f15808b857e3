"""What each viewer may see of a match. While a hand is in play a seat sees only its own
cards, the discard pile and the counts; the deck order, the salt and the other hand are
revealed in `hands` (the finished-hand records) once that hand has ended."""

from __future__ import annotations

from typing import Any

from games.engine.match import legal_actions, needs_deal
from games.engine.scoresheet import scoresheet_to_dict
from games.engine.state import MatchState, state_to_dict


def public_view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (0 or 1), or of a spectator / organiser when seat is None.

    The finished-hand records and rulings are the state's own (JSON-ready, never changed
    once made), not copies: copying every record of a long match on every view cost more
    than the rest of the view. A caller that edits one copies it first."""
    counts = [len(state.hands[0]), len(state.hands[1])]
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
        "hands": list(state.hand_results),
        "rulings": list(state.rulings),
        "scoresheet": scoresheet_to_dict(state.scoresheet),
        "winner": state.winner,
        "finish_reason": state.finish_reason,
    }


def full_state(state: MatchState) -> dict[str, Any]:
    """Everything, hidden cards included: for audits and replays by organisers."""
    return {**state_to_dict(state), "scoresheet_view": scoresheet_to_dict(state.scoresheet)}
