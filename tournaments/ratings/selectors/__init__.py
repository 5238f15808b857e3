"""Reads of clubs, their ratings and their seasons."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from core.errors import NotFoundError
from players.models import Club, Player
from tournaments.domain.glicko2 import Rating, RatingSettings, is_provisional
from tournaments.models import Tournament
from tournaments.ratings import projection
from tournaments.ratings.models import (
    ClubPeriod,
    ClubRating,
    RatingEntry,
    Season,
    SeasonStanding,
)
from tournaments.selectors import tournament_list_for

User = AbstractBaseUser | AnonymousUser | None


def club_list() -> QuerySet[Club]:
    return Club.objects.order_by("name", "pk")


def club_get(*, club_id: Any) -> Club:
    try:
        return Club.objects.get(pk=int(club_id))
    except (Club.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such club", extra={"reason": "club_not_found"}) from exc


def club_by_slug(*, slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise NotFoundError("no such club", extra={"reason": "club_not_found"})
    return club


def club_settings(*, club: Club) -> RatingSettings:
    """The club's rating settings (its row, kept with the club's stream)."""
    return RatingSettings.from_dict(club.rating_settings)


def club_members(*, club: Club) -> QuerySet[Player]:
    return club.members.order_by("name", "pk")


def user_can_manage_club(*, user: User, club: Club) -> bool:
    """Staff, and the club's own organisers."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return club.organisers.filter(pk=user.pk).exists()


def user_in_club(*, user: User, club_ids: Iterable[int]) -> bool:
    """Is the user an organiser or a member of one of these clubs (or staff)?"""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    ids = list(club_ids)
    if Club.objects.filter(pk__in=ids, organisers=user).exists():
        return True
    return Club.objects.filter(pk__in=ids, members__user=user).exists()


# --- ratings -------------------------------------------------------------------------------


def club_rating_list(*, club: Club) -> QuerySet[ClubRating]:
    """The club's rating list, best first (provisional ones included)."""
    return (
        ClubRating.objects.filter(club=club)
        .select_related("player")
        .order_by("-rating", "player__name", "player_id")
    )


def club_rating_rows(*, club: Club, rows: Iterable[ClubRating]) -> list[dict[str, Any]]:
    """Rating list entries as the API and the pages show them."""
    settings = club_settings(club=club)
    return [
        {
            "player": r.player_id,
            "name": r.player.name,
            "rating": r.rating,
            "rd": r.rd,
            "volatility": r.volatility,
            "provisional": is_provisional(Rating(r.rating, r.rd, r.volatility), settings),
            "matches": r.matches,
            "periods": r.periods,
        }
        for r in rows
    ]


def club_ratings_for(*, club_id: int, player_ids: Iterable[int]) -> dict[int, float]:
    """The current club rating of each of these players who has one (for seeding: Swiss
    first rounds and knockout seeds)."""
    rows = ClubRating.objects.filter(club_id=club_id, player_id__in=list(player_ids))
    return dict(rows.values_list("player_id", "rating"))


def seeding_ratings(*, club: Club | None, player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's rating for seeding (Swiss first rounds, knockout seeds, a top cut's
    ties): their club rating, else the club's initial rating (its settings: 1500 unless
    changed); a tournament without a club seeds everyone at the default 1500."""
    ids = list(player_ids)
    settings = club_settings(club=club) if club is not None else RatingSettings()
    ratings = dict.fromkeys(ids, float(settings.initial_rating))
    if club is not None:
        ratings.update(club_ratings_for(club_id=club.pk, player_ids=ids))
    return ratings


@dataclass(frozen=True)
class ShownRating:
    """A player's club rating as a tournament's pages show it beside the name."""

    rating: float
    provisional: bool
    before: bool  # as it stood before the (finished) tournament, not as it stands now


def tournament_ratings_shown(*, tournament: Tournament) -> dict[int, ShownRating]:
    """The club rating of each player entered in the tournament who has one, by player
    id: for a finished tournament already rated, as it stood before it (its history
    entries, or for one who played no rated match in it their last entry before it);
    otherwise as it stands. Empty for a tournament without a club."""
    if tournament.club_id is None:
        return {}
    limit = club_settings(club=tournament.club).provisional_rd
    players = list(tournament.registrations.values_list("player_id", flat=True))
    position = (
        ClubPeriod.objects.filter(tournament_id=tournament.pk)
        .values_list("finished_position", flat=True)
        .first()
    )
    if position is None:
        rows = ClubRating.objects.filter(club_id=tournament.club_id, player_id__in=players)
        return {
            player: ShownRating(rating, rd > limit, False)
            for player, rating, rd in rows.values_list("player_id", "rating", "rd")
        }
    entries = RatingEntry.objects.filter(club_id=tournament.club_id, tournament_id=tournament.pk)
    shown = {
        player: ShownRating(rating, rd > limit, True)
        for player, rating, rd in entries.values_list("player_id", "rating_before", "rd_before")
    }
    earlier = RatingEntry.objects.filter(
        club_id=tournament.club_id,
        player_id__in=[p for p in players if p not in shown],
        finished_position__lt=position,
    ).order_by("player_id", "finished_position")
    for player, rating, rd in earlier.values_list("player_id", "rating", "rd"):
        shown[player] = ShownRating(rating, rd > limit, True)  # the last one stays
    return shown


def tournament_ratings_before(*, tournament_id: int) -> dict[int, float]:
    """For a finished, rated tournament: each player's rating as it stood before it (a
    player new to the club: the club's initial rating). Empty for any other tournament."""
    tournament = Tournament.objects.filter(pk=tournament_id).select_related("club").first()
    if tournament is None or tournament.club is None:
        return {}
    rows = RatingEntry.objects.filter(club_id=tournament.club_id, tournament_id=tournament_id)
    return dict(rows.values_list("player_id", "rating_before"))


def club_rerated(*, club_id: int) -> dict[int, list[dict[str, str]]]:
    """When and why each period of the club was re-rated, by tournament id: derived from
    the causes stored with the periods and the club's settings changes (its stream)."""
    periods = list(
        ClubPeriod.objects.filter(club_id=club_id)
        .order_by("finished_position")
        .only("tournament_id", "finished_position", "causes")
    )
    causes = projection.club_rerated(periods, projection.club_settings_from_events(club_id=club_id))
    return {
        p.tournament_id: [{"at": c.at, "reason": c.reason} for c in own]
        for p, own in zip(periods, causes, strict=True)
    }


def _played(games: Iterable[list[int]], player_id: int) -> list[dict[str, Any]]:
    """Whom the player played in a period (its rated matches, in order), and the score."""
    out = []
    for winner, loser in games:
        if winner == player_id:
            out.append({"opponent": loser, "score": 1.0})
        elif loser == player_id:
            out.append({"opponent": winner, "score": 0.0})
    return out


def player_rating_history(*, player: Player, club: Club, user: User) -> list[dict[str, Any]]:
    """One entry per period of `club` in which the player played, oldest first. Entries of
    tournaments the viewer may not see (private ones) keep their numbers (they count in
    the ratings) but name neither the tournament nor the opponents."""
    entries = list(
        RatingEntry.objects.filter(club=club, player=player).order_by("finished_position")
    )
    ids = [e.tournament_id for e in entries]
    visible = set(tournament_list_for(user=user).filter(pk__in=ids).values_list("pk", flat=True))
    games = dict(
        ClubPeriod.objects.filter(tournament_id__in=ids).values_list("tournament_id", "games")
    )
    rerated = club_rerated(club_id=club.pk) if entries else {}
    return [
        {
            "tournament": e.tournament_id if e.tournament_id in visible else None,
            "finished_at": e.finished_at,
            "rating_before": e.rating_before,
            "rd_before": e.rd_before,
            "volatility_before": e.volatility_before,
            "rating": e.rating,
            "rd": e.rd,
            "volatility": e.volatility,
            "played": (
                _played(games.get(e.tournament_id, []), player.pk)
                if e.tournament_id in visible
                else []
            ),
            "rerated": rerated.get(e.tournament_id, []),
        }
        for e in entries
    ]


def player_club_ratings(*, player: Player) -> list[tuple[Club, ClubRating]]:
    """The player's current rating in every club where they have one."""
    rows = ClubRating.objects.filter(player=player).select_related("club").order_by("club__name")
    return [(r.club, r) for r in rows]


def club_period_tournaments(*, club: Club) -> QuerySet[ClubPeriod]:
    return ClubPeriod.objects.filter(club=club).select_related("tournament")


# --- seasons ---------------------------------------------------------------------------------


def club_seasons(*, club: Club) -> QuerySet[Season]:
    return Season.objects.filter(club=club).order_by("-starts_on", "pk")


def club_season_list(*, club: Club, limit: int | None = None) -> list[Season]:
    """The club's seasons, latest first (at most `limit`): a page's list."""
    seasons = club_seasons(club=club)
    return list(seasons if limit is None else seasons[:limit])


def club_rating_top(*, club: Club, limit: int) -> list[dict[str, Any]]:
    """The first `limit` entries of the club's rating list as the pages show them."""
    return club_rating_rows(club=club, rows=club_rating_list(club=club)[:limit])


def season_get(*, season_id: Any) -> Season:
    try:
        return Season.objects.select_related("club").get(pk=int(season_id))
    except (Season.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such season", extra={"reason": "season_not_found"}) from exc


def season_standings(*, season: Season) -> QuerySet[SeasonStanding]:
    return SeasonStanding.objects.filter(season=season).select_related("player")


def season_standing_list(*, season: Season, limit: int | None = None) -> list[SeasonStanding]:
    """The season's standings in their order (the first `limit`): a page's table."""
    standings = season_standings(season=season)
    return list(standings if limit is None else standings[:limit])


SEASON_TABLE_COLUMNS = ["rank", "player_id", "player", "points", "played", "counted",
                        "tournaments_won", "match_wins", "shared"]  # fmt: skip


def season_standings_table(*, season: Season) -> tuple[list[str], list[list[Any]]]:
    """The season's standings as a table for the spreadsheets (column codes, rows in rank
    order): `counted` is how many tournaments count, `shared` true for a shared rank."""
    rows = [
        [s.rank, s.player_id, s.player.name, s.points, s.played, len(s.counted),
         s.tournaments_won, s.match_wins, s.shared]
        for s in season_standings(season=season)
    ]  # fmt: skip
    return list(SEASON_TABLE_COLUMNS), rows


def clubs_managed_by(*, user: User, limit: int) -> list[Club]:
    """The clubs the user organises (staff: every club), by name, at most `limit`."""
    if user is None or not user.is_authenticated:
        return []
    clubs = club_list()
    if not (user.is_staff or user.is_superuser):
        clubs = clubs.filter(organisers=user)
    return list(clubs[:limit])


# --- players' pages --------------------------------------------------------------------------


def player_clubs(*, player: Player) -> list[int]:
    """The clubs the player belongs to: a member, or rated there."""
    rated = ClubRating.objects.filter(player=player).values_list("club_id", flat=True)
    return sorted(set(player.member_of.values_list("pk", flat=True)) | set(rated))


def player_page_visible(*, player: Player, user: User) -> bool:
    """A public page, or one the player keeps to their clubs: then their clubs' members and
    organisers, staff, and the player themselves."""
    if player.page_visibility != Player.PageVisibility.CLUB:
        return True
    if user is not None and user.is_authenticated and player.user_id == user.pk:
        return True
    return user_in_club(user=user, club_ids=player_clubs(player=player))


def season_tournament_names(*, season: Season, user: User) -> dict[int, str]:
    """The names of the season's tournaments the viewer may see, by id (a private one
    counts in the table, unnamed)."""
    ids = {c["tournament"] for s in SeasonStanding.objects.filter(season=season) for c in s.counted}
    visible = tournament_list_for(user=user).filter(pk__in=ids)
    return dict(visible.values_list("pk", "name"))
