"""Events -> read models. The same functions serve the incremental path (inside the
service's transaction, for the events it just appended) and `rebuild_projections` (for every
event of every match), so both give exactly the same rows."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import connection, transaction

import eventstore
from core.prepared import PreparedStatement
from games.engine.events import EVENT_TYPES, event_from_dict
from games.engine.match import MatchState, evolve, initial_state
from games.engine.scoresheet import scoresheet_to_dict
from games.engine.view import unfinished_hand
from games.models import Match, MatchHand

# The Match fields derived from events; registration fields (players, label, organisers,
# created_by) come from the first event's metadata.
SUMMARY_FIELDS = (
    "status",
    "mode",
    "ruleset",
    "version",
    "hand_number",
    "phase",
    "turn_player",
    "last_action_at",
    "scoresheet",
    "games_won_p1",
    "games_won_p2",
    "points_p1",
    "points_p2",
    "winner",
    "finish_reason",
    "created_at",
    "finished_at",
)
# The events that end a match: played out (or forfeited, resigned), or cancelled unplayed.
FINISH_EVENT_TYPES = frozenset({"MatchFinished", "MatchCancelled"})
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


def match_registration(*, match: Match, organiser_ids: Sequence[int]) -> dict[str, Any]:
    """Who plays, who organises: stored in the first event's metadata."""
    return {
        "id": str(match.id),
        "player1": match.player1_id,
        "player2": match.player2_id,
        "label": match.label,
        "created_by": match.created_by_id,
        "organisers": list(organiser_ids),
        # Only a practice match carries the key: other registrations stay as they were.
        **({"practice": True} if match.practice else {}),
    }


def match_from_registration(registration: dict[str, Any], stream_id: str) -> Match:
    """An unsaved Match row rebuilt from the registration in a stream's first event."""
    return Match(
        id=registration["id"],
        stream_id=stream_id,
        player1_id=registration["player1"],
        player2_id=registration["player2"],
        label=registration["label"],
        created_by_id=registration["created_by"],
        practice=bool(registration.get("practice")),
    )


def match_summarise(*, match: Match, state: MatchState, events: Sequence[Any]) -> None:
    """Set the summary fields of `match` (unsaved) from the state after `events`."""
    pid = match.player_id_for_seat
    sheet = scoresheet_to_dict(state.scoresheet)
    match.status = Match.Status.FINISHED if state.status == "finished" else Match.Status.IN_PROGRESS
    match.mode = state.mode
    match.ruleset = state.ruleset.to_dict()
    match.version = events[-1].version
    match.hand_number = state.hand_number
    match.phase = state.phase
    match.turn_player_id = pid(state.turn)
    match.last_action_at = events[-1].recorded_at
    match.scoresheet = sheet
    match.games_won_p1, match.games_won_p2 = sheet["games_won"]
    match.points_p1, match.points_p2 = sheet["totals"]
    match.winner_id = pid(state.winner)
    match.finish_reason = state.finish_reason or ""
    for event in events:
        if event.version == 1:
            match.created_at = event.recorded_at
        if event.type in FINISH_EVENT_TYPES:
            match.finished_at = event.recorded_at
    if match.status != Match.Status.FINISHED:
        match.finished_at = None  # reopened by a correction


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


def match_summary_statement(
    *, match: Match, state: MatchState, events: Sequence[Any], row_known: bool = False
) -> tuple[str, list[Any]]:
    """Summarise `match` (see `match_summarise`) and return its row's UPDATE (sql, params):
    the same as `match.save(update_fields=SUMMARY_FIELDS)`, values prepared by the fields
    themselves, but one plain statement (prepared on PostgreSQL), which the caller may
    send with others: on every action the ORM's building of the save cost more than
    running it, and planning it more than running it again.

    `row_known`: `match` holds the row as stored (read in this transaction, under lock);
    most actions then change only the few columns of `TURN_FIELDS`, and only those are
    sent (the scoresheet and ruleset JSON are not encoded again)."""
    stored = _other_values(match) if row_known else None
    match_summarise(match=match, state=state, events=events)
    names = TURN_FIELDS if stored is not None and stored == _other_values(match) else SUMMARY_FIELDS
    fields = _summary_fields(names)
    values = [prep(getattr(match, attname), connection) for attname, prep in fields]
    pk = Match._meta.pk.get_db_prep_value(match.pk, connection)
    if connection.vendor == "postgresql":
        return _summary_statement(names).statement([*values, pk])
    return _summary_sql(names, "%s"), [*values, pk]


# What changes on most actions; the other summary fields change when a hand or game ends.
TURN_FIELDS = ("version", "hand_number", "phase", "turn_player", "last_action_at")
_OTHER_FIELDS = tuple(name for name in SUMMARY_FIELDS if name not in TURN_FIELDS)


def _other_values(match: Match) -> list[Any]:
    """The values of the summary fields that most actions leave alone."""
    return [getattr(match, attname) for attname, _ in _summary_fields(_OTHER_FIELDS)]


@functools.cache
def _summary_fields(names: tuple[str, ...]) -> list[tuple[str, Callable[..., Any]]]:
    """(attribute, value preparation) per column. A foreign key's value is its target's,
    prepared as the key would (minus a costly look-up of the column type)."""
    out = []
    for name in names:
        field = Match._meta.get_field(name)
        prep = field.target_field.get_db_prep_save if field.is_relation else field.get_db_prep_save
        out.append((field.attname, prep))
    return out


@functools.cache
def _summary_statement(names: tuple[str, ...]) -> PreparedStatement:
    name = f"match_summary_{len(names)}"
    return PreparedStatement(name, _summary_sql(names, "$"), len(names) + 1)


@functools.cache
def _summary_sql(names: tuple[str, ...], placeholder: str) -> str:
    """The UPDATE of those columns with `%s` placeholders, or PostgreSQL's numbered ones
    for `$`."""

    def param(n: int) -> str:
        return f"${n}" if placeholder == "$" else placeholder

    quote = connection.ops.quote_name
    columns = ", ".join(
        f"{quote(Match._meta.get_field(name).column)} = {param(n)}"
        for n, name in enumerate(names, start=1)
    )
    table, pk = quote(Match._meta.db_table), quote(Match._meta.pk.column)
    return f"UPDATE {table} SET {columns} WHERE {pk} = {param(len(names) + 1)}"


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


# -- rebuilding from the events alone ---------------------------------------------------


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


def streams_rebuild(*, stream_ids: Iterable[str]) -> RebuildResult:
    """Rebuild the matches of these streams (recreating their rows if need be), each read
    stream by stream (`eventstore.load`): for an import, whose own events the global
    reader may not hand out yet while an older transaction runs, and which should not
    fold every other match of the database."""
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
    result = _write(folds, existing, seen)
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
def _write(folds: dict[str, _Fold], existing: dict[str, Match], seen: int) -> RebuildResult:
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
        if current.get(stream_id, 0) > fold.last.version:
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
