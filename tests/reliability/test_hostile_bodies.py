"""Issue 14 items 4, 5 and 7: hostile bodies get a 4xx in the API's error shape, never a
500 or an HTML page: JSON nested thousands deep, a lone surrogate, a body past the size
limit, a form with too many fields; and a corpus of them against every endpoint."""

from __future__ import annotations

import json

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from core.renderers import FastJSONRenderer
from tests.helpers import token_client

pytestmark = pytest.mark.django_db


def post_raw(client: APIClient, path: str, body: bytes | str, content_type="application/json"):
    return client.generic("POST", path, body, content_type=content_type)


def error_code(response) -> str:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["error"]["code"]


@pytest.fixture
def match_id(organiser_client, alice, bob) -> str:
    response = organiser_client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201
    return response.json()["id"]


@pytest.mark.parametrize("depth", [1000, 3000, 50_000])
def test_deeply_nested_json_to_the_anonymous_token_endpoint_is_a_parse_error(depth):
    response = post_raw(APIClient(), "/api/auth/token/", "[" * depth + "]" * depth)
    assert response.status_code == 400
    assert error_code(response) == "parse_error"


def test_nesting_past_the_limit_but_within_python_s_is_a_parse_error_too():
    body = {"username": "x", "password": json.loads("[" * 100 + "]" * 100)}
    response = post_raw(APIClient(), "/api/auth/token/", json.dumps(body))
    assert (response.status_code, error_code(response)) == (400, "parse_error")


def test_a_knock_with_melds_nested_deep_is_a_parse_error(match_id, bob):
    melds = "[" * 5000 + "]" * 5000
    body = '{"type": "knock", "card": "KD", "melds": ' + melds + "}"
    response = post_raw(token_client(bob.user), f"/api/matches/{match_id}/actions/", body)
    assert (response.status_code, error_code(response)) == (400, "parse_error")


def test_a_ruleset_nested_deep_is_a_parse_error(organiser_client, alice, bob):
    ruleset = '{"knock_limit": ' + "[" * 3000 + "]" * 3000 + "}"
    body = f'{{"player1": {alice.id}, "player2": {bob.id}, "ruleset": {ruleset}}}'
    response = post_raw(organiser_client, "/api/matches/", body)
    assert (response.status_code, error_code(response)) == (400, "parse_error")


def test_a_lone_surrogate_in_an_action_is_a_4xx(match_id, bob):
    body = '{"type": "a\\ud800b"}'
    response = post_raw(token_client(bob.user), f"/api/matches/{match_id}/actions/", body)
    assert response.status_code == 400
    assert error_code(response) == "parse_error"


def test_a_lone_surrogate_in_a_ruleset_key_is_a_4xx(organiser_client, alice, bob):
    body = f'{{"player1": {alice.id}, "player2": {bob.id}, "ruleset": {{"k\\udc00": 1}}}}'
    response = post_raw(organiser_client, "/api/matches/", body)
    assert (response.status_code, error_code(response)) == (400, "parse_error")


def test_the_renderer_writes_a_lone_surrogate_as_an_escape():
    out = FastJSONRenderer().render({"error": {"message": "bad choice a\ud800b"}})
    assert b"\\ud800" in out
    assert json.loads(out) == {"error": {"message": "bad choice a\ud800b"}}


def test_a_json_body_past_the_size_limit_is_413_json(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"username": "x" * 5000, "password": "y"})
    response = post_raw(APIClient(), "/api/auth/token/", body)
    assert (response.status_code, error_code(response)) == (413, "request_too_large")


def test_a_form_body_is_415_before_it_is_read(settings, organiser_client):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = "name=" + "x" * 5000
    response = post_raw(
        organiser_client, "/api/players/", body, "application/x-www-form-urlencoded"
    )
    assert (response.status_code, error_code(response)) == (415, "unsupported_media_type")


def test_a_form_with_many_fields_is_415(settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    body = "&".join(f"f{i}=1" for i in range(50))
    response = post_raw(APIClient(), "/api/auth/token/", body, "application/x-www-form-urlencoded")
    assert (response.status_code, error_code(response)) == (415, "unsupported_media_type")


def test_a_multipart_body_is_415(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = APIClient().post(
        "/api/auth/token/", {"username": "x" * 5000, "password": "y"}, format="multipart"
    )
    assert (response.status_code, error_code(response)) == (415, "unsupported_media_type")


class _Unreadable:
    """A WSGI input that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def _wsgi_post(path: str, content_type: str, length: int) -> tuple[int, dict]:
    from config.wsgi import application

    environ = {
        "REQUEST_METHOD": "POST", "PATH_INFO": path, "SERVER_NAME": "testserver",
        "SERVER_PORT": "80", "wsgi.url_scheme": "http", "wsgi.input": _Unreadable(),
        "CONTENT_TYPE": content_type, "CONTENT_LENGTH": str(length), "REMOTE_ADDR": "10.0.0.9",
    }  # fmt: skip
    seen = {}

    def start_response(status, headers, exc_info=None):
        seen["status"] = int(status.split()[0])

    body = b"".join(application(environ, start_response))
    return seen["status"], json.loads(body)


@pytest.mark.parametrize(
    "content_type",
    ["multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "text/plain", ""],
)
def test_an_8_mb_upload_that_is_not_json_is_415_unread(content_type):
    status, body = _wsgi_post("/api/auth/token/", content_type, 8 * 1024 * 1024)
    assert (status, body["error"]["code"]) == (415, "unsupported_media_type")


def test_an_8_mb_json_upload_is_413_unread():
    status, body = _wsgi_post("/api/auth/token/", "application/json", 8 * 1024 * 1024)
    assert (status, body["error"]["code"]) == (413, "request_too_large")


def test_a_form_encoded_action_is_not_played(match_id, bob):
    response = post_raw(
        token_client(bob.user), f"/api/matches/{match_id}/actions/", "type=pass",
        "application/x-www-form-urlencoded",
    )  # fmt: skip
    assert (response.status_code, error_code(response)) == (415, "unsupported_media_type")


# --- a corpus against every endpoint -------------------------------------------------------

HOSTILE = [
    "[" * 2000,
    "[" * 2000 + "]" * 2000,
    '{"a": ' * 2000 + "1" + "}" * 2000,
    '"\\ud800"',
    '{"type": "\\udfff", "card": "\\ud83d"}',
    "{",
    "null",
    "[]",
    '"x"',
    "1e999999",
    "NaN",
    '{"type": "draw", "source": {"$gt": ""}}',
    '{"version": 1e308, "expected_version": -99999999999999999999999}',
    '{"player1": 1, "player2": 1, "decks": [[' + '"AS",' * 5000 + '"AS"]]}',
]


def endpoints(match_id: str) -> list[str]:
    return [
        "/api/auth/token/",
        "/api/players/",
        "/api/matches/",
        f"/api/matches/{match_id}/actions/",
        f"/api/matches/{match_id}/hands/",
        f"/api/matches/{match_id}/rulings/",
    ]


def test_no_hostile_body_gets_a_5xx_anywhere(match_id, organiser_client, bob):
    assert not _failures(endpoints(match_id), organiser_client, bob)


def test_no_hostile_body_gets_a_5xx_from_tournaments(organiser_client, bob):
    assert not _failures(["/api/tournaments/"], organiser_client, bob)


def _failures(paths: list[str], organiser_client, bob) -> list:
    clients = [APIClient(), organiser_client, token_client(bob.user)]
    failures = []
    for path in paths:
        for body in HOSTILE:
            for client in clients:
                try:
                    response = post_raw(client, path, body)
                except Exception as exc:  # noqa: BLE001 - the test client re-raises a 500's cause
                    failures.append((path, body[:40], repr(exc)[:200]))
                    continue
                if response.status_code >= 500:
                    failures.append((path, body[:40], response.content[:200]))
                elif response.status_code >= 400:
                    assert error_code(response), (path, body[:40])
    return failures


# --- every endpoint, from the URL resolver: hostile query strings and bodies ---------------

HOSTILE_VALUES = [
    "99999999999999999999999999999999",
    "-1",
    "-99999999999999999999",
    "1e309",
    "NaN",
    "0x10",
    "%00",
    "%F0%9F%82%A1",  # a playing card, percent-encoded UTF-8
    "%ED%A0%80",  # a lone surrogate, percent-encoded
    "%FF%FE",  # not UTF-8
    "\u00e9\u202e",
    "x" * 20_000,
]
QUERY_KEYS = ["version", "after", "limit", "offset", "status", "mode", "player", "mine", "round",
              "format", "username", "hand", "since", "q"]  # fmt: skip


def hostile_queries() -> list[str]:
    """Each hostile value in every key at once, and the commonest keys alone (so that one
    key refused first does not hide another)."""
    queries = ["&".join(f"{key}={value}" for key in QUERY_KEYS) for value in HOSTILE_VALUES]
    alone = ("version", "after", "limit", "offset", "player")
    queries += [f"{key}={HOSTILE_VALUES[i]}" for key in alone for i in (0, 2, 8, 11)]
    queries += ["limit=1&limit=2&limit=x", "version[]=1&version[]=2", "player[$gt]=", "a=" * 5000]
    return queries


def every_endpoint(match_id: str, tournament_id: int, player_id: int) -> list[tuple[str, str]]:
    from tests.reliability.helpers import api_routes, fill

    ids = {"match_id": match_id, "tournament_id": tournament_id, "pk": player_id, "number": 1,
           "dispute": 1, "webhook_id": 1, "delivery_id": 1, "token_id": 1, "club_id": 1,
           "season_id": 1, "player_id": player_id, "event_id": 1,
           "federation_id": 1, "month": "2026-11",
           "token": "not-a-secret"}  # fmt: skip
    return [(route, fill(route, ids).split("?")[0]) for route in api_routes()]


@pytest.fixture
def tournament_match(organiser, make_player):
    from tests.reliability.helpers import tournament_with_a_match

    pia, quinn = make_player("Pia"), make_player("Quinn")
    tournament, match_id = tournament_with_a_match(
        organiser=organiser, players=[pia, quinn], is_public=True
    )
    return tournament.pk, match_id, pia


def test_no_hostile_query_gets_a_5xx_from_any_endpoint(tournament_match, organiser_client):
    tournament_id, match_id, pia = tournament_match
    clients = [organiser_client]  # the tournament's organiser gets past every access check
    failures = []
    for route, path in every_endpoint(match_id, tournament_id, pia.pk):
        if route.endswith("/stream/"):
            continue  # served by the live (ASGI) service: a WSGI server answers 503
        for query in hostile_queries():
            for client in clients:
                try:
                    response = client.get(f"{path}?{query}")
                except Exception as exc:  # noqa: BLE001 - the test client re-raises a 500's cause
                    failures.append((path, query[:40], repr(exc)[:200]))
                    continue
                if response.status_code >= 500:
                    failures.append((path, query[:40], response.status_code))
    assert not failures, failures[:20]


WRITES = ("POST", "PUT", "PATCH", "DELETE")


def write_methods(path: str) -> list[str]:
    """The write methods the endpoint's view takes, else PUT (to be refused with a 405)."""
    view = getattr(resolve(path).func, "cls", None)
    taken = [m for m in WRITES if view is not None and hasattr(view, m.lower())]
    return taken or ["PUT"]


def test_no_hostile_body_gets_a_5xx_from_any_write_endpoint(tournament_match, organiser_client):
    """Every endpoint, each write method it takes (others must answer 405, not a 5xx)."""
    tournament_id, match_id, pia = tournament_match
    clients = [organiser_client, token_client(pia.user)]
    failures = []
    for route, path in every_endpoint(match_id, tournament_id, pia.pk):
        if route.startswith("api-auth/") or route.endswith("/stream/"):
            continue  # DRF's login form (HTML, CSRF); the live service
        for method in write_methods(path):
            for body in HOSTILE if method != "PUT" or len(write_methods(path)) > 1 else HOSTILE[:2]:
                for client in clients:
                    try:
                        response = client.generic(method, path, body,
                                                  content_type="application/json")  # fmt: skip
                    except Exception as exc:  # noqa: BLE001
                        failures.append((method, path, body[:40], repr(exc)[:200]))
                        continue
                    if response.status_code >= 500:
                        failures.append((method, path, body[:40], response.content[:200]))
                    elif response.status_code >= 400 and not route.startswith(
                        ("api/schema", "api/docs", "api/redoc")
                    ):
                        assert error_code(response), (method, path, body[:40])
    assert not failures, failures[:20]
