"""Issue 26 (5): a locked-out organiser comes back in with `manage.py staff_signin_link`, in
a real browser (Debian's headless chromium), on a phone's width: the link asks first, the
button signs in, the desk opens; the link opens nothing a second time. Screenshots to
tests/artifacts/screenshots/. Run alone: pytest -m browser."""

import io

import pytest
from django.core.management import call_command

from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_locked_out_organiser_signs_in_with_a_link(live_server, browser, settings):
    settings.AXES_FAILURE_LIMIT = 2
    organiser("td")
    base = live_server.url
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    for _ in range(2):
        page.goto(f"{base}/desk/login/")
        page.fill("#id_username", "td")
        page.fill("#id_password", "not-the-password")
        page.click("button[type=submit]")
    page.goto(f"{base}/desk/login/")
    page.fill("#id_username", "td")
    page.fill("#id_password", "pw-desk-123")
    response_status = []
    page.on("response", lambda r: response_status.append(r.status))
    page.click("button[type=submit]")
    page.wait_for_load_state()
    assert 429 in response_status  # locked out, even with the right password

    out = io.StringIO()
    call_command("staff_signin_link", "td", "--base-url", base, stdout=out)
    link = out.getvalue().strip()
    page.goto(link)
    page.wait_for_selector("#signin-link")
    assert no_sideways_scroll(page)
    shoot(page, "staff-signin-link-390")
    page.click("#signin-link")
    page.wait_for_url(f"{base}/desk/")
    shoot(page, "staff-signin-link-desk-390")

    again = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    again.goto(link)
    again.click("#signin-link")
    again.wait_for_selector("#signin-link-error")
    shoot(again, "staff-signin-link-spent-390")
