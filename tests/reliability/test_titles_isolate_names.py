"""Issue 32 item 7: a right-to-left override (U+202E) in a name leaked out of it in page
titles ("A v B" read backwards from A on): every name in a `<title>` is isolated
(U+2068 ... U+2069), as names in the page's body sit in <bdi>."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from players.models import Club
from players.services import player_create
from tests.reliability.helpers import make_organiser, tournament_with_a_match
from tests.web.desk.helpers import started

pytestmark = pytest.mark.django_db

RLO = "\u202e"
FSI, PDI = "\u2068", "\u2069"


def leaks(title: str) -> bool:
    """Does an override stand outside an isolate (or an isolate stay open)?"""
    depth = 0
    for char in title:
        if char == FSI:
            depth += 1
        elif char == PDI:
            depth -= 1
        elif char == RLO and depth <= 0:
            return True
    return depth != 0


def title_of(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    found = re.search(r"<title>(.*?)</title>", response.content.decode(), re.S)
    assert found, url
    return html.unescape(found.group(1))


def test_names_in_titles_are_isolated():
    organiser = make_organiser("td")
    club = Club.objects.create(name=f"Club{RLO}A", slug="club-a")
    club.organisers.add(organiser)
    ann = player_create(name=f"Ann{RLO}X", username="ann", password="secret-pass-1")
    ben = player_create(name=f"Ben{RLO}Y", username="ben", password="secret-pass-1")
    tournament, match_id = tournament_with_a_match(
        organiser=organiser, players=[ann, ben], is_public=True
    )
    tournament.name = f"Cup{RLO}Z"
    tournament.save(update_fields=["name"])
    at_tables = started(organiser, players=2)
    at_tables.name = f"Tables{RLO}W"
    at_tables.save(update_fields=["name"])
    desk, player = Client(), Client()
    desk.force_login(organiser)
    player.force_login(ann.user)
    pages = [
        (desk, f"/tournaments/{tournament.pk}/"),
        (desk, f"/matches/{match_id}/"),
        (desk, f"/matches/{match_id}/replay/"),
        (desk, f"/players/{ann.pk}/"),
        (desk, "/clubs/club-a/"),
        (desk, f"/desk/{tournament.pk}/"),
        (desk, f"/desk/{tournament.pk}/check-in/"),
        (desk, f"/desk/{at_tables.pk}/"),
        (player, f"/play/{match_id}/"),
    ]
    titles = {url: title_of(client, url) for client, url in pages}
    assert all(RLO in t for t in titles.values()), titles
    assert {url: t for url, t in titles.items() if leaks(t)} == {}
