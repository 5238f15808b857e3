"""A tournament's event stream as each viewer may see it (organisers by login, others by
role), its stream heads, the results corrected after a round was paired, round notes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model

import eventstore
from players.models import Player
from tournaments import followed
from tournaments.followed import TournamentFollowed
from tournaments.models import Tournament
from tournaments.selectors.access import User, user_can_organise
from tournaments.selectors.players import MatchPlace as MatchPlace  # the players' reads
from tournaments.selectors.players import match_places as match_places
from tournaments.selectors.players import player_pairings as player_pairings
from tournaments.selectors.players import player_standing as player_standing
from tournaments.selectors.players import (
    player_tournament_match_ids as player_tournament_match_ids,
)
from tournaments.selectors.players import player_tournaments as player_tournaments


def tournament_stream_heads(*, stream_id: str | None = None) -> list[tuple[str, int]]:
    """(stream id, version the tournament's record holds) of every tournament (or of the
    one with that stream): registered with the event store, which finds a stream cut short
    by them (TournamentsConfig.ready())."""
    tournaments = Tournament.objects.all()
    if stream_id is not None:
        number = stream_id.removeprefix("tournament-")
        if not number.isdigit() or stream_id == number:
            return []
        tournaments = tournaments.filter(pk=int(number))
    rows = tournaments.values_list("pk", "version")
    return [(f"tournament-{pk}", version) for pk, version in rows]


def results_corrected_after_pairing(*, tournament: Tournament, round_number: int) -> list[dict]:
    """The results of earlier rounds corrected after round `round_number` was (last)
    paired: the organiser may want to re-pair it while none of its matches has started.
    Each: round, table, whether a result stands after, and whether re-pairing was still
    possible when it was corrected."""
    found: list[dict] = []
    for event in tournament_stream_events(tournament=tournament):
        data = event.data
        if event.type in ("RoundPaired", "RoundRepaired") and data.get("round") == round_number:
            found = []  # corrections before this pairing were taken into account
        elif event.type == "ResultCorrected" and data.get("next_round") == round_number:
            found.append(
                {
                    "round": data["round"],
                    "table": data["table"],
                    "withdrawn": data.get("after") is None,
                    "repair_possible": bool(data.get("repair_possible")),
                    "at": event.recorded_at,
                    **_result_change(data.get("before") or {}, data.get("after")),
                }
            )
    return found


def _result_change(before: dict, after: dict | None) -> dict:
    """What a correction changed: "withdrawn" (back in play), "winner", "games" (the
    winner stands) or "points" (only the points: the points-difference tiebreak moves);
    with the games and points before and after."""
    if after is None:
        return {"change": "withdrawn"}
    pair = {
        side: {k: (d.get(f"{k}1", 0), d.get(f"{k}2", 0)) for k in ("games", "points")}
        for side, d in (("before", before), ("after", after))
    }
    if before.get("winner") != after.get("winner"):
        change = "winner"
    elif pair["before"]["games"] != pair["after"]["games"]:
        change = "games"
    else:
        change = "points"
    return {"change": change, **pair}


def results_corrected_of_table(
    *, tournament: Tournament, round_number: int, table: int
) -> list[dict]:
    """The corrections of one table's result made after the next round was paired (the
    dispute page says so): each with that round, whether a result stands after, whether
    re-pairing was still possible, and when."""
    return [
        {
            "next_round": e.data["next_round"],
            "withdrawn": e.data.get("after") is None,
            "repair_possible": bool(e.data.get("repair_possible")),
            "at": e.recorded_at,
        }
        for e in tournament_stream_events(tournament=tournament)
        if e.type == "ResultCorrected"
        and e.data.get("next_round")
        and e.data.get("round") == round_number
        and e.data.get("table") == table
    ]


def tournament_events(
    *,
    tournament: Tournament,
    viewer: User,
    after: int = 0,
    recorded: Sequence[eventstore.RecordedEvent] | None = None,
    insider: bool | None = None,
) -> list[dict[str, Any]]:
    """The decision log, oldest first, each event with who decided and why.

    `by` names the role of who decided: an organiser (or staff), the player themselves, or
    None for the system. The tournament's organisers and staff also see who it was (id and
    username); everyone else (spectators of a public tournament, its players) sees no
    organiser's id or login name, neither in `by` nor inside the event's data.
    `recorded`: the stream as already read (a live stream's, `tournament_followed`) instead
    of reading it; `insider`: whether `viewer` organises it, if already known.
    """
    if recorded is None:
        events = tournament_stream_events(tournament=tournament, after=after)
    else:
        events = [e for e in recorded if e.version > after]
    players = _player_users(events)
    if insider is None:
        insider = user_can_organise(user=viewer, tournament=tournament)
    logins = _logins(events) if insider else {}
    rows = []
    for e in events:
        role = _decider(e.data, players)
        if insider:
            # By id in the log; the login name as it is now (issue 34: events of 3.0 and
            # before held it too, and it may have changed or been erased since).
            by = (
                {**e.data["by"], "username": logins.get(e.data["by"].get("id"), "")}
                if role
                else None
            )
            data = {**e.data, "by": by} if by else e.data
            by = {**by, **role} if by and role else by
        else:
            by = role
            data = {k: v for k, v in e.data.items() if k not in _ORGANISER_KEYS} | {"by": role}
        rows.append(
            {
                "version": e.version,
                "type": e.type,
                "data": data,
                "by": by,
                "reason": e.data.get("reason", ""),
                "recorded_at": e.recorded_at,
            }
        )
    return rows


# Keys of an event's data that identify organisers (user ids), shown to insiders only: `by`
# (replaced by the role for everyone else) and TournamentCreated's `organisers`.
_ORGANISER_KEYS = frozenset({"by", "organisers"})


def _logins(events: Sequence[Any]) -> dict[int, str]:
    """User id -> the login name now, for the deciders the events name (one query)."""
    ids = {e.data["by"].get("id") for e in events if isinstance(e.data.get("by"), dict)}
    ids.discard(None)
    if not ids:
        return {}
    users = get_user_model().objects.filter(pk__in=ids)
    return {pk: name for pk, name in users.values_list("pk", get_user_model().USERNAME_FIELD)}


def _player_users(events: list[Any]) -> dict[int, int | None]:
    """Player id -> user id, for the players the events name (one query)."""
    ids = {e.data["player"] for e in events if isinstance(e.data.get("player"), int)}
    if not ids:
        return {}
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "user_id"))


def _decider(data: dict[str, Any], players: dict[int, int | None]) -> dict[str, str] | None:
    """The role of who decided: the player acting for themselves (registering, checking in,
    withdrawing) or an organiser; None for the system (scheduler, deadline job)."""
    by = data.get("by")
    if not isinstance(by, dict):
        return None
    player = data.get("player")
    if by.get("id") is not None and player in players and players[player] == by["id"]:
        return {"role": "player"}
    return {"role": "organiser"}


def tournament_stream_events(
    *, tournament: Tournament, after: int = 0
) -> list[eventstore.RecordedEvent]:
    """The tournament's stored events after version `after` (its decision log)."""
    return eventstore.load(stream_id=tournament.stream_id, after_version=after)


def tournament_followed(*, tournament_id: Any) -> TournamentFollowed:
    """The tournament's row and whole stream as a live stream's followers read them after
    each commit (from this process's copy of the stream: `tournaments.followed`)."""
    return followed.tournament_followed(tournament_id=tournament_id)


def tournament_round_notes(*, tournament: Tournament) -> dict[int, dict[str, Any]]:
    """What each round's standing pairing (its last RoundPaired or RoundRepaired event)
    says about itself: `by_hand` (an organiser set it), `forbidden_met` (pairs kept apart
    that no valid pairing could keep apart) and `confirmed` (the rematches and forbidden
    pairs an organiser kept by hand). The public page and the desk show them."""
    notes: dict[int, dict[str, Any]] = {}
    for event in tournament_stream_events(tournament=tournament):
        if event.type in ("RoundPaired", "RoundRepaired"):
            notes[event.data.get("round")] = {
                "by_hand": bool(event.data.get("by_hand")),
                "forbidden_met": [list(p) for p in event.data.get("forbidden_met") or ()],
                "confirmed": list(event.data.get("confirmed") or ()),
            }
    return notes


def tournament_rounds_set_by_hand(*, tournament: Tournament) -> set[int]:
    """The rounds whose pairings stand as an organiser set them by hand."""
    notes = tournament_round_notes(tournament=tournament)
    return {number for number, note in notes.items() if note["by_hand"]}
