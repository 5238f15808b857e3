"""Issue 37, item 6: a Persian desk showed a time as "... ۱۹:۳۰ +0330 (Asia/Tehran)" (the
offset in Latin digits, turned "0330+" by the right-to-left line, and the zone's raw id);
German dates read "Di. 3 März 2026" (no period after the day) and season dates were ISO
("2026-12-01"). Now a time names the zone's place in the reader's words and its lettered
abbreviation where it has one; days follow the language's own pattern."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import translation

from players.models import Club
from tests.web.desk.helpers import organiser, table_swiss
from tournaments.ratings.models import Season
from web.templatetags.desk import clock_in_zone, day, in_zone

MOMENT = dt.datetime(2026, 3, 3, 16, 0, tzinfo=dt.UTC)  # 19:30 in Tehran, 17:00 in Berlin


def test_a_persian_time_names_tehran_in_persian_without_id_or_offset() -> None:
    with translation.override("fa"):
        text = str(in_zone(MOMENT, "Asia/Tehran"))
        clock = str(clock_in_zone(MOMENT, "Asia/Tehran"))
    assert "تهران" in text and "19:30" in text  # digits: the middleware's
    assert "Asia/Tehran" not in text and "0330" not in text, text
    assert clock == "19:30", clock


def test_a_german_time_has_the_days_period_and_the_german_abbreviation() -> None:
    with translation.override("de"):
        text = str(in_zone(MOMENT, "Europe/Berlin"))
    assert text == "Di., 3. März 2026 17:00 MEZ (Berlin)", text


def test_english_keeps_its_abbreviation_and_names_the_place() -> None:
    with translation.override("en"):
        assert str(in_zone(MOMENT, "Europe/Berlin")) == "Tue 3 Mar 2026 17:00 CET (Berlin)"
        assert str(in_zone(MOMENT, "UTC")) == "Tue 3 Mar 2026 16:00 UTC"


def test_days_in_each_language_are_never_iso() -> None:
    first = dt.date(2026, 12, 1)
    expected = {"en": "1 Dec 2026", "de": "1. Dez. 2026", "ro": "1 dec. 2026", "fa": "10 آذر 1405"}
    for language, text in expected.items():
        with translation.override(language):
            assert day(first) == text, (language, day(first))
    with translation.override("lt"):
        assert not re.fullmatch(r"\d{4}-\d\d-\d\d", day(first))


@pytest.mark.django_db
def test_the_season_pages_show_german_days_and_the_desk_round_names_the_zone(client) -> None:
    td = organiser()
    club = Club.objects.create(name="Gin Club", slug="gin", time_zone="Europe/Berlin")
    club.organisers.add(td)
    season = Season.objects.create(
        club=club, name="Winter", starts_on=dt.date(2026, 12, 1), ends_on=dt.date(2027, 2, 28)
    )
    public = client.get(f"/clubs/gin/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    text = public.content.decode()
    assert "1. Dez. 2026 – 28. Feb. 2027" in text and "2026-12-01" not in text
    client.force_login(td)
    desk = client.get(f"/desk/clubs/{club.pk}/seasons/", HTTP_ACCEPT_LANGUAGE="de").content
    assert "1. Dez. 2026" in desk.decode()
    tournament = table_swiss(td, time_zone="Asia/Tehran")
    page = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert "Asia/Tehran" not in page and "تهران" in page
