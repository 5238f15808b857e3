"""Issue 21: the schema types what clients branch on: the events' `data` as a `oneOf` over
every stored event type (discriminated by `type`), the error object's `code` and `reason`
as enums, and the states of a match."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest

from core.api import ERROR_CODE_VALUES, ERROR_REASON_VALUES
from demo.simulation import tournament_simulate
from games.engine.events import EVENT_TYPES

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def schema(alice_client) -> dict:
    return alice_client.get("/api/schema/?format=json").json()


def _refs(component: dict) -> set[str]:
    return {ref["$ref"].rsplit("/", 1)[1] for ref in component["oneOf"]}


def test_every_match_event_type_is_a_variant_of_event(schema):
    event = schema["components"]["schemas"]["Event"]
    assert event["discriminator"]["propertyName"] == "type"
    assert set(event["discriminator"]["mapping"]) == set(EVENT_TYPES)
    assert _refs(event) == {f"{t}Event" for t in EVENT_TYPES}
    drawn = schema["components"]["schemas"]["CardDrawnData"]
    assert drawn["properties"]["card"]["nullable"] is True  # the opponent's stock draw
    dealt = schema["components"]["schemas"]["HandDealtData"]
    assert "deck" not in dealt["required"] and "commitment" in dealt["required"]
    assert dealt["properties"]["dealer"]["description"] == "A player's id."


def test_every_tournament_event_type_is_a_variant_of_event_output(schema):
    from tournaments.domain import EVENT_TYPES as TOURNAMENT_EVENT_TYPES

    stored = set(TOURNAMENT_EVENT_TYPES)
    event = schema["components"]["schemas"]["EventOutput"]
    assert set(event["discriminator"]["mapping"]) == stored
    assert not set(EVENT_TYPES) & stored  # one namespace of component names


def test_the_streams_describe_their_messages_and_webhooks_their_payload(schema):
    stream = schema["paths"]["/api/matches/{match_id}/stream/"]["get"]
    messages = stream["responses"]["200"]["content"]["text/event-stream"]["x-sse-messages"]
    assert messages["event"] == {"$ref": "#/components/schemas/Event"}
    register = schema["paths"]["/api/tournaments/{tournament_id}/webhooks/"]["post"]
    assert "delivery" in register["callbacks"]
    assert "WebhookPayload" in schema["components"]["schemas"]


def test_error_code_and_reason_are_enums(schema):
    schemas = schema["components"]["schemas"]
    assert schemas["ErrorCodeEnum"]["enum"] == ERROR_CODE_VALUES
    assert set(schemas["ErrorReasonEnum"]["enum"]) == set(ERROR_REASON_VALUES)
    detail = schemas["ErrorDetail"]["properties"]
    for field in ("stream_id", "expected_version", "current_version", "rule", "fields"):
        assert field in detail
    for name in ("PhaseEnum", "ActionTypeEnum", "MatchStatusEnum", "FinishReasonEnum"):
        assert schemas[name]["enum"], name


CODE = re.compile(r"""\bcode\s*=\s*"([a-z_]+)"|"reason":\s*"([a-z_]+)\"""")


def test_every_code_the_code_raises_is_in_the_schema():
    """A code or reason added without the schema's enum would break generated clients."""
    known = set(ERROR_CODE_VALUES) | set(ERROR_REASON_VALUES) | {"application_error"}
    missing = {}
    for app in ("core", "games", "players", "tournaments", "eventstore", "config"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or "engine" in path.parts and "errors" not in path.name:
                continue
            for match in CODE.finditer(path.read_text(encoding="utf-8")):
                value = match.group(1) or match.group(2)
                if value not in known:
                    missing.setdefault(value, str(path.relative_to(ROOT)))
    assert not missing, missing


def _json_schema(schema: object) -> object:
    """An OpenAPI 3.0 schema as JSON Schema (`nullable` as a null type), for jsonschema."""
    if isinstance(schema, list):
        return [_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _json_schema(v) for k, v in schema.items() if k not in ("nullable", "description")}
    if schema.get("nullable"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the rounds are paired by jobs run at commit
@pytest.mark.parametrize("fmt", ["swiss", "double_elimination"])
def test_every_stored_tournament_event_fits_its_derived_schema(fmt, organiser_client):
    """Issue 31: the tournament events' schemas are derived from the domain's dataclasses;
    what a played tournament's events API shows fits them, key for key."""
    tournament = tournament_simulate(
        players=5, format=fmt, rounds=2 if fmt == "swiss" else None, progress=False,
        ruleset={"end_when_decided": True, "game_target": 25}, top_cut=None, third_place=False,
    )  # fmt: skip
    tournament_id = tournament.pk
    schemas = organiser_client.get("/api/schema/?format=json").json()["components"]["schemas"]
    seen = set()
    url = f"/api/tournaments/{tournament_id}/events/?limit=500"
    events = organiser_client.get(url).json()["results"]
    for event in events:
        data_schema = schemas[f"{event['type']}Data"]
        assert set(event["data"]) <= set(data_schema["properties"]), event
        jsonschema.validate(event["data"], _json_schema(data_schema))
        seen.add(event["type"])
    assert {"TournamentCreated", "RoundPaired", "ResultRecorded", "TournamentFinished"} <= seen
