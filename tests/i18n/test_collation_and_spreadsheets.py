"""Names sort as each language expects (ICU's collation, table-driven expectations), on
the roster, the pairings by name and the standings' ties; the API's order never depends on
Accept-Language. The desk's downloads open in Excel in the viewer's locale (a byte-order
mark, the locale's separator) and as .xlsx."""

from __future__ import annotations

import csv
import io
import re

import openpyxl
import pytest

from players.services import player_create
from tests.web.desk.helpers import organiser
from tournaments import services
from tournaments.models import Standing
from web.localize import sort_by_name

# Each language's order of the same kind of names (what a club there expects to read).
EXPECTED = {
    # Romanian: Ă after A, Â after Ă, Î after I, Ș after S, Ț after T.
    "ro": ["Ana", "Ăndrei", "Âmbru", "Ilie", "Îna", "Sorin", "Ștefan", "Tudor", "Țepeș"],
    # Lithuanian: Y sorts with I (before J), Č after C, Š after S, Ž after Z.
    "lt": ["Cezaris", "Čiurlionis", "Ieva", "Yla", "Jonas", "Saulius", "Šarūnas", "Zenonas",
           "Žilvinas"],
    # German: Ä, Ö, Ü with A, O, U (a tie broken after the plain letter).
    "de": ["Abel", "Äbel", "Moller", "Möller", "Muller", "Müller", "Zander"],
    # Persian: آ ب پ ت ... ج چ ... ز ژ ... ک گ ... ی (پ, چ, ژ, گ in the Persian alphabet).
    "fa": ["آرش", "بهرام", "پرویز", "جمشید", "چنگیز", "زهرا", "ژاله", "کاوه", "گلناز", "یاسمن"],
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_names_sort_in_each_languages_order(language):
    expected = EXPECTED[language]
    shuffled = list(reversed(expected))
    assert sort_by_name(shuffled, str, language) == expected


def test_code_point_order_would_be_wrong():
    """The test above means something: by character code these orders break."""
    assert sorted(EXPECTED["ro"]) != EXPECTED["ro"]
    assert sorted(EXPECTED["lt"]) != EXPECTED["lt"]
    assert sorted(EXPECTED["fa"]) != EXPECTED["fa"]


NAMES = ["Žygimantas", "Ștefan", "Zoe", "Stan", "Șerban", "Ana", "Yla", "Ieva"]
ROSTER = {
    "ro": ["Ana", "Ieva", "Stan", "Șerban", "Ștefan", "Yla", "Zoe", "Žygimantas"],  # Y late
    "lt": ["Ana", "Ieva", "Yla", "Șerban", "Stan", "Ștefan", "Zoe", "Žygimantas"],
}


@pytest.fixture
def roster(client, django_db_blocker):
    td = organiser()
    client.force_login(td)
    t = services.tournament_create(
        name="Seară", format="swiss", created_by=td, rounds=2, play_mode="table"
    )
    for name in NAMES:
        player = player_create(name=name)
        services.tournament_register(tournament_id=t.pk, player=player, by=td)
        services.tournament_check_in(tournament_id=t.pk, player=player, by=td)
    return t


def _order(page: str, names: list[str]) -> list[str]:
    return sorted(names, key=page.index)


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(ROSTER))
def test_the_roster_and_check_in_sort_by_the_page_language(client, roster, language):
    for url in (f"/desk/{roster.pk}/", f"/desk/{roster.pk}/check-in/"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        table = page[page.index("<table") :]
        assert _order(table, NAMES) == ROSTER[language], url


@pytest.mark.django_db
def test_standings_ties_and_pairings_by_name_sort_by_the_page_language(client, roster):
    services.tournament_start(tournament_id=roster.pk, by=roster.created_by)
    Standing.objects.filter(tournament=roster).update(rank=1)  # all tied
    page = client.get(f"/desk/{roster.pk}/standings/print/?lang=ro").content.decode()
    assert _order(page[page.index("<table") :], NAMES) == ROSTER["ro"]
    page = client.get(f"/desk/{roster.pk}/rounds/1/pairings/print/?lang=lt").content.decode()
    by_name = page[page.index('class="page-break"') :]
    first_cells = re.findall(r"<tr><td><bdi>(.*?)</bdi></td>", by_name)
    assert first_cells == ROSTER["lt"]


@pytest.mark.django_db
def test_the_api_order_never_depends_on_the_language(client, roster):
    services.tournament_start(tournament_id=roster.pk, by=roster.created_by)
    orders = {
        language: client.get(
            f"/api/tournaments/{roster.pk}/standings/", HTTP_ACCEPT_LANGUAGE=language
        ).content
        for language in ("en", "ro", "lt", "fa")
    }
    assert len(set(orders.values())) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "separator"), [("de", ";"), ("ro", ";"), ("en", ",")])
def test_the_desk_csv_opens_in_excel_in_the_viewers_locale(client, roster, language, separator):
    services.tournament_start(tournament_id=roster.pk, by=roster.created_by)
    response = client.get(f"/desk/{roster.pk}/standings.csv", HTTP_ACCEPT_LANGUAGE=language)
    assert response.content.startswith("\ufeff".encode())  # UTF-8, said so to Excel
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=separator))
    assert len(rows) == 1 + len(NAMES) and all(len(r) == len(rows[0]) for r in rows)
    assert {r[2] for r in rows[1:]} == set(NAMES)  # diacritics intact
    if language == "de":
        assert rows[0][0] == "Platz"


@pytest.mark.django_db
def test_the_desk_xlsx_holds_standings_and_results(client, roster):
    services.tournament_start(tournament_id=roster.pk, by=roster.created_by)
    response = client.get(f"/desk/{roster.pk}/tournament.xlsx", HTTP_ACCEPT_LANGUAGE="ro")
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Clasament", "Rezultate"]
    standings = list(book["Clasament"].iter_rows(values_only=True))[1:]  # under the title
    assert standings[0][0] == "Loc" and {r[2] for r in standings[1:]} == set(NAMES)
    assert isinstance(standings[1][0], int)  # numbers stay numbers
    results = list(book["Rezultate"].iter_rows(values_only=True))[1:]
    assert len(results) == 1 + len(NAMES) // 2
    fa = openpyxl.load_workbook(
        io.BytesIO(
            client.get(f"/desk/{roster.pk}/tournament.xlsx?x", HTTP_ACCEPT_LANGUAGE="fa").content
        )
    )
    assert fa.worksheets[0].sheet_view.rightToLeft
