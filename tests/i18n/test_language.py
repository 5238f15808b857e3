"""Which language a page or an API answer is in (README, "Languages"): the person's choice
(account, cookie), else Accept-Language, else the tournament's, else English; prints and
the wall screen in the tournament's, with a switch; the API by Accept-Language, else the
account's choice, else English, named in Content-Language. Codes stay English."""

from __future__ import annotations

import pytest
from django.conf import settings

from players.models import Club, Player
from tests.web.desk.helpers import organiser, started
from tournaments.services import tournament_settings_change

pytestmark = pytest.mark.django_db


def _lang(response) -> str:
    return response["Content-Language"]


def test_english_without_any_choice(client):
    response = client.get("/")
    assert _lang(response) == "en"
    assert '<html lang="en" dir="ltr">' in response.content.decode()


@pytest.mark.parametrize(
    ("header", "expected", "text"),
    [
        ("ro-RO,ro;q=0.9,en;q=0.5", "ro", "Turnee de club"),
        ("de-AT,de;q=0.9", "de", "Vereinsturniere"),
        ("lt", "lt", "Klubo turnyrai"),
        ("fa-IR,fa;q=0.9", "fa", "تورنمنت‌های باشگاه"),
        ("ja,zh;q=0.8", "en", "Club tournaments"),
    ],
)
def test_the_browser_language_when_the_person_chose_none(client, header, expected, text):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    page = response.content.decode()
    assert _lang(response) == expected
    assert text in page
    assert f'dir="{"rtl" if expected == "fa" else "ltr"}"' in page


def test_the_switcher_keeps_a_visitors_choice_in_a_cookie(client):
    response = client.post("/language/", {"language": "lt", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "lt"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="de")
    assert _lang(response) == "lt"  # the choice wins over the browser's


def test_the_switcher_keeps_a_players_choice_on_the_account(client, django_user_model):
    user = django_user_model.objects.create_user(username="ana", password="pw-ana-12345")
    Player.objects.create(user=user, name="Ana")
    client.force_login(user)
    client.post("/language/", {"language": "ro", "next": "/"})
    assert Player.objects.get(user=user).language == "ro"
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]  # the account alone decides now
    assert _lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "ro"


def test_a_page_of_a_tournament_falls_back_to_its_clubs_language(client):
    td = organiser()
    club = Club.objects.create(name="Clubul Bucureşti", slug="buc", language="ro")
    club.organisers.add(td)  # the club's director makes the club's tournament
    t = started(td, players=2, club=club)
    client.force_login(td)
    desk = client.get(f"/desk/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ja")
    assert _lang(desk) == "ro"  # neither the person nor the browser chose
    assert _lang(client.get(f"/desk/{t.pk}/", HTTP_ACCEPT_LANGUAGE="de")) == "de"
    tournament_settings_change(tournament_id=t.pk, by=td, changes={"language": "lt"})
    # its own beats its club's
    assert _lang(client.get(f"/desk/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ja")) == "lt"


def test_prints_and_the_wall_screen_use_the_tournaments_language_with_a_switch(client):
    td = organiser()
    t = started(td, players=2)
    tournament_settings_change(tournament_id=t.pk, by=td, changes={"language": "fa"})
    client.force_login(td)
    url = f"/desk/{t.pk}/rounds/1/pairings/print/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert _lang(page) == "fa" and 'dir="rtl"' in page.content.decode()
    switched = client.get(url + "?lang=de", HTTP_ACCEPT_LANGUAGE="fa")
    assert _lang(switched) == "de" and "Paarungen nach Tisch" in switched.content.decode()
    wall = client.get(f"/tournaments/{t.pk}/wall/", HTTP_ACCEPT_LANGUAGE="en")
    assert _lang(wall) == "fa" and 'href="?lang=en"' in wall.content.decode()


def test_the_public_page_on_a_persons_device_follows_the_person(client):
    """Issue 37, item 5: the public tournament page took the wall screen's rule (the
    tournament's language) on everyone's phone; the wall keeps it at `/wall/`."""
    td = organiser()
    t = started(td, players=2)
    tournament_settings_change(tournament_id=t.pk, by=td, changes={"language": "fa"})
    page = client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="ro")
    assert _lang(page) == "ro"
    unchosen = client.get(f"/tournaments/{t.pk}/")  # neither the person nor the browser
    assert _lang(unchosen) == "fa"
    assert _lang(client.get(f"/tournaments/{t.pk}/wall/", HTTP_ACCEPT_LANGUAGE="ro")) == "fa"


def test_an_api_validation_error_in_german_keeps_its_code(organiser_client):
    body = {"format": "swiss", "rounds": 2}  # no name
    english = organiser_client.post("/api/tournaments/", body, format="json")
    german = organiser_client.post(
        "/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9"
    )
    assert english.status_code == german.status_code == 400
    en, de = english.json()["error"], german.json()["error"]
    assert en["code"] == de["code"] == "validation_error"
    assert en["message"] == "The request is not valid."
    assert de["message"] == "Die Anfrage ist ungültig."
    assert set(de["fields"]) == set(en["fields"]) == {"name"}
    assert de["fields"]["name"] != en["fields"]["name"]  # DRF's own words, in German
    assert german["Content-Language"] == "de" and english["Content-Language"] == "en"


def test_the_api_uses_the_accounts_choice_without_accept_language(api_client, alice):
    from players.services import auth_token_issue, player_language_set

    player_language_set(user=alice.user, language="lt")
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {auth_token_issue(user=alice.user).key}")
    response = api_client.get("/api/tournaments/999999/")
    assert response.status_code == 404
    assert response["Content-Language"] == "lt"
    assert response.json()["error"]["code"] == "not_found"
    with_header = api_client.get("/api/tournaments/999999/", HTTP_ACCEPT_LANGUAGE="fa")
    assert with_header["Content-Language"] == "fa"


def test_a_services_message_reaches_the_api_in_the_readers_language(organiser_client):
    de = organiser_client.get("/api/tournaments/999999/", HTTP_ACCEPT_LANGUAGE="de")
    en = organiser_client.get("/api/tournaments/999999/")
    assert de.status_code == en.status_code == 404
    assert de.json()["error"]["code"] == en.json()["error"]["code"] == "not_found"
    assert en.json()["error"]["message"] == "no such tournament"
    assert de.json()["error"]["message"] == "dieses Turnier gibt es nicht"
