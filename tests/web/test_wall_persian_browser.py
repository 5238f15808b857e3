"""Issue 37, item 7 (and 6): the wall screen at 1920x1080 in Persian wrapped the pairs of
names in the tables column, split the "ز-ب" heading over two lines, showed the hash
anchors above the fold (they belong below it, for whoever scrolls) and the zone's offset
in Latin digits ("+03:30")."""

from __future__ import annotations

import re

import pytest

from players.services import player_create
from tests.web.desk.helpers import organiser, shoot
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("ژاله رضایی", "مهدی کریمی", "سارا احمدی", "علیرضا حسینی", "نرگس محمدی",
         "کامران موسوی", "فاطمه جعفری", "بهرام صادقی", "لیلا قاسمی", "امیرحسین نوروزی")  # fmt: skip

ONE_LINE = """sel => [...document.querySelectorAll(sel)].filter(e => {
  const r = e.getClientRects(); const lines = new Set([...r].map(x => Math.round(x.top)));
  return lines.size > 1; }).map(e => e.textContent.trim())"""


def test_the_persian_wall_keeps_names_and_headings_on_one_line(live_server, browser):
    td = organiser("td")
    t = services.tournament_create(
        name="شب جین تهران", format="swiss", created_by=td, rounds=4, play_mode="table",
        time_zone="Asia/Tehran", language="fa",
    )  # fmt: skip
    for name in NAMES:
        p = player_create(name=name)
        services.tournament_register(tournament_id=t.pk, player=p, by=td)
        services.tournament_check_in(tournament_id=t.pk, player=p, by=td)
    services.tournament_start(tournament_id=t.pk, by=td)
    page = browser.new_page(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/wall/")
    page.wait_for_selector(".wall.in-play")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate(ONE_LINE, ".wall-round td:nth-child(2) a") == []
    assert page.evaluate(ONE_LINE, ".standings th .long.nobreak") == []
    headings = page.evaluate(
        "[...document.querySelectorAll('.standings th')].map(e => e.innerText)"
    )
    assert "ز-ب" in headings, headings
    top = page.evaluate("document.getElementById('anchors').getBoundingClientRect().top")
    assert top >= 1080, top  # below the fold
    line = page.inner_text("#when-played")
    assert "تهران" in line and not re.search(r"[0-9]", line), line
    shoot(page, "wall-fa-1920", full_page=False)
