"""Issue 21: a client generated from the served schema works at once. openapi-python-client
(a dev extra) generates a typed Python client from `/api/schema/` into a temporary
directory; with no hand edit, two players log in through it and play a match to its end
(each sends one of their own `legal_actions`), an organiser sets it up, and the answers
parse into the generated types: the view, the events as their typed variants (the
`oneOf` on `type`), the errors with their enums. Calls go to the app in process (WSGI)."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from config.wsgi import application
from tests.helpers import openapi_validator

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db,
    pytest.mark.usefixtures("wsgi_in_test_transaction"),
]

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "hg_client"
BASE_URL = "http://testserver"


@pytest.fixture
def client_package(alice_client, tmp_path, monkeypatch):
    if not GENERATOR.exists() and shutil.which("openapi-python-client") is None:
        pytest.skip("openapi-python-client is not installed (pip install -e '.[dev]')")
    schema = alice_client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema.json()))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"package_name_override": PACKAGE, "post_hooks": []}))
    generator = str(GENERATOR) if GENERATOR.exists() else "openapi-python-client"
    done = subprocess.run(  # noqa: S603 - our own tool, our own arguments
        [generator, "generate", "--path", str(path), "--output-path",
         str(tmp_path / PACKAGE), "--meta", "none", "--config", str(config)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "warning" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        monkeypatch.delitem(sys.modules, name)
    return importlib.import_module(PACKAGE)


def schema_of() -> dict:
    from rest_framework.test import APIClient

    return APIClient().get("/api/schema/?format=json").json()


def _module(name: str):
    return importlib.import_module(f"{PACKAGE}.{name}")


def _transport() -> dict:
    return {"transport": httpx.WSGITransport(app=application)}


def _login(username: str, password: str):
    client = _module("client")
    login = _module("api.auth.auth_token_create")
    body = _module("models").TokenInputRequest(username=username, password=password)
    answer = login.sync_detailed(
        client=client.Client(base_url=BASE_URL, httpx_args=_transport()), body=body
    )
    assert answer.status_code == 200, answer.content
    return client.AuthenticatedClient(
        base_url=BASE_URL, token=answer.parsed.token, prefix="Token", httpx_args=_transport()
    )


def _choose(view):
    """A simple player: knock as soon as one may, else pass, else draw from the stock,
    else the first discard (never resign)."""
    by_type = {}
    for action in view.legal_actions:
        by_type.setdefault(action.type_.value, []).append(action)
    for kind in ("knock", "pass"):
        if kind in by_type:
            return by_type[kind][0]
    draws = [a for a in by_type.get("draw", []) if a.source.value == "stock"]
    return (draws or by_type.get("discard") or by_type["draw"])[0]


def test_a_generated_client_plays_a_whole_match(client_package, organiser, alice, bob):
    models = _module("models")
    create = _module("api.matches.matches_create")
    retrieve = _module("api.matches.matches_retrieve")
    act = _module("api.matches.matches_actions_create")
    events = _module("api.matches.matches_events_retrieve")
    me = _module("api.me.me_retrieve")
    logout = _module("api.auth.auth_token_destroy")
    # The fixtures' people log in with their passwords, as a client's users would.
    org = _login(organiser.username, "secret-pass-1")
    players = {alice.id: _login(alice.user.username, "secret-pass-1"),
               bob.id: _login(bob.user.username, "secret-pass-1")}  # fmt: skip
    assert me.sync(client=players[alice.id]).id == alice.id

    # A short match (one game to 10 points), dealt from a seed: the same deal every run.
    body = models.MatchCreateInputRequest(
        player1=alice.id, player2=bob.id, seed="generated-client",
        ruleset=models.RulesetRequest(games=models.GamesEnum.VALUE_1, game_target=10),
    )  # fmt: skip
    created = create.sync_detailed(client=org, body=body)
    assert created.status_code == 201, created.content
    match_id = created.parsed.id

    moves = 0
    view = retrieve.sync(match_id, client=players[alice.id])
    while view.status.value == "in_progress":
        assert moves < 2000, "the match does not end"
        mover = players[view.turn]
        mine = retrieve.sync(match_id, client=mover)
        body = models.ActionInputRequest.from_dict(_choose(mine).to_dict())
        answer = act.sync_detailed(match_id, client=mover, body=body)
        assert answer.status_code == 201, answer.content
        assert isinstance(answer.parsed, models.MatchView)
        view, moves = answer.parsed, moves + 1
    assert view.winner in (alice.id, bob.id) and view.finish_reason.value == "games"
    assert view.phase.value == "finished"
    # The view's records are typed: each hand's kind, knock and defence as the schema says.
    raw = retrieve.sync_detailed(match_id, client=players[alice.id])
    finished = json.loads(raw.content)
    assert any(h.get("knock") for h in finished["hands"]), "no knock to check"
    validator = openapi_validator(schema_of(), "MatchView")
    validator.validate(finished)
    assert not validator.is_valid({**finished, "hands": [{**finished["hands"][0], "kind": "won"}]})

    # Every event parses into its typed variant; the deal and the scoring are there.
    page = events.sync(match_id, client=players[alice.id], limit=500)
    kinds = [type(e).__name__ for e in page.results]
    assert kinds[0] == "MatchStartedEvent" and kinds[-1] == "MatchFinishedEvent"
    assert {"HandDealtEvent", "CardDiscardedEvent", "HandScoredEvent"} <= set(kinds)
    assert all(e.type_.value + "Event" == type(e).__name__ for e in page.results)
    assert [e.version for e in page.results] == list(range(1, len(kinds) + 1))

    # Errors parse too, with their enums: a move on the finished match is a 409 conflict.
    refused = act.sync_detailed(
        match_id, client=players[alice.id], body=models.ActionInputRequest(
            type_=models.ActionTypeEnum.PASS)
    )  # fmt: skip
    assert refused.status_code == 409
    assert refused.parsed.error.code == models.ErrorCodeEnum.CONFLICT
    assert refused.parsed.error.reason == models.ErrorReasonEnum.MATCH_FINISHED

    # Logging out revokes the token: the next call is a 401, parsed as an error.
    assert logout.sync_detailed(client=players[bob.id]).status_code == 204
    after = me.sync_detailed(client=players[bob.id])
    assert after.status_code == 401
    assert after.parsed.error.code == models.ErrorCodeEnum.AUTHENTICATION_FAILED


def test_a_generated_client_leaves_out_what_it_is_not_given(client_package, organiser):
    """A request field the caller leaves out is not sent (the schema gives no `default`
    for a generator to send): a player made with only a name (an `""` e-mail was sent, and
    refused by the e-mail's own `minLength`)."""
    models = _module("models")
    create = _module("api.players.players_create")
    org = _login(organiser.username, "secret-pass-1")
    made = create.sync_detailed(client=org, body=models.PlayerCreateInputRequest(name="Zed Gin"))
    assert made.status_code == 201, made.content
    assert made.parsed.name == "Zed Gin"


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_reads_a_stream_as_the_readme_shows(client_package, alice, bob):
    """docs/clients/streams.md (the README's "Live streams" until issue 38): a stream's body
    is read with the generated client's httpx client, line by line, and each message's data
    parsed into its generated model."""
    from tests.live.helpers import asgi_server
    from tests.reliability.helpers import make_organiser, tournament_with_a_match

    tournament, _ = tournament_with_a_match(
        organiser=make_organiser("streamorg"), players=[alice, bob], is_public=True
    )
    models = _module("models")
    client_module = _module("client")
    with asgi_server() as base:
        # As the manual's example (docs/clients/streams.md), word for word but for the names.
        client = client_module.Client(base_url=base, timeout=httpx.Timeout(60.0))
        kind, parsed = None, None
        with client.get_httpx_client().stream(
            "GET", f"/api/tournaments/{tournament.pk}/stream/"
        ) as stream:
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    kind = line.removeprefix("event: ")
                elif line.startswith("data: ") and kind == "standings":
                    parsed = models.StandingsMessage.from_dict(json.loads(line[6:]))
                    break
    assert isinstance(parsed, models.StandingsMessage)
    assert parsed.clock.round_ == 1 and len(parsed.results) == 2  # `round_`: a builtin


def test_a_ruling_in_the_view_is_typed(organiser_client, alice, bob):
    """A ruling (a forfeit) in the match view has the shape the schema's `RulingRecord`
    gives it (was a free-form object)."""
    made = organiser_client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id, "seed": "ruling"}, format="json"
    )
    assert made.status_code == 201, made.content
    match_id = made.json()["id"]
    ruled = organiser_client.post(
        f"/api/matches/{match_id}/rulings/",
        {"type": "forfeit", "player": bob.id, "reason": "did not come back"},
        format="json",
    )
    assert ruled.status_code == 201, ruled.content
    view = organiser_client.get(f"/api/matches/{match_id}/").json()
    assert view["rulings"][0]["type"] == "MatchForfeited" and view["rulings"][0]["winner"] == bob.id
    openapi_validator(schema_of(), "MatchView").validate(view)
