"""The member-list import on the desk and the player page with both lists, in Persian (right
to left, Persian digits), in a browser: screenshots for a person to look at."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from demo.club_history import club_evening_generate
from players.models import Club
from players.services import player_create
from tests.fixtures.desk import sign_in
from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot
from tournaments.federation.models import Member
from tournaments.federation.services import federation_get_or_create
from tournaments.ratings.services import club_ratings_sync

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/work/shots/fed")


def _keep(path: Path) -> None:
    if SHOTS.parent.exists():
        SHOTS.mkdir(exist_ok=True)
        shutil.copy(path, SHOTS / path.name)


def test_the_persian_member_report_and_player_page(live_server, browser, tmp_path):
    td = organiser("td")
    north = Club.objects.create(name="North", slug="north")
    Club.objects.create(name="South", slug="south")
    north.organisers.add(td)
    federation = federation_get_or_create(name="فدراسیون جین", club_slugs=["north", "south"])
    names = ["Ana Pop", "Ion Rus", "Ion Rus", "مریم احمدی", "Dan Mare", "Eva Lungu"]
    players = [player_create(name=n) for n in names] + [player_create(name=f"X{i}")
                                                        for i in range(2)]  # fmt: skip
    for p in players:
        north.members.add(p)
    rng = random.Random(5)
    for n in range(3):
        tournament, _ = club_evening_generate(club=north, players=players, rounds=3, rng=rng,
                                              name=f"Evening {n}")  # fmt: skip
        club_ratings_sync(tournament_id=tournament.pk)
    members = tmp_path / "members.csv"
    members.write_text(
        "federation_id,name,club\nIR-1001,مریم احمدی,North\nRO-2,Ion Rus,North\n"
        "RO-3,Ana Popp,North\nRO-4,Dan Nou,North\nRO-5,Eva Alta,Elsewhere\nRO-6,DAN MARE,North\n",
        encoding="utf-8",
    )
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    url = f"/desk/federations/{federation.pk}/members/"
    sign_in(page, live_server.url, then=url)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "hg_language", "value": "fa", "domain": host, "path": "/"}])
    page.goto(live_server.url + url)
    assert page.get_attribute("html", "dir") == "rtl"
    page.set_input_files("input[type=file]", str(members))
    page.click("form[enctype] button[type=submit]")
    page.wait_for_selector("#member-report")
    report = page.locator("#member-report").inner_text()
    assert "۲ جور شد، ۱ تازه، ۳ ناسازگار" in report
    assert "چند بازیکن با این نام" in report  # Ion Rus: two of them
    assert no_sideways_scroll(page)
    _keep(shoot(page, "federation-members-fa"))
    maryam = Member.objects.get(number="IR-1001").player
    assert maryam is not None and maryam.name == "مریم احمدی"
    page.goto(f"{live_server.url}/players/{maryam.pk}/")
    page.wait_for_selector(".federation-rating")
    assert page.locator(".club-rating").count() == 1
    text = page.locator(".federation-rating").inner_text()
    assert "فهرست فدراسیون" in text and "رتبهٔ" in text
    assert "IR-1001" in page.locator(".federation-ids").inner_text()
    page.locator(".federation-rating details summary").click()
    _keep(shoot(page, "player-both-lists-fa"))
    context.close()
