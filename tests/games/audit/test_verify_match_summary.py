"""tools/verify_match.py against the bundle's own summary: its header (id, players, ruleset,
hashed_to), its `hands` list and its scoresheet must be what the events give. None of them
is covered by the hash chain, so each tampering here leaves the chain intact: only the
comparison with the replay catches it, and the verdict names the hand or game and the field."""

import copy

import pytest

from demo.bots import match_play_bots_batched
from games.hand_entries import HandEntry
from games.services import match_create, match_record_hand, match_rule
from tests.games.audit.helpers import play_until_hand, table_match_with_corrections, verifier_run

pytestmark = pytest.mark.django_db


def _bundle(client, match):
    response = client.get(f"/api/matches/{match.pk}/audit/")
    assert response.status_code == 200, response.content
    return response.json()


def _failed(bundle, tmp_path):
    code, out = verifier_run(bundle, tmp_path)
    assert code == 1, out
    verdict = out.splitlines()[-1]
    assert verdict.startswith("VERDICT: FAILED: first discrepancy: "), out
    return verdict.removeprefix("VERDICT: FAILED: first discrepancy: ")


@pytest.fixture
def online(alice, bob, alice_client):
    """A finished bot match of three games."""
    match = match_create(
        player1=alice, player2=bob, seed="v3", ruleset={"game_target": 60, "knock_limit": 7}
    )
    match_play_bots_batched(match=match)
    return _bundle(alice_client, match)


@pytest.fixture
def table(alice, bob, organiser, alice_client):
    """A finished table match: hand 1 corrected, hand 2 voided afterwards."""
    match = table_match_with_corrections(alice, bob, organiser)
    for _ in range(2):  # 55 points each: Bob reaches 100
        match_record_hand(
            match_id=match.id,
            by=organiser,
            hand=HandEntry(knocker=bob.pk, gin=True, knocker_deadwood=0, defender_deadwood=30),
        )
    return _bundle(alice_client, match)


def _key(bundle, seat):
    return str(bundle["match"]["players"][seat]["id"])


def test_untouched_bundles_still_pass(online, table, tmp_path):
    for bundle in (online, table):
        assert bundle["match"]["status"] == "finished"
        code, out = verifier_run(bundle, tmp_path)
        assert code == 0, out
        assert "ok      match header: id, players and ruleset" in out
        assert f"ok      summary: the {len(bundle['hands'])} hands listed are the hands" in out
    corrected = table["hands"][0]
    assert corrected["corrections"] and table["hands"][1]["voided"]


def test_a_hand_summary_with_another_score_is_named(online, tmp_path):
    forged = copy.deepcopy(online)
    forged["hands"][1]["points"] += 4
    real = online["hands"][1]["points"]
    assert _failed(forged, tmp_path) == (
        f"summary: hand 2's points are {real + 4} in the bundle's hands list,"
        f" the events give {real}"
    )


def test_a_hand_summary_with_another_winner_kind_or_games_is_named(online, tmp_path):
    ids = [p["id"] for p in online["match"]["players"]]
    winner = copy.deepcopy(online)
    entry = winner["hands"][0]
    entry["winner"] = ids[1] if entry["winner"] == ids[0] else ids[0]
    assert _failed(winner, tmp_path).startswith("summary: hand 1's winner is ")
    kind = copy.deepcopy(online)
    kind["hands"][2]["kind"] = "gin" if kind["hands"][2]["kind"] != "gin" else "knock"
    assert _failed(kind, tmp_path).startswith("summary: hand 3's kind is ")
    games = copy.deepcopy(online)
    games["hands"][0]["games"] = [3]
    assert _failed(games, tmp_path) == (
        "summary: hand 1's games are [3] in the bundle's hands list, the events give [1]"
    )
    knock = copy.deepcopy(online)
    knock["hands"][0]["knock"]["deadwood_value"] += 1
    assert _failed(knock, tmp_path).startswith("summary: hand 1's knock deadwood_value is ")
    dropped = copy.deepcopy(online)
    dropped["hands"].pop()
    count = len(online["hands"])
    assert _failed(dropped, tmp_path) == (
        f"summary: {count - 1} entries in the bundle's hands list, the events end {count} hands"
    )


def test_a_table_hand_summary_is_compared_too(table, tmp_path):
    points = copy.deepcopy(table)
    points["hands"][0]["points"] = 15  # the entry before its correction
    assert _failed(points, tmp_path) == (
        "summary: hand 1's points are 15 in the bundle's hands list, the events give 18"
    )
    unvoided = copy.deepcopy(table)
    del unvoided["hands"][1]["voided"]
    assert _failed(unvoided, tmp_path) == (
        "summary: hand 2's voided is false in the bundle's hands list, the events give true"
    )


def test_a_table_hands_correction_history_is_compared(table, tmp_path):
    corrected = table["hands"][0]["corrections"]
    assert [c["reason"] for c in corrected] == ["deadwood miscounted"]
    reason = copy.deepcopy(table)
    reason["hands"][0]["corrections"][0]["reason"] = "x"
    assert _failed(reason, tmp_path) == (
        "summary: hand 1's corrections[0].reason is \"x\" in the bundle's hands list,"
        ' the events give "deadwood miscounted"'
    )
    version = next(e["version"] for e in table["events"] if e["type"] == "HandCorrected")
    dropped = copy.deepcopy(table)
    dropped["hands"][0]["corrections"].pop()
    assert _failed(dropped, tmp_path) == (
        "summary: hand 1 has 0 corrections in the bundle's hands list, the events give 1"
        f" (HandCorrected, event {version})"
    )
    left_out = copy.deepcopy(table)  # the bundle leaves out only an empty history
    del left_out["hands"][0]["corrections"]
    assert _failed(left_out, tmp_path) == _failed(dropped, tmp_path)
    added = copy.deepcopy(table)
    added["hands"][2]["corrections"] = copy.deepcopy(corrected)
    assert _failed(added, tmp_path).startswith(
        "summary: hand 3 has 1 corrections in the bundle's hands list, the events give 0"
    )
    before = copy.deepcopy(table)
    before["hands"][0]["corrections"][0]["before"]["knocker_deadwood"] = 4
    assert _failed(before, tmp_path) == (
        "summary: hand 1's corrections[0].before knocker_deadwood is 4 in the bundle's"
        " hands list, the events give 5"
    )
    by = copy.deepcopy(table)
    by["hands"][0]["corrections"][0]["by"] = "someone else"
    assert _failed(by, tmp_path) == (
        "summary: hand 1's corrections[0].by is \"someone else\" in the bundle's hands list,"
        f' the events give "{corrected[0]["by"]}"'
    )
    stamped = copy.deepcopy(table)  # as the hand rows store it: the event's version and time
    event = next(e for e in table["events"] if e["type"] == "HandCorrected")
    at = event["recorded_at"].replace("Z", "+00:00")
    stamped["hands"][0]["corrections"][0].update(version=version, at=at)
    code, out = verifier_run(stamped, tmp_path)
    assert code == 0, out
    stamped["hands"][0]["corrections"][0]["version"] = version + 1
    assert _failed(stamped, tmp_path) == (
        f"summary: hand 1's corrections[0].version is {version + 1} in the bundle's hands"
        f" list, the events give {version}"
    )


def test_a_table_hands_void_reason_and_who_are_compared(table, tmp_path):
    voided = table["hands"][1]
    assert voided["void_reason"] == "misdeal"
    reason = copy.deepcopy(table)
    reason["hands"][1]["void_reason"] = "cards exposed"
    assert _failed(reason, tmp_path) == (
        "summary: hand 2's void_reason is \"cards exposed\" in the bundle's hands list,"
        ' the events give "misdeal"'
    )
    by = copy.deepcopy(table)
    by["hands"][1]["void_by"] = "someone else"
    assert _failed(by, tmp_path).startswith(
        "summary: hand 2's void_by is \"someone else\" in the bundle's hands list,"
    )
    stray = copy.deepcopy(table)  # a hand the events never voided
    stray["hands"][2]["void_reason"] = "misdeal"
    assert _failed(stray, tmp_path) == (
        "summary: hand 3's void_reason is \"misdeal\" in the bundle's hands list,"
        " the events give null"
    )


def test_an_online_hand_voided_in_play_keeps_its_reason_and_who(
    alice, bob, organiser, alice_client, tmp_path
):
    match = match_create(player1=alice, player2=bob, seed="voided", organisers=[organiser],
                         ruleset={"game_target": 10, "games": 1})  # fmt: skip
    match = play_until_hand(match, 1)
    match_rule(match_id=match.id, by=organiser, type="void_hand", reason="cards exposed")
    bundle = _bundle(alice_client, match)
    voided = bundle["hands"][0]
    assert voided["kind"] == "voided" and voided["reason"] == "cards exposed"
    code, out = verifier_run(bundle, tmp_path)
    assert code == 0, out
    reason = copy.deepcopy(bundle)
    reason["hands"][0]["reason"] = "misdeal"
    assert _failed(reason, tmp_path) == (
        "summary: hand 1's reason is \"misdeal\" in the bundle's hands list,"
        ' the events give "cards exposed"'
    )
    by = copy.deepcopy(bundle)
    by["hands"][0]["by"] = "someone else"
    assert _failed(by, tmp_path) == (
        "summary: hand 1's by is \"someone else\" in the bundle's hands list,"
        f' the events give "{voided["by"]}"'
    )


def test_a_scoresheet_total_or_games_won_is_named(online, tmp_path):
    key = _key(online, 0)
    totals = copy.deepcopy(online)
    totals["scoresheet"]["totals"][key] += 5
    verdict = _failed(totals, tmp_path)
    assert verdict.startswith("summary: the scoresheet's totals are ")
    assert f'the events give {{"{key}":{online["scoresheet"]["totals"][key]},' in verdict
    won = copy.deepcopy(online)
    won["scoresheet"]["games_won"][key] += 1
    assert _failed(won, tmp_path).startswith("summary: the scoresheet's games_won are ")
    game = copy.deepcopy(online)
    game["scoresheet"]["games"][1]["winner"] = None
    assert _failed(game, tmp_path).startswith("summary: game 2 ")  # closed, then its winner
    bonus = copy.deepcopy(online)
    bonus["scoresheet"]["games"][0]["bonuses"][key] += 10
    assert _failed(bonus, tmp_path).startswith("summary: game 1 bonuses are ")


def test_a_table_scoresheet_total_is_named(table, tmp_path):
    forged = copy.deepcopy(table)
    forged["scoresheet"]["totals"][_key(table, 1)] -= 1
    assert _failed(forged, tmp_path).startswith("summary: the scoresheet's totals are ")


def test_the_ruleset_must_be_the_one_the_match_started_with(online, tmp_path):
    forged = copy.deepcopy(online)
    forged["match"]["ruleset"]["game_target"] = 50
    assert _failed(forged, tmp_path) == (
        "match: the bundle's ruleset game_target is 50, MatchStarted (event 1) says 60"
    )
    missing = copy.deepcopy(online)
    del missing["match"]["ruleset"]["knock_limit"]
    assert _failed(missing, tmp_path).startswith("match: the bundle's ruleset knock_limit is null")


def test_the_players_must_be_the_ones_registered(online, tmp_path):
    real = online["match"]["players"][0]["id"]
    forged = copy.deepcopy(online)
    forged["match"]["players"][0]["id"] = real + 1000
    assert _failed(forged, tmp_path) == (
        f"match: the bundle's player at seat 0 is {real + 1000}, MatchStarted (event 1)"
        f" registers player1 {real}"
    )
    swapped = copy.deepcopy(online)
    players = swapped["match"]["players"]
    players[0]["seat"], players[1]["seat"] = 1, 0
    assert _failed(swapped, tmp_path).startswith("match: the bundle's player at seat 0 is ")
    other = copy.deepcopy(online)
    other["match"]["id"] = "00000000-0000-0000-0000-000000000000"
    assert _failed(other, tmp_path).startswith("match: the bundle's id is ")


def test_hashed_to_must_count_the_hashed_events(online, tmp_path):
    forged = copy.deepcopy(online)
    forged["hashed_to"] -= 1
    count = len(online["events"])
    assert _failed(forged, tmp_path) == (
        f"hashed_to: the bundle says {count - 1}, events 1 to {count} carry their hashes"
    )
