"""Names that are probably one person's (the desk offers them first): folded for case,
diacritics, script and order; the club's players only, most alike first."""

from __future__ import annotations

import pytest

from players.models import Club, Player
from tournaments.ratings.models import ClubRating
from tournaments.ratings.selectors.names import (
    club_players,
    club_players_like,
    name_key,
    name_similarity,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Stefan", "Ștefan"),
        ("stefan popescu", "Ștefan  Popescu"),
        ("LUKASZ", "Łukasz"),
        ("Muller", "Müller"),
        ("Zukauskaite", "Žukauskaitė"),
    ],
)
def test_the_same_name_but_for_case_and_diacritics(typed, stored):
    assert name_key(typed) == name_key(stored)
    assert name_similarity(name_key(typed), name_key(stored)) == 1.0


def test_order_a_part_and_a_typo_are_alike_and_others_are_not():
    def like(a: str, b: str) -> float:
        return name_similarity(name_key(a), name_key(b))

    assert like("Popescu Stefan", "Ștefan Popescu") == 0.95
    assert like("Ann", "Ann Ionescu") == 0.85
    assert like("Stefan Popscu", "Ștefan Popescu") == 0.9  # a typo: below the same name
    assert like("Stefan", "Stella") < 0.8
    assert like("Ben Müller", "Dan Miller") < 0.8
    assert like("", "Ann") == 0.0


def test_the_clubs_players_most_alike_first_best_rated_first():
    club = Club.objects.create(name="Gin Club", slug="gin")
    other = Club.objects.create(name="Other", slug="other")
    plain = Player.objects.create(name="Ștefan Popescu")
    rated = Player.objects.create(name="STEFAN POPESCU")
    swapped = Player.objects.create(name="Popescu Ștefan")
    typo = Player.objects.create(name="Stefan Popscu")
    elsewhere = Player.objects.create(name="Stefan Popescu")  # another club's
    bot = Player.objects.create(name="Stefan Popescu", is_bot=True)
    Player.objects.create(name="Ana Pop")
    club.members.add(plain, swapped, typo, bot)
    other.members.add(elsewhere)
    ClubRating.objects.create(club=club, player=rated, rating=1620, rd=80, volatility=0.06)
    assert set(club_players(club=club)) == {plain, rated, swapped, typo}
    like = club_players_like(club=club, name="stefan popescu")
    assert [s.player for s in like] == [rated, plain, swapped, typo]
    assert [s.rating for s in like] == [1620, None, None, None]
    assert [s.same for s in like] == [True, True, True, False]
    assert club_players_like(club=club, name="Dan") == []
    assert club_players_like(club=None, name="Stefan Popescu") == []
    assert len(club_players_like(club=club, name="Stefan Popescu", limit=2)) == 2
