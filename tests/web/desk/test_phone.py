"""The players' page of a table (the QR code's target): one player enters a hand on a
phone, the other confirms or disputes it on theirs; the desk shows the table as "to
confirm" or "disputed" and the organiser accepts or rejects; nobody else gets in."""

import pytest

from games.models import Match, TableEntry
from tests.web.desk.helpers import player_with_login, two_phones_at_a_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    return two_phones_at_a_table()


def _shown():
    """The open entry as the opponent's page names it (its id and version)."""
    entry = TableEntry.objects.get(status="pending")
    return {"entry": str(entry.pk), "entry_version": str(entry.version)}


def _seat_value(pairing, name):
    return "p1" if pairing.player1.name == name else "p2"


def test_entered_on_one_phone_confirmed_on_the_other(evening):
    tournament, pairing, phones, desk = evening
    url = f"/tables/{pairing.match_id}/"
    page = phones["Ann"].get(url).content.decode()
    assert "Enter hand 1" in page
    response = phones["Ann"].post(
        url,
        {
            "action": "enter",
            "result": _seat_value(pairing, "Ann"),
            "knocker_deadwood": "3",
            "defender_deadwood": "25",
        },
    )
    assert response.status_code == 302
    assert "Waiting for your opponent to confirm" in phones["Ann"].get(url).content.decode()
    round_page = desk.get(f"/desk/{tournament.pk}/rounds/1/").content.decode()
    assert "to confirm" in round_page
    page = phones["Ben"].get(url).content.decode()
    page = page.replace("<bdi>", "").replace("</bdi>", "")  # names sit in <bdi>
    assert "Confirm this hand?" in page and "Ann knocked, deadwood 3 / 25" in page
    shown = _shown()
    assert phones["Ben"].post(url, {"action": "confirm", **shown}).status_code == 302
    match = Match.objects.get(pk=pairing.match_id)
    assert match.hands.get().points == 22


def test_disputed_and_settled_on_the_desk(evening):
    tournament, pairing, phones, desk = evening
    url = f"/tables/{pairing.match_id}/"
    phones["Ben"].post(url, {"action": "enter", "result": "drawn"})
    shown = _shown()
    # A dispute needs a reason.
    assert phones["Ann"].post(url, {"action": "dispute", **shown}).status_code == 400
    response = phones["Ann"].post(
        url, {"action": "dispute", "dispute-reason": "I knocked", **shown}
    )
    assert response.status_code == 302
    table = f"/desk/{tournament.pk}/rounds/1/tables/1/"
    page = desk.get(table).content.decode()
    assert "Entry contested by the opponent" in page and "I knocked" in page
    # "entry contested", not "disputed": a dispute is a case (issue 24).
    round_page = desk.get(f"/desk/{tournament.pk}/rounds/1/").content.decode()
    assert ">entry contested<" in round_page and ">disputed" not in round_page
    entry = TableEntry.objects.get()
    response = desk.post(table + f"entries/{entry.pk}/", {"accept": "0", "note": "replay it"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == "rejected"
    assert not Match.objects.get(pk=pairing.match_id).hands.exists()


def test_a_bad_entry_is_a_form_error_on_the_phone(evening):
    _, pairing, phones, _ = evening
    url = f"/tables/{pairing.match_id}/"
    response = phones["Ann"].post(
        url,
        {
            "action": "enter",
            "result": _seat_value(pairing, "Ann"),
            "knocker_deadwood": "15",
            "defender_deadwood": "25",
        },
    )
    assert response.status_code == 400
    assert "exceeds the knock limit 10 (rule 6, knocking)" in response.content.decode()
    assert not TableEntry.objects.exists()


def test_only_the_two_players_use_the_page(evening, client):
    _, pairing, _, desk = evening
    url = f"/tables/{pairing.match_id}/"
    assert client.get(url).status_code == 302  # signed out: the login page
    stranger = player_with_login("Cy", "cy")
    client.force_login(stranger.user)
    assert client.get(url).status_code == 403
    assert client.post(url, {"action": "enter", "result": "drawn"}).status_code == 403
    assert desk.get(url)["Location"] == f"/desk/matches/{pairing.match_id}/"
    assert not TableEntry.objects.exists()


def test_a_knock_with_no_deadwood_is_a_gin_without_its_box(evening):
    """Issue 37, item 4: the knocker chosen and deadwood 0 is a gin (RULES 6), as the desk's
    sheet infers it; the phone refused it unless the Gin box was ticked."""
    tournament, pairing, phones, desk = evening
    url = f"/tables/{pairing.match_id}/"
    response = phones["Ann"].post(
        url,
        {
            "action": "enter",
            "result": _seat_value(pairing, "Ann"),
            "knocker_deadwood": "0",
            "defender_deadwood": "25",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert TableEntry.objects.get(status="pending").gin is True
    assert phones["Ben"].post(url, {"action": "confirm", **_shown()}).status_code == 302
    hand = Match.objects.get(pk=pairing.match_id).hands.get()
    assert hand.kind == "gin"
