"""The pages issue 22's last part changed, in headless Chromium at 390 and 1280 px: ratings
beside the names (the desk's roster and round, the printed pairings and standings, the
public page), the walk-in's suggestions of the club's players as the name is typed, and
the desk's seasons. Screenshots: tests/artifacts/screenshots/ratings-*.png."""

from __future__ import annotations

import datetime as dt
import os
import random

import pytest

from demo.club_evenings import club_evening_play
from players.models import Club, Player
from tests.fixtures.desk import sign_in
from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot
from tournaments import services
from tournaments.models import Registration
from tournaments.ratings.services import season_create

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="no Chromium"),
]


@pytest.fixture
def club_nights():
    td = organiser("td")
    club = Club.objects.create(
        name="Tuesday Gin Club", slug="tuesday", time_zone="Europe/Bucharest"
    )
    club.organisers.add(td)
    names = ("Ann Ionescu", "Ștefan Popescu", "Ben Müller", "Cat Žukauskaitė")
    players = [Player.objects.create(name=n) for n in names]
    club.members.add(*players)
    rng = random.Random(4)
    nights = [
        club_evening_play(
            club=club,
            organiser=td,
            players=players,
            rounds=2,
            rng=rng,
            name=f"Night {n}",
            skill={players[0].pk: 0.3},
        )  # fmt: skip
        for n in (1, 2)
    ]
    coming = services.tournament_create(
        name="Night 3", format="swiss", rounds=2, created_by=td, club=club, play_mode="table"
    )
    for player in (players[0], players[2], players[3]):
        services.tournament_register(tournament_id=coming.pk, player=player, by=td)
    today = dt.date.today()
    season = season_create(
        club_id=club.pk, by=td, name="Winter", starts_on=today - dt.timedelta(days=7),
        ends_on=today + dt.timedelta(days=60), place_points=[10, 6, 3, 1],
        participation_points=1, best_of=2,
    )  # fmt: skip
    return {"club": club, "nights": nights, "coming": coming, "season": season,
            "stefan": players[1]}  # fmt: skip


def test_ratings_suggestions_and_seasons_at_390_and_1280(live_server, browser, club_nights):
    base = live_server.url
    club, night, coming = club_nights["club"], club_nights["nights"][1], club_nights["coming"]
    season = club_nights["season"]
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        sign_in(page, base)

        # The walk-in: typing a name like a club player's offers them, with their rating.
        page.goto(f"{base}/desk/{coming.pk}/")
        page.wait_for_selector("#id_name")
        # The roster: each one rated (at 1280, Ștefan too: entered at 390 below).
        assert page.locator("table .rating").count() == (3 if width == 390 else 4)
        page.fill("#id_name", "stefan popescu")
        offer = page.locator("#walk-in-similar button[name=player]")
        offer.first.wait_for()
        assert "Ștefan Popescu" in offer.first.inner_text()
        assert offer.first.locator(".rating").count() == 1
        assert no_sideways_scroll(page), width
        shoot(page, f"ratings-desk-walk-in-similar-{width}")
        if width == 390:  # one tap enters him: no second Ștefan is made
            offer.first.click()
            page.wait_for_url(f"{base}/desk/{coming.pk}/")
            assert Registration.objects.filter(
                tournament=coming, player=club_nights["stefan"]
            ).exists()
            assert Player.objects.filter(name__icontains="popescu").count() == 1

        for name, path in (
            ("desk-round", f"/desk/{night.pk}/rounds/1/"),
            ("print-pairings", f"/desk/{night.pk}/rounds/1/pairings/print/"),
            ("print-standings", f"/desk/{night.pk}/standings/print/"),
            ("public-tournament", f"/tournaments/{night.pk}/"),
            ("desk-seasons", f"/desk/clubs/{club.pk}/seasons/"),
            ("desk-season", f"/desk/clubs/{club.pk}/seasons/{season.pk}/"),
        ):
            page.goto(f"{base}{path}")
            page.wait_for_selector("h1")
            if name not in ("desk-seasons", "desk-season"):
                assert page.locator(".rating").count() >= 4, (name, width)
            assert no_sideways_scroll(page), (name, width)
            shoot(page, f"ratings-{name}-{width}")
        context.close()
