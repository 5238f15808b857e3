"""A walk-in signs in on a phone with the desk's one-time code, in a real browser (Debian's
headless chromium): the organiser gives the code from the roster, the player types it on the
login page the table slip's QR code opens, and lands on the table's entry page. Screenshots
to tests/artifacts/screenshots/. Run alone: pytest -m browser."""

import re

import pytest

from tests.web.desk.helpers import organiser, shoot, started
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_walk_in_signs_in_on_a_phone_with_a_code(live_server, browser):
    td = organiser()
    tournament = started(td, players=2)  # players entered by name: no login, no password
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=1)
    player = pairing.player1
    base = live_server.url

    desk = browser.new_page()
    desk.goto(f"{base}/desk/{tournament.pk}/")
    desk.fill("#id_username", "td")
    desk.fill("#id_password", "pw-desk-123")
    desk.click("button[type=submit]")
    desk.wait_for_url(f"{base}/desk/{tournament.pk}/")
    row = desk.locator("tr", has_text=player.name)
    row.locator("button", has_text="Login code").click()
    desk.wait_for_selector("#login-code")
    code = desk.inner_text("#login-code").strip()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code), code
    shoot(desk, "login-code-card")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    table = f"{base}/tables/{pairing.match_id}/"
    page.goto(table)
    assert "/desk/login/" in page.url
    page.fill("#id_code", "WRNG-C0DE")  # not a code: refused, nothing opened
    page.click("#code-login button[type=submit]")
    page.wait_for_selector("#code-login .errorlist")
    assert "/desk/login/" in page.url
    page.fill("#id_code", code.lower().replace("-", " "))  # as typed on a phone
    page.click("#code-login button[type=submit]")
    page.wait_for_selector("#go-on")
    shoot(page, "login-code-signed-in-390")
    page.click("#go-on")
    page.wait_for_url(table)
    assert page.locator("#hand-form").count() == 1
    assert player.name in page.inner_text("h1")
    shoot(page, "login-code-table-390")

    # Spent: the same code opens nothing a second time.
    again = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    again.goto(table)
    again.fill("#id_code", code)
    again.click("#code-login button[type=submit]")
    again.wait_for_selector("#code-login .errorlist")
    assert "/desk/login/" in again.url
