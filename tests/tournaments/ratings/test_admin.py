"""The admin of clubs (members, time zone; rating settings shown only) and seasons."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments.ratings.models import Season, SeasonStanding

pytestmark = pytest.mark.django_db


def test_admin_pages_of_clubs_ratings_and_seasons(client, rated_club):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-1")
    client.force_login(admin)
    club = rated_club["club"]
    for url in (
        "/admin/players/club/",
        f"/admin/players/club/{club.pk}/change/",
        "/admin/ratings/clubrating/",
        "/admin/ratings/ratingentry/",
        "/admin/ratings/season/",
        "/admin/ratings/season/add/",
    ):
        assert client.get(url).status_code == 200, url
    response = client.post(
        "/admin/ratings/season/add/",
        {
            "club": club.pk, "name": "Winter", "starts_on": "2000-01-01", "ends_on": "2999-01-01",
            "place_points": "[5, 3, 1]", "participation_points": "0", "tie_order": "[]",
            "standings-TOTAL_FORMS": "0", "standings-INITIAL_FORMS": "0",
        },
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    season = Season.objects.get(name="Winter")
    assert SeasonStanding.objects.filter(season=season).count() == 6
    assert client.get(f"/admin/ratings/season/{season.pk}/change/").status_code == 200
