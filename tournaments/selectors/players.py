"""Reads for the players' pages (web/play: the play page, the lobby, "my evening"; the
phone's table page): which tournament, round and table a match belongs to, and a player's
evening. Reads only, from the tournaments' read models. Its names may be imported from
`tournaments.selectors` itself."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from tournaments.models import Pairing, Registration, Standing, Tournament
from tournaments.selectors.reads import (
    tournament_jalali_dates,
    tournament_language,
    tournament_standings,
)


@dataclass(frozen=True)
class MatchPlace:
    """Where a tournament's match is played."""

    tournament_id: int
    tournament_name: str
    round_number: int
    table: int
    turn_time: dt.timedelta | None
    play_mode: str
    time_zone: str = "UTC"  # the zone the match's times are shown in: its tournament's
    language: str = ""  # the tournament's language (tournament_language; "": English)
    jalali_dates: bool = True  # Persian pages show Solar Hijri dates (tournament_jalali_dates)


def match_places(*, match_ids: Any) -> dict[str, MatchPlace]:
    """The tournament place of each of these matches that is a tournament's, by match id
    (as a string); a friendly or a practice match is not in it."""
    rows = Pairing.objects.filter(match_id__in=list(match_ids)).select_related(
        "round__tournament__club"
    )
    return {
        str(p.match_id): MatchPlace(
            tournament_id=p.round.tournament_id,
            tournament_name=p.round.tournament.name,
            round_number=p.round.number,
            table=p.table,
            turn_time=p.round.tournament.turn_time,
            play_mode=p.round.tournament.play_mode,
            time_zone=p.round.tournament.time_zone or "UTC",
            language=tournament_language(tournament=p.round.tournament),
            jalali_dates=tournament_jalali_dates(tournament=p.round.tournament),
        )
        for p in rows
    }


def match_place(*, match_id: Any) -> MatchPlace | None:
    """The tournament place of this match, or None for a friendly or a practice match."""
    return match_places(match_ids=[match_id]).get(str(match_id))


def player_tournament_match_ids(*, player: Any) -> Any:
    """The ids of the player's tournament matches (a query, to filter matches by)."""
    pairings = Pairing.objects.filter(Q(player1=player) | Q(player2=player), match__isnull=False)
    return pairings.values("match_id")


def player_tournaments(*, player: Any) -> list[Tournament]:
    """The tournaments the player is entered in (not withdrawn) that are running or about
    to: running first, then by start."""
    regs = Registration.objects.filter(player=player).exclude(status__in=["withdrawn", "refused"])
    qs = Tournament.objects.filter(registrations__in=regs).exclude(status="finished").distinct()
    return sorted(qs, key=lambda t: (t.status != "in_progress", t.starts_at or t.created_at))


def player_pairings(*, tournament: Tournament, player: Any) -> list[Pairing]:
    """The player's pairings in the tournament, the latest round first."""
    qs = Pairing.objects.filter(Q(player1=player) | Q(player2=player), round__tournament=tournament)
    return list(
        qs.select_related("player1", "player2", "round", "winner").order_by("-round__number")
    )


def player_standing(*, tournament: Tournament, player: Any) -> tuple[Standing | None, int]:
    """The player's row of the standings (None before any; with its `place` and `shared`, as
    `tournament_standings` gives them) and how many rows there are."""

    rows = tournament_standings(tournament=tournament)
    player_id = getattr(player, "pk", player)
    return next((row for row in rows if row.player_id == player_id), None), len(rows)
