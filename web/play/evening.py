"""My evening (`/me/`): a player's tournament night on one page, for the phone. The
current table (it follows the player to the next round live: the page follows the
tournament's stream and its current match's, web/static/web/live.js), the running
scoresheet, the place in the standings, the finished matches with their replays, and what
waits for the player: an entry to confirm, a rejected entry with the organiser's reason, a
dispute's answer; the teams the player captains (their lineups: web/play/captain.py).
Reads only, through the selectors."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.audit import match_disputes
from games.selectors import match_get, match_list_for, table_entries_latest
from players.selectors import player_for_user, user_is_organiser
from tournaments.selectors import player_pairings, player_standing, player_tournaments
from tournaments.teams.selectors import team_captaincies
from web.desk.access import LOGIN_URL
from web.desk.rounds import scoresheet


def _tournament_evening(tournament: Any, me: Any, user: Any) -> dict[str, Any]:
    pairings = player_pairings(tournament=tournament, player=me)
    current = next((p for p in pairings if p.round.number == tournament.current_round), None)
    match = match_get(match_id=current.match_id) if current and current.match_id else None
    finished = [p for p in pairings if p.match_id and p.status == "finished"]
    standing, of = player_standing(tournament=tournament, player=me)
    return {
        "tournament": tournament,
        "current": current,
        "match": match,
        "opponent": (
            None
            if current is None
            else current.player2
            if current.player1_id == me.pk
            else current.player1
        ),
        "sheet": scoresheet(match) if match is not None else None,
        "standing": standing,
        # "=2" where another player shares the place (equal on every tiebreak).
        "place": None if standing is None else f"{'=' if standing.shared else ''}{standing.place}",  # type: ignore[attr-defined]
        "field": of,
        "finished": finished,
        "online": tournament.play_mode == "online",
        "match_ids": [p.match_id for p in pairings if p.match_id],
    }


def _awaiting(me: Any, user: Any, match_ids: list[Any]) -> list[dict[str, Any]]:
    """What waits for the player, across the evening's matches."""
    out: list[dict[str, Any]] = []
    matches = {str(i): match_get(match_id=i) for i in match_ids}
    for match_id, entry in table_entries_latest(match_ids=match_ids).items():
        match = matches[match_id]
        if entry.status == "pending" and entry.entered_by_id != me.pk:
            out.append({"kind": "confirm", "entry": entry, "match_id": match_id})
        elif entry.status == "rejected" and entry.version == match.version:
            # Until the hand is entered again (nothing recorded since).
            out.append({"kind": "rejected", "entry": entry, "match_id": match_id})
    for match_id, match in matches.items():
        for case in match_disputes(match=match, user=user, status="closed"):
            out.append({"kind": "dispute", "case": case, "match_id": str(match_id)})
    return out


def my_evening(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    me = player_for_user(user=request.user)
    context: dict[str, Any] = {"me": me, "organiser": user_is_organiser(user=request.user)}
    if me is not None:
        evenings = [_tournament_evening(t, me, request.user) for t in player_tournaments(player=me)]
        ids = [i for e in evenings for i in e["match_ids"]]
        to_play = match_list_for(user=request.user, mine=True, status="in_progress", mode="online")
        context |= {
            "evenings": evenings,
            "awaiting": _awaiting(me, request.user, ids),
            "to_play": [m for m in to_play[:20] if m.turn_player_id == me.pk],
            "captain_of": team_captaincies(player=me),  # the captain's pages (captain.py)
        }
    template = (
        "play/_evening_live.html" if request.headers.get("HX-Request") else "play/evening.html"
    )
    return render(request, template, context)
