"""Issue 38: the app serves the built manual at /docs/ (offline: nothing from outside) and
the players' help at /help/ in the five languages; each desk and players' screen has a
"Help" link to its part of either."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import translation

from tests.docs.helpers import ids
from web.manual import HELP, PLAYERS_HELP

pytestmark = pytest.mark.django_db


def test_the_manual_answers_at_docs(served_manual):
    client = Client()
    home = client.get("/docs/")
    assert home.status_code == 200 and b"Hollywood Gin" in home.content
    settings_page = client.get("/docs/operators/settings/")
    assert settings_page.status_code == 200
    assert b"LOGIN_LOCKOUT_BY" in settings_page.content
    assert client.get("/docs/operators/settings").url == "/docs/operators/settings/"
    css = next((served_manual / "assets" / "stylesheets").glob("main.*.min.css"))
    answer = client.get(f"/docs/assets/stylesheets/{css.name}")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/css")
    assert client.get("/docs/no/such/page/").status_code == 404
    assert client.get("/docs/../config/settings/base.py").status_code == 404
    assert client.get("/docs/%2e%2e/pyproject.toml").status_code == 404


def test_the_manual_keeps_its_latin_digits_on_a_persian_page(served_manual):
    answer = Client(headers={"accept-language": "fa"}).get("/docs/clients/reference/")
    assert re.search(r"version <strong>[0-9]+\.[0-9]+\.[0-9]+</strong>", answer.content.decode())


def test_a_manual_not_built_says_how_to_build_it(settings, tmp_path):
    settings.DOCS_ROOT = tmp_path
    answer = Client().get("/docs/")
    assert answer.status_code == 404 and b"make install" in answer.content


def test_every_help_link_goes_to_a_page_and_part_that_exist(served_manual):
    help_page = Client().get(PLAYERS_HELP).content.decode()
    for name, url in HELP.items():
        path, _, anchor = url.partition("#")
        if path == PLAYERS_HELP:
            html = help_page
        else:
            html = (served_manual / path.removeprefix("/docs/") / "index.html").read_text()
        if anchor:
            assert anchor in ids(html), f"{name}: {url}"


def _help_link(html: str) -> str:
    return re.search(r'<a[^>]*href="([^"]+)"[^>]*data-help', html).group(1)


def test_the_desk_and_the_players_pages_link_their_help(organiser, alice):
    desk = Client()
    desk.force_login(organiser)
    assert _help_link(desk.get("/desk/").content.decode()) == HELP["desk-home"]
    assert _help_link(desk.get("/desk/new/").content.decode()) == HELP["desk-tournament-new"]
    player = Client()
    player.force_login(alice.user)
    assert _help_link(player.get("/me/").content.decode()) == HELP["my-evening"]
    assert _help_link(player.get("/play/").content.decode()) == HELP["play-lobby"]
    signed_out = Client().get("/desk/login/").content.decode()
    assert urlsplit(_help_link(signed_out)).path == PLAYERS_HELP


@pytest.mark.parametrize("language", ["en", "ro", "de", "lt", "fa"])
def test_the_players_help_is_in_every_language_of_the_pages(language):
    answer = Client(headers={"accept-language": language}).get(PLAYERS_HELP)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'lang="{language}"' in html
    assert ('dir="rtl"' in html) == (language == "fa")
    with translation.override(language):
        title = translation.gettext("Help for players")
        table = translation.gettext("The phone at the table")
    assert title in html and table in html
    if language != "en":
        assert title != "Help for players" and "Help for players" not in html
