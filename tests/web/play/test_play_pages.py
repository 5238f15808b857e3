"""The players' pages without a browser: the play page's contract (its hooks, only the
player's own view on it), the lobby, practice (page and API), my evening."""

import json

import pytest

from games.models import Match
from games.selectors import match_state_at
from tests.web.play.helpers import PASSWORD, embedded_view, online_match, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair():
    return players("Ada", "Ben")


def _login(client, name):
    assert client.login(username=name.lower(), password=PASSWORD)
    return client


def test_the_play_page_carries_its_hooks_and_only_my_cards(client, pair):
    ada, ben = pair
    match = online_match(ada, ben)
    html = _login(client, "Ada").get(f"/play/{match.pk}/").content.decode()
    assert f'data-match="{match.pk}"' in html and f'data-version="{match.version}"' in html
    assert 'data-phase="waiting"' in html  # Ada deals: Ben has the first turn
    other = _login(client.__class__(), "Ben").get(f"/play/{match.pk}/").content.decode()
    assert 'data-phase="first-turn"' in other
    view = json.loads(embedded_view(html))
    state, _ = match_state_at(match=match)
    seat = match.seat_of(ada.pk)
    assert view["your_cards"] == list(state.hands[seat])
    for card in state.hands[1 - seat]:
        assert f'"{card}"' not in embedded_view(html)
    for card in state.stock:
        assert f'"{card}"' not in embedded_view(html)
    assert "play/play.js" in html and "play-strings" in html


def test_a_stranger_is_sent_to_the_match_page_and_signed_out_to_the_login(client, pair):
    match = online_match(*pair)
    assert client.get(f"/play/{match.pk}/").url.startswith("/desk/login/")
    players("Cleo")
    response = _login(client, "Cleo").get(f"/play/{match.pk}/")
    assert response.status_code == 302 and response.url == f"/matches/{match.pk}/"


def test_the_lobby_lists_my_matches_and_starts_practice(
    client, pair, django_capture_on_commit_callbacks
):
    ada, ben = pair
    match = online_match(ada, ben)
    page = _login(client, "Ada").get("/play/").content.decode()
    assert f'data-play-link="{match.pk}"' in page and 'data-action="practice"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/play/practice/")
    practice = Match.objects.get(practice=True)
    assert response.status_code == 302 and response.url == f"/play/{practice.pk}/"
    assert practice.player1 == ada and practice.player2.is_bot and practice.label == "Practice"
    state, _ = match_state_at(match=practice)
    assert state.turn == 0  # the bot moved at once if it was its turn (an eager job)


def test_the_practice_api_starts_a_match_for_any_player(
    api_client, pair, django_capture_on_commit_callbacks
):
    ada, _ = pair
    api_client.force_authenticate(ada.user)
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client.post(
            "/api/practice/", {"ruleset": {"game_target": 25, "games": 1}}, format="json"
        )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["practice"] is True and body["play_url"] == f"/play/{body['id']}/"
    assert body["ruleset"]["game_target"] == 25
    assert Match.objects.get(pk=body["id"]).practice
    listed = api_client.get("/api/matches/?mine=true").json()["results"]
    assert [m["practice"] for m in listed] == [True]  # marked in the match list too


def test_the_match_view_says_whether_the_match_is_practice(
    api_client, pair, django_capture_on_commit_callbacks
):
    """`practice` is in every match view (GET, an action's answer, the stream's `view`),
    false for an ordinary match; the schema describes it as a required boolean."""
    from games.selectors import match_view_for
    from games.services.practice import practice_start

    ada, ben = pair
    friendly = online_match(ada, ben)
    with django_capture_on_commit_callbacks(execute=True):
        practice = practice_start(player=ada, seed="view-field")
    api_client.force_authenticate(ada.user)
    assert api_client.get(f"/api/matches/{friendly.pk}/").json()["practice"] is False
    body = api_client.get(f"/api/matches/{practice.pk}/").json()
    assert body["practice"] is True
    assert match_view_for(match=practice, user=ada.user)["practice"] is True
    schema = api_client.get("/api/schema/?format=json").json()
    view = schema["components"]["schemas"]["MatchView"]
    assert view["properties"]["practice"]["type"] == "boolean"
    assert "practice" in view["required"]
    started = schema["components"]["schemas"]["PracticeMatchView"]
    assert {"practice", "play_url"} <= set(started["required"])


def test_practice_needs_a_player(api_client):
    from django.contrib.auth import get_user_model

    api_client.force_authenticate(get_user_model().objects.create_user("nobody", password="x"))
    response = api_client.post("/api/practice/", {}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert not Match.objects.exists()


def test_practice_refuses_signed_out_callers(api_client):
    response = api_client.post("/api/practice/", {}, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_the_bot_plays_its_turns_until_the_player_is_to_move(
    pair, django_capture_on_commit_callbacks
):
    from games.services import match_act
    from games.services.practice import practice_start

    ada, _ = pair
    with django_capture_on_commit_callbacks(execute=True):
        match = practice_start(player=ada, ruleset={"game_target": 25, "games": 1}, seed="p1")
    for _ in range(400):
        state, version = match_state_at(match=match)
        if state.status != "in_progress":
            break
        assert state.turn == 0, "the bot left its turn unplayed"
        from games.engine.bot import choose_action

        with django_capture_on_commit_callbacks(execute=True):
            match_act(
                match_id=match.pk,
                player=ada,
                action=choose_action(state, 0),
                expected_version=version,
            )
    match.refresh_from_db()
    assert match.status == "finished" and match.practice


def test_a_second_delivery_of_the_bot_job_does_nothing(pair, django_capture_on_commit_callbacks):
    from games.services.practice import practice_bot_play, practice_start

    ada, _ = pair
    with django_capture_on_commit_callbacks(execute=True):
        match = practice_start(player=ada, seed="p2")
    _, version = match_state_at(match=match)
    assert practice_bot_play(match_id=match.pk, version=version - 1) == 0
    assert match_state_at(match=match)[1] == version


def test_an_online_tournament_match_shows_its_place_and_turn_clock(client):
    import datetime as dt

    from tests.web.desk.helpers import organiser
    from tournaments import services
    from tournaments.models import Pairing

    td = organiser()
    t = services.tournament_create(
        name="Online Night", format="swiss", created_by=td, rounds=1,
        turn_time=dt.timedelta(minutes=2), time_zone="Europe/Berlin",
    )  # fmt: skip
    ada, ben = players("Ada", "Ben")
    for p in (ada, ben):
        services.tournament_register(tournament_id=t.pk, player=p, by=td)
        services.tournament_check_in(tournament_id=t.pk, player=p, by=td)
    services.tournament_start(tournament_id=t.pk, by=td)
    match = Pairing.objects.get(round__tournament=t).match
    _login(client, "Ada")
    page = client.get(f"/play/{match.pk}/").content.decode()
    assert (
        'data-turn-seconds="120"' in page and "<bdi>Online Night</bdi> · round 1, table 1" in page
    )
    evening = client.get("/me/").content.decode()
    assert f'data-play-link="{match.pk}"' in evening  # online: my evening links the play page
    lobby = client.get("/play/").content.decode()
    assert f'data-play-link="{match.pk}"' in lobby and "Online Night" in lobby
