"""The desk's match sheet: a table match's hands typed in rows from the paper Hollywood
scoresheet, checked row by row by the engine before anything is stored, then saved as the
same hand events as one hand at a time (`match_record_hand_in_tx`, the same rules).

A row is a hand by its number: a sheet sent twice (a double Enter, a reload that posts
again) finds its hands already recorded and records them once. A row that is the hand a
player's phone entry waits for settles that entry (accepted as entered, or amended)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_noop

from core.errors import ConflictError, PermissionDeniedError, ValidationError
from core.transactions import write_service
from games import repository
from games.engine.errors import RuleError
from games.engine.events import Event, HandDrawn, HandScored
from games.engine.match import decide, evolve
from games.engine.scoresheet import games_won, scoresheet_to_dict
from games.engine.state import MatchState
from games.hand_entries import HandEntry
from games.models import Match, MatchHand, TableEntry
from games.selectors import match_state_at, user_can_organise_match
from games.selectors.table_entries import OPEN
from games.services import match_record_hand_in_tx
from games.services.table_entries import table_entry_settle_in_tx

MAX_ROWS = 60  # a match of three games to 100 takes some 10 to 30 hands


@dataclass(frozen=True)
class RowChecked:
    """What the engine made of a row: its hand's number, the error that refuses it (a rule
    error, or a row that is no hand of this match; None if legal), and the scoresheet
    after it (as `scoresheet_to_dict`)."""

    hand_number: int
    error: RuleError | ValidationError | None
    kind: str | None = None  # gin, knock, undercut, drawn
    winner: int | None = None  # a seat
    points: int = 0
    sheet: dict[str, Any] | None = None
    finished: bool = False


def _scored(events: Sequence[Event]) -> tuple[str | None, int | None, int]:
    for event in events:
        if isinstance(event, HandScored):
            return event.kind, event.winner, event.points
        if isinstance(event, HandDrawn):
            return "drawn", None, 0
    return None, None, 0


def match_sheet_check(*, match: Match, rows: Sequence[HandEntry]) -> list[RowChecked]:
    """Each row as the engine decides it, one after the other from the match's latest
    state (nothing stored): a refused row is reported and the rows after it are checked
    as if it were not there. A read: the desk's sheet asks it while typing."""
    state, _ = match_state_at(match=match)
    return _check(match, state, rows)


def _check(match: Match, state: MatchState, rows: Sequence[HandEntry]) -> list[RowChecked]:
    out = []
    for row in rows[:MAX_ROWS]:
        number = state.hand_number + 1
        try:
            events = decide(state, row.action(match))
        except (RuleError, ValidationError) as exc:
            out.append(RowChecked(hand_number=number, error=exc))
            continue
        for event in events:
            state = evolve(state, event)
        kind, winner, points = _scored(events)
        sheet = scoresheet_to_dict(state.scoresheet)
        sheet["games_won"] = list(games_won(state.scoresheet))
        out.append(
            RowChecked(
                hand_number=number,
                error=None,
                kind=kind,
                winner=winner,
                points=points,
                sheet=sheet,
                finished=state.status == "finished",
            )
        )
    return out


def _same(hand: MatchHand, row: HandEntry) -> bool:
    """A recorded hand is the row (a row sent twice)."""
    if hand.voided or hand.kind in ("void", "unfinished"):
        return False
    if row.drawn:
        return hand.kind == "draw"
    return (hand.knocker_id, hand.knocker_deadwood, hand.defender_deadwood) == (
        row.knocker,
        row.knocker_deadwood,
        row.defender_deadwood,
    )


@dataclass(frozen=True)
class SheetSaved:
    recorded: int  # hands recorded now
    already: int  # rows that were recorded before (sent twice)
    finished: bool


@write_service
def match_sheet_record(
    *,
    match_id: uuid.UUID | str,
    by: AbstractBaseUser,
    first_hand: int,
    rows: Sequence[HandEntry],
    note: str = "",
) -> SheetSaved:
    """Record the sheet's rows as hands `first_hand`, `first_hand` + 1, …, all or none
    (one transaction). A row whose hand is recorded already must be that hand (then it is
    not recorded again); a row recorded otherwise is a conflict (the hand is corrected on
    its own page, a ruling with a reason). The row of the hand a phone entry waits for
    settles the entry: accepted as entered, or amended (`note`: why)."""
    if not rows or len(rows) > MAX_ROWS:
        raise ValidationError(
            gettext_noop("a sheet has 1 to %(most)s rows"),
            code="too_many",
            params={"most": MAX_ROWS},
        )
    write = repository.match_lock(match_id=match_id)
    match = write.match
    if not user_can_organise_match(user=by, match=match):
        raise PermissionDeniedError("only an organiser of this match may do this")
    if match.mode != "table":
        raise ValidationError("only a table match records hands", code="not_table_mode")
    current = write.state.hand_number
    if not isinstance(first_hand, int) or not 1 <= first_hand <= current + 1:
        raise ValidationError(
            gettext_noop("the sheet's first hand is %(first)s, the next hand is %(next)s"),
            code="hand_number",
            params={"first": first_hand, "next": current + 1},
        )
    recorded_hands = {h.hand_number: h for h in match.hands.filter(hand_number__gte=first_hand)}
    entry = (
        TableEntry.objects.select_for_update(of=("self",))
        .select_related("match", "entered_by", "knocker")
        .filter(match=match, status__in=OPEN, version=write.version)
        .first()
    )
    recorded = already = 0
    for number, row in enumerate(rows, start=first_hand):
        if number <= current:
            hand = recorded_hands.get(number)
            if hand is None or not _same(hand, row):
                raise ConflictError(
                    gettext_noop(
                        "hand %(hand)s is recorded otherwise already (entered from another "
                        "screen?): correct it on its own page"
                    ),
                    code="hand_number",
                    params={"hand": number},
                    extra={"hand_number": number},
                )
            already += 1
            continue
        if entry is not None and number == current + 1:
            table_entry_settle_in_tx(entry=entry, by=by, hand=row, note=note)
            entry = None
        else:
            match_record_hand_in_tx(match_id=match.pk, by=by, hand=row)
        recorded += 1
    match.refresh_from_db(fields=["status"])
    return SheetSaved(recorded=recorded, already=already, finished=match.status != "in_progress")
