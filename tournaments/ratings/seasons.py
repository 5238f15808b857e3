"""Season standings as a projection of the club's periods (tournaments.domain.seasons):
recomputed with the ratings whenever a period is added or re-derived, so they follow every
correction, and when a season is created."""

from __future__ import annotations

from collections.abc import Iterable
from zoneinfo import ZoneInfo

from players.models import Club
from tournaments.domain.seasons import (
    SeasonLine,
    SeasonRules,
    SeasonTournament,
    season_standings,
)
from tournaments.ratings.models import ClubPeriod, Season, SeasonStanding


def season_rules(season: Season) -> SeasonRules:
    return SeasonRules(
        place_points=tuple(season.place_points),
        participation=season.participation_points,
        best_of=season.best_of,
        tie_order=tuple(season.tie_order or Season.TIE_ORDER),
    )


def season_tournaments(*, season: Season, zone: ZoneInfo) -> list[SeasonTournament]:
    """The season's tournaments (finished on its days, in the club's zone), in order."""
    periods = (
        ClubPeriod.objects.filter(club_id=season.club_id)
        .order_by("finished_position")
        .values_list("tournament_id", "finished_at", "results", "standings")
    )
    out = []
    for tournament_id, finished_at, results, standings in periods:
        day = finished_at.astimezone(zone).date()
        if not season.starts_on <= day <= season.ends_on:
            continue
        out.append(
            SeasonTournament(
                tournament=tournament_id,
                places={player: rank for player, rank, _ in standings},
                match_wins={player: wins for player, _, wins in standings},
                results=tuple((a, b, w) for a, b, w in results),
            )
        )
    return out


_LINE_FIELDS = ("rank", "points", "played", "counted", "tournaments_won", "match_wins", "shared")


def _standing(season: Season, line: SeasonLine) -> SeasonStanding:
    return SeasonStanding(
        season=season,
        player_id=line.player,
        rank=line.rank,
        points=line.points,
        played=line.played,
        counted=[
            {"tournament": c.tournament, "points": c.points, "place": c.place} for c in line.counted
        ],
        tournaments_won=line.tournaments_won,
        match_wins=line.match_wins,
        shared=line.shared,
    )


def season_refresh_in_tx(*, season: Season, zone: ZoneInfo) -> None:
    """Recompute the season's standings and write the lines that changed (a corrected
    result moves a few players of a season's table, not all of them)."""
    lines = season_standings(season_tournaments(season=season, zone=zone), season_rules(season))
    new = {line.player: _standing(season, line) for line in lines}
    old = {
        row[0]: row[1:]
        for row in SeasonStanding.objects.filter(season=season).values_list(
            "player_id", "pk", *_LINE_FIELDS
        )
    }
    stale = [
        row[0]
        for player, row in old.items()
        if player not in new
        or tuple(getattr(new[player], name) for name in _LINE_FIELDS) != row[1:]
    ]
    if stale:
        SeasonStanding.objects.filter(pk__in=stale).delete()
    kept = {player for player, row in old.items() if row[0] not in stale}
    SeasonStanding.objects.bulk_create(
        [standing for player, standing in new.items() if player not in kept], batch_size=1000
    )


def club_seasons_refresh_in_tx(
    *, club_id: int, tournament_ids: Iterable[int] | None = None
) -> None:
    """Recompute the standings of the club's seasons (in the caller's transaction): every
    season, or those holding one of `tournament_ids` (a season's table follows only from
    its own tournaments' places and results, never from the ratings)."""
    club = Club.objects.get(pk=club_id)
    zone = ZoneInfo(club.time_zone or "UTC")
    seasons = list(Season.objects.filter(club_id=club_id))
    if tournament_ids is not None:
        finished = ClubPeriod.objects.filter(
            club_id=club_id, tournament_id__in=list(tournament_ids)
        )
        days = [at.astimezone(zone).date() for at in finished.values_list("finished_at", flat=True)]
        seasons = [s for s in seasons if any(s.starts_on <= day <= s.ends_on for day in days)]
    for season in seasons:
        season_refresh_in_tx(season=season, zone=zone)
