"""Phone sign-in for walk-ins: the organiser gives a player without a password a one-time
code from the roster; the player signs in with it on the table slip's page, may set a
password, and enters hands. Wrong codes count as failed logins per address (axes)."""

import datetime as dt
import re

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone

from players.models import LoginCode, Player
from players.services import player_create
from tests.web.desk.helpers import organiser, player_with_login, started
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    """A started table tournament of two walk-ins (no logins), and its organiser's desk."""
    td = organiser()
    tournament = started(td, players=2)
    desk = Client()
    desk.force_login(td)
    pairing = Pairing.objects.get(round__tournament=tournament)
    return tournament, pairing, desk


def issue(desk, tournament, player):
    response = desk.post(f"/desk/{tournament.pk}/players/{player.pk}/login-code/")
    assert response.status_code == 200, response.content.decode()
    assert "no-store" in response["Cache-Control"]
    found = re.search(r'id="login-code"[^>]*>([A-Z0-9-]+)<', response.content.decode())
    assert found, "no code on the page"
    return found.group(1)


def code_login(client, code, next_url="", **extra):
    return client.post("/desk/login/", {"code": code, "next": next_url}, **extra)


def test_issued_on_the_roster_used_on_the_phone_to_enter_a_hand(evening):
    tournament, pairing, desk = evening
    roster = desk.get(f"/desk/{tournament.pk}/").content.decode()
    assert roster.count("Login code</button>") == 2
    code = issue(desk, tournament, pairing.player1)
    assert "code until" in desk.get(f"/desk/{tournament.pk}/").content.decode()
    table = f"/tables/{pairing.match_id}/"
    phone = Client()
    to_login = phone.get(table)
    assert to_login.status_code == 302 and to_login["Location"].startswith("/desk/login/")
    assert 'name="code"' in phone.get(to_login["Location"]).content.decode()
    response = code_login(phone, code, table)
    assert response.status_code == 302
    assert response["Location"].startswith("/desk/password/?next=")
    offer = phone.get(response["Location"])
    assert offer.status_code == 200
    player = Player.objects.select_related("user").get(pk=pairing.player1_id)
    assert player.user.username in offer.content.decode()
    assert f'href="{table}"' in offer.content.decode()
    page = phone.get(table)
    assert page.status_code == 200 and "Enter hand 1" in page.content.decode()
    # Spent: the same code does not sign in again.
    assert "not valid" in code_login(Client(), code).content.decode()


def test_the_player_may_set_a_password_and_sign_in_with_it_later(evening):
    tournament, pairing, desk = evening
    code = issue(desk, tournament, pairing.player2)
    phone = Client()
    offer = code_login(phone, code, "/desk/")["Location"]
    assert phone.post(offer, {"new_password1": "x", "new_password2": "x"}).status_code == 400
    body = {"new_password1": "walk-in-pass-1", "new_password2": "walk-in-pass-1", "next": "/x/"}
    response = phone.post(offer, body)
    assert response.status_code == 302 and response["Location"] == "/x/"
    # Still signed in (the session follows the new password); no second password change.
    assert phone.get(offer).status_code == 403
    username = Player.objects.get(pk=pairing.player2_id).user.username
    again = Client().post("/desk/login/", {"username": username, "password": "walk-in-pass-1"})
    assert again.status_code == 302
    # Once a password is set the roster offers no code any more.
    roster = desk.get(f"/desk/{tournament.pk}/").content.decode()
    assert roster.count("Login code</button>") == 1


def test_the_password_page_is_only_right_after_a_code(evening):
    player = player_with_login("Pat", "pat")
    client = Client()
    client.force_login(player.user)
    assert client.get("/desk/password/").status_code == 403
    assert Client().get("/desk/password/").status_code == 302


def test_a_wrong_code_is_refused(evening):
    tournament, pairing, desk = evening
    issue(desk, tournament, pairing.player1)
    phone = Client()
    response = code_login(phone, "ABCD-EFGH", f"/tables/{pairing.match_id}/")
    assert response.status_code == 200 and "not valid" in response.content.decode()
    assert phone.get(f"/tables/{pairing.match_id}/").status_code == 302  # still signed out


def test_an_expired_code_is_refused(evening):
    tournament, pairing, desk = evening
    code = issue(desk, tournament, pairing.player1)
    LoginCode.objects.update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    response = code_login(Client(), code)
    assert response.status_code == 200 and "not valid" in response.content.decode()


def test_a_new_code_replaces_the_one_before(evening):
    tournament, pairing, desk = evening
    first = issue(desk, tournament, pairing.player1)
    second = issue(desk, tournament, pairing.player1)
    assert code_login(Client(), first).status_code == 200
    assert code_login(Client(), second).status_code == 302


def test_only_the_tournaments_organisers_issue_codes_for_its_players(evening):
    tournament, pairing, desk = evening
    stranger = Client()
    stranger.force_login(organiser("other-td"))
    url = f"/desk/{tournament.pk}/players/{pairing.player1_id}/login-code/"
    assert stranger.post(url).status_code == 403
    player = Client()
    player.force_login(player_with_login("Pat", "pat").user)
    assert player.post(url).status_code == 403
    assert Client().post(url).status_code == 302  # to the login page
    outsider = player_create(name="Not Entered")
    assert desk.post(f"/desk/{tournament.pk}/players/{outsider.pk}/login-code/").status_code == 404
    assert desk.get(url).status_code == 405
    assert not LoginCode.objects.exists()


def test_no_code_for_a_player_with_a_password(evening):
    tournament, _, desk = evening
    pat = player_with_login("Pat", "pat")
    services.tournament_register(tournament_id=tournament.pk, player=pat, by=tournament.created_by)
    response = desk.post(f"/desk/{tournament.pk}/players/{pat.pk}/login-code/")
    assert response.status_code == 400 and "signs in with a password" in response.content.decode()
    assert not LoginCode.objects.exists()


def test_repeated_wrong_codes_lock_the_address_out(settings, evening):
    settings.AXES_FAILURE_LIMIT = 3
    tournament, pairing, desk = evening
    code = issue(desk, tournament, pairing.player1)
    phone = Client(REMOTE_ADDR="198.51.100.30")
    for wrong in ("AAAA-AAAA", "BBBB-BBBB"):
        assert code_login(phone, wrong).status_code == 200
    assert code_login(phone, "CCCC-CCCC").status_code == 429
    # Locked out: even the right code waits out the cool-off (and stays usable).
    assert code_login(phone, code).status_code == 429
    assert LoginCode.objects.get().used_at is None
    # Another address is not locked out.
    assert code_login(Client(REMOTE_ADDR="198.51.100.31"), code).status_code == 302
    # The failures kept by axes do not hold the codes typed.
    kept = " ".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "AAAA" not in kept and "BBBB" not in kept and "CCCC" not in kept


def test_the_password_login_still_works_and_counts(settings, evening):
    settings.AXES_FAILURE_LIMIT = 3
    organiser("td2")
    client = Client()
    assert client.post("/desk/login/", {"username": "td2", "password": "x"}).status_code == 200
    ok = client.post("/desk/login/", {"username": "td2", "password": "pw-desk-123"})
    assert ok.status_code == 302
