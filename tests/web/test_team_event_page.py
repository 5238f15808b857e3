"""A team event's public page: team standings and every team match's boards, hidden when
private; in headless Chromium at 390 px and in Persian (right to left), screenshots kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.tournaments.exchange.helpers import exchange_text, random_team_event
from tournaments.exchange.imports import team_event_import
from tournaments.teams.models import Team
from tournaments.teams.services import team_event_create

SHOTS = Path(
    os.environ.get("TEAM_SHOTS", Path(__file__).resolve().parents[1] / "artifacts" / "screenshots")
)


@pytest.fixture
def event(organiser):
    text = exchange_text(random_team_event(8, teams=5, boards=3, fmt="team_swiss"))
    return team_event_import(text=text, by=organiser)


@pytest.mark.django_db
def test_the_page_shows_team_standings_and_boards(client, event) -> None:
    page = client.get(f"/team-events/{event.pk}/").content.decode()
    for team in Team.objects.filter(event=event):
        assert team.name in page
    assert "Team standings" in page and page.count('class="team-match"') == 6  # 3 rounds x 2
    assert "Player 1000" in page or "Player 1001" in page


@pytest.mark.django_db
def test_a_private_event_is_not_found_by_visitors(client, organiser) -> None:
    private = team_event_create(
        name="Club only", format="team_swiss", created_by=organiser, is_public=False
    )
    assert client.get(f"/team-events/{private.pk}/").status_code == 404
    assert client.get("/team-events/999999/").status_code == 404


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_page_at_390_px_in_english_and_persian(live_server, browser, event) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for language in ("en", "fa"):
        context = browser.new_context(
            viewport={"width": 390, "height": 900},
            locale=language,
            extra_http_headers={"Accept-Language": language},
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/team-events/{event.pk}/")
        page.wait_for_selector("table.team-standings")
        assert (
            page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
            or page.evaluate("getComputedStyle(document.querySelector('.scroll')).overflowX")
            == "auto"
        )
        if language == "fa":
            assert page.evaluate("document.documentElement.dir") == "rtl"
        page.screenshot(path=str(SHOTS / f"team-event-{language}.png"), full_page=True)
        context.close()
