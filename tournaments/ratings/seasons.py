"""Season standings as a projection of the club's periods (tournaments.domain.seasons):
recomputed with the ratings whenever a period is added or re-derived, so they follow every
correction, and when a season is created."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from players.models import Club
from tournaments.domain.seasons import SeasonRules, SeasonTournament, season_standings
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
        .only("tournament_id", "finished_at", "results", "standings")
    )
    out = []
    for p in periods:
        day = p.finished_at.astimezone(zone).date()
        if not season.starts_on <= day <= season.ends_on:
            continue
        out.append(
            SeasonTournament(
                tournament=p.tournament_id,
                places={player: rank for player, rank, _ in p.standings},
                match_wins={player: wins for player, _, wins in p.standings},
                results=tuple((a, b, w) for a, b, w in p.results),
            )
        )
    return out


def season_refresh_in_tx(*, season: Season, zone: ZoneInfo) -> None:
    lines = season_standings(season_tournaments(season=season, zone=zone), season_rules(season))
    SeasonStanding.objects.filter(season=season).delete()
    SeasonStanding.objects.bulk_create(
        SeasonStanding(
            season=season,
            player_id=line.player,
            rank=line.rank,
            points=line.points,
            played=line.played,
            counted=[
                {"tournament": c.tournament, "points": c.points, "place": c.place}
                for c in line.counted
            ],
            tournaments_won=line.tournaments_won,
            match_wins=line.match_wins,
            shared=line.shared,
        )
        for line in lines
    )


def club_seasons_refresh_in_tx(*, club_id: int) -> None:
    """Recompute the standings of every season of the club (in the caller's transaction)."""
    club = Club.objects.get(pk=club_id)
    zone = ZoneInfo(club.time_zone or "UTC")
    for season in Season.objects.filter(club_id=club_id):
        season_refresh_in_tx(season=season, zone=zone)
