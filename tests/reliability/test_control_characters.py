"""Issue 32 item 5: a control character in a name broke the `.xlsx` exports (500: openpyxl's
IllegalCharacterError). Every text field refuses control characters at the boundary (the
API: 400 `validation_error` naming the field, reason `control_characters`; a form: 400),
nothing written; and the exports still answer for old rows holding them."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.test import Client

from players.models import Player
from tests.web.desk.helpers import organiser, started, table_swiss

pytestmark = pytest.mark.django_db

NAMES = ["Bell\x07Ringer", "Esc\x1bape", "Del\x7fete", "C1\x85line"]


@pytest.mark.parametrize("name", NAMES)
def test_the_api_refuses_a_name_with_a_control_character(organiser_client, name):
    before = Player.objects.count()
    response = organiser_client.post("/api/players/", {"name": name}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error" and "name" in error["fields"]
    assert error["reason"] == "control_characters"
    assert Player.objects.count() == before


def test_a_reason_with_a_control_character_is_refused_too(organiser_client):
    body = {"name": "Tuesday", "format": "swiss", "rounds": 3, "reason": "fine\x00?"}
    response = organiser_client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["reason"] == "control_characters"


def test_a_multi_line_text_keeps_its_line_breaks_and_tabs(organiser_client):
    response = organiser_client.post("/api/players/", {"name": "Tab\tName"}, format="json")
    assert response.status_code == 201, response.content


def test_the_desk_refuses_a_walk_in_with_a_control_character():
    td = organiser()
    tournament = table_swiss(td, players=0)
    desk = Client()
    desk.force_login(td)
    before = Player.objects.count()
    response = desk.post(f"/desk/{tournament.pk}/walk-in/", {"name": "Esc\x1bape", "new": "1"})
    assert response.status_code == 400
    assert Player.objects.count() == before


def test_the_xlsx_answers_for_old_rows_holding_control_characters():
    td = organiser()
    tournament = started(td, players=2)
    Player.objects.filter(pk__in=tournament.registrations.values("player")).update(
        name="Bell\x07Ringer"
    )
    desk = Client()
    desk.force_login(td)
    response = desk.get(f"/desk/{tournament.pk}/tournament.xlsx")
    assert response.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    names = [c.value for sheet in book.worksheets for row in sheet.iter_rows() for c in row]
    assert any(isinstance(v, str) and v.startswith("Bell") for v in names)
