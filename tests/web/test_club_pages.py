"""The club page and the player's page, played evenings behind them (hands recorded at
tables): what they show, to whom, and the screenshots at 390 and 1280 px."""

from __future__ import annotations

import datetime as dt
import os
import random
import re

import pytest
from django.contrib.auth import get_user_model

from demo.club_evenings import club_evening_play
from players.models import Club, Player
from players.services import player_create
from tournaments.ratings.services import season_create

pytestmark = pytest.mark.django_db(transaction=True)  # the result and ratings jobs: on commit


@pytest.fixture
def evenings():
    organiser = get_user_model().objects.create_user(username="td", password="pw-td-12345")
    club = Club.objects.create(name="Tuesday Gin Club", slug="tuesday", time_zone="Europe/Vilnius")
    club.organisers.add(organiser)
    players = [player_create(name="Ann Ionescu", username="ann", password="secret-pass-1")]
    players += [Player.objects.create(name=n) for n in ("Ben Müller", "Cat Žukauskaitė", "Dan")]
    club.members.add(*players)
    rng = random.Random(7)
    skill = {players[0].pk: 0.2, players[1].pk: 0.1}
    tournaments = [
        club_evening_play(
            club=club,
            organiser=organiser,
            players=players,
            rounds=2,
            rng=rng,
            name=f"Evening {n}",
            skill=skill,
            is_public=n != 2,
        )  # fmt: skip
        for n in (1, 2, 3)
    ]
    today = dt.date.today()
    season_create(
        club_id=club.pk, by=organiser, name="Winter", starts_on=today - dt.timedelta(days=3),
        ends_on=today + dt.timedelta(days=3), place_points=[10, 6, 3, 1], best_of=2,
    )  # fmt: skip
    return {"club": club, "organiser": organiser, "players": players, "tournaments": tournaments}


def test_the_club_page_and_the_players_page(client, evenings):
    club, ann = evenings["club"], evenings["players"][0]
    assert all(t.status == "finished" for t in evenings["tournaments"])
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Rating list" in page and "Ann Ionescu" in page and "Winter" in page
    assert page.count("rating-list") == 1 and page.count('href="/players/') >= 4
    assert "Evening 1" in page and "Evening 2" not in page  # a private one: not to strangers
    assert client.get("/clubs/nowhere/").status_code == 404
    season = re.search(r'href="(/clubs/tuesday/seasons/\d+/)"', page).group(1)
    table = client.get(season).content.decode()
    assert "Winter" in table and "season-table" in table and "Evening 1" in table
    assert "Evening 2" not in table  # counted, but a private tournament: not named
    mine = client.get(f"/players/{ann.pk}/").content.decode()
    assert '<svg class="rating-chart"' in mine and "Tuesday Gin Club" in mine
    assert "Head to head" in mine and "Average deadwood when knocking" in mine
    assert "/replay/" in mine
    assert len(re.findall(r"<polyline points=\"([^\"]+)\"", mine)[0].split()) == 4  # 1 + 3


def test_private_matches_only_to_who_may_see_them(client, evenings):
    ann, organiser = evenings["players"][0], evenings["organiser"]
    public_view = client.get(f"/players/{ann.pk}/").content.decode()
    client.force_login(organiser)
    organiser_view = client.get(f"/players/{ann.pk}/").content.decode()
    assert "Evening 2" not in public_view and "Evening 2" in organiser_view
    # The private evening still counts: the chart has all three periods for both.
    for html in (public_view, organiser_view):
        assert len(re.findall(r"<polyline points=\"([^\"]+)\"", html)[0].split()) == 4


def test_a_player_keeps_the_page_to_the_club(client, evenings):
    ann = evenings["players"][0]
    client.login(username="ann", password="secret-pass-1")
    response = client.post(f"/players/{ann.pk}/visibility/", {"visibility": "club"})
    assert response.status_code == 302
    assert client.get(f"/players/{ann.pk}/").status_code == 200  # her own page
    client.logout()
    assert client.get(f"/players/{ann.pk}/").status_code == 404
    player_create(name="Zed", username="zed", password="secret-pass-1")
    client.login(username="zed", password="secret-pass-1")
    assert client.get(f"/players/{ann.pk}/").status_code == 404
    assert (
        client.post(f"/players/{ann.pk}/visibility/", {"visibility": "public"}).status_code == 404
    )
    client.force_login(evenings["organiser"])
    assert client.get(f"/players/{ann.pk}/").status_code == 200


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"), reason="no Chromium")
def test_screenshots_at_390_and_1280(browser, live_server, evenings):
    from tests.web.desk.helpers import no_sideways_scroll, shoot

    club, ann = evenings["club"], evenings["players"][0]
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        season = club.seasons.get()
        for name, path in (
            ("club", f"/clubs/{club.slug}/"),
            ("player", f"/players/{ann.pk}/"),
            ("season", f"/clubs/{club.slug}/seasons/{season.pk}/"),
        ):
            page.goto(f"{live_server.url}{path}")
            page.wait_for_selector("h1")
            assert no_sideways_scroll(page), (name, width)
            shoot(page, f"ratings-{name}-{width}")
        context.close()
