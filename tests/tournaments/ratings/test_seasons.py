"""Season standings as a projection: they follow a correction in one of the season's
tournaments, and the club's days decide which tournaments a season holds."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from demo.club_history import club_evening_generate, club_history_correct
from players.models import Player
from tests.helpers import token_client
from tournaments.ratings.models import ClubPeriod, SeasonStanding
from tournaments.ratings.rebuild import ratings_rebuild
from tournaments.ratings.services import club_ratings_apply_in_tx, season_create

pytestmark = pytest.mark.django_db


def _table(season):
    return list(
        SeasonStanding.objects.filter(season=season)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points", "shared", "counted")
    )


def test_season_standings_follow_a_correction(organiser, club):
    rng = random.Random(2)
    ann, ben = Player.objects.create(name="Ann"), Player.objects.create(name="Ben")
    evenings = []
    for _ in range(3):
        evening = club_evening_generate(club=club, players=[ann, ben], rounds=1, rng=rng)
        club_ratings_apply_in_tx(tournament_id=evening[0].pk)
        evenings.append(evening)
    today = dt.date.today()
    season = season_create(
        club_id=club.pk, by=organiser, name="All", starts_on=today - dt.timedelta(days=1),
        ends_on=today + dt.timedelta(days=1), place_points=[3, 1], best_of=2,
    )  # fmt: skip
    before = _table(season)
    assert [row[2] for row in before] and sum(1 for _ in before) == 2
    # Correct every evening Ann won so that Ben won it: Ben wins all three.
    for tournament, matches in evenings:
        if matches[0].winner == ann.pk:
            club_history_correct(tournament=tournament, match=matches[0])
            club_ratings_apply_in_tx(tournament_id=tournament.pk)
    after = _table(season)
    assert after[0][0] == ben.pk and after[0][2] == 6 and after[1][2] == 2
    ratings_rebuild(club_ids=[club.pk])
    assert _table(season) == after


def test_a_season_holds_the_tournaments_finished_on_its_days_in_the_clubs_zone(organiser, club):
    club.time_zone = "Pacific/Kiritimati"  # UTC+14: the club's day is often the next UTC day
    club.save(update_fields=["time_zone"])
    rng = random.Random(4)
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben")]
    tournament, _ = club_evening_generate(club=club, players=players, rounds=1, rng=rng)
    club_ratings_apply_in_tx(tournament_id=tournament.pk)
    finished = ClubPeriod.objects.get(tournament=tournament).finished_at
    local_day = finished.astimezone(dt.timezone(dt.timedelta(hours=14))).date()
    org = token_client(organiser)
    for day, count in ((local_day, 2), (local_day - dt.timedelta(days=1), 0)):
        body = {"name": f"Day {day}", "starts_on": str(day), "ends_on": str(day),
                "place_points": [2, 1]}  # fmt: skip
        created = org.post(f"/api/clubs/{club.pk}/seasons/", body, format="json").json()
        assert SeasonStanding.objects.filter(season_id=created["id"]).count() == count
