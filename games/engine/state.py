"""The state of a match (frozen) and its JSON snapshot form."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from games.engine.ruleset import Ruleset
from games.engine.scoresheet import (
    Scoresheet,
    scoresheet_from_dict,
    scoresheet_new,
    scoresheet_to_dict,
)

# Phases. "knocked" only lasts between the Knocked event and the HandScored event of the
# same decision; "awaiting_record" is the table-mode resting phase.
PLAY_PHASES = ("upcard", "draw", "discard")
PHASES = ("new", "awaiting_deal", "awaiting_record", *PLAY_PHASES, "knocked", "finished")

Hands = tuple[tuple[str, ...], tuple[str, ...]]

# The shape of a snapshot (`state_to_dict`). The repository puts it in the snapshot kind, so
# snapshots of an older shape are ignored and the state is replayed from the events.
# 2: ScoreAdjusted rulings carry "after_hands" (where a refold replays them); hand records
#    and adjustments may carry "corrections", "voided", "after_end", "lapsed".
STATE_SCHEMA = 2


@dataclass(frozen=True)
class MatchState:
    ruleset: Ruleset = field(default_factory=Ruleset)
    mode: str = "online"  # "online" | "table"
    status: str = "new"  # "new" | "in_progress" | "finished"
    phase: str = "new"
    first_dealer: int | None = None
    hand_number: int = 0
    dealer: int | None = None
    turn: int | None = None
    hands: Hands = ((), ())  # each sorted with cards.sort_cards
    stock: tuple[str, ...] = ()  # top first
    discard_pile: tuple[str, ...] = ()  # bottom -> top
    deck: tuple[str, ...] = ()  # the current hand's deck order, revealed when it ends
    salt: str = ""
    commitment: str = ""
    upcard_passes: int = 0
    must_draw_stock: bool = False  # both passed the upcard: the non-dealer draws from stock
    drawn_from_discard: str | None = None  # taken from the discard pile this turn
    picked_up: tuple[tuple[int, str], ...] = ()  # (seat, card) taken from the pile this hand
    knock: dict[str, Any] | None = None  # Knocked data while the hand is being scored
    defence: dict[str, Any] | None = None
    scoresheet: Scoresheet = field(default_factory=lambda: scoresheet_new(Ruleset()))
    hand_results: tuple[dict[str, Any], ...] = ()  # one record per finished hand
    rulings: tuple[dict[str, Any], ...] = ()
    winner: int | None = None
    finish_reason: str | None = None
    # Dispute cases (records only, no effect on scoring): {"dispute", "seat", "hand_number",
    # "statement", "comments": [{"comment", "by"}], "outcome", "reason", "by"}.
    disputes: tuple[dict[str, Any], ...] = ()

    @property
    def in_play(self) -> bool:
        return self.phase in PLAY_PHASES

    @property
    def non_dealer(self) -> int | None:
        return None if self.dealer is None else 1 - self.dealer


def initial_state() -> MatchState:
    return MatchState()


def commitment(deck: Sequence[str], salt: str) -> str:
    """sha256 hex of a canonical JSON encoding of the deck order and the salt, published
    when a hand is dealt so that the order revealed at the end can be checked."""
    payload = json.dumps({"deck": list(deck), "salt": salt}, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """A JSON-able snapshot of the whole state (including hidden cards)."""
    out: dict[str, Any] = {}
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "ruleset":
            value = value.to_dict()
        elif f.name == "scoresheet":
            value = scoresheet_to_dict(value)
        out[f.name] = _jsonable(value)
    return out


def state_from_dict(d: dict[str, Any]) -> MatchState:
    """The state of a snapshot (`state_to_dict`)."""
    hand_results = tuple(d["hand_results"])
    return MatchState(
        ruleset=Ruleset.from_dict(d["ruleset"]),
        mode=d["mode"],
        status=d["status"],
        phase=d["phase"],
        first_dealer=d["first_dealer"],
        hand_number=d["hand_number"],
        dealer=d["dealer"],
        turn=d["turn"],
        hands=(tuple(d["hands"][0]), tuple(d["hands"][1])),
        stock=tuple(d["stock"]),
        discard_pile=tuple(d["discard_pile"]),
        deck=tuple(d["deck"]),
        salt=d["salt"],
        commitment=d["commitment"],
        upcard_passes=d["upcard_passes"],
        must_draw_stock=d["must_draw_stock"],
        drawn_from_discard=d["drawn_from_discard"],
        picked_up=tuple((s, c) for s, c in d["picked_up"]),
        knock=d["knock"],
        defence=d["defence"],
        scoresheet=scoresheet_from_dict(d["scoresheet"]),
        hand_results=hand_results,
        rulings=tuple(d["rulings"]),
        winner=d["winner"],
        finish_reason=d["finish_reason"],
        disputes=tuple(d.get("disputes", ())),  # snapshots from before disputes have none
    )


def _jsonable(value: Any) -> Any:
    # Exact-type checks first: this runs over every card code of every finished hand.
    cls = value.__class__
    if cls is str or cls is int or value is None or cls is bool:
        return value
    if cls is list or cls is tuple:
        return [v if v.__class__ is str else _jsonable(v) for v in value]
    if cls is dict:
        return {k: v if v.__class__ is str else _jsonable(v) for k, v in value.items()}
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def needs_deal(state: MatchState) -> bool:
    """An online match in progress with no hand in play: the service decides Deal next."""
    return (
        state.status == "in_progress" and state.mode == "online" and state.phase == "awaiting_deal"
    )
