"""The human-facing pages: a public tournament, its standings and a match scoresheet, with
no card of a hand in play on any page."""

import re

import pytest

from demo.simulation import tournament_simulate
from games.models import Match
from tests.factories import MatchFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


@pytest.fixture
def tournament():
    return tournament_simulate(
        players=4,
        format="round_robin",
        rounds=None,
        ruleset={"game_target": 10, "games": 1},
        progress=False,
    )


def test_home_lists_public_tournaments_and_matches(client, tournament):
    page = client.get("/").content.decode()
    assert tournament.name in page
    a_match = Match.objects.filter(pk__in=_match_ids_of(tournament)).first()
    assert f"/matches/{a_match.pk}/" in page


def test_tournament_page_shows_standings_and_rounds(client, tournament):
    response = client.get(f"/tournaments/{tournament.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    leader = tournament.standings.order_by("rank").first()
    assert leader.player.name in page
    assert "Round 3" in page


def test_private_tournament_is_hidden_from_visitors(client, tournament):
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert client.get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert tournament.name not in client.get("/").content.decode()


def test_match_page_shows_the_scoresheet(client, tournament):
    match = Match.objects.filter(pk__in=_match_ids_of(tournament)).first()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Game 1" in page
    assert str(match.scoresheet["games"][0]["totals"][0]) in page


def test_a_match_in_play_shows_no_card_and_is_private(client):
    match = MatchFactory(seed="pages")
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    organiser = UserFactory(is_staff=True)
    client.force_login(organiser)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Scoresheet" in page
    assert not CARD.findall(page.split("<main>")[1])


def test_the_match_page_marks_deals_an_organiser_chose(client, tournament):
    from games.services import match_create

    client.force_login(UserFactory(is_staff=True))
    mark = "Deals chosen by the organiser — not a fair random deal"
    seeded = MatchFactory(seed="pages")
    decked = MatchFactory(decks=[_a_deck()])
    for match in (seeded, decked):
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert mark in page and 'id="preset-deals"' in page
    random = match_create(player1=seeded.player1, player2=seeded.player2)
    in_tournament = Match.objects.filter(pk__in=_match_ids_of(tournament)).first()
    for match in (random, in_tournament):
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert mark not in page and 'id="preset-deals"' not in page


def _a_deck() -> list[str]:
    return [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]


def _match_ids_of(tournament):
    """The ids of the tournament's matches (a query to filter matches by)."""
    from tournaments.models import Pairing

    return Pairing.objects.filter(round__tournament=tournament).values("match_id")
