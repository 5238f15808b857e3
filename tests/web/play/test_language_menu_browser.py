"""Issue 37, item 7: the players' pages had no language menu (a table's phone page had the
desk's, which stuck out of its card in German). The players' bar has one now: it opens
inside the screen in German and in Persian (right to left), closes on Escape or a click
outside, and it switches."""

import pytest

from tests.web.desk.helpers import shoot
from tests.web.play.browser import sign_in
from tests.web.play.helpers import PASSWORD, players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

INSIDE = """() => [...document.querySelectorAll('.bar .lang-switch button')].every(b => {
  const r = b.getBoundingClientRect(); const w = document.documentElement.clientWidth;
  return r.width > 0 && r.left >= 0 && r.right <= w; })"""


@pytest.mark.parametrize("locale", ["de-DE", "fa-IR"])
def test_the_players_language_menu_opens_inside_the_screen_and_switches(asgi, browser, locale):
    players("Ada", "Ben")
    page = browser.new_context(viewport={"width": 390, "height": 700}, locale=locale).new_page()
    sign_in(page, asgi, "ada", PASSWORD)
    assert page.evaluate("document.documentElement.lang") == locale[:2]
    assert page.locator(".bar .lang-switch button").first.is_visible() is False  # closed
    page.click(".bar .lang-menu summary")
    assert page.evaluate(INSIDE)
    shoot(page, f"language-menu-{locale[:2]}-390")
    # Escape closes it and gives the focus back to its button; so does a click outside.
    page.keyboard.press("Escape")
    assert page.locator(".bar .lang-switch button").first.is_visible() is False
    assert page.evaluate("document.activeElement.matches('.bar .lang-menu summary')")
    page.keyboard.press("Enter")  # the button opens it again
    assert page.locator(".bar .lang-switch button").first.is_visible()
    page.mouse.click(5, 650)
    assert page.locator(".bar .lang-switch button").first.is_visible() is False
    page.click(".bar .lang-menu summary")
    with page.expect_navigation():  # the switch posts and the page comes back in Romanian
        page.click(".bar .lang-switch button[value=ro]")
    page.wait_for_selector("html[lang=ro]", state="attached")
    assert "Seara mea" in page.inner_text(".bar")
