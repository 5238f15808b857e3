"""Ratings API fixtures: a club with a few finished evenings written as events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from demo.club_history import club_evening_generate
from players.models import Club, Player
from tournaments.ratings.services import club_ratings_apply_in_tx


@pytest.fixture
def rated_club(club: Club) -> dict[str, Any]:
    """Three evenings of six players in the organiser's club, rated."""
    rng = random.Random(11)
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")]
    club.members.add(*players[:4])
    evenings = []
    for _ in range(3):
        tournament, matches = club_evening_generate(club=club, players=players, rounds=3, rng=rng)
        club_ratings_apply_in_tx(tournament_id=tournament.pk)
        evenings.append((tournament, matches))
    return {"club": club, "players": players, "evenings": evenings}
