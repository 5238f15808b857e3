"""Practice against the bot in a real browser: a player starts a practice match from the
lobby and plays it to the end on the play page; the bot's moves (Celery jobs, eager here)
come through the match's stream. Screenshots in tests/artifacts/screenshots/."""

from collections.abc import Iterator

import pytest

from games.models import Match
from tests.web.desk.helpers import asgi_server_with_static, no_sideways_scroll, shoot
from tests.web.play.browser import play_to_the_end, sheet_of_view, sheet_on_page, sign_in
from tests.web.play.helpers import PASSWORD, players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def asgi(settings) -> Iterator[str]:
    settings.LIVE_KEEPALIVE_SECONDS = 1
    settings.LIVE_POLL_SECONDS = 0.2
    with asgi_server_with_static() as url:
        yield url


def test_a_practice_match_against_the_bot_played_to_the_end(asgi, browser, monkeypatch):
    from games.services import practice

    # One game to 25 (a whole match is a few hands): the lobby's button starts the standard
    # rules, which a test has no time for.
    start = practice.practice_start
    monkeypatch.setattr(
        "web.play.views.practice_start",
        lambda **kw: start(**kw, ruleset={"game_target": 25, "games": 1}, seed="practice-test"),
    )
    (ada,) = players("Ada")
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_in(page, asgi, "ada", PASSWORD)
    page.goto(f"{asgi}/play/")
    shoot(page, "practice-390-lobby")
    page.click("[data-action=practice]")
    page.wait_for_selector("#play[data-practice=true]")
    page.wait_for_selector("[data-live-indicator][data-state=live]")
    match = Match.objects.get(practice=True)
    assert match.player2.is_bot and match.player1 == ada
    assert "Practice against the bot" in page.inner_text("#play")
    shoot(page, "practice-390-start")
    play_to_the_end([page])
    match.refresh_from_db()
    assert match.status == "finished" and match.practice
    from games.selectors import match_view_for

    assert sheet_on_page(page) == sheet_of_view(match_view_for(match=match, user=ada.user))
    shoot(page, "practice-390-over")
    assert no_sideways_scroll(page)
