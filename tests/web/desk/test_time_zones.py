"""Issue 37, item 3: time zones at the desk. The new-tournament form defaulted to
Europe/Berlin on a Persian desk and listed ~600 raw English zone ids, some with Persian
digits inside ("Etc/GMT+۳", "CST۶CDT"); the zone could not be changed afterwards. Now: the
club's zone (else the desk language's country's) by default, CLDR's names in the desk's
language with the country's zones first, canonical zones only, and a change at the desk
until the tournament starts (a SettingsChanged)."""

from __future__ import annotations

import re

import pytest

import eventstore
from tests.web.desk.helpers import started, table_swiss
from tournaments.models import Tournament
from web.zones import zone_label

pytestmark = pytest.mark.django_db


def _options(page: str) -> list[tuple[str, str]]:
    select = re.search(r'<select name="time_zone"[^>]*>(.*?)</select>', page, re.S)
    assert select, page[:2000]
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))


def test_a_persian_desk_offers_tehran_first_in_persian_words(client, td) -> None:
    page = client.get("/desk/new/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    options = _options(page)
    assert options[0][0] == "Asia/Tehran" and "تهران" in options[0][1]
    assert '<option value="Asia/Tehran" selected>' in page
    values = [v for v, _ in options]
    assert not [v for v in values if v.startswith("Etc/") or v in ("CST6CDT", "US/Eastern")]
    assert all(v.isascii() for v in values)  # ids stay ids; only the words are Persian
    assert "Europe/Berlin" in values and "برلین" in dict(options)["Europe/Berlin"]
    assert 'data-zone-filter="id_time_zone"' in page  # the search box above the list


def test_a_romanian_clubs_zone_and_country_come_first(client, td) -> None:
    from tournaments.ratings.services import club_create

    club_create(name="Clubul de Gin", by=td, time_zone="Europe/Bucharest")
    page = client.get("/desk/new/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    options = _options(page)
    assert options[0][0] == "Europe/Bucharest" and "București" in options[0][1]
    assert '<option value="Europe/Bucharest" selected>' in page


def test_the_zone_changes_at_the_desk_until_the_start(client, td) -> None:
    tournament = table_swiss(td, time_zone="Europe/Berlin")
    tournament.refresh_from_db()
    page = client.get(f"/desk/{tournament.pk}/").content.decode()
    assert f'action="/desk/{tournament.pk}/zone/"' in page
    assert zone_label("Europe/Berlin", "en") in page  # "all times in Berlin — Germany (...)"
    before = tournament.version
    response = client.post(f"/desk/{tournament.pk}/zone/", {"time_zone": "Asia/Tehran"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.time_zone == "Asia/Tehran"
    last = eventstore.load(stream_id=tournament.stream_id, after_version=before)
    assert [e.type for e in last] == ["SettingsChanged"]
    refused = client.post(f"/desk/{tournament.pk}/zone/", {"time_zone": "Not/AZone"})
    assert refused.status_code == 400
    assert Tournament.objects.get(pk=tournament.pk).time_zone == "Asia/Tehran"


def test_a_started_tournament_keeps_its_zone(client, td) -> None:
    tournament = started(td, time_zone="Europe/Berlin")
    page = client.get(f"/desk/{tournament.pk}/").content.decode()
    assert f'action="/desk/{tournament.pk}/zone/"' not in page
    refused = client.post(f"/desk/{tournament.pk}/zone/", {"time_zone": "Asia/Tehran"})
    assert refused.status_code == 400
    assert Tournament.objects.get(pk=tournament.pk).time_zone == "Europe/Berlin"
