"""The incremental path: the read-model changes for the events a command has just decided,
written by the repository in the command's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.match import MatchState
from games.models import Match, MatchHand
from games.projections.hands import (
    REDERIVE_EVENT_TYPES,
    hands_fold,
    hands_rederive,
    unfinished_hand_row,
)
from games.projections.summary import FINISH_EVENT_TYPES, match_summary_statement


@dataclass
class MatchProjection:
    """What events just decided change in the read models: `statements` (sql, params) for
    the match row, to send with the append (one round trip), and hand rows to save after
    it. One call (`match_project`) makes both, for the one caller (the repository)."""

    statements: list[tuple[str, list[Any]]]
    hand_rows: list[MatchHand]

    def save_rows(self) -> None:
        for row in self.hand_rows:
            row.save()


def match_project(
    *, match: Match, state: MatchState, events: Sequence[Any], row_known: bool = False
) -> MatchProjection:
    """The incremental path: the read-model changes for `events` (as they will be
    recorded), `state` being the match's state after them. `row_known`: see
    `match_summary_statement`."""
    statement = match_summary_statement(
        match=match, state=state, events=events, row_known=row_known
    )
    rederive = any(e.type in REDERIVE_EVENT_TYPES for e in events)
    # Only a void or a correction updates existing rows; skip a query on every action.
    hands = {h.hand_number: h for h in match.hands.all()} if rederive else {}
    touched = hands_fold(match=match, hands=hands, events=events)
    if rederive:
        touched |= hands_rederive(match=match, hands=hands, state=state, events=events)
    rows = [hands[n] for n in sorted(touched)]
    ended = [e for e in events if e.type in FINISH_EVENT_TYPES]
    if ended:
        row = unfinished_hand_row(match=match, state=state, event=ended[-1])
        if row is not None:
            rows.append(row)
    return MatchProjection(statements=[statement], hand_rows=rows)
