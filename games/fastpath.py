"""The action path's speed trick outside the load and save themselves, kept beside the
repository (games/repository.py), where the write path's others live (STYLE 13; figures in
bench/README.md, "Action input").

`POST /api/matches/{id}/actions/` checks a plain body here instead of building
ActionInputSerializer: almost every action is one of a few flat shapes, and building the
serializer for it cost more than checking those shapes by hand. Any other body goes
through the serializer, its errors included, so what is accepted, and how it reads, is
the serializer's (tests/games/apis/test_action_input.py compares the two)."""

from __future__ import annotations

from typing import Any

from games.engine.cards import FULL_DECK

# The plain bodies almost every action sends, and what ActionInputSerializer makes of them.
_ACTION_TYPES = frozenset(["pass", "draw", "discard", "knock", "resign"])
_SOURCES = frozenset(["stock", "discard"])
_CARDS = frozenset(FULL_DECK)
_PLAIN_KEYS = frozenset(["type", "source", "card", "expected_version"])


def action_input_plain(data: Any) -> dict[str, Any] | None:
    """The validated data ActionInputSerializer would give for a plain action body (known
    type and source, a card of the deck, a non-negative integer version, no melds), without
    building the serializer; None for any other body, which then goes through the
    serializer, its errors included."""
    if type(data) is not dict or not data.keys() <= _PLAIN_KEYS:
        return None
    kind, source, card = data.get("type"), data.get("source"), data.get("card")
    version = data.get("expected_version")
    if type(kind) is not str or kind not in _ACTION_TYPES:
        return None
    if "source" in data and (type(source) is not str or source not in _SOURCES):
        return None
    if "card" in data and (type(card) is not str or card not in _CARDS):
        return None
    if "expected_version" in data and (type(version) is not int or version < 0):
        return None
    # In the serializer's field order.
    return {k: data[k] for k in ("type", "source", "card", "expected_version") if k in data}
