"""Issue 37, item 8: tied standings. Players equal on every tiebreak share a place ("=2",
standard competition ranking 1, 2, 2, 4) on the pages, the prints, the API and its CSV, and
a page lists them by name in the reader's language (before, ranks were never shared and ties
fell back to the player id: ژاله after مهدی). `rank` stays the total order the pairing
uses."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from players.models import Player
from tests.tournaments.helpers import forfeit_round, make_tournament
from tournaments import selectors, services
from tournaments.pairing.standings import Result, standings
from web.localize import collation_key

pytestmark = pytest.mark.django_db


def test_players_equal_on_every_tiebreak_share_a_place() -> None:
    lines = standings(
        players=[1, 2, 3, 4, 5],
        results=[
            Result(round=1, player1=1, player2=2, winner=1, games1=2, games2=0),
            Result(round=1, player1=3, player2=4, winner=3, games1=2, games2=0),
            Result(round=1, player1=5, player2=None, winner=5, games1=1),
        ],
        tiebreaks=["match_wins", "games_won"],
    )
    assert [(line.player, line.rank, line.place) for line in lines] == [
        (1, 1, 1), (3, 2, 1), (5, 3, 3), (2, 4, 4), (4, 5, 4),
    ]  # fmt: skip


@pytest.fixture
def tied(organiser, jobs):
    """A public tournament of four, round 1 played by forfeits: the two winners are equal on
    every tiebreak, and so are the two losers. The lower ids are مهدی and Zoe."""
    names = ["مهدی", "Zoe", "ژاله", "Anna"]
    players = [Player.objects.create(name=name, is_bot=True) for name in names]
    t = make_tournament(
        organiser, players, rounds=2, is_public=True,
        tiebreaks=["match_wins", "games_won", "points_diff"],
    )  # fmt: skip
    with jobs():
        services.tournament_round_pair(tournament_id=t.pk, round_number=1, by=organiser)
    with jobs():
        forfeit_round(t, organiser)
    return t


def test_the_api_and_its_csv_give_the_shared_places(tied) -> None:
    rows = APIClient().get(f"/api/tournaments/{tied.pk}/standings/").json()["results"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [r["place"] for r in rows] == [1, 1, 3, 3]
    assert all(r["shared"] for r in rows)
    text = APIClient().get(f"/api/tournaments/{tied.pk}/standings.csv").content.decode()
    table = list(csv.reader(io.StringIO(text)))
    at = table[0].index("place")  # then federation_id, the last column (issue 39)
    assert table[0][-2:] == ["place", "federation_id"]
    assert [r[at] for r in table[1:]] == ["1", "1", "3", "3"]


def test_the_page_shows_shared_places_with_ties_by_name_in_the_readers_language(
    client, tied
) -> None:
    assert sorted(["مهدی", "ژاله"], key=collation_key("fa")) == ["ژاله", "مهدی"]
    page = client.get(f"/tournaments/{tied.pk}/?lang=fa").content.decode()
    assert page.count(">=۱<") == 2 and page.count(">=۳<") == 2, page
    table = page[page.index("<table") :]
    for place in (1, 3):
        names = [
            s.player.name for s in selectors.tournament_standings(tournament=tied)
            if s.place == place  # type: ignore[attr-defined]
        ]  # fmt: skip
        assert len(names) == 2
        shown = sorted(names, key=table.index)
        assert shown == sorted(names, key=collation_key("fa")), shown
