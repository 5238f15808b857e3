"""My evening (/me/) without a browser: the current table, the running scoresheet, the
place in the standings, finished matches with replays, what awaits the player; the login
lands a player there and an organiser on the desk."""

import pytest

from games.hand_entries import HandEntry
from games.services.table_entries import table_entry_decide, table_entry_submit
from tests.web.desk.helpers import organiser, started_with_logins
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def td():
    return organiser()


def _login(client, username):
    assert client.login(username=username, password="pw-desk-123")
    return client


def test_my_evening_shows_my_table_and_follows_the_tournament(client, td):
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    page = _login(client, "anna").get("/me/").content.decode()
    assert "Round 1: table 1, against <bdi>Boris</bdi>" in page
    assert f'data-table-link="{match.pk}"' in page  # a table tournament: the entry page
    assert f'data-stream="/api/tournaments/{t.pk}/stream/?after={t.version}"' in page
    assert f'data-stream="/api/matches/{match.pk}/stream/?after={match.version}"' in page
    assert "data-running-sheet" in page and "data-my-place" in page
    part = client.get("/me/", **HX).content.decode()
    assert part.startswith('<div id="evening-live"') and "<html" not in part


def test_what_awaits_me_an_entry_to_confirm_and_a_rejected_one(client, td):
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    anna, boris = match.player1, match.player2
    if anna.name != "Anna":
        anna, boris = boris, anna
    entry = table_entry_submit(
        match_id=match.pk,
        player=anna,
        hand=HandEntry(knocker=anna.pk, knocker_deadwood=4, defender_deadwood=20),
    )
    page = _login(client, "boris").get("/me/").content.decode()
    assert 'data-await="confirm"' in page and "<bdi>Anna</bdi> entered a hand" in page
    table_entry_decide(entry_id=entry.pk, by=td, accept=False, note="the deadwood was 14")
    for name in ("boris", "anna"):
        page = _login(client.__class__(), name).get("/me/").content.decode()
        assert 'data-await="rejected"' in page and "the deadwood was 14" in page


def test_the_login_lands_a_player_on_my_evening_and_an_organiser_on_the_desk(client, td):
    started_with_logins(td)
    response = client.post("/desk/login/", {"username": "anna", "password": "pw-desk-123"})
    assert response.status_code == 302 and response.url == "/me/"
    response = client.__class__().post(
        "/desk/login/", {"username": "td", "password": "pw-desk-123"}
    )
    assert response.status_code == 302 and response.url == "/desk/"


def test_a_login_without_a_player_sees_an_empty_evening(client, td):
    page = _login(client, "td").get("/me/").content.decode()
    assert "This login has no player" in page and "To the desk" in page


def test_a_disputes_answer_awaits_me(client, td):
    from games.services.disputes import match_dispute_open, match_dispute_resolve

    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    anna = match.player1 if match.player1.name == "Anna" else match.player2
    match_dispute_open(match_id=match.pk, player=anna, statement="the clock was wrong")
    page = _login(client, "anna").get("/me/").content.decode()
    assert 'data-await="dispute"' not in page  # still open: nothing to read yet
    match_dispute_resolve(
        match_id=match.pk, by=td, dispute=1, outcome="dismissed", reason="the clock was right"
    )
    page = client.get("/me/").content.decode()
    assert 'data-await="dispute"' in page and "the clock was right" in page


@pytest.mark.parametrize(("language", "live"), [("ro", "În direct"), ("fa", "زنده")])
def test_the_live_badge_speaks_the_page_language(client, td, language, live):
    """Issue 37, item 5: /me/ and the phone's table page gave live.js no words, so its badge
    said "Live" in English on Romanian and Persian pages."""
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    _login(client, "anna")
    for url in ("/me/", f"/tables/{match.pk}/"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'data-t-live="{live}"' in page, url


def test_a_tournament_match_label_is_in_the_page_language(client, td):
    """Issue 37, item 5: a table's label read "Swiss R1 T1" in English on every page."""
    t = started_with_logins(td)
    match = Pairing.objects.get(round__tournament=t, table=1).match
    _login(client, "anna")
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Schweizer System, Runde 1, Tisch 1" in page and "Swiss R1 T1" not in page
    # The table's own page says its round and table once, in words (not the label again).
    table = client.get(f"/tables/{match.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Runde 1, Tisch 1" in table and "Swiss R1 T1" not in table
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    assert "Sistem elvețian, runda 1, masa 1" in page
