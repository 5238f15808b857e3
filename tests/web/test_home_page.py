"""The home page's list of tournaments: each start in the tournament's own zone, named."""

import datetime as dt

import pytest

from tests.web.desk.helpers import organiser, started

pytestmark = pytest.mark.django_db


def test_home_shows_each_start_in_the_tournaments_zone(client):
    at = dt.datetime(2026, 12, 8, 18, 30, tzinfo=dt.UTC)
    started(organiser("td"), players=4, time_zone="Europe/Berlin", starts_at=at)
    page = client.get("/").content.decode()
    assert "Tue 8 Dec 2026 19:30 CET (Berlin)" in page
    assert "6:30 p.m." not in page and "18:30" not in page
    # Wide tables scroll inside their own box, as on the tournament page.
    assert (
        page.count('<div class="scroll"><table>') == 2
    )  # reachable by keyboard: scroll_regions.js
