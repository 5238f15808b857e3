"""The hand rows (`MatchHand`) from events: a hand-ending event makes or voids a row; a
correction or a void of an earlier hand derives every row again from the state's hand
records."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from games.engine.match import MatchState
from games.engine.view import unfinished_hand
from games.models import Match, MatchHand

HAND_FIELDS = (
    "hand_number",
    "kind",
    "knocker_id",
    "winner_id",
    "points",
    "knocker_deadwood",
    "defender_deadwood",
    "games",
    "voided",
    "void_reason",
    "corrections",
    "after_end",
    "version",
)
# Events after which every hand row is derived again from the state's hand records: a
# correction (or a void) of an earlier hand changes the games, points and winners of the
# hands after it, and which hands count at all.
REDERIVE_EVENT_TYPES = frozenset({"HandCorrected", "HandVoided", "MatchReopened"})
_RECORD_KINDS = {"drawn": "draw", "voided": "void"}


def hands_rederive(
    *, match: Match, hands: dict[int, MatchHand], state: MatchState, events: Iterable[Any]
) -> set[int]:
    """Bring every hand row in line with the state's finished-hand records (the engine
    re-derived them from the corrected sequence of hands); a correction also notes when and
    in which event it was made. Returns the hand numbers changed."""
    pid = match.player_id_for_seat
    made = {
        e.data["hand_number"]: (e.version, e.recorded_at)
        for e in events
        if e.type == "HandCorrected"
    }
    changed: set[int] = set()
    for record in state.hand_results:
        number = record["hand_number"]
        row = hands.get(number)
        if row is None:
            continue
        kind = record["kind"]
        values = {
            "kind": _RECORD_KINDS.get(kind, kind),
            "knocker_id": pid(record.get("knocker")),
            "winner_id": pid(record.get("winner")),
            "points": record.get("points") or 0,
            "knocker_deadwood": record.get("knocker_deadwood"),
            "defender_deadwood": record.get("defender_deadwood"),
            "games": list(record.get("games") or []),
            "voided": kind == "voided" or bool(record.get("voided")),
            "void_reason": record.get("void_reason") or (row.void_reason if row.voided else ""),
            "after_end": bool(record.get("after_end")),
        }
        corrections = list(record.get("corrections") or [])
        stored = list(row.corrections or [])
        for n, correction in enumerate(corrections):
            if n < len(stored):
                corrections[n] = stored[n]
            elif number in made:
                version, at = made[number]
                corrections[n] = {**correction, "version": version, "at": _iso(at)}
        values["corrections"] = corrections
        if any(getattr(row, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(row, k, v)
            changed.add(number)
    return changed


def _iso(value: Any) -> str:
    """An instant as the API writes every instant: ISO 8601 in UTC, ending in `Z`."""
    if not hasattr(value, "astimezone"):
        return str(value)
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def hands_fold(*, match: Match, hands: dict[int, MatchHand], events: Iterable[Any]) -> set[int]:
    """Apply hand-ending events to `hands` (hand number -> unsaved or loaded row); return
    the hand numbers touched."""
    pid = match.player_id_for_seat
    touched: set[int] = set()
    for e in events:
        d = e.data
        if e.type == "HandScored":
            hands[d["hand_number"]] = MatchHand(
                match=match,
                hand_number=d["hand_number"],
                kind=d["kind"],
                knocker_id=pid(d["knocker"]),
                winner_id=pid(d["winner"]),
                points=d["points"],
                knocker_deadwood=d["knocker_deadwood"],
                defender_deadwood=d["defender_deadwood"],
                games=list(d["games"]),
                version=e.version,
            )
        elif e.type == "HandDrawn":
            hands[d["hand_number"]] = MatchHand(
                match=match,
                hand_number=d["hand_number"],
                kind=MatchHand.Kind.DRAW,
                version=e.version,
            )
        elif e.type == "HandVoided":
            row = hands.get(d["hand_number"]) or MatchHand(
                match=match,
                hand_number=d["hand_number"],
                kind=MatchHand.Kind.VOID,
                version=e.version,
            )
            row.voided, row.void_reason = True, d["reason"]
            hands[d["hand_number"]] = row
        else:
            continue
        touched.add(d["hand_number"])
    return touched


def unfinished_hand_row(*, match: Match, state: MatchState, event: Any) -> MatchHand | None:
    """The row of the hand in play when the match ended (`event`, its end), if one was."""
    if unfinished_hand(state) is None:
        return None
    return MatchHand(
        match=match,
        hand_number=state.hand_number,
        kind=MatchHand.Kind.UNFINISHED,
        version=event.version,
    )
