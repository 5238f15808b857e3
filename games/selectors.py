"""Reads about matches: the state at any version (snapshot + events since), the view of a
match for a given viewer, its event stream with hidden cards removed, audit replays."""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Exists, F, OuterRef, Q, QuerySet

import eventstore
from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from eventstore.models import Snapshot
from games import repository
from games.engine.events import event_from_dict
from games.engine.match import MatchState, replay
from games.engine.ruleset import Ruleset
from games.engine.state import state_to_dict
from games.engine.view import ends_hand, hands_over, public_view
from games.models import Match, MatchDealPlan
from games.policy import match_policy
from players.models import Player
from players.selectors import player_for_user

User = AbstractBaseUser | AnonymousUser | None


@dataclass(frozen=True)
class MatchOutcome:
    """A match's result as other apps see it (tournaments record it), read from its read
    model: status, winner (player id), games won and points per player (player1 first),
    how it finished, when it last moved, and its stream version."""

    match_id: str
    status: str
    player1: int
    player2: int
    winner: int | None
    games_won: tuple[int, int]
    points: tuple[int, int]
    finish_reason: str
    last_action_at: Any
    version: int
    turn_player: int | None = None  # who is to move (online play), by id


def match_outcomes(*, match_ids: Any) -> dict[str, MatchOutcome]:
    """The outcomes of the matches `match_ids` (unknown ids are left out), by match id."""
    rows = Match.objects.filter(pk__in=list(match_ids)).values_list(
        "id", "status", "player1_id", "player2_id", "winner_id", "games_won_p1",
        "games_won_p2", "points_p1", "points_p2", "finish_reason", "last_action_at", "version",
        "turn_player_id",
    )  # fmt: skip
    out = {}
    for mid, status, p1, p2, winner, g1, g2, pt1, pt2, reason, last, version, turn in rows:
        out[str(mid)] = MatchOutcome(
            str(mid), status, p1, p2, winner, (g1, g2), (pt1, pt2), reason, last, version, turn
        )
    return out


def ruleset_normalise(*, ruleset: dict | None) -> dict:
    """A ruleset as stored (every option, defaults filled in); InvalidRulesetError if not
    valid (RULES 9)."""
    return Ruleset.from_dict(ruleset).to_dict()


def match_get(*, match_id: uuid.UUID | str, user: User | bool = False) -> Match:
    """The match; with `user`, only if that user may see it (`match_visible_to`), else the
    same 404 as for no match at all (a hidden match's existence is not given away)."""
    try:
        match = Match.objects.select_related("player1", "player2").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, DjangoValidationError):
        # An unparsable id is simply not a match.
        raise NotFoundError("no such match", code="match_not_found") from None
    if user is not False and not match_visible_to(user=user, match=match):  # type: ignore[arg-type]
        raise NotFoundError("no such match", code="match_not_found")
    return match


# -- who may see a match ---------------------------------------------------------------------
# Games know nothing of the apps that group matches (tournaments): the match policy
# (games/policy.py, named by the setting GAMES_MATCH_POLICY) says which matches a user may
# not see (e.g. those of private tournaments the user may not see) and which are public.
# The match's players and organisers, and staff, always see it.


def _sees_everything(user: User) -> bool:
    return user is not None and user.is_authenticated and (user.is_staff or user.is_superuser)


def match_visible_to(*, user: User, match: Match) -> bool:
    """Signed in: staff, the match's players and organisers, and anyone the match policy
    does not hide it from (e.g. anyone who may see its private tournament). Signed out:
    only a public match (`match_is_public`); never a friendly, which no policy hides."""
    if not _signed_in(user):
        return match_is_public(match=match)
    if _sees_everything(user):
        return True
    hidden = _hidden_query(user)
    if hidden is None:
        return True
    if match_seat_for(user=user, match=match) is not None:
        return True
    if not Match.objects.filter(hidden, pk=match.pk).exists():
        return True
    return user_can_organise_match(user=user, match=match)


def _hidden_query(user: User) -> Q | None:
    """The matches the policy hides from `user`; None when it hides none."""
    hidden = match_policy().matches_hidden_from(user=user)
    return None if hidden is None else Q(pk__in=hidden)


def _visible_only(qs: QuerySet[Match], user: User) -> QuerySet[Match]:
    if not _signed_in(user):
        # Lists are for signed-in callers; a signed-out one reads a public match by its id
        # (from its tournament's pairings), never a friendly.
        return qs.none()
    if _sees_everything(user):
        return qs
    hidden = _hidden_query(user)
    if hidden is None:
        return qs
    if user is not None and user.is_authenticated:
        own = Q(player1__user=user) | Q(player2__user=user) | Q(organisers=user)
        hidden &= ~Q(pk__in=Match.objects.filter(own).values("pk"))
    return qs.exclude(hidden)


# -- public matches ------------------------------------------------------------------------
# The match policy says whether a match is public (a match of a public tournament). A
# public match may be read by anyone, signed out too: while a hand is in play as a
# spectator sees it (no card of either hand, of the stock or of the deck), and each hand
# once over in full, as its players see it. A friendly is not public.


def match_is_public(*, match: Match) -> bool:
    """Does the match policy say the match is public (e.g. a match of a public tournament)?
    Remembered on the instance: a match does not change tournament within a request."""
    cached = getattr(match, "_is_public", None)
    if cached is None:
        cached = bool(match_policy().match_is_public(match_id=match.pk))
        match._is_public = cached  # type: ignore[attr-defined]
    return cached


def match_id_is_public(*, match_id: Any) -> bool:
    """`match_is_public` for an id from a URL: False for no such match (or no id at all),
    so that a signed-out caller learns nothing of a match that is not public."""
    try:
        match = Match.objects.only("pk").get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError, DjangoValidationError):
        return False
    return match_is_public(match=match)


def _signed_in(user: User) -> bool:
    return user is not None and user.is_authenticated


# -- deals an organiser chose ------------------------------------------------------------------


def match_has_preset_deals(*, match: Match) -> bool:
    """Did an organiser choose this match's deals (a seed or decks)? Such a match is marked
    so in every view; a tournament never makes one."""
    annotated = getattr(match, "preset_deals", None)
    if annotated is not None:
        return bool(annotated)
    return _preset_deals(match.pk)


@functools.lru_cache(maxsize=20_000)
def _preset_deals(match_id: Any) -> bool:
    # Remembered per process: a deal plan is written with its match, in the same
    # transaction, and never changes; this keeps the query off every action's view.
    return MatchDealPlan.objects.filter(match_id=match_id).exists()


def matches_with_preset_deals(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Each match annotated with `preset_deals` (read by `match_has_preset_deals`)."""
    return matches.annotate(
        preset_deals=Exists(MatchDealPlan.objects.filter(match_id=OuterRef("pk")))
    )


def match_list_for(
    *,
    user: User,
    mine: bool = False,
    status: str | None = None,
    mode: str | None = None,
    player: int | None = None,
) -> QuerySet[Match]:
    """Matches the user may see (`match_visible_to`), newest first; `mine` keeps the caller's own,
    `player` those of one player (by id), `status` and `mode` those in that status or mode."""
    qs = Match.objects.select_related("player1", "player2", "winner", "turn_player")
    qs = matches_with_preset_deals(_visible_only(qs, user))
    if player is not None:
        qs = qs.filter(Q(player1_id=player) | Q(player2_id=player))
    if mode:
        qs = qs.filter(mode=mode)
    if mine:
        own = player_for_user(user=user)
        if own is None:
            return qs.none()
        qs = qs.filter(Q(player1=own) | Q(player2=own))
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


def match_list_followable(*, user: User, also_ids: Any = ()) -> QuerySet[Match]:
    """Matches `user` plays in or organises (every match for staff), plus those whose ids
    are in `also_ids` (e.g. the matches of tournaments the user may see), newest first;
    each with `preset_deals` (whether an organiser chose its deals)."""
    matches = matches_with_preset_deals(Match.objects.all())
    if user is not None and user.is_authenticated and user.is_staff:
        return matches.order_by("-created_at")
    query = Q(pk__in=also_ids)
    if user is not None and user.is_authenticated:
        query |= Q(organisers=user) | Q(player1__user=user) | Q(player2__user=user)
    return matches.filter(query).distinct().order_by("-created_at")


def match_hand_rows(*, match: Match) -> QuerySet:
    """The match's hands read model (one row per hand), in order, with the players."""
    return match.hands.select_related("knocker", "winner").order_by("hand_number")


def match_seat_for(*, user: User, match: Match) -> int | None:
    player = player_for_user(user=user)
    return match.seat_of(player.pk) if player is not None else None


def match_state_at(
    *, match: Match, version: int | None = None, hand_results: bool = False
) -> tuple[MatchState, int]:
    """The engine state of a match at `version` (default: the latest) and that version."""
    return repository.match_state_at(match=match, version=version, hand_results=hand_results)


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
    *,
    match: Match,
    user: User,
    latest: tuple[MatchState, int] | None = None,
    head_hash: str | None = None,
) -> dict[str, Any]:
    """The body of GET /api/matches/{id}/: what this user may see, seats as player ids.
    `latest`: the match's (state, version) when the caller has it at hand (the result of
    the service that has just saved it), and `head_hash` the hash of the event at that
    version; otherwise they are loaded."""
    if latest is not None and latest[1] == match.version:
        state, version = latest
    else:
        state, version = match_state_at(match=match)
    seat = match_seat_for(user=user, match=match)
    auditor = _may_audit(user=user, match=match, seat=seat)
    # A public match's reader gets its hands once over in full (deck, salt, both hands);
    # the hand in play is in none of `hands` until it is over.
    full_hands = auditor or match_is_public(match=match)
    view = public_view(state, seat)
    pid = match.player_id_for_seat
    return {
        "id": str(match.id),
        "version": version,
        "status": match.status,
        "mode": view["mode"],
        "label": match.label,
        "preset_deals": match_has_preset_deals(match=match),
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
        "knock": seats_as_players(match=match, record=view["knock"]) if view.get("knock") else None,
        "hands": [_hand_for(h, match=match, auditor=full_hands) for h in view["hands"]],
        "rulings": [seats_as_players(match=match, record=r) for r in view.get("rulings", [])],
        "scoresheet": scoresheet_for(match=match, sheet=view["scoresheet"]),
        "winner": pid(view["winner"]),
        "finish_reason": view["finish_reason"],
        # What a player keeps: the head they saw, signed; a later rewrite no longer matches.
        "receipt": eventstore.receipt_sign(
            stream_id=match.stream_id,
            version=version,
            digest=head_hash if latest is not None and version == latest[1] else None,
        )
        if auditor
        else None,
    }


# Cards nobody saw face up at the table: only the players and organisers get them.
_SECRET_KEYS = ("deck", "salt", "hands", "stock")

# -- who is who ---------------------------------------------------------------------------
# Events and the engine's state hold seats (0 and 1). What the API shows names players by
# id: a field that names a player (`dealer`, `first_dealer`, `turn`, `knocker`, `winner`)
# holds a player id; a record's `seat` stays the seat (0/1) and has the player's id beside
# it as `player`; a value per player (`scores`, `bonuses`, `totals`, `games_won`, `hands`,
# `card_counts`) is a dict by player id. The same in the match view, the replay and the
# events API (README "Who is who").
_PLAYER_KEYS = ("dealer", "first_dealer", "turn", "knocker", "winner")
_PER_PLAYER_KEYS = ("scores", "bonuses", "totals", "games_won", "hands", "card_counts")
_NESTED_KEYS = ("knock", "defence", "before", "after")


def seats_as_players(*, match: Match, record: dict[str, Any]) -> dict[str, Any]:
    """`record` (an event's data, a hand record, a ruling...) with its players by id, as
    the API shows them; nested records (knock, defence, a correction's before and after)
    too. The record itself is not changed."""
    out = dict(record)
    pid = match.player_id_for_seat
    for key in _PLAYER_KEYS:
        if key in out and (out[key] is None or type(out[key]) is int):
            out[key] = pid(out[key])
    if type(out.get("seat")) is int:
        out["player"] = pid(out["seat"])
    ids = (str(match.player1_id), str(match.player2_id))
    for key in _PER_PLAYER_KEYS:
        value = out.get(key)
        if isinstance(value, list | tuple) and len(value) == 2:
            out[key] = dict(zip(ids, value, strict=True))
    for key in _NESTED_KEYS:
        if isinstance(out.get(key), dict):
            out[key] = seats_as_players(match=match, record=out[key])
    if isinstance(out.get("corrections"), list):
        out["corrections"] = [seats_as_players(match=match, record=c) for c in out["corrections"]]
    return out


def _hand_for(record: dict[str, Any], *, match: Match, auditor: bool) -> dict[str, Any]:
    """A finished hand: who knocked, the kind, deadwoods, melds and layoffs, points, winner
    (players by id); deck, salt and both hands only for auditors."""
    out = seats_as_players(match=match, record=record)
    if not auditor:
        for key in _SECRET_KEYS:
            out.pop(key, None)
    return out


def scoresheet_for(*, match: Match, sheet: dict[str, Any] | None) -> dict[str, Any] | None:
    """The engine's scoresheet (`scoresheet_to_dict`) as the API shows it: each game's
    totals per player (by id), whether it is closed and who won it."""
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


def match_events_for(
    *, match: Match, user: User, after: int = 0, as_players: bool = False
) -> list[dict[str, Any]]:
    """The stream as this user may see it. While a hand is in play nothing reveals a card
    of the stock or of the opponent's hand: a deal shows only its commitment, a draw from
    the stock shows the card to the drawer only. Once the hand is over (ended, or cut short
    by the end of the match: cancelled, forfeited, resigned) its players and organisers
    also see the deck and salt (to check the commitment) and every card drawn in it, and so
    does anyone who may read a public match (`match_is_public`): such a reader is a
    spectator of the hand in play (seat None: no card drawn from the stock, no deal).
    `as_players`: each event's data with its players by id (`seats_as_players`), as the
    events API and the stream show it; without, the data as stored (seats), which the
    audit compares with the stored events and hashes."""
    recorded = eventstore.load(stream_id=match.stream_id)
    seat = match_seat_for(user=user, match=match)
    sees_ended = _may_audit(user=user, match=match, seat=seat) or match_is_public(match=match)
    ended = hands_over((e.type, e.data) for e in recorded) if sees_ended else set()
    out, hand = [], 0
    for e in recorded:
        if e.type == "HandDealt":
            hand = e.data["hand_number"]
        if e.version <= after:
            continue
        revealed = hand in ended
        data = _event_data_for(e.type, e.data, seat=seat, revealed=revealed)
        if as_players:
            data = seats_as_players(match=match, record=data)
        out.append(
            {"version": e.version, "type": e.type, "data": data, "recorded_at": e.recorded_at}
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
    audit. For the match's players and organisers, and anyone who may read a public match,
    and only once the hand in play at that version is over: ended, or cut short by the end
    of the match (a replay must not leak a live hand)."""
    seat = match_seat_for(user=user, match=match)
    if not (_may_audit(user=user, match=match, seat=seat) or match_is_public(match=match)):
        raise PermissionDeniedError(
            "only the match's players and organisers may replay it (anyone, a public match's)"
        )
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
    return {
        "id": str(match.id),
        "version": version,
        "preset_deals": match_has_preset_deals(match=match),
        "state": _replay_state(match, state),
    }


def _replay_state(match: Match, state: MatchState) -> dict[str, Any]:
    """The whole state, hidden cards included, with its players by id as in the match's
    view: `hands` and `card_counts` by player id, `picked_up` as [{"player", "card"}], the
    scoresheet, hand records, rulings and disputes shaped as the view shapes them."""
    raw = state_to_dict(state)
    out = seats_as_players(match=match, record=raw)
    out["card_counts"] = seats_as_players(
        match=match, record={"card_counts": [len(h) for h in raw["hands"]]}
    )["card_counts"]
    out["picked_up"] = [
        {"player": match.player_id_for_seat(seat), "card": card} for seat, card in raw["picked_up"]
    ]
    out["scoresheet"] = scoresheet_for(match=match, sheet=raw["scoresheet"])
    out["hand_results"] = [_hand_for(h, match=match, auditor=True) for h in raw["hand_results"]]
    for key in ("rulings", "disputes"):
        out[key] = [seats_as_players(match=match, record=r) for r in raw[key]]
    return out


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


def match_verify(*, match: Match, user: User | bool = False) -> dict[str, Any]:
    """Check the hash chain of the match's stream (seals and signed checkpoints too), and
    that it still ends where the match's record says it does: deleting the last events
    leaves a valid chain, which only the version kept in the read model gives away.
    With `user`: the receipt (a checkpoint: a version and its hash) only if that user may
    have it (`_may_have_head_hash`)."""
    result = eventstore.verify(stream_id=match.stream_id)
    cut = matches_cut_short(stream_id=match.stream_id)
    # The latest signed checkpoint of the stream: a receipt to keep, which a later rewrite
    # of the history can no longer match (eventstore.checkpoint_valid checks one).
    receipts = eventstore.checkpoints_export(stream_id=match.stream_id, latest_only=True)
    if user is not False and not _may_have_head_hash(user=user, match=match):  # type: ignore[arg-type]
        receipts = []
    receipt = {"receipt": receipts[0]} if receipts else {}
    if result.ok and cut:
        _, head, recorded = cut[0]
        return {
            "ok": False,
            "events": result.events_checked,
            "first_broken_version": head + 1,
            "reason": f"events {head + 1} to {recorded} are missing: the match's record is at"
            f" version {recorded}",
            **receipt,
        }
    if result.ok:
        return {"ok": True, "events": result.events_checked, **receipt}
    return {
        "ok": False,
        "events": result.events_checked,
        "first_broken_version": result.first_broken.version if result.first_broken else None,
        "reason": result.reason,
        **receipt,
    }


def _may_have_head_hash(*, user: User, match: Match) -> bool:
    """The hash of a recent event is for the match's players, organisers and staff, and for
    anyone else only once the match is finished: an onlooker who knew the hash of the event
    before could find a card drawn from the stock from its hash by trying the 52 candidates
    (its metadata and time are easy to guess)."""
    seat = match_seat_for(user=user, match=match)
    return match.status == Match.Status.FINISHED or _may_audit(user=user, match=match, seat=seat)


def player_in_match(*, player: Player, match: Match) -> bool:
    return match.seat_of(player.pk) is not None


def snapshots_check(*, stream_id: str | None = None, deep: bool = False) -> list[Any]:
    """Snapshots that do not match the event they stand at (their seal, eventstore), and
    with `deep` also the match snapshots whose state differs from a replay of the events up
    to their version (snapshots older than seals included). Readers ignore neither by
    themselves: a bad snapshot is deleted (`eventstore.snapshot_delete`) and rebuilt."""
    bad = list(eventstore.snapshots_check(stream_id=stream_id))
    if not deep:
        return bad
    known = {(b.stream_id, b.kind, b.version) for b in bad}
    snapshots = Snapshot.objects.filter(kind=repository.SNAPSHOT_KIND).order_by(
        "stream_id", "version"
    )
    if stream_id is not None:
        snapshots = snapshots.filter(stream_id=stream_id)
    for sid, version, state in snapshots.values_list("stream_id", "version", "state").iterator(
        chunk_size=100
    ):
        if (sid, repository.SNAPSHOT_KIND, version) in known:
            continue
        events = eventstore.load(stream_id=sid, up_to_version=version)
        replayed = replay(event_from_dict(e.type, e.data) for e in events)
        if eventstore.canonical_json(state_to_dict(replayed)) != eventstore.canonical_json(state):
            bad.append(
                eventstore.BadSnapshot(
                    sid, repository.SNAPSHOT_KIND, version, "its state is not the replay's"
                )
            )
    return bad
