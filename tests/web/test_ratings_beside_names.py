"""Club ratings beside the names on a tournament's pages: the desk's roster and round,
the printed pairings and standings, the public page. On a finished tournament, as they
stood before it; on one still to come, as they stand."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model

from demo.club_evenings import club_evening_play
from players.models import Club, Player
from tournaments import services
from tournaments.ratings.models import ClubRating, RatingEntry
from tournaments.ratings.selectors import tournament_ratings_shown

pytestmark = pytest.mark.django_db(transaction=True)  # the result and ratings jobs: on commit


@pytest.fixture
def club_nights():
    organiser = get_user_model().objects.create_user(username="td", password="pw-td-12345")
    club = Club.objects.create(name="Gin Club", slug="gin-club")
    club.organisers.add(organiser)
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cat", "Dan")]
    rng = random.Random(3)
    nights = [
        club_evening_play(
            club=club,
            organiser=organiser,
            players=players,
            rounds=2,
            rng=rng,
            name=f"Night {n}",
            skill={players[0].pk: 0.3},
        )  # fmt: skip
        for n in (1, 2)
    ]
    coming = services.tournament_create(
        name="Night 3", format="swiss", rounds=2, created_by=organiser, club=club
    )
    newcomer = Player.objects.create(name="Eve")
    for player in [*players, newcomer]:
        services.tournament_register(tournament_id=coming.pk, player=player, by=organiser)
    return {"club": club, "organiser": organiser, "players": players, "nights": nights,
            "coming": coming, "newcomer": newcomer}  # fmt: skip


def _shown(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="rating"[^>]*>(\d+)\??</span>', html)]


def test_ratings_before_a_finished_tournament_and_as_they_stand_before_one_to_come(
    client, club_nights
):
    club, second, coming = club_nights["club"], club_nights["nights"][1], club_nights["coming"]
    before = dict(
        RatingEntry.objects.filter(tournament=second).values_list("player_id", "rating_before")
    )
    after = dict(RatingEntry.objects.filter(tournament=second).values_list("player_id", "rating"))
    now = dict(ClubRating.objects.filter(club=club).values_list("player_id", "rating"))
    assert len(before) == 4 and before != after
    shown = tournament_ratings_shown(tournament=second)
    assert {p: s.rating for p, s in shown.items()} == before and all(
        s.before for s in shown.values()
    )
    upcoming = tournament_ratings_shown(tournament=coming)
    assert {p: s.rating for p, s in upcoming.items()} == now  # the newcomer: none yet
    assert club_nights["newcomer"].pk not in upcoming
    assert not any(s.before for s in upcoming.values())

    # The public page of the finished night: its standings and its pairings.
    page = client.get(f"/tournaments/{second.pk}/").content.decode()
    standings, _, pairings = page.partition("<h2>Round 1")
    assert sorted(_shown(standings)) == sorted(round(r) for r in before.values())
    assert sorted(_shown(pairings)) == sorted([round(r) for r in before.values()] * 2)
    assert "club rating before this tournament" in page

    client.force_login(club_nights["organiser"])
    roster = client.get(f"/desk/{coming.pk}/").content.decode()
    assert sorted(_shown(roster)) == sorted(round(r) for r in now.values())
    assert re.search(r"<bdi>Eve</bdi>(?!\s*<span class=\"rating\")", roster)
    for path in (
        f"/desk/{second.pk}/rounds/1/",
        f"/desk/{second.pk}/rounds/1/pairings/print/",
        f"/desk/{second.pk}/standings/print/",
    ):
        html = client.get(path).content.decode()
        assert set(_shown(html)) == {round(r) for r in before.values()}, path


def test_no_club_no_ratings(client, club_nights):
    organiser = club_nights["organiser"]
    loose = services.tournament_create(name="Loose", format="swiss", rounds=1, created_by=organiser)
    services.tournament_register(
        tournament_id=loose.pk, player=club_nights["players"][0], by=organiser
    )
    assert tournament_ratings_shown(tournament=loose) == {}
    client.force_login(organiser)
    assert _shown(client.get(f"/desk/{loose.pk}/").content.decode()) == []
