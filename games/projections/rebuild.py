"""Rebuilding the read models from the stored events alone (`rebuild_projections`), with
the same functions as the incremental path, so both give exactly the same rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

import eventstore
from games.engine.events import EVENT_TYPES, event_from_dict
from games.engine.match import evolve, initial_state
from games.models import Match, MatchHand
from games.projections.hands import (
    HAND_FIELDS,
    REDERIVE_EVENT_TYPES,
    hands_fold,
    hands_rederive,
    unfinished_hand_row,
)
from games.projections.summary import (
    FINISH_EVENT_TYPES,
    SUMMARY_FIELDS,
    match_from_registration,
    match_summarise,
)


def match_rows(match: Match) -> dict[str, Any]:
    """A comparable picture of a match's read models (tests, rebuild checks)."""
    fresh = Match.objects.get(pk=match.pk)
    out = {
        f: getattr(fresh, f if f not in ("turn_player", "winner") else f + "_id")
        for f in SUMMARY_FIELDS
    }
    out["hands"] = [
        {f: getattr(h, f) for f in HAND_FIELDS} for h in fresh.hands.order_by("hand_number")
    ]
    return out


class _Fold:
    """One stream being rebuilt: its state, hand rows and the few events the summary needs."""

    __slots__ = ("state", "hands", "first", "finished", "last", "match")

    def __init__(self) -> None:
        self.state = initial_state()
        self.hands: dict[int, MatchHand] = {}
        self.first: Any = None
        self.finished: Any = None
        self.last: Any = None
        self.match: Match | None = None

    def add(self, event: Any, existing: dict[str, Match]) -> None:
        if event.version == 1:
            self.first = event
            self.match = existing.get(event.stream_id) or match_from_registration(
                event.metadata["match"], event.stream_id
            )
        elif event.type in FINISH_EVENT_TYPES:
            self.finished = event
        self.last = event
        self.state = evolve(self.state, _event_of(event))
        if event.type in HAND_EVENT_TYPES:
            hands_fold(match=self.match, hands=self.hands, events=(event,))
        if event.type in REDERIVE_EVENT_TYPES:
            hands_rederive(match=self.match, hands=self.hands, state=self.state, events=(event,))
        elif event.type in FINISH_EVENT_TYPES:
            row = unfinished_hand_row(match=self.match, state=self.state, event=event)
            if row is not None:
                self.hands[row.hand_number] = row

    def summary_events(self) -> list[Any]:
        return [e for e in (self.first, self.finished, self.last) if e is not None]


def _event_of(recorded: Any) -> Any:
    """The engine event of a stored one. The store holds only events the engine produced
    (checked when they were decided), so the rebuild builds them directly; anything
    unexpected goes through the engine's checked path, which names the problem."""
    cls = EVENT_TYPES.get(recorded.type)
    try:
        return cls(**recorded.data)  # type: ignore[misc]
    except TypeError:
        return event_from_dict(recorded.type, recorded.data)


HAND_EVENT_TYPES = frozenset({"HandScored", "HandDrawn", "HandVoided"})
STREAM_PREFIX = "match-"


@dataclass(frozen=True)
class RebuildResult:
    matches: int
    created: int
    events: int
    hands: int
    # Streams left as they were: (stream id, version, position, what was wrong).
    problems: tuple[tuple[str, int, int, str], ...] = ()


def projections_rebuild(
    *, progress: Callable[[int], None] | None = None, page_size: int = 5000
) -> RebuildResult:
    """Rebuild every match's state and read models from the stored events alone (the
    global order, page by page), then replace the rows in one transaction."""
    existing = {m.stream_id: m for m in Match.objects.all()}
    folds: dict[str, _Fold] = {}
    after, seen = 0, 0
    problems: list[tuple[str, int, int, str]] = []
    broken: set[str] = set()
    while True:
        page = eventstore.read_all(after_position=after, limit=page_size)
        if not page:
            break
        for event in page:
            if event.stream_id.startswith(STREAM_PREFIX) and event.stream_id not in broken:
                fold = folds.get(event.stream_id)
                if fold is None:
                    fold = folds[event.stream_id] = _Fold()
                problem = _fold_event(fold, event, existing)
                if problem:
                    # Reported with its stream and position; the other streams go on.
                    problems.append((event.stream_id, event.version, event.position, problem))
                    broken.add(event.stream_id)
                    folds.pop(event.stream_id)
        after, seen = page[-1].position, seen + len(page)
        if progress is not None:
            progress(len(page))
    result = _write(folds, existing, seen)
    return replace(result, problems=tuple(problems))


def _fold_event(fold: _Fold, event: Any, existing: dict[str, Match]) -> str:
    """Fold one event; what was wrong with it if it could not be ("" if nothing)."""
    expected = fold.last.version + 1 if fold.last is not None else 1
    if event.version != expected:
        return f"expected version {expected}, found {event.version} (an event is missing)"
    try:
        fold.add(event, existing)
    except Exception as exc:  # noqa: BLE001 - an unknown or malformed event, reported
        return f"{event.type}: {type(exc).__name__}: {exc}"
    return ""


def streams_rebuild(*, stream_ids: Iterable[str], newer_too: bool = False) -> RebuildResult:
    """Rebuild the matches of these streams (recreating their rows if need be), each read
    stream by stream (`eventstore.load`): for an import, whose own events the global
    reader may not hand out yet while an older transaction runs, and which should not
    fold every other match of the database. `newer_too`: also a row whose version is ahead
    of its stream (a forged or cut-short one; the check of `verify_projections`)."""
    stream_ids = list(stream_ids)
    existing = {m.stream_id: m for m in Match.objects.filter(stream_id__in=stream_ids)}
    folds: dict[str, _Fold] = {}
    problems: list[tuple[str, int, int, str]] = []
    seen = 0
    for stream_id in stream_ids:
        fold = _Fold()
        for event in eventstore.load(stream_id=stream_id):
            seen += 1
            problem = _fold_event(fold, event, existing)
            if problem:
                problems.append((stream_id, event.version, event.position, problem))
                break
        else:
            if fold.last is not None:
                folds[stream_id] = fold
    result = _write(folds, existing, seen, newer_too=newer_too)
    return replace(result, problems=tuple(problems))


def match_rebuild(*, match: Match) -> None:
    """Rebuild one match's read models from its stream."""
    existing = {match.stream_id: match}
    fold = _Fold()
    for event in eventstore.load(stream_id=match.stream_id):
        fold.add(event, existing)
    if fold.last is not None:
        _write({match.stream_id: fold}, existing, 0)


@transaction.atomic
def _write(
    folds: dict[str, _Fold], existing: dict[str, Match], seen: int, *, newer_too: bool = False
) -> RebuildResult:
    created, updated, hands = [], [], []
    # A match that moved on while we read was already projected by its own transaction,
    # from more events than we saw: leave it alone rather than roll it back.
    current = dict(
        Match.objects.select_for_update()
        .filter(stream_id__in=[s for s in folds if s in existing])
        .values_list("stream_id", "version")
    )
    for stream_id, fold in folds.items():
        match = fold.match
        if match is None:  # a stream without its first event cannot be a match
            continue
        if current.get(stream_id, 0) > fold.last.version and not newer_too:
            continue
        match_summarise(match=match, state=fold.state, events=fold.summary_events())
        (updated if stream_id in existing else created).append(match)
        hands.extend(fold.hands.values())
    Match.objects.bulk_create(created, batch_size=500)
    for match in created:
        registration = folds[match.stream_id].first.metadata["match"]
        match.organisers.set(registration.get("organisers", []))
    for match in updated:
        # One plain UPDATE per match, as on the incremental path: far cheaper than
        # bulk_update's CASE expressions over every field.
        match.save(update_fields=SUMMARY_FIELDS)
    MatchHand.objects.filter(match__in=[m.pk for m in created + updated]).delete()
    MatchHand.objects.bulk_create(hands, batch_size=2000)
    return RebuildResult(
        matches=len(created) + len(updated), created=len(created), events=seen, hands=len(hands)
    )
