"""Seeding by the club's ratings (Player.rating is gone): a rated player by their club
rating, a player new to the club at the club's initial rating (its settings), a
tournament without a club at the default 1500."""

from __future__ import annotations

from typing import Any

import pytest

from players.models import Player
from tests.tournaments.helpers import make_tournament
from tournaments import services
from tournaments.models import Registration
from tournaments.ratings.models import ClubRating
from tournaments.ratings.selectors import seeding_ratings
from tournaments.ratings.services import club_rating_settings_change_in_tx

pytestmark = pytest.mark.django_db


def test_the_club_rating_else_the_clubs_initial_rating(rated_club: dict[str, Any]) -> None:
    club = rated_club["club"]
    rated = {r.player_id: r.rating for r in ClubRating.objects.filter(club=club)}
    newcomer = Player.objects.create(name="Gus")
    ids = [*rated, newcomer.pk]
    assert seeding_ratings(club=club, player_ids=ids) == {**rated, newcomer.pk: 1500.0}
    club_rating_settings_change_in_tx(club=club, settings={"initial_rating": 1200}, by=None)
    after = seeding_ratings(club=club, player_ids=ids)
    assert after[newcomer.pk] == 1200.0
    # The re-rating from the first period starts everyone at 1200 too: every rating moved.
    assert after == {
        **{r.player_id: r.rating for r in ClubRating.objects.filter(club=club)},
        newcomer.pk: 1200.0,
    }
    assert all(after[p] != rated[p] for p in rated)


def test_no_club_seeds_everyone_at_1500() -> None:
    players = [Player.objects.create(name=n) for n in ("A", "B")]
    assert seeding_ratings(club=None, player_ids=[p.pk for p in players]) == {
        p.pk: 1500.0 for p in players
    }


def test_round_one_seeds_by_club_rating_with_newcomers_at_the_initial_rating(
    organiser: Any, rated_club: dict[str, Any], jobs: Any
) -> None:
    club = rated_club["club"]
    club_rating_settings_change_in_tx(club=club, settings={"initial_rating": 1510}, by=None)
    best_first = [r.player for r in ClubRating.objects.filter(club=club).order_by("-rating")]
    newcomer = Player.objects.create(name="Gus")
    # Entered in the reverse order: the seeds follow the ratings, not the order of entry.
    field = [newcomer, *reversed(best_first)]
    tournament = make_tournament(organiser, field, club=club)
    with jobs():
        services.tournament_start(tournament_id=tournament.pk, by=organiser)
    seeds = dict(
        Registration.objects.filter(tournament=tournament).values_list("player_id", "seed")
    )
    ratings = seeding_ratings(club=club, player_ids=[p.pk for p in field])
    expected = sorted(field, key=lambda p: -ratings[p.pk])
    assert [seeds[p.pk] for p in expected] == list(range(1, len(field) + 1))
    assert ratings[newcomer.pk] == 1510.0


def test_a_player_in_the_api_has_no_rating_of_their_own(alice_client, alice) -> None:
    body = alice_client.get(f"/api/players/{alice.pk}/").json()
    assert body["id"] == alice.pk and "rating" not in body
    schema = alice_client.get("/api/schema/?format=json").json()
    assert "rating" not in schema["components"]["schemas"]["PlayerOutput"]["properties"]
