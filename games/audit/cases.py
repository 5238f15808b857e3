"""A match's dispute cases as the API and the desk show them: folded from the match's state,
or from its dispute events alone for the desk's counts."""

from __future__ import annotations

from typing import Any

import eventstore
from core.errors import PermissionDeniedError
from games.audit.access import match_may_audit
from games.engine.disputes import disputes_after
from games.engine.events import event_from_dict
from games.models import Match
from games.selectors import (
    User,
    match_state_at,
)


def match_disputes(*, match: Match, user: User, status: str | None = None) -> list[dict[str, Any]]:
    """The match's dispute cases (for its players and organisers), oldest first; `status`
    "open" or "closed" keeps those. Players by id."""
    if not match_may_audit(user=user, match=match):
        raise PermissionDeniedError(
            "only the match's players and organisers see its disputes", code="disputes_forbidden"
        )
    state, _ = match_state_at(match=match)
    opened = {
        e.data["dispute"]: e
        for e in eventstore.load(stream_id=match.stream_id)
        if e.type == "DisputeOpened"
    }
    out = []
    for case in state.disputes:
        is_open = case["outcome"] is None
        if status == "open" and not is_open or status == "closed" and is_open:
            continue
        out.append(_case_row(match, case, opened.get(case["dispute"])))
    return out


def _case_row(
    match: Match, case: dict[str, Any], opened: eventstore.RecordedEvent | None
) -> dict[str, Any]:
    """One dispute case as the API shows it; `opened`, its DisputeOpened event."""
    return {
        "match": str(match.id),
        "dispute": case["dispute"],
        "player": match.player_id_for_seat(case["seat"]),
        "hand_number": case["hand_number"],
        "statement": case["statement"],
        "opened_at": opened.recorded_at if opened else None,
        "version": opened.version if opened else None,
        "comments": list(case["comments"]),
        "status": "open" if case["outcome"] is None else case["outcome"],
        "reason": case["reason"],
        "by": case["by"],
    }


# The events that make a dispute case (games.engine.disputes folds them).
DISPUTE_EVENTS = ("DisputeOpened", "DisputeCommented", "DisputeResolved")


def _cases(match: Match, recorded: list[eventstore.RecordedEvent]) -> list[dict[str, Any]]:
    """The match's dispute cases as `match_disputes` gives them, from its dispute events
    alone (folded by the engine's `disputes_after`, as the match's state folds them)."""
    records: tuple[dict[str, Any], ...] = ()
    opened = {}
    for e in recorded:
        records = disputes_after(records, event_from_dict(e.type, e.data))
        if e.type == "DisputeOpened":
            opened[e.data["dispute"]] = e
    out = []
    for case in records:
        out.append(_case_row(match, case, opened.get(case["dispute"])))
    return out


def disputes_open_by_match(*, match_ids: Any, user: User) -> dict[str, list[dict[str, Any]]]:
    """The open disputes of those of the matches `match_ids` that `user` organises (all of
    them for staff), by match id (a match with none open is left out), each match's in the
    order they were opened; the same cases as `match_disputes(..., status="open")`. Read
    from the stored dispute events of those matches only (one query by stream and type),
    not by replaying the matches: the desk asks for its counts on every refresh."""
    if user is None or not user.is_authenticated:
        return {}
    matches = Match.objects.filter(pk__in=list(match_ids)).only(
        "id", "stream_id", "player1_id", "player2_id"
    )
    if not user.is_staff:
        matches = matches.filter(organisers=user).distinct()
    by_stream = {m.stream_id: m for m in matches}
    recorded = eventstore.load_of_types(stream_ids=list(by_stream), types=list(DISPUTE_EVENTS))
    events: dict[str, list[eventstore.RecordedEvent]] = {}
    for e in recorded:
        events.setdefault(e.stream_id, []).append(e)
    out = {}
    for stream_id, stream_events in events.items():
        match = by_stream[stream_id]
        cases = [c for c in _cases(match, stream_events) if c["status"] == "open"]
        if cases:
            out[str(match.id)] = cases
    return out


def disputes_open_sorted(cases: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The cases of `disputes_open_by_match` in one list, oldest first."""
    flat = [case for match_cases in cases.values() for case in match_cases]
    return sorted(flat, key=lambda d: (d["opened_at"] is None, d["opened_at"]))


def disputes_open_for(*, user: User) -> list[dict[str, Any]]:
    """The open disputes of every match `user` organises (every match for staff), oldest
    first: the organiser's queue."""
    if user is None or not user.is_authenticated:
        return []
    # The streams where a dispute was ever opened: one indexed look-up by event type.
    streams = eventstore.streams_with_type(type="DisputeOpened")
    ids = Match.objects.filter(stream_id__in=streams).values_list("pk", flat=True)
    return disputes_open_sorted(disputes_open_by_match(match_ids=ids, user=user))
