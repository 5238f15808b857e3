"""The API docs are served by the app itself (drf-spectacular-sidecar): Swagger UI at
/api/docs/ and Redoc at /api/redoc/ load nothing from another host, so they work offline."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from tests.helpers import assets_from_elsewhere

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_the_docs_page_references_only_local_static_files(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert assets_from_elsewhere(html) == [] and "unpkg" not in html.lower()
    assert "http://" not in html and "https://" not in html and "//" + "cdn" not in html
    local = re.findall(r"""(?:src|href)\s*=\s*["'](/static/[^"']+)["']""", html)
    assert local, "the page should load its scripts from the app's static files"
    for url in local:
        found = finders.find(url.removeprefix("/static/"))
        assert found, f"{url} is not a static file the app ships"
    for attr in re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html):
        assert attr.startswith("/"), f"{attr} is not a local URL"


def test_the_docs_page_loads_the_schema_from_the_app(client):
    html = client.get("/api/docs/").content.decode()
    assert "/api/schema/" in html
    assert '"validatorUrl": null' in html  # Swagger UI's default asks validator.swagger.io
    assert client.get("/api/schema/").status_code in (200, 401)  # signed-in users get it
