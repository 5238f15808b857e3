"""The API's JSON renderer writes exactly the bytes DRF's own JSONRenderer would."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from rest_framework.renderers import JSONRenderer

from core.renderers import FastJSONRenderer
from tests.games.apis.helpers import act, choose

pytestmark = pytest.mark.django_db


def drf(data: object, media_type: str | None = None) -> bytes:
    return JSONRenderer().render(data, media_type, {})


def fast(data: object, media_type: str | None = None) -> bytes:
    return FastJSONRenderer().render(data, media_type, {})


def test_real_responses_are_rendered_byte_for_byte_as_drf(
    organiser_client, alice, bob, alice_client, bob_client
):
    body = {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id, "seed": "render"}
    created = organiser_client.post("/api/matches/", body, format="json")
    url = f"/api/matches/{created.json()['id']}/"
    clients = {alice.id: alice_client, bob.id: bob_client}
    responses = [created]
    view = created.json()
    # Play until hands have finished, so the views carry hand records and rulings' times.
    while view["status"] != "finished" and len(view["hands"]) < 2:
        client = clients[view["turn"]]
        mine = client.get(url).json()
        response = act(client, mine["id"], choose(mine))
        assert response.status_code == 201, response.json()
        responses.append(response)
        view = response.json()
    responses += [
        alice_client.get(url),
        alice_client.get(f"{url}events/"),
        organiser_client.get("/api/matches/"),
        act(bob_client, view["id"], {"type": "discard", "card": "XX"}),  # an error body
    ]
    assert len(view["hands"]) >= 1
    for response in responses:
        assert response.content == drf(response.data), response.request["PATH_INFO"]
    # The events carry datetimes: DRF's format, "Z" for UTC.
    assert b'Z"' in responses[-3].content


@pytest.mark.parametrize(
    "data",
    [
        {"at": dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)},
        {"at": dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone(dt.timedelta(hours=2)))},
        {"at": dt.datetime(2026, 1, 2, 3, 4, 5), "day": dt.date(2026, 1, 2)},
        {"t": dt.time(3, 4, 5, 6), "span": dt.timedelta(hours=1, seconds=3)},
        {"id": uuid.UUID(int=7), "amount": Decimal("1.50"), 3: "int key", "n": None},
        {"text": "line\u2028paragraph\u2029 é ü 🂡", "nested": [[1, 2.5, True], {"a": ()}]},
        [{"big": 2**70}],
        "a plain string",
    ],
)
def test_values_come_out_as_drf_writes_them(data):
    assert fast(data) == drf(data)


def test_an_indented_rendering_is_left_to_drf():
    data = {"a": [1, 2], "b": {"c": None}}
    media = "application/json; indent=4"
    assert fast(data, media) == drf(data, media)
    assert b"\n    " in fast(data, media)


def test_nothing_renders_as_nothing():
    assert fast(None) == b""
