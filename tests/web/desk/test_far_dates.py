"""A start at the edge of the calendar (year 1 east of UTC, year 9999) is a form error on
the desk's new-tournament page, never a 500, and writes nothing."""

import pytest

from tests.web.desk.helpers import organiser
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Club night", "format": "swiss", "rounds": "4", "play_mode": "table",
    "time_zone": "Asia/Tokyo", "starts_at": "2026-03-03T19:30", "round_minutes": "50",
    "check_in_required": "on", "is_public": "on", "tiebreaks": "", "games": "3",
    "knock_limit": "10", "gin_bonus": "25", "undercut_bonus": "10", "game_target": "100",
    "game_bonus": "0", "box_bonus": "0",
}  # fmt: skip


@pytest.mark.parametrize(
    ("starts_at", "says"),
    [
        ("0001-01-01T00:00", "out of range"),
        ("9999-12-31T23:00", "between 2000 and 2999"),
        ("1999-12-31T23:00", "between 2000 and 2999"),
    ],
)
def test_a_far_start_is_a_form_error_and_writes_nothing(client, starts_at, says):
    client.force_login(organiser())
    response = client.post("/desk/new/", {**FORM, "starts_at": starts_at})
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_start_in_range_is_taken(client):
    client.force_login(organiser())
    response = client.post("/desk/new/", FORM)
    assert response.status_code == 302
    assert Tournament.objects.get().starts_at.year == 2026
