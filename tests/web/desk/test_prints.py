"""Printed sheets and CSV exports: pairings by table and by name, table slips with a QR
code (inline SVG, no image service), standings with the tiebreak order, a match's
scoresheet, a blank one; CSV of standings and results; all behind the organiser check."""

import csv
import io

import pytest

from players.services import player_create
from tests.helpers import assets_from_elsewhere
from tests.web.desk.helpers import started, table_swiss
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(td):
    return started(td, players=5)


def test_pairings_by_table_and_by_name(client, tournament):
    page = client.get(f"/desk/{tournament.pk}/rounds/1/pairings/print/").content.decode()
    assert "pairings by table" in page and "pairings by name" in page
    assert page.count("Player 0") >= 10  # each player on both lists
    assert "bye" in page  # five players: one bye
    assert "@media print" not in page  # print CSS lives in the stylesheet
    assert "(Berlin)" in page


def test_slips_carry_a_qr_code_to_the_table(client, tournament):
    page = client.get(f"/desk/{tournament.pk}/rounds/1/slips/print/").content.decode()
    assert page.count("<svg") == 2  # two tables, the bye has no slip
    assert "Round 1, table 1" in page
    assert assets_from_elsewhere(page) == []


def test_standings_state_the_tiebreak_order(client, tournament):
    page = client.get(f"/desk/{tournament.pk}/standings/print/").content.decode()
    assert "Ranked by: match wins, then games won, then points difference, then Buchholz" in page


def test_match_and_blank_scoresheets(client, tournament):
    page = client.get(f"/desk/{tournament.pk}/rounds/1/tables/1/print/").content.decode()
    assert "Games won" in page and "Game 3" in page
    blank = client.get(f"/desk/{tournament.pk}/scoresheet/blank/").content.decode()
    assert "Hollywood Gin scoresheet" in blank and "Game 3: B" in blank


def test_csv_exports(client, tournament):
    response = client.get(f"/desk/{tournament.pk}/standings.csv")
    assert response["Content-Type"].startswith("text/csv")
    # For Excel: a byte-order mark, headings in the page's words (the API's CSV keeps codes).
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Rank", "Player id", "Player"]
    assert len(rows) == 6
    response = client.get(f"/desk/{tournament.pk}/results.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][0] == "Round" and len(rows) == 4  # two tables and a bye


def test_a_name_that_looks_like_a_formula_is_written_as_text(client, td):
    t = table_swiss(td, players=1)
    evil = player_create(name="=HYPERLINK(1)")
    services.tournament_register(tournament_id=t.pk, player=evil, by=td)
    services.tournament_check_in(tournament_id=t.pk, player=evil, by=td)
    services.tournament_start(tournament_id=t.pk, by=td)
    for url in (f"/desk/{t.pk}/standings.csv", f"/desk/{t.pk}/results.csv"):
        body = client.get(url).content.decode()
        assert "'=HYPERLINK(1)" in body
        assert ",=HYPERLINK" not in body


def test_prints_are_for_organisers_only(client, tournament):
    client.logout()
    for url in (
        f"/desk/{tournament.pk}/standings/print/",
        f"/desk/{tournament.pk}/standings.csv",
        f"/desk/{tournament.pk}/rounds/1/slips/print/",
    ):
        assert client.get(url).status_code == 302


def test_coded_cells_are_in_the_readers_words(client, tournament):
    """Issue 37, item 5: the exports' cells said "pending", "bye" and "False" on a German
    desk; a status, a result and a yes/no are in the reader's language now."""
    import openpyxl

    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    response = client.get(f"/desk/{tournament.pk}/results.csv", **german)
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    cells = {cell for row in rows[1:] for cell in row}
    assert "Im Spiel" in cells and "Freilos" in cells and "pending" not in cells
    response = client.get(f"/desk/{tournament.pk}/standings.csv", **german)
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert "nein" in rows[1] and "False" not in rows[1]
    response = client.get(f"/desk/{tournament.pk}/tournament.xlsx", **german)
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    results = [c for row in book.worksheets[1].iter_rows(values_only=True) for c in row]
    assert "Im Spiel" in results and "pending" not in results
    # Issue 37, item 7: as a person opens it: a title, bold frozen headings, widths.
    standings = book.worksheets[0]
    assert standings["A1"].value == f"{tournament.name} · Rangliste"
    assert standings["A1"].font.bold and standings["A2"].font.bold
    assert standings.freeze_panes == "A3" and standings.auto_filter.ref.startswith("A2:")
    widths = {k: d.width for k, d in standings.column_dimensions.items()}
    names = [r[2] for r in standings.iter_rows(min_row=3, values_only=True)]
    assert widths["C"] >= max(len(n) for n in names) + 2, widths
    assert book.properties.title == tournament.name
