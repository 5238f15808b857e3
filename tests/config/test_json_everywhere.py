"""Issue 21: every /api/ answer is JSON under every setting, `make run`'s DEBUG included,
where Django answers a URL no pattern matches with its HTML page (handler404 is not used)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

NO_SUCH_URLS = [
    "/api/players/null,null/",
    "/api/tournaments/x/",
    "/api/tournaments/x/standings/",
    "/api/tournaments/1/webhooks/x/",
    "/api/matches/x/disputes/y/comments/",
    "/api/nothing-here/",
]


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("url", NO_SUCH_URLS)
def test_a_url_no_pattern_matches_is_a_json_404(settings, alice_client, url, debug):
    settings.DEBUG = debug
    for client in (alice_client, APIClient()):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json", response.content[:100]
        assert response.json()["error"]["code"] == "not_found"


def test_pages_outside_the_api_keep_django_s_404(settings, client):
    settings.DEBUG = True
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_the_api_docs_are_still_pages(alice_client):
    assert alice_client.get("/api/docs/")["Content-Type"].startswith("text/html")


def test_an_unknown_club_is_a_validation_error_on_club(organiser_client):
    response = organiser_client.post(
        "/api/tournaments/", {"name": "Cup", "format": "swiss", "club": 987654}
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error" and "club" in error["fields"]
