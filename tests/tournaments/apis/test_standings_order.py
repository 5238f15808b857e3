"""Standings state the tiebreak order they are ranked by."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import make_bots, make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_standings_say_their_tiebreak_order(api_client, organiser):
    tournament = make_tournament(organiser, make_bots(2), rounds=1)
    url = f"/api/tournaments/{tournament.pk}/standings/"
    default = api_client.get(url).json()
    assert default["tiebreaks"] == [
        "match_wins", "games_won", "points_diff", "buchholz", "sonneborn_berger",
    ]  # fmt: skip
    services.tournament_settings_change(
        tournament_id=tournament.pk,
        by=organiser,
        changes={"tiebreaks": ["match_wins", "head_to_head", "median_buchholz"]},
    )
    assert api_client.get(url).json()["tiebreaks"] == [
        "match_wins",
        "head_to_head",
        "median_buchholz",
    ]
