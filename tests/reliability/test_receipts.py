"""Issue 14, receipts: the players of a match (and its organisers, staff) get the stream head
they saw, signed, in their view of it. A receipt kept outside the database vouches for the
history up to it: a later rewrite, even by someone holding the key who recomputes chain and
seals, or a cut, no longer matches it, and `verify_events --receipts` names it."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

import eventstore
from eventstore.models import Checkpoint, StoredEvent
from eventstore.seals import event_seal
from games.models import Match
from tests.games.apis.helpers import act, choose
from tests.helpers import token_client
from tests.reliability.helpers import role_clients, tournament_with_a_match

pytestmark = pytest.mark.django_db

RECEIPT_KEYS = ("stream_id", "version", "hash", "signature")


def tamper(sql: str, params: list) -> None:
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def verify_events(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    try:
        call_command("verify_events", *args, stdout=io.StringIO(), stderr=err, verbosity=0)
    except CommandError as exc:
        return exc.returncode, err.getvalue()
    return 0, err.getvalue()


def kept(tmp_path, *receipts: dict) -> str:
    """The receipts as a player keeps them: a file of their own."""
    path = tmp_path / "receipts.json"
    path.write_text(json.dumps(list(receipts)))
    return str(path)


def rewrite_with_the_key(stream_id: str, version: int) -> None:
    """An insider holding the chain key changes the event at `version` and recomputes every
    hash and seal from there, and removes the signed checkpoints: the store verifies."""
    rows = list(StoredEvent.objects.filter(stream_id=stream_id).order_by("version"))
    prev = rows[version - 2].hash if version > 1 else eventstore.GENESIS_HASH
    for row in rows[version - 1 :]:
        metadata = {**row.metadata, "forged": True} if row.version == version else row.metadata
        digest = eventstore.event_hash(
            stream_id=row.stream_id, version=row.version, type=row.type,
            schema_version=row.schema_version, data=row.data, metadata=metadata,
            recorded_at=row.recorded_at, prev_hash=prev,
        )  # fmt: skip
        tamper(
            "UPDATE eventstore_event SET metadata = %s, hash = %s, seal = %s WHERE position = %s",
            [json.dumps(metadata), digest, event_seal(digest), row.position],
        )
        prev = digest
    Checkpoint.objects.filter(stream_id=stream_id).delete()


def move(clients: list, match_id: str):
    """Whoever is to move makes a move of their own choosing (from their view only)."""
    for client in clients:
        view = client.get(f"/api/matches/{match_id}/").json()
        if view["legal_actions"]:
            return act(client, match_id, choose(view))
    raise AssertionError("nobody can move")


@pytest.fixture
def played(organiser, make_player):
    """A private tournament's match with a few moves: (match id, the players' clients)."""
    pia, quinn = make_player("Pia"), make_player("Quinn")
    _, match_id = tournament_with_a_match(
        organiser=organiser, players=[pia, quinn], is_public=False
    )
    clients = [token_client(p.user) for p in (pia, quinn)]
    for _ in range(3):
        assert move(clients, match_id).status_code == 201
    return match_id, clients, (pia, quinn)


def test_each_player_s_view_carries_a_receipt_that_verifies(played, organiser, tmp_path):
    match_id, clients, (pia, _) = played
    match = Match.objects.get(pk=match_id)
    for client in clients:
        view = client.get(f"/api/matches/{match_id}/").json()
        receipt = view["receipt"]
        assert (receipt["stream_id"], receipt["version"]) == (match.stream_id, view["version"])
        assert view["version"] == match.version
        assert eventstore.checkpoint_valid(**{k: receipt[k] for k in RECEIPT_KEYS})
        head = StoredEvent.objects.get(stream_id=match.stream_id, version=view["version"])
        assert receipt["hash"] == head.hash
    assert verify_events("--receipts", kept(tmp_path, receipt)) == (0, "")
    everyone = role_clients(player=pia, organiser=organiser)
    seen = {role: c.get(f"/api/matches/{match_id}/").json().get("receipt") for role, c in
            everyone.items() if role in ("organiser", "staff")}  # fmt: skip
    assert all(r and r["version"] == match.version for r in seen.values()), seen


def test_the_answer_to_an_action_carries_the_new_head_s_receipt(played):
    match_id, clients, _ = played
    before = Match.objects.get(pk=match_id).version
    answer = move(clients, match_id)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    # The new head: one event more, or several when the move ends the hand (a knock on a
    # random deal: scored, the next hand dealt).
    head = Match.objects.get(pk=match_id).version
    assert body["receipt"]["version"] == body["version"] == head > before
    assert eventstore.checkpoint_valid(**{k: body["receipt"][k] for k in RECEIPT_KEYS})


def test_a_public_match_s_onlookers_get_no_receipt(organiser, make_player):
    pia, quinn = make_player("Pia"), make_player("Quinn")
    _, match_id = tournament_with_a_match(organiser=organiser, players=[pia, quinn], is_public=True)
    clients = role_clients(player=pia, organiser=organiser)
    for role in ("stranger", "other_organiser"):
        view = clients[role].get(f"/api/matches/{match_id}/")
        assert view.status_code == 200 and view.json()["receipt"] is None, role
    assert clients["player"].get(f"/api/matches/{match_id}/").json()["receipt"]


def test_a_rewrite_with_the_key_verifies_but_no_longer_matches_a_kept_receipt(played, tmp_path):
    match_id, clients, _ = played
    receipt = clients[0].get(f"/api/matches/{match_id}/").json()["receipt"]
    early = dict(receipt)
    stream_id, head = receipt["stream_id"], receipt["version"]
    assert head >= 3
    eventstore.checkpoints_take()
    rewrite_with_the_key(stream_id, head - 1)
    # The insider's rewrite passes every check the store can make on its own...
    assert verify_events() == (0, "")
    assert eventstore.verify(stream_id=stream_id).ok
    # ...but not the receipt the player kept: verify_events names stream and version.
    code, err = verify_events("--receipts", kept(tmp_path, early))
    assert code == 1
    assert f"RECEIPT MISMATCH stream {stream_id} at version {head}" in err
    assert "history was rewritten" in err
    # The server now hands out a receipt for the forged head: not the one the player holds.
    now = clients[0].get(f"/api/matches/{match_id}/").json()["receipt"]
    assert now["version"] == head and now["hash"] != early["hash"]


def test_a_rewrite_without_the_key_is_named_by_the_chain_and_by_the_receipt(played, tmp_path):
    match_id, clients, _ = played
    receipt = clients[1].get(f"/api/matches/{match_id}/").json()["receipt"]
    stream_id, head = receipt["stream_id"], receipt["version"]
    row = StoredEvent.objects.get(stream_id=stream_id, version=head)
    tamper(
        "UPDATE eventstore_event SET metadata = %s WHERE position = %s",
        [json.dumps({**row.metadata, "forged": True}), row.position],
    )
    code, err = verify_events("--receipts", kept(tmp_path, receipt))
    assert code == 1
    assert f"BROKEN stream {stream_id} at version {head}" in err
    # The hash column was left alone: the kept receipt still names that hash, and the chain
    # (recomputed from the rows) is what gives the change away.
    assert "hash mismatch" in err


def test_a_history_cut_below_a_kept_receipt_is_named(played, tmp_path):
    match_id, clients, _ = played
    receipt = clients[0].get(f"/api/matches/{match_id}/").json()["receipt"]
    stream_id, head = receipt["stream_id"], receipt["version"]
    tamper("DELETE FROM eventstore_event WHERE stream_id = %s AND version = %s", [stream_id, head])
    Match.objects.filter(pk=match_id).update(version=head - 1)  # the read model follows
    assert verify_events() == (0, "")  # nothing else says so
    code, err = verify_events("--receipts", kept(tmp_path, receipt))
    assert code == 1
    assert f"RECEIPT MISMATCH stream {stream_id} at version {head}" in err
    assert f"events {head} to {head} are missing" in err


def test_a_made_up_receipt_is_named(played, tmp_path):
    match_id, clients, _ = played
    receipt = clients[0].get(f"/api/matches/{match_id}/").json()["receipt"]
    made_up = {**receipt, "hash": "0" * 64}
    code, err = verify_events("--receipts", kept(tmp_path, made_up))
    assert code == 1 and "not signed with the key" in err
    # A saved match view, or an export_checkpoints file, is read as well.
    view = clients[0].get(f"/api/matches/{match_id}/").json()
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    assert verify_events("--receipts", str(path)) == (0, "")
