"""Numbers and dates as a person types and reads them: Persian and Arabic-Indic digits
accepted wherever a number or a date is entered; a start time typed in the tournament's
zone stays in it; Solar Hijri dates and Persian digits on Persian pages; the API stays ISO
8601, Gregorian, Latin digits."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from tests.web.desk.helpers import started, version_of
from tournaments.models import Pairing, Tournament
from web.localize import jalali_date_text, persian_digits_html

pytestmark = pytest.mark.django_db

FA = {"HTTP_ACCEPT_LANGUAGE": "fa"}


@pytest.mark.parametrize("deadwood", ["۷", "٧", "7"])
def test_a_deadwood_typed_in_persian_digits_is_stored_as_7(client, td, deadwood):
    t = started(td, players=2)
    url = f"/desk/{t.pk}/rounds/1/tables/1/"
    version = version_of(client.get(url, **FA).content.decode())
    data = {"version": version, "result": "p1", "knocker_deadwood": deadwood}
    response = client.post(url, {**data, "defender_deadwood": "۲۵"}, **FA)
    assert response.status_code == 302, response.content.decode()
    hand = Pairing.objects.get(round__tournament=t, table=1).match.hands.get()
    assert (hand.knocker_deadwood, hand.defender_deadwood) == (7, 25)


def _create_form(**overrides):
    data = {
        "name": "شب باشگاه",
        "format": "swiss",
        "rounds": "۴",
        "play_mode": "table",
        "time_zone": "Asia/Tehran",
        "round_minutes": "۵۰",
        "check_in_required": "on",
        "is_public": "on",
        "tiebreaks": "",
        "games": "3",
        "knock_limit": "۱۰",
        "gin_bonus": "۲۵",
        "undercut_bonus": "۱۰",
        "game_target": "۱۰۰",
        "game_bonus": "۰",
        "box_bonus": "۰",
    }
    return {**data, **overrides}


@pytest.mark.parametrize(
    "typed",
    [
        "۲۰۲۶-۱۲-۰۱T۱۹:۳۰",  # the browser's picker, in Persian digits
        "۱۴۰۵-۰۹-۱۰ ۱۹:۳۰",  # as the Persian page shows dates: Solar Hijri (10 Azar 1405)
        "١٤٠٥/٠٩/١٠ ١٩:٣٠",  # Arabic-Indic digits
    ],
)
def test_a_start_time_typed_in_persian_digits_is_the_right_instant(client, td, typed):
    response = client.post("/desk/new/", _create_form(starts_at=typed), **FA)
    assert response.status_code == 302, response.content.decode()
    tournament = Tournament.objects.get()
    # 19:30 in Tehran (UTC+03:30) on 1 December 2026.
    assert tournament.starts_at == dt.datetime(2026, 12, 1, 16, 0, tzinfo=dt.UTC)
    assert (tournament.rounds_planned, tournament.ruleset["knock_limit"]) == (4, 10)


def test_a_jalali_date_for_a_known_gregorian_date():
    assert jalali_date_text(dt.date(2026, 12, 1)) == "۱۰ آذر ۱۴۰۵"
    assert jalali_date_text(dt.date(2026, 3, 21)) == "۱ فروردین ۱۴۰۵"  # Nowruz


def test_a_persian_page_shows_the_solar_hijri_date_and_persian_digits(client, td):
    start = dt.datetime(2026, 12, 1, 16, 0, tzinfo=dt.UTC)
    t = started(td, players=2, starts_at=start, time_zone="Asia/Tehran")
    page = client.get(f"/desk/{t.pk}/", **FA).content.decode()
    assert "۱۰ آذر ۱۴۰۵ ۱۹:۳۰" in page
    english = client.get(f"/desk/{t.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tue 1 Dec 2026 19:30" in english


def test_a_club_may_turn_the_solar_hijri_calendar_off(client, td):
    from players.models import Club

    club = Club.objects.create(name="Tehran", slug="tehran", jalali_dates=False)
    club.organisers.add(td)  # the club's director makes the club's tournament
    start = dt.datetime(2026, 12, 1, 16, 0, tzinfo=dt.UTC)
    t = started(td, players=2, starts_at=start, time_zone="Asia/Tehran", club=club)
    page = client.get(f"/desk/{t.pk}/", **FA).content.decode()
    assert "آذر" not in page and "۲۰۲۶" in page  # Gregorian, Persian digits


def test_the_api_stays_iso_gregorian_and_latin(client, td):
    start = dt.datetime(2026, 12, 1, 16, 0, tzinfo=dt.UTC)
    t = started(td, players=2, starts_at=start, time_zone="Asia/Tehran")
    body = client.get(f"/api/tournaments/{t.pk}/", **FA).json()
    assert body["starts_at"].startswith("2026-12-01T16:00:00")
    csv = client.get(f"/api/tournaments/{t.pk}/standings.csv", **FA)
    assert csv.status_code == 200  # the API's CSV keeps its format: no BOM, commas, codes
    text = csv.content.decode()
    assert not text.startswith("\ufeff") and text.startswith("rank,")


def test_a_negative_number_stays_left_to_right_and_a_fraction_takes_the_persian_point():
    with translation.override("fa"):
        out = persian_digits_html("<td>-26</td><td>1.5</td><td>1405-09-10</td>")
    assert out == "<td>\u2066-۲۶\u2069</td><td>۱٫۵</td><td>۱۴۰۵-۰۹-۱۰</td>"


def test_digits_change_in_text_only_never_in_tags_codes_or_names():
    html = (
        '<p class="x1" data-v="12">Round 3 · <bdi>Bot 7</bdi> <code>7H</code>'
        "<script>var a = 1;</script> &#8211; 10</p>"
    )
    with translation.override("fa"):
        out = persian_digits_html(html)
    assert out == (
        '<p class="x1" data-v="12">Round ۳، <bdi>Bot 7</bdi> <code>7H</code>'
        "<script>var a = 1;</script> &#8211; ۱۰</p>"
    )
