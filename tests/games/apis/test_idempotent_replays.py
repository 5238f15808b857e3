"""A replayed command answers the same JSON as its first answer, from a record of under
300 bytes (core.idempotency: a reference to the version, not a copy of the view)."""

from __future__ import annotations

import json
import zlib

import pytest
from django.db import connection

from core.models import IdempotencyRecord
from tests.games.apis.helpers import act, choose

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(organiser_client, alice, bob):
    body = {"player1": alice.id, "player2": bob.id, "first_dealer": alice.id, "seed": "r1"}
    response = organiser_client.post("/api/matches/", body, format="json")
    assert response.status_code == 201
    return response.json()


def row_sizes() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_size(r.*) FROM players_idempotencyrecord r WHERE path LIKE %s",
            ["%/actions/"],
        )
        return [size for (size,) in cursor.fetchall()]


def play_keyed(match, clients, moves: int) -> list[tuple[object, str, dict, dict]]:
    """`moves` actions, each sent with its own key by the player to move: (client, key,
    body, first answer)."""
    sent = []
    for n in range(moves):
        for client in clients:
            view = client.get(f"/api/matches/{match['id']}/").json()
            if view["legal_actions"] and view["status"] == "in_progress":
                body, key = choose(view), f"move-{n}"
                answer = act(client, match["id"], body, HTTP_IDEMPOTENCY_KEY=key)
                assert answer.status_code == 201, answer.json()
                sent.append((client, key, body, answer.json()))
                break
    return sent


def test_replayed_actions_answer_their_first_json_from_small_records(
    match, alice_client, bob_client
):
    sent = play_keyed(match, [alice_client, bob_client], 60)  # past a hand's end
    assert len(sent) == 60 and sent[-1][3]["hands"], "a hand ended among them"
    for client, key, body, first in sent:  # the match has moved on since each
        again = act(client, match["id"], body, HTTP_IDEMPOTENCY_KEY=key)
        assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
        assert again.json() == first
    sizes = row_sizes()
    assert len(sizes) == 60 and max(sizes) < 300, sizes
    assert not IdempotencyRecord.objects.filter(reference=None, path__endswith="/actions/")


def test_a_ruling_replays_after_the_match_is_cancelled(match, organiser_client, bob_client):
    url = f"/api/matches/{match['id']}/rulings/"
    void = {"type": "void_hand", "reason": "misdeal"}
    first = organiser_client.post(url, void, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    assert first.status_code == 201, first.json()
    cancel = {"type": "cancel", "reason": "closing"}
    assert organiser_client.post(url, cancel, format="json").status_code == 201
    again = organiser_client.post(url, void, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and again.json()["status"] == "in_progress"


def test_other_endpoints_keep_their_answer_compressed(organiser_client):
    first = organiser_client.post(
        "/api/players/", {"name": "Kim"}, format="json", HTTP_IDEMPOTENCY_KEY="p1"
    )
    record = IdempotencyRecord.objects.get(key="p1")
    assert record.body is None and record.reference is None
    assert json.loads(zlib.decompress(bytes(record.body_z))) == first.json()


def test_a_record_made_before_3_0_still_replays_its_body(match, alice_client, bob_client):
    (client, key, body, first) = play_keyed(match, [alice_client, bob_client], 1)[0]
    old = {"the": "body kept in full"}
    IdempotencyRecord.objects.filter(key=key).update(
        body=old,
        reference=None,
        fingerprint=IdempotencyRecord.objects.get(key=key).fingerprint + "0" * 32,
    )
    again = act(client, match["id"], body, HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 201 and again.json() == old
