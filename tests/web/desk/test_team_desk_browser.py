"""The team desk and the team wall in a real browser (issue 39): a lineup set with the
keyboard only (number fields, Tab, Enter: no script needed), in Persian, right to left,
at 1280 px; the wall screen at 1920x1080 with the round in play beside the team standings
and the board results. Screenshots: tests/artifacts/screenshots/team-*.png."""

from __future__ import annotations

import pytest

from tests.fixtures.desk import sign_in
from tests.web.desk.helpers import (
    SCREENSHOTS,
    no_sideways_scroll,
    organiser,
    shoot,
    team_tournament_in_play,
)
from tournaments.teams.models import Team, TeamBoard
from tournaments.teams.selectors import team_event_lineups

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_lineup_set_by_keyboard_on_the_persian_team_desk(live_server, browser):
    td = organiser("td")
    event = team_tournament_in_play(td)
    base = live_server.url
    # Without the script (lineup.js makes the rows draggable): the number fields alone.
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, java_script_enabled=False
    )
    host = base.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "hg_language", "value": "fa", "domain": host, "path": "/"}])
    page = context.new_page()
    sign_in(page, base)
    page.goto(f"{base}/desk/team-events/{event.pk}/")
    assert page.get_attribute("html", "dir") == "rtl"
    lions = Team.objects.get(event=event, number=1)
    first, second, third = lions.roster
    # Board 1 for the third player, board 2 for the first, the second left out: keys only.
    page.focus(f"#board-1-{first}")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/desk/team-events/{event.pk}/")
    page.wait_for_selector(f"#board-1-{third}[value='1']")
    (lineup,) = [row for row in team_event_lineups(event=event) if row["team"] == 1]
    assert lineup["players"] == [third, first] and lineup["set"] is True
    assert "ذخیرهٔ ترکیب" in page.content()  # the page's words in Persian
    assert "۱" in page.locator("table.team-standings").inner_text()  # Persian digits
    assert no_sideways_scroll(page)
    shoot(page, "team-desk-fa-1280")
    context.close()


def test_a_lineup_by_drag_and_by_keys_on_the_team_desk(live_server, browser):
    """With the script: the rows are the order, dragged by their grips or moved with Alt and
    the arrow keys; the lineup saved is the order on the screen."""
    td = organiser("td")
    event = team_tournament_in_play(td)
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(page, base)
    page.goto(f"{base}/desk/team-events/{event.pk}/")
    owls = page.locator("[data-lineup][data-team='2']")
    owls.locator(".lineup-grip").first.wait_for()  # the script took the form over
    first, second, third = Team.objects.get(event=event, number=2).roster
    grip = owls.locator(f"[data-player='{third}'] [data-grip]").bounding_box()
    top = owls.locator(f"[data-player='{first}']").bounding_box()
    page.mouse.move(grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2)
    page.mouse.down()
    page.mouse.move(top["x"] + top["width"] / 2, top["y"] + 4, steps=12)
    page.mouse.up()
    order = "els => els.map(e => Number(e.dataset.player))"
    assert owls.locator("[data-player]").evaluate_all(order) == [third, first, second]
    page.focus(f"[data-player='{second}'] [data-move=up]")
    page.keyboard.press("Alt+ArrowUp")
    assert owls.locator("[data-player]").evaluate_all(order) == [third, second, first]
    assert "board 2 of 2" in owls.locator("xpath=..").locator("[data-lineup-note]").inner_text()
    assert no_sideways_scroll(page)
    shoot(page, "team-desk-en-1280-moved")
    owls.locator("xpath=..").locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/desk/team-events/{event.pk}/")
    page.wait_for_selector(f"#board-2-{third}[value='1']", state="attached")
    (lineup,) = [row for row in team_event_lineups(event=event) if row["team"] == 2]
    assert lineup["players"] == [third, second] and lineup["set"] is True
    page.context.close()


def test_the_team_wall_shows_the_round_in_play_beside_the_standings(live_server, browser):
    td = organiser("td")
    event = team_tournament_in_play(td)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/team-events/{event.pk}/wall/?lang=fa")
    assert page.get_attribute("html", "dir") == "rtl"
    wall = page.locator(".wall.in-play")
    round_box = wall.locator(".wall-round").bounding_box()
    standings_box = wall.locator(".wall-standings").bounding_box()
    # Side by side (right to left: the round on the right), not one under the other.
    assert abs(round_box["y"] - standings_box["y"]) < 40
    assert round_box["x"] > standings_box["x"]
    played = TeamBoard.objects.filter(event=event, round=1).exclude(result="").count()
    assert played == 4 and page.locator("table.team-match").count() >= 4
    assert page.locator("table.team-standings tr").count() == 5
    assert no_sideways_scroll(page)
    shoot(page, "team-wall-fa-1920", full_page=False)
    context.close()


def test_the_team_standings_print_on_a4_with_the_board_results(live_server, browser):
    td = organiser("td")
    event = team_tournament_in_play(td)
    context = browser.new_context(viewport={"width": 718, "height": 1040})
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(f"{live_server.url}/team-events/{event.pk}/")
    assert not page.locator("#live").is_visible()  # the live badge is not printed
    assert not page.locator("body > header").is_visible()  # nor the site's header
    assert page.locator("table.team-standings tr").count() == 5
    finished = TeamBoard.objects.filter(event=event).exclude(result="")
    text = page.locator("#team-live").inner_text()
    for board in finished:
        assert str(board.points1) in text and str(board.points2) in text
    assert no_sideways_scroll(page)
    shoot(page, "team-print-a4")
    page.pdf(path=str(SCREENSHOTS / "team-print-a4.pdf"), format="A4")
    context.close()
