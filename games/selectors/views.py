"""The view of a match for a given viewer (GET /api/matches/{id}/), and how the API names
players (by id) where the engine and the events hold seats."""

from __future__ import annotations

from typing import Any

import eventstore
from games import repository
from games.engine.match import MatchState
from games.engine.view import public_view
from games.models import Match
from games.selectors.lists import match_has_preset_deals
from games.selectors.visibility import User, _may_audit, match_is_public, match_seat_for


def match_state_at(
    *, match: Match, version: int | None = None, hand_results: bool = False
) -> tuple[MatchState, int]:
    """The engine state of a match at `version` (default: the latest) and that version."""
    return repository.match_state_at(match=match, version=version, hand_results=hand_results)


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
    version: int | None = None,
) -> dict[str, Any]:
    """The body of GET /api/matches/{id}/: what this user may see, seats as player ids.
    `latest`: the match's (state, version) when the caller has it at hand (the result of
    the service that has just saved it), and `head_hash` the hash of the event at that
    version; otherwise they are loaded. `version`: the view as it was at that version (a
    replayed command's answer: core.idempotency); the match row's fields are today's."""
    if latest is not None and latest[1] == match.version:
        state, version = latest
    else:
        state, version = match_state_at(match=match, version=version)
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
        "practice": match.practice,
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
PLAYER_KEYS = ("dealer", "first_dealer", "turn", "knocker", "winner")
PER_PLAYER_KEYS = ("scores", "bonuses", "totals", "games_won", "hands", "card_counts")
_NESTED_KEYS = ("knock", "defence", "before", "after")


def seats_as_players(*, match: Match, record: dict[str, Any]) -> dict[str, Any]:
    """`record` (an event's data, a hand record, a ruling...) with its players by id, as
    the API shows them; nested records (knock, defence, a correction's before and after)
    too. The record itself is not changed."""
    out = dict(record)
    pid = match.player_id_for_seat
    for key in PLAYER_KEYS:
        if key in out and (out[key] is None or type(out[key]) is int):
            out[key] = pid(out[key])
    if type(out.get("seat")) is int:
        out["player"] = pid(out["seat"])
    ids = (str(match.player1_id), str(match.player2_id))
    for key in PER_PLAYER_KEYS:
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
