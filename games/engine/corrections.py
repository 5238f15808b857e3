"""Corrections of past hands: the match re-derived (refolded) from its hand records.

A correction (HandCorrected) replaces a table-mode hand's entry; a past void (HandVoided of
a finished hand) takes a hand out. Either way the match must be exactly what the corrected
sequence would have given from the start, so `refold` replays every hand record and every
score adjustment, in their order, through the same scoresheet functions the normal path
uses (`scoresheet_win`, `scoresheet_adjust`, `scoresheet_close_reached`, `match_winner`).

What the refold decides:
- Each counted hand's `games` (and the scoresheet, games closed and won, bonuses).
- The dealer (RULES 3): the winner of a hand deals the next; after a drawn or a voided hand
  the same dealer deals again. A table record's `dealer` is re-derived; an online record's
  is who really dealt (its deck was dealt in that order) and is kept.
- Where the match ends: the records after that point stay, marked `"after_end": True`
  (scored ones with no games), and count again if a later correction re-opens the match
  that far. Adjustments after it are marked the same way; an adjustment that no longer
  fits at its place (its game already ended there, or the score would become negative)
  is marked `"lapsed": True` and does not count.
- Status: finished on the games (`finish_reason` "games") or back in play (phase
  `awaiting_record` / `awaiting_deal`). A finish by forfeit or resignation is a ruling
  about the match, not about its score: it stands, with its winner and dealer, while the
  hands, the scoresheet and `after_end` are re-derived. Cancelled matches are never
  corrected (`decide` refuses).

Records keep their history: `corrections` lists {"before", "after", "reason", "by"} (the
first `before` is the original entry), a past void adds `"voided": True, "void_reason",
"void_by"`. Records are never changed in place; changed ones are new dicts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from games.engine.events import HandCorrected, HandVoided
from games.engine.ruleset import Ruleset
from games.engine.scoresheet import (
    Scoresheet,
    match_winner,
    score_hand,
    scoresheet_adjust,
    scoresheet_close_reached,
    scoresheet_new,
    scoresheet_win,
)
from games.engine.state import MatchState

Record = dict[str, Any]

# The keys of a hand record that come from its entry (in a fixed order: records are
# serialised) and, "games", from its place in the match.
_ENTRY_KEYS = ("kind", "knocker", "winner", "points", "knocker_deadwood", "defender_deadwood")
_SCORING_KEYS = frozenset({*_ENTRY_KEYS, "games"})
# Finishes that are rulings about the match, not its score: a correction leaves them be.
STANDING_FINISHES = ("forfeit", "resigned")

DRAWN_ENTRY: dict[str, Any] = {
    "kind": "drawn",
    "drawn": True,
    "knocker": None,
    "gin": False,
    "knocker_deadwood": None,
    "defender_deadwood": None,
    "winner": None,
    "points": None,
}


def entry(
    ruleset: Ruleset, *, knocker: int, gin: bool, knocker_deadwood: int, defender_deadwood: int
) -> dict[str, Any]:
    """The entry of a knocked hand, scored by RULES 7 (`score_hand`)."""
    kind, winner, points = score_hand(
        ruleset,
        knocker=knocker,
        gin=gin,
        knocker_deadwood=knocker_deadwood,
        defender_deadwood=defender_deadwood,
    )
    return {
        "kind": kind,
        "drawn": False,
        "knocker": knocker,
        "gin": gin,
        "knocker_deadwood": knocker_deadwood,
        "defender_deadwood": defender_deadwood,
        "winner": winner,
        "points": points,
    }


def entry_of(record: Record) -> dict[str, Any]:
    """A table-mode hand record's current entry."""
    if record["kind"] == "drawn":
        return dict(DRAWN_ENTRY)
    return {
        "kind": record["kind"],
        "drawn": False,
        "knocker": record["knocker"],
        "gin": record["kind"] == "gin",
        "knocker_deadwood": record["knocker_deadwood"],
        "defender_deadwood": record["defender_deadwood"],
        "winner": record["winner"],
        "points": record["points"],
    }


def is_voided(record: Record) -> bool:
    """Voided in play (kind "voided") or afterwards (a past void)."""
    return record["kind"] == "voided" or bool(record.get("voided"))


def find_hand(state: MatchState, hand_number: int) -> Record | None:
    """The finished hand's record, or None."""
    return next((r for r in state.hand_results if r["hand_number"] == hand_number), None)


def hand_corrected(state: MatchState, event: HandCorrected) -> MatchState:
    """The state after `event`: the hand's entry replaced, the match refolded."""
    correction = {
        "before": dict(event.before),
        "after": dict(event.after),
        "reason": event.reason,
        "by": event.by,
    }

    def rewrite(record: Record) -> Record:
        kept = {k: v for k, v in record.items() if k not in _SCORING_KEYS}
        kept["corrections"] = [*record.get("corrections", ()), correction]
        after = event.after
        if after["drawn"]:
            return {**kept, "kind": "drawn"}
        return {**kept, **{k: after[k] for k in _ENTRY_KEYS}, "games": []}

    return refold(state, _rewritten(state, event.hand_number, rewrite))


def past_hand_voided(state: MatchState, event: HandVoided) -> MatchState:
    """The state after a void of finished hand `event.hand_number`: refolded without it."""

    def rewrite(record: Record) -> Record:
        out = {**record, "voided": True, "void_reason": event.reason, "void_by": event.by}
        if "games" in out:
            out["games"] = []
        return out

    return refold(state, _rewritten(state, event.hand_number, rewrite))


def _rewritten(
    state: MatchState, hand_number: int, rewrite: Callable[[Record], Record]
) -> tuple[Record, ...]:
    return tuple(rewrite(r) if r["hand_number"] == hand_number else r for r in state.hand_results)


class _Sheet:
    """The scoresheet being refolded and where (if anywhere) the match ended on it."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.sheet: Scoresheet = scoresheet_new(ruleset)
        self.winner: int | None = None  # the match's, once the games decide it

    def win(self, seat: int, points: int) -> list[int]:
        self.sheet, scored, won = scoresheet_win(
            self.sheet, seat=seat, points=points, ruleset=self.ruleset
        )
        self._decided(won)
        return scored

    def adjust(self, ruling: Record) -> bool:
        """Apply a ScoreAdjusted ruling if it still fits here (as `decide_adjust` checks)."""
        seat, game, points = ruling["seat"], ruling["game"], ruling["points"]
        score = self.sheet.games[game - 1]
        if not score.open or score.scores[seat] + points < 0:
            return False
        sheet = scoresheet_adjust(self.sheet, seat=seat, game=game, points=points)
        self.sheet, won = scoresheet_close_reached(sheet, seat=seat, ruleset=self.ruleset)
        self._decided(won)
        return True

    def _decided(self, won: list[int]) -> None:
        # As `outcomes.game_end_events`: the match can only end when a game does.
        if won:
            self.winner = match_winner(self.sheet, self.ruleset)


def refold(state: MatchState, records: Sequence[Record]) -> MatchState:
    """`state` with `records` as its hand records and everything that follows from them
    (and from the score adjustments among them) re-derived from the start."""
    table = state.mode == "table"
    sheet = _Sheet(state.ruleset)
    rulings = list(state.rulings)
    at = _adjustments_by_place(rulings)
    dealer = state.first_dealer
    out: list[Record] = []
    for place, record in enumerate(records):
        _adjust(sheet, rulings, at.pop(place, ()))
        if sheet.winner is not None:
            out.append(_after_end(record))
            continue
        new = {k: v for k, v in record.items() if k != "after_end"}
        if table:
            new["dealer"] = dealer
        if is_voided(new) or new["kind"] == "drawn":
            dealer = new["dealer"]  # the same dealer deals again
        else:
            new["games"] = sheet.win(new["winner"], new["points"])
            dealer = new["winner"]
        out.append(record if new == record else new)
    for place in sorted(at):  # adjustments after the last hand record
        _adjust(sheet, rulings, at[place])
    refolded = replace(
        state, scoresheet=sheet.sheet, hand_results=tuple(out), rulings=tuple(rulings)
    )
    if state.finish_reason in STANDING_FINISHES:
        return refolded
    if sheet.winner is not None:
        return replace(
            refolded,
            dealer=dealer,
            status="finished",
            phase="finished",
            turn=None,
            winner=sheet.winner,
            finish_reason="games",
        )
    return replace(
        refolded,
        dealer=dealer,
        status="in_progress",
        phase=state.phase if state.in_play else _resting_phase(state),
        turn=state.turn if state.in_play else None,
        winner=None,
        finish_reason=None,
    )


def _resting_phase(state: MatchState) -> str:
    return "awaiting_record" if state.mode == "table" else "awaiting_deal"


def _adjustments_by_place(rulings: Sequence[Record]) -> dict[int, list[int]]:
    """Indexes of the ScoreAdjusted rulings, by the number of hand records before them."""
    at: dict[int, list[int]] = {}
    for index, ruling in enumerate(rulings):
        if ruling["type"] == "ScoreAdjusted":
            at.setdefault(ruling["after_hands"], []).append(index)
    return at


def _adjust(sheet: _Sheet, rulings: list[Record], indexes: Sequence[int]) -> None:
    for index in indexes:
        ruling = rulings[index]
        flag = None
        if sheet.winner is not None:
            flag = "after_end"
        elif not sheet.adjust(ruling):
            flag = "lapsed"
        new = {k: v for k, v in ruling.items() if k not in ("after_end", "lapsed")}
        if flag is not None:
            new[flag] = True
        rulings[index] = ruling if new == ruling else new


def _after_end(record: Record) -> Record:
    new = {**record, "after_end": True}
    if "games" in new:
        new["games"] = []
    return record if new == record else new
