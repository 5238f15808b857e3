"""tools/verify_match.py, the third party's check of an audit bundle: run as
`python3 -I tools/verify_match.py FILE` from another directory, standard library only. Real
bundles of real played matches verify; each kind of tampering fails and names the place,
including a forged result whose hash chain was recomputed (only the rules re-check sees it)."""

import copy

import pytest
from django.core.management import CommandError, call_command

from demo.bots import match_play_bots, match_play_bots_batched
from games.hand_entries import HandEntry
from games.services import match_create, match_record_hand, match_rule
from tests.games.audit.helpers import (
    SHORT,
    VERIFIER,
    finished_match,
    play_until_hand,
    rechained,
    table_match_with_corrections,
    verifier_run,
)

pytestmark = pytest.mark.django_db


def _bundle(client, match):
    response = client.get(f"/api/matches/{match.pk}/audit/")
    assert response.status_code == 200, response.content
    return response.json()


def _first(bundle, kind, **data):
    return next(
        e
        for e in bundle["events"]
        if e["type"] == kind and all(e["data"].get(k) == v for k, v in data.items())
    )


def _kinds(bundle):
    scored = [e["data"]["kind"] for e in bundle["events"] if e["type"] == "HandScored"]
    return set(scored) | {"drawn" for e in bundle["events"] if e["type"] == "HandDrawn"}


# Seeds whose bot matches hold every kind of hand end between them (found by playing them):
# knock, undercut and gin; a drawn hand (the stock down to two); the discard restriction on.
PLAYED = [
    ("v3", {"game_target": 60, "knock_limit": 7}),
    ("v18", {"game_target": 60, "knock_limit": 8, "discard_restriction": True}),
    ("v23", {"game_target": 60, "knock_limit": 7}),
    (
        "bonus",
        {
            "game_target": 40,
            "game_bonus": 100,
            "box_bonus": 25,
            "shutout_doubles": True,
            "gin_bonus": 20,
            "undercut_bonus": 20,
            "end_when_decided": True,
        },
    ),
]


@pytest.fixture
def played(alice, bob, alice_client):
    bundles = {}
    for seed, rules in PLAYED:
        match = match_create(player1=alice, player2=bob, seed=seed, ruleset=rules)
        match_play_bots_batched(match=match)
        bundles[seed] = _bundle(alice_client, match)
    return bundles


def test_untouched_bundles_of_played_matches_pass(played, tmp_path):
    kinds = set()
    for seed, bundle in played.items():
        assert bundle["match"]["status"] == "finished"
        code, out = verifier_run(bundle, tmp_path)
        assert code == 0, f"{seed}:\n{out}"
        assert "VERDICT: all checks passed" in out
        assert "match finished, games, won by" in out
        kinds |= _kinds(bundle)
    assert kinds == {"knock", "undercut", "gin", "drawn"}


def test_a_full_hollywood_match_through_the_services_passes(alice, bob, alice_client, tmp_path):
    match = match_create(player1=alice, player2=bob, seed="hollywood")
    match = match_play_bots(match_id=match.id, bots_only=False)
    bundle = _bundle(alice_client, match)
    code, out = verifier_run(bundle, tmp_path)
    assert code == 0, out
    assert out.count("(won by ") == 3  # three games, each closed


def test_rulings_disputes_and_corrections_replay(alice, bob, organiser, alice_client, tmp_path):
    """An online match with a void of the hand in play, a score adjustment, a finish, a
    dispute settled by a ruling (a past hand voided: the match re-derived, here back in
    play), then a forfeit; a table match with a correction and a past void that goes on
    to its end."""
    from games.selectors import match_state_at
    from games.services.disputes import (
        match_dispute_comment,
        match_dispute_open,
        match_dispute_resolve,
    )

    match = match_create(
        player1=alice,
        player2=bob,
        seed="rulings",
        organisers=[organiser],
        ruleset={"game_target": 40, "games": 1},
    )
    match = play_until_hand(match, 2)
    match_rule(match_id=match.id, by=organiser, type="void_hand", reason="cards exposed")
    match = play_until_hand(match, 3)
    match_rule(
        match_id=match.id,
        by=organiser,
        type="adjust_score",
        player=bob,
        game=1,
        points=7,
        reason="slow play",
    )
    match = match_play_bots(match_id=match.id, bots_only=False)
    state, _ = match_state_at(match=match)
    assert state.status == "finished" and state.finish_reason == "games"
    last = max(r["hand_number"] for r in state.hand_results if r["kind"] != "voided")
    match_dispute_open(match_id=match.id, player=alice, hand_number=last, statement="misdeal")
    match_dispute_comment(match_id=match.id, by=bob.user, dispute=1, comment="no, it was fine")
    match_dispute_resolve(
        match_id=match.id,
        by=organiser,
        dispute=1,
        outcome="ruled",
        reason="a misdeal indeed",
        ruling={"type": "void_hand", "hand_number": last, "reason": "misdeal"},
    )
    state, _ = match_state_at(match=match)
    if state.status == "in_progress":  # back in play: a new hand was dealt
        match_rule(match_id=match.id, by=organiser, type="forfeit", player=bob, reason="left")
    online = _bundle(alice_client, match)
    types = [e["type"] for e in online["events"]]
    assert {
        "HandVoided",
        "ScoreAdjusted",
        "DisputeResolved",
        "MatchReopened",
        "MatchForfeited",
    } <= set(types)
    code, out = verifier_run(online, tmp_path)
    assert code == 0, out
    assert "match finished, forfeit, won by Bob" in out
    assert "1 voided; 1 voided afterwards); 1 adjustments; 1 disputes" in out

    table = table_match_with_corrections(alice, bob, organiser)
    for _ in range(2):  # 55 points each: Bob reaches 100
        match_record_hand(
            match_id=table.id,
            by=organiser,
            hand=HandEntry(knocker=bob.pk, gin=True, knocker_deadwood=0, defender_deadwood=30),
        )
    bundle = _bundle(alice_client, table)
    assert bundle["match"]["status"] == "finished"
    code, out = verifier_run(bundle, tmp_path)
    assert code == 0, out
    assert "1 voided afterwards" in out and "won by Bob" in out


def test_a_player_mid_hand_gets_a_bundle_that_verifies_up_to_the_hand(
    alice, bob, alice_client, tmp_path
):
    match = match_create(player1=alice, player2=bob, seed="later", ruleset={"game_target": 100})
    match = play_until_hand(match, 3)
    code, out = verifier_run(_bundle(alice_client, match), tmp_path)
    assert code == 0, out
    assert "skip    rules: hand 3 is not revealed to you (in play)" in out


# --- tampering ------------------------------------------------------------------------------


@pytest.fixture
def bundle(alice, bob, alice_client):
    match = match_create(player1=alice, player2=bob, seed="v3", ruleset=PLAYED[0][1])
    match_play_bots_batched(match=match)
    return _bundle(alice_client, match)


def test_a_changed_event_is_named(bundle, tmp_path):
    forged = copy.deepcopy(bundle)
    scored = _first(forged, "HandScored")
    scored["data"]["points"] += 10
    code, out = verifier_run(forged, tmp_path)
    assert code == 1
    assert f"event {scored['version']} (HandScored): hash mismatch" in out
    assert "VERDICT: FAILED: first discrepancy: event" in out
    discard = copy.deepcopy(bundle)
    moved = _first(discard, "CardDiscarded")
    moved["data"]["card"] = "KS" if moved["data"]["card"] != "KS" else "QS"
    code, out = verifier_run(discard, tmp_path)
    assert code == 1 and f"event {moved['version']} (CardDiscarded): hash mismatch" in out


def test_a_removed_event_is_named(bundle, tmp_path):
    forged = copy.deepcopy(bundle)
    del forged["events"][6]
    code, out = verifier_run(forged, tmp_path)
    assert code == 1
    assert "event at position 7: expected version 7, found 8" in out


def test_reordered_events_are_named(bundle, tmp_path):
    forged = copy.deepcopy(bundle)
    forged["events"][5], forged["events"][6] = forged["events"][6], forged["events"][5]
    code, out = verifier_run(forged, tmp_path)
    assert code == 1
    assert "event at position 6: expected version 6, found 7" in out


def test_a_deck_swapped_after_the_deal_fails_its_commitment(bundle, tmp_path):
    forged = copy.deepcopy(bundle)
    deal = _first(forged, "HandDealt", hand_number=2)
    deck = deal["data"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    code, out = verifier_run(forged, tmp_path)
    assert code == 1
    assert (
        f"event {deal['version']} (HandDealt, hand 2): the deck and salt do not hash to the"
        " commitment"
    ) in out
    # Even re-chained, the commitment published at the deal gives the swap away.
    code, out = verifier_run(rechained(forged), tmp_path)
    assert code == 1
    assert "hash chain of events 1 to" in out
    assert f"event {deal['version']} (HandDealt, hand 2): the deck and salt do not hash" in out


def test_a_rechained_changed_result_is_caught_by_the_rules_alone(bundle, tmp_path):
    forged = copy.deepcopy(bundle)
    scored = _first(forged, "HandScored", hand_number=2)
    scored["data"]["points"] += 5
    code, out = verifier_run(rechained(forged), tmp_path)
    assert code == 1
    assert "ok      hash chain of events 1 to" in out  # the chain is consistent again
    assert "deck commitment" in out and "does not hash" not in out
    assert (
        f"event {scored['version']} (HandScored, hand 2): points is"
        f" {scored['data']['points']}, the rules give {scored['data']['points'] - 5}"
    ) in out


def test_a_rechained_knock_or_defence_is_caught_by_the_rules(bundle, tmp_path):
    knock = copy.deepcopy(bundle)
    knocked = _first(knock, "Knocked")
    knocked["data"]["deadwood_value"] += 1
    code, out = verifier_run(rechained(knock), tmp_path)
    assert code == 1
    assert f"event {knocked['version']} (Knocked, hand 1): deadwood" in out
    defence = copy.deepcopy(bundle)
    laid = next(
        e for e in defence["events"] if e["type"] == "DefenceLaidOut" and e["data"]["melds"]
    )
    laid["data"]["deadwood"] += laid["data"]["melds"].pop()  # a meld "forgotten"
    laid["data"]["deadwood_value"] = sum(
        min(10, "A23456789TJQK".index(c[0]) + 1) for c in laid["data"]["deadwood"]
    )
    code, out = verifier_run(rechained(defence), tmp_path)
    assert code == 1
    assert f"event {laid['version']} (DefenceLaidOut" in out
    assert "their best melds and layoffs leave" in out


def test_a_rechained_scoresheet_forgery_is_caught(bundle, tmp_path):
    """A GameWon taken out (and the events renumbered and re-chained): the rules call for it."""
    forged = copy.deepcopy(bundle)
    won = _first(forged, "GameWon")
    forged["events"].remove(won)
    code, out = verifier_run(rechained(forged), tmp_path)
    assert code == 1
    verdict = out.splitlines()[-1]
    assert verdict.startswith(f"VERDICT: FAILED: first discrepancy: event {won['version']} (")
    assert "GameWon" in verdict  # missing, or the next game's in its place
    summary = copy.deepcopy(bundle)
    game = summary["scoresheet"]["games"][0]
    key = next(iter(game["scores"]))
    game["scores"][key] += 1
    code, out = verifier_run(summary, tmp_path)
    assert code == 1 and "summary: game 1 scores" in out


def test_a_rechained_table_correction_must_score_by_the_rules(
    alice, bob, organiser, alice_client, tmp_path
):
    forged = _bundle(alice_client, table_match_with_corrections(alice, bob, organiser))
    corrected = _first(forged, "HandCorrected")
    corrected["data"]["after"]["points"] += 3
    code, out = verifier_run(rechained(forged), tmp_path)
    assert code == 1
    assert f"event {corrected['version']} (HandCorrected, hand 1): 'after' is" in out


def test_not_a_bundle(tmp_path):
    code, out = verifier_run({"format": "something else"}, tmp_path)
    assert code == 1 and "unknown bundle format" in out


# --- the other ways in: export_match, the old names -------------------------------------------


def test_export_match_writes_a_file_that_verifies(alice, bob, tmp_path):
    import subprocess
    import sys

    match = finished_match(alice, bob, seed="export")
    out = tmp_path / "export.json"
    call_command("export_match", str(match.pk), "--output", str(out))
    done = subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout
    old = VERIFIER.with_name("verify_bundle.py")  # the earlier name runs the same tool
    done = subprocess.run(
        [sys.executable, "-I", str(old), str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "VERDICT: all checks passed" in done.stdout


def test_export_match_of_a_match_in_play_needs_a_viewer(alice, bob, tmp_path):
    from tests.games.audit.helpers import match_in_play

    match = match_in_play(alice, bob, seed="export-live", moves=4)
    with pytest.raises(CommandError, match="match_in_play"):
        call_command("export_match", str(match.pk))
    out = tmp_path / "live.json"
    call_command("export_match", str(match.pk), "--as", alice.user.username, "-o", str(out))
    text = out.read_text()
    deal = next(e for e in __import__("json").loads(text)["events"] if e["type"] == "HandDealt")
    assert "deck" not in deal["data"]
    with pytest.raises(CommandError, match="no such match"):
        call_command("export_match", "not-a-match")


def test_the_bundle_keeps_its_earlier_address(alice, bob, alice_client):
    match = finished_match(alice, bob, seed="alias")
    old = alice_client.get(f"/api/matches/{match.pk}/bundle/").json()
    assert old == alice_client.get(f"/api/matches/{match.pk}/audit/").json()
    assert SHORT  # the short games of these helpers


def test_a_deck_swapped_in_the_commitments_list_is_named(bundle, tmp_path):
    """The list repeats each deal's deck and salt: a swap there (the events untouched, so the
    hash chain holds) must not pass."""
    forged = copy.deepcopy(bundle)
    entry = forged["commitments"][1]
    entry["deck"][0], entry["deck"][1] = entry["deck"][1], entry["deck"][0]
    code, out = verifier_run(forged, tmp_path)
    assert code == 1, out
    assert (
        f"hand {entry['hand_number']}: the commitments list's deck disagrees with its"
        f" HandDealt event {entry['version']}"
    ) in out
    salted = copy.deepcopy(bundle)
    salted["commitments"][0]["salt"] = "0" * 32
    code, out = verifier_run(salted, tmp_path)
    assert code == 1 and "the commitments list's salt disagrees" in out
    dropped = copy.deepcopy(bundle)
    del dropped["commitments"][-1]
    code, out = verifier_run(dropped, tmp_path)
    assert code == 1 and "commitments list:" in out
    hands = copy.deepcopy(bundle)
    deck = hands["hands"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    code, out = verifier_run(hands, tmp_path)
    assert code == 1 and "hand 1: the hands list's deck disagrees" in out


@pytest.mark.parametrize("how", ["null", "missing"])
def test_a_finished_match_without_its_scoresheet_fails(bundle, tmp_path, how):
    forged = copy.deepcopy(bundle)
    if how == "null":
        forged["scoresheet"] = None
    else:
        del forged["scoresheet"]
    code, out = verifier_run(forged, tmp_path)
    assert code == 1, out
    assert "summary: the bundle has no scoresheet to compare with the events" in out
    fewer = copy.deepcopy(bundle)
    fewer["scoresheet"]["games"].pop()
    code, out = verifier_run(fewer, tmp_path)
    assert code == 1 and "summary: 2 games in the bundle's scoresheet" in out
