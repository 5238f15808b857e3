"""A client-side bot for the API tests and bench: it decides from the caller's view only (its
own cards, the discard pile and its legal actions), as a real client app would."""

from __future__ import annotations

from typing import Any

from games.engine.melds import best_discard, min_deadwood


def _improves(cards: list[str], card: str) -> bool:
    """Would taking `card` lower the best deadwood after the following discard?"""
    discard, after = best_discard([*cards, card])
    return discard != card and after < min_deadwood(cards)


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """One of view["legal_actions"]."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("not this player's move")
    cards = view["your_cards"]
    take = {"type": "draw", "source": "discard"}
    if view["phase"] in ("upcard", "draw"):
        if take in actions and _improves(cards, view["discard_pile"][-1]):
            return take
        return next(a for a in actions if a["type"] in ("pass", "draw") and a != take)
    knocks = [a["card"] for a in actions if a["type"] == "knock"]
    if knocks:
        card = min(knocks, key=lambda c: (min_deadwood([x for x in cards if x != c]), c))
        return {"type": "knock", "card": card}
    discards = [a["card"] for a in actions if a["type"] == "discard"]
    best, _ = best_discard(cards)
    return {"type": "discard", "card": best if best in discards else discards[0]}
