"""The desk's match sheet: a whole match typed one line a hand, checked by the engine as
typed (the check endpoint stores nothing), saved all or none as the same hand events as
the one-hand form, a sheet sent twice recorded once, a phone entry settled from its line;
and the deadwood limit of the rules (98) on the desk's forms and the API."""

import pytest
from django.test import Client

from games.models import Match, TableEntry
from games.selectors import MAX_DEADWOOD
from tests.web.desk.helpers import (
    EIGHT_HANDS,
    organiser,
    player_with_login,
    started,
    table_swiss,
)
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def _url(t, tail="sheet/"):
    return f"/desk/{t.pk}/rounds/1/tables/1/{tail}"


def _sheet(hands, first_hand=1, rows=None, **extra):
    data = {"first_hand": str(first_hand), "rows": str(rows or max(len(hands), 1)), **extra}
    for i, (k, kd, dd) in enumerate(hands):
        data |= {f"k-{i}": k, f"kd-{i}": kd, f"dd-{i}": dd}
    return data


def _match(t):
    return Pairing.objects.get(round__tournament=t, table=1).match


def test_the_sheet_page_shows_lines_to_type(client, td):
    t = started(td, players=2)
    page = client.get(_url(t)).content.decode()
    assert 'name="k-0"' in page and 'name="dd-11"' in page  # a dozen lines without script
    assert "1 = <bdi>" in page and "0 = drawn hand" in page
    assert "sheet.js" in page
    table_page = client.get(_url(t, "")).content.decode()
    assert _url(t) in table_page  # the table's page leads to it


def test_the_check_gives_each_line_its_result_and_the_running_totals(client, td):
    t = started(td, players=2)
    match = _match(t)
    before = match.version
    response = client.post(_url(t, "sheet/check/"), _sheet(EIGHT_HANDS[:3]))
    assert response.status_code == 200
    rows = response.json()["rows"]
    assert [r["hand"] for r in rows] == [1, 2, 3]
    assert all(r["ok"] for r in rows)
    assert rows[0]["games"][0] == {"p1": 65, "p2": 0, "won": None}
    assert [g["p1"] for g in rows[1]["games"]] == [90, 25, 0]  # game 1, then games 1 and 2
    assert rows[2]["games"][0]["p2"] == 58 and rows[2]["finished"] is False
    match.refresh_from_db()
    assert match.version == before  # a check stores nothing


def test_the_check_names_the_wrong_cell_in_words(client, td):
    t = started(td, players=2)
    hands = [("1", "12", "30"), ("3", "1", "2"), ("2", "4", "250")]
    rows = client.post(_url(t, "sheet/check/"), _sheet(hands)).json()["rows"]
    assert rows[0]["ok"] is False and "knock limit" in rows[0]["error"]
    assert (rows[1]["cell"], rows[2]["cell"]) == ("k", "dd")
    assert rows[2]["error"] == "at most 98"


def test_a_typed_match_is_saved_as_its_hands_and_a_second_send_records_nothing(client, td):
    t = started(td, players=2)
    response = client.post(_url(t), _sheet(EIGHT_HANDS))
    assert response.status_code == 302
    match = _match(t)
    match.refresh_from_db()
    assert match.hands.count() == 8 and match.status == "finished"
    assert (match.games_won_p1, match.games_won_p2) == (3, 0)
    version = match.version
    again = client.post(_url(t), _sheet(EIGHT_HANDS))  # the same sheet sent twice
    assert again.status_code == 302
    match.refresh_from_db()
    assert match.version == version and match.hands.count() == 8
    page = client.get(_url(t, ""), follow=True).content.decode()
    assert "0 hands recorded" in page and "8 were recorded already" in page


def test_the_rest_of_a_match_is_typed_after_the_hands_already_in(client, td):
    t = started(td, players=2)
    assert client.post(_url(t), _sheet(EIGHT_HANDS[:3])).status_code == 302
    page = client.get(_url(t)).content.decode()
    assert 'name="first_hand" value="4"' in page
    assert client.post(_url(t), _sheet(EIGHT_HANDS[3:], first_hand=4)).status_code == 302
    assert _match(t).hands.count() == 8


def test_a_wrong_line_saves_nothing_and_marks_the_cell(client, td):
    t = started(td, players=2)
    hands = [*EIGHT_HANDS[:2], ("1", "4", "250")]
    response = client.post(_url(t), _sheet(hands))
    assert response.status_code == 400
    page = response.content.decode()
    assert "at most 98" in page and "needed unless" not in page
    assert 'name="dd-2" value="250"' in page and 'aria-invalid="true"' in page
    assert not _match(t).hands.exists()


def test_a_rule_refused_line_saves_nothing(client, td):
    t = started(td, players=2)
    response = client.post(_url(t), _sheet([EIGHT_HANDS[0], ("2", "11", "30")]))
    assert response.status_code == 400
    assert "knock limit" in response.content.decode()
    assert not _match(t).hands.exists()


def test_an_empty_line_between_hands_is_an_error(client, td):
    t = started(td, players=2)
    response = client.post(_url(t), _sheet([EIGHT_HANDS[0], ("", "", ""), EIGHT_HANDS[1]]))
    assert response.status_code == 400
    assert "empty line" in response.content.decode()


def test_a_sheet_that_differs_from_a_recorded_hand_is_a_conflict(client, td):
    t = started(td, players=2)
    client.post(_url(t), _sheet(EIGHT_HANDS[:2]))
    changed = [EIGHT_HANDS[0], ("2", "5", "30")]
    response = client.post(_url(t), _sheet(changed))
    assert response.status_code == 400
    assert "hand 2 is recorded otherwise already" in response.content.decode()
    assert _match(t).hands.count() == 2


def test_gin_ticked_without_a_deadwood_is_a_deadwood_of_0(client, td):
    t = started(td, players=2)
    data = _sheet([("2", "", "30")]) | {"g-0": "1"}
    assert client.post(_url(t), data).status_code == 302
    hand = _match(t).hands.get()
    assert (hand.kind, hand.knocker_deadwood) == ("gin", 0)


def test_the_sheet_is_for_the_tournaments_organisers(client, td):
    t = started(td, players=2)
    other = organiser("other")
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(_url(t)).status_code == 403
    assert stranger.post(_url(t, "sheet/check/"), _sheet(EIGHT_HANDS)).status_code == 403
    assert stranger.post(_url(t), _sheet(EIGHT_HANDS)).status_code == 403
    assert Client().get(_url(t)).status_code == 302  # signed out: to the login page
    assert not _match(t).hands.exists()


# -- a phone entry, settled from the sheet ----------------------------------------------------


@pytest.fixture
def phones(td):
    tournament = table_swiss(td, players=0)
    for name in ("Ann", "Ben"):
        p = player_with_login(name, name.lower())
        services.tournament_register(tournament_id=tournament.pk, player=p, by=td)
        services.tournament_check_in(tournament_id=tournament.pk, player=p, by=td)
    services.tournament_start(tournament_id=tournament.pk, by=td)
    pairing = Pairing.objects.get(round__tournament=tournament)
    phone = Client()
    phone.force_login(pairing.player1.user)
    phone.post(
        f"/tables/{pairing.match_id}/",
        {"action": "enter", "result": "p1", "knocker_deadwood": "3", "defender_deadwood": "25"},
    )
    entry = TableEntry.objects.get()
    return tournament, pairing, entry


def test_a_phone_entry_fills_its_line_and_saving_it_unchanged_accepts_it(client, phones):
    tournament, pairing, entry = phones
    page = client.get(_url(tournament)).content.decode()
    assert "waiting for confirmation" in page
    assert 'name="k-0" value="1"' in page and 'name="dd-0" value="25"' in page
    lines = [("1", "3", "25"), ("2", "0", "20")]
    assert client.post(_url(tournament), _sheet(lines)).status_code == 302
    entry.refresh_from_db()
    assert entry.status == TableEntry.Status.ACCEPTED
    match = Match.objects.get(pk=pairing.match_id)
    assert match.hands.count() == 2


def test_a_phone_entry_changed_on_the_sheet_is_amended(client, phones):
    tournament, pairing, entry = phones
    entry.status = TableEntry.Status.DISPUTED
    entry.save(update_fields=["status"])
    assert "entry contested" in client.get(_url(tournament)).content.decode()
    data = _sheet([("1", "3", "35")]) | {"note": "counted again"}
    assert client.post(_url(tournament), data).status_code == 302
    entry.refresh_from_db()
    assert entry.status == TableEntry.Status.AMENDED and "counted again" in entry.note
    hand = Match.objects.get(pk=pairing.match_id).hands.get()
    assert hand.defender_deadwood == 35


# -- the rules' deadwood limit everywhere -----------------------------------------------------


def test_the_deadwood_limit_is_the_rules(client, td):
    assert MAX_DEADWOOD == 98
    t = started(td, players=2)
    url = _url(t, "")
    page = client.get(url).content.decode()
    version = page.split('name="version" value="')[1].split('"')[0]
    response = client.post(
        url,
        {"version": version, "result": "p1", "knocker_deadwood": "5", "defender_deadwood": "250"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "at most 98" in page and "needed unless the hand was drawn" not in page
    ok = client.post(
        url,
        {"version": version, "result": "p1", "knocker_deadwood": "5", "defender_deadwood": "98"},
    )
    assert ok.status_code == 302


def test_the_api_refuses_a_deadwood_over_the_rules_limit(td):
    t = started(td, players=2)
    match = _match(t)
    api = Client()
    api.force_login(td)
    body = {"knocker": match.player1_id, "knocker_deadwood": 5, "defender_deadwood": 99}
    url = f"/api/matches/{match.pk}/hands/"
    response = api.post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert "defender_deadwood" in response.json()["error"]["fields"]
    assert (
        api.post(url, body | {"defender_deadwood": 98}, content_type="application/json").status_code
        == 201
    )
    ruling = {
        "type": "correct_hand",
        "reason": "counted again",
        "hand_number": 1,
        "knocker": match.player1_id,
        "knocker_deadwood": 5,
        "defender_deadwood": 150,
    }
    response = api.post(
        f"/api/matches/{match.pk}/rulings/", ruling, content_type="application/json"
    )
    assert response.status_code == 400
    assert "defender_deadwood" in response.json()["error"]["fields"]


@pytest.mark.parametrize(
    "data",
    [
        {"rows": "abc"},
        {"rows": "-5", "k-0": "1"},
        {"rows": "99999999999999999999", "k-0": "1", "kd-0": "2", "dd-0": "30"},
        {"rows": "1", "k-0": "1", "kd-0": "²", "dd-0": "30"},
        {"rows": "1", "k-0": "1", "kd-0": "2", "dd-0": "9" * 40},
        {"rows": "1", "k-0": "\x00", "kd-0": "2", "dd-0": "30"},
        {"rows": "1", "k-0": "١", "kd-0": "٢", "dd-0": "۳۰", "first_hand": "-1"},
        {"rows": "1", "k-0": "1", "kd-0": "2", "dd-0": "30", "first_hand": "9" * 30},
        {"rows": "1", "k-0": "1", "kd-0": "2", "dd-0": "30", "first_hand": "x"},
    ],
    ids=[
        "rows-not-a-number",
        "rows-negative",
        "rows-huge",
        "superscript-digit",
        "deadwood-huge",
        "nul-knocker",
        "persian-digits-bad-first-hand",
        "first-hand-huge",
        "first-hand-not-a-number",
    ],
)
def test_hostile_sheets_are_refused_clearly(client, td, data):
    """Whatever is posted: a page or JSON with the reason, never a 500, nothing written
    unless it is a right sheet."""
    t = started(td, players=2)
    check = client.post(_url(t, "sheet/check/"), data, HTTP_ACCEPT="application/json")
    if any("\x00" in value for value in data.values()):  # refused before the view (core.text)
        assert check.status_code == 400
        assert check.json()["error"]["reason"] == "control_characters"
    else:
        assert check.status_code == 200 and "rows" in check.json()
    save = client.post(_url(t), data)
    assert save.status_code in (302, 400)
    if save.status_code == 400:
        assert not _match(t).hands.exists()
