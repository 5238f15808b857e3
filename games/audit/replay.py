"""The replay page's data: each event as the viewer may see it, with the table after it."""

from __future__ import annotations

from typing import Any

import eventstore
from games.audit.access import _public_reader, match_may_audit
from games.audit.events import (
    _actor_names,
    _event_entry,
    _full_prefix,
    _shown_events,
    texts_of,
)
from games.engine.events import event_from_dict
from games.engine.match import evolve, initial_state
from games.engine.scoresheet import scoresheet_to_dict
from games.engine.state import MatchState
from games.engine.view import hands_over, public_view
from games.models import Match
from games.selectors import (
    User,
    match_has_preset_deals,
    match_seat_for,
    match_view_for,
    scoresheet_for,
    seats_as_players,
    user_can_organise_match,
)


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
        # The words the events shown as stored refer to ({"$text": id} in their data).
        "texts": texts_of(match.stream_id, [e for e in recorded if e.version <= hashed_to]),
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
