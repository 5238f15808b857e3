"""The round clock at the desk (issue 24, "The roster and the round"): the round page says
when the clock started (at the pairing, or when the director started it), in the
tournament's time zone, and offers "Start the clock" until the director has; starting
round 1 hours before its scheduled time asks for a confirmation first."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tests.web.desk.helpers import organiser, started, table_swiss
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def _hhmm(value: dt.datetime, zone: str) -> str:
    return value.astimezone(ZoneInfo(zone)).strftime("%H:%M")


def test_the_round_page_says_when_the_clock_started_and_the_director_starts_it(
    client, td, monkeypatch
):
    t = started(td, players=4, time_zone="Asia/Tehran", round_duration=dt.timedelta(hours=1))
    url = f"/desk/{t.pk}/rounds/1/"
    paired = Round.objects.get(tournament=t, number=1)
    page = client.get(url).content.decode()
    when = _hhmm(paired.paired_at, "Asia/Tehran")
    assert f"Clock started at {when}" in page and "when the round was paired" in page
    assert "Start the clock" in page
    begins = paired.paired_at + dt.timedelta(minutes=47)
    monkeypatch.setattr(timezone, "now", lambda: begins)
    response = client.post(f"{url}clock/")
    assert response.status_code == 302 and response["Location"] == url
    monkeypatch.undo()
    row = Round.objects.get(pk=paired.pk)
    assert (row.clock_started_at, row.clock_started_by_hand) == (begins, True)
    assert row.deadline == begins + dt.timedelta(hours=1)
    page = client.get(url).content.decode()
    clock = re.search(r'id="round-clock">(.*?)</span>', page, re.S).group(1)
    assert f"Clock started at {_hhmm(begins, 'Asia/Tehran')}" in clock
    assert f"ends {_hhmm(begins + dt.timedelta(hours=1), 'Asia/Tehran')}" in clock
    assert "Start the clock" not in page
    again = client.post(f"{url}clock/")
    assert again.status_code == 409
    assert "already been started" in again.content.decode()


def test_the_clock_button_is_the_organisers(client, td):
    t = started(td, players=2)
    client.force_login(organiser("someone_else"))
    assert client.post(f"/desk/{t.pk}/rounds/1/clock/").status_code in (403, 404)
    assert Round.objects.get(tournament=t, number=1).clock_started_by_hand is False


def test_starting_round_1_hours_early_asks_first(client, td):
    starts = timezone.now() + dt.timedelta(hours=11)
    t = table_swiss(td, players=4, starts_at=starts)
    start = f"/desk/{t.pk}/start/"
    asked = client.post(start)
    assert asked.status_code == 400
    page = asked.content.decode()
    assert "Start it now anyway?" in page and 'name="confirm" value="1"' in page
    assert _hhmm(starts, "Europe/Berlin") in page
    assert not Round.objects.filter(tournament=t).exists()
    confirmed = client.post(start, {"confirm": "1"})
    assert confirmed.status_code == 302
    assert Round.objects.filter(tournament=t, number=1).exists()
