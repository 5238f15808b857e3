"""The OpenAPI schema, and schemathesis with all its checks over every operation of it, in
process (WSGI).

Each operation is fuzzed as a player and as an organiser, with valid (positive) and invalid
(negative) inputs, a bounded number of examples each: no 5xx, every status code and header
documented, every response body matching its schema, invalid data refused, valid data
accepted (or refused by the rules: schemathesis.toml), authentication enforced where it is
declared, methods not allowed answered 405 with `Allow`. Path ids point at a real match,
player and tournament most of the time, so the endpoints get past their 404s.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from config.wsgi import application

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("wsgi_in_test_transaction")]

EXAMPLES = {GenerationMode.POSITIVE: 10, GenerationMode.NEGATIVE: 5}
CONFIG = Path(__file__).resolve().parents[2] / "schemathesis.toml"


def test_schema_is_served(alice_client):
    response = alice_client.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/auth/token/",
        "/api/players/",
        "/api/players/{id}/",
        "/api/me/",
        "/api/matches/",
        "/api/matches/{match_id}/",
        "/api/matches/{match_id}/actions/",
        "/api/matches/{match_id}/events/",
        "/api/matches/{match_id}/replay/",
        "/api/matches/{match_id}/verify/",
        "/api/matches/{match_id}/hands/",
        "/api/matches/{match_id}/rulings/",
    ):
        assert path in paths, path
    action = paths["/api/matches/{match_id}/actions/"]["post"]
    assert {"201", "400", "401", "403", "404", "409"} <= set(action["responses"])
    assert "Idempotency-Key" in {p["name"] for p in action["parameters"]}
    assert alice_client.get("/api/docs/").status_code == 200


def test_every_operation_documents_its_errors(alice_client):
    schema = alice_client.get("/api/schema/?format=json").json()
    error_ref = "#/components/schemas/Error"
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            errors = {code for code in responses if code.startswith(("4", "5"))}
            assert {"401", "429"} <= errors, (method, path)
            for code in errors:
                body = responses[code]["content"]["application/json"]["schema"]
                assert body == {"$ref": error_ref}, (method, path, code)
                assert "Error codes" in responses[code]["description"]


def _path_values(ids: dict[str, object]) -> st.SearchStrategy[dict[str, object]]:
    """Real ids four times in five; otherwise whatever schemathesis generates."""
    return st.sampled_from([ids, ids, ids, ids, {}])


# One test per area of the API, so that a failure points at the part (and helper) at fault.
AREAS = [
    "/api/auth/",
    "/api/players/",
    "/api/me/",
    "/api/ping/",
    "/api/matches/",
    "/api/tournaments/",
]


@pytest.mark.slow  # about a minute and a half in all, on a quiet machine
@pytest.mark.parametrize("area", AREAS)
def test_schemathesis_finds_no_server_errors_or_schema_mismatches(
    area, organiser, organiser_client, alice, bob, settings
):
    settings.DEBUG = True  # as `make run` serves it: Django's own answers are pages there
    created = organiser_client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id, "seed": "st"}, format="json"
    )
    assert created.status_code == 201
    ids = {"match_id": created.json()["id"], "id": alice.id, "tournament_id": 1, "number": 1}
    users = {"player": alice.user, "organiser": organiser}
    config = SchemathesisConfig.from_path(CONFIG)
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=config)
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if not operation.path.startswith(area):
            continue
        if operation.path.endswith("/stream/"):
            # Live streams are served under ASGI only (this app is WSGI, in process): their
            # schema is checked by test_schema_streams.py, their behaviour by tests/live/.
            continue
        for who, user in users.items():
            for mode, examples in EXAMPLES.items():
                # A token of its own: the operation may be logout (DELETE /api/auth/token/).
                error = _fuzz(operation, _token(user), mode, examples, ids)
                if error:
                    failures.append(f"{operation.label} as {who} ({mode.value}): {error}")
    assert not failures, "\n\n".join(failures)


def _token(user) -> str:
    from players.services import auth_token_issue

    return auth_token_issue(user=user).key


def _fuzz(operation, token: str, mode: GenerationMode, examples: int, ids: dict) -> str | None:
    names = {p.name for p in operation.path_parameters}
    fixed = {k: v for k, v in ids.items() if k in names}

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data) -> None:
        path = data.draw(_path_values(fixed)) if fixed else {}
        case = data.draw(operation.as_strategy(generation_mode=mode, path_parameters=path or None))
        auth = {"Authorization": f"Token {token}"}
        case.headers = {**(case.headers or {}), **auth}
        response = case.call()
        case.validate_response(response, headers=auth)  # every check, as configured

    try:
        run()
    except Unsatisfiable:
        return None  # nothing to send that breaks the schema (e.g. negative data, no inputs)
    except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - reported per operation
        return f"{type(exc).__name__}: {str(exc)[:1200]}"
    return None
