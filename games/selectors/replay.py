"""A match's event stream as a viewer may see it (no hidden card while its hand is in
play), and the full state at a version for an audit once that hand is over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_noop

import eventstore
from core.errors import ConflictError, PermissionDeniedError, ValidationError
from eventstore import RecordedEvent
from games.engine.match import MatchState
from games.engine.state import state_to_dict
from games.engine.view import ends_hand, hands_over
from games.models import Match
from games.selectors.lists import match_has_preset_deals
from games.selectors.views import _hand_for, match_state_at, scoresheet_for, seats_as_players
from games.selectors.visibility import User, _may_audit, match_is_public, match_seat_for


def match_events_for(
    *,
    match: Match,
    user: User,
    after: int = 0,
    as_players: bool = False,
    recorded: Sequence[RecordedEvent] | None = None,
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
    audit compares with the stored events and hashes. `recorded`: the whole stream where
    the caller has read it (a live stream's copy, `match_followed`)."""
    if recorded is None:
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
            gettext_noop("version must be between 1 and %(current)s"),
            code="invalid_version",
            params={"current": current},
            extra={"current_version": current},
        )
    state, _ = match_state_at(match=match, version=version)
    if state.in_play or state.phase == "knocked":
        later = eventstore.load(stream_id=match.stream_id, after_version=version)
        if not any(ends_hand(e.type, e.data, state.hand_number) for e in later):
            raise ConflictError(
                gettext_noop("hand %(hand)s is still in play; replay it once it has ended"),
                code="hand_in_play",
                params={"hand": state.hand_number},
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
