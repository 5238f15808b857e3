"""Token authentication: the token, its user and the user's player in one query, loaded as
the ORM would load them, prepared on PostgreSQL or as plain SQL."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIRequestFactory

from core.authentication import ProfileTokenAuthentication
from players.models import Club, Player
from tests.helpers import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[True, False], ids=["prepared", "plain"])
def prepared(request, settings):
    settings.DB_PREPARED_STATEMENTS = request.param
    return request.param


def authenticate(key: str):
    request = APIRequestFactory().get("/api/ping/", HTTP_AUTHORIZATION=f"Token {key}")
    return ProfileTokenAuthentication().authenticate(request)


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_token_user_and_player_are_loaded_as_the_orm_loads_them(prepared, alice):
    alice.club = Club.objects.create(name="Riverside", slug="riverside")
    alice.language = "ro"
    alice.save()
    alice.user.groups.clear()
    token = Token.objects.create(user=alice.user)
    with CaptureQueriesContext(connection) as queries:
        user, auth = authenticate(token.key)
        player = user.player  # cached: no second query
    assert len([q for q in queries.captured_queries if not q["sql"].startswith("PREPARE")]) == 1
    assert fields(auth) == fields(Token.objects.get(key=token.key))
    assert fields(user) == fields(get_user_model().objects.get(pk=alice.user.pk))
    assert fields(player) == fields(Player.objects.get(pk=alice.pk))
    assert auth.user is user and player.user is user
    assert model_to_dict(player)["club"] == alice.club.pk


def test_a_user_without_player_is_known_to_have_none(prepared):
    staff = get_user_model().objects.create_user(username="staff", is_staff=True)
    token = Token.objects.create(user=staff)
    with CaptureQueriesContext(connection) as queries:
        user, _ = authenticate(token.key)
        with pytest.raises(Player.DoesNotExist):
            user.player  # noqa: B018 - the access is the test
    assert len([q for q in queries.captured_queries if not q["sql"].startswith("PREPARE")]) == 1
    assert user.is_staff


def test_unknown_token_and_inactive_user_are_refused(prepared, alice):
    with pytest.raises(AuthenticationFailed, match="Invalid token"):
        authenticate("0" * 40)
    token = Token.objects.create(user=alice.user)
    alice.user.is_active = False
    alice.user.save()
    with pytest.raises(AuthenticationFailed, match="inactive"):
        authenticate(token.key)
    response = token_client(alice.user).get("/api/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] in {"authentication_failed", "not_authenticated"}


def test_me_through_the_api(prepared, alice):
    response = token_client(alice.user).get("/api/me/")
    assert response.status_code == 200
    assert response.json()["id"] == alice.id


def test_an_access_token_is_one_query_too(prepared, alice):
    from players.services import auth_token_issue

    issued = auth_token_issue(user=alice.user)
    with CaptureQueriesContext(connection) as queries:
        user, auth = authenticate(issued.key)
        assert user.player == alice  # cached: no second query
    assert len([q for q in queries.captured_queries if not q["sql"].startswith("PREPARE")]) == 1
    assert auth.pk == issued.token.pk and issued.key.startswith("hg_")
    with pytest.raises(AuthenticationFailed):
        authenticate(issued.key[:-1] + ("0" if issued.key[-1] != "0" else "1"))
