"""Reads about matches: the state at any version (snapshot + events since), the view of a
match for a given viewer, its event stream with hidden cards removed, audit replays."""

from __future__ import annotations

import functools
import threading
import uuid
from collections import OrderedDict
from functools import partial
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import F, OuterRef, Q, QuerySet

from config.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from games import eventstore
from games.engine.events import event_from_dict
from games.engine.match import MatchState, initial_state, replay
from games.engine.state import state_from_dict
from games.engine.view import ends_hand, full_state, hands_over, public_view
from games.models import Match
from players.models import Player
from players.selectors import player_for_user

User = AbstractBaseUser | AnonymousUser | None

# Bump when the engine's state shape changes: older snapshots are then simply ignored.
SNAPSHOT_KIND = "match-state-v1"


def match_get(*, match_id: uuid.UUID | str) -> Match:
    try:
        return Match.objects.select_related("player1", "player2").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, DjangoValidationError):
        # An unparsable id is simply not a match.
        raise NotFoundError("no such match", code="match_not_found") from None


def match_list_for(*, user: User, mine: bool = False, status: str | None = None) -> QuerySet[Match]:
    """Matches anyone signed in may follow; `mine` keeps the caller's own."""
    qs = Match.objects.select_related("player1", "player2", "winner", "turn_player")
    if mine:
        player = player_for_user(user=user)
        if player is None:
            return qs.none()
        qs = qs.filter(Q(player1=player) | Q(player2=player))
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("-created_at", "id")


def user_can_organise_match(*, user: User, match: Match) -> bool:
    """Staff, or one of the match's organisers."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return match.organisers.filter(pk=user.pk).exists()


def match_seat_for(*, user: User, match: Match) -> int | None:
    player = player_for_user(user=user)
    return match.seat_of(player.pk) if player is not None else None


def match_state_at(
    *, match: Match, version: int | None = None, hand_results: bool = False
) -> tuple[MatchState, int]:
    """The engine state at `version` (default: the latest) from the latest snapshot at or
    before it plus the events since. `hand_results`: read the finished-hand records with
    the snapshot, in the same query, for a caller that will show them."""
    if version is None:
        # The usual case, the latest state: snapshot and events in one round trip.
        tail = eventstore.read_tail(
            stream_id=match.stream_id, kind=SNAPSHOT_KIND, without=unread_keys(hand_results)
        )[1]
        return match_state_from_tail(stream_id=match.stream_id, tail=tail)
    state, at = initial_state(), 0
    snap = eventstore.snapshot_load(
        stream_id=match.stream_id,
        kind=SNAPSHOT_KIND,
        max_version=version,
        without=unread_keys(hand_results),
    )
    if snap is not None:
        at, data = snap
        state = state_from_dict(
            data, load_hand_results=partial(_hand_results_at, match.stream_id, at)
        )
    recorded = eventstore.load(stream_id=match.stream_id, after_version=at, up_to_version=version)
    if recorded:
        state = replay((event_from_dict(e.type, e.data) for e in recorded), state)
        at = recorded[-1].version
    return state, at


def match_state_from_tail(*, stream_id: str, tail: eventstore.StreamTail) -> tuple[MatchState, int]:
    """The engine state at the head of a match's stream read by `eventstore.read_tail`
    (kind SNAPSHOT_KIND, without `unread_keys(...)`), and its version: from the state this
    process last remembered of the stream when the tail's events vouch for it, else from
    the tail's snapshot."""
    at = tail.snapshot[0] if tail.snapshot is not None else 0
    remembered = _remembered_state(stream_id, tail, at)
    if remembered is not None:
        version, state = remembered
        later = tail.events[version - at :]  # the tail's events are at + 1, ..., head
    else:
        state, later = initial_state(), tail.events
        if tail.snapshot is not None:
            data = tail.snapshot[1]
            load = partial(_hand_results_at, stream_id, at)
            state = state_from_dict(data, load_hand_results=load)
    if later:
        state = replay((event_from_dict(e.type, e.data) for e in later), state)
    return state, tail.head[0]


def match_state_remember(
    *, stream_id: str, version: int, head_hash: str, state: MatchState
) -> None:
    """Keep `state`, the stream's state at `version` whose event has `head_hash`, for the
    next writer of the stream in this process (`match_state_from_tail`).

    A state at a version is a function of the events up to it, and the hash of the event at
    that version covers them all (the chain), so a remembered state is used only where the
    stream read holds an event of that version with that hash: one remembered from a
    transaction that rolled back, or of a stream changed since, is simply not used. An
    action in the same worker then replays only the events since its last one there
    instead of all those since the hand's snapshot (about 15), and decodes no snapshot."""
    with _REMEMBERED_LOCK:
        _REMEMBERED[stream_id] = (version, head_hash, state)
        _REMEMBERED.move_to_end(stream_id)
        while len(_REMEMBERED) > REMEMBERED_STATES:
            _REMEMBERED.popitem(last=False)


def match_states_forget() -> None:
    """Forget every remembered state (tests; nothing else needs to)."""
    with _REMEMBERED_LOCK:
        _REMEMBERED.clear()


def _remembered_state(
    stream_id: str, tail: eventstore.StreamTail, at: int
) -> tuple[int, MatchState] | None:
    """The remembered (version, state) of the stream if the tail vouches for it: its
    version is the head's with the head's hash, or that of one of the tail's events (after
    the snapshot at `at`) with that event's hash."""
    with _REMEMBERED_LOCK:
        remembered = _REMEMBERED.get(stream_id)
    if remembered is None:
        return None
    version, digest, state = remembered
    head_version, head_hash = tail.head
    if version == head_version:
        return (version, state) if digest == head_hash else None
    if not at < version < head_version:
        return None
    event = tail.events[version - at - 1]
    return (version, state) if event.version == version and event.hash == digest else None


# Per worker process: matches are spread over the workers, and a state is ~20 kB.
REMEMBERED_STATES = 256
_REMEMBERED: OrderedDict[str, tuple[int, str, MatchState]] = OrderedDict()
_REMEMBERED_LOCK = threading.Lock()


def unread_keys(hand_results: bool) -> tuple[str, ...]:
    """The snapshot keys left unread: the finished-hand records, most of a late snapshot,
    are read only if looked at (deciding the next action never does, views do); a state
    loaded without them reads them when asked."""
    return () if hand_results else ("hand_results",)


@functools.lru_cache(maxsize=512)
def _hand_results_at(stream_id: str, version: int) -> tuple[dict[str, Any], ...]:
    """The finished-hand records of the snapshot at `version`, or, if it has been deleted
    since, of the state replayed from the events up to it.

    Cached in the process: the records of a stream at a version never change (events are
    immutable), and they are most of a late snapshot, which PostgreSQL would otherwise
    turn into text on every action. A new hand's snapshot is a new key. The records are
    shared: readers copy before changing anything (see `_hand_for`)."""
    records = eventstore.snapshot_part(
        stream_id=stream_id, kind=SNAPSHOT_KIND, version=version, key="hand_results"
    )
    if records is None:
        recorded = eventstore.load(stream_id=stream_id, up_to_version=version)
        records = replay(event_from_dict(e.type, e.data) for e in recorded).hand_results
    return tuple(records)


# -- what a viewer may see ---------------------------------------------------------------


def _may_audit(*, user: User, match: Match, seat: int | None) -> bool:
    """The match's players and organisers see decks, salts and both hands once ended."""
    return seat is not None or user_can_organise_match(user=user, match=match)


def _players(match: Match) -> list[dict[str, Any]]:
    return [
        {"id": match.player1_id, "name": match.player1.name, "seat": 0},
        {"id": match.player2_id, "name": match.player2.name, "seat": 1},
    ]


def match_view_for(
    *, match: Match, user: User, latest: tuple[MatchState, int] | None = None
) -> dict[str, Any]:
    """The body of GET /api/matches/{id}/: what this user may see, seats as player ids.
    `latest`: the match's (state, version) when the caller has it at hand (a service has
    just committed it, see services.match_committed_state); otherwise it is loaded."""
    if latest is not None and latest[1] == match.version:
        state, version = latest
    else:
        state, version = match_state_at(match=match)
    seat = match_seat_for(user=user, match=match)
    auditor = _may_audit(user=user, match=match, seat=seat)
    view = public_view(state, seat)
    pid = match.player_id_for_seat
    return {
        "id": str(match.id),
        "version": version,
        "status": match.status,
        "mode": view["mode"],
        "label": match.label,
        "ruleset": view["ruleset"],
        "players": _players(match),
        "hand_number": view["hand_number"],
        "phase": view["phase"],
        "dealer": pid(view["dealer"]),
        "turn": pid(view["turn"]),
        "your_seat": view["seat"],
        "your_cards": view["your_cards"],
        "opponent_card_count": view["opponent_card_count"],
        "discard_pile": view["discard_pile"],
        "upcard": view.get("upcard"),
        "stock_count": view["stock_count"],
        "legal_actions": view["legal_actions"],
        "commitment": view["commitment"],
        "knock": _with_player_ids(view["knock"], match) if view.get("knock") else None,
        "hands": [_hand_for(h, match=match, auditor=auditor) for h in view["hands"]],
        "rulings": [_with_player_ids(r, match) for r in view.get("rulings", [])],
        "scoresheet": _scoresheet_for(match, view["scoresheet"]),
        "winner": pid(view["winner"]),
        "finish_reason": view["finish_reason"],
    }


_SEAT_KEYS = ("knocker", "winner", "dealer", "seat")
# Cards nobody saw face up at the table: only the players and organisers get them.
_SECRET_KEYS = ("deck", "salt", "hands", "stock")


def _with_player_ids(record: dict[str, Any], match: Match) -> dict[str, Any]:
    out = dict(record)
    for key in _SEAT_KEYS:
        if key in out and (out[key] is None or type(out[key]) is int):
            out[key] = match.player_id_for_seat(out[key])
    return out


def _hand_for(record: dict[str, Any], *, match: Match, auditor: bool) -> dict[str, Any]:
    """A finished hand: who knocked, the kind, deadwoods, melds and layoffs, points, winner
    (players by id); deck, salt and both hands only for auditors."""
    out = _with_player_ids(record, match)
    for key in ("knock", "defence"):
        if isinstance(out.get(key), dict):
            out[key] = _with_player_ids(out[key], match)
    if not auditor:
        for key in _SECRET_KEYS:
            out.pop(key, None)
    return out


def _scoresheet_for(match: Match, sheet: dict[str, Any] | None) -> dict[str, Any] | None:
    """Each game's totals per player (by id), whether it is closed and who won it."""
    if not sheet:
        return sheet
    ids = [match.player1_id, match.player2_id]
    games = []
    for g in sheet["games"]:
        games.append(
            {
                "game": g["game"],
                "scores": dict(zip(map(str, ids), g["totals"], strict=True)),
                "closed": g["winner"] is not None,
                "winner": match.player_id_for_seat(g["winner"]),
                "bonuses": dict(zip(map(str, ids), g["bonuses"], strict=True)),
            }
        )
    return {
        "games": games,
        "games_won": dict(zip(map(str, ids), sheet["games_won"], strict=True)),
        "totals": dict(zip(map(str, ids), sheet["totals"], strict=True)),
    }


def match_events_for(*, match: Match, user: User, after: int = 0) -> list[dict[str, Any]]:
    """The stream as this user may see it. While a hand is in play nothing reveals a card
    of the stock or of the opponent's hand: a deal shows only its commitment, a draw from
    the stock shows the card to the drawer only. Once the hand is over (ended, or cut short
    by the end of the match: cancelled, forfeited, resigned) its players and organisers
    also see the deck and salt (to check the commitment) and every card drawn in it."""
    recorded = eventstore.load(stream_id=match.stream_id)
    seat = match_seat_for(user=user, match=match)
    auditor = _may_audit(user=user, match=match, seat=seat)
    ended = hands_over((e.type, e.data) for e in recorded) if auditor else set()
    out, hand = [], 0
    for e in recorded:
        if e.type == "HandDealt":
            hand = e.data["hand_number"]
        if e.version <= after:
            continue
        revealed = auditor and hand in ended
        out.append(
            {
                "version": e.version,
                "type": e.type,
                "data": _event_data_for(e.type, e.data, seat=seat, revealed=revealed),
                "recorded_at": e.recorded_at,
            }
        )
    return out


def _event_data_for(
    kind: str, data: dict[str, Any], *, seat: int | None, revealed: bool
) -> dict[str, Any]:
    if revealed:
        return data
    if kind == "HandDealt":
        return {k: data[k] for k in ("hand_number", "dealer", "commitment")}
    if kind == "CardDrawn" and data["source"] == "stock" and data["seat"] != seat:
        return {**data, "card": None}
    return data


def match_replay(*, match: Match, user: User, version: int) -> dict[str, Any]:
    """The full state (both hands, stock, discard pile, scoresheet) at `version`, for an
    audit. Only for the match's players and organisers, and only once the hand in play at
    that version is over: ended, or cut short by the end of the match (a replay must not
    leak a live hand)."""
    seat = match_seat_for(user=user, match=match)
    if not _may_audit(user=user, match=match, seat=seat):
        raise PermissionDeniedError("only the match's players and organisers may replay it")
    current = eventstore.stream_version(stream_id=match.stream_id)
    if not isinstance(version, int) or not 1 <= version <= current:
        raise ValidationError(
            f"version must be between 1 and {current}",
            code="invalid_version",
            extra={"current_version": current},
        )
    state, _ = match_state_at(match=match, version=version)
    if state.in_play or state.phase == "knocked":
        later = eventstore.load(stream_id=match.stream_id, after_version=version)
        if not any(ends_hand(e.type, e.data, state.hand_number) for e in later):
            raise ConflictError(
                f"hand {state.hand_number} is still in play; replay it once it has ended",
                code="hand_in_play",
            )
    return {"id": str(match.id), "version": version, "state": full_state(state)}


def matches_cut_short(*, stream_id: str | None = None) -> list[tuple[str, int, int]]:
    """(stream id, last stored version, version the match's record holds) of every match
    (or of the one with `stream_id`) whose stream ends before its record says: its last
    events were deleted, which leaves a valid hash chain behind."""
    head = eventstore.stream_version_expression(OuterRef("stream_id"))
    matches = Match.objects.annotate(head=head)
    if stream_id is not None:
        matches = matches.filter(stream_id=stream_id)
    found = matches.filter(head__lt=F("version")).order_by("stream_id")
    return list(found.values_list("stream_id", "head", "version"))


def match_verify(*, match: Match) -> dict[str, Any]:
    """Check the hash chain of the match's stream, and that it still ends where the match's
    record says it does: deleting the last events leaves a valid chain, which only the
    version kept in the read model gives away."""
    result = eventstore.verify(stream_id=match.stream_id)
    cut = matches_cut_short(stream_id=match.stream_id)
    if result.ok and cut:
        _, head, recorded = cut[0]
        return {
            "ok": False,
            "events": result.events_checked,
            "first_broken_version": head + 1,
            "reason": f"events {head + 1} to {recorded} are missing: the match's record is at"
            f" version {recorded}",
        }
    if result.ok:
        return {"ok": True, "events": result.events_checked}
    return {
        "ok": False,
        "events": result.events_checked,
        "first_broken_version": result.first_broken.version if result.first_broken else None,
        "reason": result.reason,
    }


def player_in_match(*, player: Player, match: Match) -> bool:
    return match.seat_of(player.pk) is not None
