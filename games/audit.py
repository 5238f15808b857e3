"""Reads for auditing a match: the replay page's frames (the table after each event, as the
viewer may see it) and the audit bundle (every event with its hash, the commitments and the
encodings, for `tools/verify_match.py`).

Who audits: the match's players, its organisers and staff, always (with the hand in play
redacted as for them); anyone else who may see the match, when an app that groups matches
says the match is public (the match policy, games/policy.py: a match of a public tournament),
for the hands already over: the replay up to the hand in play, the bundle once the match is
finished (then no hand is in play, nothing is hidden any more).

What a viewer may see is decided by `selectors.match_events_for`, never again here: a hand's
cards are shown in full only when that selector gave this viewer its deal in full (deck and
salt), and an event's hash only when every event up to it was given in full (a hash covers
the whole event and, through `prev`, every earlier one: the hash of an event whose card was
hidden would let anyone find that card by trying the 52 candidates)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

import eventstore
from core.errors import ConflictError, PermissionDeniedError
from games.engine.disputes import disputes_after
from games.engine.events import event_from_dict
from games.engine.match import evolve, initial_state
from games.engine.scoresheet import scoresheet_to_dict
from games.engine.state import MatchState
from games.engine.view import hands_over, public_view
from games.models import Match
from games.selectors import (
    User,
    match_events_for,
    match_has_preset_deals,
    match_is_public,
    match_seat_for,
    match_state_at,
    match_view_for,
    match_visible_to,
    scoresheet_for,
    seats_as_players,
    user_can_organise_match,
)
from players.models import Player

BUNDLE_FORMAT = "hollywood-gin-audit-bundle/1"

# The two encodings, word for word as README.md documents them; the bundle carries them so
# a reader needs nothing else.
ENCODINGS = {
    "canonical_json": "JSON with object keys sorted by code point, no whitespace (separators"
    " ',' and ':'), non-ASCII characters written as themselves (UTF-8), no NaN/Infinity;"
    " integers in decimal.",
    "event_hash": "sha256 hex of the UTF-8 bytes of canonical_json({stream_id, version, type,"
    " schema_version, data, metadata, recorded_at, prev}); recorded_at is UTC formatted"
    " %Y-%m-%dT%H:%M:%S.%fZ (6 fraction digits); prev is the previous event's hash in the"
    " same stream, the empty string for version 1.",
    "commitment": "sha256 hex of the ASCII bytes of the compact sorted-key JSON"
    ' {"deck": [52 card codes, top first], "salt": "..."} (separators "," and ":",'
    " non-ASCII escaped as \\uXXXX), published in HandDealt before the hand is played.",
}


def match_may_audit(*, user: User, match: Match) -> bool:
    """The match's players, its organisers and staff: they get ended hands in full."""
    if match_seat_for(user=user, match=match) is not None:
        return True
    return user_can_organise_match(user=user, match=match)


def _public_reader(*, user: User, match: Match) -> bool:
    """Not an auditor, but may see the match's hands once over: the match is public (a
    match policy says so: games/policy.py) and visible to `user`."""
    return match_is_public(match=match) and match_visible_to(user=user, match=match)


def match_bundle_allowed(*, user: User, match: Match) -> bool:
    """Who may download the audit bundle: the match's players, organisers and staff; and
    anyone (anonymous too) who may see a finished public match."""
    if match_may_audit(user=user, match=match):
        return True
    return match.status == Match.Status.FINISHED and _public_reader(user=user, match=match)


# Who is named in an event's metadata: who acted; for a table hand entered by a player on
# their phone, who entered it and who confirmed it.
_PEOPLE_KEYS = ("actor", "entered_by", "confirmed_by")


def _actor_names(
    match: Match, recorded: list[eventstore.RecordedEvent], *, logins: bool = True
) -> dict[str, str]:
    """Each actor of the stream's metadata ("player:<id>", "user:<id>", "system") by name:
    a user by their player's name, else (only with `logins`: for the match's players and
    organisers) their username; for anyone else "an organiser", as the tournament events
    show the public no organiser's login."""
    players: set[int] = set()
    users: set[int] = set()
    for e in recorded:
        for key in _PEOPLE_KEYS:
            kind, _, pk = str(e.metadata.get(key, "")).partition(":")
            if pk.isdigit():
                (players if kind == "player" else users).add(int(pk))
    names = {"system": "the server"}
    for pid, name in Player.objects.filter(pk__in=players).values_list("pk", "name"):
        names[f"player:{pid}"] = name
    by_user = dict(Player.objects.filter(user_id__in=users).values_list("user_id", "name"))
    for uid, username in (
        get_user_model().objects.filter(pk__in=users).values_list("pk", "username")
    ):
        names[f"user:{uid}"] = by_user.get(uid) or (username if logins else "an organiser")
    return names


def _frame(match: Match, state: MatchState, *, seat: int | None, full: bool) -> dict[str, Any]:
    """The table after an event: both hands when the viewer may see the hand in full,
    otherwise the engine's own view for that seat (own cards only; none for others).
    Players by id, as in the match's view: `dealer`, `turn`, `winner` are player ids,
    `hands` and `card_counts` dicts by player id, the scoresheet as the view's."""
    view = public_view(state, seat)
    if full:
        hands: list[list[str] | None] = [list(state.hands[0]), list(state.hands[1])]
    else:
        mine = view["your_cards"]
        hands = [mine if seat == 0 else None, mine if seat == 1 else None]
    frame = {
        "status": view["status"],
        "phase": view["phase"],
        "hand_number": view["hand_number"],
        "dealer": view["dealer"],
        "turn": view["turn"],
        "hands": hands,
        "card_counts": view["card_counts"],
        "discard_pile": view["discard_pile"],
        "upcard": view["upcard"],
        "stock_count": view["stock_count"],
        "scoresheet": scoresheet_for(match=match, sheet=scoresheet_to_dict(state.scoresheet)),
        "winner": view["winner"],
    }
    return seats_as_players(match=match, record=frame)


def _shown_events(
    match: Match, user: User | None, *, public: bool = False
) -> tuple[list[eventstore.RecordedEvent], list[dict[str, Any]], set[int]]:
    """The stored events, the same events as `match_events_for` gives this viewer (with
    `public`, a reader of a public match: the hands already over in full too; with no user,
    an operator's export of a finished match: everything, as every hand is over), and the
    hands whose deal it gave in full."""
    recorded = eventstore.load(stream_id=match.stream_id)
    if user is None:
        if match.status != Match.Status.FINISHED:
            raise ConflictError(
                "the match is in play: export it as one of its players or organisers",
                code="match_in_play",
            )
        public = True
        shown = [{"type": e.type, "data": e.data} for e in recorded]
    else:
        shown = match_events_for(match=match, user=user)
    if public:
        over = hands_over((e.type, e.data) for e in recorded)
        hand, revealed_shown = 0, []
        for stored, seen in zip(recorded, shown, strict=True):
            if stored.type == "HandDealt":
                hand = stored.data["hand_number"]
            revealed_shown.append({**seen, "data": stored.data} if hand in over else seen)
        shown = revealed_shown
    revealed = {
        e["data"]["hand_number"] for e in shown if e["type"] == "HandDealt" and "deck" in e["data"]
    }
    return recorded, shown, revealed


def _full_prefix(recorded: list[eventstore.RecordedEvent], shown: list[dict[str, Any]]) -> int:
    """The last version up to which every event is shown exactly as stored."""
    last = 0
    for stored, seen in zip(recorded, shown, strict=False):
        if seen["data"] != stored.data:
            break
        last = stored.version
    return last


def _name(actor: Any, names: dict[str, str]) -> str | None:
    return None if not actor else names.get(str(actor), str(actor))


def _event_entry(
    stored: eventstore.RecordedEvent, seen: dict[str, Any], names: dict[str, str], hashed: bool
) -> dict[str, Any]:
    actor = str(stored.metadata.get("actor", ""))
    return {
        "version": stored.version,
        "type": stored.type,
        "schema_version": stored.schema_version,
        "data": seen["data"],
        "metadata": stored.metadata if hashed else None,
        "recorded_at": eventstore.format_recorded_at(stored.recorded_at),
        "actor": actor,
        "actor_name": names.get(actor, actor),
        "entered_by": _name(stored.metadata.get("entered_by"), names),
        "confirmed_by": _name(stored.metadata.get("confirmed_by"), names),
        "full": seen["data"] == stored.data,
        "hash": stored.hash if hashed else None,
    }


def match_replay_data(*, match: Match, user: User) -> dict[str, Any]:
    """Everything the replay page shows, for a viewer who may follow the match (the page
    checks that): each event as `match_events_for` gives it, with its actor's name, and the
    table after it. Players and organisers get every event; anyone else only the hands
    already over (a spectator of a public tournament)."""
    seat = match_seat_for(user=user, match=match)
    auditor = match_may_audit(user=user, match=match)
    public = not auditor and _public_reader(user=user, match=match)
    recorded, shown, revealed = _shown_events(match, user, public=public)
    hashed_to = _full_prefix(recorded, shown)
    if not auditor:
        over = hands_over((e.type, e.data) for e in recorded)
        recorded = _until_hand_in_play(recorded, over)
    names = _actor_names(match, recorded, logins=auditor)
    state, entries = initial_state(), []
    for stored, seen in zip(recorded, shown, strict=False):
        state = evolve(state, event_from_dict(stored.type, stored.data))
        entry = _event_entry(stored, seen, names, stored.version <= hashed_to)
        entry["table"] = _frame(match, state, seat=seat, full=state.hand_number in revealed)
        entries.append(entry)
    view = match_view_for(match=match, user=user)
    return {
        "id": str(match.id),
        "stream_id": match.stream_id,
        "label": match.label,
        "preset_deals": match_has_preset_deals(match=match),
        "mode": view["mode"],
        "status": match.status,
        "players": view["players"],
        "your_seat": seat,
        "auditor": auditor,
        "may_download_bundle": auditor or public and match.status == Match.Status.FINISHED,
        "organiser": user_can_organise_match(user=user, match=match),
        "ruleset": view["ruleset"],
        "hands": view["hands"],
        "events": entries,
        "hashed_to": hashed_to,
        "version": match.version,
    }


def _until_hand_in_play(
    recorded: list[eventstore.RecordedEvent], over: set[int]
) -> list[eventstore.RecordedEvent]:
    """The events before the deal of the first hand not yet over."""
    for i, e in enumerate(recorded):
        if e.type == "HandDealt" and e.data["hand_number"] not in over:
            return recorded[:i]
    return recorded


def match_bundle(*, match: Match, user: User | None) -> dict[str, Any]:
    """The audit bundle: every event with its position in the stream and, where the viewer
    may see it in full, its metadata and hash; the commitments of the hands (with deck and
    salt where revealed); the encodings. For `match_bundle_allowed` (the match's players,
    organisers and staff; anyone for a finished public match). With no user (an operator's
    `manage.py export_match`): a finished match only, in full."""
    if user is not None and not match_bundle_allowed(user=user, match=match):
        raise PermissionDeniedError(
            "only the match's players and organisers may download its audit bundle"
            " (anyone may once a match of a public tournament is finished)",
            code="bundle_forbidden",
        )
    public = user is not None and not match_may_audit(user=user, match=match)
    recorded, shown, _ = _shown_events(match, user, public=public)
    hashed_to = _full_prefix(recorded, shown)
    names = _actor_names(match, recorded, logins=not public)
    events = [
        _event_entry(stored, seen, names, stored.version <= hashed_to)
        for stored, seen in zip(recorded, shown, strict=False)
    ]
    commitments = []
    for e in events:
        if e["type"] == "HandDealt":
            data = e["data"]
            commitments.append(
                {
                    "hand_number": data["hand_number"],
                    "version": e["version"],
                    "commitment": data["commitment"],
                    "deck": data.get("deck"),
                    "salt": data.get("salt"),
                }
            )
    view = match_view_for(match=match, user=user if user is not None else AnonymousUser())
    return {
        "format": BUNDLE_FORMAT,
        "match": {
            "id": str(match.id),
            "stream_id": match.stream_id,
            "label": match.label,
            "status": match.status,
            "players": view["players"],
            "ruleset": view["ruleset"],
            "version": len(recorded),
        },
        # An organiser chose the deals (a seed or decks): not a fair random deal.
        "preset_deals": match_has_preset_deals(match=match),
        "encodings": ENCODINGS,
        "hashed_to": hashed_to,
        "head_hash": recorded[hashed_to - 1].hash if hashed_to else "",
        "events": events,
        "commitments": commitments,
        "hands": view["hands"],
        "scoresheet": view["scoresheet"],
    }


# -- disputes ----------------------------------------------------------------------------


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
