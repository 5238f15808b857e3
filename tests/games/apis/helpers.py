"""Helpers of the matches API tests: a preset deal, an action posted to the API, and a
client-side bot that decides from the caller's view only (its own cards, the discard pile
and its legal actions), as a real client app would."""

from __future__ import annotations

from typing import Any

from games.engine.cards import FULL_DECK
from games.engine.melds import best_discard, min_deadwood

# Ben (the non-dealer) is dealt three melds and KD; the upcard AS lets him knock at once.
BEN = ["7C", "8C", "9C", "2H", "3H", "4H", "5S", "5D", "5H", "KD"]
ANN = ["KC", "QC", "JS", "TD", "9D", "8S", "6C", "4C", "3S", "2D"]
UPCARD = "AS"
MELDS = [["7C", "8C", "9C"], ["2H", "3H", "4H"], ["5D", "5H", "5S"]]


def preset_deck() -> list[str]:
    """RULES 3: positions 0, 2, … 18 to the non-dealer, 1, 3, … 19 to the dealer, 20 is the
    upcard, the rest the stock (top first)."""
    deck = [card for pair in zip(BEN, ANN, strict=True) for card in pair] + [UPCARD]
    return deck + [c for c in FULL_DECK if c not in deck]


def act(client, match_id, body, **extra):
    return client.post(f"/api/matches/{match_id}/actions/", body, format="json", **extra)


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
