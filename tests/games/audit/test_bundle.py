"""The audit bundle and tools/verify_match.py (earlier name: tools/verify_bundle.py): a bundle
as downloaded verifies with the standard library alone; each kind of tampering fails, naming
the event. More in test_verify_match.py."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.factories import UserFactory
from tests.games.audit.helpers import finished_match, match_in_play

pytestmark = pytest.mark.django_db

TOOL = Path(__file__).resolve().parents[3] / "tools" / "verify_match.py"


def _run(bundle, tmp_path):
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    # -I: isolated, as a third party runs it (no project on the path); from another dir.
    done = subprocess.run(
        [sys.executable, "-I", str(TOOL), str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    return done.returncode, done.stdout


@pytest.fixture
def bundle(alice, bob, alice_client):
    match = finished_match(alice, bob, seed="bundle")
    response = alice_client.get(f"/api/matches/{match.pk}/bundle/")
    assert response.status_code == 200
    return response.json()


def test_a_downloaded_bundle_verifies(bundle, tmp_path):
    code, out = _run(bundle, tmp_path)
    assert code == 0, out
    assert f"hash chain of events 1 to {len(bundle['events'])}" in out
    assert "hand 1: deck commitment" in out
    assert "VERDICT: all checks passed" in out


def test_a_changed_event_fails_naming_it(bundle, tmp_path):
    tampered = copy.deepcopy(bundle)
    discard = next(e for e in tampered["events"] if e["type"] == "CardDiscarded")
    discard["data"]["card"] = "KS" if discard["data"]["card"] != "KS" else "QS"
    code, out = _run(tampered, tmp_path)
    assert code == 1
    assert f"event {discard['version']} (CardDiscarded): hash mismatch" in out


def test_a_removed_or_reordered_event_fails(bundle, tmp_path):
    removed = copy.deepcopy(bundle)
    del removed["events"][4]
    code, out = _run(removed, tmp_path)
    assert code == 1
    assert "event at position 5: expected version 5, found 6" in out
    swapped = copy.deepcopy(bundle)
    swapped["events"][3], swapped["events"][4] = swapped["events"][4], swapped["events"][3]
    code, out = _run(swapped, tmp_path)
    assert code == 1
    assert "expected version 4, found 5" in out


def test_a_deck_swapped_after_the_deal_fails_its_commitment(bundle, tmp_path):
    tampered = copy.deepcopy(bundle)
    deal = next(e for e in tampered["events"] if e["type"] == "HandDealt")
    deck = deal["data"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    code, out = _run(tampered, tmp_path)
    assert code == 1
    assert f"event {deal['version']} (HandDealt, hand 1): the deck and salt do not hash" in out
    assert f"event {deal['version']} (HandDealt): hash mismatch" in out


def test_a_player_mid_hand_gets_hashes_only_before_the_hand(alice, bob, alice_client, tmp_path):
    match = match_in_play(alice, bob, seed="bundle-live", moves=3)
    body = alice_client.get(f"/api/matches/{match.pk}/bundle/").json()
    deal = next(e for e in body["events"] if e["type"] == "HandDealt")
    assert "deck" not in deal["data"] and "salt" not in deal["data"]
    assert body["hashed_to"] == deal["version"] - 1
    assert all(e["hash"] is None for e in body["events"][deal["version"] - 1 :])
    code, out = _run(body, tmp_path)
    assert code == 0, out
    assert "skip    hand 1: deck not revealed" in out


def test_strangers_may_not_download_it(alice, bob, api_client):
    from tests.helpers import token_client

    match = finished_match(alice, bob, seed="bundle-forbidden")
    response = token_client(UserFactory()).get(f"/api/matches/{match.pk}/bundle/")
    assert response.status_code == 403
    assert response.json()["error"]["reason"] == "bundle_forbidden"
    assert api_client.get(f"/api/matches/{match.pk}/bundle/").status_code in (401, 403)


def _rechained(bundle):
    """The bundle with every hash recomputed, as a server rewriting its own history would."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("verify_match", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    prev = ""
    for event in bundle["events"]:
        event["hash"] = prev = tool.event_hash(bundle["match"]["stream_id"], event, prev)
    bundle["head_hash"] = prev
    return bundle


def test_a_rehashed_forgery_is_caught_by_the_deck_and_the_rules(bundle, tmp_path):
    forged = copy.deepcopy(bundle)
    deal = next(e for e in forged["events"] if e["type"] == "HandDealt")
    draw = next(
        e for e in forged["events"] if e["type"] == "CardDrawn" and e["data"]["source"] == "stock"
    )
    draw["data"]["card"] = deal["data"]["deck"][51]  # the bottom card, not the top of the stock
    code, out = _run(_rechained(forged), tmp_path)
    assert code == 1
    assert "hash chain of events 1 to" in out  # the chain itself is consistent again
    assert (
        f"event {draw['version']} (CardDrawn, hand 1): drew {deal['data']['deck'][51]} from the"
        " stock" in out
    )
    scored = copy.deepcopy(bundle)
    hand = next(e for e in scored["events"] if e["type"] == "HandScored")
    hand["data"]["points"] += 5
    code, out = _run(_rechained(scored), tmp_path)
    assert code == 1
    assert f"event {hand['version']} (HandScored, hand 1): points is" in out


def test_a_full_hollywood_match_and_a_corrected_table_match_verify(
    alice, bob, organiser, alice_client, tmp_path
):
    from demo.bots import match_play_bots
    from games.services import match_create
    from tests.games.audit.helpers import table_match_with_corrections

    long = match_create(player1=alice, player2=bob, seed="hollywood")
    long = match_play_bots(match_id=long.id, bots_only=False)
    table = table_match_with_corrections(alice, bob, organiser)
    for match in (long, table):
        body = alice_client.get(f"/api/matches/{match.pk}/bundle/").json()
        code, out = _run(body, tmp_path)
        assert code == 0, out
        assert "ok      rules:" in out
