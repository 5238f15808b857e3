"""Issue 14 item 7, the CSV exports: whatever the Accept header (none, a CSV client's, a
browser's), `standings.csv` and `results.csv` answer CSV, and their errors (a wrong
method, an unknown tournament, a write without credentials) the API's JSON error shape,
not a 406 or the browsable API's HTML page."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.reliability.helpers import make_organiser
from tournaments import services

pytestmark = pytest.mark.django_db

ACCEPTS = ["", "text/csv", "text/html,application/xhtml+xml,*/*;q=0.8", "application/xml"]
EXPORTS = ["standings.csv", "results.csv"]


@pytest.fixture
def tournament_id() -> int:
    tournament = services.tournament_create(
        name="Open", format="swiss", rounds=1, created_by=make_organiser("csvorg"),
        ruleset={}, is_public=True,
    )  # fmt: skip
    return tournament.pk


def error(response) -> tuple[int, str]:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.status_code, response.json()["error"]["code"]


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("export", EXPORTS)
def test_an_export_is_csv_whatever_the_accept_header(tournament_id, export, accept):
    response = APIClient().get(f"/api/tournaments/{tournament_id}/{export}", HTTP_ACCEPT=accept)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("export", EXPORTS)
def test_an_export_s_errors_are_the_api_s_json(organiser_client, tournament_id, export, accept):
    path = f"/api/tournaments/{tournament_id}/{export}"
    for method in ("POST", "PUT", "DELETE"):
        response = organiser_client.generic(method, path, "{}", HTTP_ACCEPT=accept,
                                            content_type="application/json")  # fmt: skip
        assert error(response) == (405, "method_not_allowed")
        response = APIClient().generic(method, path, "{}", HTTP_ACCEPT=accept,
                                       content_type="application/json")  # fmt: skip
        assert error(response) == (401, "not_authenticated")
    missing = APIClient().get(f"/api/tournaments/{tournament_id + 999}/{export}",
                              HTTP_ACCEPT=accept)  # fmt: skip
    assert error(missing) == (404, "not_found")
